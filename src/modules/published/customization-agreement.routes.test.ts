import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, type TestOrganization } from '../../../test/factories.ts';
import { editSpaceContent } from '../content/content.service.ts';
import { withDefaults } from '../sites/site-customization.ts';
import { readerCustomization } from './published.service.ts';

/*
 * The management API and the published reader merge a site space's customization by one
 * rule (src/modules/sites/site-customization.ts): a site built through the API, then the
 * API's effective customization of a site space compared with what the reader renders with.
 */

describe('API and published site agree on the customization', () => {
  let t: TestApp;
  let org: TestOrganization;
  let spaceId: string;

  const O = () => `/v1/orgs/${org.id}`;
  const req = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown) => t.request(method, url, { token: org.admin.token, body });

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t);
    spaceId = (await req('POST', `${O()}/spaces`, { title: 'Guides' })).body.id;
    await editSpaceContent(t.app.deps, spaceId, org.admin.id, (e) => {
      e.insertPage({ title: 'Welcome', markdown: 'Hello.\n' });
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a site space's effective customization is what the reader renders with", async () => {
    const site = await req('POST', `${O()}/sites`, { title: 'Agreement', spaces: [spaceId], visibility: 'public' });
    expect(site.status, site.text).toBe(201);
    const SITE = `${O()}/sites/${site.body.id}`;
    expect((await req('POST', `${SITE}/publish`)).status).toBe(200);
    const put = await req('PUT', `${SITE}/customization`, {
      title: 'Acme Docs',
      styling: { primaryColor: { light: '#ff5500', dark: '#ffaa77' } },
      favicon: { icon: { light: 'https://cdn.example.com/site-icon.png', dark: 'https://cdn.example.com/site-icon-dark.png' } },
      header: { preset: 'default', logo: { light: 'https://cdn.example.com/logo.png', dark: 'https://cdn.example.com/logo-dark.png' }, links: [] },
      themes: { default: 'dark', toggeable: false },
    });
    expect(put.status, put.text).toBe(200);
    const siteSpace = (await req('GET', `${SITE}/site-spaces`)).body.items[0];
    // Overrides: a favicon of another kind (a union: replaced whole, not merged with the
    // site's icon), one color of the pair, the theme.
    const over = await req('PATCH', `${SITE}/site-spaces/${siteSpace.id}/customization`, {
      favicon: { emoji: '1f680' },
      styling: { primaryColor: { light: '#112233', dark: '#ffaa77' } },
      themes: { default: 'light' },
    });
    expect(over.status, over.text).toBe(200);

    const api = (await req('GET', `${SITE}/site-spaces/${siteSpace.id}/customization`)).body;
    expect(api.favicon).toEqual({ emoji: '1f680' });
    expect(api.themes).toEqual({ default: 'light', toggeable: false });
    const published = (await req('GET', `${SITE}/published`)).body;
    expect(published.customizations.siteSpaces[siteSpace.id]).toEqual({ ...api, hasOverrides: undefined });

    // What the reader renders with, read from the same rows, is the API's minus the defaults.
    const siteRow = await t.db.selectFrom('sites').select('customization').where('id', '=', site.body.id).executeTakeFirstOrThrow();
    const siteSpaceRow = await t.db.selectFrom('site_spaces').select('customization').where('id', '=', siteSpace.id).executeTakeFirstOrThrow();
    const { hasOverrides, ...effective } = api;
    expect(hasOverrides).toBe(true);
    expect(withDefaults(readerCustomization(siteRow, siteSpaceRow))).toEqual(effective);

    // And the page shows it: the space's theme and color, no site icon (the emoji favicon is not rendered: the built-in one).
    const page = await t.request('GET', new URL(siteSpace.urls.published).pathname);
    expect(page.status, page.text.slice(0, 300)).toBe(200);
    expect(page.text).toContain('#112233');
    expect(page.text).toContain('data-theme="light"');
    expect(page.text).not.toContain('site-icon');
    expect(page.text).toContain('<title>Welcome | Acme Docs</title>');
  });
});
