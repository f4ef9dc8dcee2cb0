import { posix } from 'node:path';
import { clampedPath } from '../../content/git-layout/read.ts';
import type { AppDeps } from '../../context.ts';
import { resolveVariables, type Document } from '../../content/markdown/index.ts';
import { documentToMarkdown } from '../../content/markdown/write.ts';
import { stemmer } from 'stemmer';
import { loadDocument, loadSnapshot, LruCache } from '../../content/store/snapshot.ts';
import type { ContentRef, PageNode, RevisionSnapshot } from '../../content/store/types.ts';
import { renderDocument, type RenderLinks } from '../../site/render-document.ts';
import { escapeHtml, safeUrl } from '../../site/html.ts';
import { prepareHighlighter } from '../../site/highlight.ts';
import { openapiSpecsOf } from '../../content/openapi/blocks.ts';
import { computedDocument } from '../../content/openapi/computed.ts';
import { uncached, type Depend } from '../../db/read-cache.ts';
import { specsForPage } from '../openapi-specs/openapi-specs.service.ts';
import { fileUrlSigner } from '../content/content.service.ts';
import { decideAccess, visibleTo, type Claims, type CookieToSet, type Credentials } from './published.policy.ts';
import { searchForVisitors } from '../search/search.service.ts';
import { siteStructure } from '../../site/structure.ts';
import { ownCustomization, parseCustomization } from '../sites/site-customization.ts';
import {
  renderErrorPage,
  renderMain,
  renderNotFoundInSite,
  renderSearchDropdown,
  renderSearchResults,
  renderSitePage,
  type ShownResult,
  type MainFragments,
  type NavItem,
  type ResolvedLink,
  type SiteView,
} from './published.presenter.ts';
import {
  publishedRepository,
  type PublishedGroupRow,
  type PublishedSectionRow,
  type PublishedSiteRow,
  type PublishedSiteSpaceRow,
} from './published.repository.ts';

/*
 * Serving a published site (docs/decisions/published-sites.md): find the site, decide
 * access, resolve the URL to a section, a site space and a page, and answer the page's
 * HTML. Site, section and site-space rows are read on every request (they change); what
 * comes from a revision (sidebar, article, outline) is rendered once per site space,
 * revision, page and link layout, and kept (revisions never change).
 */

type Deps = Pick<AppDeps, 'db' | 'config' | 'clock' | 'caches' | 'files'>;

/** How the site was reached: under PUBLIC_URL/sites/<key>/ or at its own hostname. */
export type Mount = { kind: 'path'; key: string } | { kind: 'host'; hostname: string };

export interface PublishedRequest {
  mount: Mount;
  /** The path on the site, without the site's base (no leading slash). */
  path: string;
  credentials: Credentials;
  /** The search box's text (`?q=`), for the search page. */
  search?: string;
  /** `?format=json` on the search page: the instant-search dropdown's results. */
  searchJson?: boolean;
}

/** The site's search page: a path no slug can take (slugs hold no `~`). */
export const SEARCH_PATH = '~search';

export type PublishedOutcome =
  | { kind: 'html'; status: number; html: string; noindex: boolean; private: boolean; cookies: CookieToSet[]; cookiePath: string; lastModified?: string }
  /** `cleanQuery`: redirect to the same URL without the credentials (they are now cookies). */
  | { kind: 'redirect'; location: string | null; cleanQuery: boolean; cookies: CookieToSet[]; cookiePath: string }
  /** A non-HTML resource: robots.txt, sitemap.xml, llms.txt, a page's markdown, search JSON. */
  | { kind: 'text'; status: number; contentType: string; body: string; noindex: boolean; private: boolean; cookies: CookieToSet[]; cookiePath: string }
  /** Not a site of this server (custom hostnames): the app's ordinary 404. */
  | { kind: 'none' };

/** A site space as navigation sees it: where it is, and whether this visitor sees it. */
interface PlacedSiteSpace {
  row: PublishedSiteSpaceRow;
  section: PublishedSectionRow | null;
  /** Published base URL (path) of the site space, with a trailing slash. */
  base: string;
  title: string;
}

// Rendered sidebar, article and outline by (site space, revision, page, link layout).
const mainCache = new LruCache<MainFragments>(1024);

/** The base path of a site as reached: /sites/<key>/ (under PUBLIC_URL's path) or /. */
function siteBase(deps: Deps, mount: Mount): string {
  if (mount.kind === 'host') return '/';
  const prefix = new URL(deps.config.publicUrl).pathname.replace(/\/+$/, '');
  return `${prefix}/sites/${encodeURIComponent(mount.key)}/`;
}

// Parsed customization JSON by its text: the same text always parses to the same object.
const parsedJson = new LruCache<Record<string, unknown>>(256);

