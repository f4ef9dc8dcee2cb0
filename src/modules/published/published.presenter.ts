import type { PageNode, RevisionSnapshot } from '../../content/store/types.ts';
import { escapeHtml, safeUrl } from '../../site/html.ts';
import type { RenderedDocument, RenderLinks } from '../../site/render-document.ts';
import { SITE_CSS, themeOverrides } from '../../site/styles.ts';
import { SITE_SCRIPT, THEME_HEAD_SCRIPT } from '../../site/theme-toggle.ts';

/*
 * HTML assembly of published pages. renderMain builds what comes from a revision (the
 * sidebar, the article, the outline; cached by the service); renderSitePage wraps it in
 * what comes from the site's rows (navigation, customization), on every request.
 * Every text goes through escapeHtml, every URL through safeUrl.
 */

export interface ResolvedLink {
  title: string;
  url: string;
}

export type NavItem =
  | { kind: 'link'; title: string; url: string; current: boolean }
  | { kind: 'group'; title: string; items: Array<{ title: string; url: string; current: boolean }> };

export interface ThemedUrl {
  light: string;
  dark: string;
}

export interface SiteView {
  siteTitle: string;
  homeUrl: string;
  /** Sections (top tabs), section groups as menus. Empty for a site without sections. */
  nav: NavItem[];
  /** The space switcher: empty unless the section (or site) holds several site spaces. */
  spaces: Array<{ title: string; url: string; current: boolean }>;
  styling: Record<string, unknown>;
  logo: ThemedUrl | null;
  favicon: ThemedUrl | null;
  headerLinks: Array<ResolvedLink & { style: 'link' | 'button'; children: ResolvedLink[] }>;
  footer: { logo: ThemedUrl | null; groups: Array<{ title: string; links: ResolvedLink[] }>; copyright: string };
  announcement: { message: string; style: string; link: ResolvedLink | null } | null;
  defaultTheme: 'light' | 'dark';
  /** `system`: the reader's prefers-color-scheme decides (the site fixes no theme). */
  themeMode: 'system' | 'fixed';
  toggleable: boolean;
  /** Absolute URL of this page (canonical link, og:url), or null when it has none (search). */
  canonicalUrl?: string | null;
  /** Absolute URL of the social card image: the page cover, else the site's logo. */
  imageUrl?: string | null;
  /** `pageActions.markdown` (default on): pages offer their markdown. */
  markdownEnabled: boolean;
  /** The page's markdown (`<page URL>.md`) for the copy-as-markdown action, when enabled. */
  markdownUrl?: string | null;
  pagination: boolean;
  /** The site's visibility asks for noindex (unlisted, share-link, visitor-auth). */
  noindex?: boolean;
  /** Where the search box sends its query, and what it holds (on the search page). */
  searchUrl: string;
  searchQuery?: string;
}

/** The revision-derived part of a page (cached per site space, revision and page). */
export interface MainFragments {
  title: string;
  description: string;
  sidebar: string;
  article: string;
  outline: string;
  prev: ResolvedLink | null;
  next: ResolvedLink | null;
  /** The page asks not to be indexed (hidden, noIndex, noRobotsIndex). */
  noindex: boolean;
  /** The page's ancestors (groups and pages) then the page; url '' when not a page. */
  breadcrumbs?: ResolvedLink[];
}

function emoji(code: string | undefined): string {
  if (!code) return '';
  const points = code.split('-').map((part) => parseInt(part, 16));
  return points.every((p) => Number.isFinite(p) && p > 0 && p <= 0x10ffff) ? `<span class="emoji">${escapeHtml(String.fromCodePoint(...points))}</span> ` : '';
}

/** Document pages in reading order, hidden ones left out: for previous / next. */
function readingOrder(nodes: PageNode[], into: PageNode[] = []): PageNode[] {
  for (const node of nodes) {
    if (node.entry.hidden) continue;
    if (node.entry.type === 'document') into.push(node);
    readingOrder(node.children, into);
  }
  return into;
}

function linkTarget(node: PageNode, links: RenderLinks): string | null {
  const target = node.entry.target;
  if (!target) return null;
  switch (target.kind) {
    case 'url':
      return safeUrl(target.url);
    case 'page':
      return links.page(target.page, target.space);
    case 'space':
      return links.space(target.space);
    default:
      return null;
  }
}

