import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, type TestOrganization } from '../../../test/factories.ts';
import { editSpaceContent } from '../content/content.service.ts';

/*
 * The API's `urls.published` of a site space (`<base><path>/`) opens that space's landing
 * page, also where the space holds a page whose slug is its path: the trailing slash names
 * the site space itself, while `<base><path>` stays that page (docs/decisions/published-sites.md
 * rule 5). Made-up text.
 */

describe("a site space's published URL", () => {
  let t: TestApp;
  let org: TestOrganization;
  const O = () => `/v1/orgs/${org.id}`;
  const req = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => t.request(method, url, { token: org.admin.token, body });
  const article = async (url: string) => {
    const res = await t.request('GET', url);
    expect(res.status, url).toBe(200);
    return res.text.match(/<article>([\s\S]*?)<\/article>/)?.[1] ?? null;
  };

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function space(title: string, write: Parameters<typeof editSpaceContent>[3]) {
    const id = (await req('POST', `${O()}/spaces`, { title })).body.id as string;
    await editSpaceContent(t.app.deps, id, org.admin.id, write);
    return id;
  }

  it('opens the landing page of the default site space holding a page of its path, and of another site space', async () => {
    const kites = await space('Kites', (e) => {
      e.insertPage({ title: 'Welcome', markdown: 'Welcome body.\n' });
      e.insertPage({ title: 'Kites', markdown: 'Kites body.\n' });
    });
    const birds = await space('Birds', (e) => {
      e.insertPage({ title: 'Overview', markdown: 'Overview body.\n' });
      e.insertPage({ title: 'Birds', markdown: 'Birds body.\n' });
    });
    const site = await req('POST', `${O()}/sites`, { title: 'Kite docs', spaces: [kites, birds] });
    expect(site.status).toBe(201);
    const url = `${O()}/sites/${site.body.id}`;
    expect((await req('PATCH', url, { basename: 'kitedocs' })).status).toBe(200);
    expect((await req('POST', `${url}/publish`)).status).toBe(200);
    const siteSpaces = (await req('GET', `${url}/site-spaces`)).body.items as Array<{ path: string; default: boolean; urls: { published: string } }>;
    expect(siteSpaces.map((s) => [s.path, s.default, new URL(s.urls.published).pathname])).toEqual([
      ['kites', true, '/sites/kitedocs/kites/'],
      ['birds', false, '/sites/kitedocs/birds/'],
    ]);

    expect(await article(new URL(siteSpaces[0].urls.published).pathname)).toBe('<h1>Welcome</h1>\n<p>Welcome body.</p>\n');
    expect(await article(new URL(siteSpaces[1].urls.published).pathname)).toBe('<h1>Overview</h1>\n<p>Overview body.</p>\n');
    // Without the slash the path is read as before: the default space's page of that slug.
    expect(await article('/sites/kitedocs/kites')).toBe('<h1>Kites</h1>\n<p>Kites body.</p>\n');
    expect(await article('/sites/kitedocs/birds/birds/')).toBe('<h1>Birds</h1>\n<p>Birds body.</p>\n');
  });

  it('opens the landing page of a section, and of its site space, whose paths are slugs of its pages', async () => {
    const harbour = await space('Harbour', (e) => {
      e.insertPage({ title: 'Welcome', markdown: 'Welcome body.\n' });
      const page = e.insertPage({ title: 'Harbour', markdown: 'Harbour body.\n' });
      e.insertPage({ title: 'Harbour', markdown: 'Inner harbour body.\n' }, { parent: page });
    });
    const site = await req('POST', `${O()}/sites`, { title: 'Harbour docs' });
    expect(site.status).toBe(201);
    const url = `${O()}/sites/${site.body.id}`;
    expect((await req('POST', `${url}/sections`, { spaceId: harbour, title: 'Harbour' })).status).toBe(201);
    expect((await req('PATCH', url, { basename: 'harbourdocs' })).status).toBe(200);
    expect((await req('POST', `${url}/publish`)).status).toBe(200);
    const published = (await req('GET', `${url}/published`)).body.structure.structure;
    const section = published[0];
    const pathOf = (u: string) => new URL(u).pathname;
    expect([pathOf(section.urls.published), pathOf(section.siteSpaces[0].urls.published)]).toEqual(['/sites/harbourdocs/harbour/', '/sites/harbourdocs/harbour/harbour/']);

    expect(await article(pathOf(section.urls.published))).toBe('<h1>Welcome</h1>\n<p>Welcome body.</p>\n');
    expect(await article(pathOf(section.siteSpaces[0].urls.published))).toBe('<h1>Welcome</h1>\n<p>Welcome body.</p>\n');
    // Without the slash, rule 5 as before: the section's and space's prefixes stripped, `harbour` is the page.
    expect(await article('/sites/harbourdocs/harbour/harbour')).toBe('<h1>Harbour</h1>\n<p>Harbour body.</p>\n');
  });
});