/** A customization column's object (site-customization's parse, kept by text). Treat as read-only. */
function parseJson(text: string | null | undefined): Record<string, unknown> {
  if (!text || text === '{}') return {};
  const cached = parsedJson.get(text);
  if (cached) return cached;
  const object = parseCustomization(text);
  parsedJson.set(text, object);
  return object;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Variables of a page: the space's, then the page's (as content reads evaluate them). */
function variablesOf(snapshot: RevisionSnapshot, node: PageNode): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(snapshot.revision.variables ?? {})) values[`space.vars.${name}`] = String(value);
  for (const [name, value] of Object.entries(node.entry.variables ?? {})) values[`page.vars.${name}`] = String(value);
  return values;
}

/** The first page a visitor lands on: the first visible document page, depth first. */
export function firstPage(nodes: PageNode[]): PageNode | undefined {
  for (const node of nodes) {
    if (node.entry.hidden) continue;
    if (node.entry.type === 'document') return node;
    const inner = firstPage(node.children);
    if (inner) return inner;
  }
  return undefined;
}

/** Spaces a document's page and anchor references name (other than its own). */
function referencedSpaces(value: unknown, own: string, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) referencedSpaces(item, own, into);
  } else if (isPlainObject(value)) {
    if ((value.kind === 'page' || value.kind === 'anchor') && typeof value.space === 'string' && value.space !== own) into.add(value.space);
    for (const child of Object.values(value)) if (child && typeof child === 'object') referencedSpaces(child, own, into);
  }
}

/** Scheme and host of a site as reached (for canonical URLs, sitemaps, social cards). */
function siteOrigin(deps: Deps, mount: Mount): string {
  const publicUrl = new URL(deps.config.publicUrl);
  return mount.kind === 'host' ? `${publicUrl.protocol}//${mount.hostname}` : publicUrl.origin;
}

/** Files of a site beside its pages (none is a slug: slugs hold no `.`). */
const SITE_FILES = new Set(['robots.txt', 'sitemap.xml', 'llms.txt', 'llms-full.txt']);

