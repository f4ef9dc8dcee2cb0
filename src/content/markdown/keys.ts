/*
 * Stable block keys. Markdown read anew numbers blocks by position (b0, b1, ...); a
 * document stored over an earlier one keeps the keys of the blocks it shares with it and
 * gives new blocks keys never used in the page before, so a key names the same block across
 * revisions (what reverting blocks by key and block comments need). A block keeps its key
 * when its content is unchanged, wherever it moved; when it was edited in place; and, for a
 * JSON write that names its blocks' keys (the editor, an API client that read the page),
 * when it was edited and moved under the key it was read with. A key names one block of a
 * document: an unchanged block keeps its key before any claim of another block on it, and a
 * copy of a block (two blocks with one content, or one key sent twice) gets a new key.
 */
import { keyBlock } from './normalize.ts';
import type { Document } from './types.ts';

/** A block's content without its keys, for matching. */
function content(block: unknown): string {
  return JSON.stringify(block, (name, value) => (name === 'key' ? undefined : value));
}

/** Indexes of a longest common subsequence of two lists of strings, as pairs. */
function commonOrder(a: string[], b: string[]): [number, number][] {
  const table: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (table[i + 1][j] >= table[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}

const ORDINAL = /^b(\d+)$/;

/** The highest block ordinal a document's keys use (-1 for none). */
export function highestKey(document: Document | undefined): number {
  let highest = -1;
  for (const block of document?.nodes ?? []) {
    const match = ORDINAL.exec((block as { key?: string }).key ?? '');
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return highest;
}

/**
 * The top-level keys a caller's JSON document names, by position (undefined where a block
 * names none), read before the document is completed (which numbers blocks anew).
 */
export function sentKeys(input: unknown): (string | undefined)[] {
  const nodes = (input as { nodes?: unknown } | null)?.nodes;
  if (!Array.isArray(nodes)) return [];
  return nodes.map((node) => {
    const key = (node as { key?: unknown } | null)?.key;
    return typeof key === 'string' ? key : undefined;
  });
}

/**
 * `next` with the keys of the blocks it shares with `previous`, and fresh keys (above
 * every key `previous` or `next` used, and above `floor`) for the others. `sent`, the keys
 * the caller gave `next`'s blocks (sentKeys), decides between identical blocks and lets an
 * edited block that also moved keep its key; a sent key never takes a key that a block of
 * `previous` still present in `next` keeps, and only names a block of the same type.
 * Returns a new document; `next` is not changed.
 */
export function stableKeys(next: Document, previous: Document | undefined, floor = -1, sent: (string | undefined)[] = []): Document {
  const result = structuredClone(next);
  const old = previous?.nodes ?? [];
  const keyOf = (block: unknown) => (block as { key?: string }).key as string;
  const typeOf = (block: unknown) => (block as { type?: string }).type;
  // Sent keys count only when they name the blocks one to one (a document of as many blocks).
  const claims = sent.length === result.nodes.length ? sent : [];
  const contents = result.nodes.map(content);
  const oldContents = old.map(content);
  /** new index -> old index */
  const matched = new Map<number, number>();
  const oldTaken = new Set<number>();
  const take = (i: number, j: number) => {
    matched.set(i, j);
    oldTaken.add(j);
  };
  const oldByKey = new Map(old.map((block, j) => [keyOf(block), j]));
  // 0. Unchanged blocks sent under their own key (which of two identical blocks moved).
  result.nodes.forEach((_, i) => {
    const j = claims[i] === undefined ? undefined : oldByKey.get(claims[i]);
    if (j !== undefined && !oldTaken.has(j) && oldContents[j] === contents[i]) take(i, j);
  });
  // 1. Unchanged blocks that kept their order.
  const newLeft = contents.map((_, i) => i).filter((i) => !matched.has(i));
  const oldLeft = oldContents.map((_, j) => j).filter((j) => !oldTaken.has(j));
  for (const [a, b] of commonOrder(newLeft.map((i) => contents[i]), oldLeft.map((j) => oldContents[j]))) take(newLeft[a], oldLeft[b]);
  // 2. Unchanged blocks that moved: the first block of the same content still unmatched (a
  // copy finds none left).
  const unmatchedOld = new Map<string, number[]>();
  old.forEach((_, j) => {
    if (oldTaken.has(j)) return;
    const list = unmatchedOld.get(oldContents[j]) ?? [];
    list.push(j);
    unmatchedOld.set(oldContents[j], list);
  });
  result.nodes.forEach((_, i) => {
    if (matched.has(i)) return;
    const candidates = unmatchedOld.get(contents[i]);
    if (!candidates || candidates.length === 0) return;
    take(i, candidates.shift()!);
  });
  // 3. Edited blocks under the key they were read with (edited, maybe moved too).
  result.nodes.forEach((block, i) => {
    if (matched.has(i) || claims[i] === undefined) return;
    const j = oldByKey.get(claims[i]);
    if (j !== undefined && !oldTaken.has(j) && typeOf(old[j]) === typeOf(block)) take(i, j);
  });
  // 4. Between two matched blocks, an edited block is the one of the same type that stood in
  // the same place: it keeps its key (what was modified, as opposed to removed and added).
  const anchors = [...matched].sort((a, b) => a[0] - b[0]).filter(([, j], k, list) => k === 0 || j > list[k - 1][1]);
  const bounds: [number, number][] = [[-1, -1], ...anchors, [result.nodes.length, old.length]];
  for (let g = 0; g + 1 < bounds.length; g++) {
    const [i0, j0] = bounds[g];
    const [i1, j1] = bounds[g + 1];
    const news: number[] = [];
    const olds: number[] = [];
    for (let i = i0 + 1; i < i1; i++) if (!matched.has(i)) news.push(i);
    for (let j = j0 + 1; j < j1; j++) if (!oldTaken.has(j)) olds.push(j);
    for (let k = 0; k < news.length && k < olds.length; k++) {
      if (typeOf(result.nodes[news[k]]) === typeOf(old[olds[k]])) take(news[k], olds[k]);
    }
  }
  let fresh = Math.max(highestKey(previous), floor) + 1;
  const taken = new Set([...matched.values()].map((j) => keyOf(old[j])));
  const given = new Set<string>();
  result.nodes.forEach((block, i) => {
    const j = matched.get(i);
    // A previous document holding one key twice (written before keys were checked) gives it once.
    if (j !== undefined && !given.has(keyOf(old[j]))) {
      keyBlock(block as { key?: string }, keyOf(old[j]));
      given.add(keyOf(old[j]));
    } else {
      while (taken.has(`b${fresh}`)) fresh++;
      keyBlock(block as { key?: string }, `b${fresh}`);
      taken.add(`b${fresh++}`);
    }
  });
  return result;
}
