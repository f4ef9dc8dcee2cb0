/*
 * A kept list form (written-form.ts) with each item's source: cut from the list's source,
 * checked item by item, and remade for a list one of whose items was edited, in the list's
 * written style (its marker, numbering and spacing).
 */
import type { Block, Document, ListBlock, WrittenForm } from './types.ts';
import { writeTop } from './write.ts';
import { currentTextStyle } from './write-inline.ts';
import { markdownToDocument } from './parse.ts';
import { isBlank, MAX_FORMS, sameBlocks } from './written-form.ts';
import { runFingerprint } from './written-fingerprint.ts';

/**
 * A list's kept form (one top-level list block) with the source of each of its items:
 * `items[k]` the fingerprint of item k and the lines it was read from (marker included),
 * `gaps[k]` the newlines between item k and item k + 1.
 */
export interface WrittenList extends WrittenForm {
  items: { blocks: string; markdown: string }[];
  gaps: string[];
}

export const isList = (block: Block | undefined): block is ListBlock => block?.type === 'list-unordered' || block?.type === 'list-ordered' || block?.type === 'list-tasks';

/** A list item's marker line: indentation, marker (a bullet, or a number and its delimiter) and the spaces after it. */
const ITEM_START = /^( {0,3})([*+-]|(\d{1,9})([.)]))([ \t]+|$)/;

/** A kept list form's items, when well formed (the field is open to any caller). */
export function listItemsOf(form: WrittenForm): WrittenList | undefined {
  const { items, gaps } = form as Partial<WrittenList>;
  if (!Array.isArray(items) || !Array.isArray(gaps) || items.length === 0 || gaps.length !== items.length - 1 || items.length > MAX_FORMS) return undefined;
  if (!items.every((i) => !!i && typeof i.blocks === 'string' && typeof i.markdown === 'string' && ITEM_START.test(i.markdown))) return undefined;
  if (!gaps.every((g) => typeof g === 'string' && /^\n{1,3}$/.test(g))) return undefined;
  return form as WrittenList;
}

/**
 * The source of a list read from `markdown`, cut into one piece per item, each reading alone
 * as a list of just that item (`readBlocks`); undefined when it cannot be.
 */
export function splitListItems(markdown: string, list: ListBlock, readBlocks: (markdown: string) => Block[]): Pick<WrittenList, 'items' | 'gaps'> | undefined {
  const lines = markdown.split('\n');
  const indent = ITEM_START.exec(lines[0] ?? '')?.[1];
  if (indent === undefined) return undefined;
  const starts = lines.flatMap((line, i) => (ITEM_START.exec(line)?.[1] === indent ? [i] : []));
  if (starts.length !== list.nodes.length) return undefined;
  const items: WrittenList['items'] = [];
  const gaps: string[] = [];
  for (let k = 0; k < starts.length; k++) {
    let end = k + 1 < starts.length ? starts[k + 1] : lines.length;
    while (end > starts[k] + 1 && isBlank(lines[end - 1])) end--;
    const piece = lines.slice(starts[k], end).join('\n');
    const read = readBlocks(piece);
    if (read.length !== 1 || read[0].type !== list.type || !sameBlocks((read[0] as ListBlock).nodes, [list.nodes[k]])) return undefined;
    items.push({ blocks: runFingerprint([list.nodes[k] as unknown as Block]), markdown: piece });
    if (k + 1 < starts.length) gaps.push('\n'.repeat(starts[k + 1] - end + 1));
  }
  return gaps.every((g) => g.length <= 3) ? { items, gaps } : undefined;
}

/**
 * `piece` (an item's lines) with its marker replaced. The item's content keeps its column
 * (the item's `indent` is part of what it means) where the spaces after the marker allow;
 * else one space follows the marker and the other lines move by the change of width.
 */
