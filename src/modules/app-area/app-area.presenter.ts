import { escapeHtml as e } from '../../site/html.ts';
import { SITE_CSS } from '../../site/styles.ts';
import { THEME_HEAD_SCRIPT, THEME_SCRIPT_HASHES, SITE_SCRIPT } from '../../site/theme-toggle.ts';
import type { PageDiff } from './app-area.diff.ts';
import type { Config } from '../../config.ts';
import { presentOrganizationSearch, presentSpaceSearch } from '../search/search.presenter.ts';
import type { AccountView, SearchView, TreePage } from './app-area.views.ts';

/*
 * HTML of the app area, with the published site's style sheet and theme toggle (src/site)
 * plus a few rules of its own. Every value goes through escapeHtml.
 */

/** Scripts: only the site's two theme scripts, by hash; forms post to the app only. */
export const APP_CSP = [
  "default-src 'none'",
  'img-src * data:',
  "style-src 'unsafe-inline'",
  `script-src ${THEME_SCRIPT_HASHES}`,
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const APP_CSS = `
.app-main{max-width:60rem;margin:0 auto;padding:2rem 1.5rem 4rem}
.app-main h1{font-size:1.9rem;margin:.25rem 0 1rem}.app-main h2{font-size:1.25rem;margin:2rem 0 .75rem}
.app-table{width:100%;border-collapse:collapse}.app-table th,.app-table td{text-align:left;padding:.5rem .6rem;border-bottom:1px solid var(--border)}
.app-table th{color:var(--muted);font-weight:600;font-size:.85rem}
.app-form{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center;margin:.75rem 0}
.app-form input[type=text]{padding:.4rem .6rem;border:1px solid var(--border);border-radius:6px;background:var(--bg);color:var(--fg);font:inherit;min-width:14rem}
.app-button{padding:.4rem .9rem;border-radius:6px;border:1px solid var(--primary);background:var(--primary);color:var(--primary-fg);font:inherit;cursor:pointer}
.app-button.secondary{background:transparent;color:var(--fg);border-color:var(--border)}
.app-notice{border:1px solid var(--success);background:var(--subtle);border-radius:8px;padding:1rem;margin:1rem 0;overflow-wrap:anywhere}
.app-notice code{font-size:1rem}
.provider-list{list-style:none;padding:0;display:flex;flex-direction:column;gap:.5rem;max-width:24rem}
.provider-list a{display:block;padding:.6rem 1rem;border:1px solid var(--border);border-radius:8px}
.muted{color:var(--muted)}
.header-links{align-items:center}.header-links form{margin:0}.app-button{white-space:nowrap}
.badge{display:inline-block;padding:.1rem .55rem;border-radius:999px;border:1px solid var(--border);font-size:.8rem;font-weight:600;vertical-align:middle}
.badge.open{border-color:var(--success);color:var(--success)}.badge.merged{border-color:var(--primary);color:var(--primary)}
.change{border:1px solid var(--border);border-radius:8px;margin:1rem 0;overflow:hidden}
.change>h3{margin:0;padding:.6rem .8rem;font-size:1rem;background:var(--subtle);border-bottom:1px solid var(--border);overflow-wrap:anywhere}
.diff{width:100%;border-collapse:collapse;font-family:var(--mono,ui-monospace,monospace);font-size:.85rem}
.diff td{padding:0 .6rem;white-space:pre-wrap;overflow-wrap:anywhere;vertical-align:top}
.diff td.n{width:1%;color:var(--muted);text-align:right;user-select:none;white-space:nowrap}
.diff tr.add td{background:rgba(46,160,67,.15)}.diff tr.remove td{background:rgba(248,81,73,.15)}
.diff tr.hunk td{color:var(--muted);background:var(--subtle);padding:.2rem .6rem}
.diff .sign{user-select:none}
.comment{border-left:3px solid var(--border);padding:.25rem .9rem;margin:.75rem 0}
.comment .text{white-space:pre-wrap;overflow-wrap:anywhere}
.results{list-style:none;padding:0}.results li{margin:.9rem 0}.results .excerpt{color:var(--muted);margin:.2rem 0 0}
.search-form{display:flex;gap:.5rem;flex-wrap:wrap;margin:1rem 0}
.site-header .header-links{display:flex;gap:.75rem}
.edit-action{float:right;margin:.25rem 0 0 1rem}
.search-form input[type=search]{flex:1;min-width:12rem;padding:.45rem .6rem;border:1px solid var(--border);border-radius:6px;background:var(--bg);color:var(--fg);font:inherit}
`;

export interface Chrome {
  title: string;
  /** Signed-in user's name, for the header; absent on the sign-in page. */
  who?: string;
  appBase: string;
  /** Sign-out form's anti-CSRF token. */
  csrf?: string;
}

/** A whole page: the site's header bar, then `body` (already HTML). */
export function layout(chrome: Chrome, body: string): string {
  const links = chrome.who
    ? `<ul class="header-links"><li><a href="${e(chrome.appBase)}/account">${e(chrome.who)}</a></li>` +
      `<li><form method="post" action="${e(chrome.appBase)}/signout"><input type="hidden" name="csrf" value="${e(chrome.csrf ?? '')}">` +
      `<button class="app-button secondary" type="submit">Sign out</button></form></li></ul>`
    : '';
  return `<!doctype html><html lang="en" data-theme-mode="system" data-toggle><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(chrome.title)} · Quire</title><script>${THEME_HEAD_SCRIPT}</script><style>${SITE_CSS}${APP_CSS}</style></head>
<body><header class="site-header"><div class="header-bar"><a class="site-title" href="${e(chrome.appBase)}/account">Quire</a>${links}
<button type="button" id="theme-toggle" class="theme-toggle" aria-label="Dark theme" aria-pressed="false"><span aria-hidden="true">◐</span></button></div></header>
${body}<script>${SITE_SCRIPT}</script></body></html>`;
}

export function messagePage(chrome: Chrome, heading: string, text: string): string {
  return layout(chrome, `<main class="app-main"><h1>${e(heading)}</h1><p>${e(text)}</p></main>`);
}

/**
 * The installation's sign-in page: it names no organization and no identity provider
 * (tenant enumeration); a visitor gives their organization (its ID or hostname) and is
 * sent to that organization's own sign-in page.
 */
export function signInPage(chrome: Chrome, to: string | null): string {
  const form =
    `<form method="get" action="${e(chrome.appBase)}/signin"><label>Organization <input name="org" required maxlength="255" placeholder="Organization ID or hostname" autocomplete="organization"></label>` +
    (to ? `<input type="hidden" name="to" value="${e(to)}">` : '') +
    `<button type="submit">Continue</button></form>` +
    '<p class="muted">Without an identity provider, an administrator can print a one-time sign-in link with <code>npm run cli -- users login-link --email you@example.com</code>.</p>';
  return layout(chrome, `<main class="app-main"><h1>Sign in to Quire</h1>${form}</main>`);
}

/** One organization's sign-in page: its identity providers. */
export function organizationSignInPage(chrome: Chrome, organization: { title: string; providers: { label: string; startURL: string }[] }): string {
  const list = organization.providers.length
    ? `<ul class="provider-list">${organization.providers.map((p) => `<li><a href="${e(p.startURL)}">Sign in with ${e(p.label)}</a></li>`).join('')}</ul>`
    : '<p class="muted">This organization has no identity provider yet. An administrator can print a one-time sign-in link with <code>npm run cli -- users login-link --email you@example.com</code>.</p>';
  return layout(chrome, `<main class="app-main"><h1>Sign in to ${e(organization.title)}</h1>${list}</main>`);
}


export function accountPage(chrome: Chrome, view: AccountView): string {
  const csrf = `<input type="hidden" name="csrf" value="${e(chrome.csrf ?? '')}">`;
  const orgs = view.memberships.length
    ? `<table class="app-table"><thead><tr><th>Organization</th><th>Role</th><th>SSO</th></tr></thead><tbody>${view.memberships
        .map(
          (m) =>
            `<tr><td><a href="${e(chrome.appBase)}/o/${e(m.id)}">${e(m.title)}</a></td><td>${e(m.role ?? 'guest')}</td>` +
            `<td>${m.member_sso ? 'SSO member' : ''}${m.organization_sso ? ' (enforced)' : ''}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="muted">You are not a member of any organization.</p>';
  const created = view.newToken
    ? `<div class="app-notice" role="status"><strong>New token, shown once:</strong> copy it now.<br><code data-new-token>${e(view.newToken)}</code></div>`
    : '';
  const tokens = view.tokens.length
    ? `<table class="app-table"><thead><tr><th>Label</th><th>Created</th><th></th></tr></thead><tbody>${view.tokens
        .map(
          (t) =>
            `<tr data-token-id="${e(t.id)}"><td>${e(t.label ?? '(no label)')}</td><td>${e(t.created_at.slice(0, 16).replace('T', ' '))} UTC</td>` +
            `<td><form method="post" action="${e(chrome.appBase)}/account/tokens/${e(t.id)}/revoke">${csrf}<button class="app-button secondary" type="submit">Revoke</button></form></td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="muted">No API tokens.</p>';
  const createForm = view.mayCreateTokens
    ? `<form class="app-form" method="post" action="${e(chrome.appBase)}/account/tokens">${csrf}<input type="text" name="label" maxlength="100" placeholder="Label (what uses it)" aria-label="Token label"><button class="app-button" type="submit">Create token</button></form>`
    : '<p class="muted">An organization you belong to enforces SSO: sign in through its identity provider to create API tokens.</p>';
  return layout(
    chrome,
    `<main class="app-main"><h1>${e(view.user.display_name)}</h1><p class="muted">${e(view.user.email)} · signed in with ${e(view.signedInWith)}</p>
<h2>Organizations</h2>${orgs}<h2>API tokens</h2>${created}${createForm}${tokens}</main>`,
  );
}

/** A GET form to search an organization or a space in the app. */
function searchForm(action: string, query = ''): string {
  return `<form class="search-form" role="search" method="get" action="${e(action)}"><input type="search" name="q" value="${e(query)}" aria-label="Search" placeholder="Search"><button class="app-button" type="submit">Search</button></form>`;
}

export function organizationPage(
  chrome: Chrome,
  org: { id: string; title: string },
  spaces: { id: string; title: string; emoji?: string }[],
  collections: { id: string; title: string }[],
): string {
  const spaceList = spaces.length
    ? `<ul>${spaces.map((s) => `<li><a href="${e(chrome.appBase)}/s/${e(s.id)}">${e(s.emoji ?? '')} ${e(s.title)}</a></li>`).join('')}</ul>`
    : '<p class="muted">No space you can see.</p>';
  const collectionList = collections.length ? `<h2>Collections</h2><ul>${collections.map((c) => `<li>${e(c.title)}</li>`).join('')}</ul>` : '';
  return layout(
    chrome,
    `<main class="app-main"><h1>${e(org.title)}</h1>${searchForm(`${chrome.appBase}/o/${org.id}/search`)}<h2>Spaces</h2>${spaceList}${collectionList}</main>`,
  );
}

export function collectionPage(chrome: Chrome, org: { id: string }, collection: { title: string }, spaces: { id: string; title: string; emoji?: string }[]): string {
  const list = spaces.length
    ? `<ul>${spaces.map((s) => `<li><a href="${e(chrome.appBase)}/s/${e(s.id)}">${e(s.emoji ?? '')} ${e(s.title)}</a></li>`).join('')}</ul>`
    : '<p class="muted">No space you can see in this collection.</p>';
  return layout(chrome, `<main class="app-main"><p><a href="${e(chrome.appBase)}/o/${e(org.id)}">← Organization</a></p><h1>${e(collection.title)}</h1><h2>Spaces</h2>${list}</main>`);
}

export function sitePage(chrome: Chrome, org: { id: string }, site: { title: string; visibility: string; published?: string }): string {
  const where = site.published
    ? `<p>Published at <a href="${e(site.published)}">${e(site.published)}</a></p>`
    : '<p class="muted">Not published.</p>';
  return layout(
    chrome,
    `<main class="app-main"><p><a href="${e(chrome.appBase)}/o/${e(org.id)}">← Organization</a></p><h1>${e(site.title)}</h1><p>Visibility: <span class="badge">${e(site.visibility)}</span></p>${where}</main>`,
  );
}

export const when = (iso: string) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '');

