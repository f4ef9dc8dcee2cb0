import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createSite, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { createRoleMatrix } from '../../../test/role-matrix.ts';

describe('site spaces', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let spaceA: string;
  let spaceB: string;
  let spaceC: string;

  const O = () => `/v1/orgs/${org.id}`;
  const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, body?: unknown, token = admin.token) => t.request(method, url, { token, body });
  const paths = async (SITE: string) => (await req('GET', `${SITE}/site-spaces`)).body.items.map((s: any) => s.path);

  beforeAll(async () => {
    t = await createTestApp();
    ({ org, admin, reader, outsider } = await createRoleMatrix(t, { roles: ['read'] }));
    spaceA = (await req('POST', `${O()}/spaces`, { title: 'Guides' })).body.id;
    spaceB = (await req('POST', `${O()}/spaces`, { title: 'API' })).body.id;
    spaceC = (await req('POST', `${O()}/spaces`, { title: 'Changelog' })).body.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('add: at the root without sections, into the default section with them, or into a given section', async () => {
    const SITE = (await createSite(t, { organization: org, title: 'Docs', spaces: [] })).url;
    const root = await req('POST', `${SITE}/site-spaces`, { spaceId: spaceA });
    expect(root.status, root.text).toBe(201);
    expect(root.body).toMatchObject({ object: 'site-space', path: 'guides', title: 'Guides', default: true, draft: false });
    expect(root.body.section).toBeUndefined();
    const titled = await req('POST', `${SITE}/site-spaces`, { spaceId: spaceA, title: 'Guides v2' });
    expect(titled.body).toMatchObject({ path: 'guides-v2', title: 'Guides v2', default: false });
    const section = (await req('POST', `${SITE}/sections`, { spaceId: spaceB, title: 'Reference' })).body;
    const intoDefault = await req('POST', `${SITE}/site-spaces`, { spaceId: spaceC });
    const first = (await req('GET', `${SITE}/sections`)).body.items[0];
    expect(intoDefault.body.section).toBe(first.id);
    const intoGiven = await req('POST', `${SITE}/site-spaces`, { spaceId: spaceB, sectionId: section.id });
    expect(intoGiven.body).toMatchObject({ section: section.id, path: 'api-2' });
    for (const body of [{}, { spaceId: 'nope' }, { spaceId: null }, { spaceId: spaceA, sectionId: 'nope' }, { spaceId: spaceA, title: 'x' }]) {
      expect((await req('POST', `${SITE}/site-spaces`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await req('POST', `${SITE}/site-spaces`, { spaceId: spaceA }, reader.token)).status).toBe(403);
    expect((await req('POST', `${SITE}/site-spaces`, { spaceId: spaceA }, outsider.token)).status).toBe(404);
    expect((await t.request('POST', `${SITE}/site-spaces`, { body: { spaceId: spaceA } })).status).toBe(401);
  });

  it('patch: path (409 when taken), condition (null removes, absent keeps), spaceId', async () => {
    const SITE = (await createSite(t, { organization: org, title: 'Docs', spaces: [spaceA, spaceB] })).url;
    const [a, b] = (await req('GET', `${SITE}/site-spaces`)).body.items;
    const url = `${SITE}/site-spaces/${a.id}`;
    const res = await req('PATCH', url, { path: 'start', condition: 'visitor.claims.plan == "pro"' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ path: 'start', condition: 'visitor.claims.plan == "pro"' });
    const kept = await req('PATCH', url, { path: 'start-2' });
    expect(kept.body.condition).toBe('visitor.claims.plan == "pro"');
    const removed = await req('PATCH', url, { condition: null });
    expect(removed.body.condition).toBeUndefined();
    const moved = await req('PATCH', url, { spaceId: spaceC });
    expect(moved.body.space.id).toBe(spaceC);
    expect(moved.body.title).toBe('Changelog');
    expect((await req('PATCH', url, { path: b.path })).status).toBe(409);
    for (const body of [{ path: '' }, { path: 'x'.repeat(101) }, { path: '..' }, { condition: 'x'.repeat(1025) }, { condition: 'a = 1' }, { spaceId: 'nope' }]) {
      expect((await req('PATCH', url, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await req('PATCH', `${SITE}/site-spaces/nope`, { path: 'x' })).status).toBe(404);
    expect((await req('PATCH', url, { path: 'x' }, reader.token)).status).toBe(403);
    const row = await t.db.selectFrom('site_spaces').selectAll().where('id', '=', a.id).executeTakeFirst();
    expect(row).toMatchObject({ path: 'start-2', condition: null, space_id: spaceC });
  });

  it('list: structure order, default-only flag and its default, paging', async () => {
    const SITE = (await createSite(t, { organization: org, title: 'Docs', spaces: [spaceA, spaceB, spaceC] })).url;
    const all = await req('GET', `${SITE}/site-spaces`, undefined, reader.token);
    expect(all.body.items.map((s: any) => [s.path, s.default])).toEqual([
      ['guides', true],
      ['api', false],
      ['changelog', false],
    ]);
    const only = await t.request('GET', `${SITE}/site-spaces`, { token: reader.token, query: { default: true } });
    expect(only.body.items.map((s: any) => s.path)).toEqual(['guides']);
    const others = await t.request('GET', `${SITE}/site-spaces`, { token: reader.token, query: { default: false } });
    expect(others.body.items.map((s: any) => s.path)).toEqual(['api', 'changelog']);
    const page = await t.request('GET', `${SITE}/site-spaces`, { token: reader.token, query: { limit: 2 } });
    expect(page.body.items).toHaveLength(2);
    const rest = await t.request('GET', `${SITE}/site-spaces`, { token: reader.token, query: { limit: 2, page: page.body.next.page } });
    expect(rest.body.items.map((s: any) => s.path)).toEqual(['changelog']);
    expect((await req('GET', `${SITE}/site-spaces`, undefined, outsider.token)).status).toBe(404);
  });

  it('move (deprecated) and sortSiteStructure; 400 positions, 404 unknown', async () => {
    const SITE = (await createSite(t, { organization: org, title: 'Docs', spaces: [spaceA, spaceB, spaceC] })).url;
    const [a, b, c] = (await req('GET', `${SITE}/site-spaces`)).body.items;
    const res = await req('POST', `${SITE}/site-spaces/${c.id}/move`, { position: { before: { type: 'site-space', siteSpace: a.id } } });
    expect(res.status).toBe(200);
    expect(await paths(SITE)).toEqual(['changelog', 'guides', 'api']);
    expect((await req('POST', `${SITE}/site-spaces/${c.id}/move`)).status).toBe(200);
    expect(await paths(SITE)).toEqual(['guides', 'api', 'changelog']);
    const sorted = await req('PATCH', `${SITE}/structure/sort`, { item: { type: 'site-space', id: a.id }, position: { after: { type: 'site-space', id: b.id } } });
    expect(sorted.body.id).toBe(a.id);
    expect(await paths(SITE)).toEqual(['api', 'guides', 'changelog']);
    for (const position of [
      { before: { type: 'site-space', siteSpace: 'nope' } },
      { before: { type: 'site-space', siteSpace: c.id } },
      { before: { type: 'site-space', siteSpace: a.id }, after: { type: 'site-space', siteSpace: b.id } },
    ]) {
      expect((await req('POST', `${SITE}/site-spaces/${c.id}/move`, { position })).status, JSON.stringify(position)).toBe(400);
    }
    expect((await req('POST', `${SITE}/site-spaces/nope/move`, {})).status).toBe(404);
    expect((await req('PATCH', `${SITE}/structure/sort`, { item: { type: 'site-space', id: 'nope' } })).status).toBe(404);
    expect((await req('PATCH', `${SITE}/structure/sort`, { item: { type: 'site-space', id: a.id }, position: { before: { type: 'site-section', id: 'x' } } })).status).toBe(400);
  });

  it('move into another section: the path gets a suffix when taken there', async () => {
    const SITE = (await createSite(t, { organization: org, title: 'Docs', spaces: [] })).url;
    const one = (await req('POST', `${SITE}/sections`, { spaceId: spaceA, title: 'One' })).body;
    const two = (await req('POST', `${SITE}/sections`, { spaceId: spaceA, title: 'Two' })).body;
    const res = await req('POST', `${SITE}/site-spaces/${one.siteSpaces[0].id}/move`, { position: { after: { type: 'site-space', siteSpace: two.siteSpaces[0].id } } });
    expect(res.body).toMatchObject({ section: two.id, path: 'guides-2' });
  });

  it('delete: 204, also when absent; the default moves to the next', async () => {
    const SITE = (await createSite(t, { organization: org, title: 'Docs', spaces: [spaceA, spaceB] })).url;
    const [a] = (await req('GET', `${SITE}/site-spaces`)).body.items;
    expect((await req('DELETE', `${SITE}/site-spaces/${a.id}`)).status).toBe(204);
    expect((await req('DELETE', `${SITE}/site-spaces/${a.id}`)).status).toBe(204);
    const left = (await req('GET', `${SITE}/site-spaces`)).body.items;
    expect(left.map((s: any) => [s.path, s.default])).toEqual([['api', true]]);
    expect((await req('DELETE', `${SITE}/site-spaces/${left[0].id}`, undefined, reader.token)).status).toBe(403);
    expect((await req('GET', SITE)).body.siteSpaces).toBe(1);
  });
});
