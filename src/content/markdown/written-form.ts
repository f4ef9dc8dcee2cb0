/*
 * Keeping the written form of a page (issue 31). GitBook's engine accepts many ways of
 * writing the same block (`-` or `*` bullets, `*x*` or `_x_`, setext headings, table cells
 * padded or not, the older export's escapes) and a page written by hand or by an older
 * GitBook uses them; the document model has no field for most of them. Reading a page
 * (`keepWrittenForm`), the runs of top-level blocks whose source differs from the canonical
 * writing keep that source in the document's open `data` (`writtenForms`), each with the
 * fingerprint of the blocks it stands for. Writing, a run of blocks whose fingerprint still
 * matches is written as it was read; an edited block no longer matches and is written in
 * GitBook's canonical form. Both directions check that the kept text reads back as exactly
 * those blocks, so a kept form never changes what a page means.
 */
import { createHash } from 'node:crypto';
import { diffArrays } from 'diff';
import type { Block, Document, WrittenForm } from './types.ts';

/** Where each written top-level block stands in the canonical text: `[start, end)` offsets and its index among the document's nodes. */
export interface BlockSpan {
  index: number;
  start: number;
  end: number;
}

/** More than this many kept runs, or a kept run longer than the page, is not a page this engine read: ignored. */
const MAX_FORMS = 10_000;

