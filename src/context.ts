import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Config } from './config.ts';
import type { Db, DialectName } from './db/database.ts';
import type { FileStore } from './files/types.ts';
import type { OutboundClient } from './lib/outbound/client.ts';
import type { Clock } from './lib/clock.ts';
import type { TtlCache } from './lib/ttl-cache.ts';
import { unauthorized } from './errors.ts';
import type { Actor } from './access/actor.ts';
import { sessionActor, type BrowserSession } from './access/session.ts';

// The caller and the one rule on which organizations it reaches live with the access layer.
export { actorReaches, type Actor } from './access/actor.ts';

/**
 * In-process caches shared by the requests of one app. What they hold is reused while the
 * change feed says nothing it depends on changed (db/read-cache.ts); their TTLs bound memory.
 */
export interface AppCaches {
  /** Key `organizationId NUL userId`: the role of an active member, or null. */
  memberships: TtlCache<unknown>;
  /** Cached reads (read-cache.ts): hot single reads and listings. */
  listings: TtlCache<unknown>;
  /**
   * Ranked search results keyed by the revision of every space searched and the query:
   * the index of a revision never changes, so an entry is never stale (search.service.ts).
   */
  searchResults: TtlCache<unknown>;
}

/** What the app is built from; shared by every request. */
export interface AppDeps {
  db: Db;
  dialect: DialectName;
  config: Config;
  clock: Clock;
  caches: AppCaches;
  /** Where file bytes live (src/files): blobs, exports. Never part of a database transaction. */
  files: FileStore;
  /** The only way to fetch a URL a user gave (src/lib/outbound). */
  outbound: OutboundClient;
}

/** Everything a service needs for one call; services never see the HTTP request. */
export interface Context extends AppDeps {
  actor: Actor;
  requestId: string;
  log: FastifyBaseLogger;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    actor: Actor | null;
  }
  interface FastifyContextConfig {
    /** Route answers without a token (API information, OpenAPI document). */
    public?: boolean;
    /** App page shown without a browser session (sign-in, login link); src/modules/app-area. */
    signedOut?: boolean;
  }
}

/** The service context of an authenticated request. */
export function contextOf(request: FastifyRequest): Context {
  if (!request.actor) throw unauthorized();
  const { db, dialect, config, clock, caches, files, outbound } = request.server.deps;
  return { db, dialect, config, clock, caches, files, outbound, actor: request.actor, requestId: request.id, log: request.log };
}

/**
 * The service context of a signed-in browser: the session's user as the actor, so every
 * read goes through the same services and permission rules as the API (and answers 404
 * where the API would).
 */
export function sessionContext(deps: AppDeps, session: BrowserSession, requestId: string, log: FastifyBaseLogger): Context {
  return { ...deps, actor: sessionActor(session), requestId, log };
}
