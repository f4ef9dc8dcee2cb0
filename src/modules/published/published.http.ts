import { createHash } from 'node:crypto';
import { constants as zlibConstants } from 'node:zlib';
import { THEME_SCRIPT_HASHES } from '../../site/theme-toggle.ts';
import type { CookieToSet } from './published.policy.ts';

/* HTTP details of published sites: the pages' CSP, ETags and compression, credential cookies. */

// The page's scripts are the two site scripts, allowed by hash; images come from anywhere;
// the instant search and copy-as-markdown fetch from the site itself.
export const CSP = [
  "default-src 'none'",
  "img-src * data:",
  "style-src 'unsafe-inline'",
  `script-src ${THEME_SCRIPT_HASHES}`,
  "connect-src 'self'",
  "base-uri 'none'",
  // The search box submits to the site itself.
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** A response body as bytes, its ETag, and its compressed forms (made on first need). */
export interface EncodedBody {
  identity: Buffer;
  etag: string;
  br?: Buffer;
  gzip?: Buffer;
}

// Brotli's default (11) is for static files; 5 compresses pages nearly as well, far faster.
export const BROTLI = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } };

export function encodeBody(text: string): EncodedBody {
  const identity = Buffer.from(text);
  return { identity, etag: `W/"${createHash('sha1').update(identity).digest('base64url')}"` };
}

/** If-None-Match holds this ETag (or `*`). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

/** br, else gzip, when the client accepts it (q=0 refuses) and the body is worth it. */
export function preferredEncoding(header: string | undefined, size: number): 'br' | 'gzip' | 'identity' {
  if (!header || size < 1024) return 'identity';
  const accepted = new Set<string>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return 'identity';
}

/** Cookies of the request, by name (the first of a name wins). */
export function readCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (name in cookies) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // kept as sent
    }
    // A `%00` decodes to a NUL, which PostgreSQL text cannot hold (a share key is looked up
    // in SQL): such a cookie was never one this server set, so it counts as absent.
    if (!value.includes('\u0000')) cookies[name] = value;
  }
  return cookies;
}

export function cookieHeader(cookie: CookieToSet, path: string, secure: boolean): string {
  let header = `${cookie.name}=${encodeURIComponent(cookie.value)}; Path=${path || '/'}; HttpOnly; SameSite=Lax`;
  if (secure) header += '; Secure';
  if (cookie.maxAge !== undefined) header += `; Max-Age=${cookie.maxAge}`;
  return header;
}

/** The request URL without the credential parameters (they became cookies). */
export function withoutCredentials(url: string): string {
  const parsed = new URL(url, 'http://localhost');
  parsed.searchParams.delete('share');
  parsed.searchParams.delete('shareKey');
  parsed.searchParams.delete('jwt_token');
  return parsed.pathname + parsed.search;
}

