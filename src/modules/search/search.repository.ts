import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { SearchSectionsTable } from '../../db/types.ts';
import { fts5Expression, tsqueryExpression, type SearchQuery } from '../../content/search/query.ts';

export type SectionRow = Omit<SearchSectionsTable, 'id'>;

/** A matching section: its row and its relevance (higher is better). */
export interface SectionHit {
  id: number;
  space_id: string;
  page_id: string;
  section_id: string;
  position: number;
  rank: number;
}

/** A page with matching sections: its best section's relevance, and whether its title matches. */
export interface RankedPage {
  space_id: string;
  page_id: string;
  relevance: number;
  title_match: boolean;
}

/** The best pages of a search, their matching sections, and how many pages match in all. */
export interface RankedResult {
  pages: RankedPage[];
  sections: SectionHit[];
  total: number;
}

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The only queries of the full-text index. Both dialects sit behind the same functions:
 * SQLite FTS5 (porter tokenizer, bm25 with the title weighted 10, headings 4, text 1) and
 * PostgreSQL (tsvector `english`, GIN index, ts_rank with weights A title, B heading, D text).
 */
export const searchRepository = {
  /** The revision each space's index reflects. */
  async states(db: Db, spaceIds: string[]): Promise<Map<string, string>> {
    if (spaceIds.length === 0) return new Map();
    const rows = await db.selectFrom('search_index_state').select(['space_id', 'revision_id']).where('space_id', 'in', spaceIds).execute();
    return new Map(rows.map((r) => [r.space_id, r.revision_id]));
  },

  /** Live spaces among these ids, with their title and current revision. */
  async liveSpaces(db: Db, spaceIds: string[]): Promise<{ id: string; title: string; revision_id: string | null }[]> {
    if (spaceIds.length === 0) return [];
    const rows: { id: string; title: string; revision_id: string | null }[] = [];
    for (let i = 0; i < spaceIds.length; i += 500) {
      rows.push(
        ...(await db
          .selectFrom('spaces')
          .select(['id', 'title', 'revision_id'])
          .where('id', 'in', spaceIds.slice(i, i + 500))
          .where('deleted_at', 'is', null)
          .execute()),
      );
    }
    return rows;
  },

  /**
   * Moves a space's index from one revision to another, compare-and-set: false when
   * another process moved it first (it then did the same work).
   */
  async claim(db: Db, spaceId: string, from: string | null, to: string, at: string): Promise<boolean> {
    if (from === null) {
      const result = await db
        .insertInto('search_index_state')
        .values({ space_id: spaceId, revision_id: to, updated_at: at })
        .onConflict((oc) => oc.column('space_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    }
    const result = await db
      .updateTable('search_index_state')
      .set({ revision_id: to, updated_at: at })
      .where('space_id', '=', spaceId)
      .where('revision_id', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async deleteSpace(db: Db, spaceId: string): Promise<void> {
    await db.deleteFrom('search_sections').where('space_id', '=', spaceId).execute();
    if (!isPostgres(db)) await db.deleteFrom('search_pages').where('space_id', '=', spaceId).execute();
  },

  async deletePages(db: Db, spaceId: string, pageIds: string[]): Promise<void> {
    for (let i = 0; i < pageIds.length; i += 500) {
      await db.deleteFrom('search_sections').where('space_id', '=', spaceId).where('page_id', 'in', pageIds.slice(i, i + 500)).execute();
      if (!isPostgres(db)) await db.deleteFrom('search_pages').where('space_id', '=', spaceId).where('page_id', 'in', pageIds.slice(i, i + 500)).execute();
    }
  },

  async insertSections(db: Db, rows: SectionRow[]): Promise<void> {
    // Chunks keep each statement under both dialects' parameter limits.
    for (let i = 0; i < rows.length; i += 500) await db.insertInto('search_sections').values(rows.slice(i, i + 500)).execute();
    if (isPostgres(db)) return;
    // SQLite also keeps one row per page (title and all its text) to rank pages on.
    const pages = new Map<string, { space_id: string; page_id: string; page_title: string; body: string }>();
    for (const row of rows) {
      const key = `${row.space_id}/${row.page_id}`;
      const page = pages.get(key) ?? { space_id: row.space_id, page_id: row.page_id, page_title: row.page_title, body: '' };
      page.body += `${row.section_title}\n${row.body}\n`;
      pages.set(key, page);
    }
    const values = [...pages.values()];
    for (let i = 0; i < values.length; i += 200) await db.insertInto('search_pages').values(values.slice(i, i + 200)).execute();
  },

  /** The text of these sections (the ones shown), by row id. */
  async sectionTexts(db: Db, ids: number[]): Promise<Map<number, { section_title: string; body: string }>> {
    const found = new Map<number, { section_title: string; body: string }>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await db.selectFrom('search_sections').select(['id', 'section_title', 'body']).where('id', 'in', ids.slice(i, i + 500)).execute();
      for (const row of rows) found.set(Number(row.id), { section_title: row.section_title, body: row.body });
    }
    return found;
  },

  /**
   * The pages matching the query, best first (pages whose title matches, then by their
   * best section's relevance): the first `wanted` of them, with their matching sections
   * among the best, and how many pages match in all. On SQLite only the best sections
   * are scored and sorted (FTS5's `order by rank limit`), so a query matching every page
   * of a large space costs what is shown, not what matches.
   */
  async rankPages(db: Db, spaceIds: string[], query: SearchQuery, wanted: number): Promise<RankedResult> {
    if (spaceIds.length === 0 || query.length === 0) return { pages: [], sections: [], total: 0 };
    const spaces = sql.join(spaceIds);
    if (isPostgres(db)) {
      const { rows } = await sql<RankedPage>`
        select s.space_id, s.page_id, max(ts_rank(s.tsv, q.q)) as relevance,
          bool_or(to_tsvector('english'::regconfig, s.page_title) @@ q.q) as title_match
        from search_sections s, to_tsquery('english'::regconfig, ${tsqueryExpression(query)}) as q(q)
        where s.space_id in (${spaces}) and s.tsv @@ q.q
        group by s.space_id, s.page_id
        order by title_match desc, relevance desc, s.page_id`.execute(db);
      const pages = rows.slice(0, wanted).map((r) => ({ ...r, relevance: Number(r.relevance), title_match: Boolean(r.title_match) }));
      const sections = await this.sectionsOf(db, pages, query);
      return { pages, sections, total: rows.length };
    }
    const expression = fts5Expression(query);
    const titles = `page_title : (${expression})`;
    const [{ rows: counted }, { rows: titled }] = await Promise.all([
      sql<{ n: number }>`select count(*) as n from search_pages_fts join search_pages p on p.id = search_pages_fts.rowid where search_pages_fts match ${expression} and p.space_id in (${spaces})`.execute(db),
      sql<{ space_id: string; page_id: string }>`select p.space_id, p.page_id from search_pages_fts join search_pages p on p.id = search_pages_fts.rowid where search_pages_fts match ${titles} and p.space_id in (${spaces})`.execute(db),
    ]);
    const total = Number(counted[0]?.n ?? 0);
    const titleMatches = new Set(titled.map((r) => `${r.space_id}/${r.page_id}`));
    // The best pages by FTS5's bm25 (title weighted 10): only they are scored in order.
    const best = (match: string, limit: number) =>
      sql<RankedPage>`
        select p.space_id, p.page_id, -f.rank as relevance
        from (select rowid, rank from search_pages_fts where search_pages_fts match ${match} and rank match 'bm25(10.0, 1.0)' order by rank limit ${limit}) f
        join search_pages p on p.id = f.rowid
        where p.space_id in (${spaces})`.execute(db);
    for (let limit = Math.max(32, wanted * 2); ; limit *= 4) {
      const [{ rows: all }, { rows: inTitles }] = await Promise.all([best(expression, limit), titleMatches.size > 0 ? best(titles, limit) : Promise.resolve({ rows: [] as RankedPage[] })]);
      const pages = new Map<string, RankedPage>();
      const add = (hit: RankedPage, titleMatch: boolean) => {
        const key = `${hit.space_id}/${hit.page_id}`;
        if (!pages.has(key) && titleMatches.has(key) === titleMatch) pages.set(key, { ...hit, relevance: Math.max(0, Number(hit.relevance)), title_match: titleMatch });
      };
      for (const hit of inTitles) add(hit, true);
      for (const hit of all) add(hit, true);
      for (const hit of all) add(hit, false);
      // Enough pages, or every match seen (a space filter can drop some of the best).
      if (pages.size < Math.min(wanted, total) && (all.length === limit || inTitles.length === limit)) continue;
      const ranked = [...pages.values()].sort((a, b) => Number(b.title_match) - Number(a.title_match) || b.relevance - a.relevance || (a.page_id < b.page_id ? -1 : 1));
      const shown = ranked.slice(0, wanted);
      return { pages: shown, sections: await this.sectionsOf(db, shown, query), total };
    }
  },

  /** The matching sections of these pages, with their relevance. */
  async sectionsOf(db: Db, pages: { space_id: string; page_id: string }[], query: SearchQuery): Promise<SectionHit[]> {
    if (pages.length === 0 || query.length === 0) return [];
    const spaces = sql.join([...new Set(pages.map((p) => p.space_id))]);
    const ids = sql.join([...new Set(pages.map((p) => p.page_id))]);
    if (isPostgres(db)) {
      const { rows } = await sql<SectionHit>`
        select s.id, s.space_id, s.page_id, s.section_id, s.position, ts_rank(s.tsv, q.q) as rank
        from search_sections s, to_tsquery('english'::regconfig, ${tsqueryExpression(query)}) as q(q)
        where s.space_id in (${spaces}) and s.page_id in (${ids}) and s.tsv @@ q.q`.execute(db);
      return rows.map((r) => ({ ...r, id: Number(r.id), rank: Number(r.rank) }));
    }
    // The matching sections of the pages shown, in document order: scoring them with bm25
    // (or bounding the FTS5 scan by their rowids) costs more than ranking the pages did.
    const { rows } = await sql<SectionHit>`
      select s.id, s.space_id, s.page_id, s.section_id, s.position, 0 as rank
      from search_fts join search_sections s on s.id = search_fts.rowid
      where search_fts match ${fts5Expression(query)} and s.space_id in (${spaces}) and s.page_id in (${ids})`.execute(db);
    return rows.map((r) => ({ ...r, rank: 0 }));
  },
};
