/*
 * The held-out measurement of GitBook-written markdown (issue 31). Reads a corpus made by
 * bench/corpus-prepare.mjs (manifest.json: repositories, commits, halves, last commit of
 * every page) and reports per half, for every page of every repository:
 *
 * - engine: byte-identical after one round trip (all pages, and pages GitBook wrote in the
 *   last two years), stable on the second, pages losing visible words, pages whose rendered
 *   text shows raw markup;
 * - API, as a migrating team would: the repository served by a local git smart-HTTP server
 *   (test/git-server.ts), imported by git sync (POST {S}/git/import), every page read back
 *   as markdown through the content endpoint (byte-identical to the file's body, front
 *   matter and `# Title` aside?), the space
 *   published and every page fetched from the site: raw markup in its visible text
 *   (`<p>`, `<table`, `<button`, `{%`, escaped `\<`, where the source does not write them as
 *   text), words lost (what is compared: bench/corpus-measure.ts), and relative links and
 *   images that are broken (an `href` still ending in `.md`, or a target not answering 200);
 *   a link the site shows as text because it names a markdown file that is no page
 *   (`data-unresolved-link`) is a link to a file that is not a page when the repository holds
 *   that file and SUMMARY.md does not list it, dead in the source when the repository holds
 *   nothing it could name, and broken otherwise (a page Quire failed to bind).
 *
 * Usage: npm run corpus -- --dir /work/corpus [--half held-out|tuning] [--repo owner/name]
 *        [--sample N] [--engine-only] [--verbose]
 * --sample N measures N pages of each repository, chosen by a seeded hash of their paths
 * (the same pages every run); the whole repository is still imported.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { decodeHTMLAttribute } from 'entities';
import { layoutConfig } from '../src/content/git-layout/read.ts';
import { renderDocument } from '../src/site/render-document.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import { createOrganization } from '../test/factories.ts';
import { git, startGitServer, type GitServer } from '../test/git-server.ts';
import { canonical, engineOwned, missingWords, rawMarkup, roundTrip, visibleText } from './corpus-measure.ts';

const { values: opts } = parseArgs({
  options: {
    dir: { type: 'string' },
    half: { type: 'string' },
    repo: { type: 'string', multiple: true },
    sample: { type: 'string' },
    'engine-only': { type: 'boolean' },
    verbose: { type: 'boolean' },
  },
});
if (!opts.dir) {
  console.error('usage: npm run corpus -- --dir <corpus folder> [--repo owner/name] [--engine-only] [--verbose]');
  process.exit(2);
}
const corpus = opts.dir;

interface ManifestRepo {
  repo: string;
  folder: string;
  commit: string;
  commitDate: string;
  half: 'tuning' | 'held-out';
  files: Record<string, { date: string; gitbook: boolean }>;
}
const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8')) as { seed: string; repositories: ManifestRepo[] };
const TWO_YEARS_AGO = new Date(Date.now() - 2 * 365.25 * 24 * 3600 * 1000).toISOString();

interface Tally {
  pages: number;
  identical: number;
  recent: number;
  recentIdentical: number;
  stable: number;
  lostWords: number;
  raw: number;
  apiPages: number;
  apiIdentical: number;
  published: number;
  publishedRaw: number;
  publishedLost: number;
  linkPages: number;
  links: number;
  brokenLinks: number;
  pagesWithBrokenLinks: number;
  mdHrefs: number;
  deadInSource: number;
  notPages: number;
}
const emptyTally = (): Tally => ({ pages: 0, identical: 0, recent: 0, recentIdentical: 0, stable: 0, lostWords: 0, raw: 0, apiPages: 0, apiIdentical: 0, published: 0, publishedRaw: 0, publishedLost: 0, linkPages: 0, links: 0, brokenLinks: 0, pagesWithBrokenLinks: 0, mdHrefs: 0, deadInSource: 0, notPages: 0 });
const add = (a: Tally, b: Tally) => Object.keys(a).forEach((k) => ((a as any)[k] += (b as any)[k]));
// Per-page lines name pages and their words: printed for the tuning half only, so a held-out page is
// measured, never read (docs/decisions/markdown-corpus.md).
const log = (repo: ManifestRepo, line: string) => opts.verbose && repo.half === 'tuning' && console.log(line);

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path, base);
    return [relative(base, path)];
  });
}

/** The repository's pages: markdown files under the content root, SUMMARY.md aside. */
function pagesOf(repo: ManifestRepo): { root: string; summaryPath: string; files: string[] } {
  const dir = join(corpus, repo.folder);
  const config = existsSync(join(dir, '.gitbook.yaml')) ? readFileSync(join(dir, '.gitbook.yaml'), 'utf8') : undefined;
  const { root, summaryPath } = layoutConfig(config, undefined);
  const all = walk(dir)
    .filter((f) => f.endsWith('.md') && f !== summaryPath && posix.basename(f) !== 'SUMMARY.md' && (!root || f.startsWith(root.replace(/\/?$/, '/'))))
    .filter((f) => !f.split('/').some((part) => part.startsWith('.') && part !== '.gitbook'));
  const sample = Number(opts.sample ?? 0);
  if (!sample || all.length <= sample) return { root, summaryPath, files: all };
  const key = (f: string) => createHash('sha256').update(`${manifest.seed}:${repo.repo}:${f}`).digest('hex');
  return { root, summaryPath, files: all.sort((a, b) => (key(a) < key(b) ? -1 : 1)).slice(0, sample).sort() };
}

