import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SHARE_COOKIE, VISITOR_COOKIE, type CookieToSet } from './published.policy.ts';
import { credentialParam, type HostParams, type SiteParams } from './published.schemas.ts';
import { publishedRepository } from './published.repository.ts';
import { renderErrorPage, renderNotFoundInSite, renderSitePage } from './published.presenter.ts';
import {
  llmsTxt,
  missingPage,
  openSite,
  readPage,
  robotsTxt,
  searchSite,
  sitemapXml,
  SEARCH_PATH,
  type Mount,
  type SiteFile,
  type SiteVisit,
} from './published.service.ts';
import { BROTLI, cookieHeader, CSP, encodeBody, etagMatches, preferredEncoding, readCookies, withoutCredentials, type EncodedBody } from './published.http.ts';
import { reuseUnlessChanged, type Depend } from '../../db/read-cache.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';
import { LruCache } from '../../content/store/snapshot.ts';
import type { AppDeps } from '../../context.ts';

/*
 * Published sites as HTML (docs/decisions/published-sites.md):
 * - PUBLIC_URL/sites/<site id or basename>/<path>;
 * - <custom hostname>/<path>, for a request whose Host is a published site's hostname.
 *   Those are catch-all GET routes: API routes, being more specific, always win, and on
 *   PUBLIC_URL's own host (or an unknown one) the catch-all answers the app's usual 404.
 * One route per resource of a site (pages and their markdown, the search page, robots.txt,
 * sitemap.xml, llms.txt, llms-full.txt), each asking the reader service
 * (published.service.ts) and turning its domain answer into HTTP here. Public routes (no
 * API token); visitors are let in by the site's visibility.
 */

/** What a visit answers over HTTP (kept as is for visitors without credentials, see below). */
type Outcome =
  | { kind: 'body'; status: number; contentType: string; body: string; noindex: boolean; private: boolean; cookies: CookieToSet[]; cookiePath: string; lastModified?: string }
  /** `location: null`: the same URL without the credentials (they are now cookies). */
  | { kind: 'redirect'; location: string | null; cookies: CookieToSet[]; cookiePath: string }
  /** Not a site of this server (custom hostnames): the app's ordinary 404. */
  | { kind: 'none' };

/** What a resource of an open site answers, before cookies. */
type Answer = Omit<Extract<Outcome, { kind: 'body' }>, 'cookies' | 'cookiePath'> | { kind: 'redirect'; location: string };

type Deps = AppDeps;
/** One resource of a site: the answer it gives a visitor of the open site. */
type Resource = (deps: Deps, visit: SiteVisit, depend: Depend) => Promise<Answer>;

const HTML = 'text/html; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';

const html = (status: number, body: string, noindex: boolean, restricted: boolean, lastModified?: string): Answer => ({
  kind: 'body',
  status,
  contentType: HTML,
  body,
  noindex,
  private: restricted,
  ...(lastModified ? { lastModified } : {}),
});
const text = (contentType: string, file: SiteFile, visit: SiteVisit, noindex = !file.listed): Answer => ({
  kind: 'body',
  status: 200,
  contentType,
  body: file.text,
  noindex,
  private: visit.restricted,
});

/** The 404 of a page the visitor does not find (in the site's layout). */
async function missing(deps: Deps, visit: SiteVisit): Promise<Answer> {
  const answer = await missingPage(deps, visit);
  return html(404, answer.kind === 'in-site' ? renderNotFoundInSite(answer.view, answer.main) : renderErrorPage(404, answer.home), true, true);
}

/**
 * The page path of a request under the site's base, with the trailing slash the router
 * ignores kept: `<base>kites/` names the site space or section itself (resolvePath).
 */
function pagePathOf(request: FastifyRequest): string {
  const path = (request.params as { '*'?: string })['*'] ?? '';
  return path !== '' && !path.endsWith('/') && request.url.split('?')[0].endsWith('/') ? `${path}/` : path;
}

function page(path: string): Resource {
  return async (deps, visit, depend) => {
    const answer = await readPage(deps, visit, path, depend);
    switch (answer.kind) {
      case 'page':
        return html(200, renderSitePage(answer.view, answer.main), answer.noindex, visit.restricted, answer.lastModified);
      case 'markdown':
        return text('text/markdown; charset=utf-8', { text: answer.markdown, listed: true }, visit, answer.noindex);
      case 'moved':
        return { kind: 'redirect', location: answer.location };
      case 'missing':
        return missing(deps, visit);
    }
  };
}

