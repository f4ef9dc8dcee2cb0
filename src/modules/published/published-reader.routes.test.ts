import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, type TestOrganization } from '../../../test/factories.ts';
import { editSpaceContent } from '../content/content.service.ts';

/*
 * What readers, crawlers and agents get around a published page (issue 20): meta tags and
 * structured data, robots.txt, sitemap.xml, llms.txt, each page's markdown, the 404 in the
 * site's layout, the instant-search JSON, compression, ETags and 304s. Sites built through
 * the API.
 */

describe('published sites around the content', () => {
  let t: TestApp;
  let org: TestOrganization;
  let SITE: string;
  let base: string;

  const O = () => `/v1/orgs/${org.id}`;
  const req = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown) => t.request(method, url, { token: org.admin.token, body });
  const get = (url: string, headers: Record<string, string> = {}) => t.request('GET', url, { headers });

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t);
    const space = (await req('POST', `${O()}/spaces`, { title: 'Guides' })).body.id;
    await editSpaceContent(t.app.deps, space, org.admin.id, (e) => {
      const start = e.insertPage({ title: 'Getting started', description: 'Install & configure Acme.', markdown: '# Install\n\n```bash\nnpm install acme\n```\n\n# Retries\n\nFailed webhooks are retried.\n' });
      e.insertPage({ title: 'Installation', markdown: 'Install it.\n' }, { parent: start });
      e.insertPage({ title: 'Secret', hidden: true, markdown: 'Hidden.\n' });
      e.insertPage({ title: 'Configuration', markdown: 'Configure it.\n' });
    });
    const site = await req('POST', `${O()}/sites`, { title: 'Acme Docs', spaces: [space] });
    SITE = `${O()}/sites/${site.body.id}`;
    await req('PATCH', SITE, { basename: 'acme' });
    await req('POST', `${SITE}/publish`);
    base = '/sites/acme/';
  });
  afterAll(async () => {
    await t?.close();
  });

  it('pages carry a description, canonical URL, social cards, a favicon and structured data', async () => {
    const home = await get(base);
    expect(home.status).toBe(200);
    const origin = new URL(t.config.publicUrl).origin;
    expect(home.text).toContain('<meta name="description" content="Install &amp; configure Acme.">');
    expect(home.text).toContain(`<link rel="canonical" href="${origin}${base}">`);
    expect(home.text).toContain('<meta property="og:title" content="Getting started | Acme Docs">');
    expect(home.text).toContain('<meta property="og:description" content="Install &amp; configure Acme.">');
    expect(home.text).toContain('<meta name="twitter:card" content="summary">');
    expect(home.text).toMatch(/<link rel="icon" href="data:image\/svg\+xml,/);
    expect(home.text).toContain(`<link rel="next" href="${base}getting-started/installation">`);
    // The site follows the reader's system theme (its customization fixes none).
    expect(home.text).toContain('data-theme-mode="system"');
    expect(String(home.headers['content-security-policy'])).toContain("connect-src 'self'");

    const child = await get(`${base}getting-started/installation`);
    const ld = [...child.text.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]));
    const crumbs = ld.find((d) => d['@type'] === 'BreadcrumbList');
    expect(crumbs.itemListElement.map((i: any) => [i.position, i.name, i.item])).toEqual([
      [1, 'Getting started', `${origin}${base}getting-started`],
      [2, 'Installation', `${origin}${base}getting-started/installation`],
    ]);
    const article = ld.find((d) => d['@type'] === 'TechArticle');
    expect(article).toMatchObject({ headline: 'Installation', previousItem: `${origin}${base}getting-started`, nextItem: `${origin}${base}configuration` });
    expect(child.text).toContain('<nav class="breadcrumbs" aria-label="Breadcrumbs"><ol><li><a href="/sites/acme/getting-started">Getting started</a></li></ol></nav>');
  });

  it('each page has its markdown at its URL plus .md, and a copy-as-markdown action unless pageActions.markdown is off', async () => {
    const md = await get(`${base}getting-started.md`);
    expect(md.status).toBe(200);
    expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(md.text).toBe('# Getting started\n\nInstall & configure Acme.\n\n## Install\n\n```bash\nnpm install acme\n```\n\n## Retries\n\nFailed webhooks are retried.\n');
    expect((await get(`${base}getting-started/installation.md`)).text).toBe('# Installation\n\nInstall it.\n');
    expect((await get(`${base}nope.md`)).status).toBe(404);
    const page = await get(`${base}configuration`);
    expect(page.text).toContain(`<button type="button" id="copy-markdown" class="page-action" data-src="${base}configuration.md">Copy as Markdown</button>`);
    const site = await t.db.selectFrom('sites').select(['id', 'customization']).where('basename', '=', 'acme').executeTakeFirstOrThrow();
    await t.db.updateTable('sites').set({ customization: JSON.stringify({ pageActions: { markdown: false } }) }).where('id', '=', site.id).execute();
    // (A page not visited before: direct row writes do not reach the anonymous page cache.)
    expect((await get(`${base}secret`)).text).not.toContain('id="copy-markdown"');
    await t.db.updateTable('sites').set({ customization: site.customization }).where('id', '=', site.id).execute();
  });

  it('robots.txt, sitemap.xml, llms.txt and llms-full.txt; sites that are not public are never listed', async () => {
    const origin = new URL(t.config.publicUrl).origin;
    const robots = await get(`${base}robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.text).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${origin}${base}sitemap.xml\n`);
    const sitemap = await get(`${base}sitemap.xml`);
    expect(sitemap.headers['content-type']).toBe('application/xml; charset=utf-8');
    const locs = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([`${origin}${base}getting-started`, `${origin}${base}getting-started/installation`, `${origin}${base}configuration`]);
    const llms = await get(`${base}llms.txt`);
    expect(llms.text).toContain('# Acme Docs\n\n## Guides\n\n');
    expect(llms.text).toContain(`- [Getting started](${origin}${base}getting-started.md): Install & configure Acme.\n`);
    expect(llms.text).not.toContain('Secret');
    const full = await get(`${base}llms-full.txt`);
    expect(full.text).toContain('# Installation\n\nInstall it.\n');
    expect(full.text).toContain('## Retries');

    await req('PATCH', SITE, { visibility: 'unlisted' });
    const hiddenRobots = await get(`${base}robots.txt`);
    expect(hiddenRobots.text).toBe('User-agent: *\nDisallow: /\n');
    expect(hiddenRobots.headers['x-robots-tag']).toBe('noindex');
    const hiddenMap = await get(`${base}sitemap.xml`);
    expect(hiddenMap.text).not.toContain('<loc>');
    expect(hiddenMap.headers['x-robots-tag']).toBe('noindex');
    await req('PATCH', SITE, { visibility: 'share-link' });
    expect((await get(`${base}sitemap.xml`)).status).toBe(404);
    expect((await get(`${base}llms.txt`)).status).toBe(404);
    await req('PATCH', SITE, { visibility: 'public' });
    // The API's own host keeps crawlers out of the API.
    expect((await get('/robots.txt')).text).toBe('User-agent: *\nDisallow: /v1/\n');
  });

  it('a 404 inside the site keeps the header, search and navigation', async () => {
    const res = await get(`${base}no/such/page`);
    expect(res.status).toBe(404);
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.text).toContain('<h1>Page not found</h1>');
    expect(res.text).toContain('<form class="site-search"');
    expect(res.text).toContain('<nav aria-label="Pages"><ul class="page-tree">');
    expect(res.text).toContain(`href="${base}configuration"`);
  });

  it('instant search answers JSON with marked matches and section anchors', async () => {
    const res = await get(`${base}~search?q=retried&format=json`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body.count).toBe(1);
    expect(res.body.html).toContain(`<a role="option" id="search-option-0" aria-selected="false" class="so-page" href="${base}getting-started">`);
    expect(res.body.html).toContain(`href="${base}getting-started#retries"`);
    expect(res.body.html).toContain('<mark>retried</mark>');
  });

  it('compresses pages and the JSON API (br, gzip), and revalidates pages with ETags (304)', async () => {
    const plain = await t.app.inject({ method: 'GET', url: base });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await t.app.inject({ method: 'GET', url: base, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gz = await t.app.inject({ method: 'GET', url: base, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);

    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    expect(plain.headers['last-modified']).toMatch(/GMT$/);
    const again = await t.app.inject({ method: 'GET', url: base, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const changed = await t.app.inject({ method: 'GET', url: base, headers: { 'if-none-match': 'W/"other"' } });
    expect(changed.statusCode).toBe(200);

    const api = await t.app.inject({ method: 'GET', url: `${SITE}/published`, headers: { authorization: `Bearer ${org.admin.token}`, 'accept-encoding': 'br' } });
    expect(api.statusCode).toBe(200);
    expect(api.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(api.rawPayload).toString()).object).toBe('published-content-site');
  });
});
