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
 * those blocks, so a kept form never changes what a page means. A list's form also keeps
 * each item's source (`items`, `gaps`): a list with an edited item is written with its
 * untouched items as they were, the edited one in the list's written style (its marker,
 * numbering and spacing), under the same check.
 */
import { diffArrays } from 'diff';
import type { Block, Document, ListItemBlock, WrittenForm, WrittenSeparator, WrittenTitle } from './types.ts';
import { keysOf, runFingerprint, stableContent } from './written-fingerprint.ts';
import { isList, listFormFrom, listItemsOf, splitListItems, type WrittenList } from './written-list.ts';

/** Where each written top-level block stands in the canonical text: `[start, end)` offsets and its index among the document's nodes. */
export interface BlockSpan {
  index: number;
  start: number;
  end: number;
}

/** More than this many kept runs, or a kept run longer than the page, is not a page this engine read: ignored. */
export const MAX_FORMS = 10_000;

/** List forms made by formLookup (currentForms keeps them in place of the forms they were made from). */
const madeForms = new WeakMap<WrittenForm, WrittenForm>();

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
  // Lists' kept forms with their items, by the fingerprint of each item.
  const listsByItem = new Map<string, WrittenList[]>();
  // A kept list form stands for one list: while that list is still in the document, unchanged,
  // no other list (one sharing some items with it) is written from it.
  const keyAt = keysOf(contents);
  const present = new Set(contents.map((_, index) => keyAt(index, 1)));
  for (const form of forms) {
    if (present.has(form.blocks)) continue;
    const list = form.nodes === 1 && 'markdown' in form ? listItemsOf(form as unknown as WrittenForm) : undefined;
    for (const item of list?.items ?? []) listsByItem.set(item.blocks, [...(listsByItem.get(item.blocks) ?? []), list!]);
  }
  return (index) => {
    for (const length of lengths) {
      if (index + length > nodes.length) continue;
      const form = byFingerprint.get(keyAt(index, length)!);
      if (form && form.nodes === length) return form;
    }
    // A list whose own form no longer matches (an item was edited): made from the kept form
    // sharing the most items with it.
    const block = nodes[index];
    if (listsByItem.size === 0 || !isList(block)) return undefined;
    const shared = new Map<WrittenList, number>();
    for (const item of block.nodes as ListItemBlock[]) {
      for (const list of listsByItem.get(runFingerprint([item as unknown as Block])) ?? []) shared.set(list, (shared.get(list) ?? 0) + 1);
    }
    const best = [...shared].sort((a, b) => b[1] - a[1])[0]?.[0];
    const made = best && listFormFrom(block, best);
    if (!made) return undefined;
    madeForms.set(made, best);
    return made as unknown as T;
  };
}

/** Finds the kept separator between two top-level nodes (`from` before it, `to` after it). */
export function separatorLookup(nodes: Block[], separators: WrittenSeparator[]): ((from: number, to: number) => WrittenSeparator | undefined) | undefined {
  if (separators.length === 0) return undefined;
  const keyAt = keysOf(nodes.map(stableContent));
  const byFingerprint = new Map(separators.map((f) => [f.blocks, f]));
  return (from, to) => {
    const length = to - from + 1;
    if (from < 0 || to >= nodes.length || length < 2) return undefined;
    const found = byFingerprint.get(keyAt(from, length)!);
    return found?.nodes === length ? found : undefined;
  };
}

