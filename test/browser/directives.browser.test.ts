import path from 'node:path';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../app.ts';
import { closeExpectingNoErrors, type TestBrowser, viewportOf } from './fixtures.ts';
import { publishedSpace } from './served-app.ts';

/*
 * Processing instructions, declarations and CDATA opening a line of a page (a security note's
 * payloads) are published as code, as written (docs/decisions/markdown.md): each shows its
 * text in the code face, over the lines it was written on; a long one (or a long code span)
 * wraps inside the column instead of widening the page, at
 * desktop (1280 px) and phone (390 px) widths, light and dark. Screenshots go to
 * /tmp/directives/ for a person to look at.
 */

// Evaluated in the page: the browser's globals.
declare const window: any;
declare const document: any;
declare function getComputedStyle(element: unknown): any;

const SHOTS = '/tmp/directives';

// Made-up notes in the form such pages take.
const LONG = `<?php/*${'x'.repeat(40)}*/$q=base64_decode('${'QUJD'.repeat(24)}');eval($q);?>`;
const WRITTEN = [
  "<?php system($_GET['cmd']); ?>",
  // CommonMark ends this block at the first line holding a `>`: the `]>` after is a paragraph.
  '<!DOCTYPE note [\n<!ENTITY leak SYSTEM "file:///etc/hostname">',
  '<![CDATA[<b>not bold</b>]]>',
  LONG,
  '<?php\n  $f = $_FILES["up"];\n  move_uploaded_file($f["tmp_name"], "/var/www/" . $f["name"]);\n?>',
];
const NOTE =
  'Upload a file named `shell.php` holding:\n\n' +
  `${WRITTEN[0]}\n\n` +
  'An entity that reads a local file:\n\n' +
  `${WRITTEN[1]}\n]>\n\n` +
  'Text the parser keeps as is:\n\n' +
  `${WRITTEN[2]}\n\n` +
  'The same payload, packed on one line:\n\n' +
  `${LONG}\n\n` +
  'The handler, over lines:\n\n' +
  `${WRITTEN[4]}\n\n` +
  `Or, in a code span: \`${LONG}\`.\n\n` +
  'The end of the note.\n';

describe('directives on a published page', { timeout: 180_000 }, () => {
  let t: TestApp;
  let url: string;
  let browser: TestBrowser;

  beforeAll(async () => {
    ({ t, url, browser } = await publishedSpace({ title: 'Notes', basename: 'notes', shots: SHOTS }, (e) => e.insertPage({ title: 'Upload bypass', slug: 'upload', markdown: NOTE })));
  }, 180_000);

  afterAll(() => closeExpectingNoErrors(browser, t));

  async function open(width: number, scheme: 'light' | 'dark'): Promise<Page> {
    const page = await browser.page(viewportOf(width, width < 800 ? 844 : 900, scheme));
    const response = await page.goto(`${url}/sites/notes/upload`);
    expect(response?.status()).toBe(200);
    return page;
  }

  for (const width of [1280, 390]) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`${width} px, ${scheme}: each directive shows as written, in the code face, inside the column`, async () => {
        const page = await open(width, scheme);
        // Taken first, to be looked at whatever the checks below say.
        await page.screenshot({ path: path.join(SHOTS, `directives-${width}-${scheme}.png`), fullPage: true });
        const shown = await page.evaluate(() => {
          const main = document.querySelector('main.content');
          const column = main.getBoundingClientRect();
          return [...main.querySelectorAll('.html-block code, p > code')].filter((code: any) => code.textContent.length > 10).map((code: any) => {
            const box = code.getBoundingClientRect();
            const style = getComputedStyle(code);
            return {
              text: code.textContent,
              // Lines shown: a range over its text has a box per line.
              lines: (() => { const range = document.createRange(); range.selectNodeContents(code); return new Set([...range.getClientRects()].map((r: any) => Math.round(r.top))).size; })(),
              visible: box.width > 0 && box.height > 0 && style.visibility === 'visible',
              face: style.fontFamily,
              insideColumn: box.left >= column.left - 0.5 && box.right <= column.right + 0.5,
              color: style.color,
              background: getComputedStyle(document.body).backgroundColor,
            };
          });
        });
        expect(shown.map((code) => code.text)).toEqual([...WRITTEN, LONG]);
        // Written over four lines, shown over four (at least: a narrow column wraps more).
        expect(shown[4].lines).toBeGreaterThanOrEqual(4);
        for (const code of shown) {
          expect(code.visible, code.text).toBe(true);
          expect(code.face, code.text).toMatch(/monospace/);
          expect(code.insideColumn, code.text).toBe(true);
          expect(code.color, code.text).not.toBe(code.background);
        }
        // No payload widens the page (a phone scrolls only down).
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
        // The words around them are all there, in order.
        const text: string = await page.evaluate(() => document.querySelector('main.content').innerText);
        expect(text.indexOf('holding:')).toBeLessThan(text.indexOf("system($_GET['cmd'])"));
        expect(text.indexOf(']>\n')).toBeGreaterThan(text.indexOf('hostname'));
        expect(text.indexOf('The end of the note.')).toBeGreaterThan(text.indexOf('eval($q)'));
      });
    }
  }
});