function sidebarTree(nodes: PageNode[], base: string, currentId: string | undefined, open: Set<string>, links: RenderLinks): string {
  let out = '';
  for (const node of nodes) {
    const { entry } = node;
    if (entry.hidden) continue;
    const title = `${emoji(entry.emoji)}${escapeHtml(entry.title)}`;
    const visibleChildren = node.children.some((c) => !c.entry.hidden);
    if (entry.type === 'group') {
      out += `<li class="group"><div class="group-title">${title}</div>${visibleChildren ? `<ul>${sidebarTree(node.children, base, currentId, open, links)}</ul>` : ''}</li>`;
      continue;
    }
    if (entry.type === 'link') {
      const href = linkTarget(node, links);
      out += href ? `<li><a href="${escapeHtml(href)}" class="link-page">${title}</a></li>` : '';
      continue;
    }
    const current = entry.id === currentId ? ' aria-current="page"' : '';
    const anchor = `<a href="${escapeHtml(base + node.path)}"${current}>${title}</a>`;
    if (!visibleChildren) {
      out += `<li>${anchor}</li>`;
      continue;
    }
    const expanded = open.has(entry.id) ? ' open' : '';
    out += `<li><details${expanded}><summary>${anchor}</summary><ul>${sidebarTree(node.children, base, currentId, open, links)}</ul></details></li>`;
  }
  return out;
}

/** Sidebar, article and outline of one page of a revision. */
export function renderMain(input: {
  snapshot: RevisionSnapshot;
  node: PageNode | undefined;
  base: string;
  rendered: RenderedDocument;
  links: RenderLinks;
}): MainFragments {
  const { snapshot, node, base, rendered, links } = input;
  // The current page and its ancestors are expanded.
  const open = new Set<string>();
  for (let at = node; at; at = at.parentId ? snapshot.byId.get(at.parentId) : undefined) open.add(at.entry.id);
  const sidebar = `<ul class="page-tree">${sidebarTree(snapshot.pages, base, node?.entry.id, open, links)}</ul>`;

  if (!node) {
    return { title: 'No pages yet', description: '', sidebar, article: '<h1>No pages yet</h1>', outline: '', prev: null, next: null, noindex: false };
  }
  const layout = node.entry.layout ?? {};
  const description = node.entry.description ?? '';
  let article = '';
  if (layout.title !== false) article += `<h1>${emoji(node.entry.emoji)}${escapeHtml(node.entry.title)}</h1>\n`;
  if (description && layout.description !== false) article += `<p class="page-description">${escapeHtml(description)}</p>\n`;
  article += rendered.html;

  let outline = '';
  if (layout.outline !== false && rendered.outline.length > 0) {
    outline =
      '<h2>On this page</h2><ul>' +
      rendered.outline.map((h) => `<li class="level-${h.level}"><a href="#${escapeHtml(h.id)}">${escapeHtml(h.text)}</a></li>`).join('') +
      '</ul>';
  }

  let prev: ResolvedLink | null = null;
  let next: ResolvedLink | null = null;
  if (layout.pagination !== false) {
    const order = readingOrder(snapshot.pages);
    const at = order.findIndex((n) => n.entry.id === node.entry.id);
    if (at > 0) prev = { title: order[at - 1].entry.title, url: base + order[at - 1].path };
    if (at >= 0 && at < order.length - 1) next = { title: order[at + 1].entry.title, url: base + order[at + 1].path };
  }
  const noindex = Boolean(node.entry.hidden || node.entry.noIndex || node.entry.noRobotsIndex);
  const breadcrumbs: ResolvedLink[] = [];
  for (let at: PageNode | undefined = node; at; at = at.parentId ? snapshot.byId.get(at.parentId) : undefined) {
    breadcrumbs.unshift({ title: at.entry.title, url: at.entry.type === 'document' ? base + at.path : '' });
  }
  return { title: node.entry.title, description, sidebar, article, outline, prev, next, noindex, breadcrumbs };
}

