import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import type { TestOrganization, TestUser } from '../../../test/factories.ts';
import { Client, until } from '../../../test/collab-client.ts';
import { sessionCookie, startCollabServers, type CollabServers } from '../../../test/collab-space.ts';
import { ENDED_CLOSE, MESSAGE } from './collab.service.ts';

/*
 * Open live documents told of changes made outside live editing (issue 32): an API content
 * write or main merged into the change request reaches a member of an open room promptly, on
 * this process (told directly) and on another process on the same database (its poll of the
 * change requests' heads); with unsaved live edits it is merged into them and every member is
 * told. A change request merged or closed ends its rooms and deletes its live documents' rows.
 */
describe('live documents follow changes made outside live editing', () => {
  let servers: CollabServers;
  let t: TestApp;
  let org: TestOrganization;
  let editor: TestUser;
  let other: TestUser;
  let spaceId: string;
  let pageId: string;
  let otherPageId: string;
  let port: number;
  let secondPort: number;

  beforeAll(async () => {
    servers = await startCollabServers([
      { title: 'Welcome', markdown: 'First paragraph.\n\nSecond paragraph.\n' },
      { title: 'Other', markdown: 'Other page.\n' },
    ]);
    ({ t, org, editor, other, spaceId, port, secondPort } = servers);
    [pageId, otherPageId] = servers.pageIds;
  }, 180_000);
  afterAll(() => servers?.close());

  async function member(user: TestUser, cr: string, at: number, page = pageId): Promise<Client> {
    const client = new Client(servers.socket(`/app/collab/${spaceId}/${cr}/${page}`, { cookie: await sessionCookie(t, user), at }));
    await client.synced;
    return client;
  }
  const newChangeRequest = async (subject: string) => (await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: editor.token, body: { subject } })).body.id as string;
  const write = async (cr: string, markdown: string, page = pageId) => {
    const res = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, { token: org.admin.token, body: { changes: [{ operation: 'update_page', page, document: { markdown } }] } });
    expect(res.status).toBe(200);
  };
  const rowsOf = async (cr: string) => (await t.db.selectFrom('collab_updates').select(['page_id']).where('change_request_id', '=', cr).execute()).length;
  const leave = async (...clients: Client[]) => {
    for (const c of clients) {
      c.ws.close();
      await c.closed;
    }
  };

  it('shows an API write to members of an open room within 2 s, on this process and on another (before: only at the next join or save)', async () => {
    const cr = await newChangeRequest('Push');
    const near = await member(editor, cr, port);
    const far = await member(other, cr, secondPort);
    expect(near.text()).toBe('First paragraph.Second paragraph.');
    const started = Date.now();
    await write(cr, 'First paragraph.\n\nSecond, written by an API client.\n');
    const expected = 'First paragraph.Second, written by an API client.';
    await until(() => near.text() === expected, 2_000);
    const nearMs = Date.now() - started;
    await until(() => far.text() === expected, 2_000).catch((e) => { console.log('FAR', far.text()); throw e; });
    const farMs = Date.now() - started;
    console.log(`[collab push] an API write shown in an open room after ${nearMs} ms on the same process, ${farMs} ms on another`);
    // Nothing typed: followed, not merged, and nobody told of a merge.
    expect(near.notices).toEqual([]);
    await leave(near, far);
  });

  it('merges an API write into unsaved live edits when it is made, telling every member which blocks both changed', async () => {
    const cr = await newChangeRequest('Push merge');
    const near = await member(editor, cr, port);
    const far = await member(other, cr, secondPort);
    near.type('Live ');
    await until(() => near.acks >= 1 && far.text().startsWith('Live '));
    await write(cr, 'First, changed outside.\n\nSecond, changed outside.\n');
    // The first paragraph was changed on both sides: the live one stays, and both members hear of it.
    const merged = 'Live First paragraph.Second, changed outside.';
    await until(() => near.text() === merged && far.text() === merged, 2_000);
    // Told on every process through the live document (the merging process, whichever saw the
    // change first, also sends its own members a notice message).
    const told = (c: Client) => (JSON.parse(c.doc.getMap<string>('quire-notice').get('merge') ?? '{}') as { text?: string }).text ?? '';
    await until(() => told(near) !== '' && told(far) !== '');
    for (const c of [near, far]) expect(told(c)).toContain('changed on both sides, and the live version was kept: paragraph “Live First paragraph.”');
    await until(() => near.notices.length + far.notices.length === 1);
    // The merge is stored in the live document: the unsaved live edit still counts as unsaved,
    // and a save writes both sides without merging again.
    near.send(MESSAGE.save, () => undefined);
    await until(() => near.saved.length === 1, 5_000);
    expect(near.saved[0]).toEqual({ ok: true });
    const page = await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}`, { token: org.admin.token, query: { format: 'markdown' } });
    expect(page.body.markdown).toBe('Live First paragraph.\n\nSecond, changed outside.\n');
    await leave(near, far);
  });

  it('follows main merged into the change request', async () => {
    const cr = await newChangeRequest('Push update');
    const near = await member(editor, cr, port);
    const main = await newChangeRequest('Main change');
    await write(main, 'First paragraph.\n\nSecond, merged into main.\n');
    expect((await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${main}/merge`, { token: org.admin.token })).status).toBe(200);
    expect((await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/update`, { token: editor.token })).status).toBe(200);
    await until(() => near.text() === 'First paragraph.Second, merged into main.', 2_000);
    await leave(near);
  });

  it('deletes the live documents of a change request when it is merged or closed: open ones end (on any process), left ones go at once', async () => {
    for (const [how, settle] of [
      ['merged', (cr: string) => t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`, { token: org.admin.token })],
      ['closed', (cr: string) => t.request('PATCH', `/v1/spaces/${spaceId}/change-requests/${cr}`, { token: editor.token, body: { status: 'archived' } })],
    ] as const) {
      const cr = await newChangeRequest(`Settle ${how}`);
      // Unsaved edits on a page nobody has open any more (one merged row stays)...
      const gone = await member(editor, cr, port, otherPageId);
      gone.type('Unsaved ');
      await until(() => gone.acks >= 1);
      await leave(gone);
      await until(async () => (await t.db.selectFrom('collab_rooms').select('process_id').where('change_request_id', '=', cr).execute()).length === 0);
      // ...and on a page open on both processes.
      const near = await member(editor, cr, port);
      const far = await member(other, cr, secondPort);
      near.type('Typed ');
      await until(() => near.acks >= 1 && far.text().startsWith('Typed '));
      expect(await rowsOf(cr)).toBeGreaterThan(1);
      expect((await settle(cr)).status).toBe(200);
      const [nearClosed, farClosed] = await Promise.all([near.closed, far.closed]);
      expect(nearClosed).toEqual({ code: ENDED_CLOSE, reason: `This change request was ${how}: live editing of it has ended` });
      expect(farClosed.code).toBe(ENDED_CLOSE);
      await until(async () => (await rowsOf(cr)) === 0, 5_000);
      const left = await Promise.all(['collab_rooms', 'collab_awareness'].map((table) => t.db.selectFrom(table as 'collab_rooms').select('page_id').where('change_request_id', '=', cr).execute()));
      expect(left.flat()).toEqual([]);
    }
  });
});
