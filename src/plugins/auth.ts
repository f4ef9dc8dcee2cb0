import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../errors.ts';
import { hashToken } from '../lib/tokens.ts';
import { TtlCache } from '../lib/ttl-cache.ts';
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

/** Reads `Authorization: Bearer <token>` into `request.actor`, or answers 401. */
export const authPlugin = fp(async (app: FastifyInstance) => {
  // Verified tokens are trusted for a few seconds: the hot path needs no query, and a token
  // revoked on any server process stops working everywhere within the TTL.
  const cache = new TtlCache<Actor>(app.deps.config.authCacheTtlMs);
  app.decorateRequest('actor', null);
  // Callback style: a cached token answers synchronously, without a promise per request.
  app.addHook('onRequest', (request, _reply, done) => {
    // Unknown routes answer 404 whoever asks; public routes need no token.
    if (!request.routeOptions.url || request.routeOptions.config.public) return done();
    const hash = requestTokenHash(request);
    if (!hash) return done(unauthorized());
    const now = Date.now();
    const cached = cache.get(hash, now);
    if (cached) {
      request.actor = cached;
      return done();
    }
    authenticateTokenHash(app.deps.db, hash).then((actor) => {
      if (!actor) return done(unauthorized('The API token is invalid or has been revoked'));
      cache.set(hash, actor, now);
      request.actor = actor;
      done();
    }, done);
  });
});