export function diffTable(diff: PageDiff): string {
  if (!diff.hunks) return '<p class="muted" style="padding:.6rem .8rem;margin:0">Not shown: too many changed pages.</p>';
  if (diff.hunks.length === 0) return '<p class="muted" style="padding:.6rem .8rem;margin:0">Only the title or the place in the tree changed.</p>';
  const rows = diff.hunks.flatMap((hunk) => {
    let [oldLine, newLine] = [hunk.oldStart, hunk.newStart];
    const lines = hunk.lines.map((line) => {
      const [o, n] = line.kind === 'add' ? ['', newLine++] : line.kind === 'remove' ? [oldLine++, ''] : [oldLine++, newLine++];
      const sign = line.kind === 'add' ? '+' : line.kind === 'remove' ? '−' : ' ';
      return `<tr class="${line.kind}"><td class="n">${o}</td><td class="n">${n}</td><td><span class="sign" aria-hidden="true">${sign} </span>${e(line.text)}</td></tr>`;
    });
    return [`<tr class="hunk"><td colspan="3">Lines ${hunk.oldStart} → ${hunk.newStart}</td></tr>`, ...lines];
  });
  return `<table class="diff" aria-label="Changes to ${e(diff.title)}"><tbody>${rows.join('')}</tbody></table>`;
}