/** Node content as a string that does not depend on keys or on the order of object properties (jsonb reorders them). */
function stableContent(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableContent).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .filter((name) => name !== 'key' && (value as Record<string, unknown>)[name] !== undefined)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${stableContent((value as Record<string, unknown>)[name])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The fingerprint of a run of top-level blocks (of their contents, from `stableContent`). */
function fingerprintOf(contents: string[]): string {
  return createHash('sha256').update(`[${contents.join(',')}]`).digest('base64url');
}

/** The fingerprint of a run of top-level blocks. */
export function runFingerprint(blocks: Block[]): string {
  return fingerprintOf(blocks.map(stableContent));
}

/**
 * Finds, at a node index, the kept form whose run starts there. Fingerprints are computed
 * only for the run lengths the forms have.
 */
export function formLookup(nodes: Block[], forms: WrittenForm[]): ((index: number) => WrittenForm | undefined) | undefined {
  if (forms.length === 0) return undefined;
  const contents = nodes.map(stableContent);
  const byFingerprint = new Map(forms.map((f) => [f.blocks, f]));
  const lengths = [...new Set(forms.map((f) => f.nodes))].sort((a, b) => b - a);
  return (index) => {
    for (const length of lengths) {
      if (index + length > nodes.length) continue;
      const form = byFingerprint.get(fingerprintOf(contents.slice(index, index + length)));
      if (form && form.nodes === length) return form;
    }
    return undefined;
  };
}

/** The kept forms whose run is still in the document: what an edit replaced is forgotten. */
export function currentForms(nodes: Block[], forms: WrittenForm[]): WrittenForm[] {
  const lookup = formLookup(nodes, forms);
  if (!lookup) return [];
  const current = new Set<WrittenForm>();
  for (let index = 0; index < nodes.length; index++) {
    const form = lookup(index);
    if (form) current.add(form);
  }
  return forms.filter((f) => current.has(f));
}

/** Whether two lists of blocks are the same content (keys and property order aside). */
export function sameBlocks(a: Block[], b: Block[]): boolean {
  return a.length === b.length && stableContent(a) === stableContent(b);
}

/** A document's kept forms that are well formed (the field is open to any caller). */
export function writtenFormsOf(data: Document['data'] | undefined): WrittenForm[] {
  const forms = (data as { writtenForms?: unknown } | undefined)?.writtenForms;
  if (!Array.isArray(forms) || forms.length > MAX_FORMS) return [];
  return forms.filter(
    (f): f is WrittenForm =>
      !!f && typeof f === 'object' && Number.isInteger(f.nodes) && f.nodes > 0 && typeof f.blocks === 'string' && typeof f.markdown === 'string' && f.markdown.trim() !== '',
  );
}

const isBlank = (line: string) => line.trim() === '';

/**
 * The runs of top-level blocks whose source lines differ from their canonical writing, with
 * the source lines they were read from. `canonical` is the document written canonically and
 * `spans` where each of its top-level blocks stands in it. Lines are compared without
 * trailing whitespace (GitBook's `&#x20;` trimming is the normal form's, not a written form).
 * `readBlocks` reads a source snippet as the page would; a run is kept only if its source,
 * read alone, gives exactly its blocks.
 */
export function findWrittenForms(
  source: string,
  nodes: Block[],
  canonical: string,
  spans: BlockSpan[],
  headingOffset: number,
  readBlocks: (markdown: string) => Block[],
): { index: number; form: WrittenForm }[] {
  if (spans.length === 0) return [];
  const written = canonical.split('\n');
  const sourceLines = source.replace(/\r\n?/g, '\n').split('\n');
  const trimEnd = (line: string) => line.replace(/(?:[ \t]|&#x20;)+$/, '');
  // Line ranges of the written blocks in the canonical text.
  const lineAt = lineIndexer(canonical);
  const blockLines = spans.map((s) => ({ ...s, from: lineAt(s.start), to: lineAt(Math.max(s.start, s.end - 1)) + 1 }));

  // Hunks: canonical lines [w0, w1) written as source lines [s0, s1); common lines map one to one.
  const hunks: { w0: number; w1: number; s0: number; s1: number }[] = [];
  const sourceOf = new Map<number, number>();
  let w = 0;
  let s = 0;
  for (const part of diffArrays(written, sourceLines, { comparator: (a, b) => trimEnd(a) === trimEnd(b) })) {
    const count = part.value.length;
    if (!part.added && !part.removed) {
      for (let k = 0; k < count; k++) sourceOf.set(w + k, s + k);
      w += count;
      s += count;
      continue;
    }
    const last = hunks[hunks.length - 1];
    const hunk = last && last.w1 === w && last.s1 === s ? last : { w0: w, w1: w, s0: s, s1: s };
    if (hunk !== last) hunks.push(hunk);
    if (part.removed) w = hunk.w1 = w + count;
    else s = hunk.s1 = s + count;
  }

  // Each hunk belongs to the written blocks it touches; a hunk of source lines between two
  // blocks (lines the canonical form has no counterpart for) to both neighbours.
  const groups: { lo: number; hi: number; hunks: typeof hunks }[] = [];
  for (const hunk of hunks) {
    const wBlank = written.slice(hunk.w0, hunk.w1).every(isBlank);
    const sBlank = sourceLines.slice(hunk.s0, hunk.s1).every(isBlank);
    if (wBlank && sBlank) continue; // blank lines between blocks: the separators are the writer's
    let lo = -1;
    let hi = -1;
    blockLines.forEach((b, i) => {
      const touches = hunk.w0 < hunk.w1 ? b.from < hunk.w1 && hunk.w0 < b.to : b.from < hunk.w0 && hunk.w0 < b.to;
      if (touches) {
        if (lo < 0) lo = i;
        hi = i;
      }
    });
    if (lo < 0) {
      // Lines above the first block are front matter or the title, which are not the document's.
      const before = blockLines.findLastIndex((b) => b.to <= hunk.w0);
      if (before < 0) continue;
      const after = blockLines.findIndex((b) => b.from >= hunk.w1);
      lo = before;
      hi = after >= 0 ? after : before;
    }
    const last = groups[groups.length - 1];
    if (last && lo <= last.hi) {
      last.hi = Math.max(last.hi, hi);
      last.hunks.push(hunk);
    } else groups.push({ lo, hi, hunks: [hunk] });
  }

  const forms: { index: number; form: WrittenForm }[] = [];
  for (const group of groups) {
    const first = blockLines[group.lo];
    const lastBlock = blockLines[group.hi];
    let from = Infinity;
    let to = -Infinity;
    for (let line = first.from; line < lastBlock.to; line++) {
      const mapped = sourceOf.get(line);
      if (mapped !== undefined) {
        from = Math.min(from, mapped);
        to = Math.max(to, mapped + 1);
      }
    }
    for (const hunk of group.hunks) {
      from = Math.min(from, hunk.s0);
      to = Math.max(to, hunk.s1);
    }
    while (from < to && isBlank(sourceLines[from])) from++;
    while (to > from && isBlank(sourceLines[to - 1])) to--;
    if (from >= to) continue;
    const markdown = sourceLines.slice(from, to).join('\n');
    const run = nodes.slice(first.index, lastBlock.index + 1);
    if (markdown === canonical.slice(first.start, lastBlock.end)) continue;
    if (!sameBlocks(readBlocks(markdown), run)) continue;
    forms.push({ index: first.index, form: { nodes: run.length, blocks: runFingerprint(run), markdown } });
  }
  return forms;
}

/** Offset -> line number of a text. */
function lineIndexer(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
}
