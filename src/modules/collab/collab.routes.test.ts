import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import type { TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { sessionCookie, startCollabServers, type CollabServers } from '../../../test/collab-space.ts';
import { buildApp } from '../../app.ts';
import { readPageMarkdown } from '../../content/markdown/index.ts';
import { COLLAB_LIMITS, MESSAGE, documentOfYDoc, seedUpdate } from './collab.service.ts';
import { Client, textOf, until } from '../../../test/collab-client.ts';

/*
 * Live editing over the socket, with a Node client speaking y-protocols as the browser does:
 * who may connect and write, edits passed on, stored before they are acknowledged (and read
 * back by a second app on the same database, as after a restart or by another process),
 * the merged document saved through the change request, and the budgets.
 */

describe('the live document', () => {
  it('keeps the page’s own properties (its written forms, unknown data) beside the content y-prosemirror binds', () => {
    const { document } = readPageMarkdown('Lead.\n\n- apples\n- pears\n');
    expect(document.data.writtenForms).toHaveLength(1);
    const page = { ...document, data: { ...document.data, future: { kept: true } } };
    const doc = new Y.Doc();
    Y.applyUpdate(doc, seedUpdate(page));
    expect(documentOfYDoc(doc).data).toEqual(page.data);
    // Through a client, as a browser has it: the same document.
    const client = new Y.Doc();
    Y.applyUpdate(client, Y.encodeStateAsUpdate(doc));
    expect(documentOfYDoc(client)).toEqual(documentOfYDoc(doc));
  });
});

describe('live editing (collab)', () => {
  let servers: CollabServers;
  let t: TestApp;
  let org: TestOrganization;
  let editor: TestUser;
  let other: TestUser;
  let reader: TestUser;
  let spaceId: string;
  let pageId: string;
  let crId: string;
  let port: number;
  let secondPort: number;

  beforeAll(async () => {
    servers = await startCollabServers([{ title: 'Welcome', markdown: 'Handbook text.\n' }]);
    ({ t, org, editor, other, spaceId, port, secondPort } = servers);
    [pageId] = servers.pageIds;
    reader = await createMember(t, org.id, 'read', { displayName: 'Rita' });
    const cr = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: editor.token, body: { subject: 'Together' } });
    crId = cr.body.id;
  }, 180_000);
  afterAll(() => servers?.close());

  const cookieOf = (user: TestUser) => sessionCookie(t, user);

  function connect(cookie: string | null, options: { origin?: string; at?: number; path?: string } = {}) {
    return servers.socket(options.path ?? `/app/collab/${spaceId}/${crId}/${pageId}`, { cookie, ...options });
  }

  /** The HTTP status a refused upgrade answers, with its body. */
  function refusal(ws: WebSocket): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      ws.on('unexpected-response', (_req, res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      ws.on('open', () => reject(new Error('the socket opened')));
      ws.on('error', () => undefined);
    });
  }

  it('refuses a request without a session, from another origin, for a stranger, or for an unknown page, with the GitBook error body', async () => {
    const cookie = await cookieOf(editor);
    expect(await refusal(connect(null))).toMatchObject({ status: 401, body: { error: { code: 401 } } });
    expect((await refusal(connect(cookie, { origin: 'https://evil.test' }))).status).toBe(403);
    const stranger = await createMember(t, (await createOrganization(t, { title: 'Other' })).id, 'admin');
    expect((await refusal(connect(await cookieOf(stranger)))).status).toBe(404);
    expect((await refusal(connect(cookie, { path: `/app/collab/${spaceId}/${crId}/nopage` }))).status).toBe(404);
    expect((await refusal(connect(cookie, { path: `/app/collab/${spaceId}/nocr/${pageId}` }))).status).toBe(404);
  });

  it('passes an edit on to the others, on this process and on another one, after storing it; a reader’s edits are dropped', async () => {
    const a = new Client(connect(await cookieOf(editor)));
    const b = new Client(connect(await cookieOf(other)));
    const far = new Client(connect(await cookieOf(other), { at: secondPort }));
    const r = new Client(connect(await cookieOf(reader)));
    await Promise.all([a.synced, b.synced, far.synced, r.synced]);
    expect(a.text()).toContain('Handbook text.');
    a.type('Alpha ');
    await until(() => a.acks === 1);
    const stored = await t.db.selectFrom('collab_updates').select(['id']).where('change_request_id', '=', crId).execute();
    expect(stored.length).toBeGreaterThanOrEqual(2); // the seed and the edit
    await until(() => b.text().includes('Alpha Handbook'));
    // Through the database to the second process (its latency is bench/collab-latency.ts's to measure).
    await until(() => far.text().includes('Alpha Handbook'));
    far.type('Beta ');
    await until(() => a.text().includes('Beta ') && b.text().includes('Beta '));

    r.type('Reader ');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(r.acks).toBe(0);
    expect(a.text()).not.toContain('Reader');
    const rows = await t.db.selectFrom('collab_updates').select(['data']).where('change_request_id', '=', crId).execute();
    const merged = new Y.Doc();
    for (const row of rows) Y.applyUpdate(merged, Buffer.from(row.data, 'base64'));
    expect(textOf(documentOfYDoc(merged))).not.toContain('Reader');
    for (const c of [a, b, far, r]) c.ws.close();
    await Promise.all([a.closed, b.closed, far.closed, r.closed]);
  });

  it('keeps what was acknowledged for a new process, and saves the merged document as the member who saved', async () => {
    const restarted = await buildApp({ config: t.config, db: t.db, dialect: t.dialect, clock: t.clock, logger: false });
    await restarted.listen({ port: 0, host: '127.0.0.1' });
    try {
      const c = new Client(connect(await cookieOf(other), { at: (restarted.server.address() as AddressInfo).port }));
      await c.synced;
      expect(c.text()).toContain('Beta Alpha Handbook text.');
      c.send(MESSAGE.save, () => undefined);
      await until(() => c.saved.length === 1, 5_000);
      expect(c.saved[0]).toEqual({ ok: true });
      const page = await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/content/page/${pageId}`, { token: org.admin.token, query: { format: 'markdown' } });
      expect(page.status).toBe(200);
      expect(page.body.markdown).toContain('Beta Alpha Handbook text.');
      const main = await t.request('GET', `/v1/spaces/${spaceId}/content/page/${pageId}`, { token: org.admin.token, query: { format: 'markdown' } });
      expect(main.body.markdown).not.toContain('Alpha');
      c.ws.close();
      await c.closed;
    } finally {
      await restarted.close();
    }
  });

  it('follows the page when it changed outside live editing and nothing was typed since; keeps unsaved live edits otherwise', async () => {
    const update = (markdown: string) =>
      t.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content`, {
        token: org.admin.token,
        body: { changes: [{ operation: 'update_page', page: pageId, markdown }] },
        skipSchemaCheck: true,
      });
    const session = async (at = port) => {
      const c = new Client(connect(await cookieOf(editor), { at }));
      await c.synced;
      return c;
    };
    const leave = async (c: Client) => {
      c.ws.close();
      await c.closed;
      // The last one out compacts the document; wait for it before the next step.
      await new Promise((r) => setTimeout(r, 300));
    };

    // Saved by the previous test, nothing typed since: a change through the API is what the
    // next live session starts from, and a save then keeps it.
    expect((await update('Changed through the API.\n')).status).toBe(200);
    const first = await session();
    expect(first.text()).toBe('Changed through the API.');
    first.send(MESSAGE.save, () => undefined);
    await until(() => first.saved.length === 1, 5_000);
    expect(first.saved[0]).toEqual({ ok: true });
    await leave(first);
    const saved = await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/content/page/${pageId}`, { token: org.admin.token, query: { format: 'markdown' } });
    expect(saved.body.markdown).toContain('Changed through the API.');

    // Typed but not saved, then the page changes through the API: the acknowledged live
    // edit is kept (on another process too), never dropped for the page's new content.
    const typing = await session();
    typing.type('Unsaved ');
    await until(() => typing.acks >= 1);
    await leave(typing);
    expect((await update('Second API change.\n')).status).toBe(200);
    const back = await session(secondPort);
    expect(back.text()).toBe('Unsaved Changed through the API.');
    await leave(back);
  });

  it('follows a page changed outside live editing while its room stays open: a member who joins sees the change, and so do those in the room', async () => {
    // A change request of its own: the room of this test is not the other tests' room.
    const cr = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: editor.token, body: { subject: 'Open room' } });
    const path = `/app/collab/${spaceId}/${cr.body.id}/${pageId}`;
    const staying = new Client(connect(await cookieOf(editor), { path }));
    await staying.synced;
    expect(staying.text()).toBe('Handbook text.');
    const changed = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      token: org.admin.token,
      body: { changes: [{ operation: 'update_page', page: pageId, markdown: 'Changed while the room was open.\n' }] },
      skipSchemaCheck: true,
    });
    expect(changed.status).toBe(200);
    // Before the fix the room, loaded once, kept the old text for everyone until it closed.
    const joining = new Client(connect(await cookieOf(other), { path }));
    await joining.synced;
    expect(joining.text()).toBe('Changed while the room was open.');
    await until(() => staying.text() === 'Changed while the room was open.', 5_000);
    for (const c of [staying, joining]) {
      c.ws.close();
      await c.closed;
    }
  });

  it('merges a change made outside live editing into unsaved live edits, by block, when it is made: the live side wins a block both changed, and every member is told', async () => {
    const cr = (await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: editor.token, body: { subject: 'Outside' } })).body.id as string;
    const update = (markdown: string) =>
      t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, { token: org.admin.token, body: { changes: [{ operation: 'update_page', page: pageId, document: { markdown } }] } });
    const markdown = async () => (await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}`, { token: org.admin.token, query: { format: 'markdown' } })).body.markdown as string;
    expect((await update('First paragraph.\n\nSecond paragraph.\n')).status).toBe(200);
    const path = `/app/collab/${spaceId}/${cr}/${pageId}`;
    const c = new Client(connect(await cookieOf(editor), { path }));
    const watcher = new Client(connect(await cookieOf(other), { path }));
    await Promise.all([c.synced, watcher.synced]);
    const saveAs = async (payload?: object) => {
      const count = c.saved.length;
      c.send(MESSAGE.save, (e) => payload && encoding.writeVarString(e, JSON.stringify(payload)));
      await until(() => c.saved.length > count, 5_000);
      return c.saved[count];
    };

    // One side each: both kept, no conflict, merged as soon as the API wrote it (before: at the
    // next save or join), so the save that follows has nothing more to merge.
    c.type('Live ');
    await until(() => c.acks >= 1);
    expect((await update('First paragraph.\n\nSecond, changed outside.\n')).status).toBe(200);
    await until(() => c.notices.length === 1 && watcher.notices.length === 1);
    expect(watcher.notices[0]).toContain('merged into the live edits');
    expect(watcher.text()).toBe('Live First paragraph.Second, changed outside.');
    expect(await saveAs()).toEqual({ ok: true });
    expect(await markdown()).toBe('Live First paragraph.\n\nSecond, changed outside.\n');

    // Both changed the first paragraph, the outside change also added a block: the live
    // paragraph is kept and named, the added block is in.
    c.type('More ');
    await until(() => c.acks >= 2);
    expect((await update('Outside first.\n\nSecond, changed outside.\n\nAdded outside.\n')).status).toBe(200);
    await until(() => watcher.notices.length === 2 && c.notices.length === 2);
    expect(watcher.notices[1]).toContain('changed on both sides, and the live version was kept: paragraph “More Live First paragraph.”');
    expect(await saveAs()).toEqual({ ok: true });
    expect(await markdown()).toBe('More Live First paragraph.\n\nSecond, changed outside.\n\nAdded outside.\n');

    // A member who joins has it too, and so do those in the room.
    c.type('Typed ', 1);
    await until(() => c.acks >= 3);
    expect((await update('More Live First paragraph.\n\nSecond, changed outside.\n\nAdded outside, then changed.\n')).status).toBe(200);
    const joining = new Client(connect(await cookieOf(other), { path }));
    await joining.synced;
    const both = 'More Live First paragraph.Typed Second, changed outside.Added outside, then changed.';
    expect(joining.text()).toBe(both);
    await until(() => c.text() === both && watcher.text() === both);
    expect(await saveAs()).toEqual({ ok: true });
    expect(await markdown()).toBe('More Live First paragraph.\n\nTyped Second, changed outside.\n\nAdded outside, then changed.\n');

    // A live document with no known base (seeded before bases were recorded) is not merged:
    // the save is refused, saying why; the member replaces the change or takes the page's version.
    const unmergeable = async (typed: string, outside: string) => {
      const acks = c.acks;
      c.type(typed);
      await until(() => c.acks >= acks + 1);
      c.doc.getMap('quire-base').delete('document');
      await until(() => c.acks >= acks + 2);
      expect((await update(outside)).status).toBe(200);
      expect(await saveAs()).toEqual({ ok: false, stale: true, message: expect.stringContaining('changed outside live editing') });
    };
    await unmergeable('Replacing ', 'Outside only.\n');
    // Saving with `replace` replaces the change made outside.
    expect(await saveAs({ replace: true })).toEqual({ ok: true });
    expect(await markdown()).toBe('Replacing More Live First paragraph.\n\nTyped Second, changed outside.\n\nAdded outside, then changed.\n');
    await unmergeable('Old ', 'Outside again.\n');
    expect(await markdown()).toBe('Outside again.\n');
    const count = c.saved.length;
    c.send(MESSAGE.reload, () => undefined);
    await until(() => c.saved.length > count, 5_000);
    expect(c.saved[count]).toEqual({ ok: true });
    await until(() => c.text() === 'Outside again.');
    expect(await saveAs()).toEqual({ ok: true });
    expect(await markdown()).toBe('Outside again.\n');
    for (const client of [c, watcher, joining]) {
      client.ws.close();
      await client.closed;
    }
  });

  it('relays cursors to a member on another process, drops them when their client leaves, and lets no member speak for another’s client', async () => {
    const a = new Client(connect(await cookieOf(editor)));
    const near = new Client(connect(await cookieOf(other)));
    const far = new Client(connect(await cookieOf(other), { at: secondPort }));
    await Promise.all([a.synced, near.synced, far.synced]);
    a.announce({ user: { name: 'Eda', color: '#c2410c' }, cursor: null });
    far.announce({ user: { name: 'Otto', color: '#15803d' }, cursor: null });
    await until(() => far.nameOf(a.doc.clientID) === 'Eda' && near.nameOf(a.doc.clientID) === 'Eda');
    await until(() => a.nameOf(far.doc.clientID) === 'Otto');
    const stored = await t.db.selectFrom('collab_awareness').select(['client_id']).where('change_request_id', '=', crId).where('page_id', '=', pageId).execute();
    expect(stored.map((row) => Number(row.client_id)).sort()).toEqual([a.doc.clientID, far.doc.clientID].sort());

    // Another member announcing Eda's client id (to move or hide her cursor) is cut off.
    near.announce({ user: { name: 'Not Eda' } }, a.doc.clientID);
    expect((await near.closed).code).toBe(1008);
    far.announce({ user: { name: 'Not Eda' } }, a.doc.clientID);
    expect((await far.closed).code).toBe(1008);
    expect(a.nameOf(far.doc.clientID)).toBe('Otto');
    await until(() => a.nameOf(far.doc.clientID) === undefined); // far left: its cursor goes too

    const watcher = new Client(connect(await cookieOf(other), { at: secondPort }));
    await watcher.synced;
    await until(() => watcher.nameOf(a.doc.clientID) === 'Eda');
    // The same member may take their client id over elsewhere (a tab reconnecting to another process).
    const again = new Client(connect(await cookieOf(editor), { at: secondPort }));
    await again.synced;
    again.announce({ user: { name: 'Eda' } }, a.doc.clientID);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(again.ws.readyState).toBe(WebSocket.OPEN);
    again.ws.close();
    await again.closed;
    a.ws.close();
    await a.closed;
    await until(() => watcher.nameOf(a.doc.clientID) === undefined);
    const left = await t.db.selectFrom('collab_awareness').select(['client_id']).where('change_request_id', '=', crId).execute();
    expect(left).toEqual([]);
    watcher.ws.close();
    await watcher.closed;
  });

  it('deletes a document’s rows once it is saved and no process holds it; keeps them while it is held elsewhere or unsaved', async () => {
    const cr = (await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: editor.token, body: { subject: 'Clean-up' } })).body.id as string;
    const path = `/app/collab/${spaceId}/${cr}/${pageId}`;
    const rowsOf = async () => ({
      updates: (await t.db.selectFrom('collab_updates').select('id').where('change_request_id', '=', cr).execute()).length,
      holders: (await t.db.selectFrom('collab_rooms').select('process_id').where('change_request_id', '=', cr).execute()).length,
      awareness: (await t.db.selectFrom('collab_awareness').select('client_id').where('change_request_id', '=', cr).execute()).length,
    });
    const session = async (at: number) => {
      const c = new Client(connect(await cookieOf(editor), { at, path }));
      await c.synced;
      c.announce({ user: { name: 'Eda' } });
      return c;
    };
    const leave = async (c: Client) => {
      c.ws.close();
      await c.closed;
    };

    const here = await session(port);
    const there = await session(secondPort);
    const generation = here.generation;
    expect(generation).toMatch(/.+/);
    expect(there.generation).toBe(generation);
    const acked = here.acks;
    here.type('Kept ');
    await until(() => here.acks > acked && there.text().startsWith('Kept '));
    await leave(here);
    // Held by the other process: compacted, not deleted.
    await until(async () => (await rowsOf()).holders === 1);
    expect((await rowsOf()).updates).toBeGreaterThan(0);
    await leave(there);
    // Nobody holds it, but the edit is unsaved: one merged row keeps it.
    await until(async () => (await rowsOf()).holders === 0);
    expect(await rowsOf()).toEqual({ updates: 1, holders: 0, awareness: 0 });

    const saver = await session(secondPort);
    expect(saver.text()).toBe('Kept Handbook text.');
    saver.send(MESSAGE.save, () => undefined);
    await until(() => saver.saved.length === 1, 5_000);
    expect(saver.saved[0]).toEqual({ ok: true });
    await leave(saver);
    await until(async () => (await rowsOf()).updates === 0);
    expect(await rowsOf()).toEqual({ updates: 0, holders: 0, awareness: 0 });

    // The next session starts a new generation from the saved page.
    const next = await session(port);
    expect(next.text()).toBe('Kept Handbook text.');
    expect(next.generation).not.toBe(generation);
    await leave(next);
  });

  it('holds the budgets: a message too large, and too many connections of one session', async () => {
    const cookie = await cookieOf(editor);
    const big = new Client(connect(cookie));
    await big.synced;
    big.ws.send(new Uint8Array(COLLAB_LIMITS.messageBytes + 1));
    expect((await big.closed).code).toBe(1009);

    const clients = Array.from({ length: COLLAB_LIMITS.connectionsPerSession }, () => new Client(connect(cookie)));
    await Promise.all(clients.map((c) => c.synced));
    const extra = new Client(connect(cookie));
    expect(await extra.closed).toMatchObject({ code: 1013 });
    for (const c of clients) c.ws.close();
    await Promise.all(clients.map((c) => c.closed));
  });
});