/** A search hit as the app lists it: the API's page result (its app URL and first section). */
const hitOf = (p: { title: string; urls: { app: string }; sections?: { body?: string }[] }) => ({ title: p.title, url: p.urls.app, excerpt: p.sections?.[0]?.body ?? '' });

function searchGroups(config: Pick<Config, 'publicUrl'>, found: SearchView['found']): { spaceTitle?: string; pages: ReturnType<typeof hitOf>[] }[] {
  if (!found) return [];
  if (found.kind === 'space') return [{ pages: presentSpaceSearch(config, found.result).items.map(hitOf) }];
  return presentOrganizationSearch(config, found.result).items.map((space) => ({ spaceTitle: space.title, pages: space.pages.map(hitOf) }));
}

export function searchPage(chrome: Chrome, view: SearchView, config: Pick<Config, 'publicUrl'>): string {
  const action = `${chrome.appBase}/${view.scope.kind === 'space' ? 's' : 'o'}/${view.scope.id}/search`;
  const back = `${chrome.appBase}/${view.scope.kind === 'space' ? 's' : 'o'}/${view.scope.id}`;
  const groups = searchGroups(config, view.found).filter((g) => g.pages.length > 0);
  const results = !view.query
    ? ''
    : groups.length
      ? groups
          .map(
            (g) =>
              `${g.spaceTitle ? `<h2>${e(g.spaceTitle)}</h2>` : ''}<ul class="results">${g.pages
                .map((p) => `<li><a href="${e(p.url)}">${e(p.title)}</a>${p.excerpt ? `<p class="excerpt">${e(p.excerpt.slice(0, 240))}</p>` : ''}</li>`)
                .join('')}</ul>`,
          )
          .join('')
      : `<p class="muted">Nothing matches “${e(view.query)}”.</p>`;
  return layout(
    chrome,
    `<main class="app-main"><p><a href="${e(back)}">← ${e(view.scope.title)}</a></p><h1>Search ${e(view.scope.title)}</h1>${searchForm(action, view.query)}${results}</main>`,
  );
}


