import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import type { TestApp } from '../app.ts';
import { createOrganization, type TestOrganization } from '../factories.ts';
import { spaceWith, TestBrowser } from './fixtures.ts';
import { servedTestApp } from './served-app.ts';

/*
 * Published sites in a real browser: Debian's chromium (installed by .ci/run when missing)
 * driven by playwright-core, against a Quire app listening on 127.0.0.1.
 */

// Evaluated in the page, not in Node: the browser's globals.
declare const document: { documentElement: { getAttribute(name: string): string | null }; body: unknown };
declare function getComputedStyle(element: unknown): { backgroundColor: string; borderBottomColor: string };

const SCREENSHOT = '/tmp/quire-published-site.png';

async function insertSite(t: TestApp, orgId: string, input: { title: string; visibility?: string; customization?: object }) {
  const id = newId();
  const now = t.clock.now().toISOString();
  const key = newId(32);
  const basename = `b-${id.toLowerCase()}`;
  await t.db
    .insertInto('sites')
    .values({
      id,
      organization_id: orgId,
      type: 'basic',
      title: input.title,
      visibility: (input.visibility ?? 'public') as 'public',
      published: 1,
      basename,
      hostname: null,
      proxy: null,
      adaptive_content: 0,
      agents_context: 'included',
      default_site_space_id: null,
      default_site_section_id: null,
      customization: JSON.stringify(input.customization ?? {}),
      adaptive_schema: null,
      adaptive_schema_updated_at: null,
      visitor_auth_key: key,
      created_by: 'test',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { id, key, basename };
}

let position = 0;

async function insertSection(t: TestApp, siteId: string, title: string, path: string, condition: string | null = null) {
  const id = newId();
  await t.db
    .insertInto('site_sections')
    .values({ id, site_id: siteId, title, description: null, icon: null, path, condition, section_group_id: null, position: ++position, created_at: t.clock.now().toISOString() })
    .execute();
  return id;
}

async function insertSiteSpace(t: TestApp, siteId: string, spaceId: string, path: string, sectionId: string | null, title: string) {
  await t.db
    .insertInto('site_spaces')
    .values({ id: newId(), site_id: siteId, section_id: sectionId, space_id: spaceId, path, title, condition: null, customization: '{}', position: ++position, created_at: t.clock.now().toISOString() })
    .execute();
}

const PAGE_MARKDOWN = `Welcome to **Acme**. This guide walks you through the basics.

## Install

\`\`\`bash
npm install acme
\`\`\`

{% hint style="info" %}
You need Node.js 20 or later.
{% endhint %}

## Configure

| Option | Default |
| --- | --- |
| port | 8080 |
`;

describe('published sites in a browser', { timeout: 120_000 }, () => {
  let t: TestApp;
  let url: string;
  let browser: TestBrowser;
  let org: TestOrganization;
  let publicSite: { basename: string };
  let sharedSite: { id: string; basename: string };
  let authSite: { key: string; basename: string };

  const newPage = () => browser.page({ viewport: { width: 1280, height: 860 } }, false);

  beforeAll(async () => {
    ({ t, url } = await servedTestApp());
    browser = await TestBrowser.launch();
    org = await createOrganization(t);
    const guides = await spaceWith(t, org, 'Guides', (e) => {
      const start = e.insertPage({ title: 'Getting started', markdown: PAGE_MARKDOWN, description: 'Everything to begin with.' });
      e.insertPage({ title: 'Installation', markdown: 'Install it.\n' }, { parent: start });
      e.insertPage({ title: 'Configuration', markdown: '## Files\n\nThe configuration file.\n' });
      e.insertPage({ title: 'Troubleshooting', markdown: 'When things go wrong.\n' });
    });
    const api = await spaceWith(t, org, 'API', (e) => {
      e.insertPage({ title: 'API overview', markdown: 'The REST API.\n' });
    });
    const pro = await spaceWith(t, org, 'Pro', (e) => {
      e.insertPage({ title: 'Pro features', markdown: 'Only for pro.\n' });
    });

    const customization = {
      styling: { primaryColor: { light: '#e4572e', dark: '#ff8a65' } },
      header: { links: [{ title: 'Website', to: { kind: 'url', url: 'https://acme.example.com' } }] },
      announcement: { enabled: true, message: 'Acme 2.0 is out!', style: 'info' },
      footer: { copyright: '© 2026 Acme Inc.' },
      themes: { default: 'light', toggeable: true },
    };
    const pub = await insertSite(t, org.id, { title: 'Acme Docs', customization });
    const docs = await insertSection(t, pub.id, 'Guides', 'guides');
    const reference = await insertSection(t, pub.id, 'API reference', 'api');
    await insertSiteSpace(t, pub.id, guides, 'latest', docs, 'Guides');
    await insertSiteSpace(t, pub.id, api, 'v1', reference, 'v1');
    publicSite = pub;

    sharedSite = await insertSite(t, org.id, { title: 'Shared Docs', visibility: 'share-link' });
    await insertSiteSpace(t, sharedSite.id, guides, 'guides', null, 'Guides');
    await t.db
      .insertInto('site_share_links')
      .values({ id: newId(), site_id: sharedSite.id, name: 'partners', key: 'partner-key-42', active: 1, created_at: t.clock.now().toISOString() })
      .execute();

    const auth = await insertSite(t, org.id, { title: 'Customer Docs', visibility: 'visitor-auth' });
    const everyone = await insertSection(t, auth.id, 'Guides', 'guides');
    const gated = await insertSection(t, auth.id, 'Pro', 'pro', 'visitor.claims.plan == "pro"');
    await insertSiteSpace(t, auth.id, guides, 'guides', everyone, 'Guides');
    await insertSiteSpace(t, auth.id, pro, 'pro-space', gated, 'Pro');
    authSite = auth;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows a site with its sections, sidebar and page', async () => {
    const page = await newPage();
    const response = await page.goto(`${url}/sites/${publicSite.basename}/`);
    expect(response?.status()).toBe(200);
    expect(await page.locator('main h1').textContent()).toBe('Getting started');
    expect(await page.title()).toBe('Getting started | Acme Docs');
    expect(await page.locator('nav.sections a').allTextContents()).toEqual(['Guides', 'API reference']);
    expect(await page.locator('nav.sections a[aria-current=page]').textContent()).toBe('Guides');
    const sidebar = await page.locator('aside.sidebar .page-tree a').allTextContents();
    expect(sidebar).toEqual(expect.arrayContaining(['Getting started', 'Installation', 'Configuration', 'Troubleshooting']));
    expect(await page.locator('.hint-info').textContent()).toContain('Node.js 20');
    expect(await page.locator('main table td').first().textContent()).toBe('port');
    expect(await page.locator('.announcement').textContent()).toContain('Acme 2.0 is out!');
    expect(await page.locator('aside.outline a').allTextContents()).toEqual(['Install', 'Configure']);
    // The primary color of the customization reaches the page.
    const tabColor = await page.locator('nav.sections a[aria-current=page]').evaluate((el) => getComputedStyle(el).borderBottomColor);
    expect(tabColor).toBe('rgb(228, 87, 46)');

    await page.screenshot({ path: SCREENSHOT, fullPage: false });

    // Navigation: a sidebar link, then the other section's tab.
    await page.locator('aside.sidebar a', { hasText: 'Configuration' }).click();
    await page.waitForURL(`${url}/sites/${publicSite.basename}/configuration`);
    expect(await page.locator('main h1').textContent()).toBe('Configuration');
    expect(await page.locator('aside.sidebar a[aria-current=page]').textContent()).toBe('Configuration');
    await page.locator('nav.sections a', { hasText: 'API reference' }).click();
    await page.waitForURL(`${url}/sites/${publicSite.basename}/api/`);
    expect(await page.locator('main h1').textContent()).toBe('API overview');
  });

  it('switches between light and dark themes and remembers the choice', async () => {
    const page = await newPage();
    await page.goto(`${url}/sites/${publicSite.basename}/`);
    const theme = () => page.evaluate(() => document.documentElement.getAttribute('data-theme'));
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await theme()).toBe('light');
    expect(await background()).toBe('rgb(255, 255, 255)');
    await page.locator('#theme-toggle').click();
    expect(await theme()).toBe('dark');
    expect(await background()).toBe('rgb(15, 17, 21)');
    // The dark primary color applies in the dark theme.
    const tabColor = await page.locator('nav.sections a[aria-current=page]').evaluate((el) => getComputedStyle(el).borderBottomColor);
    expect(tabColor).toBe('rgb(255, 138, 101)');
    await page.reload();
    expect(await theme()).toBe('dark');
    await page.locator('#theme-toggle').click();
    expect(await theme()).toBe('light');
    expect(await background()).toBe('rgb(255, 255, 255)');
  });

  it('refuses a share-link site without the key and shows it with the key', async () => {
    const page = await newPage();
    const refused = await page.goto(`${url}/sites/${sharedSite.basename}/`);
    expect(refused?.status()).toBe(404);
    expect(await page.locator('h2').textContent()).toBe('Page not found');
    expect(await page.content()).not.toContain('Shared Docs');

    const shown = await page.goto(`${url}/sites/${sharedSite.basename}/?share=partner-key-42`);
    expect(shown?.status()).toBe(200);
    // The key moved to a cookie: the address bar no longer shows it.
    expect(page.url()).toBe(`${url}/sites/${sharedSite.basename}/`);
    expect(await page.locator('main h1').textContent()).toBe('Getting started');
    const cookies = await page.context().cookies();
    const share = cookies.find((c) => c.name === 'quire_site_share');
    expect(share?.httpOnly).toBe(true);
    expect(share?.path).toBe(`/sites/${sharedSite.basename}`);
    // Later visits need no key.
    const later = await page.goto(`${url}/sites/${sharedSite.basename}/troubleshooting`);
    expect(later?.status()).toBe(200);
    expect(await page.locator('main h1').textContent()).toBe('Troubleshooting');
  });

  it('honours a signed visitor JWT, and its claims decide which sections show', async () => {
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(authSite.key));
    const base = `${url}/sites/${authSite.basename}/`;

    const anonymous = await newPage();
    expect((await anonymous.goto(base))?.status()).toBe(401);
    expect(await anonymous.locator('h2').textContent()).toBe('Sign in required');

    const pro = await newPage();
    expect((await pro.goto(`${base}?jwt_token=${await sign({ plan: 'pro' })}`))?.status()).toBe(200);
    expect(pro.url()).toBe(base);
    expect(await pro.locator('nav.sections a').allTextContents()).toEqual(['Guides', 'Pro']);
    await pro.locator('nav.sections a', { hasText: 'Pro' }).click();
    await pro.waitForURL(`${base}pro/`);
    expect(await pro.locator('main h1').textContent()).toBe('Pro features');

    const free = await newPage();
    expect((await free.goto(`${base}?jwt_token=${await sign({ plan: 'free' })}`))?.status()).toBe(200);
    expect(await free.locator('nav.sections a').allTextContents()).toEqual(['Guides']);
    expect((await free.goto(`${base}pro/`))?.status()).toBe(404);

    const forged = await newPage();
    const wrongKey = await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('not-the-site-key'));
    expect((await forged.goto(`${base}?jwt_token=${wrongKey}`))?.status()).toBe(401);
  });
});
