import type { AppDeps } from '../../context.ts';
import { resolveVariables, type Document } from '../../content/markdown/index.ts';
import { loadDocument, LruCache } from '../../content/store/snapshot.ts';
import type { PageNode, RevisionSnapshot } from '../../content/store/types.ts';
import { renderDocument, type RenderLinks } from '../../site/render-document.ts';
import { escapeHtml, safeUrl } from '../../site/html.ts';
import { prepareHighlighter } from '../../site/highlight.ts';
import { openapiSpecsOf } from '../../content/openapi/blocks.ts';
import { computedDocument } from '../../content/openapi/computed.ts';
import { specsForPage } from '../openapi-specs/openapi-specs.references.ts';
import { fileUrlSigner } from '../content/content.file-urls.ts';
import { visibleTo, type Claims } from './published.policy.ts';
import { ownCustomization, parseCustomization } from '../sites/site-customization.ts';
import { renderMain, type MainFragments, type NavItem, type ResolvedLink, type SiteView } from './published.presenter.ts';
import { type PublishedSiteRow, type PublishedSiteSpaceRow } from './published.repository.ts';
import { SEARCH_PATH, type PlacedSiteSpace, type Structure } from './reader-structure.ts';
import { linksFor, relativeLinks, resolveRef, snapshotsFor } from './reader-links.ts';

/*
 * A published page: its main part (sidebar, article, outline) rendered once per site
 * space, revision, page and link layout and kept (revisions never change), and what
 * surrounds it (header, navigation, footer), made from the rows on every visit with the
 * customization the API serves (src/modules/sites/site-customization.ts).
 */

type Deps = Pick<AppDeps, 'db' | 'config' | 'clock' | 'caches' | 'files'>;
// Rendered sidebar, article and outline by (site space, revision, page, link layout).
const mainCache = new LruCache<MainFragments>(1024);

// Parsed customization JSON by its text: the same text always parses to the same object.
const parsedJson = new LruCache<Record<string, unknown>>(256);

/** A customization column's object (site-customization's parse, kept by text). Treat as read-only. */
export function parseJson(text: string | null | undefined): Record<string, unknown> {
  if (!text || text === '{}') return {};
  const cached = parsedJson.get(text);
  if (cached) return cached;
  const object = parseCustomization(text);
  parsedJson.set(text, object);
  return object;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Variables of a page: the space's, then the page's (as content reads evaluate them). */
export function variablesOf(snapshot: RevisionSnapshot, node: PageNode): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(snapshot.revision.variables ?? {})) values[`space.vars.${name}`] = String(value);
  for (const [name, value] of Object.entries(node.entry.variables ?? {})) values[`page.vars.${name}`] = String(value);
  return values;
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
export function customizationRefs(site: PublishedSiteRow, current: PlacedSiteSpace): unknown[] {
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

export async function renderedMain(
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
  // Relative URLs kept as written (verbatim HTML, unbound links) are read from the page's file, git-synced or not.
  const relative = node ? relativeLinks(snapshot, node.entry.id, current.base, sign) : null;
  const links: RenderLinks = { ...linksFor(structure, current, snapshots, sign), openapi: specs.model, ...relative };
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
export function siteView(
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

export function absoluteUrl(url: string, origin: string): string | null {
  try {
    return new URL(url, `${origin}/`).toString();
  } catch {
    return null;
  }
}

/** A page cover given by URL (file covers need signed, expiring URLs: not for social cards). */
export function coverUrl(node: PageNode, origin: string): string | null {
  const ref = node.entry.cover?.ref;
  const url = ref?.kind === 'url' ? safeUrl(ref.url) : null;
  return url ? absoluteUrl(url, origin) : null;
}