function search(query: string, dropdown: boolean): Resource {
  return async (deps, visit) => {
    const answer = await searchSite(deps, visit, query, dropdown);
    if (answer.kind === 'missing') return missing(deps, visit);
    if (answer.kind === 'dropdown') {
      const body = JSON.stringify({ query: answer.query, count: answer.count, html: answer.html });
      return text('application/json; charset=utf-8', { text: body, listed: false }, visit);
    }
    return html(200, renderSitePage(answer.view, answer.main), true, visit.restricted);
  };
}

const robots: Resource = async (_deps, visit) => text(TEXT, robotsTxt(visit), visit);
const sitemap: Resource = async (deps, visit) => text('application/xml; charset=utf-8', await sitemapXml(deps, visit), visit);
const llms = (full: boolean): Resource => async (deps, visit) => text(TEXT, await llmsTxt(deps, visit, full), visit);

/** Files of a site beside its pages, each its own route (none is a slug: slugs hold no `.`). */
const SITE_FILES: Record<string, Resource> = { 'robots.txt': robots, 'sitemap.xml': sitemap, 'llms.txt': llms(false), 'llms-full.txt': llms(true) };

export const publishedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { deps } = app;
  const publicUrl = new URL(deps.config.publicUrl);
  const apiHostname = publicUrl.hostname.toLowerCase();
  const secureCookies = publicUrl.protocol === 'https:';

  // Visits without credentials see what the database says, nothing else: their outcome is
  // reused while what it depends on is unchanged (the reader declares it), its body
  // encoded to bytes once.
  const anonymous = new TtlCache<Outcome>(60_000, 2_000);
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

  /** Opens the site for the visitor, then answers `resource` of it. */
  async function visit(mount: Mount, credentials: Parameters<typeof openSite>[2], resource: Resource, depend: Depend): Promise<Outcome> {
    const opened = await openSite(deps, mount, credentials, depend);
    if (opened.kind === 'unknown-host') return { kind: 'none' };
    const cookiePath = mount.kind === 'host' ? '/' : opened.kind === 'open' ? opened.visit.base.replace(/\/$/, '') : opened.base.replace(/\/$/, '');
    switch (opened.kind) {
      case 'hidden':
      case 'sign-in': {
        const body = opened.kind === 'hidden' ? renderErrorPage(404) : renderErrorPage(401);
        const status = opened.kind === 'hidden' ? 404 : 401;
        return { kind: 'body', status, contentType: HTML, body, noindex: true, private: true, cookies: opened.forget ? [opened.forget] : [], cookiePath };
      }
      case 'remember':
        return { kind: 'redirect', location: null, cookies: [opened.credential], cookiePath };
      case 'open':
        return { ...(await resource(deps, opened.visit, depend)), cookies: [], cookiePath };
    }
  }

  async function serve(request: FastifyRequest, reply: FastifyReply, mount: Mount, key: string, resource: Resource) {
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
    const answer = (depend: Depend) => visit(mount, credentials, resource, depend);
    const cacheKey = `${mount.kind === 'path' ? mount.key : `host:${mount.hostname}`}\u0000${key}`;
    const outcome = hasCredentials ? await answer(() => {}) : await reuseUnlessChanged(deps.db, anonymous as TtlCache<unknown>, cacheKey, answer);
    if (outcome.kind === 'none') return reply.callNotFound();
    const secure = secureCookies || request.protocol === 'https';
    if (outcome.cookies.length > 0) {
      reply.header('set-cookie', outcome.cookies.map((c) => cookieHeader(c, outcome.cookiePath, secure)));
    }
    if (outcome.kind === 'redirect') {
      const location = outcome.location === null ? withoutCredentials(request.url) : outcome.location;
      return reply.code(302).header('cache-control', 'no-store').header('location', location).send();
    }
    const isHtml = outcome.contentType === HTML;
    reply
      .code(outcome.status)
      .header('content-type', outcome.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', outcome.private ? 'same-origin' : 'strict-origin-when-cross-origin')
      .header('cache-control', outcome.private || outcome.status !== 200 ? 'private, no-store' : 'public, max-age=60');
    if (isHtml) reply.header('content-security-policy', CSP);
    if (outcome.noindex) reply.header('x-robots-tag', 'noindex');
    let body = encoded.get(outcome);
    if (!body) encoded.set(outcome, (body = encodedOnce(outcome.body)));
    // Revalidation: the ETag names the bytes; a match answers 304 without a body.
    reply.header('etag', body.etag).header('vary', 'accept-encoding');
    if (isHtml && outcome.lastModified) reply.header('last-modified', outcome.lastModified);
    if (outcome.status === 200 && etagMatches(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
    const encoding = preferredEncoding(request.headers['accept-encoding'], body.identity.length);
    if (encoding === 'identity') return reply.send(body.identity);
    // Compressed once per content (see encodedOnce), not on every request.
    let compressed = body[encoding];
    if (!compressed) compressed = body[encoding] = encoding === 'br' ? brotliCompressSync(body.identity, BROTLI) : gzipSync(body.identity, { level: 6 });
    return reply.header('content-encoding', encoding).send(compressed);
  }

  /** The search page of the site at `mount`: `?q=` the text, `?format=json` the dropdown's results. */
  function serveSearch(request: FastifyRequest, reply: FastifyReply, mount: Mount) {
    const query = request.query as Record<string, unknown>;
    const text = typeof query.q === 'string' ? query.q.slice(0, 512) : '';
    const dropdown = query.format === 'json';
    return serve(request, reply, mount, `${SEARCH_PATH}\u0000${text}\u0000${dropdown ? 'j' : ''}`, search(text, dropdown));
  }

  // Robots of PUBLIC_URL's own host: the API is not for crawlers; sites say for themselves.
  app.get('/robots.txt', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const hostname = request.hostname.toLowerCase();
    if (hostname && hostname !== apiHostname && (await publishedRepository.siteByHostname(deps.db, hostname))) {
      return serve(request, reply, { kind: 'host', hostname }, 'robots.txt', robots);
    }
    return reply.header('content-type', TEXT).header('cache-control', 'public, max-age=3600').send('User-agent: *\nDisallow: /v1/\n');
  });

  // No schema validation on these routes: it cost more than the rest of Fastify's work on
  // a page (bench published.page); params are strings by construction, and the two
  // credential parameters are checked by credentialParam.
  const siteRoute = { config: { public: true }, schema: { hide: true } } as const;
  const bySite = (request: FastifyRequest<{ Params: SiteParams }>): Mount => ({ kind: 'path', key: request.params.site });
  for (const [file, resource] of Object.entries(SITE_FILES)) {
    app.get<{ Params: SiteParams }>(`/sites/:site/${file}`, siteRoute, (request, reply) => serve(request, reply, bySite(request), file, resource));
  }
  app.get<{ Params: SiteParams }>(`/sites/:site/${SEARCH_PATH}`, siteRoute, (request, reply) => serveSearch(request, reply, bySite(request)));
  app.get<{ Params: SiteParams }>('/sites/:site', siteRoute, (request, reply) => serve(request, reply, bySite(request), '', page('')));
  app.get<{ Params: SiteParams }>('/sites/:site/*', siteRoute, (request, reply) => {
    const path = pagePathOf(request);
    return serve(request, reply, bySite(request), path, page(path));
  });

  // Custom hostnames: the same resources at the root of any other host that is a site's.
  const byHost = (request: FastifyRequest, reply: FastifyReply, answer: (mount: Mount) => unknown) => {
    const hostname = request.hostname.toLowerCase();
    if (!hostname || hostname === apiHostname) return reply.callNotFound();
    return answer({ kind: 'host', hostname });
  };
  for (const [file, resource] of Object.entries(SITE_FILES)) {
    if (file === 'robots.txt') continue; // above: PUBLIC_URL's own robots.txt shares the path
    app.get(`/${file}`, siteRoute, (request, reply) => byHost(request, reply, (mount) => serve(request, reply, mount, file, resource)));
  }
  app.get(`/${SEARCH_PATH}`, siteRoute, (request, reply) => byHost(request, reply, (mount) => serveSearch(request, reply, mount)));
  app.get('/', siteRoute, (request, reply) => byHost(request, reply, (mount) => serve(request, reply, mount, '', page(''))));
  app.get<{ Params: HostParams }>('/*', siteRoute, (request, reply) => {
    const path = pagePathOf(request);
    return byHost(request, reply, (mount) => serve(request, reply, mount, path, page(path)));
  });
};
