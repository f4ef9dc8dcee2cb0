import { parse as parseCookies, serialize } from 'cookie';
import type { Config } from '../../config.ts';
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

/** The cookie naming the browser that started a sign-in (its nonce; sso.service.ts requestStore). */
export const SIGN_IN_NONCE_COOKIE = 'quire_saml';

/** The sign-in nonce the request's cookie carries, if any. */
export function signInNonceOf(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  const value = parseCookies(cookieHeader)[SIGN_IN_NONCE_COOKIE];
  return value && /^[\w-]{40,100}$/.test(value) ? value : null;
}

/**
 * Set-Cookie of the sign-in nonce, sent only to the SSO endpoints. The IdP posts the
 * response from its own site: under https the cookie is SameSite=None (and Secure) so that
 * cross-site POST carries it; under http browsers refuse SameSite=None without Secure, so
 * it is Lax and sign-in works with an IdP on the same site only (development).
 */
export function signInNonceCookie(config: Pick<Config, 'publicUrl'>, nonce: string, maxAgeMs: number): string {
  const https = config.publicUrl.startsWith('https:');
  return serialize(SIGN_IN_NONCE_COOKIE, nonce, {
    httpOnly: true,
    sameSite: https ? 'none' : 'lax',
    secure: https,
    path: `${new URL(config.publicUrl).pathname.replace(/\/$/, '')}/sso/saml/`,
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}
