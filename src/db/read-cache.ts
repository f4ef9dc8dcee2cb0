import { AsyncLocalStorage } from 'node:async_hooks';
import type { TtlCache } from '../lib/ttl-cache.ts';
import type { ChangeFeed } from './change-feed.ts';
import { changeFeedOf, type Db } from './database.ts';

/** A cached read: its value, the feed's epoch and the version of each scope it depends on. */
interface Entry {
  value: unknown;
  epoch: number;
  depends: [scope: string, version: number][];
}

interface Reading {
  feed: ChangeFeed;
  depends: Map<string, number>;
}

const reading = new AsyncLocalStorage<Reading>();

/**
 * Declares that the read in progress depends on these scopes (change-scopes.ts). Call it
 * BEFORE reading what the scope covers: the version is taken now, so a change committed
 * during the read moves the version past the one recorded and the result is not reused.
 * Outside a cached read it does nothing.
 */
export function dependOn(...scopes: string[]): void {
  const current = reading.getStore();
  if (!current) return;
  for (const scope of scopes) if (!current.depends.has(scope)) current.depends.set(scope, current.feed.version(scope));
}

function inherit(outer: Reading | undefined, depends: Iterable<[string, number]>): void {
  if (!outer) return;
  for (const [scope, version] of depends) if (!outer.depends.has(scope)) outer.depends.set(scope, version);
}

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
 * Reuses the result of a read while nothing it declared (`dependOn`) has changed since it
 * was made, answering a hit synchronously (no promise, no microtask) for the hottest reads.
 * Nothing is cached for a transaction's handle, while the feed cannot be trusted
 * (ChangeFeed.epoch), or when the read declared nothing. A cached read inside another passes
 * its scopes on. Results must not be mutated by callers.
 */
export function reuseUnlessChanged<T>(db: Db, cache: TtlCache<unknown>, key: string, read: () => Promise<T>): T | Promise<T> {
  const feed = changeFeedOf(db);
  const epoch = feed?.epoch();
  if (feed === undefined || epoch === undefined) return read();
  const entry = validEntry(cache, key, feed, epoch);
  if (entry) {
    inherit(reading.getStore(), entry.depends);
    return entry.value as T;
  }
  return keep(feed, epoch, cache, key, read);
}

function keep<T>(feed: ChangeFeed, epoch: number, cache: TtlCache<unknown>, key: string, read: () => Promise<T>): Promise<T> {
  const outer = reading.getStore();
  const current: Reading = { feed, depends: new Map() };
  return reading.run(current, read).then((value) => {
    inherit(outer, current.depends);
    if (value !== undefined && current.depends.size > 0 && feed.epoch() === epoch) {
      cache.set(key, { value, epoch, depends: [...current.depends] } satisfies Entry);
    }
    return value;
  });
}

/**
 * The miss half of reuseUnlessChanged, for a caller that has just looked (peekUnlessChanged):
 * reads, and keeps the result for reuse as reuseUnlessChanged would.
 */
export function readAndKeep<T>(db: Db, cache: TtlCache<unknown>, key: string, read: () => Promise<T>): Promise<T> {
  const feed = changeFeedOf(db);
  const epoch = feed?.epoch();
  if (feed === undefined || epoch === undefined) return read();
  return keep(feed, epoch, cache, key, read);
}

/** reuseUnlessChanged for callers that always await. */
export async function readUnlessChanged<T>(db: Db, cache: TtlCache<unknown>, key: string, read: () => Promise<T>): Promise<T> {
  return reuseUnlessChanged(db, cache, key, read);
}
