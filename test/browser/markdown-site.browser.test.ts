import fs from 'node:fs';
import path from 'node:path';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPageMarkdown } from '../../src/content/markdown/page.ts';
import { resolveDocumentPaths } from '../../src/content/markdown/paths.ts';
import type { RevisionEditor } from '../../src/content/store/editor.ts';
import type { TestApp } from '../app.ts';
import { createOrganization } from '../factories.ts';
import { closeExpectingNoErrors, publishSite, spaceWith, TestBrowser, viewportOf } from './fixtures.ts';
import { png } from './reader-site.ts';
import { publishedSpace, servedTestApp } from './served-app.ts';

/*
 * The GitBook-written fixture space (test/fixtures/markdown/) published (issue 14): every
 * page read the way the change-request batch reads it (relative links and assets resolved
 * against the space), then looked at in Chromium. No page shows raw markup in its visible
 * text outside code (`<tag`, `{%`, backslash escapes), and every relative link and image of
 * the fixtures answers 200 there, except the ones the fixtures break on purpose. A page of
 * its own checks hard breaks (two lines, not one) and links to a markdown file that is no page
 * (text with a title, nothing to follow). Screenshots go to test/browser/screenshots/ (gitignored).
 */

// Evaluated in the page, not in Node.
declare const document: any;
declare function getComputedStyle(element: unknown): { color: string; cursor: string; textDecorationLine: string; textDecorationStyle: string };

