import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import type { TestUser } from '../../../test/factories.ts';
import { createCollabSpace } from '../../../test/collab-space.ts';

/*
 * A block comment keeps its anchor when its block moves (issue 32): the revision store keeps
 * the key of a block whose content is unchanged wherever it moved, so the comment's node still
 * names it; a copy of the block, or a block sent under a key another block keeps, gets a new key.
 */
describe('block keys of moved blocks, through the API', () => {
  let t: TestApp;
  let editor: TestUser;
  let spaceId: string;
  let pageId: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({
      editor,
      spaceId,
      pageIds: [pageId],
    } = await createCollabSpace(t, [{ title: 'Welcome', markdown: 'Alpha.\n\nBravo, commented on.\n\nCharlie.\n\nDelta.\n' }]));
  }, 120_000);
  afterAll(() => t?.close());

  type Block = { key: string; nodes: unknown[] };
  const textOf = (block: unknown) => [...JSON.stringify(block).matchAll(/"text":"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`)).join('');

  async function setUp(subject: string) {
    const cr = (await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: editor.token, body: { subject } })).body.id as string;
    const CR = `/v1/spaces/${spaceId}/change-requests/${cr}`;
    const read = async () => (await t.request('GET', `${CR}/content/page/${pageId}`, { token: editor.token, query: { format: 'document' } })).body.document as { object: string; data: object; nodes: Block[] };
    const write = async (body: Record<string, unknown>) => {
      const res = await t.request('POST', `${CR}/content`, { token: editor.token, body: { changes: [{ operation: 'update_page', page: pageId, ...body }] } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    const bravo = (await read()).nodes.find((n) => textOf(n) === 'Bravo, commented on.')!;
    const comment = await t.request('POST', `${CR}/comments`, { token: editor.token, body: { body: { markdown: 'About Bravo.' }, page: pageId, node: bravo.key } });
    expect(comment.status).toBe(200);
    /** The text of the block the comment's node names now (undefined: the anchor is lost). */
    const anchored = async () => {
      const got = await t.request('GET', `${CR}/comments/${comment.body.id}`, { token: editor.token });
      const node = got.body.target.node.id as string;
      const block = (await read()).nodes.find((n) => n.key === node);
      return block ? textOf(block) : undefined;
    };
    return { read, write, anchored, bravoKey: bravo.key };
  }

  it('keeps a moved block’s key when a JSON write sends it moved, as read', async () => {
    const { read, write, anchored, bravoKey } = await setUp('Move by JSON');
    const document = await read();
    const [a, b, c, d] = document.nodes;
    // Bravo moved to the end, then to the top.
    await write({ document: { document: { ...document, nodes: [a, c, d, b] } } });
    expect((await read()).nodes.map(textOf)).toEqual(['Alpha.', 'Charlie.', 'Delta.', 'Bravo, commented on.']);
    expect(await anchored()).toBe('Bravo, commented on.');
    await write({ document: { document: { ...document, nodes: [b, a, c, d] } } });
    expect(await anchored()).toBe('Bravo, commented on.');
    expect((await read()).nodes.map((n) => n.key)).toContain(bravoKey);
  });

  it('keeps it through a markdown write that moves the block (matched by content)', async () => {
    const { write, anchored } = await setUp('Move by markdown');
    await write({ document: { markdown: 'Bravo, commented on.\n\nAlpha.\n\nCharlie.\n\nDelta.\n' } });
    expect(await anchored()).toBe('Bravo, commented on.');
  });

  it('keeps it on the block edited and moved in one write, under the key it was read with', async () => {
    const { read, write, anchored } = await setUp('Edit and move');
    const document = await read();
    const [a, b, c, d] = document.nodes;
    const edited = JSON.parse(JSON.stringify(b).replace('Bravo, commented on.', 'Bravo, commented on, then edited.'));
    await write({ document: { document: { ...document, nodes: [a, c, d, edited] } } });
    expect(await anchored()).toBe('Bravo, commented on, then edited.');
  });

  it('gives a copy a new key, and lets no other block take the commented block’s key while it is there', async () => {
    const { read, write, anchored, bravoKey } = await setUp('Copy');
    const document = await read();
    const [a, b, c, d] = document.nodes;
    // Bravo copied above Alpha, both sent with its key: one block keeps it, the copy gets another.
    await write({ document: { document: { ...document, nodes: [b, a, b, c, d] } } });
    const keys = (await read()).nodes.map((n) => n.key);
    expect(new Set(keys).size).toBe(5);
    expect(keys.filter((k) => k === bravoKey)).toHaveLength(1);
    expect(await anchored()).toBe('Bravo, commented on.');
    // A new paragraph sent under Bravo's key, Bravo still there: the paragraph gets a new key.
    const current = await read();
    const intruder = JSON.parse(JSON.stringify(c).replace('Charlie.', 'Intruder.'));
    await write({ document: { document: { ...current, nodes: [{ ...intruder, key: bravoKey }, ...current.nodes] } } });
    expect(await anchored()).toBe('Bravo, commented on.');
    expect((await read()).nodes.filter((n) => n.key === bravoKey)).toHaveLength(1);
  });
});