function themedImage(url: ThemedUrl, alt: string, cls = ''): string {
  const a = escapeHtml(alt);
  if (url.light === url.dark) return `<img src="${escapeHtml(url.light)}" alt="${a}"${cls ? ` class="${cls}"` : ''}>`;
  return `<img class="only-light ${cls}" src="${escapeHtml(url.light)}" alt="${a}"><img class="only-dark ${cls}" src="${escapeHtml(url.dark)}" alt="${a}">`;
}

function headerLinks(view: SiteView): string {
  if (view.headerLinks.length === 0) return '';
  const items = view.headerLinks.map((l) => {
    if (l.children.length > 0) {
      const sub = l.children.map((c) => `<li><a href="${escapeHtml(c.url)}">${escapeHtml(c.title)}</a></li>`).join('');
      return `<li><details><summary>${escapeHtml(l.title)}</summary><ul>${sub}</ul></details></li>`;
    }
    return `<li><a href="${escapeHtml(l.url)}"${l.style === 'button' ? ' class="button"' : ''}>${escapeHtml(l.title)}</a></li>`;
  });
  return `<ul class="header-links">${items.join('')}</ul>`;
}

function sectionsNav(view: SiteView): string {
  if (view.nav.length === 0) return '';
  const tab = (t: { title: string; url: string; current: boolean }) =>
    `<a href="${escapeHtml(t.url)}"${t.current ? ' aria-current="page"' : ''}>${escapeHtml(t.title)}</a>`;
  const items = view.nav.map((item) =>
    item.kind === 'link' ? tab(item) : `<details${item.items.some((i) => i.current) ? ' class="current"' : ''}><summary>${escapeHtml(item.title)}</summary><div>${item.items.map(tab).join('')}</div></details>`,
  );
  return `<nav class="sections" aria-label="Sections">${items.join('')}</nav>`;
}

function spaceSwitcher(view: SiteView): string {
  if (view.spaces.length < 2) return '';
  const items = view.spaces
    .map((s) => `<li><a href="${escapeHtml(s.url)}"${s.current ? ' aria-current="true"' : ''}>${escapeHtml(s.title)}</a></li>`)
    .join('');
  return `<nav class="space-switcher" aria-label="Spaces"><ul>${items}</ul></nav>`;
}

function footer(view: SiteView): string {
  const { logo, groups, copyright } = view.footer;
  if (!logo && groups.length === 0 && !copyright) return '';
  const cols = groups
    .map((g) => `<div><h3>${escapeHtml(g.title)}</h3><ul>${g.links.map((l) => `<li><a href="${escapeHtml(l.url)}">${escapeHtml(l.title)}</a></li>`).join('')}</ul></div>`)
    .join('');
  return (
    `<footer class="site-footer">` +
    (logo ? `<div class="groups">${themedImage(logo, view.siteTitle, 'footer-logo')}</div>` : '') +
    (cols ? `<div class="groups">${cols}</div>` : '') +
    (copyright ? `<div class="copyright">${escapeHtml(copyright)}</div>` : '') +
    `</footer>`
  );
}

/** A default favicon (an open book) when the customization gives none: no /favicon.ico 404. */
const DEFAULT_FAVICON =
  'data:image/svg+xml,' +
  encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#3b69f0"/><path d="M8 9h6a2 2 0 0 1 2 2v13a2 2 0 0 0-2-2H8zM24 9h-6a2 2 0 0 0-2 2v13a2 2 0 0 1 2-2h6z" fill="#fff"/></svg>');

interface HeadInput {
  theme: 'light' | 'dark';
  themeMode: 'system' | 'fixed';
  toggleable: boolean;
  title: string;
  noindex: boolean;
  extra: string;
}

function head(input: HeadInput): string {
  const attributes = `data-theme="${input.theme}"${input.themeMode === 'system' ? ' data-theme-mode="system"' : ''}${input.toggleable ? ' data-toggle' : ''}`;
  return (
    `<!doctype html>\n<html lang="en" ${attributes}><head>` +
    `<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(input.title)}</title>` +
    `<script>${THEME_HEAD_SCRIPT}</script>` +
    (input.noindex ? '<meta name="robots" content="noindex">' : '') +
    `<style>${SITE_CSS}</style>` +
    input.extra +
    '</head>'
  );
}

