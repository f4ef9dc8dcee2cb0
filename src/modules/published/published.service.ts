import type { AppDeps } from '../../context.ts';
import { uncached, type Depend } from '../../db/read-cache.ts';
import { loadSnapshot } from '../../content/store/snapshot.ts';
import { storeRepository } from '../../content/store/store.repository.ts';
import { redirectKey } from '../../content/markdown/paths.ts';
import type { PageNode } from '../../content/store/types.ts';
import { decideAccess, type Claims, type CookieToSet, type Credentials } from './published.policy.ts';
import type { MainFragments, SiteView } from './published.presenter.ts';
import { publishedRepository, type PublishedSiteRow } from './published.repository.ts';
import { customizationRefs, coverUrl, absoluteUrl, renderedMain, siteView } from './reader-page.ts';
import { firstPage, landingPage, resolveRef, snapshotsFor } from './reader-links.ts';
import { searchPage } from './reader-search.ts';
import { loadStructure, resolvePath, siteBase, siteOrigin, type Mount, type PathReading, type Structure } from './reader-structure.ts';
import { emptySitemap, llmsText, pageMarkdown, sitemap } from './site-files.ts';

/*
 * The published reader (docs/decisions/published-sites.md): opens a site for a visitor
 * (finds it, decides access, loads the structure they see) and answers what they ask of
 * it: a page, its markdown, the search page, the site's files. Domain results only; the
 * routes (published.routes.ts) turn them into HTTP (status, headers, cookies, caching).
 */

type Deps = Pick<AppDeps, 'db' | 'config' | 'clock' | 'caches' | 'files'>;

export { SEARCH_PATH, type Mount } from './reader-structure.ts';
export { readerCustomization } from './reader-page.ts';

/** A site opened for one visitor. */
export interface SiteVisit {
  site: PublishedSiteRow;
  mount: Mount;
  /** The site's base path as reached, with a trailing slash. */
  base: string;
  /** Scheme and host of the site as reached. */
  origin: string;
  claims: Claims;
  /** The site's pages are not for search engines (unlisted, share-link, visitor-auth). */
  noindex: boolean;
  /** Only this visitor may see what they get (share-link and visitor-auth sites). */
  restricted: boolean;
  structure: Structure;
}

export type OpenedSite =
  /** No site of this server at this hostname (custom hostnames): not ours to answer. */
  | { kind: 'unknown-host' }
  /** No such site, or the visitor may not know it exists; `forget`: a credential cookie to clear. */
  | { kind: 'hidden'; base: string; forget?: CookieToSet }
  /** The site asks visitors to sign in (visitor-auth without a valid token). */
  | { kind: 'sign-in'; base: string; forget?: CookieToSet }
  /** Credentials given in the URL were accepted: remember them, then come back without them. */
  | { kind: 'remember'; base: string; credential: CookieToSet }
  | { kind: 'open'; visit: SiteVisit };

/** Opens the site reached at `mount` for a visitor with `credentials`; `depend` names what the result depends on. */
export async function openSite(deps: Deps, mount: Mount, credentials: Credentials, depend: Depend = uncached): Promise<OpenedSite> {
  // A visit's outcome may be cached (published.routes): it depends on every site (found by
  // host or path), then on its organization's spaces, settings and specs.
  depend('sites');
  const site = mount.kind === 'path' ? await publishedRepository.siteByKey(deps.db, mount.key) : await publishedRepository.siteByHostname(deps.db, mount.hostname);
  if (!site && mount.kind === 'host') return { kind: 'unknown-host' };
  const base = siteBase(deps, mount);
  if (!site) return { kind: 'hidden', base };
  depend(`spaces:${site.organization_id}`, `org:${site.organization_id}`, `openapi:${site.organization_id}`);
  const access = await decideAccess(deps.db, site, credentials);
  if (!access.allowed) return { kind: access.status === 404 ? 'hidden' : 'sign-in', base, ...(access.clear ? { forget: access.clear } : {}) };
  if (access.remember) return { kind: 'remember', base, credential: access.remember };
  return {
    kind: 'open',
    visit: {
      site,
      mount,
      base,
      origin: siteOrigin(deps, mount),
      claims: access.claims,
      noindex: access.noindex,
      restricted: site.visibility === 'share-link' || site.visibility === 'visitor-auth',
      structure: await loadStructure(deps, site, base, access.claims),
    },
  };
}

