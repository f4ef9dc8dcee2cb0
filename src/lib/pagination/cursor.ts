import { InvalidCursor } from '../domain-errors.ts';
import { holdsNul } from '../nul.ts';

/*
 * The one encoding of every list's `page` cursor: base64url of a small JSON object. A
 * cursor comes back from the client, so it is input like any other: what it decodes to is
 * checked for the shape its list wrote and for NUL characters (PostgreSQL text cannot hold
 * U+0000, and the request's NUL check sees only the base64 text) before any query sees it.
 */

export function encodePageCursor(cursor: object): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** The cursor `page` holds when `isShape` accepts it; otherwise InvalidCursor (a 400 naming the parameter). */
export function decodePageCursor<T>(page: string, isShape: (value: any) => value is T): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursor();
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || holdsNul(value) || !isShape(value)) {
    throw new InvalidCursor();
  }
  return value;
}
