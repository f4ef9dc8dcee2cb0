import { decodePageCursor } from './cursor.ts';
import { pageWith, type Page, type PageRequest } from './page.ts';

/*
 * The offset strategy, for lists computed in memory or ranked (a search result, a link
 * report): they have no stable key to resume after, so `next.page` holds the offset.
 */

/** The offset a `page` cursor holds (0 without one); InvalidCursor for a cursor that is not one. */
export function offsetOf(page: PageRequest): number {
  if (!page.page) return 0;
  // A safe integer: the offset reaches SQL (search), where 1e300 is not a bigint.
  return decodePageCursor(page.page, (c): c is { o: number } => Number.isSafeInteger(c.o) && c.o >= 0).o;
}

/** The page of `items` shown from offset `start` of a list of `count`: `next` when more remain. */
export function offsetPage<T>(items: T[], count: number, start: number): Page<T> {
  const end = start + items.length;
  return pageWith(items, count, end < count ? { o: end } : undefined);
}

/** One page of an in-memory list, from its offset cursor. */
export function pageOfItems<T>(items: T[], page: PageRequest): Page<T> {
  const start = offsetOf(page);
  return offsetPage(items.slice(start, start + page.limit), items.length, start);
}
