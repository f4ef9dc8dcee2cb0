import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../app.ts';
import { closeExpectingNoErrors, type TestBrowser, viewportOf } from './fixtures.ts';
import { publishedSpace } from './served-app.ts';

/*
 * An embed written relative to its page (`{% embed url="setup.md" %}`) leads, on a published
 * site, to the page it names, as a link so written does; one naming a markdown file that is no
 * page shows its address as text (docs/decisions/markdown.md, `embed`). At desktop (1280 px)
 * and phone (390 px) widths, light and dark; screenshots go to /tmp/embed-links/.
 */

// Evaluated in the page: the browser's globals.
declare const document: any;
declare const window: any;

const SHOTS = '/tmp/embed-links';

describe('relative embeds on a published page', { timeout: 180_000 }, () => {
  let t: TestApp;
  let url: string;
  let browser: TestBrowser;

  beforeAll(async () => {
    ({ t, url, browser } = await publishedSpace({ title: 'Guide', basename: 'guide', shots: SHOTS }, (e) => {
      e.insertPage({ title: 'Start', slug: 'start', markdown: 'Read the setup first:\n\n{% embed url="setup.md" %}\nHow to set up\n{% endembed %}\n\nAn old note:\n\n{% embed url="gone.md" %}\n\nAnd a video:\n\n{% embed url="https://video.test/watch?v=1" %}\n' });
      e.insertPage({ title: 'Setup', slug: 'setup', markdown: 'Install it.\n' });
    }));
  }, 180_000);

  afterAll(() => closeExpectingNoErrors(browser, t));

  for (const width of [1280, 390]) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`${width} px, ${scheme}: the embed of a page leads to it; one of no page is text`, async () => {
        const page = await browser.page(viewportOf(width, width < 800 ? 844 : 900, scheme));
        expect((await page.goto(`${url}/sites/guide/start`))?.status()).toBe(200);
        await page.screenshot({ path: path.join(SHOTS, `embed-links-${width}-${scheme}.png`), fullPage: true });
        const embeds = await page.evaluate(() =>
          [...document.querySelectorAll('main.content .embed')].map((e: any) => ({ href: e.querySelector('a')?.getAttribute('href') ?? null, text: e.innerText })),
        );
        expect(embeds).toEqual([
          { href: '/sites/guide/setup', text: expect.stringContaining('setup.md') },
          { href: null, text: 'gone.md' },
          { href: 'https://video.test/watch?v=1', text: 'https://video.test/watch?v=1' },
        ]);
        expect(embeds[0].text).toContain('How to set up');
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
        await page.click('main.content .embed a[href="/sites/guide/setup"]');
        await page.waitForURL(`${url}/sites/guide/setup`);
        expect(await page.evaluate(() => document.querySelector('main.content').innerText)).toContain('Install it.');
      });
    }
  }
});
