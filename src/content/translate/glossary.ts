/*
 * Glossary terms protected around a provider that cannot be told about them
 * (LibreTranslate, DeepL without a glossary): each occurrence in the text of a segment
 * becomes an empty placeholder element the provider keeps, then the term's fixed
 * translation (or the term itself) is put back in its place.
 */

export interface GlossaryTerm {
  /** The term as written in the source language. */
  source: string;
  /** What it becomes in the target language (the term itself when it stays as it is). */
  target: string;
}

export interface ProtectedSegments {
  segments: string[];
  restore(translated: string[]): string[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A pattern matching any of the terms as whole words (longest first), in text outside tags. */
function termPattern(terms: GlossaryTerm[]): RegExp | undefined {
  const sources = [...new Set(terms.map((t) => t.source).filter((s) => s.trim() !== ''))].sort((a, b) => b.length - a.length);
  if (sources.length === 0) return undefined;
  // The HTML escaping of the segment applies to the terms as well.
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${sources.map((s) => escapeRegExp(escapeHtml(s))).join('|')})(?![\\p{L}\\p{N}_])`, 'gu');
}

export function protectTerms(segments: string[], terms: GlossaryTerm[]): ProtectedSegments {
  const pattern = termPattern(terms);
  if (!pattern) return { segments, restore: (t) => t };
  const targets = new Map(terms.map((t) => [escapeHtml(t.source), escapeHtml(t.target)]));
  const found: string[][] = [];
  const protectedSegments = segments.map((html, index) => {
    const held: string[] = [];
    found[index] = held;
    // Only text between tags: attributes and placeholders are left alone.
    const out = html.replace(/(<[^>]*>)|([^<]+)/g, (whole, tag: string | undefined, text: string | undefined) => {
      if (tag || !text) return whole;
      return text.replace(pattern, (term) => {
        held.push(targets.get(term) ?? term);
        return `<span translate="no" id="g${held.length - 1}"></span>`;
      });
    });
    return out;
  });
  return {
    segments: protectedSegments,
    restore: (translated) =>
      translated.map((html, index) => {
        const held = found[index] ?? [];
        const used = new Set<number>();
        let out = html.replace(/<span\b[^>]*\bid\s*=\s*["']?g(\d+)["']?[^>]*>\s*(?:<\/span>)?/g, (whole, n: string) => {
          const i = Number(n);
          if (held[i] === undefined || used.has(i)) return '';
          used.add(i);
          return held[i];
        });
        // A term the provider dropped comes back at the end rather than vanishing.
        held.forEach((term, i) => {
          if (!used.has(i)) out += ` ${term}`;
        });
        return out;
      }),
  };
}
