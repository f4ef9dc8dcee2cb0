import path from 'node:path';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDERS_30_YAML, startSpecServer, type SpecServer } from '../../src/modules/openapi-specs/openapi-specs.fixtures.ts';
import type { TestApp } from '../app.ts';
import { createOrganization } from '../factories.ts';
import { adminApi, publishSite, recordErrors, spaceWith, TestBrowser, viewportOf } from './fixtures.ts';
import { servedTestApp } from './served-app.ts';

/*
 * An OpenAPI operation on a published page in Chromium: what a reader sees (method, path,
 * parameters, the body's nested fields, responses), the copy button, light and dark
 * themes, a phone, and a new spec version showing without a new revision.
 */

declare const document: any;
declare const window: any;
declare const navigator: any;

const SHOTS = path.join(import.meta.dirname, 'screenshots');

describe('OpenAPI operation in a browser', () => {
  let t: TestApp;
  let server: SpecServer;
  let browser: TestBrowser;
  let url: string;
  let pageUrl: string;

  async function open(viewport: { width: number; height: number }, colorScheme: 'light' | 'dark'): Promise<Page> {
    const context = await browser.context(viewportOf(viewport.width, viewport.height, colorScheme));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    const page = await context.newPage();
    recordErrors(page, browser.errors);
    const response = await page.goto(pageUrl);
    expect(response?.status()).toBe(200);
    return page;
  }
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `openapi-${name}.png`), fullPage: true });
  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  beforeAll(async () => {
    server = await startSpecServer({ 'orders.yaml': ORDERS_30_YAML });
    ({ t, url } = await servedTestApp({ outboundAllowPrivate: true }));
    const org = await createOrganization(t);
    await adminApi(t, org)('POST', '/openapi', { slug: 'orders', source: { url: `${server.url}/orders.yaml` } });
    await t.runJobsUntilIdle();
    const space = await spaceWith(t, org, 'API', (e) => {
      e.insertPage({
        title: 'Orders',
        markdown: 'Orders can be changed while they are open.\n\n{% openapi-operation spec="orders" path="/orders/{orderId}" method="patch" %}\n{% endopenapi-operation %}\n',
      });
    });
    await publishSite(t, org, { title: 'Acme API', basename: 'acme-api', spaces: [space] });
    pageUrl = `${url}/sites/acme-api/orders`;
    browser = await TestBrowser.launch(SHOTS);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.runJobsUntilIdle();
    await t?.close();
    await server?.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`desktop, ${scheme}: method, path, parameters, nested body, responses and a working copy button`, async () => {
      const page = await open({ width: 1280, height: 900 }, scheme);
      const op = page.locator('.openapi-operation');
      await expect.poll(() => op.locator('.oa-method').textContent()).toBe('PATCH');
      expect(await op.locator('.oa-path').textContent()).toBe('/orders/{orderId}');
      expect(await op.locator('.oa-params').first().textContent()).toContain('Identifier of the order to change');
      for (const description of ['Identifier of the order to change', 'Whether to email the customer', 'Idempotency key of the request']) {
        expect(await op.getByText(description).isVisible()).toBe(true);
      }
      // The body's nested Address: collapsed, then opened by the reader.
      const shipping = op.locator('.oa-main > .oa-schema details.oa-nested', { hasText: 'shipping' }).first();
      expect(await shipping.getByText('Street and number').isVisible()).toBe(false);
      await shipping.locator('summary').click();
      expect(await shipping.getByText('Street and number').isVisible()).toBe(true);
      expect(await op.locator('.oa-response > summary').allTextContents()).toEqual(['200 The updated order application/json', '404 No such order']);
      // Copy the curl example.
      const request = op.locator('.oa-aside .tab-panel .code').first();
      await request.locator('.copy-code').click();
      await expect.poll(() => request.locator('.copy-code').textContent()).toBe('Copied');
      const copied: string = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied.startsWith("curl -X PATCH 'https://api.example.com/v1/orders/{orderId}'")).toBe(true);
      // Another language, one click away.
      await op.locator('.oa-aside label', { hasText: 'JavaScript' }).click();
      expect(await op.locator('.oa-aside .tab-panel', { hasText: 'await fetch(' }).isVisible()).toBe(true);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await op.scrollIntoViewIfNeeded();
      await shot(page, `desktop-${scheme}`);
    });
  }

  it('phone: one column, nothing wider than the screen', async () => {
    const page = await open({ width: 390, height: 844 }, 'light');
    await expect.poll(() => page.locator('.oa-method').textContent()).toBe('PATCH');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    const [main, aside] = await Promise.all([page.locator('.oa-main').boundingBox(), page.locator('.oa-aside').boundingBox()]);
    expect(aside!.y).toBeGreaterThan(main!.y + main!.height - 1);
    await shot(page, 'phone-light');
    const dark = await open({ width: 390, height: 844 }, 'dark');
    expect(await overflow(dark)).toBeLessThanOrEqual(0);
    await shot(dark, 'phone-dark');
  });

  it('after the spec’s source changes and is processed, the page shows the change', async () => {
    server.files.set('orders.yaml', ORDERS_30_YAML.replace('Identifier of the order to change', 'The order to amend, as returned on creation'));
    const { refreshSpecs } = await import('../../src/modules/openapi-specs/openapi-specs.service.ts');
    await refreshSpecs(t.app.deps);
    await t.runJobsUntilIdle();
    const page = await open({ width: 1280, height: 900 }, 'light');
    expect(await page.getByText('The order to amend, as returned on creation').isVisible()).toBe(true);
    expect(await page.getByText('Identifier of the order to change').count()).toBe(0);
  });

  it('no errors in the console', () => {
    expect(browser.errors).toEqual([]);
  });
});
