import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Frozen: on PostgreSQL the full-text index gets one row per page as well
 * (docs/decisions/links-and-search.md; issue 21).
 *
 * - search_page_vectors: a page's stored tsvector, `english`, its title weighted A, its
 *   section headings B and its text D (each the union of what its rows in search_sections
 *   hold), with a GIN index. A page matches when every searched word is in it, which this
 *   index answers; before, every section holding any searched word was read and grouped.
 *   `title_tsv` is the title's alone, with a GIN index of its own: the pages whose title
 *   matches (ranked first) are found from it, not by testing every matching page's title.
 *   `revision_id` is the revision the row was written from (as search_sections has).
 *   Both indexes are built without a pending list (`fastupdate = off`): see below.
 * - Backfilled, not emptied: each indexed page's row is computed here from its sections in
 *   search_sections (the same expression the application writes it with), so the index
 *   state of every space stays valid and nothing is indexed again.
 * - search_sections keeps its rows (the sections and excerpts of the pages shown are read
 *   from them, by page) but loses its GIN index, which no query uses any more.
 *
 * SQLite is unchanged (its index is one FTS5 row per page since 0010). Never import
 * application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;

  await sql`create table search_page_vectors (
    space_id varchar(64) not null references spaces(id) on delete cascade,
    page_id varchar(64) not null,
    revision_id varchar(64) not null,
    tsv tsvector not null,
    title_tsv tsvector not null,
    primary key (space_id, page_id)
  )`.execute(db);
  await sql`insert into search_page_vectors (space_id, page_id, revision_id, tsv, title_tsv)
    select space_id, page_id, max(revision_id),
      setweight(to_tsvector('english'::regconfig, max(page_title)), 'A') ||
      setweight(to_tsvector('english'::regconfig, string_agg(section_title, E'\n' order by position)), 'B') ||
      setweight(to_tsvector('english'::regconfig, string_agg(body, E'\n' order by position)), 'D'),
      to_tsvector('english'::regconfig, max(page_title))
    from search_sections
    group by space_id, page_id`.execute(db);
  // No pending list (fastupdate): rows written go into the index at once. A pending list
  // is scanned whole by every search until a vacuum merges it (never, where autovacuum is
  // off), and the planner, costing it, turns to reading every row.
  await sql`create index search_page_vectors_tsv on search_page_vectors using gin (tsv) with (fastupdate = off)`.execute(db);
  await sql`create index search_page_vectors_title on search_page_vectors using gin (title_tsv) with (fastupdate = off)`.execute(db);
  await sql`drop index search_sections_tsv`.execute(db);
  await sql`analyze search_page_vectors`.execute(db);
}
