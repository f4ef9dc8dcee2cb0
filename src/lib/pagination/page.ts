import { encodePageCursor } from './cursor.ts';

/** What a list call asks for: the opaque `page` cursor of an earlier page, and how many items. */
export interface PageRequest {
  page?: string;
  limit: number;
}

/** One page of any list, keyset or offset: GitBook's list body. */
export interface Page<T> {
  items: T[];
  count: number;
  next?: { page: string };
  previous?: { page: string };
}

/**
 * The one rule of `next` and `previous`: each is present exactly when items remain on that
 * side of this page, and holds the cursor (encoded here) that resumes from its edge. A
 * strategy says only whether items remain and what its cursor is.
 */
export function pageWith<T>(items: T[], count: number, after: object | undefined, before?: object): Page<T> {
  const page: Page<T> = { items, count };
  if (after) page.next = { page: encodePageCursor(after) };
  if (before) page.previous = { page: encodePageCursor(before) };
  return page;
}
