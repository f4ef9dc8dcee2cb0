import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, createSpace, createUser, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import type { RevisionEditor } from '../../content/store/editor.ts';
import { editSpaceContent } from '../content/content.service.ts';

/*
 * Change requests over HTTP (issue 4): every operation and filter, every batch operation
 * with its limits and its all-or-nothing failure, merges (clean, line-level, conflicting),
 * update, outdated, merge rules, reviews, and two merges at once losing no edit. Runs on
 * SQLite, and on PostgreSQL when DATABASE_URL is set.
 */

type Change = Record<string, unknown>;

describe('change requests', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: TestUser;
  let reader: TestUser;
  let editor: TestUser;
  let editor2: TestUser;
  let reviewer: TestUser;
  let reviewer2: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Acme' });
    admin = org.admin;
    reader = await createMember(t, org.id, 'read', { displayName: 'Rita Reader' });
    editor = await createMember(t, org.id, 'edit', { displayName: 'Eddie Editor' });
    editor2 = await createMember(t, org.id, 'edit', { displayName: 'Edna Editor' });
    reviewer = await createMember(t, org.id, 'review', { displayName: 'Rob Reviewer' });
    reviewer2 = await createMember(t, org.id, 'review', { displayName: 'Rhea Reviewer' });
    outsider = await createUser(t, { displayName: 'Otto Outsider' });
  });
  afterAll(async () => {
    await t.close();
  });

  // ---------------------------------------------------------------------------------------
  // Helpers

  const S = (spaceId: string) => `/v1/spaces/${spaceId}`;
  const CR = (spaceId: string, cr: string | number) => `/v1/spaces/${spaceId}/change-requests/${cr}`;


  /** Edits main directly (as the editor of the space would through another channel). */
  async function editMain(spaceId: string, edit: (e: RevisionEditor) => unknown) {
    const revision = await editSpaceContent(t.app.deps, spaceId, admin.id, edit);
    t.clock.advance(1000);
    return revision;
  }

  async function open(spaceId: string, token = editor.token, body: Record<string, unknown> = { subject: 'A change' }) {
    const res = await t.request('POST', `${S(spaceId)}/change-requests`, { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    t.clock.advance(1000);
    return res.body as { id: string; number: number; revision: string; revisionInitial: string; status: string };
  }

  async function apply(spaceId: string, cr: string, changes: Change[], options: { token?: string; compat?: boolean } = {}) {
    const res = await t.request('POST', `${CR(spaceId, cr)}/content`, {
      token: options.token ?? editor.token,
      body: { changes },
      ...(options.compat !== undefined ? { query: { compat: options.compat } } : {}),
    });
    t.clock.advance(1000);
    return res;
  }

  async function applyOk(spaceId: string, cr: string, changes: Change[], options: { token?: string; compat?: boolean } = {}) {
    const res = await apply(spaceId, cr, changes, options);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  const get = (url: string, token = editor.token, query?: Record<string, string | string[] | number | boolean>) =>
    t.request('GET', url, { token, ...(query ? { query } : {}) });

  async function getCR(spaceId: string, cr: string | number, token = editor.token) {
    const res = await get(CR(spaceId, cr), token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  /** Flattened page tree [title, path] of the change request (or of main). */
  async function tree(url: string): Promise<{ id: string; title: string; path: string }[]> {
    const res = await get(url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const out: { id: string; title: string; path: string }[] = [];
    const walk = (pages: any[]) => {
      for (const p of pages) {
        out.push({ id: p.id, title: p.title, path: p.path });
        walk(p.pages ?? []);
      }
    };
    walk(res.body.pages);
    return out;
  }
  const crTree = (spaceId: string, cr: string) => tree(`${CR(spaceId, cr)}/content/pages`);
  const mainTree = (spaceId: string) => tree(`${S(spaceId)}/content/pages`);

  async function markdown(url: string) {
    const res = await get(url, editor.token, { format: 'markdown' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.markdown as string;
  }
  const crMarkdown = (spaceId: string, cr: string, pageId: string) => markdown(`${CR(spaceId, cr)}/content/page/${pageId}`);
  const mainMarkdown = (spaceId: string, pageId: string) => markdown(`${S(spaceId)}/content/page/${pageId}`);

  async function merge(spaceId: string, cr: string, token = reviewer.token) {
    const res = await t.request('POST', `${CR(spaceId, cr)}/merge`, { token });
    t.clock.advance(1000);
    return res;
  }

  async function spaceRevision(spaceId: string) {
    const res = await get(S(spaceId), admin.token);
    return res.body.revision as string;
  }

  // ---------------------------------------------------------------------------------------

  describe('POST {S}/change-requests (createChangeRequest)', () => {
    it('201 with Location, numbers 1, 2, 3 per space, starting at the space revision', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const res = await t.request('POST', `${S(space.id)}/change-requests`, { token: editor.token, body: { subject: '  First  ' } });
      expect(res.status).toBe(201);
      expect(res.headers.location).toBe(`http://quire.test/v1/spaces/${space.id}/change-requests/${res.body.id}`);
      expect(res.body).toMatchObject({
        object: 'change-request',
        number: 1,
        status: 'open',
        subject: 'First',
        createdBy: { id: editor.id, displayName: 'Eddie Editor' },
        space: space.id,
        revision: space.revision,
        revisionInitial: space.revision,
        revisionMergedAncestor: space.revision,
        comments: 0,
        outdated: false,
        urls: { location: res.headers.location, app: `http://quire.test/app/s/${space.id}/change-requests/1` },
      });
      expect(res.body.revisionMerged).toBeUndefined();
      expect(res.body.mergedBy).toBeUndefined();
      // An empty body is accepted (no subject).
      const second = await t.request('POST', `${S(space.id)}/change-requests`, { token: admin.token });
      expect(second.status).toBe(201);
      expect(second.body).toMatchObject({ number: 2, subject: '' });
      const third = await open(space.id);
      expect(third.number).toBe(3);
      // Another space numbers from 1.
      const other = await createSpace(t, { organization: org, title: 'Docs' });
      expect((await open(other.id)).number).toBe(1);
    });

    it('numbers are never reused: a merged or archived change request keeps its number', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const one = await open(space.id);
      const two = await open(space.id);
      expect((await t.request('PATCH', CR(space.id, two.id), { token: editor.token, body: { status: 'archived' } })).status).toBe(200);
      expect((await merge(space.id, one.id)).status).toBe(200);
      expect((await open(space.id)).number).toBe(3);
    });

    it('10 concurrent creations get exactly the numbers 1..10', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => t.request('POST', `${S(space.id)}/change-requests`, { token: editor.token, body: { subject: `CR ${i}` } })),
      );
      for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(results.map((r) => r.body.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });

    it('a template adds its pages to the change request, not to the space; unknown template 400', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id, editor.token, { subject: 'Templated', template: { id: 'api-docs' } });
      expect(cr.revision).not.toBe(cr.revisionInitial);
      expect((await crTree(space.id, cr.id)).map((p) => p.title)).toEqual(['Introduction', 'Authentication', 'Reference', 'Changelog']);
      expect(await mainTree(space.id)).toEqual([]);
      const contributors = await get(`${CR(space.id, cr.id)}/contributors`);
      expect(contributors.body.items.map((c: any) => c.user.id)).toEqual([editor.id]);
      const bad = await t.request('POST', `${S(space.id)}/change-requests`, { token: editor.token, body: { template: { id: 'nope' } } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('unknown template');
    });

    it('subject at most 100 characters (400 beyond)', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const ok = await t.request('POST', `${S(space.id)}/change-requests`, { token: editor.token, body: { subject: 's'.repeat(100) } });
      expect(ok.status).toBe(201);
      const long = await t.request('POST', `${S(space.id)}/change-requests`, { token: editor.token, body: { subject: 's'.repeat(101) } });
      expect(long.status).toBe(400);
    });

    it('401 without a token, 403 for a read member, 404 for an outsider and an unknown space', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const url = `${S(space.id)}/change-requests`;
      expect((await t.request('POST', url, { body: {} })).status).toBe(401);
      expect((await t.request('POST', url, { token: reader.token, body: {} })).status).toBe(403);
      expect((await t.request('POST', url, { token: outsider.token, body: {} })).status).toBe(404);
      expect((await t.request('POST', `${S('nope')}/change-requests`, { token: editor.token, body: {} })).status).toBe(404);
      // Nothing was created by the refused requests.
      expect((await open(space.id)).number).toBe(1);
    });
  });

  describe('GET {S}/change-requests and GET {O}/change-requests (lists and filters)', () => {
    let space: { id: string };
    let other: { id: string };
    let a: { id: string }; // editor, open, edited by editor2, reviewer requested
    let b: { id: string }; // admin, draft
    let c: { id: string }; // editor, archived
    let d: { id: string }; // editor, merged
    let e: { id: string }; // other space, editor, open

    beforeAll(async () => {
      space = await createSpace(t, { organization: org, title: 'Docs', body: { title: 'Lists' } });
      other = await createSpace(t, { organization: org, title: 'Docs', body: { title: 'Other' } });
      a = await open(space.id, editor.token, { subject: 'A' });
      b = await open(space.id, admin.token, { subject: 'B' });
      c = await open(space.id, editor.token, { subject: 'C' });
      d = await open(space.id, editor.token, { subject: 'D' });
      e = await open(other.id, editor.token, { subject: 'E' });
      await applyOk(space.id, a.id, [{ operation: 'insert_page', title: 'By Edna', document: { markdown: 'x' } }], { token: editor2.token });
      expect((await t.request('POST', `${CR(space.id, a.id)}/requested-reviewers`, { token: editor.token, body: { users: [reviewer.id] } })).status).toBe(200);
      t.clock.advance(1000);
      expect((await t.request('PATCH', CR(space.id, b.id), { token: admin.token, body: { status: 'draft' } })).status).toBe(200);
      t.clock.advance(1000);
      expect((await t.request('PATCH', CR(space.id, c.id), { token: editor.token, body: { status: 'archived' } })).status).toBe(200);
      t.clock.advance(1000);
      expect((await merge(space.id, d.id)).status).toBe(200);
    });

    const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((i) => i.id);

    it('space list: status defaults to open; each status filter', async () => {
      const url = `${S(space.id)}/change-requests`;
      expect(ids(await get(url))).toEqual([a.id]);
      expect(ids(await get(url, editor.token, { status: 'draft' }))).toEqual([b.id]);
      expect(ids(await get(url, editor.token, { status: 'archived' }))).toEqual([c.id]);
      expect(ids(await get(url, editor.token, { status: 'merged' }))).toEqual([d.id]);
      const merged = (await get(url, editor.token, { status: 'merged' })).body.items[0];
      expect(merged).toMatchObject({ status: 'merged', mergedBy: { id: reviewer.id }, revisionMerged: expect.any(String), mergedAt: expect.any(String), outdated: false });
      expect((await get(url, editor.token, { status: 'closed' })).status).toBe(400);
    });

    it('space list: creator, contributor, requestedReviewer, conversationsIssuesCluster', async () => {
      const url = `${S(space.id)}/change-requests`;
      expect(ids(await get(url, editor.token, { status: 'draft', creator: admin.id }))).toEqual([b.id]);
      expect(ids(await get(url, editor.token, { creator: admin.id }))).toEqual([]);
      expect(ids(await get(url, editor.token, { creator: editor.id }))).toEqual([a.id]);
      expect(ids(await get(url, editor.token, { contributor: editor2.id }))).toEqual([a.id]);
      expect(ids(await get(url, editor.token, { contributor: editor.id }))).toEqual([]);
      expect(ids(await get(url, editor.token, { requestedReviewer: reviewer.id }))).toEqual([a.id]);
      expect(ids(await get(url, editor.token, { requestedReviewer: reviewer2.id }))).toEqual([]);
      expect(ids(await get(url, editor.token, { conversationsIssuesCluster: 'cluster1' }))).toEqual([]);
    });

    it('space list: orderBy updatedAt (default) and createdAt, newest first; pagination', async () => {
      const space2 = await createSpace(t, { organization: org, title: 'Docs', body: { title: 'Order' } });
      const first = await open(space2.id, editor.token, { subject: 'first' });
      const second = await open(space2.id, editor.token, { subject: 'second' });
      // Touch the first: it becomes the most recently updated.
      expect((await t.request('PATCH', CR(space2.id, first.id), { token: editor.token, body: { subject: 'first again' } })).status).toBe(200);
      t.clock.advance(1000);
      const url = `${S(space2.id)}/change-requests`;
      expect(ids(await get(url))).toEqual([first.id, second.id]);
      expect(ids(await get(url, editor.token, { orderBy: 'updatedAt' }))).toEqual([first.id, second.id]);
      expect(ids(await get(url, editor.token, { orderBy: 'createdAt' }))).toEqual([second.id, first.id]);
      const page1 = await get(url, editor.token, { limit: 1 });
      expect(ids(page1)).toEqual([first.id]);
      expect(page1.body.next?.page).toEqual(expect.any(String));
      const page2 = await get(url, editor.token, { limit: 1, page: page1.body.next.page });
      expect(ids(page2)).toEqual([second.id]);
      expect(page2.body.next).toBeUndefined();
    });

    it('organization list: default open across spaces; status array; space filter; other filters', async () => {
      const url = `/v1/orgs/${org.id}/change-requests`;
      const open = ids(await get(url));
      expect(open).toEqual(expect.arrayContaining([a.id, e.id]));
      expect(open).not.toContain(b.id);
      expect(open).not.toContain(d.id);
      expect(ids(await get(url, editor.token, { space: space.id })).sort()).toEqual([a.id]);
      expect(ids(await get(url, editor.token, { space: space.id, status: ['open', 'merged'] })).sort()).toEqual([a.id, d.id].sort());
      expect(ids(await get(url, editor.token, { space: space.id, status: ['draft', 'archived', 'merged', 'open'] })).sort()).toEqual([a.id, b.id, c.id, d.id].sort());
      expect(ids(await get(url, editor.token, { space: space.id, status: 'archived' }))).toEqual([c.id]);
      expect(ids(await get(url, editor.token, { space: other.id }))).toEqual([e.id]);
      expect(ids(await get(url, editor.token, { requestedReviewer: reviewer.id }))).toEqual([a.id]);
      expect(ids(await get(url, editor.token, { contributor: editor2.id }))).toEqual([a.id]);
      expect(ids(await get(url, editor.token, { status: ['draft'], creator: admin.id }))).toEqual([b.id]);
    });

    it('organization list: only spaces the caller can access; 401; 404 for outsiders', async () => {
      const url = `/v1/orgs/${org.id}/change-requests`;
      // A guest sees only the spaces granted to them.
      const guest = await createMember(t, org.id, null);
      await t.db
        .insertInto('content_permissions')
        .values({
          target_type: 'space',
          target_id: space.id,
          organization_id: org.id,
          principal_type: 'user',
          principal_id: guest.id,
          role: 'read',
          created_at: t.clock.now().toISOString(),
        })
        .execute();
      expect(ids(await get(url, admin.token))).toEqual(expect.arrayContaining([a.id, e.id]));
      expect(ids(await get(url, guest.token))).toEqual([a.id]);
      expect(ids(await get(url, guest.token, { space: other.id }))).toEqual([]);
      expect((await get(CR(other.id, e.id), guest.token)).status).toBe(404);
      expect((await get(CR(space.id, a.id), guest.token)).status).toBe(200);
      expect((await t.request('GET', url)).status).toBe(401);
      expect((await get(url, outsider.token)).status).toBe(404);
      expect((await get('/v1/orgs/nope/change-requests')).status).toBe(404);
    });

    it('space list: 401, 404 for an outsider and an unknown space; a read member may list', async () => {
      const url = `${S(space.id)}/change-requests`;
      expect((await t.request('GET', url)).status).toBe(401);
      expect((await get(url, outsider.token)).status).toBe(404);
      expect((await get(`${S('nope')}/change-requests`)).status).toBe(404);
      expect(ids(await get(url, reader.token))).toEqual([a.id]);
    });
  });

  describe('GET and PATCH {CR}', () => {
    it('get by id and by number; 404 for unknown ids and numbers, and for another space’s number', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id, editor.token, { subject: 'Hello' });
      const byId = await getCR(space.id, cr.id, reader.token);
      const byNumber = await getCR(space.id, 1, reader.token);
      expect(byNumber).toEqual(byId);
      expect(byId).toMatchObject({ id: cr.id, number: 1, subject: 'Hello' });
      expect((await get(CR(space.id, 2))).status).toBe(404);
      expect((await get(CR(space.id, 'nope'))).status).toBe(404);
      const other = await createSpace(t, { organization: org, title: 'Docs' });
      expect((await get(CR(other.id, cr.id))).status).toBe(404);
      expect((await get(CR(other.id, 1))).status).toBe(404);
      expect((await t.request('GET', CR(space.id, cr.id))).status).toBe(401);
      expect((await get(CR(space.id, cr.id), outsider.token)).status).toBe(404);
    });

    it('patch subject, description (rich text), status draft/open/archived; 409 once merged', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      const description = {
        object: 'document',
        nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why this change', marks: [] }] }] }],
      };
      const res = await t.request('PATCH', CR(space.id, cr.id), { token: editor.token, body: { subject: ' New subject ', description } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ subject: 'New subject', description: { object: 'document', nodes: description.nodes } });
      expect(res.body.updatedAt).toBe(t.clock.now().toISOString());
      expect(await getCR(space.id, cr.id)).toMatchObject({ subject: 'New subject', description: { object: 'document' } });
      for (const status of ['draft', 'open', 'archived', 'open'] as const) {
        const patched = await t.request('PATCH', CR(space.id, cr.id), { token: editor.token, body: { status } });
        expect(patched.status).toBe(200);
        expect(patched.body.status).toBe(status);
        expect((await getCR(space.id, cr.id)).status).toBe(status);
      }
      expect((await t.request('PATCH', CR(space.id, cr.id), { token: editor.token, body: { status: 'merged' } })).status).toBe(400);
      expect((await t.request('PATCH', CR(space.id, cr.id), { token: editor.token, body: { subject: 'x'.repeat(101) } })).status).toBe(400);
      expect((await t.request('PATCH', CR(space.id, cr.id), { token: editor.token, body: { description: { nodes: [] } } })).status).toBe(400);
      expect((await merge(space.id, cr.id)).status).toBe(200);
      const late = await t.request('PATCH', CR(space.id, cr.id), { token: editor.token, body: { subject: 'too late' } });
      expect(late.status).toBe(409);
      expect((await getCR(space.id, cr.id)).subject).toBe('New subject');
    });

    it('patch: the creator (even without edit), the edit role; 403 for others; 401; 404', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id, editor.token);
      expect((await t.request('PATCH', CR(space.id, cr.id), { token: editor2.token, body: { subject: 'by Edna' } })).status).toBe(200);
      expect((await t.request('PATCH', CR(space.id, cr.id), { token: reader.token, body: { subject: 'by Rita' } })).status).toBe(403);
      expect((await t.request('PATCH', CR(space.id, cr.id), { body: { subject: 'anon' } })).status).toBe(401);
      expect((await t.request('PATCH', CR(space.id, cr.id), { token: outsider.token, body: { subject: 'x' } })).status).toBe(404);
      expect((await t.request('PATCH', CR(space.id, 'nope'), { token: editor.token, body: { subject: 'x' } })).status).toBe(404);
      // An editor later demoted to read may still retitle and archive the change request they opened.
      const mine = await open(space.id, editor2.token);
      const setRole = (role: 'read' | 'edit') =>
        t.db.updateTable('members').set({ role }).where('organization_id', '=', org.id).where('user_id', '=', editor2.id).execute();
      await setRole('read');
      try {
        const res = await t.request('PATCH', CR(space.id, mine.id), { token: editor2.token, body: { subject: 'still mine', status: 'archived' } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject({ subject: 'still mine', status: 'archived' });
        expect((await t.request('PATCH', CR(space.id, cr.id), { token: editor2.token, body: { subject: 'not mine' } })).status).toBe(403);
      } finally {
        await setRole('edit');
      }
      expect((await getCR(space.id, cr.id)).subject).toBe('by Edna');
    });
  });

  describe('POST {CR}/content (updateChangeRequestContent)', () => {
    it('insert_page: root append, at, into with at, front matter and a leading heading for the title; main untouched', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      let parent = '';
      let second = '';
      await editMain(space.id, (e) => {
        parent = e.insertPage({ title: 'Parent', markdown: 'Parent body.\n', pages: [{ title: 'Existing child', markdown: 'c\n' }] });
        second = e.insertPage({ title: 'Second', markdown: 'Second body.\n' });
      });
      const mainBefore = await mainTree(space.id);
      const cr = await open(space.id);
      const body = await applyOk(space.id, cr.id, [
        { operation: 'insert_page', title: 'Appended', document: { markdown: 'Appended body.\n' } },
        { operation: 'insert_page', title: 'Ignored title', at: 0, document: { markdown: '# Heading Title\n\nFirst body.\n' } },
        {
          operation: 'insert_page',
          into: parent,
          at: 0,
          document: { markdown: '---\ntitle: Front Title\ndescription: From front matter\nhidden: true\nemoji: 1f600\n---\n\nChild body.\n' },
        },
        { operation: 'insert_page', title: 'Far', at: 99, document: { markdown: '' } },
      ]);
      expect(body).toMatchObject({ object: 'change-request', id: cr.id, status: 'open' });
      expect(body.revision).not.toBe(cr.revision);
      expect(body.updatedAt).toBe(new Date(t.clock.now().getTime() - 1000).toISOString());
      const pages = await crTree(space.id, cr.id);
      expect(pages.map((p) => [p.title, p.path])).toEqual([
        ['Heading Title', 'heading-title'],
        ['Parent', 'parent'],
        ['Front Title', 'parent/front-title'],
        ['Existing child', 'parent/existing-child'],
        ['Second', 'second'],
        ['Appended', 'appended'],
        ['Far', 'far'],
      ]);
      const first = pages[0].id;
      expect(await crMarkdown(space.id, cr.id, first)).toBe('First body.\n');
      const child = await get(`${CR(space.id, cr.id)}/content/page/${pages[2].id}`, editor.token, { format: 'markdown' });
      expect(child.body).toMatchObject({ title: 'Front Title', description: 'From front matter', hidden: true, emoji: '1f600', markdown: 'Child body.\n' });
      // The space is unchanged until the merge.
      expect(await mainTree(space.id)).toEqual(mainBefore);
      expect(second).not.toBe('');
      // Unknown parent: 404.
      const bad = await apply(space.id, cr.id, [{ operation: 'insert_page', title: 'x', into: 'nope', document: { markdown: '' } }]);
      expect(bad.status).toBe(404);
    });

    it('insert_page: `---` lines around a sentence are content, not front matter (nothing between them is lost); bad YAML is 400', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      const markdown = '---\n\nA sentence set apart.\n\n---\n\nMore.\n';
      await applyOk(space.id, cr.id, [{ operation: 'insert_page', title: 'Set apart', document: { markdown } }]);
      const [page] = await crTree(space.id, cr.id);
      expect(await crMarkdown(space.id, cr.id, page.id)).toBe(markdown);
      const revision = (await getCR(space.id, cr.id)).revision;
      const bad = await apply(space.id, cr.id, [{ operation: 'insert_page', title: 'Bad', document: { markdown: '---\ntitle: [a\n---\n\nText\n' } }]);
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/^body\/changes\/0\/document\/markdown: the front matter is not valid YAML/);
      expect((await getCR(space.id, cr.id)).revision).toBe(revision);
    });

    it('insert_page with type group: a titled group without content, pages move into it; bad groups are 400 and change nothing', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      await applyOk(space.id, cr.id, [
        { operation: 'insert_page', type: 'group', ref: 'g', title: 'Guides', emoji: '1f4d8', icon: 'book' },
        { operation: 'insert_page', title: 'Intro', document: { markdown: 'Hi.\n' } },
      ]);
      const pages = (await get(`${CR(space.id, cr.id)}/content/pages`)).body.pages;
      expect(pages.map((p: { type: string; title: string }) => [p.type, p.title])).toEqual([
        ['group', 'Guides'],
        ['document', 'Intro'],
      ]);
      expect(pages[0]).toMatchObject({ emoji: '1f4d8', icon: 'book' });
      await applyOk(space.id, cr.id, [{ operation: 'update_page', page: pages[1].id, into: pages[0].id, at: 0 }]);
      expect((await crTree(space.id, cr.id)).map((p) => p.path)).toEqual(['guides', 'guides/intro']);
      const revision = (await getCR(space.id, cr.id)).revision;
      for (const [change, where] of [
        [{ operation: 'insert_page', type: 'group', title: 'G', document: { markdown: 'text' } }, 'body/changes/0/document'],
        [{ operation: 'insert_page', type: 'group' }, 'body/changes/0/title'],
        [{ operation: 'insert_page', title: 'No content' }, 'body/changes/0/document'],
        [{ operation: 'insert_page', type: 'link', title: 'L', document: { markdown: '' } }, 'type'],
      ] as const) {
        const res = await apply(space.id, cr.id, [change as never]);
        expect(res.status, JSON.stringify(change)).toBe(400);
        expect(res.body.error.message).toContain(where);
      }
      expect((await getCR(space.id, cr.id)).revision).toBe(revision);
    });

    it('refs resolve links across the batch, whatever the order; compat=false answers the pages', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      const res = await applyOk(
        space.id,
        cr.id,
        [
          { operation: 'insert_page', ref: 'a', title: 'A', document: { markdown: 'See [B](./b.md) and [C](c.md) and [pic](./logo.png).\n' } },
          { operation: 'insert_page', ref: 'b', title: 'B', document: { markdown: 'Back to [A](./a.md).\n' } },
          { operation: 'insert_page', ref: 'c', title: 'C', document: { markdown: 'Plain.\n' } },
          { operation: 'insert_files', files: [{ ref: 'logo.png', name: 'logo.png', contentType: 'image/png', base64: Buffer.from('png-bytes').toString('base64') }] },
        ],
        { compat: false },
      );
      expect(res.changeRequest).toMatchObject({ object: 'change-request', id: cr.id });
      expect(res.changes).toHaveLength(3);
      const byRef = Object.fromEntries(res.changes.map((c: any) => [c.ref, c.page.id]));
      for (const change of res.changes) {
        expect(change).toEqual({
          object: 'created_page',
          ref: expect.any(String),
          page: { object: 'page', id: expect.any(String), urls: { location: `http://quire.test/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${change.page.id}` } },
        });
      }
      expect(res.insertedFiles).toEqual([
        { id: expect.any(String), name: 'logo.png', contentType: 'image/png', size: 9, downloadURL: expect.any(String) },
      ]);
      const fileId = res.insertedFiles[0].id;
      // Stored as page and file references; format=markdown writes them as GitBook's relative paths.
      const stored = await get(`${CR(space.id, cr.id)}/content/page/${byRef.a}`, editor.token, { format: 'document' });
      expect(JSON.stringify(stored.body.document)).toContain(`{"kind":"page","page":"${byRef.c}"}`);
      expect(JSON.stringify(stored.body.document)).toContain(`{"kind":"file","file":"${fileId}"}`);
      expect(await crMarkdown(space.id, cr.id, byRef.a)).toBe(`See [B](b.md) and [C](c.md) and [pic](.gitbook/assets/logo.png).\n`);
      expect(await crMarkdown(space.id, cr.id, byRef.b)).toBe(`Back to [A](a.md).\n`);
      // A ref used twice: 400.
      const twice = await apply(space.id, cr.id, [
        { operation: 'insert_page', ref: 'x', title: 'X1', document: { markdown: '' } },
        { operation: 'insert_page', ref: 'x', title: 'X2', document: { markdown: '' } },
      ]);
      expect(twice.status).toBe(400);
    });

    it('update_page with a JSON document read from the page keeps its written forms: untouched blocks keep their markdown', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      let one = '';
      await editMain(space.id, (e) => {
        one = e.insertPage({ title: 'One', markdown: 'Body.\n' });
      });
      const cr = await open(space.id);
      const written = 'Lead.\n\n- apples\n- pears\n\nA *quiet* word.\n\nEdit me.\n';
      await applyOk(space.id, cr.id, [{ operation: 'update_page', page: one, document: { markdown: written } }]);
      expect(await crMarkdown(space.id, cr.id, one)).toBe(written);
      // A client (the editor) reads the document, changes one paragraph and writes the whole document back.
      const { document } = (await get(`${CR(space.id, cr.id)}/content/page/${one}`, editor.token, { format: 'document' })).body;
      expect(document.data.writtenForms).toHaveLength(2);
      const edited = structuredClone(document);
      edited.nodes[3].nodes[0].leaves[0].text = 'Edited.';
      await applyOk(space.id, cr.id, [{ operation: 'update_page', page: one, document: { document: edited } }]);
      expect(await crMarkdown(space.id, cr.id, one)).toBe(written.replace('Edit me.', 'Edited.'));
      // A list with an edited item keeps its written style (issue 32): its untouched items as
      // written, the edited one with the list's `-` bullet (written-form.ts).
      const again = (await get(`${CR(space.id, cr.id)}/content/page/${one}`, editor.token, { format: 'document' })).body.document;
      again.nodes[1].nodes[0].nodes[0].nodes[0].leaves[0].text = 'plums';
      await applyOk(space.id, cr.id, [{ operation: 'update_page', page: one, document: { document: again } }]);
      expect(await crMarkdown(space.id, cr.id, one)).toBe('Lead.\n\n- plums\n- pears\n\nA *quiet* word.\n\nEdited.\n');
    });

    it('update_page: document, metadata, moves with into/at and into null; compat=false says updated_page', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      let one = '';
      let two = '';
      let three = '';
      await editMain(space.id, (e) => {
        one = e.insertPage({ title: 'One', markdown: 'One body.\n' });
        two = e.insertPage({ title: 'Two', markdown: 'Two body.\n' });
        three = e.insertPage({ title: 'Three', markdown: 'Three body.\n', emoji: '1f4d8' });
      });
      const cr = await open(space.id);
      const res = await applyOk(
        space.id,
        cr.id,
        [
          { operation: 'update_page', page: one, document: { markdown: 'One rewritten.\n' } },
          { operation: 'update_page', page: two, title: 'Two renamed', description: 'Described', hidden: true, noIndex: true },
          { operation: 'update_page', page: three, emoji: '', into: one, at: 0 },
        ],
        { compat: false },
      );
      expect(res.changes.map((c: any) => [c.object, c.page.id])).toEqual([
        ['updated_page', one],
        ['updated_page', two],
        ['updated_page', three],
      ]);
      expect(await crMarkdown(space.id, cr.id, one)).toBe('One rewritten.\n');
      const twoPage = await get(`${CR(space.id, cr.id)}/content/page/${two}`);
      expect(twoPage.body).toMatchObject({ title: 'Two renamed', description: 'Described', hidden: true, noIndex: true });
      let pages = await crTree(space.id, cr.id);
      expect(pages.map((p) => p.path)).toEqual(['one', 'one/three', 'two-renamed']);
      const threePage = await get(`${CR(space.id, cr.id)}/content/page/${three}`);
      expect(threePage.body.emoji).toBeUndefined();
      // Back to the root, first.
      await applyOk(space.id, cr.id, [{ operation: 'update_page', page: three, into: null, at: 0 }]);
      pages = await crTree(space.id, cr.id);
      expect(pages.map((p) => p.title)).toEqual(['Three', 'One', 'Two renamed']);
      // Reorder among its siblings with at only.
      await applyOk(space.id, cr.id, [{ operation: 'update_page', page: three, at: 2 }]);
      expect((await crTree(space.id, cr.id)).map((p) => p.title)).toEqual(['One', 'Two renamed', 'Three']);
      // The space still has the original pages.
      expect((await mainTree(space.id)).map((p) => p.title)).toEqual(['One', 'Two', 'Three']);
      expect(await mainMarkdown(space.id, one)).toBe('One body.\n');
      // Unknown page: 404; moving a page inside itself: 400.
      expect((await apply(space.id, cr.id, [{ operation: 'update_page', page: 'nope', title: 'x' }])).status).toBe(404);
      await applyOk(space.id, cr.id, [{ operation: 'update_page', page: two, into: one }]);
      const inside = await apply(space.id, cr.id, [{ operation: 'update_page', page: one, into: two }]);
      expect(inside.status).toBe(400);
    });

    it('delete_page removes the page with its subpages; compat=false says deleted_page', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      let parent = '';
      await editMain(space.id, (e) => {
        parent = e.insertPage({ title: 'Parent', markdown: 'p\n', pages: [{ title: 'Child', markdown: 'c\n', pages: [{ title: 'Grandchild', markdown: 'g\n' }] }] });
        e.insertPage({ title: 'Kept', markdown: 'k\n' });
      });
      const cr = await open(space.id);
      const res = await applyOk(space.id, cr.id, [{ operation: 'delete_page', page: parent }], { compat: false });
      expect(res.changes).toEqual([{ object: 'deleted_page', page: parent }]);
      expect((await crTree(space.id, cr.id)).map((p) => p.title)).toEqual(['Kept']);
      expect((await mainTree(space.id)).map((p) => p.title)).toEqual(['Parent', 'Child', 'Grandchild', 'Kept']);
      expect((await apply(space.id, cr.id, [{ operation: 'delete_page', page: parent }])).status).toBe(404);
    });

    it('revert_page (whole page): added → removed, deleted → restored with subpages, modified → reset', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      let modified = '';
      let deleted = '';
      await editMain(space.id, (e) => {
        modified = e.insertPage({ title: 'Modified', markdown: 'Original text.\n', description: 'orig' });
        deleted = e.insertPage({ title: 'Deleted', markdown: 'Deleted text.\n', pages: [{ title: 'Sub', markdown: 'Sub text.\n' }] });
        e.insertPage({ title: 'Last', markdown: 'l\n' });
      });
      const before = await mainTree(space.id);
      const cr = await open(space.id);
      const inserted = await applyOk(
        space.id,
        cr.id,
        [
          { operation: 'insert_page', title: 'Added', document: { markdown: 'new\n' } },
          { operation: 'update_page', page: modified, title: 'Modified title', description: 'changed', document: { markdown: 'Changed text.\n' } },
          { operation: 'delete_page', page: deleted },
        ],
        { compat: false },
      );
      const added = inserted.changes[0].page.id;
      expect((await crTree(space.id, cr.id)).map((p) => p.title)).toEqual(['Modified title', 'Last', 'Added']);
      const reverted = await applyOk(
        space.id,
        cr.id,
        [
          { operation: 'revert_page', page: added },
          { operation: 'revert_page', page: deleted },
          { operation: 'revert_page', page: modified },
        ],
        { compat: false },
      );
      expect(reverted.changes.map((c: any) => [c.object, typeof c.page === 'string' ? c.page : c.page.id])).toEqual([
        ['deleted_page', added],
        ['created_page', deleted],
        ['updated_page', modified],
      ]);
      const after = await crTree(space.id, cr.id);
      expect(after).toEqual(before);
      expect(await crMarkdown(space.id, cr.id, modified)).toBe('Original text.\n');
      expect((await get(`${CR(space.id, cr.id)}/content/page/${modified}`)).body.description).toBe('orig');
      expect(await crMarkdown(space.id, cr.id, deleted)).toBe('Deleted text.\n');
      // A page in neither revision: 404.
      expect((await apply(space.id, cr.id, [{ operation: 'revert_page', page: 'nope' }])).status).toBe(404);
    });

    it('revert_page with block keys: only those blocks go back (modified, added, deleted at the end)', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      let page = '';
      await editMain(space.id, (e) => {
        page = e.insertPage({ title: 'Blocks', markdown: 'Alpha.\n\nBravo.\n\nCharlie.\n' });
      });
      const cr = await open(space.id);
      const keysOf = async () => (await get(`${CR(space.id, cr.id)}/content/page/${page}`)).body.document.nodes.map((n: any) => n.key as string);
      const base = await keysOf();
      expect(base).toHaveLength(3);
      await applyOk(space.id, cr.id, [{ operation: 'update_page', page, document: { markdown: 'Alpha edited.\n\nBravo.\n\nCharlie edited.\n\nDelta.\n' } }]);
      const edited = await keysOf();
      // Revert Alpha (modified) and Delta (added); Charlie keeps its edit.
      await applyOk(space.id, cr.id, [{ operation: 'revert_page', page, block: [edited[0], edited[3]] }]);
      expect(await crMarkdown(space.id, cr.id, page)).toBe('Alpha.\n\nBravo.\n\nCharlie edited.\n');
      // Charlie deleted at the end, then restored by its key.
      await applyOk(space.id, cr.id, [{ operation: 'update_page', page, document: { markdown: 'Alpha.\n\nBravo.\n' } }]);
      await applyOk(space.id, cr.id, [{ operation: 'revert_page', page, block: [base[2]] }]);
      expect(await crMarkdown(space.id, cr.id, page)).toBe('Alpha.\n\nBravo.\n\nCharlie.\n');
      expect((await apply(space.id, cr.id, [{ operation: 'revert_page', page, block: ['nokey'] }])).status).toBe(400);
      // Blocks of a page absent from the base: 400.
      const added = await applyOk(space.id, cr.id, [{ operation: 'insert_page', title: 'New', document: { markdown: 'n\n' } }], { compat: false });
      expect((await apply(space.id, cr.id, [{ operation: 'revert_page', page: added.changes[0].page.id, block: ['b0'] }])).status).toBe(400);
    });

    // Block keys are stable across revisions (content/markdown/keys.ts): the removed block's key
    // still names it, and its neighbour keeps its own.
    it('revert_page by block key after a middle block was deleted restores it without losing its neighbour', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      let page = '';
      await editMain(space.id, (e) => {
        page = e.insertPage({ title: 'Blocks', markdown: 'Alpha.\n\nBravo.\n\nCharlie.\n' });
      });
      const cr = await open(space.id);
      const base = (await get(`${CR(space.id, cr.id)}/content/page/${page}`)).body.document.nodes.map((n: any) => n.key as string);
      await applyOk(space.id, cr.id, [{ operation: 'update_page', page, document: { markdown: 'Alpha.\n\nCharlie.\n' } }]);
      await applyOk(space.id, cr.id, [{ operation: 'revert_page', page, block: [base[1]] }]);
      expect(await crMarkdown(space.id, cr.id, page)).toBe('Alpha.\n\nBravo.\n\nCharlie.\n');
    });

    // GitBook's document schema makes a block's `data` optional: documents are completed on the way in.
    it('a document without block data (valid for GitBook) reads back as markdown', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      const paragraph = { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'No data.', marks: [] }] }] };
      const res = await applyOk(space.id, cr.id, [{ operation: 'insert_page', title: 'Doc', document: { document: { object: 'document', nodes: [paragraph] } } }], { compat: false });
      expect(await crMarkdown(space.id, cr.id, res.changes[0].page.id)).toBe('No data.\n');
      // What no reading can make a document of is a 400, and nothing is applied.
      const bad = await t.request('POST', `${CR(space.id, cr.id)}/content`, {
        token: org.admin.token,
        body: { changes: [{ operation: 'insert_page', title: 'Bad', document: { document: { object: 'document', nodes: [{ object: 'block', type: 'no-such-block', nodes: [] }] } } }] },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('body/changes/0/document');
      expect((await t.request('GET', `${CR(space.id, cr.id)}/content/pages`, { token: org.admin.token })).body.pages.map((p: { title: string }) => p.title)).not.toContain('Bad');
    });

    it('insert_files from base64: listed and readable in the change request; 1 MB limit; contentType required', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      const bytes = Buffer.from('hello file');
      const res = await applyOk(
        space.id,
        cr.id,
        [{ operation: 'insert_files', files: [{ name: 'hello.txt', contentType: 'text/plain', base64: bytes.toString('base64') }] }],
        { compat: false },
      );
      expect(res.changes).toEqual([]);
      const file = res.insertedFiles[0];
      expect(file).toMatchObject({ name: 'hello.txt', contentType: 'text/plain', size: bytes.length });
      const list = await get(`${CR(space.id, cr.id)}/content/files`);
      expect(list.status).toBe(200);
      expect(list.body.items.map((f: any) => f.id)).toEqual([file.id]);
      const one = await get(`${CR(space.id, cr.id)}/content/files/${file.id}`);
      expect(one.body).toMatchObject({ id: file.id, name: 'hello.txt' });
      const download = await t.app.inject({ method: 'GET', url: one.body.downloadURL.replace('http://quire.test', '') });
      expect(download.statusCode).toBe(200);
      expect(download.body).toBe('hello file');
      expect((await get(`${S(space.id)}/content/files`)).body.items).toEqual([]);
      expect((await get(`${CR(space.id, cr.id)}/content/files/nope`)).status).toBe(404);

      // Exactly 1 MB passes; one byte more is refused.
      const mb = Buffer.alloc(1024 * 1024, 1);
      expect((await apply(space.id, cr.id, [{ operation: 'insert_files', files: [{ name: 'big.bin', contentType: 'application/octet-stream', base64: mb.toString('base64') }] }])).status).toBe(200);
      const tooBig = Buffer.alloc(1024 * 1024 + 1, 1);
      const refused = await apply(space.id, cr.id, [{ operation: 'insert_files', files: [{ name: 'bigger.bin', contentType: 'application/octet-stream', base64: tooBig.toString('base64') }] }]);
      expect(refused.status).toBe(400);
      const noType = await apply(space.id, cr.id, [{ operation: 'insert_files', files: [{ name: 'x.bin', base64: 'AAAA' }] }]);
      expect(noType.status).toBe(400);
      const both = await apply(space.id, cr.id, [{ operation: 'insert_files', files: [{ name: 'x.bin', contentType: 'a/b', base64: 'AAAA', url: 'http://example.com/x' }] }]);
      expect(both.status).toBe(400);
      expect((await get(`${CR(space.id, cr.id)}/content/files`)).body.count).toBe(2);
    });

    it('more than 50 changes: 400, nothing applied; an empty batch: 400', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      const change = (i: number) => ({ operation: 'insert_page', title: `P${i}`, document: { markdown: '' } });
      const tooMany = await apply(space.id, cr.id, Array.from({ length: 51 }, (_, i) => change(i)));
      expect(tooMany.status).toBe(400);
      expect((await getCR(space.id, cr.id)).revision).toBe(cr.revision);
      expect((await apply(space.id, cr.id, [])).status).toBe(400);
      await applyOk(space.id, cr.id, Array.from({ length: 50 }, (_, i) => change(i)));
      expect(await crTree(space.id, cr.id)).toHaveLength(50);
    });

    it('an unknown page in the middle of a batch: 404 and nothing of the batch applied', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      let page = '';
      await editMain(space.id, (e) => {
        page = e.insertPage({ title: 'Existing', markdown: 'Existing.\n' });
      });
      const cr = await open(space.id);
      await applyOk(space.id, cr.id, [{ operation: 'insert_page', title: 'Kept', document: { markdown: 'kept\n' } }]);
      const before = await getCR(space.id, cr.id);
      const pagesBefore = await crTree(space.id, cr.id);
      const res = await apply(space.id, cr.id, [
        { operation: 'insert_page', title: 'Never', document: { markdown: 'never\n' } },
        { operation: 'update_page', page, document: { markdown: 'Changed.\n' } },
        { operation: 'delete_page', page: 'missing-page' },
        { operation: 'insert_files', files: [{ name: 'f.txt', contentType: 'text/plain', base64: 'AAAA' }] },
      ]);
      expect(res.status).toBe(404);
      expect(res.body.error.message).toContain('missing-page');
      const after = await getCR(space.id, cr.id);
      expect(after.revision).toBe(before.revision);
      expect(after.updatedAt).toBe(before.updatedAt);
      expect(await crTree(space.id, cr.id)).toEqual(pagesBefore);
      expect(await crMarkdown(space.id, cr.id, page)).toBe('Existing.\n');
      expect((await get(`${CR(space.id, cr.id)}/content/files`)).body.items).toEqual([]);
      const contributors = await get(`${CR(space.id, cr.id)}/contributors`);
      expect(contributors.body.items.map((c: any) => c.count)).toEqual([1]);
    });

    it('401, 403 (read member; a merged or archived change request is not edited), 404', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      const change = [{ operation: 'insert_page', title: 'x', document: { markdown: '' } }];
      expect((await t.request('POST', `${CR(space.id, cr.id)}/content`, { body: { changes: change } })).status).toBe(401);
      expect((await apply(space.id, cr.id, change, { token: reader.token })).status).toBe(403);
      expect((await apply(space.id, cr.id, change, { token: outsider.token })).status).toBe(404);
      expect((await apply(space.id, 'nope', change)).status).toBe(404);
      expect((await apply('nope', cr.id, change)).status).toBe(404);
      expect((await getCR(space.id, cr.id)).revision).toBe(cr.revision);
      expect((await merge(space.id, cr.id)).status).toBe(200);
      expect((await apply(space.id, cr.id, change)).status).toBe(400);
    });
  });

  describe('insert_files from a URL', () => {
    let server: http.Server;
    let base: string;
    let local: TestApp;
    let localOrg: TestOrganization;

    beforeAll(async () => {
      server = http.createServer((req, res) => {
        if (req.url === '/logo.svg') {
          res.writeHead(200, { 'content-type': 'image/svg+xml; charset=utf-8' });
          res.end('<svg xmlns="http://www.w3.org/2000/svg"/>');
        } else {
          res.writeHead(404);
          res.end();
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      local = await createTestApp({ outboundAllowPrivate: true });
      localOrg = await createOrganization(local);
    });
    afterAll(async () => {
      await local.close();
      await new Promise((resolve) => server.close(resolve));
    });

    it('fetches the file (type from the response, or the given contentType) when private addresses are allowed', async () => {
      const space = await local.request('POST', `/v1/orgs/${localOrg.id}/spaces`, { token: localOrg.admin.token, body: { title: 'Files' } });
      const cr = await local.request('POST', `/v1/spaces/${space.body.id}/change-requests`, { token: localOrg.admin.token, body: {} });
      const url = `/v1/spaces/${space.body.id}/change-requests/${cr.body.id}/content`;
      const res = await local.request('POST', url, {
        token: localOrg.admin.token,
        query: { compat: false },
        body: {
          changes: [
            {
              operation: 'insert_files',
              files: [
                { name: 'logo.svg', url: `${base}/logo.svg` },
                { name: 'logo.txt', url: `${base}/logo.svg`, contentType: 'text/plain' },
              ],
            },
          ],
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.insertedFiles.map((f: any) => [f.name, f.contentType, f.size])).toEqual([
        ['logo.svg', 'image/svg+xml', 41],
        ['logo.txt', 'text/plain', 41],
      ]);
      const missing = await local.request('POST', url, {
        token: localOrg.admin.token,
        body: { changes: [{ operation: 'insert_files', files: [{ name: 'x', url: `${base}/missing` }] }] },
      });
      expect(missing.status).toBe(400);
    });

    it('refuses 127.0.0.1 with 400 by default, applying nothing', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      const res = await apply(space.id, cr.id, [
        { operation: 'insert_page', title: 'Never', document: { markdown: '' } },
        { operation: 'insert_files', files: [{ name: 'logo.svg', url: `${base}/logo.svg` }] },
      ]);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('private');
      expect((await getCR(space.id, cr.id)).revision).toBe(cr.revision);
      // IPv6 forms that embed 127.0.0.1 (IPv4-compatible, NAT64, 6to4) are refused too (issue 13).
      const port = new URL(base).port;
      for (const host of ['[::127.0.0.1]', '[64:ff9b::127.0.0.1]', '[2002:7f00:1::]', '[::ffff:127.0.0.1]', '2130706433']) {
        const refused = await apply(space.id, cr.id, [{ operation: 'insert_files', files: [{ name: 'x.svg', url: `http://${host}:${port}/logo.svg` }] }]);
        expect(refused.status, host).toBe(400);
        expect(refused.body.error.message, host).toContain('private');
      }
      expect((await getCR(space.id, cr.id)).revision).toBe(cr.revision);
    });
  });

  describe('content reads of a change request', () => {
    it('content (revision), pages, page by id and by path (markdown), files; 401/404', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      const res = await applyOk(
        space.id,
        cr.id,
        [
          { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'Guide body.\n' } },
          { operation: 'insert_page', ref: 'sub', title: 'Sub', document: { markdown: 'Sub body.\n' } },
        ],
        { compat: false },
      );
      const guide = res.changes[0].page.id;
      const sub = res.changes[1].page.id;
      await applyOk(space.id, cr.id, [{ operation: 'update_page', page: sub, into: guide }]);
      const revision = (await getCR(space.id, cr.id)).revision;
      const content = await get(`${CR(space.id, cr.id)}/content`, reader.token);
      expect(content.status).toBe(200);
      expect(content.body).toMatchObject({ object: 'revision', id: revision });
      expect(content.body.pages.map((p: any) => p.id)).toEqual([guide]);
      const byPath = await get(`${CR(space.id, cr.id)}/content/path/guide%2Fsub`, reader.token, { format: 'markdown' });
      expect(byPath.status).toBe(200);
      expect(byPath.body).toMatchObject({ id: sub, path: 'guide/sub', markdown: 'Sub body.\n' });
      const raw = await get(`${CR(space.id, cr.id)}/content/path/guide/sub`, reader.token);
      expect(raw.body.id).toBe(sub);
      const byId = await get(`${CR(space.id, cr.id)}/content/page/${guide}`, reader.token, { format: 'markdown' });
      expect(byId.body).toMatchObject({ id: guide, markdown: 'Guide body.\n', pages: [{ id: sub, markdown: 'Sub body.\n' }] });
      // By number too.
      expect((await get(`${CR(space.id, 1)}/content/page/${guide}`, reader.token)).body.id).toBe(guide);
      expect((await get(`${CR(space.id, cr.id)}/content/page/nope`)).status).toBe(404);
      expect((await get(`${CR(space.id, cr.id)}/content/path/nope`)).status).toBe(404);
      for (const path of ['content', 'content/pages', 'content/files', `content/page/${guide}`, 'content/path/guide']) {
        expect((await t.request('GET', `${CR(space.id, cr.id)}/${path}`)).status).toBe(401);
        expect((await get(`${CR(space.id, cr.id)}/${path}`, outsider.token)).status).toBe(404);
        expect((await get(`${CR(space.id, 'nope')}/${path}`)).status).toBe(404);
      }
    });
  });

  describe('POST {CR}/merge and POST {CR}/update', () => {
    it('merge without conflict: the space gets the pages; revisionMerged, status merged, counters', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      await open(space.id); // a second, still open
      const before = await get(S(space.id), admin.token);
      expect(before.body).toMatchObject({ changeRequests: 2, changeRequestsOpen: 2 });
      const applied = await applyOk(
        space.id,
        cr.id,
        [
          { operation: 'insert_page', ref: 'one', title: 'One', document: { markdown: 'One body, see [Two](./two.md).\n' } },
          { operation: 'insert_page', ref: 'two', title: 'Two', document: { markdown: 'Two body.\n' } },
        ],
        { compat: false },
      );
      const [one, two] = applied.changes.map((c: any) => c.page.id);
      const res = await merge(space.id, cr.id);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ revision: expect.any(String), result: 'merge' });
      const spaceAfter = await get(S(space.id), admin.token);
      expect(spaceAfter.body).toMatchObject({ revision: res.body.revision, changeRequests: 2, changeRequestsOpen: 1 });
      expect((await mainTree(space.id)).map((p) => [p.id, p.path])).toEqual([
        [one, 'one'],
        [two, 'two'],
      ]);
      expect(await mainMarkdown(space.id, one)).toBe(`One body, see [Two](two.md).\n`);
      const merged = await getCR(space.id, cr.id);
      expect(merged).toMatchObject({ status: 'merged', revisionMerged: res.body.revision, mergedBy: { id: reviewer.id }, mergedAt: expect.any(String), outdated: false });
      const revision = await t.request('GET', `${S(space.id)}/content`, { token: admin.token });
      expect(revision.body).toMatchObject({ id: res.body.revision, type: 'merge', parents: [cr.revisionInitial, merged.revision] });
      // Twice: 409, nothing changes.
      const again = await merge(space.id, cr.id);
      expect(again.status).toBe(409);
      expect(await spaceRevision(space.id)).toBe(res.body.revision);
      // Archived: 409 too.
      const archived = await open(space.id);
      await t.request('PATCH', CR(space.id, archived.id), { token: editor.token, body: { status: 'archived' } });
      expect((await merge(space.id, archived.id)).status).toBe(409);
    });

    // GitBook's RevisionTypeMerge requires `mergedFrom`: the change request the revision merged.
    it('the merge revision read from the space matches GitBook’s schema (mergedFrom)', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      await applyOk(space.id, cr.id, [{ operation: 'insert_page', title: 'P', document: { markdown: 'p\n' } }]);
      expect((await merge(space.id, cr.id)).status).toBe(200);
      const revision = await get(`${S(space.id)}/content`, admin.token);
      expect(revision.body).toMatchObject({ type: 'merge', mergedFrom: { id: cr.id, status: 'merged' } });
      const byId = await get(`${S(space.id)}/revisions/${revision.body.id}`, admin.token);
      expect(byId.body.mergedFrom.id).toBe(cr.id);
    });

    it('merge while main changed another page meanwhile: both kept; outdated true until merged', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      let a = '';
      let b = '';
      await editMain(space.id, (e) => {
        a = e.insertPage({ title: 'A', markdown: 'A body.\n' });
        b = e.insertPage({ title: 'B', markdown: 'B body.\n' });
      });
      const cr = await open(space.id);
      await applyOk(space.id, cr.id, [{ operation: 'update_page', page: a, document: { markdown: 'A from the change request.\n' } }]);
      expect((await getCR(space.id, cr.id)).outdated).toBe(false);
      await editMain(space.id, (e) => e.updatePage(b, { markdown: 'B from main.\n' }));
      expect((await getCR(space.id, cr.id)).outdated).toBe(true);
      const res = await merge(space.id, cr.id);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await mainMarkdown(space.id, a)).toBe('A from the change request.\n');
      expect(await mainMarkdown(space.id, b)).toBe('B from main.\n');
    });

    it('line-level auto-merge: the same page edited far apart on both sides keeps both edits', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      let page = '';
      await editMain(space.id, (e) => {
        page = e.insertPage({ title: 'Shared', markdown: 'First paragraph.\n\nMiddle paragraph.\n\nLast paragraph.\n' });
      });
      const cr = await open(space.id);
      await applyOk(space.id, cr.id, [{ operation: 'update_page', page, document: { markdown: 'First paragraph.\n\nMiddle paragraph.\n\nLast paragraph, from the change request.\n' } }]);
      await editMain(space.id, (e) => e.updatePage(page, { markdown: 'First paragraph, from main.\n\nMiddle paragraph.\n\nLast paragraph.\n' }));
      const res = await merge(space.id, cr.id);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await mainMarkdown(space.id, page)).toBe('First paragraph, from main.\n\nMiddle paragraph.\n\nLast paragraph, from the change request.\n');
    });

    it('conflict: the same line changed on both sides → 409 naming the page; nothing changes', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      let page = '';
      await editMain(space.id, (e) => {
        page = e.insertPage({ title: 'Contested', markdown: 'The line.\n' });
        e.insertPage({ title: 'Other', markdown: 'o\n' });
      });
      const cr = await open(space.id);
      await applyOk(space.id, cr.id, [
        { operation: 'update_page', page, document: { markdown: 'The line, says the change request.\n' } },
        { operation: 'insert_page', title: 'Extra', document: { markdown: 'x\n' } },
      ]);
      const main = await editMain(space.id, (e) => e.updatePage(page, { markdown: 'The line, says main.\n' }));
      const before = await getCR(space.id, cr.id);
      const res = await merge(space.id, cr.id);
      expect(res.status).toBe(409);
      expect(res.body.error.message).toContain('Contested');
      expect(res.body.error.message).toContain(page);
      expect(await spaceRevision(space.id)).toBe(main);
      expect(await mainMarkdown(space.id, page)).toBe('The line, says main.\n');
      expect((await mainTree(space.id)).map((p) => p.title)).toEqual(['Contested', 'Other']);
      const after = await getCR(space.id, cr.id);
      expect(after).toMatchObject({ status: 'open', revision: before.revision, outdated: true });
      expect(after.revisionMerged).toBeUndefined();
      // Update has the same conflict: 409, the change request unchanged.
      const update = await t.request('POST', `${CR(space.id, cr.id)}/update`, { token: editor.token });
      expect(update.status).toBe(409);
      expect((await getCR(space.id, cr.id)).revision).toBe(before.revision);
      // Once the change request takes main's line, the merge goes through.
      await applyOk(space.id, cr.id, [{ operation: 'update_page', page, document: { markdown: 'The line, says main.\n' } }]);
      expect((await t.request('POST', `${CR(space.id, cr.id)}/update`, { token: editor.token })).status).toBe(200);
      expect((await merge(space.id, cr.id)).status).toBe(200);
      expect((await mainTree(space.id)).map((p) => p.title)).toEqual(['Contested', 'Other', 'Extra']);
    });

    it('update brings main’s changes into the change request; outdated true before, false after', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      let a = '';
      await editMain(space.id, (e) => {
        a = e.insertPage({ title: 'A', markdown: 'A body.\n' });
      });
      const cr = await open(space.id);
      await applyOk(space.id, cr.id, [{ operation: 'insert_page', title: 'From CR', document: { markdown: 'cr\n' } }]);
      // Nothing to take yet: the same revision back.
      const noop = await t.request('POST', `${CR(space.id, cr.id)}/update`, { token: editor.token });
      expect(noop.status).toBe(200);
      const head = (await getCR(space.id, cr.id)).revision;
      expect(noop.body).toEqual({ revision: head, result: 'update' });

      const main = await editMain(space.id, (e) => {
        e.updatePage(a, { markdown: 'A changed on main.\n' });
        e.insertPage({ title: 'From main', markdown: 'main\n' });
      });
      expect((await getCR(space.id, cr.id)).outdated).toBe(true);
      const listed = await get(`${S(space.id)}/change-requests`);
      expect(listed.body.items.find((i: any) => i.id === cr.id).outdated).toBe(true);
      const res = await t.request('POST', `${CR(space.id, cr.id)}/update`, { token: editor.token });
      t.clock.advance(1000);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ revision: expect.any(String), result: 'update' });
      expect(res.body.revision).not.toBe(head);
      const after = await getCR(space.id, cr.id);
      expect(after).toMatchObject({ revision: res.body.revision, revisionMergedAncestor: main, revisionInitial: cr.revisionInitial, outdated: false });
      expect(await crMarkdown(space.id, cr.id, a)).toBe('A changed on main.\n');
      expect((await crTree(space.id, cr.id)).map((p) => p.title).sort()).toEqual(['A', 'From CR', 'From main']);
      // The space itself is untouched by an update.
      expect(await spaceRevision(space.id)).toBe(main);
      // Merging afterwards adds only the change request's page.
      expect((await merge(space.id, cr.id)).status).toBe(200);
      expect((await mainTree(space.id)).map((p) => p.title).sort()).toEqual(['A', 'From CR', 'From main']);
      expect(await mainMarkdown(space.id, a)).toBe('A changed on main.\n');
      // Update of a merged change request: 409.
      expect((await t.request('POST', `${CR(space.id, cr.id)}/update`, { token: editor.token })).status).toBe(409);
    });

    it('merge needs the review role (403 for an editor, a read member), 401, 404; update needs edit', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      expect((await merge(space.id, cr.id, editor.token)).status).toBe(403);
      expect((await merge(space.id, cr.id, reader.token)).status).toBe(403);
      expect((await t.request('POST', `${CR(space.id, cr.id)}/merge`)).status).toBe(401);
      expect((await merge(space.id, cr.id, outsider.token)).status).toBe(404);
      expect((await merge(space.id, 'nope')).status).toBe(404);
      expect((await t.request('POST', `${CR(space.id, cr.id)}/update`, { token: reader.token })).status).toBe(403);
      expect((await t.request('POST', `${CR(space.id, cr.id)}/update`)).status).toBe(401);
      expect((await t.request('POST', `${CR(space.id, cr.id)}/update`, { token: outsider.token })).status).toBe(404);
      expect((await t.request('POST', `${CR(space.id, 'nope')}/update`, { token: editor.token })).status).toBe(404);
      expect((await getCR(space.id, cr.id)).status).toBe('open');
      expect((await merge(space.id, cr.id, admin.token)).status).toBe(200);
    });

    it('a locked space refuses merges (403), edits and new change requests; reviews still go', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      await applyOk(space.id, cr.id, [{ operation: 'insert_page', title: 'P', document: { markdown: 'p\n' } }]);
      const revision = await spaceRevision(space.id);
      const lock = await t.request('PATCH', S(space.id), { token: admin.token, body: { editMode: 'locked' } });
      expect(lock.status, JSON.stringify(lock.body)).toBe(200);
      const res = await merge(space.id, cr.id, admin.token);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toContain('locked');
      expect(await spaceRevision(space.id)).toBe(revision);
      expect((await apply(space.id, cr.id, [{ operation: 'insert_page', title: 'Q', document: { markdown: '' } }], { token: admin.token })).status).toBe(403);
      expect((await t.request('POST', `${CR(space.id, cr.id)}/update`, { token: admin.token })).status).toBe(403);
      expect((await t.request('POST', `${S(space.id)}/change-requests`, { token: admin.token, body: {} })).status).toBe(403);
      expect((await t.request('POST', `${CR(space.id, cr.id)}/reviews`, { token: reviewer.token, body: { status: 'approved' } })).status).toBe(201);
      expect((await getCR(space.id, cr.id)).status).toBe('open');
      await t.request('PATCH', S(space.id), { token: admin.token, body: { editMode: 'live' } });
      expect((await merge(space.id, cr.id)).status).toBe(200);
    });
  });

  describe('merge rules', () => {
    async function approve(spaceId: string, cr: string, token: string, status = 'approved') {
      const res = await t.request('POST', `${CR(spaceId, cr)}/reviews`, { token, body: { status } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      t.clock.advance(1000);
      return res.body;
    }

    it('require_specific_reviewers on the space: 409 until the listed user approves the current revision', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const rules = { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reviewer2.id] }] };
      const patched = await t.request('PATCH', S(space.id), { token: admin.token, body: { mergeRules: rules } });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      const cr = await open(space.id);
      await applyOk(space.id, cr.id, [{ operation: 'insert_page', title: 'P', document: { markdown: 'p\n' } }]);
      const revision = await spaceRevision(space.id);

      const waiting = await merge(space.id, cr.id, admin.token);
      expect(waiting.status).toBe(409);
      expect(waiting.body.error.message).toContain('Rhea Reviewer');
      // Someone else's approval does not count; a request for changes does not either.
      await approve(space.id, cr.id, reviewer.token);
      await approve(space.id, cr.id, reviewer2.token, 'changes-requested');
      expect((await merge(space.id, cr.id, admin.token)).status).toBe(409);
      // Approved, then the change request moves on: the approval of the older revision does not count.
      await approve(space.id, cr.id, reviewer2.token);
      await applyOk(space.id, cr.id, [{ operation: 'insert_page', title: 'Q', document: { markdown: 'q\n' } }]);
      expect((await merge(space.id, cr.id, admin.token)).status).toBe(409);
      expect(await spaceRevision(space.id)).toBe(revision);
      expect((await getCR(space.id, cr.id)).status).toBe('open');
      // Approved again on the current revision: merged.
      await approve(space.id, cr.id, reviewer2.token);
      const res = await merge(space.id, cr.id, admin.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await mainTree(space.id)).map((p) => p.title)).toEqual(['P', 'Q']);
    });

    it('an update from main makes a new revision: the approval must be given again', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      await t.request('PATCH', S(space.id), { token: admin.token, body: { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reviewer2.id] }] } } });
      const cr = await open(space.id);
      await applyOk(space.id, cr.id, [{ operation: 'insert_page', title: 'P', document: { markdown: 'p\n' } }]);
      await approve(space.id, cr.id, reviewer2.token);
      await editMain(space.id, (e) => e.insertPage({ title: 'Main', markdown: 'm\n' }));
      expect((await t.request('POST', `${CR(space.id, cr.id)}/update`, { token: editor.token })).status).toBe(200);
      expect((await merge(space.id, cr.id, admin.token)).status).toBe(409);
      await approve(space.id, cr.id, reviewer2.token);
      expect((await merge(space.id, cr.id, admin.token)).status).toBe(200);
    });

    it('inherit: the organization’s rules apply to a space that inherits; a space with none ignores them', async () => {
      const inheriting = await createSpace(t, { organization: org, title: 'Docs' });
      const free = await createSpace(t, { organization: org, title: 'Docs', body: { title: 'Free' } });
      expect((await t.request('PATCH', S(free.id), { token: admin.token, body: { mergeRules: { type: 'none' } } })).status).toBe(200);
      const orgRules = { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reviewer.id] }] };
      const patched = await t.request('PATCH', `/v1/orgs/${org.id}`, { token: admin.token, body: { mergeRules: orgRules } });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      try {
        expect((await get(S(inheriting.id), admin.token)).body.mergeRules).toEqual({ type: 'inherit' });
        const cr = await open(inheriting.id);
        await applyOk(inheriting.id, cr.id, [{ operation: 'insert_page', title: 'P', document: { markdown: 'p\n' } }]);
        const waiting = await merge(inheriting.id, cr.id, admin.token);
        expect(waiting.status).toBe(409);
        expect(waiting.body.error.message).toContain('Rob Reviewer');
        const old = await approve(inheriting.id, cr.id, reviewer.token);
        await applyOk(inheriting.id, cr.id, [{ operation: 'insert_page', title: 'Q', document: { markdown: 'q\n' } }]);
        expect((await merge(inheriting.id, cr.id, admin.token)).status).toBe(409);
        await approve(inheriting.id, cr.id, reviewer.token);
        const reviews = await get(`${CR(inheriting.id, cr.id)}/reviews`);
        expect(reviews.body.items.find((r: any) => r.id === old.id).outdated).toBe(true);
        expect((await merge(inheriting.id, cr.id, admin.token)).status).toBe(200);
        const other = await open(free.id);
        expect((await merge(free.id, other.id, admin.token)).status).toBe(200);
      } finally {
        expect((await t.request('PATCH', `/v1/orgs/${org.id}`, { token: admin.token, body: { mergeRules: { type: 'none' } } })).status).toBe(200);
      }
    });
  });

  describe('reviews, requested reviewers, contributors', () => {
    it('submit approved / changes-requested (201, Location), list oldest first, get by id, outdated flags', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      const first = await t.request('POST', `${CR(space.id, cr.id)}/reviews`, { token: reviewer.token, body: { status: 'changes-requested', comment: { markdown: 'Please fix.' } } });
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(first.headers.location).toBe(`http://quire.test/v1/spaces/${space.id}/change-requests/${cr.id}/reviews/${first.body.id}`);
      expect(first.body).toMatchObject({
        object: 'change-request-review',
        revision: cr.revision,
        reviewer: { id: reviewer.id },
        status: 'changes-requested',
        outdated: false,
        urls: { location: first.headers.location },
      });
      t.clock.advance(1000);
      const second = await t.request('POST', `${CR(space.id, cr.id)}/reviews`, { token: reviewer.token, body: { status: 'approved' } });
      t.clock.advance(1000);
      const third = await t.request('POST', `${CR(space.id, cr.id)}/reviews`, { token: admin.token, body: { status: 'approved' } });
      t.clock.advance(1000);
      let list = await get(`${CR(space.id, cr.id)}/reviews`, reader.token);
      expect(list.status).toBe(200);
      expect(list.body.items.map((r: any) => [r.id, r.status, r.outdated])).toEqual([
        [first.body.id, 'changes-requested', true],
        [second.body.id, 'approved', false],
        [third.body.id, 'approved', false],
      ]);
      const one = await get(`${CR(space.id, cr.id)}/reviews/${first.body.id}`, reader.token);
      expect(one.body).toMatchObject({ id: first.body.id, outdated: true });
      expect((await get(`${CR(space.id, cr.id)}/reviews/nope`)).status).toBe(404);
      const paged = await get(`${CR(space.id, cr.id)}/reviews`, reader.token, { limit: 2 });
      expect(paged.body.items).toHaveLength(2);
      expect((await get(`${CR(space.id, cr.id)}/reviews`, reader.token, { limit: 2, page: paged.body.next.page })).body.items.map((r: any) => r.id)).toEqual([third.body.id]);
      // A new revision outdates every review.
      await applyOk(space.id, cr.id, [{ operation: 'insert_page', title: 'P', document: { markdown: '' } }]);
      list = await get(`${CR(space.id, cr.id)}/reviews`);
      expect(list.body.items.map((r: any) => r.outdated)).toEqual([true, true, true]);
      expect((await get(`${CR(space.id, cr.id)}/reviews/${third.body.id}`)).body.outdated).toBe(true);
      // Validation and roles.
      expect((await t.request('POST', `${CR(space.id, cr.id)}/reviews`, { token: reviewer.token, body: { status: 'maybe' } })).status).toBe(400);
      expect((await t.request('POST', `${CR(space.id, cr.id)}/reviews`, { token: editor.token, body: { status: 'approved' } })).status).toBe(403);
      expect((await t.request('POST', `${CR(space.id, cr.id)}/reviews`, { body: { status: 'approved' } })).status).toBe(401);
      expect((await t.request('POST', `${CR(space.id, cr.id)}/reviews`, { token: outsider.token, body: { status: 'approved' } })).status).toBe(404);
      expect((await t.request('GET', `${CR(space.id, cr.id)}/reviews`)).status).toBe(401);
      expect((await get(`${CR(space.id, cr.id)}/reviews`, outsider.token)).status).toBe(404);
      expect((await get(`${CR(space.id, cr.id)}/reviews/${first.body.id}`, outsider.token)).status).toBe(404);
      // A merged change request takes no more reviews.
      expect((await merge(space.id, cr.id)).status).toBe(200);
      expect((await t.request('POST', `${CR(space.id, cr.id)}/reviews`, { token: reviewer.token, body: { status: 'approved' } })).status).toBe(409);
    });

    it('requested reviewers: add (non-member 400), list, remove (204, also when absent); review carries requestedBy', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      const url = `${CR(space.id, cr.id)}/requested-reviewers`;
      const res = await t.request('POST', url, { token: editor.token, body: { users: [reviewer.id, reviewer2.id, reviewer.id], subject: 'Please look' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.users.map((u: any) => [u.user.id, u.requestedBy.id, u.kind, u.revision])).toEqual([
        [reviewer.id, editor.id, 'user', cr.revision],
        [reviewer2.id, editor.id, 'user', cr.revision],
      ]);
      expect((await getCR(space.id, cr.id)).subject).toBe('Please look');
      t.clock.advance(1000);
      const nonMember = await t.request('POST', url, { token: editor.token, body: { users: [reviewer.id, outsider.id] } });
      expect(nonMember.status).toBe(400);
      expect(nonMember.body.error.message).toContain(outsider.id);
      expect((await t.request('POST', url, { token: editor.token, body: { users: [] } })).status).toBe(400);
      let list = await get(url, reader.token);
      expect(list.status).toBe(200);
      expect(list.body.items.map((r: any) => r.user.id).sort()).toEqual([reviewer.id, reviewer2.id].sort());
      const review = await t.request('POST', `${CR(space.id, cr.id)}/reviews`, { token: reviewer.token, body: { status: 'approved' } });
      expect(review.body.requestedBy).toMatchObject({ id: editor.id });
      // Removal by the creator; by the reviewer themselves; absent: 204.
      expect((await t.request('DELETE', `${url}/${reviewer.id}`, { token: editor.token })).status).toBe(204);
      expect((await t.request('DELETE', `${url}/${reviewer2.id}`, { token: reviewer2.token })).status).toBe(204);
      expect((await t.request('DELETE', `${url}/${reviewer2.id}`, { token: editor.token })).status).toBe(204);
      expect((await t.request('DELETE', `${url}/nobody`, { token: editor.token })).status).toBe(204);
      list = await get(url);
      expect(list.body.items).toEqual([]);
      // Roles: a read member may not request nor remove others; 401; 404.
      expect((await t.request('POST', url, { token: reader.token, body: { users: [reviewer.id] } })).status).toBe(403);
      expect((await t.request('DELETE', `${url}/${reviewer.id}`, { token: reader.token })).status).toBe(403);
      expect((await t.request('POST', url, { body: { users: [reviewer.id] } })).status).toBe(401);
      expect((await t.request('DELETE', `${url}/${reviewer.id}`)).status).toBe(401);
      expect((await t.request('GET', url)).status).toBe(401);
      expect((await t.request('POST', url, { token: outsider.token, body: { users: [reviewer.id] } })).status).toBe(404);
      expect((await t.request('DELETE', `${url}/${reviewer.id}`, { token: outsider.token })).status).toBe(404);
      expect((await get(url, outsider.token)).status).toBe(404);
      expect((await get(`${CR(space.id, 'nope')}/requested-reviewers`)).status).toBe(404);
    });

    it('contributors: the users who edited, with their counts', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      const url = `${CR(space.id, cr.id)}/contributors`;
      expect((await get(url)).body.items).toEqual([]);
      await applyOk(space.id, cr.id, [{ operation: 'insert_page', title: 'A', document: { markdown: '' } }]);
      await applyOk(space.id, cr.id, [{ operation: 'insert_page', title: 'B', document: { markdown: '' } }]);
      await applyOk(space.id, cr.id, [{ operation: 'insert_page', title: 'C', document: { markdown: '' } }], { token: admin.token });
      const res = await get(url, reader.token);
      expect(res.status).toBe(200);
      expect(res.body.items.map((c: any) => [c.user.id, c.count, c.actionType])).toEqual([
        [editor.id, 2, 'edit'],
        [admin.id, 1, 'edit'],
      ]);
      expect((await t.request('GET', url)).status).toBe(401);
      expect((await get(url, outsider.token)).status).toBe(404);
      expect((await get(`${CR(space.id, 'nope')}/contributors`)).status).toBe(404);
    });
  });

  describe('public spaces', () => {
    it('an outsider sees a public space and its content, but not its change requests (404)', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs', body: { visibility: 'public' } });
      const cr = await open(space.id);
      expect((await get(S(space.id), outsider.token)).status).toBe(200);
      expect((await get(`${S(space.id)}/content/pages`, outsider.token)).status).toBe(200);
      expect((await get(`${S(space.id)}/change-requests`, outsider.token)).status).toBe(404);
      for (const path of ['', '/content', '/content/pages', '/reviews', '/requested-reviewers', '/contributors']) {
        expect((await get(`${CR(space.id, cr.id)}${path}`, outsider.token)).status, path).toBe(404);
      }
      // Opening one is an action on the space they can see: 403, like the space's other refused actions.
      expect((await t.request('POST', `${S(space.id)}/change-requests`, { token: outsider.token, body: {} })).status).toBe(403);
      expect((await merge(space.id, cr.id, outsider.token)).status).toBe(404);
      expect((await t.request('PATCH', CR(space.id, cr.id), { token: outsider.token, body: { subject: 'x' } })).status).toBe(404);
      expect((await apply(space.id, cr.id, [{ operation: 'insert_page', title: 'x', document: { markdown: '' } }], { token: outsider.token })).status).toBe(404);
    });
  });

  describe('concurrency', () => {
    it('two change requests merged into one space at the same time: both succeed, no edit lost', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      let a = '';
      let b = '';
      await editMain(space.id, (e) => {
        a = e.insertPage({ title: 'A', markdown: 'A body.\n' });
        b = e.insertPage({ title: 'B', markdown: 'B body.\n' });
      });
      const one = await open(space.id);
      const two = await open(space.id);
      await applyOk(space.id, one.id, [
        { operation: 'update_page', page: a, document: { markdown: 'A from one.\n' } },
        { operation: 'insert_page', title: 'From one', document: { markdown: '1\n' } },
      ]);
      await applyOk(space.id, two.id, [
        { operation: 'update_page', page: b, document: { markdown: 'B from two.\n' } },
        { operation: 'insert_page', title: 'From two', document: { markdown: '2\n' } },
      ]);
      const [r1, r2] = await Promise.all([
        t.request('POST', `${CR(space.id, one.id)}/merge`, { token: reviewer.token }),
        t.request('POST', `${CR(space.id, two.id)}/merge`, { token: reviewer2.token }),
      ]);
      expect(r1.status, JSON.stringify(r1.body)).toBe(200);
      expect(r2.status, JSON.stringify(r2.body)).toBe(200);
      expect(r1.body.revision).not.toBe(r2.body.revision);
      const final = await spaceRevision(space.id);
      expect([r1.body.revision, r2.body.revision]).toContain(final);
      expect(await mainMarkdown(space.id, a)).toBe('A from one.\n');
      expect(await mainMarkdown(space.id, b)).toBe('B from two.\n');
      expect((await mainTree(space.id)).map((p) => p.title).sort()).toEqual(['A', 'B', 'From one', 'From two']);
      expect((await getCR(space.id, one.id)).status).toBe('merged');
      expect((await getCR(space.id, two.id)).status).toBe('merged');
      // The later merge's revision has the earlier one as its first parent.
      const revision = await t.request('GET', `${S(space.id)}/content`, { token: admin.token });
      expect([r1.body.revision, r2.body.revision]).toContain(revision.body.parents[0]);
    });

    it('batches on one change request at the same time: both applied, no edit lost', async () => {
      const space = await createSpace(t, { organization: org, title: 'Docs' });
      const cr = await open(space.id);
      const results = await Promise.all(
        ['X', 'Y', 'Z'].map((title) =>
          t.request('POST', `${CR(space.id, cr.id)}/content`, { token: editor.token, body: { changes: [{ operation: 'insert_page', title, document: { markdown: `${title}\n` } }] } }),
        ),
      );
      for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect((await crTree(space.id, cr.id)).map((p) => p.title).sort()).toEqual(['X', 'Y', 'Z']);
    });
  });
});
