import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../content/markdown/index.ts';
import { schema } from '../schema.ts';
import { savedDocument, startingDoc } from './description-editor.ts';
import { dropPosition } from './tree-dnd.ts';

/* The change request page script's pure parts, in Node: where a drop lands, and the description's round trip. */
describe('change request page script', () => {
  it('drops before on the top quarter of a row, after on the bottom quarter, inside elsewhere', () => {
    expect([0, 9, 10, 20, 30, 31, 40].map((y) => dropPosition(y, 40))).toEqual(['before', 'before', 'inside', 'inside', 'inside', 'after', 'after']);
  });

  it('starts from the stored description and saves the same document; an empty editor saves no block', () => {
    const stored = markdownToDocument('Fast **trains** only.\n\n- one\n- two\n\nSee [rail](https://example.com/rail).\n');
    const saved = savedDocument(startingDoc(stored));
    expect(saved.nodes.map((n) => (n as { type: string }).type)).toEqual(['paragraph', 'list-unordered', 'paragraph']);
    expect(JSON.stringify(saved)).toContain('"url":"https://example.com/rail"');
    expect(JSON.stringify(saved)).toContain('"type":"bold"');
    for (const none of [null, undefined, { object: 'document', nodes: [] }, { object: 'value' }]) {
      const doc = startingDoc(none);
      expect(doc.eq(schema.topNodeType.createAndFill()!)).toBe(true);
      expect(savedDocument(doc)).toEqual({ object: 'document', data: {}, nodes: [] });
    }
  });
});
