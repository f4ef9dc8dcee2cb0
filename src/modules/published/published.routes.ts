import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { THEME_SCRIPT_HASHES } from '../../site/theme-toggle.ts';
import { SHARE_COOKIE, VISITOR_COOKIE, type CookieToSet } from './published.policy.ts';
import { credentialParam, type HostParams, type SiteParams } from './published.schemas.ts';
import { publishedRepository } from './published.repository.ts';
import { SEARCH_PATH, servePublished, type Mount, type PublishedOutcome } from './published.service.ts';
import { reuseUnlessChanged, type Depend } from '../../db/read-cache.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';
import { LruCache } from '../../content/store/snapshot.ts';

/*
 * Published sites as HTML (docs/decisions/published-sites.md):
 * - PUBLIC_URL/sites/<site id or basename>/<path>;
 * - <custom hostname>/<path>, for a request whose Host is a published site's hostname.
 *   That is a catch-all GET route: API routes, being more specific, always win, and on
 *   PUBLIC_URL's own host (or an unknown one) the catch-all answers the app's usual 404.
 * Public routes (no API token); visitors are let in by the site's visibility.
 */

// The page's scripts are the two site scripts, allowed by hash; images come from anywhere;
// the instant search and copy-as-markdown fetch from the site itself.
const CSP = [
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
interface EncodedBody {
  identity: Buffer;
  etag: string;
  br?: Buffer;
  gzip?: Buffer;
}

// Brotli's default (11) is for static files; 5 compresses pages nearly as well, far faster.
const BROTLI = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } };

function encodeBody(text: string): EncodedBody {
  const identity = Buffer.from(text);
  return { identity, etag: `W/"${createHash('sha1').update(identity).digest('base64url')}"` };
}

