/*
 * Fingerprints of runs of top-level blocks, by which a page's kept written forms and
 * separators (written-form.ts) find the blocks they were read from: independent of keys and
 * of the order of object properties, and told apart when a page repeats a run.
 */
import { createHash } from 'node:crypto';
import type { Block } from './types.ts';

/** Node content as a string that does not depend on keys or on the order of object properties (jsonb reorders them). */
export function stableContent(value: unknown): string {
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
 * The keys of the runs of `length` top-level blocks, by start index: the run's fingerprint,
 * and `fingerprint#k` for its k-th repetition (k >= 1) in the document, so that identical
 * runs a page writes differently (generated reference pages repeat whole paragraphs) each
 * keep their own form and separators.
 */
function runKeys(contents: string[], length: number): string[] {
  const seen = new Map<string, number>();
  const keys: string[] = [];
  for (let i = 0; i + length <= contents.length; i++) {
    const print = fingerprintOf(contents.slice(i, i + length));
    const k = seen.get(print) ?? 0;
    seen.set(print, k + 1);
    keys.push(k === 0 ? print : `${print}#${k}`);
  }
  return keys;
}

/** `runKeys` by length, computed once per length asked for. */
export function keysOf(contents: string[]): (index: number, length: number) => string | undefined {
  const byLength = new Map<number, string[]>();
  return (index, length) => {
    let keys = byLength.get(length);
    if (!keys) byLength.set(length, (keys = runKeys(contents, length)));
    return keys[index];
  };
}