/** The kept forms (or separators) whose run is still in the document: what an edit replaced is forgotten. */
export function currentForms<T extends Kept>(nodes: Block[], forms: T[]): T[] {
  const lookup = formLookup(nodes, forms);
  if (!lookup) return [];
  const current = new Set<T>();
  // A list form made from a kept one (an item changed) stands where the kept one stood.
  const made = new Map<T, T>();
  const given = new Set(forms);
  for (let index = 0; index < nodes.length; index++) {
    const form = lookup(index);
    if (!form) continue;
    const source = given.has(form) ? undefined : (madeForms.get(form as unknown as WrittenForm) as T | undefined);
    if (!source) current.add(form);
    else if (!made.has(source)) made.set(source, form);
  }
  return forms.flatMap((f) => [...(current.has(f) ? [f] : []), ...(made.has(f) ? [made.get(f)!] : [])]);
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
  if (!/^ {0,3}#[ \t][^\n]*$/.test(title.line) || title.line.length > 10_000 || !/^\n{1,1000}$/.test(title.separator)) return undefined;
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
      typeof f.separator === 'string' && /^(?:\r?\n)+$/.test(f.separator) && f.separator.replace(/\r/g, '').length <= 2 * f.nodes,
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

export const isBlank = (line: string) => line.trim() === '';

/** Line comparisons the alignment of a page with its canonical writing may make (lines × edit distance). */
const ALIGN_BUDGET = 20_000_000;

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
  const keyAt = keysOf(nodes.map(stableContent));
  const written = canonical.split('\n');
  // A line ending written CR LF, or CR alone, differs from the canonical LF: its block keeps its form, CR and all.
  const sourceLines = source.split('\n');
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
  const hunkAt = () => {
    const last = hunks[hunks.length - 1];
    const hunk = last && last.w1 === w && last.s1 === s ? last : { w0: w, w1: w, s0: s, s1: s };
    if (hunk !== last) hunks.push(hunk);
    return hunk;
  };
  // Lines are aligned by their text without indentation, then a pair whose indentation differs is
  // a hunk of its own: aligned as written, a code line indented in the source (`    x`) would
  // otherwise pair with an equal line of another, more indented, block (generated pages repeat code).
  const unindented = (lines: string[]) => lines.map((line) => line.replace(/^[ \t]+/, ''));
  // Aligning costs (lines × edits): a page that differs on many lines of many (a hand-written
  // page, or one written to be slow) is one hunk past a budget, kept whole as its form.
  const maxEditLength = Math.max(200, Math.floor(ALIGN_BUDGET / (writtenText.length + sourceText.length + 1)));
  const aligned = diffArrays(unindented(writtenText), unindented(sourceText), { maxEditLength }) ?? [
    { value: writtenText, removed: true, added: false, count: writtenText.length },
    { value: sourceText, removed: false, added: true, count: sourceText.length },
  ];
  for (const part of aligned) {
    const count = part.value.length;
    if (!part.added && !part.removed) {
      for (let k = 0; k < count; k++) {
        if (writtenText[w] === sourceText[s]) sourceOf.set(w, s);
        else {
          const hunk = hunkAt();
          hunk.w1 = w + 1;
          hunk.s1 = s + 1;
        }
        w++;
        s++;
      }
      continue;
    }
    const hunk = hunkAt();
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
      const before = blockLines.findLastIndex((b) => b.to <= hunk.w0);
      if (before < 0) {
        // A line above the first block the canonical form has no counterpart for (a quote's opening `>`) is the first block's.
        if (hunk.s0 === hunk.s1 || hunk.w0 !== hunk.w1 || blockLines.length === 0) continue;
        lo = hi = 0;
        const last = groups[groups.length - 1];
        if (last && lo <= last.hi) last.hunks.push(hunk);
        else groups.push({ lo, hi, hunks: [hunk] });
        continue;
      }
      const after = blockLines.findIndex((b) => b.from >= hunk.w1);
      lo = before;
      hi = after >= 0 ? after : before;
    }
    // Source lines right under a block's last line (no blank line between) that carry a
    // container's prefix (a quote's closing `>`, an indented continuation) are that block's:
    // the block joins the group, which is then cut at its blank lines.
    if (hunk.s0 < hunk.s1 && lo > 0 && blockLines[lo - 1].to === hunk.w0) {
      const line = sourceFilled[hunk.s0];
      if (line > 0 && !isBlank(sourceLines[line - 1]) && /^[ \t]*>|^[ \t]/.test(sourceLines[line])) lo--;
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
    let form: WrittenForm = { nodes: run.length, blocks: keyAt(firstBlock.index, run.length)!, markdown };
    if (!((read || sameBlocks(readBlocks(markdown), run)) && keep(firstBlock.index, form))) return null;
    // A list keeps each item's source too, for when one of them is edited.
    const items = run.length === 1 && isList(run[0]) ? splitListItems(markdown, run[0], readBlocks) : undefined;
    if (items) form = { ...form, ...items } as WrittenList;
    return form;
  };
  // The group's source: its blocks' matched lines and its hunks' lines, blank lines between included.
  const sourceSpan = (group: (typeof groups)[number]) => {
    let low = Infinity;
    let high = -Infinity;
    for (let line = blockLines[group.lo].from; line < blockLines[group.hi].to; line++) {
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
    return low < high ? { from: sourceFilled[low], to: sourceFilled[high - 1] + 1 } : { from: 0, to: 0 };
  };
  // Groups of neighbouring blocks whose sources touch (no blank line between) are one: such
  // blocks are written as one piece of source, and the lines where one ends and the next
  // begins may be aligned with either (a fence holding fence lines, code right under it).
  // So is a group left with no source line of its own next to one that has some: its lines
  // were aligned with its neighbour's (two blocks written on one line, `{% endhint %}{% hint %}`,
  // the second's closing tag paired with the first's).
  for (let k = groups.length - 1; k > 0; k--) {
    const [before, after] = [groups[k - 1], groups[k]];
    if (before.hi + 1 !== after.lo) continue;
    const [a, b] = [sourceSpan(before), sourceSpan(after)];
    const touch = a.from < a.to && b.from < b.to && a.to === b.from;
    if (touch || (a.from < a.to) !== (b.from < b.to)) groups.splice(k - 1, 2, { lo: before.lo, hi: after.hi, hunks: [...before.hunks, ...after.hunks] });
  }
  let next = 0;
  for (const group of groups) {
    for (; next < group.lo; next++) runs.push(single(next));
    next = group.hi + 1;
    const { from, to } = sourceSpan(group);
    // One form per block where the group's source cuts into pieces that each read as their
    // block and may each be written alone; else the group's source as one form.
    const whole = { lo: group.lo, hi: group.hi, from, to };
    const pieces = from < to ? splitGroup(group.lo, group.hi, from, to) : undefined;
    const split = pieces?.map((piece) => ({ piece, form: formOf(piece, true) }));
    let choice = split && split.every((p) => p.form !== null) ? split : [{ piece: whole, form: from < to ? formOf(whole, false) : undefined }];
    if (split && choice[0].form === null) choice = split;
    // A fence left open runs to the page's end, its trailing blank lines its content (GFM): the
    // page's last run, not reading as its blocks without them, is tried with them.
    if (choice.length === 1 && choice[0].form === null && group.hi === blockLines.length - 1 && to < sourceLines.length && sourceLines.slice(to).every(isBlank)) {
      for (const end of [sourceLines.length - 1, sourceLines.length]) {
        const extended = { ...whole, to: end };
        const form = end > to ? formOf(extended, false) : null;
        if (form) {
          choice = [{ piece: extended, form }];
          break;
        }
      }
    }
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
    // A blank line ending CR LF in a page of LF lines keeps its CR.
    const separator = '\n' + between.map((line) => (line.endsWith('\r') ? '\r\n' : '\n')).join('');
    const canonicalSeparator = canonical.slice(before.end, after.start);
    if (separator === canonicalSeparator) continue;
    if (!separatorFits(before.text, separator, after.text, canonicalSeparator, nodes.slice(before.first, after.last + 1), readBlocks)) continue;
    const run = nodes.slice(before.last, after.first + 1);
    separators.push({ nodes: run.length, blocks: keyAt(before.last, run.length)!, separator });
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