/** A page the visitor and the site's layout around its 404, or (no site space visible) the bare 404. */
export type MissingAnswer = { kind: 'in-site'; view: SiteView; main: MainFragments } | { kind: 'bare'; home: string };

/** A page that is not there: in the site's layout when the visitor sees a site space, else the bare error page. */
export async function missingPage(deps: Deps, visit: SiteVisit): Promise<MissingAnswer> {
  const { structure } = visit;
  const home = structure.siteSpaces[0];
  if (!home) return { kind: 'bare', home: visit.base };
  const snapshot = home.row.revision_id ? await loadSnapshot(deps.db, home.row.space_id, home.row.revision_id) : null;
  const main = snapshot ? await renderedMain(deps, structure, home, snapshot, undefined) : null;
  const view = siteView(visit.site, structure, home, visit.claims, snapshot, undefined);
  const fragments: MainFragments = { title: '', description: '', sidebar: main?.sidebar ?? '', article: '', outline: '', prev: null, next: null, noindex: true };
  return { kind: 'in-site', view, main: fragments };
}

export type PageAnswer =
  /** The site's view around the page and the page's rendered fragments (memoized per revision by reader-page.ts). */
  | { kind: 'page'; view: SiteView; main: MainFragments; noindex: boolean; lastModified?: string }
  | { kind: 'markdown'; markdown: string; noindex: boolean }
  /** The page lives at another address (groups, link pages, git redirects). */
  | { kind: 'moved'; location: string }
  | { kind: 'missing' };

/** A page of the site by its path (`<page URL>.md`: its markdown, as GitBook publishes both). */
export async function readPage(deps: Deps, visit: SiteVisit, path: string, depend: Depend = uncached): Promise<PageAnswer> {
  const { db } = deps;
  const { site, structure, claims } = visit;
  const wantsMarkdown = path.endsWith('.md');
  const resolved = await servedReading(deps, resolvePath(structure, wantsMarkdown ? path.slice(0, -3) : path));
  if (!resolved) return { kind: 'missing' };
  const { current, pagePath } = resolved;
  const suffix = wantsMarkdown ? '.md' : '';

  if (!current.row.revision_id) {
    if (pagePath !== '' || wantsMarkdown) return { kind: 'missing' };
    const view = siteView(site, structure, current, claims, null, undefined);
    view.noindex = visit.noindex;
    const main: MainFragments = { title: 'No pages yet', description: '', sidebar: '', article: '<h1>No pages yet</h1>', outline: '', prev: null, next: null, noindex: false };
    return { kind: 'page', view, main, noindex: visit.noindex };
  }

  const snapshot = await loadSnapshot(db, current.row.space_id, current.row.revision_id);
  let node: PageNode | undefined;
  if (pagePath === '') {
    node = firstPage(snapshot.pages) ?? snapshot.pages.find((p) => p.entry.type === 'document');
  } else {
    node = snapshot.byPath.get(pagePath);
    if (!node) {
      // An old address the space's repository redirects (`.gitbook.yaml`, git sync).
      depend(`space:${current.row.space_id}`);
      const redirects = await storeRepository.gitRedirects(db, current.row.space_id);
      const key = redirectKey(pagePath);
      const redirected = Object.hasOwn(redirects, key) ? snapshot.byId.get(redirects[key]) : undefined;
      return redirected ? { kind: 'moved', location: `${current.base}${redirected.path}${suffix}` } : { kind: 'missing' };
    }
  }

  // Groups have no content of their own; link pages point elsewhere.
  if (node && node.entry.type === 'group') {
    const target = landingPage(node);
    return target ? { kind: 'moved', location: `${current.base}${target.path}${suffix}` } : { kind: 'missing' };
  }
  if (node && node.entry.type === 'link') {
    const snapshots = await snapshotsFor(deps, structure, current, snapshot, node.entry.target ? [node.entry.target] : []);
    const target = resolveRef(node.entry.target, structure, current, snapshots);
    return target ? { kind: 'moved', location: target } : { kind: 'missing' };
  }
  if (wantsMarkdown) {
    if (!node) return { kind: 'missing' };
    return { kind: 'markdown', markdown: await pageMarkdown(deps, current, snapshot, node), noindex: visit.noindex || Boolean(node.entry.hidden || node.entry.noIndex) };
  }

  const main = await renderedMain(deps, structure, current, snapshot, node);
  const view = siteView(site, structure, current, claims, snapshot, await snapshotsFor(deps, structure, current, snapshot, customizationRefs(site, current)));
  view.noindex = visit.noindex;
  if (node) {
    const pageUrl = `${current.base}${node === firstPage(snapshot.pages) && pagePath === '' ? '' : node.path}`;
    view.canonicalUrl = `${visit.origin}${pageUrl}`;
    view.imageUrl = coverUrl(node, visit.origin) ?? (view.logo ? absoluteUrl(view.logo.light, visit.origin) : null);
    if (view.markdownEnabled) view.markdownUrl = `${current.base}${node.path}.md`;
  }
  return { kind: 'page', view, main, noindex: visit.noindex || main.noindex, lastModified: new Date(snapshot.revision.createdAt).toUTCString() };
}

