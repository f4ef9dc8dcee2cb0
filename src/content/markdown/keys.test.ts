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

describe('stable block keys of moved blocks', () => {
  const v1 = markdownToDocument('Alpha\n\nBravo\n\nCharlie\n\nDelta\n');
  const moved = (markdown: string, previous = v1, sent?: (string | undefined)[]) => keys(stableKeys(markdownToDocument(markdown), previous, -1, sent));

  it('keeps the key of an unchanged block wherever it moved (before: a new key)', () => {
    expect(keys(v1)).toEqual(['b0', 'b1', 'b2', 'b3']);
    // Bravo moved down one (the editor's Alt+↓) and to the end.
    expect(moved('Alpha\n\nCharlie\n\nBravo\n\nDelta\n')).toEqual(['b0', 'b2', 'b1', 'b3']);
    expect(moved('Alpha\n\nCharlie\n\nDelta\n\nBravo\n')).toEqual(['b0', 'b2', 'b3', 'b1']);
    // Whole order reversed.
    expect(moved('Delta\n\nCharlie\n\nBravo\n\nAlpha\n')).toEqual(['b3', 'b2', 'b1', 'b0']);
    // Moved while another block was edited in place: both keep their keys.
    expect(moved('Alpha edited\n\nCharlie\n\nDelta\n\nBravo\n')).toEqual(['b0', 'b2', 'b3', 'b1']);
    // A moved block does not make the edited block beside its old place take its key.
    expect(moved('Alpha\n\nCharlie edited\n\nDelta\n\nBravo\n')).toEqual(['b0', 'b2', 'b3', 'b1']);
  });

  it('never gives one key to two blocks: a copy, or a block sent twice under one key, gets a new key', () => {
    // Bravo copied below Delta: the one in its place keeps b1.
    expect(moved('Alpha\n\nBravo\n\nCharlie\n\nDelta\n\nBravo\n')).toEqual(['b0', 'b1', 'b2', 'b3', 'b4']);
    // Copied above: the one still in order keeps it.
    expect(moved('Bravo\n\nAlpha\n\nBravo\n\nCharlie\n\nDelta\n')).toEqual(['b4', 'b0', 'b1', 'b2', 'b3']);
    // Both copies sent under b1: one keeps it.
    const both = moved('Alpha\n\nBravo\n\nBravo\n\nCharlie\n\nDelta\n', v1, ['b0', 'b1', 'b1', 'b2', 'b3']);
    expect(both.filter((k) => k === 'b1')).toHaveLength(1);
    expect(new Set(both).size).toBe(5);
  });

  it('between identical blocks, keeps the key the caller sent; an edited and moved block keeps the key it was read with', () => {
    const twins = markdownToDocument('Same\n\nOther\n\nSame\n');
    // The second "Same" (b2) moved to the top, sent with its key.
    expect(moved('Same\n\nSame\n\nOther\n', twins, ['b2', 'b0', 'b1'])).toEqual(['b2', 'b0', 'b1']);
    // Without sent keys (markdown): the first in order.
    expect(moved('Same\n\nSame\n\nOther\n', twins)).toEqual(['b0', 'b2', 'b1']);
    // Charlie moved above Bravo and edited, Bravo edited too: each keeps its own key.
    expect(moved('Alpha\n\nCharlie two\n\nBravo two\n\nDelta\n', v1, ['b0', 'b2', 'b1', 'b3'])).toEqual(['b0', 'b2', 'b1', 'b3']);
  });

  it('lets no sent key take the key of a block still present, nor of a block of another type', () => {
    // A new paragraph sent as Bravo's b1 while Bravo is still there unchanged: a new key.
    expect(moved('Alpha\n\nIntruder\n\nBravo\n\nCharlie\n\nDelta\n', v1, ['b0', 'b1', 'b9', 'b2', 'b3'])).toEqual(['b0', 'b4', 'b1', 'b2', 'b3']);
    // Bravo deleted and a heading sent under its key: another type, a new key.
    expect(moved('Alpha\n\nCharlie\n\nDelta\n\n## Heading\n', v1, ['b0', 'b2', 'b3', 'b1'])).toEqual(['b0', 'b2', 'b3', 'b4']);
    // A key never used in the page is not taken either: fresh keys stay above every key used.
    expect(moved('Alpha\n\nNew\n\nBravo\n\nCharlie\n\nDelta\n', v1, ['b0', 'b99', 'b1', 'b2', 'b3'])).toEqual(['b0', 'b4', 'b1', 'b2', 'b3']);
  });
});