function tree(appBase: string, spaceId: string, pages: TreePage[], current: string | undefined, revisionId?: string): string {
  const at = revisionId ? `/revisions/${encodeURIComponent(revisionId)}` : '';
  return `<ul>${pages
    .filter((p) => (p.kind ?? p.type) !== 'link')
    .map((p) => {
      const children = p.pages?.length ? tree(appBase, spaceId, p.pages, current, revisionId) : '';
      if ((p.kind ?? p.type) === 'group') return `<li><span class="group-title">${e(p.title)}</span>${children}</li>`;
      const here = p.id === current ? ' aria-current="page"' : '';
      return `<li><a href="${e(appBase)}/s/${e(spaceId)}${at}/pages/${e(p.id)}"${here}>${e(p.title)}</a>${children}</li>`;
    })
    .join('')}</ul>`;
}

export function spacePage(
  chrome: Chrome,
  space: { id: string; title: string; revisionId?: string },
  pages: TreePage[],
  page: { id: string; title: string; description?: string; html: string } | null,
  /** Actions shown above the page (the Edit button), already HTML. */
  actions = '',
): string {
  const revision = space.revisionId ? `<p class="muted">At revision ${e(space.revisionId)}</p>` : searchForm(`${chrome.appBase}/s/${space.id}/search`);
  const changeRequests = space.revisionId ? '' : `<p><a href="${e(chrome.appBase)}/s/${e(space.id)}/change-requests">Change requests</a></p>`;
  const nav = `<aside class="sidebar"><nav class="page-tree" aria-label="Pages"><p><strong>${e(space.title)}</strong></p>${revision}${changeRequests}${tree(chrome.appBase, space.id, pages, page?.id, space.revisionId)}</nav></aside>`;
  const main = page
    ? `<main class="content">${actions}<h1>${e(page.title)}</h1>${page.description ? `<p class="page-description">${e(page.description)}</p>` : ''}${page.html}</main>`
    : '<main class="content"><p class="muted">This space has no page.</p></main>';
  return layout(chrome, `<div class="layout">${nav}${main}</div>`);
}
