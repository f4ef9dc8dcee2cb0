import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../app.ts';
import { closeExpectingNoErrors, type TestBrowser, viewportOf } from './fixtures.ts';
import { publishedSpace } from './served-app.ts';

/*
 * HTML a page keeps verbatim, on a published site: its links lead where they are written to,
 * and markup it shows as text (an injection note's `&#x3C;a href="USER_INPUT">` in `<code>`) stays the
 * text it is, never read as a link (docs/decisions/markdown.md). At desktop (1280 px) and phone
 * (390 px) widths, light and dark; screenshots go to /tmp/verbatim-links/.
 */

// Evaluated in the page: the browser's globals.
declare const document: any;
declare const window: any;

const SHOTS = '/tmp/verbatim-links';
const NOTE = [
  '<div class="payloads">',
  '<p>Inside an attribute, close the quote: <code>&#x3C;a href="USER_INPUT">Click&#x3C;/a></code> becomes a handler.</p>',
  '<p>Before trying, read <a href="setup.md">the setup</a> and keep <code>src=x onerror=alert(1)</code> handy.</p>',
  '</div>',
  '',
].join('\n');

describe('verbatim HTML on a published page', { timeout: 180_000 }, () => {
  let t: TestApp;
  let url: string;
  let browser: TestBrowser;

  beforeAll(async () => {
    ({ t, url, browser } = await publishedSpace({ title: 'Notes', basename: 'notes', shots: SHOTS }, (e) => {
      e.insertPage({ title: 'Payloads', slug: 'payloads', markdown: `Where a payload lands:\n\n${NOTE}` });
      e.insertPage({ title: 'Setup', slug: 'setup', markdown: 'Start the proxy.\n' });
    }));
  }, 180_000);

  afterAll(() => closeExpectingNoErrors(browser, t));

  for (const width of [1280, 390]) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`${width} px, ${scheme}: its link leads to the page; markup shown in code stays text`, async () => {
        const page = await browser.page(viewportOf(width, width < 800 ? 844 : 900, scheme));
        expect((await page.goto(`${url}/sites/notes/payloads`))?.status()).toBe(200);
        await page.screenshot({ path: path.join(SHOTS, `verbatim-links-${width}-${scheme}.png`), fullPage: true });
        const shown = await page.evaluate(() => ({
          codes: [...document.querySelectorAll('main.content .html-block code')].map((c: any) => c.innerText),
          links: [...document.querySelectorAll('main.content .html-block a')].map((a: any) => [a.innerText, a.getAttribute('href')]),
          unresolved: document.querySelectorAll('main.content [data-unresolved-link]').length,
        }));
        expect(shown).toEqual({
          codes: ['<a href="USER_INPUT">Click</a>', 'src=x onerror=alert(1)'],
          links: [['the setup', '/sites/notes/setup']],
          unresolved: 0,
        });
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
        await page.click('main.content .html-block a[href="/sites/notes/setup"]');
        await page.waitForURL(`${url}/sites/notes/setup`);
        expect(await page.evaluate(() => document.querySelector('main.content').innerText)).toContain('Start the proxy.');
      });
    }
  }
});
