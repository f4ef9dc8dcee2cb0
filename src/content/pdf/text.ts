import type { ContentRef, InlineContent, Text } from '../markdown/types.ts';
import { parseLink } from '../../lib/urls.ts';
import type { PdfPage } from './render.ts';

/*
 * The PDF's text: inline content as runs of one style each, the fonts they are set in,
 * link targets (web links, or pages inside the PDF), and what the standard fonts can print.
 */

export const FONT = {
  regular: 'Helvetica',
  bold: 'Helvetica-Bold',
  italic: 'Helvetica-Oblique',
  boldItalic: 'Helvetica-BoldOblique',
  mono: 'Courier',
  monoBold: 'Courier-Bold',
  monoItalic: 'Courier-Oblique',
  monoBoldItalic: 'Courier-BoldOblique',
} as const;

/** A piece of text in one style, with where it links to. */
export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  mono?: boolean;
  strike?: boolean;
  link?: string;
  goTo?: string;
}

// ---------------------------------------------------------------------------------------
// Inline content

export function inlineRuns(nodes: InlineContent[], inPdf: Set<string>, link?: Pick<Run, 'link' | 'goTo'>): Run[] {
  const runs: Run[] = [];
  for (const node of nodes) {
    if (node.object === 'text') {
      for (const leaf of node.leaves) {
        const run: Run = { text: leaf.text, ...link };
        for (const mark of leaf.marks) {
          if (mark.type === 'bold') run.bold = true;
          else if (mark.type === 'italic') run.italic = true;
          else if (mark.type === 'code' || mark.type === 'keyboard') run.mono = true;
          else if (mark.type === 'strikethrough') run.strike = true;
        }
        runs.push(run);
      }
      continue;
    }
    switch (node.type) {
      case 'link': {
        const ref = node.data.ref;
        const target =
          ref.kind === 'url'
            ? { link: safeUrl(ref.url) }
            : ref.kind === 'page' && !ref.space && inPdf.has(ref.page)
              ? { goTo: destination(ref.page) }
              : ref.kind === 'anchor' && !ref.space && ref.page && inPdf.has(ref.page)
                ? { goTo: destination(ref.page) }
                : {};
        runs.push(...inlineRuns(node.nodes.filter((n): n is Text => n.object === 'text'), inPdf, target));
        break;
      }
      case 'inline-math':
        runs.push({ text: node.data.formula, mono: true, ...link });
        break;
      case 'expression':
        runs.push({ text: node.data.expression, mono: true, ...link });
        break;
      // Inline images, icons and emoji have no printable form in the standard fonts.
      default:
        break;
    }
  }
  return runs;
}

export function refRuns(ref: ContentRef, pages: PdfPage[], inPdf: Set<string>): Run[] {
  if (ref.kind === 'url') return [{ text: ref.url, link: safeUrl(ref.url) }];
  if (ref.kind === 'page' && !ref.space) {
    const page = pages.find((p) => p.id === ref.page);
    if (page) return [{ text: page.title, goTo: inPdf.has(ref.page) ? destination(ref.page) : undefined }];
  }
  return [];
}

/** Text of inline nodes without styles (table cells, code lines). */
export function plainText(nodes: Array<InlineContent>): string {
  let out = '';
  for (const node of nodes) {
    if (node.object === 'text') out += node.leaves.map((l) => l.text).join('');
    else if (node.type === 'link') out += plainText(node.nodes);
    else if (node.type === 'expression') out += node.data.expression;
    else if (node.type === 'inline-math') out += node.data.formula;
  }
  return out;
}

/** Adjacent runs of the same style as one (fewer text calls, cleaner text extraction). */
export function merge(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const run of runs) {
    const prev = out[out.length - 1];
    if (
      prev &&
      !!prev.bold === !!run.bold &&
      !!prev.italic === !!run.italic &&
      !!prev.mono === !!run.mono &&
      !!prev.strike === !!run.strike &&
      prev.link === run.link &&
      prev.goTo === run.goTo
    ) {
      prev.text += run.text;
    } else {
      out.push({ ...run });
    }
  }
  return out;
}

export function fontOf(run: Run): string {
  if (run.mono) return run.bold ? (run.italic ? FONT.monoBoldItalic : FONT.monoBold) : run.italic ? FONT.monoItalic : FONT.mono;
  return run.bold ? (run.italic ? FONT.boldItalic : FONT.bold) : run.italic ? FONT.italic : FONT.regular;
}

export const destination = (pageId: string) => `page-${pageId}`;

/** Only web and mail links become link annotations, read by the one link check (parseLink). */
export function safeUrl(url: string): string | undefined {
  const link = parseLink(url);
  return link && (link.scheme === 'http:' || link.scheme === 'https:' || link.scheme === 'mailto:') ? link.url : undefined;
}

/** Leading spaces (code indentation) as no-break spaces: pdfkit's line wrapper would drop them. */
export function preserveIndent(text: string): string {
  return text.replace(/\t/g, '    ').replace(/^ +/gm, (spaces) => '\u00a0'.repeat(spaces.length));
}

// ---------------------------------------------------------------------------------------
// Characters

// WinAnsi (Windows-1252) beyond Latin-1: what the standard fonts can print.
const CP1252_EXTRA = new Set(
  [0x20ac, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x017d, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x017e, 0x0178],
);
const REPLACEMENTS: Record<string, string> = {
  '\u2192': '->',
  '\u2190': '<-',
  '\u21d2': '=>',
  '\u2264': '<=',
  '\u2265': '>=',
  '\u2260': '!=',
  '\u2212': '-',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2032': "'",
  '\u2033': '"',
  '\u2713': 'v',
  '\u2714': 'v',
  '\u2717': 'x',
  '\u25e6': '\u00b7',
};

function printable(cp: number): boolean {
  return cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || CP1252_EXTRA.has(cp);
}

/** Text the standard fonts can print: transliterated where decomposition allows, else `?`; emoji and invisible characters dropped. */
export function winAnsi(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    const cp = char.codePointAt(0) as number;
    if (printable(cp)) out += char;
    else if (char === '\t') out += '    ';
    else if (REPLACEMENTS[char] !== undefined) out += REPLACEMENTS[char];
    else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0x200b && cp <= 0x200f) || cp === 0xfeff || (cp >= 0xfe00 && cp <= 0xfe0f)) continue;
    else if (cp >= 0x1f000 || (cp >= 0x2600 && cp <= 0x27bf)) continue; // emoji and pictographs
    else {
      const base = char.normalize('NFKD').replace(/\p{M}/gu, '');
      out += base.length > 0 && [...base].every((c) => printable(c.codePointAt(0) as number)) ? base : '?';
    }
  }
  return out;
}