/** Serves one request for a published site. */
export async function servePublished(deps: Deps, request: PublishedRequest, depend: Depend = uncached): Promise<PublishedOutcome> {
  const { db } = deps;
  const { mount } = request;
  // A visit's outcome may be cached (published.routes): it depends on every site (found by
  // host or path), then on its organization's spaces, settings and specs.
  depend('sites');
  const site =
    mount.kind === 'path'
      ? await publishedRepository.siteByKey(db, mount.key)
      : await publishedRepository.siteByHostname(db, mount.hostname);
  if (!site && mount.kind === 'host') return { kind: 'none' };
  const base = siteBase(deps, mount);
  const origin = siteOrigin(deps, mount);
  const cookiePath = mount.kind === 'host' ? '/' : base.replace(/\/$/, '');
  const notFound = (cookies: CookieToSet[] = [], home?: string): PublishedOutcome => ({
    kind: 'html',
    status: 404,
    html: renderErrorPage(404, home),
    noindex: true,
    private: true,
    cookies,
    cookiePath,
  });
  if (!site) return notFound();
  depend(`spaces:${site.organization_id}`, `org:${site.organization_id}`, `openapi:${site.organization_id}`);

  const access = await decideAccess(db, site, request.credentials);
  if (!access.allowed) {
    const cookies = access.clear ? [access.clear] : [];
    if (access.status === 404) return notFound(cookies);
    return { kind: 'html', status: 401, html: renderErrorPage(401), noindex: true, private: true, cookies, cookiePath };
  }
  if (access.remember) return { kind: 'redirect', location: null, cleanQuery: true, cookies: [access.remember], cookiePath };

  const isPrivate = site.visibility === 'share-link' || site.visibility === 'visitor-auth';
  const structure = await loadStructure(deps, site, base, access.claims);
  const text = (status: number, contentType: string, body: string, noindex = access.noindex): PublishedOutcome => ({
    kind: 'text',
    status,
    contentType,
    body,
    noindex,
    private: isPrivate,
    cookies: [],
    cookiePath,
  });
  // The 404 page inside the site's layout (header, search, navigation).
  const notFoundInSite = async (): Promise<PublishedOutcome> => {
    const home = structure.siteSpaces[0];
    if (!home) return notFound([], base);
    const snapshot = home.row.revision_id ? await loadSnapshot(db, home.row.space_id, home.row.revision_id) : null;
    const main = snapshot ? await renderedMain(deps, structure, home, snapshot, undefined) : null;
    const view = siteView(site, structure, home, access.claims, snapshot, undefined);
    const fragments: MainFragments = { title: '', description: '', sidebar: main?.sidebar ?? '', article: '', outline: '', prev: null, next: null, noindex: true };
    return { kind: 'html', status: 404, html: renderNotFoundInSite(view, fragments), noindex: true, private: true, cookies: [], cookiePath };
  };

  if (request.path === SEARCH_PATH) {
    const found = await searchPage(deps, structure, request.search ?? '');
    if (structure.siteSpaces.length === 0) return notFound([], base);
    if (request.searchJson) return text(200, 'application/json; charset=utf-8', JSON.stringify({ query: request.search ?? '', count: found.count, html: found.dropdown }), true);
    const view = siteView(site, structure, structure.siteSpaces[0], access.claims, null, undefined);
    view.searchQuery = request.search ?? '';
    return { kind: 'html', status: 200, html: renderSitePage(view, found.main), noindex: true, private: isPrivate, cookies: [], cookiePath };
  }
  if (SITE_FILES.has(request.path)) {
    const public_ = site.visibility === 'public';
    switch (request.path) {
      case 'robots.txt':
        // Only public sites are listed; the others ask every crawler to stay out.
        return text(200, 'text/plain; charset=utf-8', public_ ? `User-agent: *\nAllow: /\n\nSitemap: ${origin}${base}sitemap.xml\n` : 'User-agent: *\nDisallow: /\n', !public_);
      case 'sitemap.xml':
        return text(200, 'application/xml; charset=utf-8', public_ ? await sitemap(deps, structure, origin) : emptySitemap(), !public_);
      case 'llms.txt':
        return text(200, 'text/plain; charset=utf-8', await llmsText(deps, site, structure, origin, false));
      case 'llms-full.txt':
        return text(200, 'text/plain; charset=utf-8', await llmsText(deps, site, structure, origin, true));
    }
  }
  // `<page URL>.md`: the page's markdown (GitBook publishes both forms).
  const wantsMarkdown = request.path.endsWith('.md');
  const resolved = resolvePath(structure, wantsMarkdown ? request.path.slice(0, -3) : request.path);
  if (!resolved) return notFoundInSite();
  const { current, pagePath } = resolved;

  if (!current.row.revision_id) {
    if (pagePath !== '' || wantsMarkdown) return notFoundInSite();
    const view = siteView(site, structure, current, access.claims, null, undefined);
    view.noindex = access.noindex;
    const main: MainFragments = { title: 'No pages yet', description: '', sidebar: '', article: '<h1>No pages yet</h1>', outline: '', prev: null, next: null, noindex: false };
    return { kind: 'html', status: 200, html: renderSitePage(view, main), noindex: access.noindex, private: isPrivate, cookies: [], cookiePath };
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
      const redirected = snapshot.byId.get((await publishedRepository.gitRedirect(db, current.row.space_id, pagePath)) ?? '');
      if (redirected) return { kind: 'redirect', location: `${current.base}${redirected.path}${wantsMarkdown ? '.md' : ''}`, cleanQuery: false, cookies: [], cookiePath };
      return notFoundInSite();
    }
  }

  // Groups have no content of their own; link pages point elsewhere.
  if (node && node.entry.type === 'group') {
    const target = firstPage(node.children);
    if (!target) return notFoundInSite();
    return { kind: 'redirect', location: `${current.base}${target.path}${wantsMarkdown ? '.md' : ''}`, cleanQuery: false, cookies: [], cookiePath };
  }
  if (node && node.entry.type === 'link') {
    const snapshots = await snapshotsFor(deps, structure, current, snapshot, node.entry.target ? [node.entry.target] : []);
    const target = resolveRef(node.entry.target, structure, current, snapshots);
    if (!target) return notFoundInSite();
    return { kind: 'redirect', location: target, cleanQuery: false, cookies: [], cookiePath };
  }
  if (wantsMarkdown) {
    if (!node) return notFoundInSite();
    return text(200, 'text/markdown; charset=utf-8', await pageMarkdown(deps, current, snapshot, node), access.noindex || Boolean(node.entry.hidden || node.entry.noIndex));
  }

  const main = await renderedMain(deps, structure, current, snapshot, node);
  const view = siteView(site, structure, current, access.claims, snapshot, await snapshotsFor(deps, structure, current, snapshot, customizationRefs(site, current)));
  view.noindex = access.noindex;
  if (node) {
    const pageUrl = `${current.base}${node === firstPage(snapshot.pages) && pagePath === '' ? '' : node.path}`;
    view.canonicalUrl = `${origin}${pageUrl}`;
    view.imageUrl = coverUrl(node, origin) ?? (view.logo ? absoluteUrl(view.logo.light, origin) : null);
    if (view.markdownEnabled) view.markdownUrl = `${current.base}${node.path}.md`;
  }
  const html = renderSitePage(view, main);
  const lastModified = new Date(snapshot.revision.createdAt).toUTCString();
  return { kind: 'html', status: 200, html, noindex: access.noindex || main.noindex, private: isPrivate, cookies: [], cookiePath, lastModified };
}

function absoluteUrl(url: string, origin: string): string | null {
  try {
    return new URL(url, `${origin}/`).toString();
  } catch {
    return null;
  }
}

/** A page cover given by URL (file covers need signed, expiring URLs: not for social cards). */
function coverUrl(node: PageNode, origin: string): string | null {
  const ref = node.entry.cover?.ref;
  const url = ref?.kind === 'url' ? safeUrl(ref.url) : null;
  return url ? absoluteUrl(url, origin) : null;
}

