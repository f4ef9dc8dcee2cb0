import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, createSite, createSpace, type TestOrganization } from '../../../test/factories.ts';
import { createRepository, git, startGitServer, type GitServer } from '../../../test/git-server.ts';

/*
 * Links of a git-synced space to markdown files that are not pages of it (issue 31).
 * GitBook imports only the pages SUMMARY.md lists: a link to a repository's markdown file
 * that SUMMARY.md leaves out is not a link to a page of the space. The published site shows
 * its text with no href (a `<span data-unresolved-link>` whose title names the file), never an
 * href ending in `.md` nor a link answering 404; the markdown read back and the git export
 * keep the link exactly as written. A link to a folder's README written in another case
 * (`readme.md`) is a link to that page; a folder link naming a SUMMARY.md group (a slug path
 * with no page) leads to the group's first page, never to the group's own address. Made-up text. SQLite, and PostgreSQL when DATABASE_URL is set.
 */
describe('git sync: links to markdown files SUMMARY.md does not list', () => {
  let t: TestApp;
  let server: GitServer;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await createTestApp({ outboundAllowPrivate: true });
    server = await startGitServer();
    org = await createOrganization(t, { title: 'Kite flying' });
  }, 120_000);
  afterAll(async () => {
    await t?.runJobsUntilIdle();
    await t?.close();
    await server?.close();
  }, 120_000);

  async function ok(method: 'GET' | 'POST' | 'PATCH', url: string, options: { body?: unknown; query?: Record<string, string> } = {}) {
    const res = await t.request(method, url, { token: org.admin.token, ...options });
    t.clock.advance(1000);
    expect(res.status, `${method} ${url}: ${res.text}`).toBeLessThan(300);
    return res.body;
  }

  it('shows such a link as its text on the site, reads it back and exports it as written', async () => {
    const body = [
      'Check [the wind table](notes/wind.md#gusts) before flying, and the [birds](../birds/readme.md) nearby.',
      '',
      'Then take [the lessons](../flying-lessons/).',
      '',
      '{% content-ref url="notes/wind.md" %}',
      '[wind.md](notes/wind.md)',
      '{% endcontent-ref %}',
      '',
      '<table><tr><td><a href="notes/wind.md">Wind by month</a></td></tr></table>',
      '',
    ].join('\n');
    const kites = `# Kites\n\n${body}`;
    const repo = createRepository(server, 'kites', {
      // `## Flying lessons` is a group: no page, though its slug is a path of the site's tree.
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Kites](guides/kites.md)\n* [Birds](birds/README.md)\n\n## Flying lessons\n\n* [First lesson](lessons/first.md)\n',
      'README.md': '# Home\n\nWelcome.\n',
      'guides/kites.md': kites,
      // In the repository, not in SUMMARY.md: not a page of the space.
      'guides/notes/wind.md': '# Wind\n\nCalm mornings.\n',
      'birds/README.md': '# Birds\n\nGulls.\n',
      'lessons/first.md': '# First lesson\n\nHold on.\n',
    });
    const space = await createSpace(t, { organization: org, title: 'Kite flying' });
    const S = `/v1/spaces/${space.id}`;
    await ok('POST', `${S}/git/import`, { body: { url: server.url('kites'), ref: 'refs/heads/main' } });
    await t.runJobsUntilIdle();
    const flat = (pages: any[]): any[] => pages.flatMap((p) => [p, ...flat(p.pages ?? [])]);
    const pages = flat((await ok('GET', `${S}/content`)).pages);
    expect(pages.map((p: any) => p.git?.path ?? p.type).sort()).toEqual(['README.md', 'birds/README.md', 'group', 'guides/kites.md', 'lessons/first.md']);
    const byPath = Object.fromEntries(pages.map((p: any) => [p.git?.path, p]));
    const page = byPath['guides/kites.md'];

    // Read back as written.
    const markdown = await ok('GET', `${S}/content/page/${page.id}`, { query: { format: 'markdown' } });
    expect(markdown.markdown).toBe(body);

    // Published: the text, no href ending in .md, no link answering 404; the README link goes to the page.
    const site = await createSite(t, { organization: org, spaces: [space.id] });
    await ok('PATCH', site.url, { body: { basename: 'windy' } });
    await ok('POST', `${site.url}/publish`);
    const res = await t.app.inject({ method: 'GET', url: `/sites/windy/${page.path}` });
    expect(res.statusCode).toBe(200);
    const main = res.body.slice(res.body.indexOf('<main'), res.body.indexOf('</main>'));
    expect(main).toContain('<span data-unresolved-link="notes/wind.md#gusts" title="Not a page of this site: guides/notes/wind.md">the wind table</span>');
    expect(main).toMatch(/<div class="content-ref"><span data-unresolved-link="notes\/wind\.md" title="[^"]*guides\/notes\/wind\.md">notes\/wind\.md<\/span><\/div>/);
    expect(main).toContain('<a data-unresolved-link="notes/wind.md" title="Not a page of this site: guides/notes/wind.md">Wind by month</a>');
    // The page's own markdown alternate (`View as Markdown`) aside: the article's links.
    const article = main.slice(main.indexOf('<article>'));
    const hrefs = [...article.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs.filter((h) => /\.md(?:$|#)/.test(h))).toEqual([]);
    expect(hrefs).toContain(`/sites/windy/${byPath['birds/README.md'].path}`);
    // A folder link naming a group (the repository has no such folder's README) leads to the
    // group's first page, as a page reference to a group does (reader-links.ts landingPage).
    expect(hrefs).toContain(`/sites/windy/${byPath['lessons/first.md'].path}`);
    expect(hrefs.filter((h) => /flying-lessons\/?$/.test(h))).toEqual([]);
    for (const href of hrefs.filter((h) => h.startsWith('/sites/'))) expect((await t.app.inject({ method: 'GET', url: href })).statusCode, href).toBe(200);

    // An untouched export writes the page byte for byte.
    createRepository(server, 'kites-out', { 'placeholder.txt': 'x' });
    await ok('POST', `${S}/git/export`, { body: { url: server.url('kites-out'), ref: 'refs/heads/gitbook', commitMessage: 'Untouched export' } });
    await t.runJobsUntilIdle();
    const blob = (bare: string, ref: string, file: string) => git(bare, 'rev-parse', `${ref}:${file}`).trim();
    expect(blob(path.join(server.root, 'kites-out.git'), 'refs/heads/gitbook', 'guides/kites.md')).toBe(blob(repo.bare, 'main', 'guides/kites.md'));
  }, 120_000);
});
