import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, preParsingHookHandler } from 'fastify';
import { unauthorized } from '../errors.ts';
import { hashToken } from '../lib/tokens.ts';
import { TtlCache } from '../lib/ttl-cache.ts';
import { peekUnlessChanged, readAndKeep } from '../db/read-cache.ts';
import { tokenScope } from '../db/change-scopes.ts';
import type { Actor, AppDeps } from '../context.ts';
import type { Db } from '../db/database.ts';
import { hooksOf } from './route-hooks.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The bearer token's hash once read (requestTokenHash), null for none. */
    tokenHash: string | null | undefined;
  }
}

/**
 * SHA-256 of the request's bearer token, or null when it sends none: one parse and one
 * hash per request, shared by the rate limiter (which runs first) and auth.
 */
export function requestTokenHash(request: FastifyRequest): string | null {
  let hash = request.tokenHash;
  if (hash === undefined) {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    hash = match ? hashToken(match[1]) : null;
    request.tokenHash = hash;
  }
  return hash;
}

/**
 * Who a credential belongs to. The modules that own tokens (users) and browser sessions (the
 * app area) answer it; app.ts hands them to the plugin, so plugins import no module.
 */
export interface AuthOptions {
  /** A token hash's owner, or undefined when unknown or revoked. */
  tokenActor: (db: Db, hash: string) => Promise<Actor | undefined>;
  /** The actor of a request without a token (the app's scripts with the session cookie), or null. */
  cookieActor: (deps: AppDeps, request: FastifyRequest) => Promise<Actor | null>;
}

/**
 * Reads `Authorization: Bearer <token>` into `request.actor` (or, without one, the app's
 * session cookie with its CSRF header: `cookieActor`), or answers 401. In two steps,
 * so the rate limiter runs between them (docs/operations.md):
 * 1. onRequest (before the limiter): a token verified in the last few seconds is known
 *    from memory, so the limiter can count the request against the token;
 * 2. preParsing (after the limiter, before the body is read): anything else is looked up
 *    (once: a token found invalid is remembered for a minute, so a flood of one bad token
 *    costs no query each) or refused. Callers without a known-valid token are counted by
 *    address, so even a flood of distinct made-up tokens is bounded by the limiter.
 */
export const authPlugin = fp(async (app: FastifyInstance, { tokenActor, cookieActor }: AuthOptions) => {
  // Verified tokens are reused while their row is unchanged (the change feed: a revocation on
  // any server process is seen by the next request everywhere), for AUTH_CACHE_TTL_MS at most.
  const { db } = app.deps;
  const cache = new TtlCache<Actor>(app.deps.config.authCacheTtlMs);
  app.metrics?.registerCache('tokens', cache as TtlCache<unknown>);
  const invalid = new TtlCache<true>(60_000, 10_000);
  app.decorateRequest('actor', null);
  app.decorateRequest('tokenHash', undefined);
  const recognize: onRequestHookHandler = (request, _reply, done) => {
    const hash = requestTokenHash(request);
    if (!hash) return done();
    const cached = peekUnlessChanged<Actor>(db, cache as TtlCache<unknown>, hash);
    if (cached) request.actor = cached;
    done();
  };
  // Callback style: a cached token answers synchronously, without a promise per request.
  const verify: preParsingHookHandler = (request, _reply, payload, done) => {
    if (request.actor) return done(null, payload);
    const hash = requestTokenHash(request);
    if (!hash) {
      // The app's own scripts: the session cookie with its CSRF header, same origin only.
      cookieActor(app.deps, request).then((actor) => {
        if (!actor) return done(unauthorized());
        request.actor = actor;
        done(null, payload);
      }, (error: Error) => done(error));
      return;
    }
    const now = Date.now();
    if (invalid.get(hash, now)) return done(unauthorized('The API token is invalid or has been revoked'));
    // onRequest has just looked in the cache: read, and keep a valid token for reuse.
    readAndKeep(db, cache as TtlCache<unknown>, hash, (depend) => {
      depend(tokenScope(hash));
      return tokenActor(db, hash);
    }).then((actor) => {
      if (!actor) {
        invalid.set(hash, true, now);
        return done(unauthorized('The API token is invalid or has been revoked'));
      }
      request.actor = actor;
      done(null, payload);
    }, (error: Error) => done(error));
  };
  // The two steps go on each route that wants a token, when the route is added: public
  // routes and unknown URLs (404 whoever asks) run neither, and no request looks its route
  // up. Put first among the route's own hooks, so the limiter's (rate-limit.ts) run after.
  app.addHook('onRoute', (route) => {
    if ((route.config as { public?: boolean } | undefined)?.public) return;
    route.onRequest = [recognize, ...hooksOf(route.onRequest)];
    route.preParsing = [verify, ...hooksOf(route.preParsing)];
  });
});

/** True when the request carries a token already verified (the rate limiter's key). */
export function hasVerifiedToken(request: FastifyRequest): boolean {
  return request.actor !== null;
}
