import type { SelectQueryBuilder } from 'kysely';
import { decodePageCursor } from './cursor.ts';
import { pageWith, type Page, type PageRequest } from './page.ts';

/** One column of a list's stable order; the last column must be unique (an id). */
export interface KeysetColumn {
  /** Column reference as selected, e.g. `members.joined_at`. */
  ref: string;
  /** Property of the result row holding the same value. */
  field: string;
  dir: 'asc' | 'desc';
}

/** A list's order on columns read back under their own names (`t.created_at` as `created_at`), all one way. */
export function keysetOf(dir: 'asc' | 'desc', ...refs: string[]): KeysetColumn[] {
  return refs.map((ref) => ({ ref, field: ref.slice(ref.lastIndexOf('.') + 1), dir }));
}

interface Cursor {
  /** Sort key of the item the page starts after (or ends before). */
  k: string[];
  /** Set when walking backwards from a `previous.page`. */
  b?: 1;
}

function isCursor(arity: number) {
  // Every keyset column is text (ids, ISO timestamps, titles: the schema's conventions), so
  // the key this module writes holds strings only; anything else was not written here.
  return (c: any): c is Cursor =>
    Array.isArray(c.k) && c.k.length === arity && c.k.every((v: unknown) => typeof v === 'string') && (c.b === undefined || c.b === 1);
}

/**
 * The keyset strategy, for lists read from SQL. Runs a keyset-paginated list query:
 * stable order, opaque cursors, and no item skipped or repeated while rows are added or
 * removed between pages. `query` carries the filters and selections but no order. The
 * total comes from `query` with its selections cleared, or from `countFrom` when the
 * page's joins are not needed to count (cheaper).
 */
export async function paginate<DB, TB extends keyof DB, Row extends Record<string, any>>(
  query: SelectQueryBuilder<DB, TB, Row>,
  columns: KeysetColumn[],
  request: PageRequest,
  countFrom?: SelectQueryBuilder<any, any, any>,
): Promise<Page<Row>> {
  const cursor = request.page ? decodePageCursor(request.page, isCursor(columns.length)) : undefined;
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

  const keyOf = (row: Row) => columns.map((c) => row[c.field] as string);
  const first = rows[0];
  const last = rows[rows.length - 1];
  // Forward: more after the last row if we over-read; something before if we came from a cursor.
  const moreAfter = backwards ? cursor !== undefined : hasMore;
  const moreBefore = backwards ? hasMore : cursor !== undefined;
  return pageWith(
    rows,
    Number(countRow?.count ?? 0),
    moreAfter && last ? { k: keyOf(last) } : undefined,
    moreBefore && first ? { k: keyOf(first), b: 1 } : undefined,
  );
}
