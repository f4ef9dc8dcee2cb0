import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editSpaceContent } from '../../src/modules/content/content.service.ts';
import { startSession } from '../../src/modules/sessions/sessions.service.ts';
import { createTestApp, type TestApp } from '../app.ts';
import { createMember, createOrganization, type TestOrganization, type TestUser } from '../factories.ts';
import { tableDigests } from '../suites/seed.ts';

/*
 * The app area's change-request pages, editor and markdown paste (issue 32) against another
 * organization: an admin of organization B, signed in to the app, names A's space, change
 * request, page and comment in every route. Each answers 404 showing nothing of A and
 * changes nothing; the same forms from A's own editor go through (so the refusal is the
 * access rule, not a malformed form). The routes tests of app-area cover roles inside one
 * organization; the collab suite covers the live-editing socket.
 */
describe('tenants: the app area of organization B against organization A', { timeout: 300_000 }, () => {
  let t: TestApp;
  let a: TestOrganization;
  let b: TestOrganization;
  let editorA: TestUser;
  let spaceId: string;
  let pageId: string;
  let siblingId: string;
  let number: string;
  let commentId: string;
  const SECRET = 'Zanzibar ledger';

  beforeAll(async () => {
    t = await createTestApp();
    a = await createOrganization(t, { title: 'Org A' });
    b = await createOrganization(t, { title: 'Org B' });
    editorA = await createMember(t, a.id, 'admin', { displayName: 'Ada A' });
    spaceId = (await t.request('POST', `/v1/orgs/${a.id}/spaces`, { token: a.admin.token, body: { title: `${SECRET} space` } })).body.id;
    await editSpaceContent(t.app.deps, spaceId, a.admin.id, (e) => {
      pageId = e.insertPage({ title: `${SECRET} page`, markdown: `The ${SECRET}.\n` });
      siblingId = e.insertPage({ title: `${SECRET} sibling`, markdown: `Beside the ${SECRET}.\n` });
    });
    const cr = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: editorA.token, body: { subject: `${SECRET} change` } });
    number = String(cr.body.number);
    const comment = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/comments`, {
      token: editorA.token,
      body: { body: { markdown: `${SECRET} comment` } },
    });
    expect(comment.status).toBe(200);
    commentId = comment.body.id;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  const cookies = new Map<string, string>();
  async function cookieFor(user: TestUser) {
    if (!cookies.has(user.id)) cookies.set(user.id, `quire_session=${await startSession(t.db, t.clock, t.config.sessionTtlMs, { userId: user.id, method: 'link' })}`);
    return cookies.get(user.id)!;
  }
  const get = async (url: string, user: TestUser) => t.app.inject({ method: 'GET', url, headers: { cookie: await cookieFor(user) } });
  async function post(url: string, user: TestUser, form: Record<string, string>) {
    const csrf = /name="csrf" value="([^"]+)"/.exec((await get('/app/account', user)).body)![1];
    const body = new URLSearchParams({ csrf, ...form });
    return t.app.inject({ method: 'POST', url, headers: { cookie: await cookieFor(user), 'content-type': 'application/x-www-form-urlencoded' }, payload: body.toString() });
  }

  const cr = () => `/app/s/${spaceId}/change-requests/${number}`;
  const reads = () => [
    `/app/s/${spaceId}/change-requests`,
    cr(),
    `${cr()}/pages/${pageId}`,
    `${cr()}/pages/${pageId}/edit`,
  ];
  const writes = (): [string, Record<string, string>][] => [
    [`/app/s/${spaceId}/change-requests`, { subject: 'Planted by B' }],
    [`/app/s/${spaceId}/pages/${pageId}/edit`, {}],
    [`${cr()}/pages`, { title: 'Planted by B' }],
    [`${cr()}/pages/${pageId}`, { title: 'Renamed by B' }],
    [`${cr()}/pages/${pageId}/move`, { direction: 'down' }],
    [`${cr()}/pages/${pageId}/place`, { target: siblingId, position: 'after' }],
    [`${cr()}/details`, { subject: 'Renamed by B' }],
    [`${cr()}/reviewers`, { users: b.admin.id }],
    [`${cr()}/reviews`, { status: 'approved' }],
    [`${cr()}/comments`, { text: 'Planted by B' }],
    [`${cr()}/comments/${commentId}/replies`, { text: 'Planted by B' }],
    [`${cr()}/comments/${commentId}`, { resolved: 'true' }],
    [`${cr()}/update`, {}],
    [`${cr()}/merge`, {}],
    [`${cr()}/pages/${pageId}/delete`, {}],
    [`${cr()}/status`, { status: 'archived' }],
  ];

  it("every page and form naming A's objects answers 404 to B's admin, shows nothing of A and changes nothing", async () => {
    for (const url of reads()) {
      const res = await get(url, b.admin);
      expect(res.statusCode, `GET ${url}`).toBe(404);
      expect(res.body, `GET ${url}`).not.toContain(SECRET);
    }
    for (const [url, form] of writes()) {
      const before = await tableDigests(t);
      const res = await post(url, b.admin, form);
      expect(res.statusCode, `POST ${url}`).toBe(404);
      expect(res.body, `POST ${url}`).not.toContain(SECRET);
      const after = await tableDigests(t);
      const changed = Object.keys(after).filter((table) => before[table] !== after[table] && table !== 'sessions');
      expect(changed, `POST ${url}`).toEqual([]);
    }
  });

  it("the same pages and forms go through for A's own admin", async () => {
    for (const url of reads()) expect((await get(url, editorA)).statusCode, `GET ${url}`).toBe(200);
    // Each form is checked to be well formed and allowed for A (merge and update from main
    // aside: they need an approved, outdated change request); archiving last.
    for (const [url, form] of writes().filter(([u]) => !u.endsWith('/merge') && !u.endsWith('/update'))) {
      const res = await post(url, editorA, form.users ? { users: editorA.id } : form);
      expect(res.statusCode, `POST ${url}: ${res.body.slice(0, 200)}`).toBeLessThan(400);
    }
  });
});