/** The first reading of a path whose page exists (a page path wins where it is unambiguous), else the canonical one. */
async function servedReading(deps: Deps, { readings, canonical }: ReturnType<typeof resolvePath>): Promise<PathReading | null> {
  for (const reading of readings) {
    const { revision_id: revisionId, space_id: spaceId } = reading.current.row;
    if (!revisionId) continue;
    const snapshot = await loadSnapshot(deps.db, spaceId, revisionId);
    if (reading.pagePath === '' ? snapshot.pages.length > 0 : snapshot.byPath.has(reading.pagePath)) return reading;
  }
  return canonical;
}

export type SearchAnswer =
  | { kind: 'results'; view: SiteView; main: MainFragments }
  /** The instant-search dropdown's results. */
  | { kind: 'dropdown'; query: string; count: number; html: string }
  /** The visitor sees no site space to search. */
  | { kind: 'missing' };

/** The search page (or the dropdown's results) for `text`: only the spaces this visitor sees. */
export async function searchSite(deps: Deps, visit: SiteVisit, text: string, dropdown: boolean): Promise<SearchAnswer> {
  const { structure } = visit;
  if (structure.siteSpaces.length === 0) return { kind: 'missing' };
  const found = await searchPage(deps, structure, text);
  if (dropdown) return { kind: 'dropdown', query: text, count: found.count, html: found.dropdown };
  const view = siteView(visit.site, structure, structure.siteSpaces[0], visit.claims, null, undefined);
  view.searchQuery = text;
  return { kind: 'results', view, main: found.main };
}

/** A file of the site beside its pages; `listed`: whether search engines may index it. */
export interface SiteFile {
  text: string;
  listed: boolean;
}

/** robots.txt: only public sites are listed; the others ask every crawler to stay out. */
export function robotsTxt(visit: SiteVisit): SiteFile {
  const listed = visit.site.visibility === 'public';
  return { text: listed ? `User-agent: *\nAllow: /\n\nSitemap: ${visit.origin}${visit.base}sitemap.xml\n` : 'User-agent: *\nDisallow: /\n', listed };
}

/** sitemap.xml: a public site's listed pages; empty for the others. */
export async function sitemapXml(deps: Deps, visit: SiteVisit): Promise<SiteFile> {
  const listed = visit.site.visibility === 'public';
  return { text: listed ? await sitemap(deps, visit.structure, visit.origin) : emptySitemap(), listed };
}

/** llms.txt (links to every page's markdown) or llms-full.txt (every page's markdown). */
export async function llmsTxt(deps: Deps, visit: SiteVisit, full: boolean): Promise<SiteFile> {
  return { text: await llmsText(deps, visit.site, visit.structure, visit.origin, full), listed: !visit.noindex };
}
