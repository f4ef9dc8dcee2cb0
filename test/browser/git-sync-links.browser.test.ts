import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../app.ts';
import { createOrganization } from '../factories.ts';
import { createRepository, startGitServer, type GitServer } from '../git-server.ts';
import { publishSite, spaceWith, TestBrowser, viewportOf } from './fixtures.ts';
import { servedTestApp } from './served-app.ts';

/*
 * A link checker over a published site (issue 31): a repository in GitBook's layout
 * (test/fixtures/git-sync-links, our own text) is imported by git sync and published, and
 * every page is opened in Chromium. Every link and image in a page's content that stays on
 * the site answers 200, and no `href` ends in `.md`. The fixture holds each link form that
 * used to break: card targets of a cards table, `<a>` inside `<pre><code>`, links and images
 * in HTML table cells (all HTML kept verbatim), an `{% openapi %}` block's fallback link to
 * its asset, images whose path climbs above the repository's top, and relative links on
 * README pages (`./#anchor`, `../`, `./`), a link written as a page's address
 * (`tide-api#tides`), and pages under a SUMMARY.md group anchored to its slug
 * (`## 潮汐 <a href="#tide-tables" id="tide-tables"></a>`), whose title the navigation shows as
 * text. Screenshots of that page go to /tmp/git-sync-links/.
 */

// Evaluated in the page, not in Node.
declare const document: any;

const FIXTURE = path.join(import.meta.dirname, '../fixtures/git-sync-links');
const SHOTS = '/tmp/git-sync-links';

function readFixture(dir = FIXTURE): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  for (const name of fs.readdirSync(dir)) {
    const full = path.join(dir, name);
    if (fs.statSync(full).isDirectory()) for (const [p, bytes] of Object.entries(readFixture(full))) files[`${name}/${p}`] = bytes;
    else files[name] = fs.readFileSync(full);
  }
  return files;
}