function measureEngine(repo: ManifestRepo, files: string[], tally: Tally) {
  for (const file of files) {
    const source = readFileSync(join(corpus, repo.folder, file), 'utf8');
    log(repo, `ENGINE ${repo.repo} ${file}`);
    const first = roundTrip(source);
    const second = roundTrip(first.markdown);
    const identical = canonical(first.markdown) === canonical(source);
    const meta = repo.files[file];
    const recent = !!meta && meta.gitbook && meta.date >= TWO_YEARS_AGO;
    tally.pages++;
    if (identical) tally.identical++;
    else log(repo, `DIFFERS ${repo.repo} ${file}`);
    if (recent) tally.recent++;
    if (recent && identical) tally.recentIdentical++;
    if (second.markdown === first.markdown) tally.stable++;
    else log(repo, `UNSTABLE ${repo.repo} ${file}`);
    const html = renderDocument(first.document).html;
    const missing = missingWords(source, html);
    if (missing.length > 0) {
      tally.lostWords++;
      log(repo, `LOST ${repo.repo} ${file}: ${missing.slice(0, 8).join(' ')}`);
    }
    const leaks = rawMarkup(source, html);
    if (leaks.length > 0) {
      tally.raw++;
      log(repo, `RAW ${repo.repo} ${file}: ${leaks.join(' ')}`);
    }
  }
}

/**
 * The files of the repository a link left as written on a published page may name, read any
 * plausible way (from the page's folder, `..` clamped or not; a `/path` from the content
 * root or the repository's top; a folder's README.md, its name in any case, as GitBook reads
 * it); `broken-reference` is GitBook's placeholder for a link to nothing. Decided on the
 * files, not by Quire's rule, so a link Quire fails to bind is never excused.
 */
