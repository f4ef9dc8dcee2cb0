import type { TtlCache } from '../lib/ttl-cache.ts';
import type { ChangeFeed } from './change-feed.ts';
import { changeFeedOf, type Db } from './database.ts';

/** A cached read: its value, the feed's epoch and the version of each scope it depends on. */
interface Entry {
  value: unknown;
  epoch: number;
  depends: [scope: string, version: number][];
}

/**
 * Declares that the read in progress depends on these scopes (change-scopes.ts). Call it
 * BEFORE reading what the scope covers: the version is taken then, so a change committed
 * during the read moves the version past the one recorded and the result is not reused.
 * Passed to each cached reader, and on to what it calls (an argument, not an
 * AsyncLocalStorage: on Node 20 one slows every promise of the process).
 */
export type Depend = (...scopes: string[]) => void;

/** The Depend of a read that is not cached: declarations change nothing. */
export const uncached: Depend = () => {};

function validEntry(cache: TtlCache<unknown>, key: string, feed: ChangeFeed, epoch: number): Entry | undefined {
  return cache.getIf(key, (e) => {
    const kept = e as Entry;
    return kept.epoch === epoch && kept.depends.every(([scope, version]) => feed.version(scope) === version);
  }) as Entry | undefined;
}

/** The cached result of a read, if one is still valid; never reads. */
export function peekUnlessChanged<T>(db: Db, cache: TtlCache<unknown>, key: string): T | undefined {
  const feed = changeFeedOf(db);
  const epoch = feed?.epoch();
  if (feed === undefined || epoch === undefined) return undefined;
  return validEntry(cache, key, feed, epoch)?.value as T | undefined;
}

/**
 * Reuses the result of a read while nothing it declared (its `depend` argument) has changed
 * since it was made, answering a hit synchronously (no promise, no microtask) for the
 * hottest reads. Nothing is cached for a transaction's handle, while the feed cannot be
 * trusted (ChangeFeed.epoch), or when the read declared nothing. Results must not be
 * mutated by callers.
 */
export function reuseUnlessChanged<T>(db: Db, cache: TtlCache<unknown>, key: string, read: (depend: Depend) => Promise<T>): T | Promise<T> {
  const hit = peekUnlessChanged<T>(db, cache, key);
  return hit !== undefined ? hit : readAndKeep(db, cache, key, read);
}

/** reuseUnlessChanged for callers that always await. */
export async function readUnlessChanged<T>(db: Db, cache: TtlCache<unknown>, key: string, read: (depend: Depend) => Promise<T>): Promise<T> {
  return reuseUnlessChanged(db, cache, key, read);
}

/**
 * The miss half of reuseUnlessChanged, for a caller that has just looked (peekUnlessChanged):
 * reads, and keeps the result for reuse as reuseUnlessChanged would.
 */
export function readAndKeep<T>(db: Db, cache: TtlCache<unknown>, key: string, read: (depend: Depend) => Promise<T>): Promise<T> {
  const feed = changeFeedOf(db);
  const epoch = feed?.epoch();
  if (feed === undefined || epoch === undefined) return read(uncached);
  const depends = new Map<string, number>();
  const depend: Depend = (...scopes) => {
    for (const scope of scopes) if (!depends.has(scope)) depends.set(scope, feed.version(scope));
  };
  return read(depend).then((value) => {
    if (value !== undefined && depends.size > 0 && feed.epoch() === epoch) cache.set(key, { value, epoch, depends: [...depends] } satisfies Entry);
    return value;
  });
}
