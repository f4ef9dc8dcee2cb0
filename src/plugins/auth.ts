import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../errors.ts';
import { hashToken } from '../lib/tokens.ts';
import type { Actor } from '../context.ts';
import { authenticateTokenHash } from '../modules/users/users.service.ts';

const MAX_CACHED_TOKENS = 10_000;

/**
 * Verified tokens, trusted for a few seconds: the hot path needs no query, and a token
 * revoked on any server process stops working everywhere within the TTL.
 */
class TokenCache {
  private readonly entries = new Map<string, { actor: Actor; expiresAt: number }>();

  constructor(private readonly ttlMs: number) {}

  get(hash: string, now: number): Actor | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.actor;
  }

  set(hash: string, actor: Actor, now: number): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= MAX_CACHED_TOKENS) {
      // Map keeps insertion order: drop the oldest entry.
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(hash, { actor, expiresAt: now + this.ttlMs });
  }
}

/** Reads `Authorization: Bearer <token>` into `request.actor`, or answers 401. */
export const authPlugin = fp(async (app: FastifyInstance) => {
  const cache = new TokenCache(app.deps.config.authCacheTtlMs);
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request) => {
    // Unknown routes answer 404 whoever asks; public routes need no token.
    if (!request.routeOptions.url || request.routeOptions.config.public) return;
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw unauthorized();
    const hash = hashToken(match[1]);
    const now = Date.now();
    let actor = cache.get(hash, now);
    if (!actor) {
      actor = await authenticateTokenHash(app.deps.db, hash);
      if (!actor) throw unauthorized('The API token is invalid or has been revoked');
      cache.set(hash, actor, now);
    }
    request.actor = actor;
  });
});