/** JSON-LD, safe inside <script>: `<` escaped so no `</script>` can appear. */
function jsonLd(value: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`;
}

/** Absolute form of a site URL (for structured data), given the canonical URL of the page. */
function absolute(url: string, canonical: string | null | undefined): string {
  if (!canonical) return url;
  try {
    return new URL(url, canonical).toString();
  } catch {
    return url;
  }
}

/** The header, the drawer's sidebar, the footer: everything around a page's main content. */
function frame(view: SiteView, main: MainFragments, content: string, noindex: boolean, extraHead = ''): string {
  let extra = extraHead;
  const overrides = themeOverrides(view.styling);
  if (overrides) extra += `<style>${overrides}</style>`;
  extra += `<link rel="icon" href="${escapeHtml(view.favicon?.light ?? DEFAULT_FAVICON)}">`;
  const title = main.title && main.title !== view.siteTitle ? `${main.title} | ${view.siteTitle}` : view.siteTitle;
  const announcement = view.announcement
    ? `<div class="announcement announcement-${escapeHtml(view.announcement.style)}" role="status">${escapeHtml(view.announcement.message)}` +
      (view.announcement.link ? `<a href="${escapeHtml(view.announcement.link.url)}">${escapeHtml(view.announcement.link.title)}</a>` : '') +
      '</div>'
    : '';
  const toggle = view.toggleable
    ? `<button type="button" id="theme-toggle" class="theme-toggle" aria-label="Dark theme" aria-pressed="${view.defaultTheme === 'dark'}"><span aria-hidden="true">◐</span></button>`
    : '';
  const links = headerLinks(view);
  const logo = view.logo ? themedImage(view.logo, '') : '';
  const search =
    `<form class="site-search" role="search" action="${escapeHtml(view.searchUrl)}" method="get">` +
    `<input type="search" name="q" value="${escapeHtml(view.searchQuery ?? '')}" placeholder="Search" aria-label="Search this site" maxlength="512" autocomplete="off" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="search-dropdown">` +
    `<div id="search-dropdown" class="search-dropdown" role="listbox" aria-label="Search results" hidden></div></form>`;
  const menu = `<button type="button" id="menu-toggle" class="menu-toggle" aria-label="Menu" aria-expanded="false" aria-controls="site-drawer"><span aria-hidden="true">☰</span></button>`;
  return (
    head({ theme: view.defaultTheme, themeMode: view.themeMode, toggleable: view.toggleable, title, noindex, extra }) +
    '<body>' +
    `<a class="skip-link" href="#main">Skip to content</a>` +
    announcement +
    '<header class="site-header">' +
    `<div class="header-bar${links ? '' : ' no-links'}">${menu}<a class="site-title" href="${escapeHtml(view.homeUrl)}">${logo}<span>${escapeHtml(view.siteTitle)}</span></a>${search}${links}${toggle}</div>` +
    sectionsNav(view) +
    '</header>' +
    '<div class="layout">' +
    `<aside class="sidebar" id="site-drawer" aria-label="Site navigation">${spaceSwitcher(view)}<nav aria-label="Pages">${main.sidebar}</nav></aside>` +
    '<div class="drawer-backdrop" aria-hidden="true"></div>' +
    content +
    '</div>' +
    footer(view) +
    `<script>${SITE_SCRIPT}</script>` +
    '</body></html>'
  );
}

/** A complete page of a published site. */
export function renderSitePage(view: SiteView, main: MainFragments): string {
  const noindex = Boolean(view.noindex || main.noindex);
  let meta = '';
  const title = main.title && main.title !== view.siteTitle ? `${main.title} | ${view.siteTitle}` : view.siteTitle;
  if (main.description) meta += `<meta name="description" content="${escapeHtml(main.description)}">`;
  if (view.canonicalUrl) meta += `<link rel="canonical" href="${escapeHtml(view.canonicalUrl)}">`;
  meta += `<meta property="og:type" content="article"><meta property="og:site_name" content="${escapeHtml(view.siteTitle)}"><meta property="og:title" content="${escapeHtml(title)}">`;
  if (main.description) meta += `<meta property="og:description" content="${escapeHtml(main.description)}">`;
  if (view.canonicalUrl) meta += `<meta property="og:url" content="${escapeHtml(view.canonicalUrl)}">`;
  if (view.imageUrl) meta += `<meta property="og:image" content="${escapeHtml(view.imageUrl)}">`;
  meta += `<meta name="twitter:card" content="${view.imageUrl ? 'summary_large_image' : 'summary'}"><meta name="twitter:title" content="${escapeHtml(title)}">`;
  if (main.description) meta += `<meta name="twitter:description" content="${escapeHtml(main.description)}">`;
  if (view.imageUrl) meta += `<meta name="twitter:image" content="${escapeHtml(view.imageUrl)}">`;
  // Breadcrumbs and previous / next as structured data (schema.org).
  const crumbs = (main.breadcrumbs ?? []).filter((c) => c.url);
  if (crumbs.length > 0) {
    meta += jsonLd({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: crumbs.map((c, i) => ({ '@type': 'ListItem', position: i + 1, name: c.title, item: absolute(c.url, view.canonicalUrl) })),
    });
  }
  if (main.prev) meta += `<link rel="prev" href="${escapeHtml(main.prev.url)}">`;
  if (main.next) meta += `<link rel="next" href="${escapeHtml(main.next.url)}">`;
  if (view.canonicalUrl) {
    meta += jsonLd({
      '@context': 'https://schema.org',
      '@type': 'TechArticle',
      headline: main.title,
      ...(main.description ? { description: main.description } : {}),
      url: view.canonicalUrl,
      isPartOf: { '@type': 'WebSite', name: view.siteTitle, url: absolute(view.homeUrl, view.canonicalUrl) },
      ...(main.prev ? { previousItem: absolute(main.prev.url, view.canonicalUrl) } : {}),
      ...(main.next ? { nextItem: absolute(main.next.url, view.canonicalUrl) } : {}),
    });
  }
  const pagination =
    view.pagination && (main.prev || main.next)
      ? '<nav class="pagination" aria-label="Pagination">' +
        (main.prev ? `<a class="prev" href="${escapeHtml(main.prev.url)}" rel="prev"><small>Previous</small>${escapeHtml(main.prev.title)}</a>` : '<span></span>') +
        (main.next ? `<a class="next" href="${escapeHtml(main.next.url)}" rel="next"><small>Next</small>${escapeHtml(main.next.title)}</a>` : '') +
        '</nav>'
      : '';
  const breadcrumbs =
    (main.breadcrumbs ?? []).length > 1
      ? `<nav class="breadcrumbs" aria-label="Breadcrumbs"><ol>${(main.breadcrumbs ?? [])
          .slice(0, -1)
          .map((c) => `<li>${c.url ? `<a href="${escapeHtml(c.url)}">${escapeHtml(c.title)}</a>` : escapeHtml(c.title)}</li>`)
          .join('')}</ol></nav>`
      : '';
  const actions = view.markdownUrl
    ? `<div class="page-actions"><button type="button" id="copy-markdown" class="page-action" data-src="${escapeHtml(view.markdownUrl)}">Copy as Markdown</button><a class="page-action" href="${escapeHtml(view.markdownUrl)}">View as Markdown</a></div>`
    : '';
  // Below wide layouts the outline is a disclosure at the top of the article.
  const outlineMobile = main.outline ? `<details class="outline-mobile"><summary>On this page</summary>${main.outline.replace('<h2>On this page</h2>', '')}</details>` : '';
  const content =
    `<main class="content" id="main">${breadcrumbs}${actions}${outlineMobile}<article>${main.article}</article>${pagination}</main>` +
    `<aside class="outline" aria-label="On this page">${main.outline}</aside>`;
  return frame(view, main, content, noindex, meta);
}

export interface ShownResult {
  url: string;
  title: string;
  space: string | null;
  /** `url`: the page URL with the section's heading anchor. */
  sections: { title: string; body: string; url: string }[];
}

/**
 * Text with the words of the search marked: escaped, each word that starts like a search
 * word (its stem, so "configure" marks "configuration") in <mark>. Done here, not by the
 * database, so both databases show the same marks.
 */
export function markMatches(text: string, words: string[]): string {
  if (words.length === 0 || !text) return escapeHtml(text);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})[\\p{L}\\p{N}]*`, 'giu');
  let out = '';
  let from = 0;
  for (const match of text.matchAll(pattern)) {
    out += escapeHtml(text.slice(from, match.index)) + `<mark>${escapeHtml(match[0])}</mark>`;
    from = (match.index ?? 0) + match[0].length;
  }
  return out + escapeHtml(text.slice(from));
}

