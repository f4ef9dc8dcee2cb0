import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Frozen: on PostgreSQL a row of search_sections keeps the tsvector of its own heading
 * (weight B) and text (D) only. It also held its page's title (A), which no query reads:
 * every statement filtered it out again (`ts_filter(tsv, '{b,d}')`) for each section of
 * each page shown, twice, a new vector each time: a seventh of the database's time for a
 * first page of results (docs/performance.md, "Section vectors"). The column is made
 * again from the rows' text in one rewrite of the table, so every space's index state
 * stays valid. Ranks are unchanged: ts_rank of a query of alternatives reads a word's
 * weights and the order of its positions, which dropping the title's (the first ones)
 * keeps. A process of the previous version still running filters the new vector to
 * itself. SQLite is unchanged. Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table search_sections
    drop column tsv,
    add column tsv tsvector generated always as (
      setweight(to_tsvector('english'::regconfig, section_title), 'B') ||
      setweight(to_tsvector('english'::regconfig, body), 'D')
    ) stored`.execute(db);
}
