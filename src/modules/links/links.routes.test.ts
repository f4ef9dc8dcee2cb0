import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createSpace, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { createRoleMatrix } from '../../../test/role-matrix.ts';
import { derivedCache } from '../../content/store/snapshot.ts';
import { editSpaceContent } from '../content/content.service.ts';

/*
 * Link listings and backlinks over HTTP: every kind of link and status, stats, the status
 * filter, pagination, backlinks of pages and files, broken links a change request
 * introduced, access. Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.
 */

describe('links and backlinks', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: TestUser;
  let editor: TestUser;
  let outsider: TestUser;
  let spaceId: string;
  let otherSpaceId: string;
  const ids = { guide: '', setup: '', faq: '', file: '', unused: '' };

  const S = (id: string) => `/v1/spaces/${id}`;

  beforeAll(async () => {
    t = await createTestApp();
    ({ org, admin, editor, outsider } = await createRoleMatrix(t, { title: 'Links', roles: ['edit'] }));
    // The spec the page's openapi-operation block names (a reference to a missing spec is broken).
    await t.request('PUT', `/v1/orgs/${org.id}/openapi/petstore`, { token: admin.token, body: { source: { text: 'openapi: 3.0.3\ninfo: { title: Pets, version: "1" }\npaths: {}\n' } } });
    spaceId = (await createSpace(t, { organization: org, title: 'Handbook' })).id;
    otherSpaceId = (await createSpace(t, { organization: org, title: 'Other' })).id;
    await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => {
      ids.file = e.addFile({ name: 'logo.png', contentType: 'image/png', bytes: Buffer.from('png') }).id;
      ids.unused = e.addFile({ name: 'unused.txt', contentType: 'text/plain', bytes: Buffer.from('x') }).id;
      ids.setup = e.insertPage({ title: 'Setup', markdown: '# Install\n\nRun the installer.\n\n# Configure\n\nEdit the file.\n' });
      ids.guide = e.insertPage({
        title: 'Guide',
        markdown: [
          `See [setup](/pages/${ids.setup}) and [its install step](/pages/${ids.setup}#install).`,
          '',
          `A [missing anchor](/pages/${ids.setup}#nowhere), a [gone page](/pages/NoSuchPage0000000001) and [top](#intro).`,
          '',
          `Download [the logo](/files/${ids.file}) or [a lost file](/files/NoSuchFile0000000001).`,
          '',
          `Other space: [other](/spaces/${otherSpaceId}), [nowhere](/spaces/NoSuchSpace000000001).`,
          '',
          `External [site](https://example.com/docs), in app [editor](http://quire.test/app/s/${spaceId}).`,
          '',
          '{% openapi-operation spec="petstore" path="/pets" method="get" %}',
          '{% endopenapi-operation %}',
          '',
        ].join('\n'),
      });
      ids.faq = e.insertPage({ title: 'FAQ', markdown: `Read the [setup](/pages/${ids.setup}) again; ![logo](/files/${ids.file})\n` });
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists every link target of the space with its status and stats', async () => {
    const res = await t.request('GET', `${S(spaceId)}/links`, { token: admin.token });
    expect(res.status, res.text).toBe(200);
    const byTarget = (item: any) => {
      const r = item.targetReference;
      return `${r.kind}:${r.url ?? r.page?.id ?? r.file?.id ?? r.spec ?? r.space}${r.internalLocation ? `#${r.internalLocation.anchor}` : ''}`;
    };
    const statuses = Object.fromEntries(res.body.items.map((i: any) => [byTarget(i), i.status]));
    expect(statuses).toEqual({
      [`page:${ids.setup}`]: 'ok',
      [`page:${ids.setup}#install`]: 'ok',
      [`page:${ids.setup}#nowhere`]: 'broken',
      'page:NoSuchPage0000000001': 'broken',
      [`page:${ids.guide}#intro`]: 'broken',
      [`file:${ids.file}`]: 'ok',
      'file:NoSuchFile0000000001': 'broken',
      [`space:${otherSpaceId}`]: 'ok',
      'space:NoSuchSpace000000001': 'broken',
      'url:https://example.com/docs': 'ok',
      [`url:http://quire.test/app/s/${spaceId}`]: 'in-app',
      'openapi:petstore': 'ok',
    });
    expect(res.body.stats).toEqual({ total: 12, broken: { total: 5, changeRequest: 0 } });
    expect(res.body.count).toBe(12);
    // One target, linked from two pages: two locations.
    const setup = res.body.items.find((i: any) => byTarget(i) === `page:${ids.setup}`);
    expect(setup.relation).toBe('reference');
    expect(setup.targetReference).toMatchObject({ kind: 'page', organization: org.id, space: spaceId, page: { id: ids.setup, title: 'Setup', path: 'setup' } });
    expect(setup.locationReferences.map((l: any) => l.page.id)).toEqual([ids.guide, ids.faq]);
    expect(setup.locationReferences[0].internalLocation.type).toBe('node');
    const file = res.body.items.find((i: any) => byTarget(i) === `file:${ids.file}`);
    expect(file.targetReference.file).toEqual({ id: ids.file, name: 'logo.png', contentType: 'image/png', size: 3 });
  });

  it('filters by status and pages through the listing', async () => {
    const broken = await t.request('GET', `${S(spaceId)}/links`, { token: admin.token, query: { status: 'broken' } });
    expect(broken.body.count).toBe(5);
    expect(broken.body.items.every((i: any) => i.status === 'broken')).toBe(true);
    expect(broken.body.stats.total).toBe(12);
    const inApp = await t.request('GET', `${S(spaceId)}/links`, { token: admin.token, query: { status: 'in-app' } });
    expect(inApp.body.items).toHaveLength(1);
    expect((await t.request('GET', `${S(spaceId)}/links`, { token: admin.token, query: { status: 'bad' } })).status).toBe(400);

    const seen: string[] = [];
    let pageToken: string | undefined;
    do {
      const res = await t.request('GET', `${S(spaceId)}/links`, { token: admin.token, query: { limit: 5, ...(pageToken ? { page: pageToken } : {}) } });
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((i: any) => JSON.stringify(i.targetReference)));
      pageToken = res.body.next?.page;
    } while (pageToken);
    expect(seen).toHaveLength(12);
    expect(new Set(seen).size).toBe(12);
    expect((await t.request('GET', `${S(spaceId)}/links`, { token: admin.token, query: { page: 'garbage' } })).status).toBe(400);
  });

  it('lists the links of one page', async () => {
    const res = await t.request('GET', `${S(spaceId)}/content/page/${ids.faq}/links`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.stats).toEqual({ total: 2, broken: { total: 0, changeRequest: 0 } });
    expect(res.body.items.map((i: any) => i.targetReference.kind).sort()).toEqual(['file', 'page']);
    expect((await t.request('GET', `${S(spaceId)}/content/page/NoSuchPage0000000001/links`, { token: admin.token })).status).toBe(404);
  });

  it('lists backlinks of files, without the page linking to itself', async () => {
    const res = await t.request('GET', `${S(spaceId)}/content/files/${ids.file}/backlinks`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.items.map((i: any) => i.page.id)).toEqual([ids.guide, ids.faq]);
    expect(res.body.items[0]).toMatchObject({ kind: 'page', organization: org.id, space: spaceId, versionContext: { type: 'revision' } });
    const none = await t.request('GET', `${S(spaceId)}/content/files/${ids.unused}/backlinks`, { token: admin.token });
    expect(none.body).toEqual({ count: 0, items: [] });
    expect((await t.request('GET', `${S(spaceId)}/content/files/NoSuchFile0000000001/backlinks`, { token: admin.token })).status).toBe(404);
  });

  it('answers links of a change request: page links with the broken links it introduced, page and file backlinks', async () => {
    const cr = (await t.request('POST', `${S(spaceId)}/change-requests`, { token: editor.token, body: { subject: 'Links' } })).body;
    const CR = `${S(spaceId)}/change-requests/${cr.number}`;
    // Breaks one more link on the guide (the install anchor goes away from setup), adds a new broken one on FAQ.
    const batch = await t.request('POST', `${CR}/content`, {
      token: editor.token,
      body: {
        changes: [
          { operation: 'update_page', page: ids.setup, document: { markdown: '# Installing\n\nRun it.\n' } },
          { operation: 'update_page', page: ids.faq, document: { markdown: `[setup](/pages/${ids.setup}) [gone](/pages/Gone0000000000000001) [logo](/files/${ids.file})\n` } },
        ],
      },
    });
    expect(batch.status, batch.text).toBe(200);
    const guide = await t.request('GET', `${CR}/content/page/${ids.guide}/links`, { token: admin.token });
    expect(guide.status).toBe(200);
    // Broken in the change request: nowhere, gone page, #intro, lost file, no space (as before) + #install (new).
    expect(guide.body.stats).toEqual({ total: 12, broken: { total: 6, changeRequest: 1 } });
    const install = guide.body.items.find((i: any) => i.targetReference.internalLocation?.anchor === 'install');
    expect(install.status).toBe('broken');
    expect(install.locationReferences[0]).toMatchObject({ kind: 'page', versionContext: { type: 'changeRequest', changeRequest: cr.id } });
    const faq = await t.request('GET', `${CR}/content/page/${ids.faq}/links`, { token: admin.token, query: { status: 'broken' } });
    expect(faq.body.stats.broken).toEqual({ total: 1, changeRequest: 1 });
    expect(faq.body.items[0].targetReference.page.id).toBe('Gone0000000000000001');
    // Main is untouched.
    expect((await t.request('GET', `${S(spaceId)}/links`, { token: admin.token })).body.stats.broken).toEqual({ total: 5, changeRequest: 0 });

    const back = await t.request('GET', `${CR}/content/page/${ids.setup}/backlinks`, { token: admin.token });
    expect(back.status).toBe(200);
    expect(back.body.items.map((i: any) => i.page.id)).toEqual([ids.guide, ids.faq]);
    const fileBack = await t.request('GET', `${CR}/content/files/${ids.file}/backlinks`, { token: admin.token });
    expect(fileBack.body.items.map((i: any) => i.page.id)).toEqual([ids.guide, ids.faq]);
    expect((await t.request('GET', `${CR}/content/page/NoSuchPage0000000001/backlinks`, { token: admin.token })).status).toBe(404);
  });

  it('sees another space disappear (resolved per request), while the revision’s report stays cached', async () => {
    const doomed = (await createSpace(t, { organization: org, title: 'Doomed' })).id;
    const page = await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => e.insertPage({ title: 'Doomed link', markdown: `[d](/spaces/${doomed})\n` }));
    expect(page).toBeTruthy();
    const before = await t.request('GET', `${S(spaceId)}/links`, { token: admin.token });
    expect(before.body.stats.broken.total).toBe(5);
    expect(derivedCache.get(`links\u0000http://quire.test\u0000${spaceId}\u0000${page}`)).toBeDefined();
    expect((await t.request('DELETE', S(doomed), { token: admin.token })).status).toBe(204);
    const after = await t.request('GET', `${S(spaceId)}/links`, { token: admin.token });
    expect(after.body.stats.broken.total).toBe(6);
  });

  it('shows links only to who may read the space or change request', async () => {
    expect((await t.request('GET', `${S(spaceId)}/links`, { token: outsider.token })).status).toBe(404);
    expect((await t.request('GET', `${S(spaceId)}/content/page/${ids.faq}/links`, { token: outsider.token })).status).toBe(404);
    expect((await t.request('GET', `${S(spaceId)}/content/files/${ids.file}/backlinks`, { token: outsider.token })).status).toBe(404);
    expect((await t.request('GET', `${S(spaceId)}/change-requests/1/content/page/${ids.faq}/links`, { token: outsider.token })).status).toBe(404);
    expect((await t.request('GET', `${S(spaceId)}/links`)).status).toBe(401);
  });
});
