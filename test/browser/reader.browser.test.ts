import path from 'node:path';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeExpectingNoErrors, recordErrors, TestBrowser, viewportOf } from './fixtures.ts';
import { readerSite, type ReaderSite } from './reader-site.ts';

/*
 * The published site as readers use it (issue 20), in Chromium at desktop (1366 px) and
 * phone (390 px) widths, light and dark: highlighted code and its copy button, the phone
 * drawer and outline, the theme following the system, instant search, the 404 page.
 * Every case leaves a screenshot in test/browser/screenshots/ (gitignored) to look at, and
 * fails on any console error.
 */

// Evaluated in the page, not in Node: the browser's globals.
declare const document: any;
declare const window: any;
declare const navigator: any;
declare function getComputedStyle(element: unknown): any;

const SHOTS = path.join(import.meta.dirname, 'screenshots');
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

describe('published sites as readers use them', { timeout: 180_000 }, () => {
  let site: ReaderSite;
  let browser: TestBrowser;

  async function open(viewport: { width: number; height: number }, colorScheme: 'light' | 'dark', at = '') {
    const context = await browser.context(viewportOf(viewport.width, viewport.height, colorScheme));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
    const page = await context.newPage();
    // The 404 page's own status is reported as a console error by Chromium: expected there.
    recordErrors(page, browser.errors, { expected: (text, on) => on.url().includes('/no/such/page') && text.includes('status of 404') });
    const response = await page.goto(`${site.url}${site.sitePath}${at}`);
    return { page, response };
  }

  const shot = (page: Page, name: string, fullPage = false) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
  const theme = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-theme'));
  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  beforeAll(async () => {
    site = await readerSite();
    browser = await TestBrowser.launch(SHOTS);
  }, 180_000);

  // No console errors on any page of any case.
  afterAll(() => closeExpectingNoErrors(browser, site));

  for (const scheme of ['light', 'dark'] as const) {
    it(`desktop, ${scheme}: highlighted code with a working copy button; the theme follows the system`, async () => {
      const { page, response } = await open(DESKTOP, scheme);
      expect(response?.status()).toBe(200);
      expect(await theme(page)).toBe(scheme);
      expect(await page.locator('main h1').textContent()).toBe('Getting started');
      // Highlighted on the server: colored spans, a different color per theme.
      const keyword = page.locator('.code pre code.language-typescript span[style]', { hasText: 'import' }).first();
      const color = await keyword.evaluate((el) => getComputedStyle(el).color);
      expect(color).toBe(scheme === 'light' ? 'rgb(207, 34, 46)' : 'rgb(255, 123, 114)');
      expect(await page.locator('.code-title').first().textContent()).toBe('Terminal');
      expect(await page.locator('pre.numbered').count()).toBe(1);
      // The copy button copies the code, without line numbers.
      await page.locator('.code', { hasText: 'acme.config.ts' }).locator('.copy-code').click();
      await expect.poll(() => page.locator('.code', { hasText: 'acme.config.ts' }).locator('.copy-code').textContent()).toBe('Copied');
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied.startsWith("import { defineConfig } from 'acme';\n")).toBe(true);
      expect(copied).toContain("features: ['search', 'webhooks'],");
      // Wide layout: sidebar and outline beside the article, no menu button.
      expect(await page.locator('#menu-toggle').isVisible()).toBe(false);
      expect(await page.locator('aside.outline a').allTextContents()).toEqual(['Install', 'Configure the server', 'Troubleshooting webhooks']);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, `desktop-${scheme}`);
      await page.locator('.code', { hasText: 'acme.config.ts' }).scrollIntoViewIfNeeded();
      await shot(page, `desktop-${scheme}-code`);
    });
  }

  it('desktop: the toggle overrides the system theme and is remembered', async () => {
    const { page } = await open(DESKTOP, 'dark');
    expect(await theme(page)).toBe('dark');
    await page.locator('#theme-toggle').click();
    expect(await theme(page)).toBe('light');
    await page.reload();
    expect(await theme(page)).toBe('light');
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`phone, ${scheme}: the menu opens the page tree as a drawer that navigates; the outline is reachable`, async () => {
      const { page } = await open(PHONE, scheme);
      expect(await theme(page)).toBe(scheme);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      // The header stays one line.
      const header = await page.locator('.header-bar').boundingBox();
      expect(header!.height).toBeLessThan(70);
      const menu = page.locator('#menu-toggle');
      expect(await menu.isVisible()).toBe(true);
      expect(await page.locator('#site-drawer').isVisible()).toBe(false);
      // The outline, as a disclosure above the article.
      const outline = page.locator('details.outline-mobile');
      expect(await outline.isVisible()).toBe(true);
      await outline.locator('summary').click();
      expect(await outline.locator('a').allTextContents()).toEqual(['Install', 'Configure the server', 'Troubleshooting webhooks']);
      await shot(page, `phone-${scheme}-outline`);
      await outline.locator('a', { hasText: 'Configure the server' }).click();
      await page.waitForURL(/#configure-the-server$/);

      await menu.click();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      const drawer = page.locator('#site-drawer');
      await expect.poll(() => drawer.isVisible()).toBe(true);
      // Focus moves into the drawer; Escape closes it and gives focus back.
      await expect.poll(() => page.evaluate(() => document.activeElement?.closest('#site-drawer') != null)).toBe(true);
      await page.waitForTimeout(250);
      await shot(page, `phone-${scheme}-drawer`);
      await page.keyboard.press('Escape');
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('menu-toggle');
      // Opens again and navigates; the new page starts closed.
      await menu.click();
      await drawer.locator('a', { hasText: 'Webhooks' }).click();
      await page.waitForURL(/\/webhooks$/);
      expect(await page.locator('main h1').textContent()).toBe('Webhooks');
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await drawer.isVisible()).toBe(false);
      await shot(page, `phone-${scheme}`);
    });
  }

  it('phone at 320 px: no horizontal overflow on the content-rich page', async () => {
    const { page } = await open({ width: 320, height: 640 }, 'light');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'phone-320', true);
  });

  for (const [name, viewport, scheme] of [
    ['desktop-light', DESKTOP, 'light'],
    ['phone-dark', PHONE, 'dark'],
  ] as const) {
    it(`${name}: instant search shows highlighted results; arrows and Enter open a section anchor`, async () => {
      const { page } = await open(viewport, scheme);
      const input = page.locator('form.site-search input');
      await input.click();
      await input.pressSequentially('retries', { delay: 20 });
      const dropdown = page.locator('#search-dropdown');
      await expect.poll(() => dropdown.isVisible()).toBe(true);
      expect(await input.getAttribute('aria-expanded')).toBe('true');
      expect((await dropdown.locator('mark').allTextContents()).map((m) => m.toLowerCase())).toContain('retries');
      await shot(page, `search-${name}`);
      const options = dropdown.locator('[role=option]');
      const hrefs = await options.evaluateAll((els) => els.map((el: any) => el.getAttribute('href')));
      const sectionAt = hrefs.findIndex((h: string) => h.includes('#'));
      expect(sectionAt).toBeGreaterThanOrEqual(0);
      for (let i = 0; i <= sectionAt; i++) await input.press('ArrowDown');
      expect(await options.nth(sectionAt).getAttribute('aria-selected')).toBe('true');
      await input.press('Enter');
      await page.waitForURL((u) => u.hash !== '');
      const anchor = decodeURIComponent(new URL(page.url()).hash.slice(1));
      expect(await page.locator(`[id="${anchor}"]`).count()).toBe(1);
      expect(await page.locator(`[id="${anchor}"]`).textContent()).toContain('Retries');
    });
  }

  it('without JavaScript, the search box opens the full results page with marked matches and anchor links', async () => {
    const context = await browser.context({ viewport: DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.url}${site.sitePath}`);
    await page.locator('form.site-search input').fill('webhook');
    await page.locator('form.site-search input').press('Enter');
    await page.waitForURL(/~search\?q=webhook/);
    expect(await page.locator('main h1').textContent()).toBe('Search');
    expect((await page.locator('.search-results mark').allTextContents()).map((m) => m.toLowerCase())).toContain('webhook');
    expect(await page.locator('.search-results a.search-section').first().getAttribute('href')).toMatch(/#/);
    // Without scripts the page tree is in the page (no drawer) and copy buttons are hidden.
    await shot(page, 'search-no-js');
  });

  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`${name}: the 404 page is in the site's layout, with search and navigation`, async () => {
      const { page, response } = await open(viewport, 'light', 'no/such/page');
      expect(response?.status()).toBe(404);
      expect(await page.locator('main h1').textContent()).toBe('Page not found');
      expect(await page.locator('form.site-search input').count()).toBe(1);
      expect(await page.locator('nav.sections a').allTextContents()).toEqual(['Guides', 'API reference']);
      if (name === 'phone') {
        await page.locator('#menu-toggle').click();
        await expect.poll(() => page.locator('#site-drawer').isVisible()).toBe(true);
      }
      expect(await page.locator('#site-drawer a', { hasText: 'Configuration' }).isVisible()).toBe(true);
      await shot(page, `not-found-${name}`);
    });
  }
});
