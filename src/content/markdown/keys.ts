/*
 * Stable block keys. Markdown read anew numbers blocks by position (b0, b1, ...); a
 * document stored over an earlier one keeps the keys of the blocks it shares with it
 * (matched by content, in order) and gives new blocks keys never used in the page before,
 * so a key names the same block across revisions (what reverting blocks by key needs).
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
 * `next` with the keys of the blocks it shares with `previous`, and fresh keys (above
 * every key `previous` or `next` used, and above `floor`) for the others. Returns a new
 * document; `next` is not changed.
 */
export function stableKeys(next: Document, previous: Document | undefined, floor = -1): Document {
  const result = structuredClone(next);
  const old = previous?.nodes ?? [];
  const keyOf = (block: unknown) => (block as { key?: string }).key as string;
  const typeOf = (block: unknown) => (block as { type?: string }).type;
  const anchors = commonOrder(result.nodes.map(content), old.map(content));
  const matched = new Map(anchors.map(([i, j]) => [i, keyOf(old[j])]));
  // Between two unchanged blocks, an edited block is the one of the same type that stood in
  // the same place: it keeps its key (what was modified, as opposed to removed and added).
  const bounds: [number, number][] = [[-1, -1], ...anchors, [result.nodes.length, old.length]];
  for (let g = 0; g + 1 < bounds.length; g++) {
    const [i0, j0] = bounds[g];
    const [i1, j1] = bounds[g + 1];
    for (let k = 0; i0 + 1 + k < i1 && j0 + 1 + k < j1; k++) {
      const i = i0 + 1 + k;
      const j = j0 + 1 + k;
      if (typeOf(result.nodes[i]) === typeOf(old[j])) matched.set(i, keyOf(old[j]));
    }
  }
  let fresh = Math.max(highestKey(previous), floor) + 1;
  const taken = new Set([...matched.values()]);
  result.nodes.forEach((block, i) => {
    const key = matched.get(i);
    if (key) keyBlock(block as { key?: string }, key);
    else {
      while (taken.has(`b${fresh}`)) fresh++;
      keyBlock(block as { key?: string }, `b${fresh}`);
      taken.add(`b${fresh++}`);
    }
  });
  return result;
}
