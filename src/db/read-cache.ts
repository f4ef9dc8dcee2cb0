import type { TtlCache } from '../lib/ttl-cache.ts';
import { contentStamp, type Db } from './database.ts';

/**
 * Reuses the result of a read while the database has not changed since it was made
 * (contentStamp: every write of this process, every commit of another). Where no stamp
 * exists (PostgreSQL, transactions) it simply reads. The stamp is taken before reading, so
 * a cached result is never older than its key. Results must not be mutated by callers.
 */
export async function readUnlessChanged<T>(db: Db, cache: TtlCache<unknown>, key: string, read: () => Promise<T>): Promise<T> {
  const stamp = contentStamp(db);
  if (stamp === undefined) return read();
  const stampedKey = `${key}@${stamp}`;
  const cached = cache.get(stampedKey) as T | undefined;
  if (cached !== undefined) return cached;
  const value = await read();
  if (value !== undefined) cache.set(stampedKey, value);
  return value;
}

/**
 * readUnlessChanged that answers a hit synchronously (no promise, no microtask): for the
 * hottest reads, whose handlers may return a plain value. A miss returns the read's
 * promise and caches its result under the stamp taken before reading.
 */
export function reuseUnlessChanged<T>(db: Db, cache: TtlCache<unknown>, key: string, read: () => Promise<T>): T | Promise<T> {
  const stamp = contentStamp(db);
  if (stamp === undefined) return read();
  const stampedKey = `${key}@${stamp}`;
  const cached = cache.get(stampedKey) as T | undefined;
  if (cached !== undefined) return cached;
  return read().then((value) => {
    if (value !== undefined) cache.set(stampedKey, value);
    return value;
  });
}
