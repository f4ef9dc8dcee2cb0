import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Frozen: the full-text index of space content (docs/decisions/links-and-search.md).
 *
 * - search_sections: one row per heading section of each page of a space's current
 *   revision (the text before the first heading is a section too), with the page title
 *   repeated on every row, and the revision the row was written from (so one can see which
 *   pages a re-index touched).
 * - SQLite: an FTS5 table over it (external content, porter stemmer), kept in step by
 *   triggers. PostgreSQL: a generated tsvector column (`english`) with a GIN index.
 * - search_index_state: which revision of each space the index reflects.
 *
 * Both cascade from spaces, so a purged space leaves nothing behind. Never import
 * application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('search_index_state')
    .addColumn('space_id', 'varchar(64)', (c) => c.primaryKey().references('spaces.id').onDelete('cascade'))
    .addColumn('revision_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create table search_sections (
      id bigserial primary key,
      space_id varchar(64) not null references spaces(id) on delete cascade,
      page_id varchar(64) not null,
      position integer not null,
      section_id text not null,
      page_title text not null,
      section_title text not null,
      body text not null,
      revision_id varchar(64) not null,
      tsv tsvector generated always as (
        setweight(to_tsvector('english'::regconfig, page_title), 'A') ||
        setweight(to_tsvector('english'::regconfig, section_title), 'B') ||
        setweight(to_tsvector('english'::regconfig, body), 'D')
      ) stored
    )`.execute(db);
    await sql`create index search_sections_tsv on search_sections using gin (tsv)`.execute(db);
    await sql`create index search_sections_page on search_sections (space_id, page_id)`.execute(db);
    return;
  }

  await sql`create table search_sections (
    id integer primary key,
    space_id varchar(64) not null references spaces(id) on delete cascade,
    page_id varchar(64) not null,
    position integer not null,
    section_id text not null,
    page_title text not null,
    section_title text not null,
    body text not null,
    revision_id varchar(64) not null
  )`.execute(db);
  await sql`create index search_sections_page on search_sections (space_id, page_id)`.execute(db);
  await sql`create virtual table search_fts using fts5(
    page_title, section_title, body,
    content='search_sections', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`create trigger search_sections_insert after insert on search_sections begin
    insert into search_fts (rowid, page_title, section_title, body) values (new.id, new.page_title, new.section_title, new.body);
  end`.execute(db);
  await sql`create trigger search_sections_delete after delete on search_sections begin
    insert into search_fts (search_fts, rowid, page_title, section_title, body) values ('delete', old.id, old.page_title, old.section_title, old.body);
  end`.execute(db);
  await sql`create trigger search_sections_update after update on search_sections begin
    insert into search_fts (search_fts, rowid, page_title, section_title, body) values ('delete', old.id, old.page_title, old.section_title, old.body);
    insert into search_fts (rowid, page_title, section_title, body) values (new.id, new.page_title, new.section_title, new.body);
  end`.execute(db);

  // One row per page as well (its title and all its text): pages are counted and ranked
  // on it, so a query matching every page of a large space scores pages, not sections.
  await sql`create table search_pages (
    id integer primary key,
    space_id varchar(64) not null references spaces(id) on delete cascade,
    page_id varchar(64) not null,
    page_title text not null,
    body text not null
  )`.execute(db);
  await sql`create unique index search_pages_page on search_pages (space_id, page_id)`.execute(db);
  await sql`create virtual table search_pages_fts using fts5(
    page_title, body,
    content='search_pages', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`create trigger search_pages_insert after insert on search_pages begin
    insert into search_pages_fts (rowid, page_title, body) values (new.id, new.page_title, new.body);
  end`.execute(db);
  await sql`create trigger search_pages_delete after delete on search_pages begin
    insert into search_pages_fts (search_pages_fts, rowid, page_title, body) values ('delete', old.id, old.page_title, old.body);
  end`.execute(db);
}
