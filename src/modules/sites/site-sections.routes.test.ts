import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createSite, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { createRoleMatrix } from '../../../test/role-matrix.ts';

describe('site sections and section groups', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let spaceA: string;
  let spaceB: string;

  const O = () => `/v1/orgs/${org.id}`;
  const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, body?: unknown, token = admin.token) => t.request(method, url, { token, body });

  async function addSection(SITE: string, body: Record<string, unknown>) {
    const res = await req('POST', `${SITE}/sections`, body);
    expect(res.status, res.text).toBe(201);
    return res.body;
  }
  /** The structure as nested [kind, title] pairs. */
  async function outline(SITE: string): Promise<unknown[]> {
    const res = await req('GET', `${SITE}/structure`);
    const walk = (items: any[]): unknown[] => items.map((i) => (i.object === 'site-section-group' ? [i.title, walk(i.children)] : i.title));
    return walk(res.body.structure);
  }

  beforeAll(async () => {
    t = await createTestApp();
    ({ org, admin, reader, outsider } = await createRoleMatrix(t, { roles: ['read'] }));
    spaceA = (await req('POST', `${O()}/spaces`, { title: 'Guides' })).body.id;
    spaceB = (await req('POST', `${O()}/spaces`, { title: 'API' })).body.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('the first section turns sections on: root site spaces move into a first section', async () => {
    const SITE = (await createSite(t, { organization: org, title: 'Docs', spaces: [spaceA] })).url;
    const section = await addSection(SITE, { spaceId: spaceB, title: 'Reference', icon: 'code' });
    expect(section).toMatchObject({ object: 'site-section', title: 'Reference', path: 'reference', icon: 'code', default: false, draft: false });
    expect(section.siteSpaces.map((s: any) => [s.space.id, s.default, s.section])).toEqual([[spaceB, true, section.id]]);
    const list = await req('GET', `${SITE}/sections`, undefined, reader.token);
    expect(list.body.items.map((s: any) => [s.title, s.path, s.default])).toEqual([
      ['Guides', 'guides', true],
      ['Reference', 'reference', false],
    ]);
    expect(list.body.items[0].siteSpaces.map((s: any) => s.space.id)).toEqual([spaceA]);
    const again = await addSection(SITE, { spaceId: spaceB, title: 'Reference' });
    expect(again.path).toBe('reference-2');
    const untitled = await addSection(SITE, { spaceId: spaceA, title: null });
    expect(untitled.title).toBe('Guides');
    expect(untitled.path).toBe('guides-2');
  });

  it('create: 400 on limits, unknown space or group, null space; 401, 403, 404', async () => {
    const SITE = (await createSite(t, { organization: org, title: 'Docs', spaces: [spaceA] })).url;
    for (const body of [{}, { spaceId: 'nope' }, { spaceId: null }, { spaceId: spaceA, title: 'x' }, { spaceId: spaceA, title: 'x'.repeat(129) }, { spaceId: spaceA, icon: 'i'.repeat(51) }, { spaceId: spaceA, siteSectionGroupId: 'nope' }]) {
      expect((await req('POST', `${SITE}/sections`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.request('POST', `${SITE}/sections`, { body: { spaceId: spaceA } })).status).toBe(401);
    expect((await req('POST', `${SITE}/sections`, { spaceId: spaceA }, reader.token)).status).toBe(403);
    expect((await req('POST', `${SITE}/sections`, { spaceId: spaceA }, outsider.token)).status).toBe(404);
    expect((await req('GET', `${SITE}/sections`, undefined, outsider.token)).status).toBe(404);
    expect((await req('POST', `${O()}/sites/nope/sections`, { spaceId: spaceA })).status).toBe(404);
  });

  it('patch: every field read back; limits 400; path 409; condition checked against the adaptive schema', async () => {
    const SITE = (await createSite(t, { organization: org, title: 'Docs', spaces: [] })).url;
    const one = await addSection(SITE, { spaceId: spaceA });
    const two = await addSection(SITE, { spaceId: spaceB });
    const variant = (await req('POST', `${SITE}/site-spaces`, { spaceId: spaceB, sectionId: one.id })).body;
    const url = `${SITE}/sections/${one.id}`;
    const res = await req('PATCH', url, { title: 'Start here', path: 'start', description: 'First steps', icon: 'rocket', condition: 'visitor.claims.unsigned.beta == true', defaultSiteSpace: variant.id });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ title: 'Start here', path: 'start', description: 'First steps', icon: 'rocket', condition: 'visitor.claims.unsigned.beta == true' });
    expect(res.body.siteSpaces.map((s: any) => [s.id, s.default])).toEqual([
      [one.siteSpaces[0].id, false],
      [variant.id, true],
    ]);
    const cleared = await req('PATCH', url, { condition: null, icon: null, description: null });
    expect(cleared.body.condition).toBeUndefined();
    expect(cleared.body.icon).toBeUndefined();
    expect(cleared.body.description).toBeUndefined();
    expect(cleared.body.title).toBe('Start here');

    for (const body of [
      { title: 'x' },
      { title: 'x'.repeat(129) },
      { path: '' },
      { path: 'p'.repeat(101) },
      { path: 'a/b' },
      { description: 'd'.repeat(257) },
      { icon: 'i'.repeat(51) },
      { condition: 'c'.repeat(1025) },
      { condition: 'visitor.claims.a ==' },
      { condition: 'process.exit()' },
      { defaultSiteSpace: two.siteSpaces[0].id },
    ]) {
      expect((await req('PATCH', url, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await req('PATCH', url, { path: 'p'.repeat(100), description: 'd'.repeat(256), icon: 'i'.repeat(50) })).status).toBe(200);
    const conflict = await req('PATCH', url, { path: two.path });
    expect(conflict.status).toBe(409);

    await req('PUT', `${SITE}/adaptive-schema`, {
      jsonSchema: { type: 'object', properties: { unsigned: { type: 'object', description: 'x', properties: { beta: { type: 'boolean', description: 'b' } }, additionalProperties: false } }, additionalProperties: false },
    });
    expect((await req('PATCH', url, { condition: 'visitor.claims.unsigned.beta == true' })).status).toBe(200);
    const undeclared = await req('PATCH', url, { condition: 'visitor.claims.unsigned.gamma == true' });
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.error.message).toMatch(/gamma/);
    expect((await req('PATCH', `${SITE}/sections/nope`, { title: 'Nope' })).status).toBe(404);
    expect((await req('PATCH', url, { title: 'Nope' }, reader.token)).status).toBe(403);
  });

  it('delete: the section and its site spaces; 204 also when absent; the default moves on', async () => {
    const SITE = (await createSite(t, { organization: org, title: 'Docs', spaces: [] })).url;
    const one = await addSection(SITE, { spaceId: spaceA, title: 'One' });
    await addSection(SITE, { spaceId: spaceB, title: 'Two' });
    await req('PATCH', SITE, { defaultSiteSection: one.id });
    expect((await req('DELETE', `${SITE}/sections/${one.id}`)).status).toBe(204);
    expect((await req('DELETE', `${SITE}/sections/${one.id}`)).status).toBe(204);
    const list = (await req('GET', `${SITE}/sections`)).body.items;
    expect(list.map((s: any) => [s.title, s.default])).toEqual([['Two', true]]);
    expect((await req('GET', `${SITE}/site-spaces`)).body.count).toBe(1);
  });

  it('moves: deprecated section move, sortSiteStructure; 400 invalid positions, 404 unknown items', async () => {
    const SITE = (await createSite(t, { organization: org, title: 'Docs', spaces: [] })).url;
    const a = await addSection(SITE, { spaceId: spaceA, title: 'Alpha' });
    const b = await addSection(SITE, { spaceId: spaceA, title: 'Beta' });
    const c = await addSection(SITE, { spaceId: spaceA, title: 'Gamma' });
    const moved = await req('POST', `${SITE}/sections/${c.id}/move`, { position: { before: { type: 'site-section', siteSection: a.id } } });
    expect(moved.status).toBe(200);
    expect(await outline(SITE)).toEqual(['Gamma', 'Alpha', 'Beta']);
    expect((await req('POST', `${SITE}/sections/${c.id}/move`, {})).status).toBe(200);
    expect(await outline(SITE)).toEqual(['Alpha', 'Beta', 'Gamma']);
    for (const position of [
      { before: { type: 'site-section', siteSection: 'nope' } },
      { before: { type: 'site-section', siteSection: c.id } },
      { before: { type: 'site-section', siteSection: a.id }, after: { type: 'site-section', siteSection: b.id } },
    ]) {
      expect((await req('POST', `${SITE}/sections/${c.id}/move`, { position })).status, JSON.stringify(position)).toBe(400);
    }
    expect((await req('POST', `${SITE}/sections/nope/move`, {})).status).toBe(404);

    const sorted = await req('PATCH', `${SITE}/structure/sort`, { item: { type: 'site-section', id: a.id }, position: { after: { type: 'site-section', id: c.id } } });
    expect(sorted.status).toBe(200);
    expect(sorted.body.id).toBe(a.id);
    expect(await outline(SITE)).toEqual(['Beta', 'Gamma', 'Alpha']);
    expect((await req('PATCH', `${SITE}/structure/sort`, { item: { type: 'site-section', id: a.id }, position: { after: { type: 'site-space', id: a.siteSpaces[0].id } } })).status).toBe(400);
    expect((await req('PATCH', `${SITE}/structure/sort`, { item: { type: 'site-section', id: 'nope' }, position: {} })).status).toBe(404);
    expect((await req('PATCH', `${SITE}/structure/sort`, { item: { type: 'site-external-link', id: 'x' }, position: {} })).status).toBe(404);
    expect((await req('PATCH', `${SITE}/structure/sort`, { item: { type: 'site-section', id: a.id }, position: {} }, reader.token)).status).toBe(403);
  });

  it('groups: create with sections and parent, patch, add and remove a section, move, delete', async () => {
    const SITE = (await createSite(t, { organization: org, title: 'Docs', spaces: [] })).url;
    const a = await addSection(SITE, { spaceId: spaceA, title: 'Alpha' });
    const b = await addSection(SITE, { spaceId: spaceA, title: 'Beta' });
    const c = await addSection(SITE, { spaceId: spaceA, title: 'Gamma' });
    const group = await req('POST', `${SITE}/section-groups`, { title: 'Dev', icon: 'code', sections: [c.id, b.id] });
    expect(group.status, group.text).toBe(201);
    expect(group.body).toMatchObject({ object: 'site-section-group', title: 'Dev', icon: 'code', draft: false });
    expect(group.body.children.map((s: any) => s.id)).toEqual([c.id, b.id]);
    expect(group.body.sections.map((s: any) => s.sectionGroup)).toEqual([group.body.id, group.body.id]);
    const inner = await req('POST', `${SITE}/section-groups`, { title: 'Inner', parent: group.body.id });
    expect(inner.body.sectionGroup).toBe(group.body.id);
    expect(await outline(SITE)).toEqual(['Alpha', ['Dev', ['Gamma', 'Beta', ['Inner', []]]]]);

    for (const body of [{ title: '' }, { title: 'x'.repeat(101) }, { title: 'Ok', parent: 'nope' }, { title: 'Ok', sections: ['nope'] }, { title: 'Ok', icon: 'i'.repeat(51) }]) {
      expect((await req('POST', `${SITE}/section-groups`, body)).status, JSON.stringify(body)).toBe(400);
    }
    const patched = await req('PATCH', `${SITE}/section-groups/${group.body.id}`, { title: 'Developers', icon: null });
    expect(patched.body.title).toBe('Developers');
    expect(patched.body.icon).toBeUndefined();
    expect((await req('PATCH', `${SITE}/section-groups/nope`, { title: 'x' })).status).toBe(404);

    expect((await req('POST', `${SITE}/section-groups/${inner.body.id}/sections`, { sectionId: a.id })).status).toBe(200);
    expect(await outline(SITE)).toEqual([['Developers', ['Gamma', 'Beta', ['Inner', ['Alpha']]]]]);
    expect((await req('POST', `${SITE}/section-groups/${inner.body.id}/sections`, { sectionId: 'nope' })).status).toBe(400);
    expect((await req('POST', `${SITE}/section-groups/nope/sections`, { sectionId: a.id })).status).toBe(404);
    expect((await req('DELETE', `${SITE}/section-groups/${inner.body.id}/sections/${a.id}`)).status).toBe(204);
    expect(await outline(SITE)).toEqual([['Developers', ['Gamma', 'Beta', ['Inner', []], 'Alpha']]]);
    expect((await req('DELETE', `${SITE}/section-groups/${inner.body.id}/sections/${a.id}`)).status).toBe(204);

    const movedGroup = await req('POST', `${SITE}/section-groups/${inner.body.id}/move`, { position: { before: { type: 'site-section-group', id: group.body.id } } });
    expect(movedGroup.status).toBe(200);
    expect(await outline(SITE)).toEqual([['Inner', []], ['Developers', ['Gamma', 'Beta', 'Alpha']]]);
    expect((await req('POST', `${SITE}/section-groups/${group.body.id}/move`, { position: { after: { type: 'site-section', id: b.id } } })).status).toBe(400);
    expect((await req('POST', `${SITE}/section-groups/${group.body.id}/move`, { position: { after: { type: 'site-section', id: 'nope' } } })).status).toBe(400);
    expect((await req('POST', `${SITE}/section-groups/nope/move`, {})).status).toBe(404);

    expect((await req('DELETE', `${SITE}/section-groups/${group.body.id}`)).status).toBe(204);
    expect(await outline(SITE)).toEqual([['Inner', []], 'Gamma', 'Beta', 'Alpha']);
    expect((await req('DELETE', `${SITE}/section-groups/${group.body.id}`)).status).toBe(204);
    const groups = await req('GET', `${SITE}/section-groups`, undefined, reader.token);
    expect(groups.body.items.map((g: any) => g.title)).toEqual(['Inner']);
    expect((await req('DELETE', `${SITE}/section-groups/${inner.body.id}`, undefined, reader.token)).status).toBe(403);
  });

  it('lists page in structure order', async () => {
    const SITE = (await createSite(t, { organization: org, title: 'Docs', spaces: [] })).url;
    for (const title of ['One', 'Two', 'Three']) await addSection(SITE, { spaceId: spaceA, title });
    const first = await req('GET', `${SITE}/sections?limit=2`);
    expect(first.body.items.map((s: any) => s.title)).toEqual(['One', 'Two']);
    expect(first.body.count).toBe(3);
    const second = await t.request('GET', `${SITE}/sections`, { token: admin.token, query: { limit: 2, page: first.body.next.page } });
    expect(second.body.items.map((s: any) => s.title)).toEqual(['Three']);
    expect(second.body.next).toBeUndefined();
    expect((await t.request('GET', `${SITE}/sections`, { token: admin.token, query: { page: 'garbage' } })).status).toBe(400);
  });
});
