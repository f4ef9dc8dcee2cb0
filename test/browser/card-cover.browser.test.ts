import path from 'node:path';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPageMarkdown } from '../../src/content/markdown/page.ts';
import { resolveDocumentPaths } from '../../src/content/markdown/paths.ts';
import type { TestApp } from '../app.ts';
import { closeExpectingNoErrors, type TestBrowser, viewportOf } from './fixtures.ts';
import { png } from './reader-site.ts';
import { publishedSpace } from './served-app.ts';

/*
 * A published cards table whose hidden cover column (`data-card-cover data-type="files"`)
 * names an image of the space: the image shows above the card's text, inside the card, its
 * corners the card's, at desktop (1280 px) and phone (390 px) widths, light and dark. One
 * card has no cover. Screenshots go to /tmp/card-cover/ for a person to look at.
 */

// Evaluated in the page: the browser's globals.
declare const window: any;
declare const document: any;
declare function getComputedStyle(element: unknown): any;

const SHOTS = '/tmp/card-cover';

// Made-up cards in GitBook's form: a title and a line of text, a target page, a cover file.
const HEAD =
  '<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead>';
const row = (title: string, text: string, target: string, cover: string) =>
  `<tr><td><strong>${title}</strong></td><td>${text}</td><td><a href="${target}.md">${target}.md</a></td><td>${cover ? `<a href=".gitbook/assets/${cover}">${cover}</a>` : ''}</td></tr>`;
const CARDS =
  `Pick a walk.\n\n${HEAD}<tbody>` +
  row('Harbour walk', 'Boats, gulls and the old crane along the quay.', 'harbour', 'wide-harbour.png') +
  row('Hill climb', 'A steep path to the lookout above the town.', 'hill', 'tall-hill.png') +
  row('Market loop', 'Stalls of fruit and bread on a Saturday morning.', 'market', '') +
  '</tbody></table>\n';

describe('card covers on a published site', { timeout: 180_000 }, () => {
  let t: TestApp;
  let url: string;
  let browser: TestBrowser;

  beforeAll(async () => {
    // The covers' download URLs are signed with DOWNLOAD_URL: the app's own address.
    ({ t, url, browser } = await publishedSpace({ title: 'Walks', basename: 'walks', shots: SHOTS, downloads: true }, (e) => {
      // A wide cover and a tall one: both must fill the card's width, cropped to its band.
      e.addFile({ name: 'wide-harbour.png', contentType: 'image/png', bytes: png(960, 360, true) });
      e.addFile({ name: 'tall-hill.png', contentType: 'image/png', bytes: png(240, 480, true) });
      const walks = e.insertPage({ title: 'Walks', slug: 'walks' });
      for (const title of ['Harbour', 'Hill', 'Market']) e.insertPage({ title, slug: title.toLowerCase(), markdown: `${title}.\n` });
      const paths = e.spacePaths();
      const { document } = readPageMarkdown(CARDS);
      e.updatePage(walks, { document: resolveDocumentPaths(document, paths.fileOfPage(walks)!, paths) });
    }));
  }, 180_000);

  afterAll(() => closeExpectingNoErrors(browser, t));

  async function open(width: number, scheme: 'light' | 'dark'): Promise<Page> {
    const page = await browser.page(viewportOf(width, width < 800 ? 844 : 900, scheme));
    const response = await page.goto(`${url}/sites/walks/walks`);
    expect(response?.status()).toBe(200);
    await page.locator('.cards').scrollIntoViewIfNeeded();
    // Covers load lazily: wait for each to have decoded.
    await page.waitForFunction(() => [...document.querySelectorAll('img.card-cover')].every((img: any) => img.complete && img.naturalWidth > 0), null, { timeout: 15_000 });
    return page;
  }

  async function zoomedCorner(width: number, scheme: 'light' | 'dark', file: string): Promise<void> {
    const page = await browser.page({ ...viewportOf(width, 900, scheme), deviceScaleFactor: 4 });
    await page.goto(`${url}/sites/walks/walks`);
    const cover = page.locator('img.card-cover').first();
    await cover.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => { const img = document.querySelector('img.card-cover'); return img.complete && img.naturalWidth > 0; });
    const box = (await page.locator('.card').first().boundingBox())!;
    await page.screenshot({ path: file, clip: { x: box.x - 4, y: box.y - 4, width: 28, height: 28 } });
    await page.context().close();
  }

  /** Each card's box, its cover's (when it has one) and its title's. */
  const geometry = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('.cards .card')].map((card: any) => {
        const box = (el: any) => (el ? (({ left, right, top, bottom, width, height }) => ({ left, right, top, bottom, width, height }))(el.getBoundingClientRect()) : null);
        const cover = card.querySelector('img.card-cover');
        const title = card.querySelector('strong');
        return {
          title: title?.textContent,
          card: box(card),
          cover: box(cover),
          coverFirst: cover ? card.firstElementChild === cover : null,
          naturalWidth: cover?.naturalWidth ?? null,
          titleBox: box(title),
          // What clips the cover to the card's rounded corners.
          cardOverflow: getComputedStyle(card).overflow,
          cardRadius: getComputedStyle(card).borderTopLeftRadius,
        };
      }),
    );

  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  for (const width of [1280, 390]) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`${width} px, ${scheme}: each cover loads, sits inside its card above the title and fits its width`, async () => {
        const page = await open(width, scheme);
        // Taken first, to be looked at whatever the checks below say.
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: path.join(SHOTS, `cards-${width}-${scheme}.png`), fullPage: true });
        await page.locator('.cards').screenshot({ path: path.join(SHOTS, `cards-${width}-${scheme}-close.png`) });
        // The first card's top left corner, four times larger: the cover's corner against the card's.
        await zoomedCorner(width, scheme, path.join(SHOTS, `cards-${width}-${scheme}-corner.png`));
        const cards = await geometry(page);
        expect(cards.map((c) => c.title)).toEqual(['Harbour walk', 'Hill climb', 'Market loop']);
        for (const card of cards.slice(0, 2)) {
          expect(card.naturalWidth, card.title!).toBeGreaterThan(0);
          expect(card.coverFirst, card.title!).toBe(true);
          const cover = card.cover!;
          // Inside the card (its 1 px border included), as wide as the card's inside.
          expect(cover.left, card.title!).toBeGreaterThanOrEqual(card.card!.left);
          expect(cover.right, card.title!).toBeLessThanOrEqual(card.card!.right);
          expect(cover.top, card.title!).toBeGreaterThanOrEqual(card.card!.top);
          expect(cover.width, card.title!).toBeGreaterThanOrEqual(card.card!.width - 2);
          // Framed alike at every width: a 16:9 band (the page's inline aspect-ratio, the image's own, does not apply).
          expect(Math.abs(cover.height - (cover.width * 9) / 16), card.title!).toBeLessThan(1.5);
          // Above the title, not over it.
          expect(cover.bottom, card.title!).toBeLessThanOrEqual(card.titleBox!.top);
          // The card clips the cover's top corners to its own rounded ones.
          expect(card.cardOverflow, card.title!).toBe('hidden');
          expect(parseFloat(card.cardRadius), card.title!).toBeGreaterThan(0);
        }
        // The card without a cover shows its title at the top, no image.
        expect(cards[2].cover).toBeNull();
        if (width === 390) {
          // On a phone the cards stack, each the width of the column, and nothing overflows the page.
          expect(await overflow(page)).toBeLessThanOrEqual(0);
          for (const card of cards) expect(card.card!.right, card.title!).toBeLessThanOrEqual(390);
        }
      });
    }
  }
});
