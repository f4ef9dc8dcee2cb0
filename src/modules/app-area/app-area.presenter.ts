import { escapeHtml as e } from '../../site/html.ts';
import { SITE_CSS } from '../../site/styles.ts';
import { THEME_HEAD_SCRIPT, THEME_SCRIPT_HASHES, SITE_SCRIPT } from '../../site/theme-toggle.ts';

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
<button type="button" id="theme-toggle" class="theme-toggle" aria-label="Switch between light and dark theme" aria-pressed="false">◐ Theme</button></div></header>
${body}<script>${SITE_SCRIPT}</script></body></html>`;
}

export function messagePage(chrome: Chrome, heading: string, text: string): string {
  return layout(chrome, `<main class="app-main"><h1>${e(heading)}</h1><p>${e(text)}</p></main>`);
}

export function signInPage(
  chrome: Chrome,
  groups: { title: string; providers: { label: string; startURL: string }[] }[],
): string {
  const list = groups.length
    ? groups
        .map(
          (g) =>
            `<h2>${e(g.title)}</h2><ul class="provider-list">${g.providers
              .map((p) => `<li><a href="${e(p.startURL)}">Sign in with ${e(p.label)}</a></li>`)
              .join('')}</ul>`,
        )
        .join('')
    : '<p class="muted">No organization has an identity provider yet. An administrator can print a one-time sign-in link with <code>npm run cli -- users login-link --email you@example.com</code>.</p>';
  return layout(chrome, `<main class="app-main"><h1>Sign in to Quire</h1>${list}</main>`);
}

export interface AccountView {
  user: { display_name: string; email: string };
  memberships: { id: string; title: string; role: string | null; member_sso: number; organization_sso: number }[];
  tokens: { id: string; label: string | null; created_at: string }[];
  newToken?: string;
  mayCreateTokens: boolean;
  signedInWith: string;
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

export function organizationPage(
  chrome: Chrome,
  org: { title: string },
  spaces: { id: string; title: string; emoji?: string }[],
  collections: { id: string; title: string }[],
): string {
  const spaceList = spaces.length
    ? `<ul>${spaces.map((s) => `<li><a href="${e(chrome.appBase)}/s/${e(s.id)}">${e(s.emoji ?? '')} ${e(s.title)}</a></li>`).join('')}</ul>`
    : '<p class="muted">No space you can see.</p>';
  const collectionList = collections.length ? `<h2>Collections</h2><ul>${collections.map((c) => `<li>${e(c.title)}</li>`).join('')}</ul>` : '';
  return layout(chrome, `<main class="app-main"><h1>${e(org.title)}</h1><h2>Spaces</h2>${spaceList}${collectionList}</main>`);
}

export interface TreePage {
  id: string;
  title: string;
  kind?: string;
  type?: string;
  pages?: TreePage[];
}

function tree(appBase: string, spaceId: string, pages: TreePage[], current: string | undefined): string {
  return `<ul>${pages
    .filter((p) => (p.kind ?? p.type) !== 'link')
    .map((p) => {
      const children = p.pages?.length ? tree(appBase, spaceId, p.pages, current) : '';
      if ((p.kind ?? p.type) === 'group') return `<li><span class="group-title">${e(p.title)}</span>${children}</li>`;
      const here = p.id === current ? ' aria-current="page"' : '';
      return `<li><a href="${e(appBase)}/s/${e(spaceId)}/pages/${e(p.id)}"${here}>${e(p.title)}</a>${children}</li>`;
    })
    .join('')}</ul>`;
}

export function spacePage(
  chrome: Chrome,
  space: { id: string; title: string },
  pages: TreePage[],
  page: { id: string; title: string; description?: string; html: string } | null,
): string {
  const nav = `<aside class="sidebar"><nav class="page-tree" aria-label="Pages"><p><strong>${e(space.title)}</strong></p>${tree(chrome.appBase, space.id, pages, page?.id)}</nav></aside>`;
  const main = page
    ? `<main class="content"><h1>${e(page.title)}</h1>${page.description ? `<p class="page-description">${e(page.description)}</p>` : ''}${page.html}</main>`
    : '<main class="content"><p class="muted">This space has no page.</p></main>';
  return layout(chrome, `<div class="layout">${nav}${main}</div>`);
}
