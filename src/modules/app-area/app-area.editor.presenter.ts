import { escapeHtml as e } from '../../site/html.ts';
import { THEME_SCRIPT_HASHES } from '../../site/theme-toggle.ts';
import type { EditorConfig } from '../../editor/client/api.ts';

/*
 * HTML of the editor's pages: the Edit button on a page, and the editor page, whose script
 * and style sheet are the hashed bundle (src/editor/assets.ts). The page's own data reaches
 * the script as JSON in a data attribute, never as inline script.
 */

/**
 * The app's policy plus the bundle: scripts and styles from this origin (no inline script
 * beyond the theme scripts' hashes), API calls to this origin, images from anywhere (a
 * page's images) and blob: (a dropped image before upload).
 */
export const EDITOR_CSP = [
  "default-src 'none'",
  'img-src * data: blob:',
  "style-src 'self' 'unsafe-inline'",
  `script-src 'self' ${THEME_SCRIPT_HASHES}`,
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** A form, not a link: it may start a change request, which a GET must not. */
export function editButton(appBase: string, spaceId: string, pageId: string, csrf: string): string {
  return (
    `<form class="edit-action" method="post" action="${e(appBase)}/s/${e(encodeURIComponent(spaceId))}/pages/${e(encodeURIComponent(pageId))}/edit">` +
    `<input type="hidden" name="csrf" value="${e(csrf)}"><button class="app-button" type="submit">Edit</button></form>`
  );
}

/**
 * What the editor page hands its script (a JSON data attribute): the client's own
 * EditorConfig, so server and browser read one contract, and the subject the page shows.
 */
export type EditorPageConfig = EditorConfig & { changeRequestSubject: string };

/** A page's script, its style sheet and the shared chunks the script imports (src/editor/assets.ts), as URLs. */
export interface PageScript {
  script: string;
  style: string;
  chunks: string[];
}

/**
 * The tags that load a page's script: its chunks preloaded, so the browser fetches them with
 * the script rather than after reading it (a module's imports are found only once it loads).
 */
export function scriptTags(assets: PageScript): string {
  return assets.chunks.map((chunk) => `<link rel="modulepreload" href="${e(chunk)}">`).join('') + `<script type="module" src="${e(assets.script)}"></script>`;
}

export function editorPage(view: { assets: PageScript; config: EditorPageConfig }): string {
  const { config } = view;
  const crUrl = `${config.appBase}/s/${encodeURIComponent(config.spaceId)}/change-requests/${config.changeRequestNumber}`;
  const pageUrl = `${config.appBase}/s/${encodeURIComponent(config.spaceId)}/pages/${encodeURIComponent(config.pageId)}`;
  return (
    `<link rel="stylesheet" href="${e(view.assets.style)}">` +
    `<main class="editor-main"><nav class="editor-crumbs" aria-label="Breadcrumb"><a href="${e(pageUrl)}">${e(config.pageTitle)}</a> · ` +
    `<a href="${e(crUrl)}">Change request #${config.changeRequestNumber}${config.changeRequestSubject ? ` ${e(config.changeRequestSubject)}` : ''}</a></nav>` +
    `<h1 class="editor-title">${e(config.pageTitle)}</h1>` +
    `<div id="quire-editor" data-config="${e(JSON.stringify(config))}"><p class="muted">Loading the editor…</p></div></main>` +
    `<noscript><p>The editor needs JavaScript.</p></noscript>` +
    scriptTags(view.assets)
  );
}
