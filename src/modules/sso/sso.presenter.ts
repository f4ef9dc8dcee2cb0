import { escapeHtml } from '../../site/html.ts';
import { SITE_CSS } from '../../site/styles.ts';

/**
 * The page a refused sign-in answers with: what went wrong, in words an administrator can
 * act on, and where to go next. No SAML data is echoed back.
 */
export function signInErrorPage(title: string, explanation: string, signInUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Quire</title><style>${SITE_CSS}</style></head>
<body><main class="page" style="max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(explanation)}</p>
<p>Nothing was changed: no session was started and no membership was created.</p>
<p><a href="${escapeHtml(signInUrl)}">Back to sign-in</a></p>
</main></body></html>`;
}
