import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, type TestOrganization } from '../../../test/factories.ts';
import { editSpaceContent } from '../content/content.service.ts';

/*
 * A URL path whose first segment is both a site space's path and a page's slug
 * (reader-structure.ts resolvePath): on a one-space site the page wins, the prefix still
 * strips before a path the space does not hold; on a site with several spaces another space's prefix wins, and
 * what that space does not hold falls through to the default space's pages.
 */

describe('published paths shared by a site space and a page', () => {
  let t: TestApp;
  let org: TestOrganization;
  const O = () => `/v1/orgs/${org.id}`;
  const req = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => t.request(method, url, { token: org.admin.token, body });
  const get = (url: string) => t.request('GET', url);
  const article = (html: string) => html.match(/<article>([\s\S]*?)<\/article>/)?.[1] ?? null;

  /** A published site at /sites/<basename>/ showing the spaces, in order; its site spaces as the API lists them. */
  async function publish(basename: string, spaces: string[]) {
    const site = await req('POST', `${O()}/sites`, { title: `${basename} docs`, spaces });
    expect(site.status).toBe(201);
    const url = `${O()}/sites/${site.body.id}`;
    expect((await req('PATCH', url, { basename })).status).toBe(200);
    expect((await req('POST', `${url}/publish`)).status).toBe(200);
    return (await req('GET', `${url}/site-spaces`)).body.items as Array<{ path: string; default: boolean; urls: { published?: string } }>;
  }

  async function space(title: string, write: Parameters<typeof editSpaceContent>[3]) {
    const id = (await req('POST', `${O()}/spaces`, { title })).body.id as string;
    await editSpaceContent(t.app.deps, id, org.admin.id, write);
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('one space: a page whose path is the site space path is served at its path', async () => {
    const kites = await space('Kites', (e) => {
      e.insertPage({ title: 'Welcome', markdown: 'Welcome body.\n' });
      const page = e.insertPage({ title: 'Kites', markdown: 'Kites body.\n' });
      e.insertPage({ title: 'Tails', markdown: 'Tails body.\n' }, { parent: page });
    });
    const [siteSpace] = await publish('kitedocs', [kites]);
    expect(siteSpace).toMatchObject({ path: 'kites', default: true });
    const base = '/sites/kitedocs/';

    const page = await get(`${base}kites`);
    expect(page.status).toBe(200);
    expect(article(page.text)).toBe('<h1>Kites</h1>\n<p>Kites body.</p>\n');
    expect(page.text).toContain(`<link rel="canonical" href="${new URL(t.config.publicUrl).origin}${base}kites">`);
    expect(article((await get(`${base}kites/tails`)).text)).toBe('<h1>Tails</h1>\n<p>Tails body.</p>\n');
    expect((await get(`${base}kites.md`)).text).toBe('# Kites\n\nKites body.\n');

    // Before a path the space does not hold as a page, the prefix is still the site
    // space's path (its urls.published is `<base>kites/`).
    expect(article((await get(`${base}kites/welcome`)).text)).toBe('<h1>Welcome</h1>\n<p>Welcome body.</p>\n');
    expect(article((await get(base)).text)).toBe('<h1>Welcome</h1>\n<p>Welcome body.</p>\n');
    expect((await get(`${base}kites/nope`)).status).toBe(404);
  });

  it('several spaces: another site space path wins over a default-space page of that path; what it lacks falls through', async () => {
    const guides = await space('Guides', (e) => {
      e.insertPage({ title: 'Intro', markdown: 'Intro body.\n' });
      const birds = e.insertPage({ title: 'Birds', markdown: 'Guide to birds.\n' });
      e.insertPage({ title: 'Wings', markdown: 'Wings body.\n' }, { parent: birds });
    });
    const birds = await space('Birds', (e) => {
      e.insertPage({ title: 'Overview', markdown: 'Overview body.\n' });
      e.insertPage({ title: 'Feathers', markdown: 'Feathers body.\n' });
    });
    const siteSpaces = await publish('aviary', [guides, birds]);
    expect(siteSpaces.map((s) => [s.path, s.default])).toEqual([
      ['guides', true],
      ['birds', false],
    ]);
    const base = '/sites/aviary/';

    expect(article((await get(`${base}birds`)).text)).toBe('<h1>Overview</h1>\n<p>Overview body.</p>\n');
    expect(article((await get(`${base}birds/feathers`)).text)).toBe('<h1>Feathers</h1>\n<p>Feathers body.</p>\n');
    expect(article((await get(`${base}birds/wings`)).text)).toBe('<h1>Wings</h1>\n<p>Wings body.</p>\n');
    expect(article((await get(`${base}intro`)).text)).toBe('<h1>Intro</h1>\n<p>Intro body.</p>\n');
    expect((await get(`${base}birds/nope`)).status).toBe(404);
  });

  it('sections: the default section path yields to a page of that path, another section path does not', async () => {
    const manual = await space('Manual', (e) => {
      e.insertPage({ title: 'Start', markdown: 'Start body.\n' });
      e.insertPage({ title: 'Manual', markdown: 'The manual page.\n' });
      e.insertPage({ title: 'Api', markdown: 'Api page of the manual.\n' });
    });
    const api = await space('Api', (e) => {
      e.insertPage({ title: 'Reference', markdown: 'Reference body.\n' });
    });
    const site = await req('POST', `${O()}/sites`, { title: 'Sectioned' });
    const url = `${O()}/sites/${site.body.id}`;
    for (const [spaceId, title] of [[manual, 'Manual'], [api, 'Api']]) expect((await req('POST', `${url}/sections`, { spaceId, title })).status).toBe(201);
    expect((await req('PATCH', url, { basename: 'sectioned' })).status).toBe(200);
    expect((await req('POST', `${url}/publish`)).status).toBe(200);
    const sections = (await req('GET', `${url}/sections`)).body.items.map((s: any) => [s.path, s.default]);
    expect(sections).toEqual([
      ['manual', true],
      ['api', false],
    ]);
    const base = '/sites/sectioned/';

    expect(article((await get(base)).text)).toBe('<h1>Start</h1>\n<p>Start body.</p>\n');
    expect(article((await get(`${base}manual`)).text)).toBe('<h1>Manual</h1>\n<p>The manual page.</p>\n');
    expect(article((await get(`${base}manual/start`)).text)).toBe('<h1>Start</h1>\n<p>Start body.</p>\n');
    expect(article((await get(`${base}api`)).text)).toBe('<h1>Reference</h1>\n<p>Reference body.</p>\n');
    expect(article((await get(`${base}api/reference`)).text)).toBe('<h1>Reference</h1>\n<p>Reference body.</p>\n');
  });
});