function sourceFiles(repoDir: string, root: string, file: string, href: string): string[] | 'broken-reference' {
  if (/^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i.test(href) && !href.startsWith('/')) return [];
  let path = href.replace(/#.*$/, '').replace(/\?.*$/, '').replace(/^<|>$/g, '');
  if (path === 'broken-reference') return 'broken-reference';
  path = percentDecoded(path);
  const clamp = (p: string) => posix.normalize(p).replace(/^(?:\.\.(?:\/|$))+/, '') || '.';
  const inRoot = (p: string) => (root ? posix.join(root, p) : p);
  const dir = posix.dirname(file);
  const candidates = path.startsWith('/')
    ? [inRoot(clamp(path.slice(1))), clamp(path.slice(1))]
    : [posix.normalize(posix.join(dir, path)), clamp(posix.join(dir, path)), inRoot(clamp(posix.join(posix.relative(root || '.', dir), path)))];
  const isFile = (p: string) => existsSync(join(repoDir, p)) && statSync(join(repoDir, p)).isFile();
  // A folder's README.md under any spelling of its name.
  const readme = (folder: string) => {
    const full = join(repoDir, folder);
    const name = existsSync(full) && statSync(full).isDirectory() ? readdirSync(full).find((n) => /^readme\.md$/i.test(n)) : undefined;
    return name ? [posix.join(folder, name)] : [];
  };
  const found = new Set<string>();
  for (const candidate of candidates) {
    if (candidate.startsWith('..')) continue;
    if (isFile(candidate)) found.add(posix.normalize(candidate));
    else if (/^readme\.md$/i.test(posix.basename(candidate))) readme(posix.dirname(candidate)).forEach((f) => found.add(f));
    else readme(candidate).forEach((f) => found.add(f));
  }
  return [...found];
}

/**
 * A percent-encoded path decoded name by name, as a URL's path is (`C%23.md` is `C#.md`; decodeURI would leave `%23`).
 * The measure's own, not paths.ts decodePath: a link Quire decodes wrong must not be excused by the same error.
 */
function percentDecoded(path: string): string {
  return path
    .split('/')
    .map((name) => {
      try {
        return decodeURIComponent(name);
      } catch {
        return name;
      }
    })
    .join('/');
}

/** Whether a link left as written on a published page is dead in the source itself: no file of the repository answers it (sourceFiles). */
function deadInSource(repoDir: string, root: string, file: string, href: string): boolean {
  const files = sourceFiles(repoDir, root, file, href);
  return files === 'broken-reference' || files.length === 0;
}

/** The markdown files SUMMARY.md lists (repository paths), read from its links; undefined without one (every file is then a page). */
function summaryListed(repoDir: string, summaryPath: string): Set<string> | undefined {
  const full = join(repoDir, summaryPath);
  if (!existsSync(full)) return undefined;
  const dir = posix.dirname(summaryPath);
  const listed = new Set<string>();
  // A destination in <brackets> may hold spaces and parentheses; a bare one holds neither (the measure's reading, not Quire's).
  for (const [, bracketed, bare] of readFileSync(full, 'utf8').matchAll(/\]\(\s*(?:<([^>\n]*)>|([^)\s]+))/g)) {
    const path = percentDecoded((bracketed ?? bare).replace(/#.*$/, ''));
    if (/^[a-z][a-z0-9+.-]*:/i.test(path)) continue;
    const normal = posix.normalize(posix.join(dir, path));
    listed.add(/\.md$/i.test(normal) ? normal : posix.join(normal, 'README.md'));
  }
  return listed;
}

/** The main content of a published page. */
const mainOf = (html: string) => /<main[\s\S]*?<\/main>/.exec(html)?.[0] ?? html;

async function measureApi(t: TestApp, server: GitServer, repo: ManifestRepo, root: string, summaryPath: string, files: string[], tally: Tally, index: number) {
  const org = await createOrganization(t, { title: repo.repo });
  const token = org.admin.token;
  // The corpus folder as one commit on `main` of a bare repository the git server serves.
  const name = `r${index}`;
  const bare = join(server.root, `${name}.git`);
  const work = join(server.root, `${name}-work`);
  execFileSync('cp', ['-r', join(corpus, repo.folder), work]);
  git(work, 'init', '--quiet', '-b', 'main');
  git(work, 'add', '-A');
  git(work, 'commit', '--quiet', '-m', `corpus ${repo.repo}`);
  git(server.root, 'clone', '--quiet', '--bare', work, bare);
  log(repo, `IMPORT ${repo.repo}`);
  // A space title holds at most 50 characters (GitBook's limit): the repository's name, cut.
  const space = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token, body: { title: repo.repo.slice(0, 50) } });
  if (space.status < 200 || space.status >= 300) throw new Error(`${repo.repo}: creating its space answered ${space.status} ${space.text}`);
  const imported = await t.request('POST', `/v1/spaces/${space.body.id}/git/import`, { token, body: { url: server.url(name), ref: 'refs/heads/main' } });
  if (imported.status !== 204) throw new Error(`${repo.repo}: import answered ${imported.status} ${imported.text}`);
  await t.runJobsUntilIdle();
  log(repo, `IMPORTED ${repo.repo}`);
  // A measurement, not a conformance check: GitBook's response schema is not validated (slow on large revisions).
  const content = await t.request('GET', `/v1/spaces/${space.body.id}/content`, { token, skipSchemaCheck: true });
  const flat = (pages: any[]): any[] => pages.flatMap((p) => [p, ...flat(p.pages ?? [])]);
  const pages = flat(content.body.pages ?? []).filter((p) => p.type === 'document');
  log(repo, `CONTENT ${repo.repo}: ${pages.length} pages`);
  const site = await t.request('POST', `/v1/orgs/${org.id}/sites`, { token, body: { title: repo.repo, spaces: [space.body.id] } });
  await t.request('PATCH', `/v1/orgs/${org.id}/sites/${site.body.id}`, { token, body: { basename: name } });
  log(repo, `PUBLISH ${repo.repo} (${pages.length} pages)`);
  const published = await t.request('POST', `/v1/orgs/${org.id}/sites/${site.body.id}/publish`, { token });
  if (published.status >= 300) throw new Error(`${repo.repo}: publish answered ${published.status}`);
  const status = new Map<string, number>();
  const get = async (url: string) => {
    let code = status.get(url);
    if (code === undefined) {
      code = (await t.app.inject({ method: 'GET', url })).statusCode;
      status.set(url, code);
    }
    return code;
  };
  const measured = new Set(files);
  const listed = summaryListed(join(corpus, repo.folder), summaryPath);
  for (const page of pages) {
    const file: string | undefined = page.git?.path;
    if (!file || !measured.has(file)) continue;
    const source = readFileSync(join(corpus, repo.folder, file), 'utf8');
    tally.apiPages++;
    const read = await t.request('GET', `/v1/spaces/${space.body.id}/content/page/${page.id}`, { token, query: { format: 'markdown' }, skipSchemaCheck: true });
    // The endpoint returns the body only: front matter and `# Title` are the page's metadata and title.
    // The blank line after `# Title` separates the title from the body: it is not the body's.
    const owned = engineOwned(source).replace(/^(?:[ \t]*\r?\n)+/, '');
    if (read.status === 200 && canonical(read.body.markdown ?? '') === canonical(owned)) tally.apiIdentical++;
    else if (opts.verbose && repo.half === 'tuning') {
      // The first line that differs (tuning pages only: held-out pages are measured, not read).
      const a = canonical(owned).split('\n');
      const b = canonical(read.body.markdown ?? '').split('\n');
      const at = a.findIndex((line, i) => line !== b[i]);
      log(repo, `API-DIFFERS ${repo.repo} ${file} (${read.status}) line ${at + 1}:\n  - ${a[at]}\n  + ${b[at]}`);
      // CORPUS_DUMP=<folder>: the whole page read back, to compare with its file (tuning pages only).
      if (process.env.CORPUS_DUMP) writeFileSync(join(process.env.CORPUS_DUMP, file.replace(/\//g, '_')), read.body.markdown ?? '');
    }
    const pageUrl = `/sites/${name}/${page.path}`;
    log(repo, `PAGE ${pageUrl}`);
    const res = await t.app.inject({ method: 'GET', url: pageUrl });
    if (res.statusCode !== 200) {
      log(repo, `UNPUBLISHED ${repo.repo} ${file} ${res.statusCode}`);
      continue;
    }
    tally.published++;
    const main = mainOf(res.body);
    const leaks = rawMarkup(source, main);
    // The site's navigation shows every page's and group's title: HTML elements a title holds by
    // mistake are raw markup too (not any `<T>`: a title may be `List<T>`; not the outline, whose
    // headings may show `<span>` as their text meant).
    const sidebar = /<aside class="sidebar"[\s\S]*?<\/aside>/.exec(res.body)?.[0] ?? '';
    const navLeak = /<\/?(?:a|p|div|span|table|img|br|button|b|i|em|strong|code|sup|sub|mark|details|summary)\b[^>]*>|\{%/i.exec(visibleText(sidebar))?.[0];
    if (navLeak) leaks.push(`navigation: ${navLeak}`);
    if (leaks.length > 0) {
      tally.publishedRaw++;
      log(repo, `PUBLISHED-RAW ${repo.repo} ${file}: ${leaks.join(' ')}`);
    }
    const lost = missingWords(source, main);
    if (lost.length > 0) {
      tally.publishedLost++;
      log(repo, `PUBLISHED-LOST ${repo.repo} ${file}: ${lost.slice(0, 10).join(' ')}`);
    }
    let broken = 0;
    let any = false;
    for (const [, attr, value] of main.matchAll(/\s(href|src)="([^"]*)"/g)) {
      // As a browser reads the attribute (`Don&#39;t.png` is `Don't.png`).
      const target = decodeHTMLAttribute(value);
      if (/^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i.test(target) && !target.startsWith(t.config.publicUrl)) continue;
      any = true;
      tally.links++;
      const resolved = new URL(target, `${t.config.publicUrl}${pageUrl}`);
      // The page's own markdown alternate is the one `.md` address a page has.
      const isMd = attr === 'href' && /\.md$/i.test(resolved.pathname) && resolved.pathname !== `${pageUrl}.md`;
      if (isMd) tally.mdHrefs++;
      if (isMd || (await get(resolved.pathname + resolved.search)) !== 200) {
        // A link left as written whose target the repository does not hold is dead in the source, not broken by Quire.
        const asWritten = !target.startsWith(`/sites/${name}/`) && !target.startsWith(t.config.publicUrl) && !target.includes('/downloads/');
        if (asWritten && deadInSource(join(corpus, repo.folder), root, file, target)) {
          tally.deadInSource++;
          log(repo, `DEAD-IN-SOURCE ${repo.repo} ${file}: ${target}`);
          continue;
        }
        broken++;
        log(repo, `BROKEN ${repo.repo} ${file}: ${target}`);
      }
    }
    // Links the site shows as text: they name a markdown file that is no page of the space.
    for (const [, written] of main.matchAll(/\sdata-unresolved-link="([^"]*)"/g)) {
      const target = decodeHTMLAttribute(written);
      any = true;
      tally.links++;
      const found = sourceFiles(join(corpus, repo.folder), root, file, target);
      if (found === 'broken-reference' || found.length === 0) {
        tally.deadInSource++;
        log(repo, `DEAD-IN-SOURCE ${repo.repo} ${file}: ${target}`);
      } else if (listed && found.every((f) => /\.md$/i.test(f) && !listed.has(f))) {
        tally.notPages++;
        log(repo, `NOT-A-PAGE ${repo.repo} ${file}: ${target}`);
      } else {
        broken++;
        log(repo, `BROKEN ${repo.repo} ${file}: ${target} (shown as text)`);
      }
    }
    if (any) tally.linkPages++;
    tally.brokenLinks += broken;
    if (broken > 0) tally.pagesWithBrokenLinks++;
  }
}

const pct = (n: number, d: number) => (d ? `${n} (${((100 * n) / d).toFixed(1)}%)` : '-');
const row = (label: string, x: Tally) =>
  `| ${label} | ${x.pages} | ${pct(x.identical, x.pages)} | ${x.recent ? `${x.recentIdentical} of ${x.recent} (${((100 * x.recentIdentical) / x.recent).toFixed(1)}%)` : '-'} | ${pct(x.stable, x.pages)} | ${x.lostWords} | ${x.raw} |` +
  (opts['engine-only'] ? '' : ` ${pct(x.apiIdentical, x.apiPages)} | ${x.published} | ${x.publishedRaw} | ${x.publishedLost} | ${pct(x.pagesWithBrokenLinks, x.linkPages)} | ${x.brokenLinks}/${x.links} (${x.mdHrefs} .md) | ${x.deadInSource} | ${x.notPages} |`);

const halves = { tuning: emptyTally(), 'held-out': emptyTally() };
const lines: string[] = [];
let t: TestApp | undefined;
let server: GitServer | undefined;
try {
  if (!opts['engine-only']) {
    t = await createTestApp({ outboundAllowPrivate: true });
    server = await startGitServer();
  }
  let index = 0;
  for (const repo of manifest.repositories) {
    if (opts.repo && !opts.repo.includes(repo.repo)) continue;
    if (opts.half && repo.half !== opts.half) continue;
    const tally = emptyTally();
    const { root, summaryPath, files } = pagesOf(repo);
    measureEngine(repo, files, tally);
    if (t && server) await measureApi(t, server, repo, root, summaryPath, files, tally, index++);
    add(halves[repo.half], tally);
    lines.push(row(`${repo.repo} (${repo.half})`, tally));
    console.error(`measured ${repo.repo}: ${tally.pages} pages`);
  }
} finally {
  await t?.close();
  await server?.close();
}
const header =
  '| corpus | pages | byte-identical (1 round trip) | GitBook-written in the last 2 years, identical | stable (2nd) | pages losing words | raw markup |' +
  (opts['engine-only'] ? '' : ' API: markdown read back identical | published | published raw markup | published losing words | pages with broken links | broken links | links dead in the source | links to files that are not pages |');
console.log(header);
console.log(header.replace(/[^|]+/g, ' --- '));
console.log(row('**held-out**', halves['held-out']));
console.log(row('tuning', halves.tuning));
for (const line of lines) console.log(line);
