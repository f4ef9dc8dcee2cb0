/*
 * The one entry point for lists: every list returns a Page (page.ts) whose `next` and
 * `previous` follow one rule (pageWith), from one of two strategies:
 * - keyset (keyset.ts, `paginate`): lists read from SQL over a stable order; cursors hold
 *   the boundary row's sort key, so rows added or removed between pages never make a page
 *   skip or repeat an item;
 * - offset (offset.ts, `pageOfItems`, `offsetOf` + `offsetPage`): lists computed in memory
 *   or ranked, which have no key to resume after.
 * Cursors are encoded and checked in one place (cursor.ts); a bad one is InvalidCursor.
 * The HTTP side (the page request from a route's query) is plugins/pagination.ts.
 */
export { decodePageCursor, encodePageCursor } from './cursor.ts';
export { keysetOf, paginate, type KeysetColumn } from './keyset.ts';
export { offsetOf, offsetPage, pageOfItems } from './offset.ts';
export { pageWith, type Page, type PageRequest } from './page.ts';
