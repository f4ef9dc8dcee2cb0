import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Frozen: on SQLite the full-text index is one row per page, searched within the spaces
 * named in the MATCH (docs/decisions/links-and-search.md).
 *
 * - search_pages gets `outline` (each section's id, title and text length), so the page
 *   row alone says which of its sections hold the matched words, and `revision_id`, the
 *   revision the row was written from (as search_sections has).
 * - search_pages_fts gets a third column, `space_id` (read from search_pages, its external
 *   content table): a search names its spaces inside the MATCH, and FTS5 scores only the
 *   pages of those spaces. Before, every space's matching pages were scored, then filtered.
 * - search_pages_vocab (fts5vocab, a row per indexed term) says which stems exist, so a
 *   search asks FTS5 only for those of the stems it guesses that are indexed.
 * - The section-level FTS5 table (search_fts) and its triggers go; search_sections is no
 *   longer written on SQLite (PostgreSQL still indexes sections, with their tsvector).
 * - The index is emptied: each space is indexed again by its next search (the index is
 *   built lazily, docs/decisions/links-and-search.md).
 *
 * PostgreSQL is unchanged. Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;

  await sql`drop trigger search_sections_insert`.execute(db);
  await sql`drop trigger search_sections_delete`.execute(db);
  await sql`drop trigger search_sections_update`.execute(db);
  await sql`drop table search_fts`.execute(db);
  await sql`drop trigger search_pages_insert`.execute(db);
  await sql`drop trigger search_pages_delete`.execute(db);
  await sql`drop table search_pages_fts`.execute(db);

  await sql`delete from search_index_state`.execute(db);
  await sql`delete from search_sections`.execute(db);
  await sql`delete from search_pages`.execute(db);
  await sql`alter table search_pages add column outline text not null default '[]'`.execute(db);
  await sql`alter table search_pages add column revision_id varchar(64) not null default ''`.execute(db);

  await sql`create virtual table search_pages_fts using fts5(
    page_title, body, space_id,
    content='search_pages', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`create trigger search_pages_insert after insert on search_pages begin
    insert into search_pages_fts (rowid, page_title, body, space_id) values (new.id, new.page_title, new.body, new.space_id);
  end`.execute(db);
  await sql`create trigger search_pages_delete after delete on search_pages begin
    insert into search_pages_fts (search_pages_fts, rowid, page_title, body, space_id) values ('delete', old.id, old.page_title, old.body, old.space_id);
  end`.execute(db);
  await sql`create trigger search_pages_update after update on search_pages begin
    insert into search_pages_fts (search_pages_fts, rowid, page_title, body, space_id) values ('delete', old.id, old.page_title, old.body, old.space_id);
    insert into search_pages_fts (rowid, page_title, body, space_id) values (new.id, new.page_title, new.body, new.space_id);
  end`.execute(db);
  await sql`create virtual table search_pages_vocab using fts5vocab(search_pages_fts, 'row')`.execute(db);
}
