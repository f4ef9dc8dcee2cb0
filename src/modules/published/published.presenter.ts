import type { PageNode, RevisionSnapshot } from '../../content/store/types.ts';
import { escapeHtml, safeUrl } from '../../site/html.ts';
import type { RenderedDocument, RenderLinks } from '../../site/render-document.ts';
import { SITE_CSS, themeOverrides } from '../../site/styles.ts';
import { THEME_HEAD_SCRIPT, THEME_TOGGLE_SCRIPT } from '../../site/theme-toggle.ts';

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
  toggleable: boolean;
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
  return { title: node.entry.title, description, sidebar, article, outline, prev, next, noindex };
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

function head(theme: 'light' | 'dark', title: string, noindex: boolean, extra: string): string {
  return (
    `<!doctype html>\n<html lang="en" data-theme="${theme}"><head>` +
    `<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title>` +
    (noindex ? '<meta name="robots" content="noindex">' : '') +
    `<style>${SITE_CSS}</style>` +
    extra +
    '</head>'
  );
}

/** A complete page of a published site. */
export function renderSitePage(view: SiteView, main: MainFragments): string {
  const noindex = Boolean(view.noindex || main.noindex);
  let extra = '';
  const overrides = themeOverrides(view.styling);
  if (overrides) extra += `<style>${overrides}</style>`;
  if (view.favicon) extra += `<link rel="icon" href="${escapeHtml(view.favicon.light)}">`;
  if (view.toggleable) extra += `<script>${THEME_HEAD_SCRIPT}</script>`;
  const title = main.title && main.title !== view.siteTitle ? `${main.title} | ${view.siteTitle}` : view.siteTitle;

  const announcement = view.announcement
    ? `<div class="announcement announcement-${escapeHtml(view.announcement.style)}" role="status">${escapeHtml(view.announcement.message)}` +
      (view.announcement.link ? `<a href="${escapeHtml(view.announcement.link.url)}">${escapeHtml(view.announcement.link.title)}</a>` : '') +
      '</div>'
    : '';
  const toggle = view.toggleable
    ? `<button type="button" id="theme-toggle" class="theme-toggle" aria-label="Switch between light and dark theme" aria-pressed="${view.defaultTheme === 'dark'}">◐ Theme</button>`
    : '';
  const links = headerLinks(view);
  const logo = view.logo ? themedImage(view.logo, '') : '';
  const search =
    `<form class="site-search" role="search" action="${escapeHtml(view.searchUrl)}" method="get">` +
    `<input type="search" name="q" value="${escapeHtml(view.searchQuery ?? '')}" placeholder="Search" aria-label="Search this site" maxlength="512"></form>`;
  const pagination =
    view.pagination && (main.prev || main.next)
      ? '<nav class="pagination" aria-label="Pagination">' +
        (main.prev ? `<a class="prev" href="${escapeHtml(main.prev.url)}"><small>Previous</small>${escapeHtml(main.prev.title)}</a>` : '<span></span>') +
        (main.next ? `<a class="next" href="${escapeHtml(main.next.url)}"><small>Next</small>${escapeHtml(main.next.title)}</a>` : '') +
        '</nav>'
      : '';

  return (
    head(view.defaultTheme, title, noindex, extra) +
    '<body>' +
    announcement +
    '<header class="site-header">' +
    `<div class="header-bar${links ? '' : ' no-links'}"><a class="site-title" href="${escapeHtml(view.homeUrl)}">${logo}<span>${escapeHtml(view.siteTitle)}</span></a>${search}${links}${toggle}</div>` +
    sectionsNav(view) +
    '</header>' +
    '<div class="layout">' +
    `<aside class="sidebar">${spaceSwitcher(view)}<nav aria-label="Pages">${main.sidebar}</nav></aside>` +
    `<main class="content"><article>${main.article}</article>${pagination}</main>` +
    `<aside class="outline">${main.outline}</aside>` +
    '</div>' +
    footer(view) +
    (view.toggleable ? `<script>${THEME_TOGGLE_SCRIPT}</script>` : '') +
    '</body></html>'
  );
}

/** The search page's article: the count and each result with its matching sections. */
export function renderSearchResults(
  text: string,
  count: number,
  results: { url: string; title: string; space: string | null; sections: { title: string; body: string }[] }[],
): string {
  if (!text.trim()) return '<h1>Search</h1><p class="search-count">Type words to find in this site.</p>';
  const items = results.map(
    (r) =>
      `<li><a class="search-result" href="${escapeHtml(r.url)}">${escapeHtml(r.title)}</a>` +
      (r.space ? ` <span class="search-space">${escapeHtml(r.space)}</span>` : '') +
      r.sections.map((s) => `<p>${s.title ? `<strong>${escapeHtml(s.title)}</strong> ` : ''}${escapeHtml(s.body)}</p>`).join('') +
      '</li>',
  );
  return (
    `<h1>Search</h1><p class="search-count">${count} ${count === 1 ? 'page matches' : 'pages match'} “${escapeHtml(text)}”</p>` +
    (items.length > 0 ? `<ol class="search-results">${items.join('')}</ol>` : '')
  );
}

const ERRORS = {
  401: { title: 'Sign in required', message: 'This site is only available to authenticated visitors. Follow the link you were given to sign in.' },
  404: { title: 'Page not found', message: 'There is nothing here.' },
} as const;

/** The 401 and 404 pages: nothing about the site beyond a link home when it is visible. */
export function renderErrorPage(status: 401 | 404, homeUrl?: string): string {
  const { title, message } = ERRORS[status];
  return (
    head('light', title, true, '') +
    `<body><main class="error-page"><h1>${status}</h1><h2>${escapeHtml(title)}</h2><p>${escapeHtml(message)}</p>` +
    (homeUrl ? `<p><a href="${escapeHtml(homeUrl)}">Go to the home page</a></p>` : '') +
    '</main></body></html>'
  );
}
