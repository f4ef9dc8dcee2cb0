import { describe, expect, it } from 'vitest';
import { boundedMemo } from './memo.ts';

describe('boundedMemo', () => {
  it('computes a key once, and starts over when it holds its bound', () => {
    const calls: string[] = [];
    const upper = boundedMemo((key) => (calls.push(key), key.toUpperCase()), 2);
    expect([upper('a'), upper('b'), upper('a')]).toEqual(['A', 'B', 'A']);
    expect(calls).toEqual(['a', 'b']);
    // A third key empties it: a and b are computed again.
    expect([upper('c'), upper('c'), upper('a')]).toEqual(['C', 'C', 'A']);
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });
});