/** The search page's article: the count and each result with its matching sections (no script needed). */
export function renderSearchResults(text: string, count: number, results: ShownResult[], words: string[]): string {
  if (!text.trim()) return '<h1>Search</h1><p class="search-count">Type words to find in this site.</p>';
  const items = results.map(
    (r) =>
      `<li><a class="search-result" href="${escapeHtml(r.url)}">${markMatches(r.title, words)}</a>` +
      (r.space ? ` <span class="search-space">${escapeHtml(r.space)}</span>` : '') +
      r.sections
        .map((s) => `<p><a class="search-section" href="${escapeHtml(s.url)}">${s.title ? `<strong>${markMatches(s.title, words)}</strong> ` : ''}${markMatches(s.body, words)}</a></p>`)
        .join('') +
      '</li>',
  );
  return (
    `<h1>Search</h1><p class="search-count">${count} ${count === 1 ? 'page matches' : 'pages match'} “${escapeHtml(text)}”</p>` +
    (items.length > 0 ? `<ol class="search-results">${items.join('')}</ol>` : '')
  );
}

/** The instant-search dropdown's options: each page, then its sections (links to their anchors). */
export function renderSearchDropdown(text: string, results: ShownResult[], words: string[], allUrl: string): string {
  let n = 0;
  const option = (url: string, inner: string, cls: string) => `<a role="option" id="search-option-${n++}" aria-selected="false" class="${cls}" href="${escapeHtml(url)}">${inner}</a>`;
  let out = '';
  for (const r of results) {
    out += option(r.url, `<span class="so-title">${markMatches(r.title, words)}</span>${r.space ? `<span class="so-space">${escapeHtml(r.space)}</span>` : ''}`, 'so-page');
    for (const s of r.sections) {
      if (!s.title && !s.body) continue;
      out += option(s.url, `${s.title ? `<span class="so-heading">${markMatches(s.title, words)}</span>` : ''}<span class="so-body">${markMatches(s.body, words)}</span>`, 'so-section');
    }
  }
  if (results.length === 0) out += `<p class="so-empty">No results for “${escapeHtml(text)}”</p>`;
  return out + `<a class="so-all" href="${escapeHtml(allUrl)}">All results</a>`;
}

