import { badRequest } from '../errors.ts';
import type { PageRequest } from '../db/keyset.ts';

/*
 * Offset cursors, for lists computed in memory or ranked (a search result, a link
 * report): they have no stable key to resume after, so `next.page` holds the offset.
 * Keyset lists use src/db/keyset.ts.
 */

/** The offset a `page` cursor holds (0 without one); 400 for a cursor that is not one. */
export function offsetOf(page: PageRequest): number {
  if (!page.page) return 0;
  try {
    const cursor = JSON.parse(Buffer.from(page.page, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof cursor.o !== 'number' || !Number.isInteger(cursor.o) || cursor.o < 0) throw new Error('bad cursor');
    return cursor.o;
  } catch {
    throw badRequest('querystring/page is not a page identifier of this list');
  }
}

/** `next` for a list of `total` items read up to `end`, when more remain. */
export function nextPage(end: number, total: number): { next?: { page: string } } {
  return end < total ? { next: { page: Buffer.from(JSON.stringify({ o: end })).toString('base64url') } } : {};
}

/** One page of an in-memory list, from its offset cursor. */
export function pageOfItems<T>(items: T[], page: PageRequest): { slice: T[]; start: number; next?: { page: string } } {
  const start = offsetOf(page);
  const slice = items.slice(start, start + page.limit);
  return { slice, start, ...nextPage(start + slice.length, items.length) };
}