function withMarker(piece: string, marker: string): string {
  const lines = piece.split('\n');
  const found = ITEM_START.exec(lines[0])!;
  const spaces = found[5] === '' ? 0 : Math.max(1, found[5].length - (marker.length - found[2].length));
  const fits = found[5] === '' || found[5].includes('\t') || found[5].length - (marker.length - found[2].length) >= 1;
  const head = `${found[1]}${marker}${found[5].includes('\t') ? found[5] : ' '.repeat(spaces)}`;
  const shift = fits ? 0 : head.length - found[0].length;
  lines[0] = head + lines[0].slice(found[0].length);
  for (let i = 1; i < lines.length && shift !== 0; i++) {
    if (isBlank(lines[i])) continue;
    lines[i] = shift >= 0 ? ' '.repeat(shift) + lines[i] : lines[i].replace(new RegExp(`^ {0,${-shift}}`), '');
  }
  return lines.join('\n');
}

/**
 * A list's written form made from a kept form of it before some items changed: each item
 * still there as it was read is written as it was (renumbered in place), every other item in
 * the list's written style; undefined when the kept form has no item of this list. The
 * writer still checks that the text reads back as this list (keptFormFits).
 */
export function listFormFrom(list: ListBlock, kept: WrittenList): WrittenList | undefined {
  const itemPrints = list.nodes.map((item) => runFingerprint([item as unknown as Block]));
  const byPrint = new Map<string, number[]>();
  kept.items.forEach((item, k) => byPrint.set(item.blocks, [...(byPrint.get(item.blocks) ?? []), k]));
  // Each current item to the kept item of the same content, in order where it can be.
  const used = new Set<number>();
  let last = -1;
  const matched = itemPrints.map((print) => {
    const candidates = (byPrint.get(print) ?? []).filter((k) => !used.has(k));
    const k = candidates.find((c) => c > last) ?? candidates[0];
    if (k === undefined) return undefined;
    used.add(k);
    last = k;
    return k;
  });
  if (matched.every((k) => k === undefined)) return undefined;
  // The list's style, from its first kept item: the bullet, or the delimiter and numbering.
  const markers = kept.items.map((item) => ITEM_START.exec(item.markdown)!);
  const first = markers[0];
  const ordered = list.type === 'list-ordered';
  if (ordered !== (first[3] !== undefined)) return undefined;
  const numbers = markers.map((m) => Number(m[3]));
  const same = numbers.length > 1 && numbers.every((n) => n === numbers[1]);
  const start = ordered ? ((list.data as { start?: number }).start ?? 1) : 1;
  const markerAt = (j: number) => (!ordered ? first[2] : `${j === 0 ? start : same ? numbers[1] : start + j}${first[4]}`);
  const commonGap = mostCommon(kept.gaps) ?? '\n';
  // The page's text style (the older export's escaped parentheses) holds for the items written anew.
  const style: Document['data'] = currentTextStyle().escapeParentheses ? { escapeParentheses: true } : {};
  const items: WrittenList['items'] = [];
  const gaps: string[] = [];
  for (const [j, item] of list.nodes.entries()) {
    const k = matched[j];
    let piece: string;
    if (k !== undefined) piece = kept.items[k].markdown;
    else {
      // Written canonically as a list of this item alone, then given the list's marker.
      const alone = { ...list, data: { ...list.data, ...(ordered ? { start: 1 } : {}) }, nodes: [item] } as unknown as Block;
      piece = writeTop({ object: 'document', data: style, nodes: [alone] }, 0);
      if (!ITEM_START.test(piece)) return undefined;
    }
    if (j > 0) {
      const previous = matched[j - 1];
      gaps.push(previous !== undefined && k !== undefined && k === previous + 1 ? kept.gaps[previous] : commonGap);
    }
    items.push({ blocks: itemPrints[j], markdown: withMarker(piece, markerAt(j)) });
  }
  // As reading the text it writes would keep it: with its items, so the next edit works alike.
  const markdown = items.map((item, j) => (j === 0 ? '' : gaps[j - 1]) + item.markdown).join('');
  // Only a text that reads as the list's canonical text does (as the writer checks again).
  const read = (text: string) => markdownToDocument(text).nodes;
  if (!sameBlocks(read(markdown), read(writeTop({ object: 'document', data: style, nodes: [list as unknown as Block] }, 0)))) return undefined;
  return { nodes: 1, blocks: runFingerprint([list]), markdown, items, gaps };
}

function mostCommon(values: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: string | undefined;
  for (const [value, count] of counts) if (best === undefined || count > counts.get(best)!) best = value;
  return best;
}

