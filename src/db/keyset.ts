import type { SelectQueryBuilder } from 'kysely';
import { badRequest } from '../errors.ts';

/** One column of a list's stable order; the last column must be unique (an id). */
export interface KeysetColumn {
  /** Column reference as selected, e.g. `members.joined_at`. */
  ref: string;
  /** Property of the result row holding the same value. */
  field: string;
  dir: 'asc' | 'desc';
}

export interface PageRequest {
  page?: string;
  limit: number;
}

export interface Page<Row> {
  items: Row[];
  count: number;
  next?: { page: string };
  previous?: { page: string };
}

interface Cursor {
  /** Sort key of the item the page starts after (or ends before). */
  k: (string | number)[];
  /** Set when walking backwards from a `previous.page`. */
  b?: 1;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(page: string, arity: number): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(page, 'base64url').toString('utf8')) as Cursor;
    if (
      Array.isArray(cursor.k) &&
      cursor.k.length === arity &&
      cursor.k.every((v) => typeof v === 'string' || typeof v === 'number')
    ) {
      return cursor;
    }
  } catch {
    // fall through to the 400 below
  }
  throw badRequest('querystring/page is not a page identifier of this list');
}

/**
 * Runs a keyset-paginated list query: stable order, opaque cursors, and no item skipped
 * or repeated while rows are added or removed between pages. `query` carries the filters
 * and selections but no order. The total comes from `query` with its selections cleared,
 * or from `countFrom` when the page's joins are not needed to count (cheaper).
 */
export async function paginate<DB, TB extends keyof DB, Row extends Record<string, any>>(
  query: SelectQueryBuilder<DB, TB, Row>,
  columns: KeysetColumn[],
  request: PageRequest,
  countFrom?: SelectQueryBuilder<any, any, any>,
): Promise<Page<Row>> {
  const cursor = request.page ? decodeCursor(request.page, columns.length) : undefined;
  const backwards = cursor?.b === 1;
  // Walking backwards reads the list in reverse order, then flips the page back.
  const effective = columns.map((c) => ({
    ...c,
    dir: backwards ? (c.dir === 'asc' ? 'desc' : 'asc') : c.dir,
  }));

  let pageQuery: SelectQueryBuilder<any, any, any> = query;
  if (cursor) {
    pageQuery = pageQuery.where((eb: any) =>
      eb.or(
        effective.map((col, i) =>
          eb.and([
            ...effective.slice(0, i).map((prev, j) => eb(eb.ref(prev.ref), '=', cursor.k[j])),
            eb(eb.ref(col.ref), col.dir === 'asc' ? '>' : '<', cursor.k[i]),
          ]),
        ),
      ),
    );
  }
  for (const col of effective) pageQuery = pageQuery.orderBy(col.ref as any, col.dir);

  const countQuery = (countFrom ?? (query as SelectQueryBuilder<any, any, any>))
    .clearSelect()
    .select((eb: any) => eb.fn.countAll().as('count'));

  const [rows, countRow] = await Promise.all([
    pageQuery.limit(request.limit + 1).execute() as Promise<Row[]>,
    countQuery.executeTakeFirst() as Promise<{ count: number | string } | undefined>,
  ]);

  const hasMore = rows.length > request.limit;
  if (hasMore) rows.length = request.limit;
  if (backwards) rows.reverse();

  const keyOf = (row: Row) => columns.map((c) => row[c.field] as string | number);
  const page: Page<Row> = { items: rows, count: Number(countRow?.count ?? 0) };
  const first = rows[0];
  const last = rows[rows.length - 1];
  // Forward: more after the last row if we over-read; something before if we came from a cursor.
  const moreAfter = backwards ? cursor !== undefined : hasMore;
  const moreBefore = backwards ? hasMore : cursor !== undefined;
  if (moreAfter && last) page.next = { page: encodeCursor({ k: keyOf(last) }) };
  if (moreBefore && first) page.previous = { page: encodeCursor({ k: keyOf(first), b: 1 }) };
  return page;
}
