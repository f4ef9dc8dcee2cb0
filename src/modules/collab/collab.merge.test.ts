/*
 * Merging a change made outside live editing into unsaved live edits (collab.merge.ts): by
 * block, keyed by node keys, with the change-request merge's rule.
 */
import { describe, expect, it } from 'vitest';
import { blockLabel, mergeLiveDocument } from './collab.merge.ts';
import type { Block, Document } from '../../content/markdown/types.ts';

const p = (key: string | undefined, text: string): Block =>
  ({ object: 'block', type: 'paragraph', ...(key === undefined ? {} : { key }), data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }) as unknown as Block;
const doc = (...nodes: Block[]): Document => ({ object: 'document', data: {}, nodes });
const texts = (document: Document) => document.nodes.map((b) => `${(b as { key?: string }).key ?? '-'}:${blockLabel(b).replace(/^paragraph “|”$/g, '')}`);

const base = doc(p('b0', 'A'), p('b1', 'B'), p('b2', 'C'));

describe('merging a change made outside live editing into live edits', () => {
  it('takes each side’s change where only that side changed a block', () => {
    const { document, conflicts } = mergeLiveDocument(base, doc(p('b0', 'A live'), p('b1', 'B'), p('b2', 'C')), doc(p('b0', 'A'), p('b1', 'B outside'), p('b2', 'C')));
    expect(texts(document)).toEqual(['b0:A live', 'b1:B outside', 'b2:C']);
    expect(conflicts).toEqual([]);
  });

  it('keeps the live side of a block both changed, and names it', () => {
    const { document, conflicts } = mergeLiveDocument(base, doc(p('b0', 'A live'), p('b1', 'B'), p('b2', 'C')), doc(p('b0', 'A outside'), p('b1', 'B'), p('b2', 'C outside')));
    expect(texts(document)).toEqual(['b0:A live', 'b1:B', 'b2:C outside']);
    expect(conflicts).toEqual([{ key: 'b0', label: 'paragraph “A live”', kind: 'changed' }]);
  });

  it('makes the same change on both sides no conflict', () => {
    const same = doc(p('b0', 'A both'), p('b1', 'B'), p('b2', 'C'));
    expect(mergeLiveDocument(base, same, same)).toEqual({ document: same, conflicts: [] });
  });

  it('deletes what one side deleted and the other left alone; a deletion against a change keeps the live side, told', () => {
    const deleted = mergeLiveDocument(base, doc(p('b0', 'A'), p('b2', 'C')), doc(p('b0', 'A'), p('b1', 'B'), p('b2', 'C'))).document;
    expect(texts(deleted)).toEqual(['b0:A', 'b2:C']);
    expect(texts(mergeLiveDocument(base, base, doc(p('b0', 'A'), p('b2', 'C'))).document)).toEqual(['b0:A', 'b2:C']);
    const liveDeleted = mergeLiveDocument(base, doc(p('b0', 'A'), p('b2', 'C')), doc(p('b0', 'A'), p('b1', 'B outside'), p('b2', 'C')));
    expect(texts(liveDeleted.document)).toEqual(['b0:A', 'b2:C']);
    expect(liveDeleted.conflicts).toEqual([{ key: 'b1', label: 'paragraph “B outside”', kind: 'deleted-live' }]);
    const outsideDeleted = mergeLiveDocument(base, doc(p('b0', 'A'), p('b1', 'B live'), p('b2', 'C')), doc(p('b0', 'A'), p('b2', 'C')));
    expect(texts(outsideDeleted.document)).toEqual(['b0:A', 'b1:B live', 'b2:C']);
    expect(outsideDeleted.conflicts).toEqual([{ key: 'b1', label: 'paragraph “B live”', kind: 'deleted-outside' }]);
  });

  it('places blocks the outside change added or moved after the block preceding them there; live additions stay where they were typed', () => {
    const live = doc(p(undefined, 'typed first'), p('b0', 'A'), p('b1', 'B'), p(undefined, 'typed after B'), p('b2', 'C'));
    const outside = doc(p('b3', 'new top'), p('b0', 'A'), p('b2', 'C'), p('b4', 'new after C'), p('b1', 'B'));
    const { document, conflicts } = mergeLiveDocument(base, live, outside);
    expect(texts(document)).toEqual(['b3:new top', '-:typed first', 'b0:A', '-:typed after B', 'b2:C', 'b4:new after C', 'b1:B']);
    expect(conflicts).toEqual([]);
    // A move made live wins over one made outside (as in the change-request merge).
    const [a, b, c, d, e] = ['A', 'B', 'C', 'D', 'E'].map((text, i) => p(`b${i}`, text));
    const movedBoth = mergeLiveDocument(doc(a, b, c, d, e), doc(e, a, b, c, d), doc(a, e, b, c, d));
    expect(texts(movedBoth.document)).toEqual(['b4:E', 'b0:A', 'b1:B', 'b2:C', 'b3:D']);
  });

  it('keeps both blocks when both sides added different ones under one key (the live one loses its key), and a key met twice once', () => {
    const { document } = mergeLiveDocument(base, doc(p('b0', 'A'), p('b3', 'live new'), p('b1', 'B'), p('b2', 'C')), doc(p('b0', 'A'), p('b1', 'B'), p('b2', 'C'), p('b3', 'outside new')));
    expect(texts(document)).toEqual(['b0:A', '-:live new', 'b1:B', 'b2:C', 'b3:outside new']);
    const split = mergeLiveDocument(base, doc(p('b0', 'A'), p('b0', 'A second half'), p('b1', 'B'), p('b2', 'C')), base).document;
    expect(texts(split)).toEqual(['b0:A', 'b0:A second half', 'b1:B', 'b2:C']);
  });

  it('merges the document’s data key by key, and keeps the written forms of both sides (each applies where its blocks still are)', () => {
    const form = (blocks: string, markdown: string) => ({ nodes: 1, blocks, markdown });
    const withData = (data: Record<string, unknown>, d: Document) => ({ ...d, data }) as Document;
    const b = withData({ writtenForms: [form('x', '* A')], custom: 1 }, base);
    const live = withData({ writtenForms: [form('x', '* A')], custom: 2 }, base);
    const outside = withData({ writtenForms: [form('x', '* A'), form('y', '- C')], escapeParentheses: true, custom: 1 }, base);
    expect(mergeLiveDocument(b, live, outside).document.data).toEqual({ custom: 2, escapeParentheses: true, writtenForms: [form('x', '* A'), form('y', '- C')] });
  });
});