/** Indexable document pages of a tree, depth first (hidden and noIndex ones left out). */
function listedPages(nodes: PageNode[], into: PageNode[] = []): PageNode[] {
  for (const node of nodes) {
    if (node.entry.hidden) continue;
    if (node.entry.type === 'document' && !node.entry.noIndex && !node.entry.noRobotsIndex) into.push(node);
    listedPages(node.children, into);
  }
  return into;
}

const xmlEscape = (text: string) => text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] as string);

function emptySitemap(): string {
  return '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n';
}

/** sitemap.xml of a public site: every listed page of the site spaces anonymous visitors see. */
async function sitemap(deps: Deps, structure: Structure, origin: string): Promise<string> {
  let out = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
  for (const placed of structure.siteSpaces) {
    if (!placed.row.revision_id) continue;
    const snapshot = await loadSnapshot(deps.db, placed.row.space_id, placed.row.revision_id);
    const lastmod = snapshot.revision.createdAt ? `<lastmod>${xmlEscape(String(snapshot.revision.createdAt))}</lastmod>` : '';
    for (const node of listedPages(snapshot.pages)) out += `<url><loc>${xmlEscape(`${origin}${placed.base}${node.path}`)}</loc>${lastmod}</url>\n`;
  }
  return out + '</urlset>\n';
}

// Page markdown by (space, revision, page): revisions never change.
const markdownCache = new LruCache<string>(512);

/** A page's markdown as GitBook publishes it: `# Title`, the description, then the content. */
async function pageMarkdown(deps: Deps, placed: PlacedSiteSpace, snapshot: RevisionSnapshot, node: PageNode): Promise<string> {
  const key = `${placed.row.space_id}\n${snapshot.revision.id}\n${node.entry.id}`;
  const hit = markdownCache.get(key);
  if (hit !== undefined) return hit;
  let document = node.entry.document ? await loadDocument<Document>(deps.db, placed.row.space_id, node.entry.document) : undefined;
  if (document) document = resolveVariables(document, variablesOf(snapshot, node));
  let markdown = `# ${node.entry.title}\n\n`;
  if (node.entry.description) markdown += `${node.entry.description}\n\n`;
  if (document) markdown += documentToMarkdown(document, { headingOffset: 1 });
  markdownCache.set(key, markdown);
  return markdown;
}

/**
 * llms.txt (https://llmstxt.org): the site's title, then each site space's pages as links
 * to their markdown; llms-full.txt: every page's markdown, one after the other.
 */
async function llmsText(deps: Deps, site: PublishedSiteRow, structure: Structure, origin: string, full: boolean): Promise<string> {
  const customization = parseJson(site.customization);
  const title = typeof customization.title === 'string' && customization.title ? customization.title : site.title;
  let out = `# ${title}\n\n`;
  for (const placed of structure.siteSpaces) {
    if (!placed.row.revision_id) continue;
    const snapshot = await loadSnapshot(deps.db, placed.row.space_id, placed.row.revision_id);
    const pages = listedPages(snapshot.pages);
    if (pages.length === 0) continue;
    const heading = placed.section && placed.section.title !== placed.title ? `${placed.section.title}: ${placed.title}` : placed.title;
    if (!full) {
      out += `## ${heading}\n\n`;
      for (const node of pages) {
        out += `- [${node.entry.title.replace(/[[\]]/g, '')}](${origin}${placed.base}${node.path}.md)${node.entry.description ? `: ${node.entry.description}` : ''}\n`;
      }
      out += '\n';
      continue;
    }
    for (const node of pages) out += `${await pageMarkdown(deps, placed, snapshot, node)}\n---\n\n`;
  }
  return out;
}

/** Stems of the searched words: what the results mark (a word matches when it starts with one). */
function searchStems(text: string): string[] {
  const words = text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.slice(0, 32).map((w) => (w.length > 3 ? stemmer(w) : w)))].filter((w) => w.length > 0);
}

/**
 * The search page and the instant-search dropdown: the site spaces this visitor sees (one
 * entry per space), searched with the spaces' full-text index; results link to the pages
 * on this site, section hits to their heading anchors. Not indexable.
 */
async function searchPage(deps: Deps, structure: Structure, text: string): Promise<{ main: MainFragments; dropdown: string; count: number }> {
  const placed = new Map<string, PlacedSiteSpace>();
  for (const p of structure.siteSpaces) if (!placed.has(p.row.space_id)) placed.set(p.row.space_id, p);
  const spaces = [...placed.values()].map((p) => ({ id: p.row.space_id, revision_id: p.row.revision_id }));
  const { count, results } = text.trim() ? await searchForVisitors(deps, spaces, text, SEARCH_RESULTS) : { count: 0, results: [] };
  const shown: ShownResult[] = results.map((r) => {
    const where = placed.get(r.spaceId) as PlacedSiteSpace;
    const url = `${where.base}${r.path}`;
    return {
      url,
      title: r.title,
      space: placed.size > 1 ? where.title : null,
      sections: r.sections.map((s) => ({ title: s.title, body: s.body, url: s.anchor ? `${url}#${encodeURIComponent(s.anchor)}` : url })),
    };
  });
  const words = searchStems(text);
  const main: MainFragments = { title: 'Search', description: '', sidebar: '', article: renderSearchResults(text, count, shown, words), outline: '', prev: null, next: null, noindex: true };
  const allUrl = `${structure.base}${SEARCH_PATH}?q=${encodeURIComponent(text)}`;
  return { main, dropdown: renderSearchDropdown(text, shown.slice(0, DROPDOWN_RESULTS), words, allUrl), count };
}

