import type { PageRequest } from '../db/keyset.ts';
import { decodePageCursor, encodePageCursor } from './page-cursor.ts';

/*
 * Offset cursors, for lists computed in memory or ranked (a search result, a link
 * report): they have no stable key to resume after, so `next.page` holds the offset.
 * Keyset lists use src/db/keyset.ts.
 */

/** The offset a `page` cursor holds (0 without one); 400 for a cursor that is not one. */
export function offsetOf(page: PageRequest): number {
  if (!page.page) return 0;
  // A safe integer: the offset reaches SQL (search), where 1e300 is not a bigint.
  return decodePageCursor(page.page, (c): c is { o: number } => Number.isSafeInteger(c.o) && c.o >= 0).o;
}

/** `next` for a list of `total` items read up to `end`, when more remain. */
export function nextPage(end: number, total: number): { next?: { page: string } } {
  return end < total ? { next: { page: encodePageCursor({ o: end }) } } : {};
}

/** One page of an in-memory list, from its offset cursor. */
export function pageOfItems<T>(items: T[], page: PageRequest): { slice: T[]; start: number; next?: { page: string } } {
  const start = offsetOf(page);
  const slice = items.slice(start, start + page.limit);
  return { slice, start, ...nextPage(start + slice.length, items.length) };
}
