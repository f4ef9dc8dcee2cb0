import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { Config } from './config.ts';
import type { Db, DialectName } from './db/database.ts';
import { retryingTransaction } from './db/retry.ts';
import type { Database } from './db/types.ts';
import type { FileStore } from './files/types.ts';
import type { OutboundClient } from './lib/outbound/client.ts';
import type { MarkdownReader } from './content/markdown/page-reader.ts';
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
  /** Reads page markdown off the request thread, under a budget (content/markdown/page-reader.ts). */
  markdown: MarkdownReader;
}

/** Everything a service needs for one call; services never see the HTTP request. */
export interface Context extends AppDeps {
  actor: Actor;
  requestId: string;
  log: FastifyBaseLogger;
  /**
   * Runs `fn` in one transaction (immediate on SQLite, so a read-then-write waits its turn
   * instead of failing: db/database.ts) with this context over it; committed when `fn`
   * resolves, rolled back when it throws. Transactions do not nest.
   */
  transaction<T>(fn: (tctx: TransactionContext) => Promise<T>): Promise<T>;
  /**
   * The same, tried again (5 times in all, then 409) when `fn` throws HeadMoved: the
   * compare-and-set writes of head revisions (db/retry.ts).
   */
  retryingTransaction<T>(fn: (tctx: TransactionContext) => Promise<T>): Promise<T>;
}

/** A service context whose queries all run in one open transaction. */
export interface TransactionContext extends Context {
  db: Transaction<Database>;
}

/**
 * Context's transaction methods. They read `this`, so a context copied with a spread
 * (`{ ...ctx, actor }`) opens its transaction with what the copy holds.
 */
const transactionMethods: Pick<Context, 'transaction' | 'retryingTransaction'> = {
  transaction<T>(this: Context, fn: (tctx: TransactionContext) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn({ ...this, db: trx }));
  },
  retryingTransaction<T>(this: Context, fn: (tctx: TransactionContext) => Promise<T>): Promise<T> {
    // retryingTransaction hands over what db.transaction().execute gives: a Transaction, typed as Db there.
    return retryingTransaction(this.db, (trx) => fn({ ...this, db: trx as Transaction<Database> }));
  },
};

/** A service context for an actor (the request's, a session's). */
export function serviceContext(deps: AppDeps, actor: Actor, requestId: string, log: FastifyBaseLogger): Context {
  const { db, dialect, config, clock, caches, files, outbound, markdown } = deps;
  return { db, dialect, config, clock, caches, files, outbound, markdown, actor, requestId, log, ...transactionMethods };
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
  return serviceContext(request.server.deps, request.actor, request.id, request.log);
}

/**
 * The service context of a signed-in browser: the session's user as the actor, so every
 * read goes through the same services and permission rules as the API (and answers 404
 * where the API would).
 */
export function sessionContext(deps: AppDeps, session: BrowserSession, requestId: string, log: FastifyBaseLogger): Context {
  return serviceContext(deps, sessionActor(session), requestId, log);
}
