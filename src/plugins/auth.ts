import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../errors.ts';
import { hashToken } from '../lib/tokens.ts';
import { TtlCache } from '../lib/ttl-cache.ts';
import { peekUnlessChanged, readAndKeep } from '../db/read-cache.ts';
import { tokenScope } from '../db/change-scopes.ts';
import type { Actor } from '../context.ts';
import { authenticateTokenHash } from '../modules/users/users.service.ts';

// One parse and one hash per request, shared by the rate limiter (which runs first) and auth.
const tokenHashes = new WeakMap<FastifyRequest, string | null>();

/** SHA-256 of the request's bearer token, or null when it sends none. */
export function requestTokenHash(request: FastifyRequest): string | null {
  let hash = tokenHashes.get(request);
  if (hash === undefined) {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    hash = match ? hashToken(match[1]) : null;
    tokenHashes.set(request, hash);
  }
  return hash;
}

/**
 * Reads `Authorization: Bearer <token>` into `request.actor`, or answers 401. In two steps,
 * so the rate limiter runs between them (docs/operations.md):
 * 1. onRequest (before the limiter): a token verified in the last few seconds is known
 *    from memory, so the limiter can count the request against the token;
 * 2. preParsing (after the limiter, before the body is read): anything else is looked up
 *    (once: a token found invalid is remembered for a minute, so a flood of one bad token
 *    costs no query each) or refused. Callers without a known-valid token are counted by
 *    address, so even a flood of distinct made-up tokens is bounded by the limiter.
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  // Verified tokens are reused while their row is unchanged (the change feed: a revocation on
  // any server process is seen by the next request everywhere), for AUTH_CACHE_TTL_MS at most.
  const { db } = app.deps;
  const cache = new TtlCache<Actor>(app.deps.config.authCacheTtlMs);
  app.metrics?.registerCache('tokens', cache as TtlCache<unknown>);
  const invalid = new TtlCache<true>(60_000, 10_000);
  const needsToken = (request: FastifyRequest) => Boolean(request.routeOptions.url) && !request.routeOptions.config.public;
  app.decorateRequest('actor', null);
  app.addHook('onRequest', (request, _reply, done) => {
    // Unknown routes answer 404 whoever asks; public routes need no token.
    if (!needsToken(request)) return done();
    const hash = requestTokenHash(request);
    if (!hash) return done();
    const cached = peekUnlessChanged<Actor>(db, cache as TtlCache<unknown>, hash);
    if (cached) request.actor = cached;
    done();
  });
  // Callback style: a cached token answers synchronously, without a promise per request.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.actor || !needsToken(request)) return done(null, payload);
    const hash = requestTokenHash(request);
    if (!hash) return done(unauthorized());
    const now = Date.now();
    if (invalid.get(hash, now)) return done(unauthorized('The API token is invalid or has been revoked'));
    // onRequest has just looked in the cache: read, and keep a valid token for reuse.
    readAndKeep(db, cache as TtlCache<unknown>, hash, (depend) => {
      depend(tokenScope(hash));
      return authenticateTokenHash(db, hash);
    }).then((actor) => {
      if (!actor) {
        invalid.set(hash, true, now);
        return done(unauthorized('The API token is invalid or has been revoked'));
      }
      request.actor = actor;
      done(null, payload);
    }, (error: Error) => done(error));
  });
});

/** True when the request carries a token already verified (the rate limiter's key). */
export function hasVerifiedToken(request: FastifyRequest): boolean {
  return request.actor !== null;
}