describe('links of a git-synced space, published', { timeout: 240_000 }, () => {
  let t: TestApp;
  let server: GitServer;
  let browser: TestBrowser;
  let url: string;
  const pages = new Map<string, string>(); // git path -> site path

  beforeAll(async () => {
    ({ t, url } = await servedTestApp({ outboundAllowPrivate: true }, { downloads: true }));
    server = await startGitServer();
    const org = await createOrganization(t);
    const token = org.admin.token;
    createRepository(server, 'harbour', readFixture());
    const space = await spaceWith(t, org, 'Harbour');
    expect((await t.request('POST', `/v1/spaces/${space}/git/import`, { token, body: { url: server.url('harbour'), ref: 'refs/heads/main' } })).status).toBe(204);
    await t.runJobsUntilIdle();
    const content = await t.request('GET', `/v1/spaces/${space}/content`, { token });
    const flat = (list: any[]): any[] => list.flatMap((p) => [p, ...flat(p.pages ?? [])]);
    for (const page of flat(content.body.pages)) if (page.git?.path) pages.set(page.git.path, page.path);
    // A refused publish throws.
    await publishSite(t, org, { title: 'Harbour', basename: 'harbour', spaces: [space] });
    browser = await TestBrowser.launch();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await server?.close();
  });

  it('every relative link and image of every page answers 200, and none ends in .md', async () => {
    expect(pages.size).toBe(8);
    const problems: string[] = [];
    const status = new Map<string, number>();
    const seen = new Map<string, string[]>(); // git path -> targets on its page
    const context = await browser.context();
    for (const [file, sitePath] of pages) {
      const page = await context.newPage();
      const response = await page.goto(`${url}/sites/harbour/${sitePath}`);
      expect(response?.status(), file).toBe(200);
      const targets: string[] = await page.evaluate(() => [
        ...[...document.querySelectorAll('main a[href]')].map((a: any) => a.href),
        ...[...document.querySelectorAll('main img[src]')].map((img: any) => img.src),
      ]);
      seen.set(file, targets);
      for (const target of targets) {
        if (!target.startsWith(url)) continue;
        const bare = target.split('#')[0];
        // The page's own markdown alternate is the one `.md` address a page has.
        const own = bare === `${url}/sites/harbour/${sitePath}.md`;
        if (/\.md$/i.test(new URL(bare).pathname) && !own) problems.push(`${file}: ${target} ends in .md`);
        if (!status.has(bare)) status.set(bare, (await page.request.get(bare)).status());
        if (status.get(bare) !== 200) problems.push(`${file}: ${target} answers ${status.get(bare)}`);
      }
      await page.close();
    }
    await context.close();
    expect(problems, problems.join('\n')).toEqual([]);

    const site = (file: string) => `${url}/sites/harbour/${pages.get(file)}`;
    const on = (file: string) => seen.get(file) ?? [];
    // Card targets, links in <pre><code> and in HTML table cells lead to the pages they name.
    expect(on('README.md')).toEqual(expect.arrayContaining([site('guides/mooring.md'), site('guides/deep/anchoring.md'), `${site('guides/deep/README.md')}#depths`]));
    expect(on('guides/mooring.md')).toEqual(expect.arrayContaining([site('guides/deep/anchoring.md'), site('guides/deep/README.md'), site('README.md'), `${site('reference/tide-api.md')}#tides`]));
    // A page whose SUMMARY.md entry has a page link title with escaped quotes (`"\\"Berth\\" tab"`) is a page: linked, not text.
    expect(on('guides/mooring.md')).toEqual(expect.arrayContaining([site('guides/berth-tab.md')]));
    expect(on('guides/berth-tab.md')).toEqual(expect.arrayContaining([site('guides/mooring.md')]));
    // README pages: `./#anchor` stays on the page, `../` and `./` are the folder's and the parent's pages.
    expect(on('guides/README.md')).toEqual(expect.arrayContaining([`${site('guides/README.md')}#the-list`, site('README.md'), site('guides/deep/README.md')]));
    expect(on('guides/deep/anchoring.md')).toEqual(expect.arrayContaining([site('guides/deep/README.md'), site('guides/mooring.md')]));
    expect(on('guides/deep/README.md')).toEqual(expect.arrayContaining([site('guides/README.md')]));
    // A page's address written as the link; the group's pages are under its anchored slug.
    expect(pages.get('reference/tide-api.md')).toBe('tide-tables/reference/tide-api');
    expect(on('reference/README.md')).toEqual(expect.arrayContaining([`${site('reference/tide-api.md')}#tides`]));
    // Images (in markdown, in an HTML cell, above the top) and the OpenAPI fallback's asset are files of the space.
    for (const file of ['README.md', 'guides/mooring.md', 'guides/deep/README.md', 'guides/deep/anchoring.md', 'reference/tide-api.md']) {
      expect(on(file).some((target) => target.includes('/downloads/blobs/')), `${file} shows its file`).toBe(true);
    }
  });
  it('shows the anchored group\'s title as text in the navigation, at 1280 and 390 px, light and dark', async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    for (const width of [1280, 390]) {
      for (const scheme of ['light', 'dark'] as const) {
        const page = await browser.page(viewportOf(width, width < 800 ? 844 : 900, scheme));
        expect((await page.goto(`${url}/sites/harbour/${pages.get('reference/README.md')}`))?.status()).toBe(200);
        const groups: string[] = await page.evaluate(() => [...document.querySelectorAll('.page-tree .group-title')].map((g: any) => g.textContent));
        expect(groups).toEqual(['潮汐']);
        // On a phone the navigation is a drawer: opened to be seen.
        if (width < 800) await page.click('#menu-toggle');
        await page.screenshot({ path: path.join(SHOTS, `group-${width}-${scheme}.png`), fullPage: false });
        if (width === 1280) {
          // The page linking the one listed with an escaped-quote title: its link is a link.
          expect((await page.goto(`${url}/sites/harbour/${pages.get('guides/mooring.md')}`))?.status()).toBe(200);
          await page.screenshot({ path: path.join(SHOTS, `berth-link-${scheme}.png`), fullPage: true });
        }
        await page.close();
      }
    }
  });
});
