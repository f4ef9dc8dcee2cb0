import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, createSpace, type TestOrganization } from '../../../test/factories.ts';
import type { Document } from '../../content/markdown/types.ts';
import { newId } from '../../lib/ids.ts';
import { editSpaceContent } from '../content/content.service.ts';

/*
 * Published sites over HTTP: rows inserted directly (the sites API is another module),
 * content built with editSpaceContent.
 */

interface SiteInput {
  title?: string;
  visibility?: 'public' | 'unlisted' | 'share-link' | 'visitor-auth';
  published?: boolean;
  basename?: string | null;
  hostname?: string | null;
  customization?: Record<string, unknown>;
  defaultSiteSpaceId?: string | null;
  defaultSectionId?: string | null;
}

let position = 0;

async function insertSite(t: TestApp, orgId: string, input: SiteInput = {}) {
  const id = newId();
  const now = t.clock.now().toISOString();
  const key = newId(32);
  await t.db
    .insertInto('sites')
    .values({
      id,
      organization_id: orgId,
      type: 'basic',
      title: input.title ?? 'Docs site',
      visibility: input.visibility ?? 'public',
      published: input.published === false ? 0 : 1,
      basename: input.basename === undefined ? `site-${id.toLowerCase()}` : input.basename,
      hostname: input.hostname ?? null,
      proxy: null,
      adaptive_content: 0,
      agents_context: 'included',
      default_site_space_id: input.defaultSiteSpaceId ?? null,
      default_site_section_id: input.defaultSectionId ?? null,
      customization: JSON.stringify(input.customization ?? {}),
      adaptive_schema: null,
      adaptive_schema_updated_at: null,
      visitor_auth_key: key,
      created_by: 'test',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { id, key, basename: input.basename === undefined ? `site-${id.toLowerCase()}` : input.basename };
}

async function insertSection(t: TestApp, siteId: string, input: { title: string; path: string; condition?: string; groupId?: string }) {
  const id = newId();
  await t.db
    .insertInto('site_sections')
    .values({
      id,
      site_id: siteId,
      title: input.title,
      description: null,
      icon: null,
      path: input.path,
      condition: input.condition ?? null,
      section_group_id: input.groupId ?? null,
      position: ++position,
      created_at: t.clock.now().toISOString(),
    })
    .execute();
  return id;
}

async function insertSiteSpace(
  t: TestApp,
  siteId: string,
  spaceId: string,
  input: { path: string; sectionId?: string | null; title?: string; condition?: string; customization?: Record<string, unknown> },
) {
  const id = newId();
  await t.db
    .insertInto('site_spaces')
    .values({
      id,
      site_id: siteId,
      section_id: input.sectionId ?? null,
      space_id: spaceId,
      path: input.path,
      title: input.title ?? null,
      condition: input.condition ?? null,
      customization: JSON.stringify(input.customization ?? {}),
      position: ++position,
      created_at: t.clock.now().toISOString(),
    })
    .execute();
  return id;
}

async function insertShareLink(t: TestApp, siteId: string, key: string, active = true) {
  await t.db
    .insertInto('site_share_links')
    .values({ id: newId(), site_id: siteId, name: null, key, active: active ? 1 : 0, created_at: t.clock.now().toISOString() })
    .execute();
}

async function jwt(key: string, claims: Record<string, unknown>, expiresIn = '1h') {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(expiresIn).sign(new TextEncoder().encode(key));
}

const text = (s: string) => ({ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: s, marks: [] }] });

/** The value of `name` in a Set-Cookie header list, and the whole header. */
function setCookie(headers: Record<string, unknown>, name: string): { value: string; header: string } | null {
  const raw = headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  for (const header of list as string[]) {
    if (header.startsWith(`${name}=`)) return { value: header.slice(name.length + 1).split(';')[0], header };
  }
  return null;
}