/** Pages shown in the instant-search dropdown. */
const DROPDOWN_RESULTS = 8;

/** Results shown on the search page. */
const SEARCH_RESULTS = 50;

interface Structure {
  base: string;
  hasSections: boolean;
  /** Sections this visitor sees, in order. */
  sections: PublishedSectionRow[];
  /** The top-level group of each grouped section (its menu in the header). */
  topGroupOf: Map<string, PublishedGroupRow>;
  /** The section whose path may be omitted (the site's default, else the first). */
  defaultSectionId: string | null;
  /** Site spaces this visitor sees, placed, in order. */
  siteSpaces: PlacedSiteSpace[];
  /** Default site space id of each section ('' for the site root). */
  defaultSiteSpaceOf: Map<string, string>;
  /** Identifies the link layout: part of the rendered-HTML cache key. */
  layoutKey: string;
}

async function loadStructure(deps: Deps, site: PublishedSiteRow, base: string, claims: Claims): Promise<Structure> {
  const [allSections, allSiteSpaces] = await Promise.all([
    publishedRepository.sections(deps.db, site.id),
    publishedRepository.siteSpaces(deps.db, site.id),
  ]);
  // Groups only order sections inside them: a site without grouped sections needs no read.
  const groups = allSections.some((s) => s.section_group_id) ? await publishedRepository.groups(deps.db, site.id) : [];
  // The API's model (order, defaults): canonical, the same for every visitor.
  const model = siteStructure({
    defaultSectionId: site.default_site_section_id,
    defaultRootSiteSpaceId: site.default_site_space_id,
    groups,
    sections: allSections,
    siteSpaces: allSiteSpaces,
  });
  const defaultSection = model.defaultSection ?? null;
  const defaultSiteSpaceOf = new Map<string, string>();
  for (const s of model.sections) if (s.defaultSiteSpace) defaultSiteSpaceOf.set(s.row.id, s.defaultSiteSpace.id);
  if (model.defaultRootSiteSpace) defaultSiteSpaceOf.set('', model.defaultRootSiteSpace.id);

  // What this visitor sees: sections and site spaces whose condition holds.
  const sections = model.sections.filter((s) => visibleTo(s.row.condition, claims));
  const topGroupOf = new Map<string, PublishedGroupRow>();
  for (const s of sections) if (s.groups.length > 0) topGroupOf.set(s.row.id, s.groups[0]);
  const seen = new Set(sections.map((s) => s.row.id));
  const siteSpaces: PlacedSiteSpace[] = [];
  for (const { row, section, isDefault } of model.placed) {
    if (section && !seen.has(section.id)) continue;
    if (!visibleTo(row.condition, claims)) continue;
    let spaceBase = base;
    if (section && section.id !== defaultSection?.id) spaceBase += `${encodeURIComponent(section.path)}/`;
    if (!isDefault) spaceBase += `${encodeURIComponent(row.path)}/`;
    siteSpaces.push({ row, section, base: spaceBase, title: row.title || row.space_title });
  }
  const layoutKey = siteSpaces.map((s) => `${s.row.space_id}=${s.base}`).join('\n');
  return {
    base,
    hasSections: model.hasSections,
    sections: sections.map((s) => s.row),
    topGroupOf,
    defaultSectionId: defaultSection?.id ?? null,
    siteSpaces,
    defaultSiteSpaceOf,
    layoutKey,
  };
}

/**
 * `<section path>/<site space path>/<page path>`: the section's path may be left out for
 * the default section, the site space's for its section's default; a section or site
 * space the visitor does not see does not match (its path is read as a page path).
 */
function resolvePath(structure: Structure, path: string): { current: PlacedSiteSpace; pagePath: string } | null {
  let rest = path.split('/').filter((s) => s !== '');
  let sectionId = '';
  if (structure.hasSections) {
    const named = rest.length > 0 ? structure.sections.find((s) => s.path === rest[0]) : undefined;
    if (named) {
      sectionId = named.id;
      rest = rest.slice(1);
    } else {
      const fallback = structure.sections.find((s) => s.id === structure.defaultSectionId && hasSpaces(structure, s.id)) ?? structure.sections.find((s) => hasSpaces(structure, s.id));
      if (!fallback) return null;
      sectionId = fallback.id;
    }
  }
  const candidates = structure.siteSpaces.filter((s) => (s.row.section_id ?? '') === sectionId);
  if (candidates.length === 0) return null;
  const named = rest.length > 0 ? candidates.find((s) => s.row.path === rest[0]) : undefined;
  if (named) return { current: named, pagePath: rest.slice(1).join('/') };
  const preferred = candidates.find((s) => s.row.id === structure.defaultSiteSpaceOf.get(sectionId)) ?? candidates[0];
  return { current: preferred, pagePath: rest.join('/') };
}