const FIXTURES = path.join(import.meta.dirname, '../fixtures/markdown');
const SHOTS = path.join(import.meta.dirname, 'screenshots');
/** Targets the fixtures break on purpose (the link report's `broken` cases). */
const BROKEN_ON_PURPOSE = [/missing/, /\/broken\/pages\//];
/** Text the fixtures escape on purpose so that it shows as written. */
const LITERAL_ON_PURPOSE: Record<string, string[]> = { 'blocks/escaping.md': ['<tag>', '{% not a tag %}'] };

interface FixturePage {
  file: string;
  /** Path of the page on the site, under the site root. */
  sitePath: string;
}

/** Inserts the fixture folder `dir` (relative) under `parent`, README first; returns its pages. */
function insertFolder(e: RevisionEditor, dir: string, parent: string | null, ids: Map<string, string>): void {
  const names = fs.readdirSync(path.join(FIXTURES, dir)).filter((n) => !n.startsWith('.') && n !== 'README.md').sort();
  for (const name of names) {
    const rel = dir ? `${dir}/${name}` : name;
    if (fs.statSync(path.join(FIXTURES, rel)).isDirectory()) {
      const id = e.insertPage({ title: name, slug: name }, { parent });
      ids.set(`${rel}/README.md`, id);
      insertFolder(e, rel, id, ids);
    } else if (name.endsWith('.md')) {
      const { title } = readPageMarkdown(fs.readFileSync(path.join(FIXTURES, rel), 'utf8'));
      ids.set(rel, e.insertPage({ title: title ?? name, slug: name.replace(/\.md$/, '') }, { parent }));
    }
  }
}

describe('the GitBook-written fixture space, published', { timeout: 180_000 }, () => {
  let t: TestApp;
  let url: string;
  let browser: TestBrowser;
  const pages: FixturePage[] = [];

  beforeAll(async () => {
    ({ t, url } = await servedTestApp({}, { downloads: true }));
    const org = await createOrganization(t);
    const ids = new Map<string, string>();
    const space = await spaceWith(t, org, 'Fixtures', (e) => {
      e.addFile({ name: 'logo.png', contentType: 'image/png', bytes: png(120, 40) });
      e.addFile({ name: 'menu.png', contentType: 'image/png', bytes: png(200, 120) });
      e.addFile({ name: 'manual.pdf', contentType: 'application/pdf', bytes: Buffer.from('%PDF-1.4\n%%EOF\n') });
      const readme = readPageMarkdown(fs.readFileSync(path.join(FIXTURES, 'README.md'), 'utf8'));
      ids.set('README.md', e.insertPage({ title: readme.title ?? 'Home', slug: 'readme' }));
      insertFolder(e, '', null, ids);
      // As the batch does once every page is known: relative paths resolved against the space.
      const paths = e.spacePaths();
      for (const [file, id] of ids) {
        if (!fs.existsSync(path.join(FIXTURES, file))) continue;
        const { document } = readPageMarkdown(fs.readFileSync(path.join(FIXTURES, file), 'utf8'));
        e.updatePage(id, { document: resolveDocumentPaths(document, paths.fileOfPage(id) ?? file, paths) });
      }
      const slugPath = (id: string): string => {
        const parent = e.parentOf(id);
        return (parent ? slugPath(parent) + '/' : '') + e.page(id).slug;
      };
      for (const [file, id] of ids) if (fs.existsSync(path.join(FIXTURES, file))) pages.push({ file, sitePath: file === 'README.md' ? '' : slugPath(id) });
    });
    await publishSite(t, org, { title: 'Fixtures', basename: 'fixtures', spaces: [space] });
    browser = await TestBrowser.launch(SHOTS);
  }, 180_000);

  afterAll(() => closeExpectingNoErrors(browser, t));

  async function open(sitePath: string): Promise<Page> {
    const page = await browser.page({ viewport: { width: 1280, height: 900 } }, { console: false });
    const response = await page.goto(`${url}/sites/fixtures/${sitePath}`);
    expect(response?.status(), sitePath).toBe(200);
    return page;
  }

  it('shows no raw markup on any fixture page, and every relative link and image there answers 200', async () => {
    expect(pages.length).toBeGreaterThan(8);
    const checked = new Set<string>();
    for (const { file, sitePath } of pages) {
      const page = await open(sitePath);
      // Visible text of the page's content, code left out (markup is content there).
      const visibleText: string = await page.evaluate(() => {
        const main = document.querySelector('main').cloneNode(true);
        for (const code of main.querySelectorAll('pre, code, .code')) code.remove();
        document.body.appendChild(main);
        const visible = main.innerText;
        main.remove();
        return visible;
      });
      const text = (LITERAL_ON_PURPOSE[file] ?? []).reduce((rest, literal) => rest.split(literal).join(''), visibleText);
      expect(text, `${file}: raw HTML`).not.toMatch(/<\/?[A-Za-z!][^>]*>?/);
      expect(text, `${file}: a liquid tag`).not.toContain('{%');
      expect(text, `${file}: a backslash escape`).not.toMatch(/\\[\\`*_{}[\]()#+\-.!<>|~$&]/);
      const targets: string[] = await page.evaluate(() => [
        ...[...document.querySelectorAll('main a[href]')].map((a: any) => a.href),
        ...[...document.querySelectorAll('main img[src]')].map((img: any) => img.src),
      ]);
      for (const target of targets) {
        if (!target.startsWith(url) || BROKEN_ON_PURPOSE.some((p) => p.test(target))) continue;
        const bare = target.split('#')[0];
        if (checked.has(bare)) continue;
        checked.add(bare);
        const res = await page.request.get(bare);
        expect(res.status(), `${file}: ${target}`).toBe(200);
      }
      if (['blocks/tables.md', 'guides/changelog.md', 'blocks/html.md', 'blocks/images.md'].includes(file)) {
        const shot = `markdown-${file.replace(/[/.]/g, '-')}`;
        await page.screenshot({ path: path.join(SHOTS, `${shot}.png`), fullPage: true });
        // The same page in dark mode and on a 390 px phone, light and dark, for a person to
        // look at (tables and figures are the wide ones).
        for (const [suffix, phone, dark] of [['-dark', false, true], ['-phone', true, false], ['-phone-dark', true, true]] as const) {
          const view = await browser.context(viewportOf(phone ? 390 : 1280, phone ? 844 : 900, dark ? 'dark' : 'light'));
          const other = await view.newPage();
          await other.goto(`${url}/sites/fixtures/${sitePath}`);
          await other.screenshot({ path: path.join(SHOTS, `${shot}${suffix}.png`), fullPage: true });
          await view.close();
        }
      }
      await page.context().close();
    }
    // Links and images of the fixtures were there to check.
    expect(checked.size).toBeGreaterThan(10);
  });
});

/** A page with a hard break in each place a reader meets one, and a link to a markdown file the space has no page for. */
const BREAKS_MARKDOWN = [
  'Two spaces end this line  ',
  'and this one starts the next, beside [the other guide](other.md).',
  '',
  'A backslash ends this line\\',
  'and this one starts the next.',
  '',
  '- A list item broken here  ',
  '  and carried on here.',
  '',
  '| Setting | Meaning |',
  '| --- | --- |',
  // A table row is one line: a cell breaks with <br>, which the engine reads as the same hard break.
  '| A cell broken here<br>and carried on here | plain |',
  '',
  // Verbatim HTML keeps its <a>, without the href.
  '<div><p>Verbatim HTML names <a href="other.md">the other guide too</a>.</p></div>',
  '',
].join('\n');

/** Where the two text parts around each hard break (`<br>`) of `selector` sit: their boxes' tops and bottoms. */
function breakBoxes(page: Page, selector: string): Promise<Array<{ before: string; after: string; beforeTop: number; beforeBottom: number; afterTop: number }>> {
  return page.evaluate((sel) => {
    const box = (node: any) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return range.getBoundingClientRect();
    };
    return [...document.querySelectorAll(`${sel} br`)].map((br: any) => {
      const before = br.previousSibling;
      const after = br.nextSibling;
      return { before: before.textContent, after: after.textContent, beforeTop: box(before).top, beforeBottom: box(before).bottom, afterTop: box(after).top };
    });
  }, selector);
}

describe('hard breaks and links to pages the space does not have, published', { timeout: 120_000 }, () => {
  let t: TestApp;
  let url: string;
  let browser: TestBrowser;

  beforeAll(async () => {
    ({ t, url, browser } = await publishedSpace({ title: 'Breaks', basename: 'breaks', shots: SHOTS }, (e) => e.insertPage({ title: 'Line breaks', markdown: BREAKS_MARKDOWN })));
  }, 120_000);

  afterAll(() => closeExpectingNoErrors(browser, t));

  it('shows each hard break as a second line, and a link to a missing page as its text with its title and no link', async () => {
    for (const [width, scheme] of [[1280, 'light'], [390, 'dark']] as const) {
      const page = await (await browser.context(viewportOf(width, width < 800 ? 844 : 900, scheme))).newPage();
      const response = await page.goto(`${url}/sites/breaks/`);
      expect(response?.status()).toBe(200);

      // Paragraph (two spaces, backslash), list item, table cell: the text after the break starts below the text before it.
      const breaks = [
        ...(await breakBoxes(page, 'main p')),
        ...(await breakBoxes(page, 'main li')),
        ...(await breakBoxes(page, 'main td')),
      ];
      expect(breaks.map(({ before, after }) => [before.trim(), after.trim()])).toEqual([
        ['Two spaces end this line', 'and this one starts the next, beside'],
        ['A backslash ends this line', 'and this one starts the next.'],
        ['A list item broken here', 'and carried on here.'],
        ['A cell broken here', 'and carried on here'],
      ]);
      for (const box of breaks) expect(box.afterTop, `${width} px: ${box.before}`).toBeGreaterThanOrEqual(box.beforeBottom - 1);

      // The links to other.md: their text, named in their title, and nothing to follow.
      const unresolved = await page.evaluate(() =>
        [...document.querySelectorAll('main [data-unresolved-link]')].map((el: any) => ({
          tag: el.tagName,
          text: el.innerText,
          title: el.title,
          inLink: el.closest('a[href]') !== null || el.querySelector('a') !== null,
          href: el.getAttribute('href'),
          shown: el.getBoundingClientRect().width > 0,
          // Its colour and the paragraph's around it: text, not a link's colour.
          color: getComputedStyle(el).color,
          around: getComputedStyle(el.parentElement).color,
          cursor: getComputedStyle(el).cursor,
          underline: `${getComputedStyle(el).textDecorationLine} ${getComputedStyle(el).textDecorationStyle}`,
        })),
      );
      expect(unresolved.map(({ tag, text, title, inLink, href, shown }) => ({ tag, text, title, inLink, href, shown }))).toEqual([
        { tag: 'SPAN', text: 'the other guide', title: 'Not a page of this site: other.md', inLink: false, href: null, shown: true },
        { tag: 'A', text: 'the other guide too', title: 'Not a page of this site: other.md', inLink: false, href: null, shown: true },
      ]);
      // Shown as the text around it (verbatim HTML's <a> too, which took the link colour), with a dotted underline and a help cursor for the title.
      for (const { color, around, cursor, underline } of unresolved) expect({ color, cursor, underline }).toEqual({ color: around, cursor: 'help', underline: 'underline dotted' });
      expect(await page.locator('main a[href*="other"]').count()).toBe(0);

      await page.screenshot({ path: path.join(SHOTS, `breaks-unresolved-${width}-${scheme}.png`), fullPage: true });
      await page.context().close();
    }
  });
});
