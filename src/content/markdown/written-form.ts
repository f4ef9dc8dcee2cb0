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
import type { Block, Document, WrittenForm, WrittenSeparator, WrittenTitle } from './types.ts';

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

/** What is kept of a run of top-level blocks: a written form or a separator. */
interface Kept {
  nodes: number;
  blocks: string;
}

/**
 * Finds, at a node index, the kept form (or separator) whose run starts there. Fingerprints
 * are computed only for the run lengths the forms have.
 */
export function formLookup<T extends Kept>(nodes: Block[], forms: T[]): ((index: number) => T | undefined) | undefined {
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

/** Finds the kept separator between two top-level nodes (`from` before it, `to` after it). */
export function separatorLookup(nodes: Block[], separators: WrittenSeparator[]): ((from: number, to: number) => WrittenSeparator | undefined) | undefined {
  if (separators.length === 0) return undefined;
  const contents = new Map<number, string>();
  const content = (index: number) => contents.get(index) ?? contents.set(index, stableContent(nodes[index])).get(index)!;
  const byFingerprint = new Map(separators.map((f) => [f.blocks, f]));
  return (from, to) => {
    const length = to - from + 1;
    if (from < 0 || to >= nodes.length || length < 2) return undefined;
    const indexes = Array.from({ length }, (_, k) => from + k);
    const found = byFingerprint.get(fingerprintOf(indexes.map(content)));
    return found?.nodes === length ? found : undefined;
  };
}

/** The kept forms (or separators) whose run is still in the document: what an edit replaced is forgotten. */
export function currentForms<T extends Kept>(nodes: Block[], forms: T[]): T[] {
  const lookup = formLookup(nodes, forms);
  if (!lookup) return [];
  const current = new Set<T>();
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

/** A page's kept title line and the newlines under it (page.ts), when well formed: one line, and newlines only. */
export function writtenTitleOf(data: Document['data'] | undefined): WrittenTitle | undefined {
  const title = (data as { writtenTitle?: unknown } | undefined)?.writtenTitle as WrittenTitle | undefined;
  if (!title || typeof title !== 'object' || typeof title.line !== 'string' || typeof title.separator !== 'string') return undefined;
  if (!/^#[ \t][^\n]*$/.test(title.line) || title.line.length > 10_000 || !/^\n{1,1000}$/.test(title.separator)) return undefined;
  return { line: title.line, separator: title.separator };
}

/**
 * A document's kept separators that are well formed: newlines only, and no more than the
 * blocks between could need (each empty paragraph between them is two more).
 */
export function writtenSeparatorsOf(data: Document['data'] | undefined): WrittenSeparator[] {
  const separators = (data as { writtenSeparators?: unknown } | undefined)?.writtenSeparators;
  if (!Array.isArray(separators) || separators.length > MAX_FORMS) return [];
  return separators.filter(
    (f): f is WrittenSeparator =>
      !!f && typeof f === 'object' && Number.isInteger(f.nodes) && f.nodes >= 2 && typeof f.blocks === 'string' &&
      typeof f.separator === 'string' && /^\n+$/.test(f.separator) && f.separator.length <= 2 * f.nodes,
  );
}

/**
 * Whether a separator may stand between two written runs of top-level blocks: the text
 * around it must read as exactly the blocks they stand for (`run`), or as the canonical
 * separator would read (a run that does not read back as itself, after path resolution).
 * A separator of fewer blank lines could join the blocks (a paragraph runs on into the
 * next line), one of more could add empty paragraphs: such a separator is not written.
 */
export function separatorFits(
  before: string,
  separator: string,
  after: string,
  canonicalSeparator: string,
  run: Block[],
  readBlocks: (markdown: string) => Block[],
): boolean {
  if (separator === canonicalSeparator) return true;
  const read = readBlocks(before + separator + after);
  return sameBlocks(read, run) || sameBlocks(read, readBlocks(before + canonicalSeparator + after));
}

const isBlank = (line: string) => line.trim() === '';

/**
 * The runs of top-level blocks whose source lines differ from their canonical writing, with
 * the source lines they were read from, and the separators between top-level blocks the
 * source writes differently. `canonical` is the document written canonically and `spans`
 * where each of its top-level blocks stands in it. Lines are compared without trailing
 * whitespace (GitBook's `&#x20;` trimming is the normal form's, not a written form).
 * `readBlocks` reads a source snippet as the page would; a run is kept only if its source,
 * read alone, gives exactly its blocks, and if `keep` (where the writer would write it)
 * allows; a separator only if the two written runs around it, read with it, give exactly
 * their blocks (`separatorFits`, the writer's check).
 */
export function findWrittenForms(
  source: string,
  nodes: Block[],
  canonical: string,
  spans: BlockSpan[],
  readBlocks: (markdown: string) => Block[],
  keep: (index: number, form: WrittenForm) => boolean = () => true,
): { forms: WrittenForm[]; separators: WrittenSeparator[] } {
  if (spans.length === 0) return { forms: [], separators: [] };
  const written = canonical.split('\n');
  const sourceLines = source.replace(/\r\n?/g, '\n').split('\n');
  const trimEnd = (line: string) => line.replace(/(?:[ \t]|&#x20;)+$/, '');
  const sameText = (a: string, b: string) => a.split('\n').map(trimEnd).join('\n') === b.split('\n').map(trimEnd).join('\n');
  // Lines are matched without the blank ones: blank lines are the separators between blocks
  // (and the spacing inside some), and matched alone they would pair a separator of one side
  // with another of the other side, cutting a block from its source.
  const filled = (lines: string[]) => lines.flatMap((line, i) => (isBlank(line) ? [] : [i]));
  const writtenFilled = filled(written);
  const sourceFilled = filled(sourceLines);
  // Ranges of the written blocks among the canonical text's non-blank lines.
  const lineAt = lineIndexer(canonical);
  const firstFilled = (line: number) => { let lo = 0; let hi = writtenFilled.length; while (lo < hi) { const mid = (lo + hi) >> 1; if (writtenFilled[mid] < line) lo = mid + 1; else hi = mid; } return lo; };
  const blockLines = spans.map((b) => ({ ...b, from: firstFilled(lineAt(b.start)), to: firstFilled(lineAt(Math.max(b.start, b.end - 1)) + 1) }));

  // Hunks: canonical non-blank lines [w0, w1) written as source non-blank lines [s0, s1); common lines map one to one.
  const hunks: { w0: number; w1: number; s0: number; s1: number }[] = [];
  const sourceOf = new Map<number, number>();
  let w = 0;
  let s = 0;
  const writtenText = writtenFilled.map((i) => trimEnd(written[i]));
  const sourceText = sourceFilled.map((i) => trimEnd(sourceLines[i]));
  for (const part of diffArrays(writtenText, sourceText)) {
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
  // A block whose lines all match keeps the source's blank lines inside it (a list whose items
  // stand apart) as its form when they differ from the canonical ones.
  const sourceRange = (b: (typeof blockLines)[number]) => {
    const from = sourceOf.get(b.from);
    const to = sourceOf.get(b.to - 1);
    return from === undefined || to === undefined ? undefined : { from: sourceFilled[from], to: sourceFilled[to] + 1 };
  };
  blockLines.forEach((b, i) => {
    if (groups.some((g) => g.lo <= i && i <= g.hi)) return;
    const range = sourceRange(b);
    if (!range) return;
    if (sameText(sourceLines.slice(range.from, range.to).join('\n'), canonical.slice(b.start, b.end))) return;
    const at = groups.findIndex((g) => g.lo > i);
    groups.splice(at < 0 ? groups.length : at, 0, { lo: i, hi: i, hunks: [] });
  });

  // The written runs in order: a kept form, or a block written canonically; each with the
  // source lines it was read from where they are known.
  interface Written { first: number; last: number; text: string; start: number; end: number; from?: number; to?: number }
  const runs: Written[] = [];
  const forms: WrittenForm[] = [];
  const single = (k: number, from?: number, to?: number): Written => {
    const b = blockLines[k];
    const range = sourceRange(b);
    return { first: b.index, last: b.index, text: canonical.slice(b.start, b.end), start: b.start, end: b.end, from: from ?? range?.from, to: to ?? range?.to };
  };
  /**
   * The source of a group of several blocks, cut at its blank lines into one piece per block,
   * each reading alone as its block; undefined when it cannot be (blocks written on adjacent
   * lines): the group is then kept whole.
   */
  const splitGroup = (lo: number, hi: number, from: number, to: number) => {
    if (lo === hi) return undefined;
    const chunks: { from: number; to: number }[] = [];
    for (let line = from; line < to; line++) {
      if (isBlank(sourceLines[line])) continue;
      const last = chunks[chunks.length - 1];
      if (last && last.to === line) last.to = line + 1;
      else chunks.push({ from: line, to: line + 1 });
    }
    const pieces: { lo: number; hi: number; from: number; to: number }[] = [];
    let c = 0;
    for (let k = lo; k <= hi; k++) {
      const block = [nodes[blockLines[k].index]];
      let found = false;
      for (let end = k === hi ? chunks.length - 1 : c; end < chunks.length - (hi - k); end++) {
        const piece = { lo: k, hi: k, from: chunks[c].from, to: chunks[end].to };
        if (sameBlocks(readBlocks(sourceLines.slice(piece.from, piece.to).join('\n')), block)) {
          pieces.push(piece);
          c = end + 1;
          found = true;
          break;
        }
      }
      if (!found) return undefined;
    }
    return pieces;
  };
  /**
   * The form of a piece of source standing for blocks `lo..hi`: undefined when it is written
   * as the canonical text, null when it may not be kept (it does not read as its blocks, or
   * the writer would not write it there). `read` says whether it is already known to read so.
   */
  const formOf = (piece: { lo: number; hi: number; from: number; to: number }, read: boolean): WrittenForm | null | undefined => {
    const firstBlock = blockLines[piece.lo];
    const lastBlock = blockLines[piece.hi];
    const markdown = sourceLines.slice(piece.from, piece.to).join('\n');
    if (sameText(markdown, canonical.slice(firstBlock.start, lastBlock.end))) return undefined;
    const run = nodes.slice(firstBlock.index, lastBlock.index + 1);
    const form = { nodes: run.length, blocks: runFingerprint(run), markdown };
    return (read || sameBlocks(readBlocks(markdown), run)) && keep(firstBlock.index, form) ? form : null;
  };
  let next = 0;
  for (const group of groups) {
    for (; next < group.lo; next++) runs.push(single(next));
    next = group.hi + 1;
    const first = blockLines[group.lo];
    const lastBlock = blockLines[group.hi];
    // The group's source: its blocks' matched lines and its hunks' lines, blank lines between included.
    let low = Infinity;
    let high = -Infinity;
    for (let line = first.from; line < lastBlock.to; line++) {
      const mapped = sourceOf.get(line);
      if (mapped !== undefined) {
        low = Math.min(low, mapped);
        high = Math.max(high, mapped + 1);
      }
    }
    for (const hunk of group.hunks) {
      if (hunk.s0 === hunk.s1) continue;
      low = Math.min(low, hunk.s0);
      high = Math.max(high, hunk.s1);
    }
    const from = low < high ? sourceFilled[low] : 0;
    const to = low < high ? sourceFilled[high - 1] + 1 : 0;
    // One form per block where the group's source cuts into pieces that each read as their
    // block and may each be written alone; else the group's source as one form.
    const whole = { lo: group.lo, hi: group.hi, from, to };
    const pieces = from < to ? splitGroup(group.lo, group.hi, from, to) : undefined;
    const split = pieces?.map((piece) => ({ piece, form: formOf(piece, true) }));
    let choice = split && split.every((p) => p.form !== null) ? split : [{ piece: whole, form: from < to ? formOf(whole, false) : undefined }];
    if (split && choice[0].form === null) choice = split;
    for (const { piece, form } of choice) {
      const known = piece.from < piece.to;
      if (form) {
        forms.push(form);
        runs.push({ first: blockLines[piece.lo].index, last: blockLines[piece.hi].index, text: form.markdown, start: blockLines[piece.lo].start, end: blockLines[piece.hi].end, from: piece.from, to: piece.to });
      } else {
        // Written canonically, block by block: only the outer ends are known in the source.
        for (let k = piece.lo; k <= piece.hi; k++) {
          runs.push(single(k, k === piece.lo && known ? piece.from : undefined, k === piece.hi && known ? piece.to : undefined));
        }
      }
    }
  }
  for (; next < blockLines.length; next++) runs.push(single(next));

  const separators: WrittenSeparator[] = [];
  for (let k = 1; k < runs.length; k++) {
    const before = runs[k - 1];
    const after = runs[k];
    if (before.to === undefined || after.from === undefined || before.to > after.from) continue;
    const between = sourceLines.slice(before.to, after.from);
    if (!between.every(isBlank)) continue;
    const separator = '\n'.repeat(between.length + 1);
    const canonicalSeparator = canonical.slice(before.end, after.start);
    if (separator === canonicalSeparator) continue;
    if (!separatorFits(before.text, separator, after.text, canonicalSeparator, nodes.slice(before.first, after.last + 1), readBlocks)) continue;
    const run = nodes.slice(before.last, after.first + 1);
    separators.push({ nodes: run.length, blocks: runFingerprint(run), separator });
  }
  return { forms, separators };
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
