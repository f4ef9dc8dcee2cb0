import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Frozen: on PostgreSQL a page's row in search_page_vectors (its tsvector is about 2 KB
 * for a page of 3 KB) is kept whole, uncompressed, in the table itself: rows over 2 KB were
 * compressed and their vector moved out to the TOAST table, from which ranking and
 * counting read each one back chunk by chunk. The best 10 of 200 pages of 3 KB ranked in
 * 0.67 ms that way, 0.15 ms with the rows whole (docs/performance.md, "Search on pages of
 * 3 KB"). `toast_tuple_target` is raised to its maximum, a page's worth: a row larger
 * than that is still compressed and moved out. (Storage `main` for the vector alone moves
 * the title's vector out instead.) The rows already written are written again with the
 * same vector (`|| ''` makes a new value, stored the new way); the index state of every
 * space stays valid. SQLite is unchanged. Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table search_page_vectors set (toast_tuple_target = 8160)`.execute(db);
  await sql`update search_page_vectors set tsv = tsv || ''::tsvector`.execute(db);
  await sql`analyze search_page_vectors`.execute(db);
}