function hasSpaces(structure: Structure, sectionId: string): boolean {
  return structure.siteSpaces.some((s) => s.row.section_id === sectionId);
}

/** Snapshots of the site spaces that references name (the current one included). */
async function snapshotsFor(
  deps: Deps,
  structure: Structure,
  current: PlacedSiteSpace,
  snapshot: RevisionSnapshot,
  refs: unknown[],
): Promise<Map<string, RevisionSnapshot>> {
  const snapshots = new Map<string, RevisionSnapshot>([[current.row.space_id, snapshot]]);
  const spaces = new Set<string>();
  referencedSpaces(refs, current.row.space_id, spaces);
  for (const spaceId of spaces) {
    const placed = structure.siteSpaces.find((s) => s.row.space_id === spaceId);
    if (placed?.row.revision_id) snapshots.set(spaceId, await loadSnapshot(deps.db, spaceId, placed.row.revision_id));
  }
  return snapshots;
}

/** The site space showing a space: the current one when it does, else the first. */
function placedFor(structure: Structure, current: PlacedSiteSpace, spaceId: string | undefined): PlacedSiteSpace | undefined {
  if (!spaceId || spaceId === current.row.space_id) return current;
  return structure.siteSpaces.find((s) => s.row.space_id === spaceId);
}

function linksFor(structure: Structure, current: PlacedSiteSpace, snapshots: Map<string, RevisionSnapshot>, sign?: (fileId: string) => { url: string; name: string } | null): RenderLinks {
  return {
    page(pageId, spaceId) {
      const placed = placedFor(structure, current, spaceId);
      if (!placed) return null;
      const node = snapshots.get(placed.row.space_id)?.byId.get(pageId);
      return node ? `${placed.base}${node.path}` : null;
    },
    pageTitle(pageId, spaceId) {
      const placed = placedFor(structure, current, spaceId);
      return (placed && snapshots.get(placed.row.space_id)?.byId.get(pageId)?.entry.title) || null;
    },
    space(spaceId) {
      return placedFor(structure, current, spaceId)?.base ?? null;
    },
    file(fileId, spaceId) {
      if (spaceId && spaceId !== current.row.space_id) return null;
      return sign ? sign(fileId) : null;
    },
  };
}

/** Pages and files of a revision by their path in git (git sync), for links written relative to a page's file. */
const gitPathIndexes = new WeakMap<RevisionSnapshot, { pages: Map<string, PageNode>; files: Map<string, string> }>();

function gitPathIndex(snapshot: RevisionSnapshot) {
  let index = gitPathIndexes.get(snapshot);
  if (!index) {
    index = { pages: new Map(), files: new Map() };
    for (const node of snapshot.byId.values()) if (node.entry.git?.path) index.pages.set(node.entry.git.path, node);
    for (const file of snapshot.files) if (file.git?.path) index.files.set(file.git.path, file.id);
    gitPathIndexes.set(snapshot, index);
  }
  return index;
}

/**
 * Where a URL written relative to a page's file in git leads on the site (RenderLinks.relative):
 * resolved as GitBook resolves it (like a URL, clamped at the repository's top; a folder is
 * its README.md), to the page or file of the space with that path.
 */
function gitRelativeLinks(snapshot: RevisionSnapshot, fromFile: string, base: string, sign?: (fileId: string) => { url: string; name: string } | null) {
  const dir = posix.dirname(fromFile) === '.' ? '' : posix.dirname(fromFile);
  return (href: string): string | null => {
    const { pages, files } = gitPathIndex(snapshot);
    const hash = href.indexOf('#');
    const anchor = hash >= 0 ? href.slice(hash + 1) : '';
    let target = (hash >= 0 ? href.slice(0, hash) : href).replace(/\?.*$/, '').replace(/^<|>$/g, '');
    try {
      target = decodeURI(target);
    } catch {
      // kept as written
    }
    const full = clampedPath(dir, target || '.');
    const candidates = target.endsWith('/') || full === '.' || target === '' ? [posix.join(full, 'README.md')] : [full, posix.join(full, 'README.md')];
    for (const path of candidates) {
      const page = pages.get(path);
      if (page) return `${base}${page.path}${anchor ? `#${anchor}` : ''}`;
    }
    const fileId = files.get(full);
    return fileId && sign ? (sign(fileId)?.url ?? null) : null;
  };
}

