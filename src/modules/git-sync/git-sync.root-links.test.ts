import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAfterJobs, type TestApp } from '../../../test/app.ts';
import { createOrganization, createSite, createSpace, type TestOrganization } from '../../../test/factories.ts';
import { createRepository, type GitServer } from '../../../test/git-server.ts';
import { gitSyncTestApp } from '../../../test/git-sync-app.ts';

/*
 * Links of a repository whose content root is not its top (`.gitbook.yaml` `root: ./docs/`):
 * `/path` is read from the content root and `..` stops at its top, at import, when the page
 * is read back as markdown (the written href is kept) and on the published site (issue 31).
 * Made-up text. SQLite, and PostgreSQL when DATABASE_URL is set.
 */
const LONG_IMAGE = `image (2)${' (1)'.repeat(59)}.png`;
/** A 1×1 PNG. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082', 'hex');

describe('git sync: links under a content root', () => {
  let t: TestApp;
  let server: GitServer;
  let org: TestOrganization;

  beforeAll(async () => {
    ({ t, server } = await gitSyncTestApp());
    org = await createOrganization(t, { title: 'Rooted' });
  }, 120_000);
  afterAll(() => closeAfterJobs(t, server), 120_000);

  async function ok(method: 'GET' | 'POST' | 'PATCH', url: string, options: { body?: unknown; query?: Record<string, string> } = {}) {
    const res = await t.request(method, url, { token: org.admin.token, ...options });
    t.clock.advance(1000);
    expect(res.status, `${method} ${url}: ${res.text}`).toBeLessThan(300);
    return res.body;
  }

  /** A new space of the organization, imported from the stand-in's repository `name` (its import job run). */
  async function importedSpace(name: string, title: string) {
    const space = await createSpace(t, { organization: org, title });
    const S = `/v1/spaces/${space.id}`;
    const imported = await t.request('POST', `${S}/git/import`, { token: org.admin.token, body: { url: server.url(name), ref: 'refs/heads/main' } });
    expect(imported.status, imported.text).toBe(204);
    await t.runJobsUntilIdle();
    return { space, S };
  }

  it('keeps `/path` and `..` links written from the content root, reads them back as written and links them on the site', async () => {
    const body = 'See [the locks](/reference/locks.md#gates), [home](../../../README.md) and [the lock keeper](../reference/locks.md).\n';
    createRepository(server, 'rooted', {
      '.gitbook.yaml': 'root: ./docs/\n',
      'docs/SUMMARY.md': '# Table of contents\n\n* [Canal](README.md)\n* [Boating](guides/boating.md)\n* [Locks](reference/locks.md)\n',
      'docs/README.md': '# Canal\n\nWelcome.\n',
      'docs/guides/boating.md': `# Boating\n\n${body}\n<pre><code>Read <a href="/reference/locks.md">locks</a>.\n</code></pre>\n`,
      'docs/reference/locks.md': '# Locks\n\n## Gates\n\nOpen slowly.\n',
      // A top-level file of the same name outside the content root: `/reference/locks.md` must not mean it.
      'reference/locks.md': '# Not the docs\n',
    });
    const { space, S } = await importedSpace('rooted', 'Canal');
    const flat = (pages: any[]): any[] => pages.flatMap((p) => [p, ...flat(p.pages ?? [])]);
    const pages = flat((await ok('GET', `${S}/content`)).pages);
    const byPath = Object.fromEntries(pages.map((p: any) => [p.git?.path, p]));
    const boating = byPath['docs/guides/boating.md'];
    const locks = byPath['docs/reference/locks.md'];
    const home = byPath['docs/README.md'];
    expect([boating, locks, home].every(Boolean)).toBe(true);

    // Bound to the pages, and read back as written.
    const doc = await ok('GET', `${S}/content/page/${boating.id}`);
    expect(JSON.stringify(doc.document)).toContain(`"page":"${locks.id}"`);
    const markdown = await ok('GET', `${S}/content/page/${boating.id}`, { query: { format: 'markdown' } });
    expect(markdown.markdown).toContain(body.trim());

    // Published: every link is the page's site URL and answers 200; the verbatim `<a>` too.
    const site = await createSite(t, { organization: org, spaces: [space.id] });
    await ok('PATCH', site.url, { body: { basename: 'canal' } });
    await ok('POST', `${site.url}/publish`);
    const siteUrl = (page: any, anchor = '') => `/sites/canal/${page.path}`.replace(/\/$/, '') + anchor;
    const res = await t.app.inject({ method: 'GET', url: siteUrl(boating) });
    expect(res.statusCode).toBe(200);
    const main = res.body.slice(res.body.indexOf('<main'), res.body.indexOf('</main>'));
    const hrefOf = (text: string) => new RegExp(`<a [^>]*href="([^"]*)"[^>]*>${text}</a>`).exec(main)?.[1]?.replace(/&amp;/g, '&');
    expect([hrefOf('the locks'), hrefOf('home'), hrefOf('the lock keeper'), hrefOf('locks')]).toEqual([siteUrl(locks, '#gates'), siteUrl(home), siteUrl(locks), siteUrl(locks)]);
    for (const page of [locks, home]) expect((await t.app.inject({ method: 'GET', url: siteUrl(page) })).statusCode).toBe(200);
  }, 120_000);

  it('keeps a link to a path `.gitbook.yaml` redirects as written on read-back; written back through the API it leads to the page again', async () => {
    const link = 'See [the mooring rules](../guides/mooring.md#ropes) and [again](/guides/mooring).';
    createRepository(server, 'redirected', {
      // The page moved from guides/ to reference/; the old path is redirected (written with slashes and `.md`).
      '.gitbook.yaml': 'root: ./docs/\n\nredirects:\n  /guides/mooring.md/: reference/mooring.md\n',
      'docs/SUMMARY.md': '# Table of contents\n\n* [Canal](README.md)\n* [Locks](reference/locks.md)\n* [Mooring](reference/mooring.md)\n',
      'docs/README.md': '# Canal\n\nWelcome.\n',
      'docs/reference/locks.md': `# Locks\n\n${link}\n`,
      'docs/reference/mooring.md': '# Mooring\n\n## Ropes\n\nTie twice.\n',
    });
    const { space, S } = await importedSpace('redirected', 'Moved');
    const pages = (await ok('GET', `${S}/content`)).pages;
    const locks = pages.find((p: any) => p.title === 'Locks');
    const mooring = pages.find((p: any) => p.title === 'Mooring');
    const bound = (document: unknown) => JSON.stringify(document).match(new RegExp(`"page":"${mooring.id}"`, 'g'))?.length ?? 0;
    expect(bound((await ok('GET', `${S}/content/page/${locks.id}`)).document)).toBe(2);
    const markdown = (await ok('GET', `${S}/content/page/${locks.id}`, { query: { format: 'markdown' } })).markdown as string;
    expect(markdown).toContain(link);

    // The markdown read back, sent back in a change request: both links lead to the page, and read back the same.
    const cr = await ok('POST', `${S}/change-requests`, { body: { subject: 'Same text' } });
    await ok('POST', `${S}/change-requests/${cr.id}/content`, { body: { changes: [{ operation: 'update_page', page: locks.id, document: { markdown } }] } });
    const inCr = `${S}/change-requests/${cr.id}/content/page/${locks.id}`;
    expect(bound((await ok('GET', inCr)).document)).toBe(2);
    expect((await ok('GET', inCr, { query: { format: 'markdown' } })).markdown).toContain(link);

    // The old address on the published site, however written, redirects to the page.
    const site = await createSite(t, { organization: org, spaces: [space.id] });
    await ok('PATCH', site.url, { body: { basename: 'moved' } });
    await ok('POST', `${site.url}/publish`);
    for (const old of ['/sites/moved/guides/mooring', '/sites/moved/guides/mooring.md']) {
      const res = await t.app.inject({ method: 'GET', url: old });
      expect(res.statusCode, old).toBe(302);
      expect(res.headers.location, old).toBe(`/sites/moved/${mooring.path}${old.endsWith('.md') ? '.md' : ''}`);
    }
  }, 120_000);

  it('binds links to files whose names hold spaces, parentheses, `#`, `&`, `+` and accents, and `/`, however written; every published link answers', async () => {
    createRepository(server, 'odd-names', {
      'SUMMARY.md': [
        '# Table of contents',
        '',
        '* [Home](README.md)',
        '* [Privesc (linux)](<linux/privesc (linux).md>)',
        '* [C#](windows/C%23.md)',
        '* [R&D](notes/r%26d.md)',
        '* [Plus](notes/a+b.md)',
        '* [Café](notes/café.md)',
        '',
      ].join('\n'),
      'README.md': '# Home\n\nSee [privesc](<linux/privesc (linux).md>), [privesc again](linux/privesc%20\\(linux\\).md), [C#](windows/C%23.md), [R&D](notes/r%26d.md), [plus](notes/a%2Bb.md) and [café](notes/caf%C3%A9.md).\n\nOld tooling: [the archive](scripts/archive/).\n',
      // A folder SUMMARY.md leaves out, with a README: no page, so the link to it is its text.
      'scripts/archive/README.md': '# Archive\n',
      'linux/privesc (linux).md': '# Privesc (linux)\n\nBack [home](/) or to [C#](../windows/C%23.md#usage).\n',
      'windows/C#.md': '# C#\n\n## Usage\n\nSee [R&D](../notes/r&d.md).\n',
      'notes/r&d.md': '# R&D\n\nSee [plus](a+b.md).\n',
      'notes/a+b.md': '# Plus\n\nSee [café](café.md).\n',
      'notes/café.md': `# Café\n\nBack [home](../README.md).\n\n![shot](<../.gitbook/assets/${LONG_IMAGE}>)\n`,
      // GitBook names an image uploaded again and again `image (2) (1) (1) … .png`: 250 characters here.
      [`.gitbook/assets/${LONG_IMAGE}`]: PNG,
    });
    const { space, S } = await importedSpace('odd-names', 'Odd names');
    const pages = (await ok('GET', `${S}/content`)).pages;
    // Every SUMMARY entry is its file's page (none an empty page of a misread path).
    expect(pages.map((p: any) => [p.title, p.git?.path])).toEqual([
      ['Home', 'README.md'],
      ['Privesc (linux)', 'linux/privesc (linux).md'],
      ['C#', 'windows/C#.md'],
      ['R&D', 'notes/r&d.md'],
      ['Plus', 'notes/a+b.md'],
      ['Café', 'notes/café.md'],
    ]);
    const site = await createSite(t, { organization: org, spaces: [space.id] });
    await ok('PATCH', site.url, { body: { basename: 'odd' } });
    await ok('POST', `${site.url}/publish`);
    let links = 0;
    let images = 0;
    for (const page of pages) {
      const url = `/sites/odd/${page.path}`.replace(/\/$/, '');
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      const main = res.body.slice(res.body.indexOf('<main'), res.body.indexOf('</main>'));
      if (page.git?.path === 'README.md') expect(main).toContain('<span data-unresolved-link="scripts/archive/" title="Not a page of this site: scripts/archive/README.md">the archive</span>');
      else expect(main, url).not.toContain('data-unresolved-link');
      for (const [, href] of main.matchAll(/<(?:a [^>]*href|img [^>]*src)="([^"]*)"/g)) {
        if (href.startsWith('#')) continue;
        links++;
        const target = new URL(href.replace(/&amp;/g, '&'), `http://x${url}`);
        expect(target.pathname, `${url} -> ${href}`).toMatch(/^\/(?:sites\/odd(?:\/|$)|downloads\/)/);
        if (target.pathname.startsWith('/downloads/')) images++;
        expect((await t.app.inject({ method: 'GET', url: target.pathname + target.search })).statusCode, `${url} -> ${href}`).toBe(200);
      }
    }
    expect(links).toBeGreaterThanOrEqual(14);
    expect(images).toBe(1);
  }, 120_000);
  it('reads a group heading anchored to its slug and links written as page addresses: pages keep their addresses, links lead to them, no markup in the navigation', async () => {
    const home = 'Start with [setup](guides/setup#install) or [usage](guides/usage/).\n';
    createRepository(server, 'addresses', {
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n\n## 手册 <a href="#guides" id="guides"></a>\n\n* [Setup](guides/setup.md)\n* [Usage](guides/usage.md)\n',
      'README.md': `# Home\n\n${home}`,
      'guides/setup.md': '# Setup\n\n## Install\n\nRun it, then see [usage](usage).\n',
      'guides/usage.md': "# Usage\n\n![Do and don't](../.gitbook/assets/Don't.png)\n",
      ".gitbook/assets/Don't.png": PNG,
    });
    const { space, S } = await importedSpace('addresses', 'Addresses');
    const pages = (await ok('GET', `${S}/content`)).pages;
    expect(pages.map((p: any) => [p.type, p.title, p.path])).toEqual([
      ['document', 'Home', 'home'],
      ['group', '手册', 'guides'],
    ]);
    expect(pages[1].pages.map((p: any) => p.path)).toEqual(['guides/setup', 'guides/usage']);
    const readme = await ok('GET', `${S}/content/page/${pages[0].id}`, { query: { format: 'markdown' } });
    expect(readme.markdown).toContain(home.trim());

    const site = await createSite(t, { organization: org, spaces: [space.id] });
    await ok('PATCH', site.url, { body: { basename: 'addresses' } });
    await ok('POST', `${site.url}/publish`);
    const decode = (value: string) => value.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    const written: string[] = [];
    for (const url of ['/sites/addresses', '/sites/addresses/guides/setup', '/sites/addresses/guides/usage']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      const main = res.body.slice(res.body.indexOf('<main'), res.body.indexOf('</main>'));
      expect(main, url).not.toContain('data-unresolved-link');
      // The group's title is text in the navigation, not HTML shown as text.
      expect(res.body.replace(main, ''), url).toContain('>手册<');
      expect(res.body.replace(main, ''), url).not.toContain('&lt;a');
      // Every link and image of the page answers, as a browser reads its attribute (`Don&#39;t.png`).
      for (const [, href] of main.matchAll(/<(?:a [^>]*href|img [^>]*src)="([^"]*)"/g)) {
        if (href.startsWith('#')) continue;
        const target = new URL(decode(href), `http://x${url}`);
        expect((await t.app.inject({ method: 'GET', url: target.pathname + target.search })).statusCode, `${url} -> ${href}`).toBe(200);
      }
      // The links the pages' text wrote, in order: each the page it names.
      for (const [, href] of main.matchAll(/<a [^>]*href="([^"]*)"[^>]*>(?:setup|usage)<\/a>/g)) {
        const target = new URL(decode(href), `http://x${url}`);
        written.push(target.pathname + target.hash);
      }
    }
    expect(written).toEqual(['/sites/addresses/guides/setup#install', '/sites/addresses/guides/usage', '/sites/addresses/guides/usage']);
  }, 120_000);
  it('retitles a group anchored to its old slug on the next import: its pages keep their ids and addresses under it, no group is left over', async () => {
    // A space imported before group anchors were read holds the heading's HTML in its group's
    // title: the same change of title as this one, which the next sync reads.
    const repo = createRepository(server, 'retitled-group', {
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n\n## Handbook\n\n* [Setup](guides/setup.md)\n',
      'README.md': '# Home\n\nSee [setup](guides/setup.md).\n',
      'guides/setup.md': '# Setup\n\nRun it.\n',
    });
    const { S } = await importedSpace('retitled-group', 'Retitled');
    const before = (await ok('GET', `${S}/content`)).pages;
    expect(before.map((p: any) => [p.type, p.title, p.path])).toEqual([
      ['document', 'Home', 'home'],
      ['group', 'Handbook', 'handbook'],
    ]);
    repo.commit({ 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n\n## 手册 <a href="#handbook" id="handbook"></a>\n\n* [Setup](guides/setup.md)\n' }, 'Retitle the group');
    const again = await t.request('POST', `${S}/git/import`, { token: org.admin.token, body: { url: server.url('retitled-group'), ref: 'refs/heads/main' } });
    expect(again.status, again.text).toBe(204);
    await t.runJobsUntilIdle();
    const after = (await ok('GET', `${S}/content`)).pages;
    expect(after.map((p: any) => [p.type, p.title, p.path])).toEqual([
      ['document', 'Home', 'home'],
      ['group', '手册', 'handbook'],
    ]);
    expect(after[0].id).toBe(before[0].id);
    expect(after[1].pages.map((p: any) => [p.id, p.path])).toEqual(before[1].pages.map((p: any) => [p.id, p.path]));
  }, 120_000);
});
