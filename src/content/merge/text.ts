/*
 * Line-by-line three-way merge of text (a page's canonical markdown), with node-diff3.
 */
import { diff3Merge, diffComm } from 'node-diff3';

export type TextMerge =
  | { ok: true; text: string }
  | { ok: false; hunks: { baseLine: number; baseLength: number }[] };

/**
 * Merges `ours` and `theirs`, both derived from `base`. Changes to different lines merge;
 * a hunk of lines changed differently on both sides (or changes touching each other, as
 * in diff3) is a conflict. The same change made on both sides is not a conflict.
 */
export function mergeText(base: string, ours: string, theirs: string): TextMerge {
  if (ours === theirs || theirs === base) return { ok: true, text: ours };
  if (ours === base) return { ok: true, text: theirs };
  const regions = diff3Merge(split(ours), split(base), split(theirs), { excludeFalseConflicts: true });
  const lines: string[] = [];
  const hunks: { baseLine: number; baseLength: number }[] = [];
  for (const region of regions) {
    if (region.ok) lines.push(...region.ok);
    else if (region.conflict) hunks.push({ baseLine: region.conflict.oIndex + 1, baseLength: region.conflict.o.length });
  }
  return hunks.length > 0 ? { ok: false, hunks } : { ok: true, text: lines.join('\n') };
}

function split(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}

/**
 * The items of `other` that left their place relative to the items both lists share: the
 * ones outside a longest common subsequence of the shared items, in `other`'s order.
 */
export function reorderedItems(base: readonly string[], other: readonly string[]): Set<string> {
  const inBase = new Set(base);
  const inOther = new Set(other);
  const a = base.filter((id) => inOther.has(id));
  const b = other.filter((id) => inBase.has(id));
  // The common case: the shared items kept their order (no diff to compute).
  if (a.length === b.length && a.every((id, i) => id === b[i])) return new Set();
  const moved = new Set<string>();
  for (const part of diffComm(a, b)) for (const id of part.buffer2 ?? []) moved.add(id);
  return moved;
}