describe('published sites', () => {
  let t: TestApp;
  let org: TestOrganization;
  let guides: string; // space: Getting started (+ Install child), Reference, a hidden page, a group
  let api: string; // space: API overview
  let extra: string; // space: Extra
  let pageIds: Record<string, string> = {};

  const get = (url: string, headers: Record<string, string> = {}) => t.request('GET', url, { headers });

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t);
    guides = (await createSpace(t, { organization: org, title: 'Guides' })).id;
    api = (await createSpace(t, { organization: org, title: 'API' })).id;
    extra = (await createSpace(t, { organization: org, title: 'Extra' })).id;
    await editSpaceContent(t.app.deps, api, org.admin.id, (e) => {
      pageIds.apiOverview = e.insertPage({ title: 'API overview', markdown: 'Call the **API**.\n' });
    });
    await editSpaceContent(t.app.deps, extra, org.admin.id, (e) => {
      pageIds.extra = e.insertPage({ title: 'Extra page', markdown: 'Extra content.\n' });
    });
    await editSpaceContent(t.app.deps, guides, org.admin.id, (e) => {
      const file = e.addFile({ name: 'logo.png', contentType: 'image/png', bytes: Buffer.from('not really a png') });
      pageIds.reference = e.insertPage({ title: 'Reference', markdown: '## Options\n\nAll the options.\n' }, { index: 0 });
      const doc: Document = {
        object: 'document',
        data: {},
        nodes: [
          { object: 'block', type: 'heading-1', data: {}, nodes: [text('Welcome')] },
          {
            object: 'block',
            type: 'paragraph',
            data: {},
            nodes: [
              text('See '),
              { object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'page', page: pageIds.reference } }, nodes: [text('the reference')] },
              text(' and '),
              { object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'page', page: pageIds.apiOverview, space: api } }, nodes: [text('the API')] },
              text(' <script>alert(1)</script>'),
            ],
          },
          { object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: file.id }, alt: 'Logo' }, fragments: [] },
          {
            object: 'block',
            type: 'image',
            isVoid: true,
            data: { ref: { kind: 'url', url: 'https://cdn.example.com/flow.png' } },
            fragments: [{ object: 'fragment', fragment: 'caption', nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('How a request flows')] }] }],
          },
          { object: 'block', type: 'hint', data: { style: 'warning' }, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('Careful.')] }] },
        ],
      };
      pageIds.start = e.insertPage(
        { title: 'Getting started', document: doc, pages: [{ title: 'Install', markdown: 'Run `npm install`.\n' }] },
        { index: 0 },
      );
      pageIds.install = e.childrenOf(pageIds.start)[0].id;
      pageIds.hidden = e.insertPage({ title: 'Secret page', hidden: true, markdown: 'Hidden but reachable.\n' });
      pageIds.group = e.insertPage({ title: 'More', type: 'group', pages: [{ title: 'In the group', markdown: 'Grouped.\n' }] });
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('a public site without sections', () => {
    let site: { id: string; basename: string | null };
    beforeAll(async () => {
      site = await insertSite(t, org.id, {
        title: 'Acme Docs',
        customization: {
          styling: { primaryColor: { light: '#ff5500', dark: '#ffaa77' }, tint: { color: { light: '#fff7f0', dark: '#221100' } } },
          header: {
            logo: { light: 'https://cdn.example.com/logo.png', dark: 'https://cdn.example.com/logo-dark.png' },
            links: [
              { title: 'Homepage', to: { kind: 'url', url: 'https://acme.example.com' } },
              { title: 'Evil', to: { kind: 'url', url: 'javascript:alert(1)' } },
              { title: 'Pro only', to: { kind: 'url', url: 'https://pro.example.com' }, condition: 'visitor.claims.plan == "pro"' },
            ],
          },
          footer: { copyright: '© Acme <Corp>', groups: [{ title: 'Company', links: [{ title: 'About', to: { kind: 'url', url: 'https://acme.example.com/about' } }] }] },
          announcement: { enabled: true, message: 'Version 2 is out', style: 'info', link: { title: 'Read more', to: { kind: 'page', page: pageIds.reference } } },
          themes: { default: 'dark', toggeable: true },
        },
      });
      await insertSiteSpace(t, site.id, guides, { path: 'guides', title: 'Guides' });
      await insertSiteSpace(t, site.id, api, { path: 'api', title: 'API' });
    });

    it('serves the first page of the default site space at the site root', async () => {
      const res = await get(`/sites/${site.basename}/`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['x-robots-tag']).toBeUndefined();
      expect(res.text).not.toContain('name="robots"');
      expect(res.text).toMatch(/^<!doctype html>/);
      expect(res.text).toContain('<title>Getting started | Acme Docs</title>');
      expect(res.text).toContain('<h1>Getting started</h1>');
      expect(res.text).toContain('<h2 id="welcome">Welcome');
      expect(res.text).toContain('<div class="hint hint-warning" role="note">');
      // Escaped, never raw.
      expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(res.text).not.toContain('<script>alert(1)</script>');
      // The same site by id.
      const byId = await get(`/sites/${site.id}`);
      expect(byId.status).toBe(200);
      expect(byId.text).toContain('<h1>Getting started</h1>');
    });

    it('maps page links to published URLs and signs file URLs', async () => {
      const res = await get(`/sites/${site.basename}/`);
      const base = `/sites/${site.basename}/`;
      expect(res.text).toContain(`<a href="${base}reference">the reference</a>`);
      // A page of another site space of the site: under that site space's path.
      expect(res.text).toContain(`<a href="${base}api/api-overview">the API</a>`);
      const img = /<img src="([^"]+)" alt="Logo"/.exec(res.text);
      expect(img).not.toBeNull();
      const src = img![1].replace(/&amp;/g, '&');
      expect(src).toMatch(new RegExp(`^http://quire\\.test/downloads/blobs/${guides}/`));
      const blob = await t.app.inject({ method: 'GET', url: src.replace('http://quire.test', '') });
      expect(blob.statusCode).toBe(200);
      expect(blob.body).toBe('not really a png');
    });

    it('gives a captioned image without alt text its caption as alt text (issue 29 item 5)', async () => {
      const res = await get(`/sites/${site.basename}/`);
      // (Stored through the editor, a lone image with a caption is kept as an inline image with its caption.)
      expect(res.text).toMatch(/<img src="https:\/\/cdn\.example\.com\/flow\.png" alt="How a request flows"/);
    });

    it('renders the sidebar, the space switcher and customizations', async () => {
      const res = await get(`/sites/${site.basename}/getting-started/install`);
      expect(res.status).toBe(200);
      const html = res.text;
      const base = `/sites/${site.basename}/`;
      expect(html).toContain(`<a href="${base}getting-started/install" aria-current="page">Install</a>`);
      // The current page's parent is open.
      expect(html).toContain(`<details open><summary><a href="${base}getting-started">Getting started</a></summary>`);
      expect(html).not.toContain('Secret page'); // hidden pages stay out of the sidebar
      expect(html).toContain('<div class="group-title">More</div>');
      // Switcher: both site spaces, the current one marked.
      expect(html).toContain(`<a href="${base}" aria-current="true">Guides</a>`);
      expect(html).toContain(`<a href="${base}api/">API</a>`);
      // Customization.
      expect(html).toContain('--primary:#ff5500');
      expect(html).toContain('--primary:#ffaa77');
      expect(html).toContain('--tint:#fff7f0');
      expect(html).toContain('data-theme="dark"');
      expect(html).toContain('id="theme-toggle"');
      expect(html).toContain('src="https://cdn.example.com/logo.png"');
      expect(html).toContain('src="https://cdn.example.com/logo-dark.png"');
      expect(html).toContain('<a href="https://acme.example.com">Homepage</a>');
      expect(html).not.toContain('javascript:');
      expect(html).not.toContain('Pro only'); // a header link whose condition does not hold
      expect(html).toContain('© Acme &lt;Corp&gt;');
      expect(html).toContain('<a href="https://acme.example.com/about">About</a>');
      expect(html).toContain('Version 2 is out');
      expect(html).toContain(`<a href="${base}reference">Read more</a>`);
      // Outline and pagination.
      expect(html).toContain(`<form class="site-search" role="search" action="${base}~search" method="get">`);
      expect(res.headers['content-security-policy']).toContain("script-src 'sha256-");
    });

    it('serves pages of a named site space and of the default one with or without its path', async () => {
      const base = `/sites/${site.basename}/`;
      const api_ = await get(`${base}api/api-overview`);
      expect(api_.status).toBe(200);
      expect(api_.text).toContain('<h1>API overview</h1>');
      expect(api_.text).toContain('Call the <strong>API</strong>.');
      const apiRoot = await get(`${base}api`);
      expect(apiRoot.text).toContain('<h1>API overview</h1>');
      const explicit = await get(`${base}guides/reference`);
      expect(explicit.status).toBe(200);
      expect(explicit.text).toContain('<h1>Reference</h1>');
      const implicit = await get(`${base}reference`);
      expect(implicit.text).toContain('<h1>Reference</h1>');
      expect(implicit.text).toContain('<h3 id="options">Options');
    });

    it('serves hidden pages by URL with noindex, and redirects groups to their first page', async () => {
      const base = `/sites/${site.basename}/`;
      const hidden = await get(`${base}secret-page`);
      expect(hidden.status).toBe(200);
      expect(hidden.text).toContain('<meta name="robots" content="noindex">');
      const group = await get(`${base}more`);
      expect(group.status).toBe(302);
      expect(group.headers.location).toBe(`${base}more/in-the-group`);
    });

    it('answers 404 pages for unknown pages, sites and unpublished sites', async () => {
      const missing = await get(`/sites/${site.basename}/no-such-page`);
      expect(missing.status).toBe(404);
      expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(missing.text).toContain('Page not found');
      expect((await get('/sites/no-such-site/')).status).toBe(404);
      const draft = await insertSite(t, org.id, { published: false });
      await insertSiteSpace(t, draft.id, guides, { path: 'guides' });
      const unpublished = await get(`/sites/${draft.basename}/`);
      expect(unpublished.status).toBe(404);
      expect(unpublished.text).not.toContain('Getting started');
    });

    it('shows new content once the space moves to a new revision', async () => {
      const other = await insertSite(t, org.id);
      await insertSiteSpace(t, other.id, extra, { path: 'extra' });
      expect((await get(`/sites/${other.basename}/`)).text).toContain('Extra content.');
      await editSpaceContent(t.app.deps, extra, org.admin.id, (e) => e.updatePage(pageIds.extra, { markdown: 'Changed content.\n' }));
      const after = await get(`/sites/${other.basename}/`);
      expect(after.text).toContain('Changed content.');
      expect(after.text).not.toContain('Extra content.');
      // Rows are read per request: a site unpublished now is gone now.
      await t.db.updateTable('sites').set({ published: 0 }).where('id', '=', other.id).execute();
      expect((await get(`/sites/${other.basename}/`)).status).toBe(404);
    });

    it('leaves the API alone', async () => {
      const me = await t.request('GET', '/v1/user', { token: org.admin.token });
      expect(me.status).toBe(200);
      const unknown = await t.request('GET', '/v1/no-such-route');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe(404);
      const bare = await t.request('GET', '/nothing-here', { headers: { host: 'quire.test' } });
      expect(bare.status).toBe(404);
      expect(bare.body.error.code).toBe(404);
    });
  });

  describe('a site with sections', () => {
    let site: { id: string; key: string; basename: string | null };
    let base: string;
    beforeAll(async () => {
      site = await insertSite(t, org.id, { visibility: 'visitor-auth', title: 'Sectioned' });
      base = `/sites/${site.basename}/`;
      const docs = await insertSection(t, site.id, { title: 'Documentation', path: 'docs' });
      const reference = await insertSection(t, site.id, { title: 'API reference', path: 'reference' });
      const pro = await insertSection(t, site.id, { title: 'Pro features', path: 'pro', condition: 'visitor.claims.plan == "pro"' });
      await insertSiteSpace(t, site.id, guides, { path: 'guides', sectionId: docs, title: 'Guides' });
      await insertSiteSpace(t, site.id, extra, { path: 'extra', sectionId: docs, title: 'Beta extras', condition: 'visitor.claims.beta == true' });
      await insertSiteSpace(t, site.id, api, { path: 'v1', sectionId: reference, title: 'v1' });
      await insertSiteSpace(t, site.id, extra, { path: 'pro-space', sectionId: pro, title: 'Pro space' });
      // A root site space is not served once the site has sections.
      await insertSiteSpace(t, site.id, api, { path: 'stray' });
    });

    async function visit(path: string, claims: Record<string, unknown>) {
      const token = await jwt(site.key, claims);
      const first = await get(`${base}${path}${path.includes('?') ? '&' : '?'}jwt_token=${token}`);
      expect(first.status).toBe(302);
      const cookie = setCookie(first.headers, 'quire_site_visitor');
      expect(cookie).not.toBeNull();
      return get(`${base}${path}`, { cookie: `quire_site_visitor=${cookie!.value}` });
    }

    it('refuses visitors without a valid token with a 401 page', async () => {
      const none = await get(base);
      expect(none.status).toBe(401);
      expect(none.text).toContain('Sign in required');
      expect(none.text).not.toContain('Sectioned');
      const wrongKey = await get(`${base}?jwt_token=${await jwt('another-key-entirely', { plan: 'pro' })}`);
      expect(wrongKey.status).toBe(401);
      const expired = await get(`${base}?jwt_token=${await jwt(site.key, {}, '-1m')}`);
      expect(expired.status).toBe(401);
      const garbage = await get(base, { cookie: 'quire_site_visitor=not.a.jwt' });
      expect(garbage.status).toBe(401);
      expect(setCookie(garbage.headers, 'quire_site_visitor')?.header).toContain('Max-Age=0');
      const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"plan":"pro"}').toString('base64url')}.`;
      expect((await get(`${base}?jwt_token=${unsigned}`)).status).toBe(401);
    });

    it('keeps a valid token in an HttpOnly cookie scoped to the site and redirects to the clean URL', async () => {
      const token = await jwt(site.key, { plan: 'free' });
      const first = await get(`${base}reference?jwt_token=${token}&utm=x`);
      expect(first.status).toBe(302);
      expect(first.headers.location).toBe(`${base}reference?utm=x`);
      const cookie = setCookie(first.headers, 'quire_site_visitor')!;
      expect(cookie.value).toBe(token);
      expect(cookie.header).toContain('HttpOnly');
      expect(cookie.header).toContain(`Path=/sites/${site.basename}`);
      expect(cookie.header).toMatch(/Max-Age=\d+/);
      const page = await get(`${base}reference`, { cookie: `quire_site_visitor=${token}` });
      expect(page.status).toBe(200);
      expect(page.headers['x-robots-tag']).toBe('noindex');
      expect(page.headers['cache-control']).toBe('private, no-store');
    });

    it('serves the default section at the root and each section at its path', async () => {
      const root = await visit('', { plan: 'free' });
      expect(root.status).toBe(200);
      expect(root.text).toContain('<h1>Getting started</h1>');
      expect(root.text).toContain(`<a href="${base}" aria-current="page">Documentation</a>`);
      expect(root.text).toContain(`<a href="${base}reference/">API reference</a>`);
      const ref = await visit('reference', { plan: 'free' });
      expect(ref.text).toContain('<h1>API overview</h1>');
      expect(ref.text).toContain(`<a href="${base}reference/" aria-current="page">API reference</a>`);
      const full = await visit('reference/v1/api-overview', { plan: 'free' });
      expect(full.status).toBe(200);
      expect(full.text).toContain('<h1>API overview</h1>');
      const explicit = await visit('docs/guides/getting-started/install', { plan: 'free' });
      expect(explicit.text).toContain('<h1>Install</h1>');
      // The root site space of a sectioned site is not served.
      expect((await visit('stray/api-overview', { plan: 'free' })).status).toBe(404);
    });

    it('hides sections and site spaces whose condition the claims do not meet', async () => {
      const free = await visit('', { plan: 'free' });
      expect(free.text).not.toContain('Pro features');
      expect(free.text).not.toContain('Beta extras');
      expect((await visit('pro', { plan: 'free' })).status).toBe(404);
      expect((await visit('extra/extra-page', { plan: 'free' })).status).toBe(404);

      const pro = await visit('', { plan: 'pro', beta: true });
      expect(pro.text).toContain(`<a href="${base}pro/">Pro features</a>`);
      expect(pro.text).toContain(`<a href="${base}extra/">Beta extras</a>`);
      const proPage = await visit('pro', { plan: 'pro' });
      expect(proPage.status).toBe(200);
      expect(proPage.text).toContain('<h1>Extra page</h1>');
      expect((await visit('extra/extra-page', { beta: true })).status).toBe(200);
    });
  });

  describe('visibility', () => {
    it('unlisted sites are served with noindex', async () => {
      const site = await insertSite(t, org.id, { visibility: 'unlisted' });
      await insertSiteSpace(t, site.id, api, { path: 'api' });
      const res = await get(`/sites/${site.basename}/`);
      expect(res.status).toBe(200);
      expect(res.text).toContain('<meta name="robots" content="noindex">');
      expect(res.headers['x-robots-tag']).toBe('noindex');
      expect(res.headers['cache-control']).toBe('public, max-age=60');
    });

    it('share-link sites need an active share key, then remember it', async () => {
      const site = await insertSite(t, org.id, { visibility: 'share-link', title: 'Shared docs' });
      await insertSiteSpace(t, site.id, api, { path: 'api' });
      await insertShareLink(t, site.id, 'good-key-123');
      await insertShareLink(t, site.id, 'revoked-key-456', false);
      const base = `/sites/${site.basename}/`;

      for (const url of [base, `${base}?share=wrong`, `${base}?share=revoked-key-456`, `${base}api-overview`]) {
        const res = await get(url);
        expect(res.status, url).toBe(404);
        expect(res.text).not.toContain('Shared docs');
        expect(res.text).not.toContain('API overview');
      }
      expect((await get(base, { cookie: 'quire_site_share=revoked-key-456' })).status).toBe(404);

      const first = await get(`${base}api-overview?share=good-key-123`);
      expect(first.status).toBe(302);
      expect(first.headers.location).toBe(`${base}api-overview`);
      const cookie = setCookie(first.headers, 'quire_site_share')!;
      expect(cookie.value).toBe('good-key-123');
      expect(cookie.header).toContain('HttpOnly');
      expect(cookie.header).toContain(`Path=/sites/${site.basename};`);
      const page = await get(`${base}api-overview`, { cookie: `other=1; quire_site_share=${cookie.value}` });
      expect(page.status).toBe(200);
      expect(page.text).toContain('<h1>API overview</h1>');
      expect(page.headers['x-robots-tag']).toBe('noindex');
      // The share links of the sites API write the key as `?shareKey=`: accepted the same way.
      const viaApiLink = await get(`${base}api-overview?shareKey=good-key-123`);
      expect(viaApiLink.status).toBe(302);
      expect(viaApiLink.headers.location).toBe(`${base}api-overview`);
      expect(setCookie(viaApiLink.headers, 'quire_site_share')!.value).toBe('good-key-123');

      // Deactivating the link ends access, cookie or not.
      await t.db.updateTable('site_share_links').set({ active: 0 }).where('key', '=', 'good-key-123').execute();
      expect((await get(`${base}api-overview`, { cookie: `quire_site_share=${cookie.value}` })).status).toBe(404);
    });

    it('a share key of another site does not open this one', async () => {
      const a = await insertSite(t, org.id, { visibility: 'share-link' });
      const b = await insertSite(t, org.id, { visibility: 'share-link' });
      await insertSiteSpace(t, a.id, api, { path: 'api' });
      await insertSiteSpace(t, b.id, api, { path: 'api' });
      await insertShareLink(t, a.id, 'key-of-a');
      expect((await get(`/sites/${b.basename}/?share=key-of-a`)).status).toBe(404);
      expect((await get(`/sites/${a.basename}/?share=key-of-a`)).status).toBe(302);
    });

    it('visitor-auth claims drive conditions; other visitors have none', async () => {
      const site = await insertSite(t, org.id, { visibility: 'public' });
      const section = await insertSection(t, site.id, { title: 'Everyone', path: 'all' });
      const gated = await insertSection(t, site.id, { title: 'Gated', path: 'gated', condition: 'visitor.claims.plan == "pro"' });
      await insertSiteSpace(t, site.id, guides, { path: 'g', sectionId: section });
      await insertSiteSpace(t, site.id, api, { path: 'a', sectionId: gated });
      // A public site ignores tokens: no claims, so the gated section stays hidden.
      const token = await jwt(site.key, { plan: 'pro' });
      const res = await get(`/sites/${site.basename}/?jwt_token=${token}`);
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('Gated');
      expect((await get(`/sites/${site.basename}/gated`)).status).toBe(404);
    });
  });

  describe('the search box', () => {
    it('searches the site spaces this visitor sees and links to their pages', async () => {
      const site = await insertSite(t, org.id, { visibility: 'public' });
      const everyone = await insertSection(t, site.id, { title: 'Guides', path: 'guides' });
      const gated = await insertSection(t, site.id, { title: 'Gated', path: 'gated', condition: 'visitor.claims.plan == "pro"' });
      await insertSiteSpace(t, site.id, guides, { path: 'g', sectionId: everyone });
      await insertSiteSpace(t, site.id, api, { path: 'a', sectionId: gated });
      const base = `/sites/${site.basename}/`;

      // Every page carries the box; the page's CSP lets it submit to the site.
      const home = await get(base);
      expect(home.text).toContain(`<form class="site-search" role="search" action="${base}~search" method="get">`);
      expect(String(home.headers['content-security-policy'])).toContain("form-action 'self'");

      const found = await get(`${base}~search?q=install`);
      expect(found.status).toBe(200);
      expect(found.headers['x-robots-tag']).toBe('noindex');
      expect(found.text).toMatch(/\d+ pages? match(es)? “install”/);
      // The best match first: the page titled Install, linked on this site.
      const first = /class="search-result" href="([^"]+)">(.*?)<\/a>/.exec(found.text);
      expect(first?.slice(1)).toEqual([`${base}getting-started/install`, '<mark>Install</mark>']);
      expect(found.text).toContain('value="install"');
      // Stemming and the last word as a prefix, as in the API's search.
      expect((await get(`${base}~search?q=optio`)).text).toContain('>Reference</a>');
      // Matched words are marked (the same on both databases), section hits link to their anchors.
      expect((await get(`${base}~search?q=optio`)).text).toContain(`<a class="search-section" href="${base}reference#options"><strong><mark>Options</mark></strong>`);
      // The API space sits in a section this visitor does not see: its pages are not searched.
      expect((await get(`${base}~search?q=api%20overview`)).text).toContain('0 pages match');
      // Text is escaped; an empty query asks for words.
      const hostile = await get(`${base}~search?q=${encodeURIComponent('<script>x</script>')}`);
      expect(hostile.text).not.toContain('<script>x</script>');
      expect((await get(`${base}~search`)).text).toContain('Type words to find in this site.');
    });

    it('follows visibility: a visitor-auth site searches only with a valid token, and claims open gated spaces', async () => {
      const site = await insertSite(t, org.id, { visibility: 'visitor-auth' });
      const everyone = await insertSection(t, site.id, { title: 'Guides', path: 'guides' });
      const gated = await insertSection(t, site.id, { title: 'Gated', path: 'gated', condition: 'visitor.claims.plan == "pro"' });
      await insertSiteSpace(t, site.id, guides, { path: 'g', sectionId: everyone });
      await insertSiteSpace(t, site.id, api, { path: 'a', sectionId: gated });
      const base = `/sites/${site.basename}/`;
      expect((await get(`${base}~search?q=api`)).status).toBe(401);
      const token = await jwt(site.key, { plan: 'pro' });
      const signedIn = await get(`${base}~search?q=api&jwt_token=${token}`);
      expect(signedIn.status).toBe(302);
      const cookie = setCookie(signedIn.headers, 'quire_site_visitor')!;
      const results = await get(`${base}~search?q=api%20overview`, { cookie: `quire_site_visitor=${cookie.value}` });
      expect(results.status).toBe(200);
      expect(results.text).toContain('><mark>API</mark> <mark>overview</mark></a>');
      expect(results.headers['cache-control']).toBe('private, no-store');
    });
  });

  describe('custom hostnames', () => {
    let site: { id: string; basename: string | null };
    beforeAll(async () => {
      site = await insertSite(t, org.id, { hostname: 'docs.acme.test', basename: null });
      await insertSiteSpace(t, site.id, guides, { path: 'guides' });
    });

    it('serves the site at / of its hostname, with links rooted there', async () => {
      const root = await get('/', { host: 'docs.acme.test' });
      expect(root.status).toBe(200);
      expect(root.text).toContain('<h1>Getting started</h1>');
      expect(root.text).toContain('<a href="/reference">the reference</a>');
      const page = await get('/getting-started/install', { host: 'DOCS.acme.test:8443' });
      expect(page.status).toBe(200);
      expect(page.text).toContain('<h1>Install</h1>');
      expect((await get('/nope', { host: 'docs.acme.test' })).status).toBe(404);
      // The same site under PUBLIC_URL/sites/<id>/ too.
      expect((await get(`/sites/${site.id}/reference`)).text).toContain('<h1>Reference</h1>');
    });

    it('keeps API routes working on any host, and unknown hosts get the usual 404', async () => {
      const me = await t.request('GET', '/v1/user', { token: org.admin.token, headers: { host: 'docs.acme.test' } });
      expect(me.status).toBe(200);
      const other = await get('/', { host: 'unknown.example.test' });
      expect(other.status).toBe(404);
      expect(other.body.error.code).toBe(404);
      const post = await t.request('POST', '/', { headers: { host: 'docs.acme.test' } });
      expect(post.status).toBe(404);
    });
  });

  describe('site space customization', () => {
    it('overrides the site customization for that site space, and themes can be fixed', async () => {
      const site = await insertSite(t, org.id, {
        customization: { styling: { primaryColor: { light: '#111111', dark: '#222222' } }, themes: { default: 'light', toggeable: false } },
      });
      await insertSiteSpace(t, site.id, guides, { path: 'guides' });
      await insertSiteSpace(t, site.id, api, { path: 'api', customization: { styling: { primaryColor: { light: '#333333', dark: '#444444' } } } });
      const guidesPage = await get(`/sites/${site.basename}/`);
      expect(guidesPage.text).toContain('--primary:#111111');
      // A fixed theme without the toggle: the server's theme stands (no system preference, no stored choice).
      expect(guidesPage.text).not.toContain('id="theme-toggle"');
      expect(guidesPage.text).toContain('<html lang="en" data-theme="light">');
      const apiPage = await get(`/sites/${site.basename}/api`);
      expect(apiPage.text).toContain('--primary:#333333');
      expect(apiPage.text).not.toContain('--primary:#111111');
    });

    it('ignores colors that are not hex colors', async () => {
      const site = await insertSite(t, org.id, { customization: { styling: { primaryColor: { light: 'red;}</style><script>x()</script>' } } } });
      await insertSiteSpace(t, site.id, guides, { path: 'guides' });
      const res = await get(`/sites/${site.basename}/`);
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('x()');
    });
  });
});