const ERRORS = {
  401: { title: 'Sign in required', message: 'This site is only available to authenticated visitors. Follow the link you were given to sign in.' },
  404: { title: 'Page not found', message: 'There is nothing here. Search the site or pick a page from the navigation.' },
} as const;

/** The 401 and 404 pages without the site around them (the site is unknown or closed to this visitor). */
export function renderErrorPage(status: 401 | 404, homeUrl?: string): string {
  const { title, message } = ERRORS[status];
  return (
    head({ theme: 'light', themeMode: 'system', toggleable: false, title, noindex: true, extra: `<link rel="icon" href="${escapeHtml(DEFAULT_FAVICON)}">` }) +
    `<body><main class="error-page"><h1>${status}</h1><h2>${escapeHtml(title)}</h2><p>${escapeHtml(message)}</p>` +
    (homeUrl ? `<p><a href="${escapeHtml(homeUrl)}">Go to the home page</a></p>` : '') +
    '</main></body></html>'
  );
}

/** A 404 inside the site's layout: header, search and navigation of a site the visitor may see. */
export function renderNotFoundInSite(view: SiteView, main: MainFragments): string {
  const { title, message } = ERRORS[404];
  const content =
    `<main class="content" id="main"><article class="not-found"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>` +
    `<p><a href="${escapeHtml(view.homeUrl)}">Go to the home page</a></p></article></main><aside class="outline"></aside>`;
  return frame(view, { ...main, title }, content, true);
}