/** A customization link target (`to`): a URL, or a page or space on this site. */
function resolveRef(ref: unknown, structure: Structure, current: PlacedSiteSpace, snapshots: Map<string, RevisionSnapshot>): string | null {
  if (!isPlainObject(ref)) return null;
  const r = ref as ContentRef;
  const links = linksFor(structure, current, snapshots);
  switch (r.kind) {
    case 'url':
      return safeUrl(r.url);
    case 'page':
      return links.page(r.page, r.space);
    case 'anchor':
      return r.page ? (links.page(r.page, r.space) ?? '') + `#${encodeURIComponent(r.anchor)}` : `#${encodeURIComponent(r.anchor)}`;
    case 'space':
      return links.space(r.space);
    default:
      return null;
  }
}

/**
 * What the reader renders with: what the owner set for the site and this site space, by
 * the API's one merge rule (the API serves it with the defaults under it). Unset fields
 * take the rendering fallbacks of docs/decisions/published-sites.md.
 */
export function readerCustomization(site: Pick<PublishedSiteRow, 'customization'>, siteSpace: Pick<PublishedSiteSpaceRow, 'customization'>): Record<string, unknown> {
  return ownCustomization(parseJson(site.customization), parseJson(siteSpace.customization));
}

function customizationOf(site: PublishedSiteRow, current: PlacedSiteSpace): Record<string, unknown> {
  return readerCustomization(site, current.row);
}

/** Every `to` of the header, footer and announcement, for preloading the spaces they name. */
function customizationRefs(site: PublishedSiteRow, current: PlacedSiteSpace): unknown[] {
  const c = customizationOf(site, current);
  const refs: unknown[] = [];
  const header = c.header as { links?: Array<{ to?: unknown; links?: Array<{ to?: unknown }> }> } | undefined;
  for (const link of header?.links ?? []) {
    refs.push(link?.to);
    for (const sub of link?.links ?? []) refs.push(sub?.to);
  }
  const footer = c.footer as { groups?: Array<{ links?: Array<{ to?: unknown }> }> } | undefined;
  for (const group of footer?.groups ?? []) for (const link of group?.links ?? []) refs.push(link?.to);
  refs.push((c.announcement as { link?: { to?: unknown } } | undefined)?.link?.to);
  return refs.filter(Boolean);
}

async function renderedMain(
  deps: Deps,
  structure: Structure,
  current: PlacedSiteSpace,
  snapshot: RevisionSnapshot,
  node: PageNode | undefined,
): Promise<MainFragments> {
  let document = node ? await loadDocument<Document>(deps.db, current.row.space_id, node.entry.document) : undefined;
  // OpenAPI blocks render the spec's latest version: its id is part of the key, so a new
  // version shows at once without a new revision of the space.
  const computed = node?.entry.computed;
  const specs = await specsForPage(deps.db, current.row.space_id, [...(document ? openapiSpecsOf(document.nodes) : []), ...(computed ? [computed.dependencies.spec.ref.spec] : [])]);
  const key = `${current.row.id}\n${snapshot.revision.id}\n${node?.entry.id ?? ''}\n${structure.layoutKey}\n${specs.key}`;
  const cached = mainCache.get(key);
  if (cached) return cached;
  // A computed page (builtin:openapi) shows what its spec's latest version makes of it.
  if (computed) document = computedDocument(specs.model(computed.dependencies.spec.ref.spec), computed.dependencies.spec.ref.spec, computed.props);
  if (document && node) document = resolveVariables(document, variablesOf(snapshot, node));
  const snapshots = await snapshotsFor(deps, structure, current, snapshot, document ? [document] : []);
  let sign: ((fileId: string) => { url: string; name: string } | null) | undefined;
  const signedSizes = new Map<string, string>();
  if (snapshot.files.length > 0) {
    const signer = await fileUrlSigner(deps, current.row.space_id);
    sign = (fileId) => {
      const file = snapshot.filesById.get(fileId);
      if (!file) return null;
      const url = signer(file);
      if (file.dimensions) signedSizes.set(url, `${file.dimensions.width}/${file.dimensions.height}`);
      return { url, name: file.name };
    };
  }
  const gitPath = node?.entry.git?.path;
  const links: RenderLinks = { ...linksFor(structure, current, snapshots, sign), openapi: specs.model, ...(gitPath ? { relative: gitRelativeLinks(snapshot, gitPath, current.base, sign) } : {}) };
  // The highlighter loads on the first page with code (cheap start-up); rendering is synchronous.
  if (document) await prepareHighlighter(document.nodes);
  const rendered = renderDocument(document, links);
  // Images of the space's files get their aspect ratio from the file record: the browser
  // reserves their space before they load (no layout shift).
  for (const [url, size] of signedSizes) rendered.html = rendered.html.split(`src="${escapeHtml(url)}"`).join(`src="${escapeHtml(url)}" style="aspect-ratio:${size}"`);
  const main = renderMain({ snapshot, node, base: current.base, rendered, links });
  mainCache.set(key, main);
  return main;
}