/** If-None-Match holds this ETag (or `*`). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

/** br, else gzip, when the client accepts it (q=0 refuses) and the body is worth it. */
function preferredEncoding(header: string | undefined, size: number): 'br' | 'gzip' | 'identity' {
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
function readCookies(header: string | undefined): Record<string, string> {
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

function cookieHeader(cookie: CookieToSet, path: string, secure: boolean): string {
  let header = `${cookie.name}=${encodeURIComponent(cookie.value)}; Path=${path || '/'}; HttpOnly; SameSite=Lax`;
  if (secure) header += '; Secure';
  if (cookie.maxAge !== undefined) header += `; Max-Age=${cookie.maxAge}`;
  return header;
}

/** The request URL without the credential parameters (they became cookies). */
function withoutCredentials(url: string): string {
  const parsed = new URL(url, 'http://localhost');
  parsed.searchParams.delete('share');
  parsed.searchParams.delete('shareKey');
  parsed.searchParams.delete('jwt_token');
  return parsed.pathname + parsed.search;
}

export const publishedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { deps } = app;
  const publicUrl = new URL(deps.config.publicUrl);
  const apiHostname = publicUrl.hostname.toLowerCase();
  const secureCookies = publicUrl.protocol === 'https:';

  // Visits without credentials see what the database says, nothing else: their outcome is
  // reused while what it depends on is unchanged (servePublished declares it), its HTML
  // encoded to bytes once.
  const anonymous = new TtlCache<PublishedOutcome>(60_000, 2_000);
  app.metrics?.registerCache('published', anonymous as TtlCache<unknown>);
  const encoded = new WeakMap<object, EncodedBody>();
  // Outcomes are not reused across visitors with credentials (nor while the change feed is
  // down), but their bytes mostly are the same: the compressed forms are kept by content too, so a page is
  // compressed once per content, not once per request (brotli was 40% of a page's time).
  const byContent = new LruCache<EncodedBody>(256);
  const encodedOnce = (text: string): EncodedBody => {
    const fresh = encodeBody(text);
    const known = byContent.get(fresh.etag);
    if (known && known.identity.equals(fresh.identity)) return known;
    byContent.set(fresh.etag, fresh);
    return fresh;
  };

  async function serve(request: FastifyRequest, reply: FastifyReply, mount: Mount, path: string) {
    const query = request.query as Record<string, unknown>;
    const cookies = readCookies(request.headers.cookie);
    const credentials = {
      // `?share=` on visitor links; `?shareKey=` as the API's share links write it.
      shareQuery: credentialParam(query.share ?? query.shareKey, 256),
      jwtQuery: credentialParam(query.jwt_token, 8192),
      shareCookie: cookies[SHARE_COOKIE],
      visitorCookie: cookies[VISITOR_COOKIE],
    };
    const hasCredentials = Object.values(credentials).some((value) => value !== undefined);
    const search = path === SEARCH_PATH && typeof query.q === 'string' ? query.q.slice(0, 512) : undefined;
    const searchJson = path === SEARCH_PATH && query.format === 'json';
    const visit = (depend?: Depend) => servePublished(deps, { mount, path, credentials, search, searchJson }, depend);
    const key = `${mount.kind === 'path' ? mount.key : `host:${mount.hostname}`}\u0000${path}\u0000${search ?? ''}\u0000${searchJson ? 'j' : ''}`;
    const outcome = hasCredentials ? await visit() : await reuseUnlessChanged(deps.db, anonymous as TtlCache<unknown>, key, visit);
    if (outcome.kind === 'none') return reply.callNotFound();
    const secure = secureCookies || request.protocol === 'https';
    if (outcome.cookies.length > 0) {
      reply.header('set-cookie', outcome.cookies.map((c) => cookieHeader(c, outcome.cookiePath, secure)));
    }
    if (outcome.kind === 'redirect') {
      const location = outcome.cleanQuery ? withoutCredentials(request.url) : (outcome.location ?? '/');
      return reply.code(302).header('cache-control', 'no-store').header('location', location).send();
    }
    reply
      .code(outcome.status)
      .header('content-type', outcome.kind === 'html' ? 'text/html; charset=utf-8' : outcome.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', outcome.private ? 'same-origin' : 'strict-origin-when-cross-origin')
      .header('cache-control', outcome.private || outcome.status !== 200 ? 'private, no-store' : 'public, max-age=60');
    if (outcome.kind === 'html') reply.header('content-security-policy', CSP);
    if (outcome.noindex) reply.header('x-robots-tag', 'noindex');
    let body = encoded.get(outcome);
    if (!body) encoded.set(outcome, (body = encodedOnce(outcome.kind === 'html' ? outcome.html : outcome.body)));
    // Revalidation: the ETag names the bytes; a match answers 304 without a body.
    reply.header('etag', body.etag).header('vary', 'accept-encoding');
    if (outcome.kind === 'html' && outcome.lastModified) reply.header('last-modified', outcome.lastModified);
    if (outcome.status === 200 && etagMatches(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
    const encoding = preferredEncoding(request.headers['accept-encoding'], body.identity.length);
    if (encoding === 'identity') return reply.send(body.identity);
    // Compressed once per content (see encodedOnce), not on every request.
    let compressed = body[encoding];
    if (!compressed) compressed = body[encoding] = encoding === 'br' ? brotliCompressSync(body.identity, BROTLI) : gzipSync(body.identity, { level: 6 });
    return reply.header('content-encoding', encoding).send(compressed);
  }

  // Robots of PUBLIC_URL's own host: the API is not for crawlers; sites say for themselves.
  app.get('/robots.txt', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const hostname = request.hostname.toLowerCase();
    if (hostname && hostname !== apiHostname && (await publishedRepository.siteByHostname(deps.db, hostname))) {
      return serve(request, reply, { kind: 'host', hostname }, 'robots.txt');
    }
    return reply.header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send('User-agent: *\nDisallow: /v1/\n');
  });

  // No schema validation on these routes: it cost more than the rest of Fastify's work on
  // a page (bench published.page); params are strings by construction, and the two
  // credential parameters are checked by credentialParam.
  const siteRoute = { config: { public: true }, schema: { hide: true } } as const;
  app.get<{ Params: SiteParams }>('/sites/:site', siteRoute, (request, reply) => serve(request, reply, { kind: 'path', key: request.params.site }, ''));
  app.get<{ Params: SiteParams }>('/sites/:site/*', siteRoute, (request, reply) =>
    serve(request, reply, { kind: 'path', key: request.params.site }, request.params['*'] ?? ''),
  );

  // Custom hostnames: any other GET, when the Host is a site's.
  const hostRoute = { config: { public: true }, schema: { hide: true } } as const;
  const byHost = (request: FastifyRequest, reply: FastifyReply, path: string) => {
    const hostname = request.hostname.toLowerCase();
    if (!hostname || hostname === apiHostname) return reply.callNotFound();
    return serve(request, reply, { kind: 'host', hostname }, path);
  };
  app.get('/', hostRoute, (request, reply) => byHost(request, reply, ''));
  app.get<{ Params: HostParams }>('/*', hostRoute, (request, reply) => byHost(request, reply, request.params['*'] ?? ''));
};
