import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { createTestApp, type TestApp } from '../app.ts';
import { createOrganization, createUser, type TestOrganization } from '../factories.ts';

/*
 * Issue 29 item 4: a `page` cursor is client input. One holding a NUL (PostgreSQL text
 * cannot) or a key of another shape or type is a 400 naming the parameter on every kind
 * of list (keyset, offset, in-memory), never a 500; so is a NUL that reaches SQL by
 * another road (a cookie). SQLite and PostgreSQL (DATABASE_URL).
 */

const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const NOT_A_CURSOR = 'querystring/page is not a page identifier of this list';

describe('page cursors and NUL characters', () => {
  let t: TestApp;
  let org: TestOrganization;
  let token: string;
  let spaceId: string;
  let siteId: string;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Acme' });
    token = org.admin.token;
    const space = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token, body: { title: 'Guides' } });
    expect(space.status).toBe(201);
    spaceId = space.body.id;
    const site = await t.request('POST', `/v1/orgs/${org.id}/sites`, { token, body: { title: 'Docs' } });
    expect(site.status).toBe(201);
    siteId = site.body.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('the issue reproducer: a keyset cursor holding NULs is a 400 on every list, for any caller', async () => {
    const outsider = await createUser(t);
    const reproducer = 'eyJrIjpbIlx1MDAwMCIsIlx1MDAwMCJdfQ'; // {"k":["\u0000","\u0000"]}
    for (const [url, who] of [
      ['/v1/orgs', outsider.token],
      ['/v1/orgs', token],
      [`/v1/orgs/${org.id}/members`, token],
      [`/v1/orgs/${org.id}/spaces`, token],
      [`/v1/orgs/${org.id}/teams`, token],
      [`/v1/orgs/${org.id}/sites`, token],
    ] as const) {
      const res = await t.request('GET', `${url}?page=${reproducer}`, { token: who });
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual({ error: { code: 400, message: NOT_A_CURSOR } });
    }
  });

  it('keyset cursors of the wrong shape or types are a 400', async () => {
    for (const value of [
      { k: ['\u0000'] },
      { k: ['2026-01-01T00:00:00.000Z', 'a\u0000b'] },
      { k: ['x', 'y'], b: '\u0000' },
      { k: [1, 2] },
      { k: [{}, []] },
      { k: ['x', null] },
      { k: ['x', 'y'], b: 2 },
      { k: 'xy' },
      ['x', 'y'],
      null,
      'text',
    ]) {
      const res = await t.request('GET', `/v1/orgs/${org.id}/members?page=${cursor(value)}`, { token });
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect(res.body.error.message).toBe(NOT_A_CURSOR);
    }
    // A cursor the server wrote still works.
    const first = await t.request('GET', '/v1/orgs', { token, query: { limit: 1 } });
    expect(first.status).toBe(200);
  });

  it('offset and in-memory cursors refuse NULs, fractions and offsets beyond a safe integer', async () => {
    const lists = [
      (page: string) => `/v1/spaces/${spaceId}/search?query=install&page=${page}`,
      (page: string) => `/v1/orgs/${org.id}/search?query=install&page=${page}`,
      (page: string) => `/v1/spaces/${spaceId}/content/files?page=${page}`,
      (page: string) => `/v1/orgs/${org.id}/sites/${siteId}/sections?page=${page}`,
    ];
    const bad = [
      { o: 1e300 },
      { o: 1.5 },
      { o: -1 },
      { o: 0, x: '\u0000' },
      { f: '\u0000' },
      { i: 1e300, id: 'x' },
      { i: 0.5, id: 'x' },
      { i: 0, id: 'a\u0000' },
    ];
    for (const list of lists) {
      for (const value of bad) {
        const res = await t.request('GET', list(cursor(value)), { token });
        expect(res.status, `${list('')} ${JSON.stringify(value)}`).toBe(400);
        expect(res.body).toEqual({ error: { code: 400, message: NOT_A_CURSOR } });
      }
    }
  });

  it('a NUL in paths, searches and filters is a 400 before any query', async () => {
    for (const url of [
      `/v1/orgs/${org.id}%00`,
      `/v1/spaces/${spaceId}%00/content`,
      `/v1/orgs/${org.id}/members?search=a%00b`,
      `/v1/orgs/${org.id}/search?query=%00`,
      `/v1/spaces/${spaceId}/search?query=install%00`,
      `/v1/orgs/${org.id}/members?role=%00`,
    ]) {
      const res = await t.request('GET', url, { token });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe(400);
    }
  });

  it("a share-link cookie holding a NUL counts as no key (404), not a 500", async () => {
    const id = newId();
    const now = t.clock.now().toISOString();
    await t.db
      .insertInto('sites')
      .values({
        id,
        organization_id: org.id,
        type: 'basic',
        title: 'Shared',
        visibility: 'share-link',
        published: 1,
        basename: `shared-${id.toLowerCase()}`,
        hostname: null,
        proxy: null,
        adaptive_content: 0,
        agents_context: 'included',
        default_site_space_id: null,
        default_site_section_id: null,
        customization: '{}',
        adaptive_schema: null,
        adaptive_schema_updated_at: null,
        visitor_auth_key: newId(32),
        created_by: 'test',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const res = await t.app.inject({ method: 'GET', url: `/sites/shared-${id.toLowerCase()}/`, headers: { cookie: 'quire_site_share=a%00b' } });
    expect(res.statusCode).toBe(404);
  });
});
