import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, createUser, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { editSpaceContent } from '../content/content.service.ts';

/*
 * Comments over HTTP (issue 5): every operation on both bases ({S}/comments and
 * {CR}/comments), targets, filters and their defaults, ordering and pagination, replies,
 * reactions, resolve and reopen, formats and mentions, permissions, counters. Runs on
 * SQLite, and on PostgreSQL when DATABASE_URL is set.
 */

describe('comments', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: TestUser;
  let reader: TestUser;
  let commenter: TestUser;
  let commenter2: TestUser;
  let editor: TestUser;
  let outsider: TestUser;
  let spaceId: string;
  let pageId: string;
  let crPageId: string;
  let paragraphKey: string;
  let table: { key: string; record: string; definition: string };
  let cr: { id: string; number: number };

  const S = () => `/v1/spaces/${spaceId}`;
  const CR = () => `${S()}/change-requests/${cr.id}`;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Acme' });
    admin = org.admin;
    reader = await createMember(t, org.id, 'read', { displayName: 'Rita Reader' });
    commenter = await createMember(t, org.id, 'comment', { displayName: 'Cora Commenter' });
    commenter2 = await createMember(t, org.id, 'comment', { displayName: 'Carl Commenter' });
    editor = await createMember(t, org.id, 'edit', { displayName: 'Eddie Editor' });
    outsider = await createUser(t, { displayName: 'Otto Outsider' });

    const space = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: admin.token, body: { title: 'Docs' } });
    expect(space.status).toBe(201);
    spaceId = space.body.id;
    await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => {
      pageId = e.insertPage({ title: 'Guide', markdown: 'Hello there.\n\n| Name | Age |\n| --- | --- |\n| Ann | 3 |\n' });
    });
    t.clock.advance(1000);
    const page = await t.request('GET', `${S()}/content/page/${pageId}`, { token: admin.token });
    expect(page.status).toBe(200);
    const nodes = page.body.document.nodes as any[];
    paragraphKey = nodes.find((n) => n.type === 'paragraph').key;
    const tableNode = nodes.find((n) => n.type === 'table');
    table = { key: tableNode.key, record: Object.keys(tableNode.data.records)[0], definition: Object.keys(tableNode.data.definition)[0] };

    const opened = await t.request('POST', `${S()}/change-requests`, { token: editor.token, body: { subject: 'More' } });
    expect(opened.status).toBe(201);
    cr = opened.body;
    const batch = await t.request('POST', `${CR()}/content`, {
      token: editor.token,
      query: { compat: false },
      body: { changes: [{ operation: 'insert_page', title: 'Draft', document: { markdown: 'Draft text.\n' } }] },
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    crPageId = batch.body.changes[0].page.id;
    t.clock.advance(1000);
  });
  afterAll(async () => {
    await t.close();
  });

  const bases = [
    { name: 'space', url: () => `${S()}/comments`, owner: () => S(), isCr: false },
    { name: 'change request', url: () => `${CR()}/comments`, owner: () => CR(), isCr: true },
  ];

  async function post(url: string, token: string, body: Record<string, unknown>) {
    const res = await t.request('POST', url, { token, body });
    t.clock.advance(1000);
    return res;
  }
  async function postOk(url: string, token: string, body: Record<string, unknown>) {
    const res = await post(url, token, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }
  const say = (markdown: string, extra: Record<string, unknown> = {}) => ({ body: { markdown }, ...extra });

  describe.each(bases)('on the $name', (base) => {
    it('posts, gets, lists and deletes a comment', async () => {
      const created = await postOk(base.url(), commenter.token, say('First **point**.', { page: pageId }));
      expect(created).toMatchObject({
        object: 'comment',
        postedBy: { id: commenter.id, displayName: 'Cora Commenter' },
        body: { markdown: 'First **point**.' },
        status: 'open',
        replies: 0,
        repliers: [],
        reactions: [],
        target: { space: spaceId, page: { id: pageId } },
        permissions: { view: true, edit: true, reply: true, delete: true },
      });
      expect(created.target.changeRequest).toBe(base.isCr ? cr.id : undefined);
      expect(created.urls.location).toBe(`http://quire.test${base.url()}/${created.id}`);
      expect(created.resolvedAt).toBeUndefined();

      const got = await t.request('GET', `${base.url()}/${created.id}`, { token: reader.token });
      expect(got.status).toBe(200);
      expect(got.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
      const asAdmin = await t.request('GET', `${base.url()}/${created.id}`, { token: admin.token });
      expect(asAdmin.body.permissions).toEqual({ view: true, edit: false, reply: true, delete: true });

      const listed = await t.request('GET', base.url(), { token: editor.token });
      expect(listed.status).toBe(200);
      expect(listed.body.items.map((c: any) => c.id)).toContain(created.id);

      // Others may not delete it; its author may, and again is fine.
      expect((await t.request('DELETE', `${base.url()}/${created.id}`, { token: commenter2.token })).status).toBe(403);
      expect((await t.request('DELETE', `${base.url()}/${created.id}`, { token: commenter.token })).status).toBe(204);
      expect((await t.request('DELETE', `${base.url()}/${created.id}`, { token: commenter.token })).status).toBe(204);
      expect((await t.request('GET', `${base.url()}/${created.id}`, { token: commenter.token })).status).toBe(404);
    });

    it('keeps comments of the two bases apart', async () => {
      const created = await postOk(base.url(), commenter.token, say('Here only.'));
      const other = base.isCr ? `${S()}/comments` : `${CR()}/comments`;
      expect((await t.request('GET', `${other}/${created.id}`, { token: commenter.token })).status).toBe(404);
      expect((await t.request('PUT', `${other}/${created.id}`, { token: commenter.token, body: { resolved: true } })).status).toBe(404);
      expect((await t.request('GET', `${other}/${created.id}/replies`, { token: commenter.token })).status).toBe(404);
      const listed = await t.request('GET', other, { token: commenter.token, query: { limit: 1000 } });
      expect(listed.body.items.map((c: any) => c.id)).not.toContain(created.id);
    });

    it('checks the target in the revision the comment is made on', async () => {
      const onNode = await postOk(base.url(), commenter.token, say('On the node.', { page: pageId, node: paragraphKey }));
      expect(onNode.target.node).toEqual({ id: paragraphKey });
      const onCell = await postOk(base.url(), commenter.token, say('On a cell.', { page: pageId, node: table.key, tableCell: { record: table.record, definition: table.definition } }));
      expect(onCell.target.tableCell).toEqual({ record: table.record, definition: table.definition });
      const anyTable = await postOk(base.url(), commenter.token, say('On a cell.', { page: pageId, tableCell: { record: table.record, definition: table.definition } }));
      expect(anyTable.target.node).toBeUndefined();

      expect((await post(base.url(), commenter.token, say('x', { page: 'nope' }))).status).toBe(400);
      expect((await post(base.url(), commenter.token, say('x', { page: pageId, node: 'nope' }))).status).toBe(400);
      expect((await post(base.url(), commenter.token, say('x', { node: paragraphKey }))).status).toBe(400);
      expect((await post(base.url(), commenter.token, say('x', { page: pageId, tableCell: { record: 'nope', definition: table.definition } }))).status).toBe(400);
      expect((await post(base.url(), commenter.token, say('x', { page: pageId, node: paragraphKey, tableCell: { record: table.record, definition: table.definition } }))).status).toBe(400);
      // The change request's page exists in its head only.
      const onCrPage = await post(base.url(), commenter.token, say('On the draft.', { page: crPageId }));
      expect(onCrPage.status).toBe(base.isCr ? 200 : 400);
      if (base.isCr) {
        const head = (await t.request('GET', CR(), { token: editor.token })).body.revision;
        expect(onCrPage.body.target.revision).toBe(head);
      } else {
        const current = (await t.request('GET', S(), { token: editor.token })).body.revision;
        expect(onNode.target.revision).toBe(current);
      }
    });

    it('validates bodies and limits', async () => {
      expect((await post(base.url(), commenter.token, {})).status).toBe(400);
      expect((await post(base.url(), commenter.token, { body: {} })).status).toBe(400);
      expect((await post(base.url(), commenter.token, say('   '))).status).toBe(400);
      expect((await post(base.url(), commenter.token, say('x'.repeat(65_537)))).status).toBe(400);
      expect((await post(base.url(), commenter.token, { body: { markdown: 'a', document: { object: 'document', nodes: [] } } })).status).toBe(400);
      expect((await post(base.url(), commenter.token, { body: { document: { object: 'nope' } } })).status).toBe(400);
      expect((await t.request('GET', base.url(), { token: commenter.token, query: { limit: 1001 } })).status).toBe(400);
      expect((await t.request('GET', base.url(), { token: commenter.token, query: { status: 'closed' } })).status).toBe(400);
      expect((await t.request('GET', base.url(), { token: commenter.token, query: { page: 'garbage' } })).status).toBe(400);
      const created = await postOk(base.url(), commenter.token, say('Limits.'));
      const many = Array.from({ length: 21 }, () => '👍');
      expect((await t.request('PUT', `${base.url()}/${created.id}`, { token: commenter.token, body: { addedReactions: many } })).status).toBe(400);
      expect((await t.request('PUT', `${base.url()}/${created.id}`, { token: commenter.token, body: { addedReactions: ['smile'] } })).status).toBe(400);
    });

    it('accepts a document body and answers in either format', async () => {
      const document = { object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 'From JSON' }] }] }] };
      const created = await postOk(base.url(), commenter.token, { body: { document } });
      expect(created.body).toEqual({ markdown: 'From JSON\n' });
      const asDoc = await t.request('GET', `${base.url()}/${created.id}`, { token: commenter.token, query: { format: 'document' } });
      expect(asDoc.status).toBe(200);
      expect(asDoc.body.body.document.nodes[0].nodes[0].leaves[0].text).toBe('From JSON');
      const listed = await t.request('GET', base.url(), { token: commenter.token, query: { format: 'document', limit: 1 } });
      expect(listed.body.items[0].body.document.object).toBe('document');
    });

    it('stores bodies as given and resolves mentions of members', async () => {
      const markdown = `Hey @[Cora](user:${commenter.id}) and [@Eddie](/users/${editor.id}), not @[Otto](user:${outsider.id}) <script>alert(1)</script>`;
      const created = await postOk(base.url(), commenter2.token, say(markdown));
      expect(created.body.markdown).toBe(markdown);
      expect(created.mentions.map((u: any) => u.id)).toEqual([commenter.id, editor.id]);
      const asDoc = await t.request('GET', `${base.url()}/${created.id}`, { token: commenter.token, query: { format: 'document' } });
      const refs = (asDoc.body.body.document.nodes[0].nodes as any[]).filter((n) => n.type === 'link').map((n) => n.data.ref);
      expect(refs).toEqual([
        { kind: 'user', user: commenter.id },
        { kind: 'user', user: editor.id },
        { kind: 'url', url: `user:${outsider.id}` },
      ]);
      // Markup is text: the document holds it as a leaf, never as a node to render.
      const texts = (asDoc.body.body.document.nodes[0].nodes as any[]).filter((n) => n.object === 'text').flatMap((n) => n.leaves.map((l: any) => l.text));
      expect(texts.join('')).toContain('<script>alert(1)</script>');
    });

    it('filters, orders and paginates', async () => {
      const fresh = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: admin.token, body: { title: 'Lists' } });
      const s = `/v1/spaces/${fresh.body.id}`;
      let url = `${s}/comments`;
      let onPage: string | undefined;
      if (base.isCr) {
        const c = await t.request('POST', `${s}/change-requests`, { token: editor.token, body: { subject: 'x' } });
        url = `${s}/change-requests/${c.body.id}/comments`;
      }
      await editSpaceContent(t.app.deps, fresh.body.id, admin.id, (e) => {
        onPage = e.insertPage({ title: 'P', markdown: 'p\n' });
      });
      if (base.isCr) {
        const c = await t.request('POST', `${s}/change-requests`, { token: editor.token, body: { subject: 'y' } });
        url = `${s}/change-requests/${c.body.id}/comments`;
      }
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const token = i % 2 === 0 ? commenter.token : commenter2.token;
        ids.push((await postOk(url, token, say(`Comment ${i}`, i === 4 ? { page: onPage } : {}))).id);
      }
      await t.request('PUT', `${url}/${ids[1]}`, { token: commenter.token, body: { resolved: true } });

      const all = await t.request('GET', url, { token: reader.token });
      expect(all.body.count).toBe(5);
      expect(all.body.items.map((c: any) => c.id)).toEqual([...ids].reverse());
      const asc = await t.request('GET', url, { token: reader.token, query: { order: 'asc' } });
      expect(asc.body.items.map((c: any) => c.id)).toEqual(ids);
      const open = await t.request('GET', url, { token: reader.token, query: { status: 'open' } });
      expect(open.body.items.map((c: any) => c.id)).toEqual([ids[4], ids[3], ids[2], ids[0]]);
      const resolved = await t.request('GET', url, { token: reader.token, query: { status: 'resolved' } });
      expect(resolved.body.items.map((c: any) => c.id)).toEqual([ids[1]]);
      const byPage = await t.request('GET', url, { token: reader.token, query: { targetPage: onPage! } });
      expect(byPage.body.items.map((c: any) => c.id)).toEqual([ids[4]]);
      const byAuthor = await t.request('GET', url, { token: reader.token, query: { authors: commenter2.id } });
      expect(byAuthor.body.items.map((c: any) => c.id)).toEqual([ids[3], ids[1]]);
      const byAuthors = await t.request('GET', url, { token: reader.token, query: { authors: [commenter2.id, commenter.id], order: 'asc' } });
      expect(byAuthors.body.count).toBe(5);

      const first = await t.request('GET', url, { token: reader.token, query: { limit: 2 } });
      expect(first.body.items.map((c: any) => c.id)).toEqual([ids[4], ids[3]]);
      expect(first.body.count).toBe(5);
      // A comment posted between pages moves nothing.
      await postOk(url, commenter.token, say('Late'));
      const second = await t.request('GET', url, { token: reader.token, query: { limit: 2, page: first.body.next.page } });
      expect(second.body.items.map((c: any) => c.id)).toEqual([ids[2], ids[1]]);
      const third = await t.request('GET', url, { token: reader.token, query: { limit: 2, page: second.body.next.page } });
      expect(third.body.items.map((c: any) => c.id)).toEqual([ids[0]]);
      expect(third.body.next).toBeUndefined();
      const back = await t.request('GET', url, { token: reader.token, query: { limit: 2, page: second.body.previous.page } });
      expect(back.body.items.map((c: any) => c.id)).toEqual([ids[4], ids[3]]);

      // Commenters: members who commented, by name.
      const commenters = await t.request('GET', url.replace(/\/comments$/, '/commenters'), { token: reader.token });
      expect(commenters.status).toBe(200);
      expect(commenters.body.items.map((m: any) => m.user.displayName)).toEqual(['Carl Commenter', 'Cora Commenter']);
      const paged = await t.request('GET', url.replace(/\/comments$/, '/commenters'), { token: reader.token, query: { limit: 1 } });
      expect(paged.body.count).toBe(2);
      const next = await t.request('GET', url.replace(/\/comments$/, '/commenters'), { token: reader.token, query: { limit: 1, page: paged.body.next.page } });
      expect(next.body.items[0].user.displayName).toBe('Cora Commenter');
    });

    it('resolves and reopens', async () => {
      const created = await postOk(base.url(), commenter.token, say('Resolve me.'));
      t.clock.advance(1000);
      const resolved = await t.request('PUT', `${base.url()}/${created.id}`, { token: commenter2.token, body: { resolved: true } });
      expect(resolved.status).toBe(200);
      expect(resolved.body).toMatchObject({ status: 'resolved', resolvedBy: { id: commenter2.id }, resolvedAt: t.clock.now().toISOString() });
      expect(resolved.body.editedAt).toBeUndefined();
      // Again: who resolved it and when stay.
      t.clock.advance(1000);
      const again = await t.request('PUT', `${base.url()}/${created.id}`, { token: commenter.token, body: { resolved: true } });
      expect(again.body.resolvedBy.id).toBe(commenter2.id);
      expect(again.body.resolvedAt).toBe(resolved.body.resolvedAt);
      expect((await t.request('PUT', `${base.url()}/${created.id}`, { token: reader.token, body: { resolved: false } })).status).toBe(403);
      const reopened = await t.request('PUT', `${base.url()}/${created.id}`, { token: commenter.token, body: { resolved: false } });
      expect(reopened.body.status).toBe('open');
      expect(reopened.body.resolvedAt).toBeUndefined();
      expect(reopened.body.resolvedBy).toBeUndefined();
      const got = await t.request('GET', `${base.url()}/${created.id}`, { token: commenter.token });
      expect(got.body.status).toBe('open');
    });

    it('lets only the author edit the body', async () => {
      const created = await postOk(base.url(), commenter.token, say('Typo.'));
      expect((await t.request('PUT', `${base.url()}/${created.id}`, { token: commenter2.token, body: { body: { markdown: 'Hijack' } } })).status).toBe(403);
      expect((await t.request('PUT', `${base.url()}/${created.id}`, { token: admin.token, body: { body: { markdown: 'Admin' } } })).status).toBe(403);
      t.clock.advance(1000);
      const edited = await t.request('PUT', `${base.url()}/${created.id}`, { token: commenter.token, body: { body: { markdown: 'Fixed.' } } });
      expect(edited.status).toBe(200);
      expect(edited.body.body.markdown).toBe('Fixed.');
      expect(edited.body.editedAt).toBe(t.clock.now().toISOString());
      // Admins of the space delete anything.
      expect((await t.request('DELETE', `${base.url()}/${created.id}`, { token: admin.token })).status).toBe(204);
    });

    it('counts reactions per user', async () => {
      const created = await postOk(base.url(), commenter.token, say('React.'));
      const url = `${base.url()}/${created.id}`;
      await t.request('PUT', url, { token: commenter.token, body: { addedReactions: ['👍'] } });
      t.clock.advance(1000);
      await t.request('PUT', url, { token: commenter.token, body: { addedReactions: ['🎉'] } });
      t.clock.advance(1000);
      await t.request('PUT', url, { token: commenter2.token, body: { addedReactions: ['👍'] } });
      t.clock.advance(1000);
      // Twice is a no-op; removing one never added is a no-op.
      await t.request('PUT', url, { token: commenter2.token, body: { addedReactions: ['👍'] } });
      const res = await t.request('PUT', url, { token: admin.token, body: { removedReactions: ['👍'] } });
      expect(res.status).toBe(200);
      expect(res.body.reactions).toEqual([
        {
          emoji: '👍',
          count: 2,
          users: [
            { user: expect.objectContaining({ id: commenter.id }), reactedAt: expect.any(String) },
            { user: expect.objectContaining({ id: commenter2.id }), reactedAt: expect.any(String) },
          ],
        },
        { emoji: '🎉', count: 1, users: [{ user: expect.objectContaining({ id: commenter.id }), reactedAt: expect.any(String) }] },
      ]);
      const removed = await t.request('PUT', url, { token: commenter.token, body: { removedReactions: ['🎉', '👍'] } });
      expect(removed.body.reactions).toEqual([{ emoji: '👍', count: 1, users: [{ user: expect.objectContaining({ id: commenter2.id }), reactedAt: expect.any(String) }] }]);
      expect((await t.request('PUT', url, { token: reader.token, body: { addedReactions: ['👍'] } })).status).toBe(403);
      const flag = await t.request('PUT', url, { token: commenter.token, body: { addedReactions: ['🇫🇷', '👍🏽', '👨‍👩‍👧'] } });
      expect(flag.status, JSON.stringify(flag.body)).toBe(200);
    });

    it('replies, lists, edits, reacts and deletes replies', async () => {
      const comment = await postOk(base.url(), commenter.token, say('Thread.'));
      const R = `${base.url()}/${comment.id}/replies`;
      const r1 = await postOk(R, commenter2.token, say('One.'));
      expect(r1).toMatchObject({ object: 'comment-reply', body: { markdown: 'One.' }, postedBy: { id: commenter2.id }, reactions: [], permissions: { view: true, edit: true, reply: true, delete: true } });
      expect(r1.urls.location).toBe(`http://quire.test${R}/${r1.id}`);
      const r2 = await postOk(R, commenter.token, say('Two.'));
      const r3 = await postOk(R, commenter2.token, say('Three.'));
      expect((await post(R, reader.token, say('No.'))).status).toBe(403);
      expect((await post(R, commenter.token, {})).status).toBe(400);
      expect((await post(`${base.url()}/nope/replies`, commenter.token, say('x'))).status).toBe(404);

      const parent = (await t.request('GET', `${base.url()}/${comment.id}`, { token: reader.token })).body;
      expect(parent.replies).toBe(3);
      expect(parent.repliers).toEqual([
        { user: expect.objectContaining({ id: commenter2.id }), count: 2, updatedAt: expect.any(String) },
        { user: expect.objectContaining({ id: commenter.id }), count: 1, updatedAt: expect.any(String) },
      ]);

      const list = await t.request('GET', R, { token: reader.token, query: { limit: 2 } });
      expect(list.status).toBe(200);
      expect(list.body.count).toBe(3);
      expect(list.body.items.map((r: any) => r.id)).toEqual([r1.id, r2.id]);
      const rest = await t.request('GET', R, { token: reader.token, query: { limit: 2, page: list.body.next.page, format: 'document' } });
      expect(rest.body.items.map((r: any) => r.id)).toEqual([r3.id]);
      expect(rest.body.items[0].body.document.object).toBe('document');

      const got = await t.request('GET', `${R}/${r1.id}`, { token: reader.token, query: { format: 'markdown' } });
      expect(got.status).toBe(200);
      expect(got.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
      expect((await t.request('GET', `${R}/nope`, { token: reader.token })).status).toBe(404);

      expect((await t.request('PUT', `${R}/${r1.id}`, { token: commenter.token, body: { body: { markdown: 'Hijack' } } })).status).toBe(403);
      const edited = await t.request('PUT', `${R}/${r1.id}`, { token: commenter2.token, body: { body: { markdown: 'One!' } } });
      expect(edited.status).toBe(200);
      expect(edited.body.body.markdown).toBe('One!');
      expect(edited.body.editedAt).toBeDefined();
      const reacted = await t.request('PUT', `${R}/${r1.id}`, { token: commenter.token, body: { addedReactions: ['❤️'] } });
      expect(reacted.body.reactions).toEqual([{ emoji: '❤️', count: 1, users: [{ user: expect.objectContaining({ id: commenter.id }), reactedAt: expect.any(String) }] }]);
      // A reaction on a reply is not one on its comment.
      expect((await t.request('GET', `${base.url()}/${comment.id}`, { token: reader.token })).body.reactions).toEqual([]);
      await t.request('PUT', `${R}/${r1.id}`, { token: commenter.token, body: { addedReactions: ['❤️'], removedReactions: ['🎉'] } });
      expect((await t.request('GET', `${R}/${r1.id}`, { token: reader.token })).body.reactions[0].count).toBe(1);

      expect((await t.request('DELETE', `${R}/${r2.id}`, { token: commenter2.token })).status).toBe(403);
      expect((await t.request('DELETE', `${R}/${r2.id}`, { token: commenter.token })).status).toBe(204);
      expect((await t.request('DELETE', `${R}/${r3.id}`, { token: admin.token })).status).toBe(204);
      expect((await t.request('DELETE', `${R}/${r3.id}`, { token: admin.token })).status).toBe(204);
      expect((await t.request('DELETE', `${base.url()}/nope/replies/nope`, { token: admin.token })).status).toBe(204);
      const after = (await t.request('GET', `${base.url()}/${comment.id}`, { token: reader.token })).body;
      expect(after.replies).toBe(1);
      expect(after.repliers).toEqual([{ user: expect.objectContaining({ id: commenter2.id }), count: 1, updatedAt: expect.any(String) }]);

      // Deleting the comment takes its replies.
      expect((await t.request('DELETE', `${base.url()}/${comment.id}`, { token: commenter.token })).status).toBe(204);
      expect((await t.request('GET', `${R}/${r1.id}`, { token: reader.token })).status).toBe(404);
    });

    it('answers 401 without a token and 404 to those who may not see the discussions', async () => {
      const created = await postOk(base.url(), commenter.token, say('Private.'));
      const R = `${base.url()}/${created.id}/replies`;
      const reply = await postOk(R, commenter.token, say('Reply.'));
      const calls: [string, string, unknown?][] = [
        ['GET', base.url()],
        ['POST', base.url(), say('x')],
        ['GET', `${base.url()}/${created.id}`],
        ['PUT', `${base.url()}/${created.id}`, { resolved: true }],
        ['DELETE', `${base.url()}/${created.id}`],
        ['GET', R],
        ['POST', R, say('x')],
        ['GET', `${R}/${reply.id}`],
        ['PUT', `${R}/${reply.id}`, { addedReactions: ['👍'] }],
        ['DELETE', `${R}/${reply.id}`],
        ['GET', `${base.owner()}/commenters`],
      ];
      for (const [method, url, body] of calls) {
        expect((await t.request(method as 'GET', url, { body })).status, `${method} ${url}`).toBe(401);
        expect((await t.request(method as 'GET', url, { token: outsider.token, body })).status, `${method} ${url}`).toBe(404);
      }
      expect((await t.request('GET', `${base.url()}/nope`, { token: commenter.token })).status).toBe(404);
      expect((await t.request('PUT', `${base.url()}/nope`, { token: commenter.token, body: { resolved: true } })).status).toBe(404);
      expect((await post(base.url(), reader.token, say('Readers cannot.'))).status).toBe(403);
    });
  });

  it('keeps the space’s and the change request’s comment counters current', async () => {
    const fresh = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: admin.token, body: { title: 'Counters' } });
    const s = `/v1/spaces/${fresh.body.id}`;
    const c = (await t.request('POST', `${s}/change-requests`, { token: editor.token, body: { subject: 'Count' } })).body;
    expect(c.comments).toBe(0);
    const spaceCount = async () => (await t.request('GET', s, { token: admin.token })).body.comments;
    const crCount = async () => (await t.request('GET', `${s}/change-requests/${c.id}`, { token: admin.token })).body.comments;
    const listedCrCount = async () => (await t.request('GET', `${s}/change-requests`, { token: admin.token })).body.items[0].comments;

    const a = await postOk(`${s}/comments`, commenter.token, say('a'));
    const b = await postOk(`${s}/comments`, commenter.token, say('b'));
    const x = await postOk(`${s}/change-requests/${c.id}/comments`, commenter.token, say('x'));
    await postOk(`${s}/change-requests/${c.number}/comments`, commenter.token, say('y'));
    expect(await spaceCount()).toBe(2);
    expect(await crCount()).toBe(2);
    expect(await listedCrCount()).toBe(2);

    await t.request('PUT', `${s}/comments/${a.id}`, { token: commenter.token, body: { resolved: true } });
    await t.request('PUT', `${s}/change-requests/${c.id}/comments/${x.id}`, { token: commenter.token, body: { resolved: true } });
    expect(await spaceCount()).toBe(1);
    expect(await crCount()).toBe(1);
    // Replies are not comments.
    await postOk(`${s}/comments/${b.id}/replies`, commenter.token, say('r'));
    expect(await spaceCount()).toBe(1);

    await t.request('PUT', `${s}/comments/${a.id}`, { token: commenter.token, body: { resolved: false } });
    expect(await spaceCount()).toBe(2);
    await t.request('DELETE', `${s}/comments/${b.id}`, { token: commenter.token });
    await t.request('DELETE', `${s}/change-requests/${c.id}/comments/${x.id}`, { token: admin.token });
    expect(await spaceCount()).toBe(1);
    expect(await crCount()).toBe(1);
    const listed = await t.request('GET', `/v1/orgs/${org.id}/spaces`, { token: admin.token, query: { limit: 1000 } });
    expect(listed.body.items.find((sp: any) => sp.id === fresh.body.id).comments).toBe(1);
  });
});
