import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, type TestOrganization } from '../../../test/factories.ts';
import { siteSectionsRepository } from './site-sections.repository.ts';
import { siteSpacesRepository } from './site-spaces.repository.ts';
import { SiteStructure } from './site-structure.ts';

/*
 * SiteStructure is a command: loaded once, changed in memory, saved as a diff. A site
 * built through the API, then the model driven directly: what save writes, and what a
 * bad command leaves (nothing).
 */

describe('SiteStructure', () => {
  let t: TestApp;
  let org: TestOrganization;
  let siteId: string;
  const ids: Record<string, string> = {};

  const O = () => `/v1/orgs/${org.id}`;
  const req = (method: 'GET' | 'POST', url: string, body?: unknown) => t.request(method, url, { token: org.admin.token, body });
  const ctx = () => ({ ...t.app.deps, actor: { userId: org.admin.id, tokenId: org.admin.tokenId, organizationId: null } });
  const order = async () => (await siteSpacesRepository.list(t.db, siteId)).sort((a, b) => Number(a.position) - Number(b.position)).map((s) => s.id);

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t);
    const spaces = [];
    for (const title of ['A', 'B', 'C']) spaces.push((await req('POST', `${O()}/spaces`, { title })).body.id);
    siteId = (await req('POST', `${O()}/sites`, { title: 'Model', spaces })).body.id;
    for (const row of await siteSpacesRepository.list(t.db, siteId)) ids[row.path] = row.id;
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('save writes only the rows a command changed, only their changed columns, and nothing twice', async () => {
    const updates = vi.spyOn(siteSpacesRepository, 'update');
    const structure = await SiteStructure.load(ctx(), siteId);
    // [a, b, c] -> [a, c, b]: c and b change position, a does not.
    structure.moveSiteSpaceNextTo(ids.c, { before: ids.b });
    await structure.save(t.db);
    expect(updates.mock.calls.map(([, , id, changes]) => [id, changes])).toEqual([
      [ids.b, { position: 2 }],
      [ids.c, { position: 1 }],
    ]);
    expect(await order()).toEqual([ids.a, ids.c, ids.b]);
    updates.mockClear();
    await structure.save(t.db);
    expect(updates).not.toHaveBeenCalled();
  });

  it('a rejected command throws before anything is written', async () => {
    const writes = [vi.spyOn(siteSpacesRepository, 'update'), vi.spyOn(siteSectionsRepository, 'updateSection'), vi.spyOn(siteSectionsRepository, 'updateGroup')];
    const structure = await SiteStructure.load(ctx(), siteId);
    expect(() => structure.moveSiteSpaceNextTo(ids.a, { before: 'nope' })).toThrow(/is not in this site/);
    expect(() => structure.moveSiteSpaceNextTo(ids.a, { before: ids.a })).toThrow(/next to itself/);
    await structure.save(t.db);
    for (const write of writes) expect(write).not.toHaveBeenCalled();
  });

  it('removing a group puts what it held in its place; save inserts, updates and deletes', async () => {
    const structure = await SiteStructure.load(ctx(), siteId);
    const now = new Date().toISOString();
    const section = (id: string, position: number) => ({
      id,
      site_id: siteId,
      title: id,
      description: null,
      icon: null,
      path: id.toLowerCase(),
      condition: null,
      section_group_id: null,
      position,
      created_at: now,
      default_site_space_id: null,
    });
    structure.addSection(section('S1', 0));
    structure.addSection(section('S2', 1));
    structure.moveRootInto('S1');
    structure.addGroup({ id: 'G1', site_id: siteId, title: 'Group', icon: null, parent_group_id: null, position: 2, created_at: now });
    structure.moveIntoGroup({ kind: 'section', id: 'S1' }, 'G1');
    await structure.save(t.db);
    const reloaded = await SiteStructure.load(ctx(), siteId);
    expect(reloaded.levelItems(null).map((i) => i.row.id)).toEqual(['S2', 'G1']);
    expect(reloaded.levelItems('G1').map((i) => i.row.id)).toEqual(['S1']);
    expect(reloaded.containerSiteSpaces('S1')).toHaveLength(3);

    expect(reloaded.removeGroup('G1')).toBe(true);
    await reloaded.save(t.db);
    const after = await SiteStructure.load(ctx(), siteId);
    expect(after.groups).toEqual([]);
    expect(after.levelItems(null).map((i) => i.row.id)).toEqual(['S2', 'S1']);
  });
});
