import { describe, expect, it } from 'vitest';
import { markdownToDocument } from './index.ts';
import { stableKeys } from './keys.ts';

const keys = (d: { nodes: unknown[] }) => d.nodes.map((n) => (n as { key: string }).key);

describe('stable block keys', () => {
  it('keeps the keys of shared blocks and gives new ones keys never used before', () => {
    const v1 = markdownToDocument('Alpha\n\nBravo\n\nCharlie\n');
    expect(keys(v1)).toEqual(['b0', 'b1', 'b2']);
    // Bravo deleted: Charlie keeps b2 (read anew it would be b1).
    const v2 = stableKeys(markdownToDocument('Alpha\n\nCharlie\n'), v1);
    expect(keys(v2)).toEqual(['b0', 'b2']);
    // A new block gets b3, not the b1 Bravo had.
    const v3 = stableKeys(markdownToDocument('Alpha\n\nDelta\n\nCharlie\n'), v2);
    expect(keys(v3)).toEqual(['b0', 'b3', 'b2']);
    // A block edited in place keeps its key; one of another type in its place is new.
    expect(keys(stableKeys(markdownToDocument('Alpha edited\n\nDelta\n\nCharlie\n'), v3))).toEqual(['b0', 'b3', 'b2']);
    const v4 = stableKeys(markdownToDocument('Alpha\n\n* one\n* two\n\nCharlie\n'), v3);
    expect(keys(v4)).toEqual(['b0', 'b4', 'b2']);
    // Nested keys follow their block's key.
    const list = v4.nodes[1] as unknown as { nodes: { key: string }[] };
    expect(list.nodes.map((n) => n.key)).toEqual(['b4.0', 'b4.1']);
    // No previous document: positions, as markdown reads them.
    expect(keys(stableKeys(markdownToDocument('A\n\nB\n'), undefined))).toEqual(['b0', 'b1']);
  });
});