/** Everything around the page that comes from rows (read on this request). */
function siteView(
  site: PublishedSiteRow,
  structure: Structure,
  current: PlacedSiteSpace,
  claims: Claims,
  snapshot: RevisionSnapshot | null,
  snapshots: Map<string, RevisionSnapshot> | undefined,
): SiteView {
  const customization = customizationOf(site, current);
  const maps = snapshots ?? new Map(snapshot ? [[current.row.space_id, snapshot]] : []);
  const link = (title: unknown, to: unknown): ResolvedLink | null => {
    const url = resolveRef(to, structure, current, maps);
    return typeof title === 'string' && url ? { title, url } : null;
  };

  // Top navigation: sections (and section groups as menus), in order.
  const nav: NavItem[] = [];
  if (structure.hasSections) {
    const menus = new Map<string, Extract<NavItem, { kind: 'group' }>>();
    for (const section of structure.sections) {
      const firstSpace = structure.siteSpaces.find((s) => s.row.section_id === section.id && s.row.id === structure.defaultSiteSpaceOf.get(section.id)) ?? structure.siteSpaces.find((s) => s.row.section_id === section.id);
      if (!firstSpace) continue;
      const item = { title: section.title, url: firstSpace.base, current: section.id === current.section?.id };
      const group = structure.topGroupOf.get(section.id);
      if (!group) {
        nav.push({ kind: 'link', ...item });
        continue;
      }
      let menu = menus.get(group.id);
      if (!menu) {
        menu = { kind: 'group', title: group.title, items: [] };
        menus.set(group.id, menu);
        nav.push(menu);
      }
      menu.items.push(item);
    }
  }

  // The space switcher: the site spaces beside the current one.
  const siblings = structure.siteSpaces.filter((s) => (s.row.section_id ?? '') === (current.row.section_id ?? ''));
  const spaces = siblings.length > 1 ? siblings.map((s) => ({ title: s.title, url: s.base, current: s.row.id === current.row.id })) : [];

  const styling = isPlainObject(customization.styling) ? customization.styling : {};
  const header = isPlainObject(customization.header) ? customization.header : {};
  const footer = isPlainObject(customization.footer) ? customization.footer : {};
  const announcement = isPlainObject(customization.announcement) ? customization.announcement : {};
  const themes = isPlainObject(customization.themes) ? customization.themes : {};
  const favicon = isPlainObject(customization.favicon) ? customization.favicon : {};

  const headerLinks = (Array.isArray(header.links) ? header.links : [])
    .filter((l): l is Record<string, unknown> => isPlainObject(l) && visibleTo(typeof l.condition === 'string' ? l.condition : null, claims))
    .map((l) => ({
      ...(link(l.title, l.to) ?? { title: typeof l.title === 'string' ? l.title : '', url: '' }),
      style: (l.style === 'button-primary' || l.style === 'button-secondary' ? 'button' : 'link') as 'button' | 'link',
      children: (Array.isArray(l.links) ? l.links : []).map((c: unknown) => (isPlainObject(c) ? link(c.title, c.to) : null)).filter((c): c is ResolvedLink => c !== null),
    }))
    .filter((l) => l.title !== '' && (l.url !== '' || l.children.length > 0));

  const byTheme = (value: unknown) => {
    if (!isPlainObject(value)) return null;
    const light = safeUrl(value.light as string);
    const dark = safeUrl(value.dark as string) ?? light;
    return light ? { light, dark: dark ?? light } : null;
  };

  return {
    siteTitle: typeof customization.title === 'string' && customization.title ? customization.title : site.title,
    homeUrl: structure.base,
    searchUrl: `${structure.base}${SEARCH_PATH}`,
    nav,
    spaces,
    styling,
    logo: byTheme(header.logo),
    favicon: byTheme(favicon.icon),
    headerLinks,
    footer: {
      logo: byTheme(footer.logo),
      groups: (Array.isArray(footer.groups) ? footer.groups : [])
        .filter(isPlainObject)
        .map((g) => ({
          title: typeof g.title === 'string' ? g.title : '',
          links: (Array.isArray(g.links) ? g.links : []).map((l: unknown) => (isPlainObject(l) ? link(l.title, l.to) : null)).filter((l): l is ResolvedLink => l !== null),
        })),
      copyright: typeof footer.copyright === 'string' ? footer.copyright : '',
    },
    announcement:
      announcement.enabled === true && typeof announcement.message === 'string'
        ? {
            message: announcement.message,
            style: ['info', 'warning', 'danger', 'success'].includes(announcement.style as string) ? (announcement.style as string) : 'info',
            link: isPlainObject(announcement.link) ? link(announcement.link.title, announcement.link.to) : null,
          }
        : null,
    // A site that names no theme (or `system`) follows the reader's system preference.
    defaultTheme: themes.default === 'dark' ? 'dark' : 'light',
    themeMode: themes.default === 'light' || themes.default === 'dark' ? 'fixed' : 'system',
    toggleable: themes.toggeable !== false,
    markdownEnabled: !(isPlainObject(customization.pageActions) && customization.pageActions.markdown === false),
    pagination: !(isPlainObject(customization.pagination) && customization.pagination.enabled === false),
  };
}
