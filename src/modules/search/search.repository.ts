import { PostgresAdapter, sql, type Insertable } from 'kysely';
import { fts5Terms, matchFinder, POSTGRES_ENGLISH, stem } from '../../content/search/match.ts';
import type { Db } from '../../db/database.ts';
import type { SearchPagesTable, SearchSectionsTable } from '../../db/types.ts';
import { anyTermOfGroups, anyTermTsquery, everyGroupTsquery, EXCERPT_SIZE, fts5Expression, fts5String, tsqueryGroups, tsqueryTerms, type QueryTerm, type SearchQuery } from '../../content/search/query.ts';

export type SectionRow = Omit<SearchSectionsTable, 'id'>;

/** A section of a matching page that holds a searched word, with its text. */
export interface SectionHit {
  section_id: string;
  position: number;
  title: string;
  body: string;
  /** Relevance within the page (higher is better). */
  rank: number;
  /** Where in `body` the first matched word starts; -1 when unknown, when only the heading matched, or (PostgreSQL, which does not look) when `body` is no longer than an excerpt. */
  match_at: number;
}

/** A matching page: its relevance, whether its title matches, and its sections holding a searched word (the best SECTIONS_KEPT on PostgreSQL). */
export interface RankedPage {
  space_id: string;
  page_id: string;
  relevance: number;
  title_match: boolean;
  /**
   * Absent until read (searchRepository.readSections): on PostgreSQL the ranking leaves
   * them out, and only the pages shown have them read. SQLite's ranking has them already.
   */
  sections?: SectionHit[];
}

/** The best pages of a search and how many pages match in all. */
export interface RankedResult {
  pages: RankedPage[];
  total: number;
  /**
   * The revision each searched space's index reflected when it was ranked (absent: not
   * indexed). A space whose current revision differs was ranked on an index behind it.
   */
  indexed: Map<string, string>;
}

type SectionText = Pick<SearchSectionsTable, 'space_id' | 'page_id' | 'position' | 'section_id' | 'section_title' | 'body'>;

const keyOf = (row: { space_id: string; page_id: string }) => `${row.space_id}/${row.page_id}`;

/** A section in a SQLite page row's outline: its id, title length, text length. */
type OutlineEntry = [sectionId: string, titleLength: number, bodyLength: number];

/** A page's sections as one SQLite row: laid end to end (`title\nbody\n` each) and an outline to cut them apart. */
function pageRow(sections: SectionRow[]): Insertable<SearchPagesTable> {
  const outline: OutlineEntry[] = sections.map((s) => [s.section_id, s.section_title.length, s.body.length]);
  return {
    space_id: sections[0].space_id,
    page_id: sections[0].page_id,
    page_title: sections[0].page_title,
    body: sections.map((s) => `${s.section_title}\n${s.body}\n`).join(''),
    outline: JSON.stringify(outline),
    revision_id: sections[0].revision_id,
  };
}

/**
 * The sections of a page that hold a match, given the offsets of the matched words in its
 * SQLite row's text, cut apart by the row's outline.
 */
function sectionsOfPage(text: string, matches: number[], outline: OutlineEntry[]): SectionHit[] {
  const hits: SectionHit[] = [];
  let offset = 0;
  let next = 0;
  outline.forEach(([sectionId, titleLength, bodyLength], position) => {
    const titleEnd = offset + titleLength;
    const bodyStart = titleEnd + 1;
    const end = bodyStart + bodyLength + 1;
    let inTitle = 0;
    let inBody = 0;
    let first = -1;
    for (; next < matches.length && matches[next] < end; next++) {
      if (matches[next] < titleEnd) inTitle++;
      else if (matches[next] >= bodyStart) {
        inBody++;
        if (first < 0) first = matches[next] - bodyStart;
      }
    }
    // A match in the heading weighs as much as four in the text (the weights PostgreSQL ranks sections with).
    if (inTitle + inBody > 0) {
      hits.push({ section_id: sectionId, position, title: text.slice(offset, titleEnd), body: text.slice(bodyStart, bodyStart + bodyLength), rank: inTitle * 4 + inBody, match_at: first });
    }
    offset = end;
  });
  // A row whose outline does not add up to its text is never written; should one be, show no sections rather than wrong ones.
  return offset === text.length ? hits : [];
}

/** PostgreSQL: a section row holding a searched word as shown, its first matched word found by `find` (match.ts). */
function sectionHit(row: SectionText & { rank: number | string | null }, find: ReturnType<typeof matchFinder>): SectionHit {
  return {
    section_id: row.section_id,
    position: row.position,
    title: row.section_title,
    body: row.body,
    rank: Number(row.rank),
    // Where the first match is only matters to a text longer than an excerpt, cut around it.
    match_at: row.body.length > EXCERPT_SIZE ? (find(row.body, 1)[0] ?? -1) : -1,
  };
}

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The sections of a page a result keeps, its best (most searched words, then document
 * order): the most it shows (shownSections, search.model.ts). PostgreSQL reads no others; SQLite
 * cuts them from the page's one row, all of them.
 */
export const SECTIONS_KEPT = 5;

/** The tables holding a space's index: PostgreSQL sections and page vectors, SQLite page rows. */
const indexTables = (db: Db) => (isPostgres(db) ? (['search_sections', 'search_page_vectors'] as const) : (['search_pages'] as const));

/**
 * PostgreSQL: a page's tsvector from its rows in search_sections, grouped by page (the
 * expression migration 0015 backfilled with): the title weighted A, the headings B, the
 * text D. Lines apart, no word of one section runs into the next.
 */
const PAGE_VECTOR = sql`setweight(to_tsvector('english'::regconfig, max(page_title)), 'A') ||
  setweight(to_tsvector('english'::regconfig, string_agg(section_title, E'\n' order by position)), 'B') ||
  setweight(to_tsvector('english'::regconfig, string_agg(body, E'\n' order by position)), 'D')`;

/** PostgreSQL: the title's own tsvector, from the same rows (which pages' titles match). */
const TITLE_VECTOR = sql`to_tsvector('english'::regconfig, max(page_title))`;

/**
 * PostgreSQL: the heading (weight B) and text (D) of a search_sections row aliased `s`,
 * stored (migration 0021): a section is shown when this holds a searched word, and ranked
 * among its page's by it, whichever statement reads it (rankPagesPostgres, readSections).
 */
const SECTION_VECTOR = sql`s.tsv`;

/** Where the held guesses go in guessedTsqueries' texts (a word holds only letters and digits). */
const HELD = '#held#';

/**
 * PostgreSQL: the query's to_tsquery texts (every group; any term) without the stems it
 * guesses for the word being typed (query.ts), which stand apart: the ranking statement
 * puts back, at HELD, those some page holds.
 */
function guessedTsqueries(query: SearchQuery): { guesses: string[]; every: string; anyTerm: string } {
  const isGuess = (group: QueryTerm[], term: QueryTerm) => !term.prefix && group.some((t) => t.prefix);
  const guesses = [...new Set(query.flatMap((group) => group.filter((t) => isGuess(group, t)).map((t) => t.text)))];
  const kept = query.map((group) => group.filter((t) => !isGuess(group, t)));
  const groups = tsqueryGroups(kept).map((group, i) => (kept[i].length < query[i].length ? `${group}${HELD}` : group));
  return { guesses, every: everyGroupTsquery(groups), anyTerm: anyTermOfGroups(groups) };
}

/**
 * The only queries of the full-text index. Both dialects sit behind the same functions:
 * SQLite FTS5 (porter tokenizer; pages ranked by bm25 with the title weighted 10, text 1)
 * and PostgreSQL (tsvector `english`, GIN index, ts_rank with weights A title, B heading,
 * D text). Both find the sections shown the same way: those holding any searched word.
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
    for (const table of indexTables(db)) await db.deleteFrom(table).where('space_id', '=', spaceId).execute();
  },

  async deletePages(db: Db, spaceId: string, pageIds: string[]): Promise<void> {
    for (const table of indexTables(db)) {
      for (let i = 0; i < pageIds.length; i += 500) {
        await db.deleteFrom(table).where('space_id', '=', spaceId).where('page_id', 'in', pageIds.slice(i, i + 500)).execute();
      }
    }
  },

  /**
   * Writes the index of some pages, given their sections (each page's together, in
   * order): PostgreSQL one row per section and then, from those rows, one per page (its
   * tsvector, PAGE_VECTOR); SQLite one row per page (pageRow).
   */
  async insertSections(db: Db, rows: SectionRow[]): Promise<void> {
    // Chunks keep each statement under both dialects' parameter limits.
    if (isPostgres(db)) {
      for (let i = 0; i < rows.length; i += 500) await db.insertInto('search_sections').values(rows.slice(i, i + 500)).execute();
      const pagesBySpace = new Map<string, Set<string>>();
      for (const row of rows) pagesBySpace.set(row.space_id, (pagesBySpace.get(row.space_id) ?? new Set()).add(row.page_id));
      for (const [spaceId, pages] of pagesBySpace) {
        const pageIds = [...pages];
        for (let i = 0; i < pageIds.length; i += 500) {
          await sql`insert into search_page_vectors (space_id, page_id, revision_id, tsv, title_tsv)
            select space_id, page_id, max(revision_id), ${PAGE_VECTOR}, ${TITLE_VECTOR}
            from search_sections
            where space_id = ${spaceId} and page_id in (${sql.join(pageIds.slice(i, i + 500))})
            group by space_id, page_id`.execute(db);
        }
      }
      return;
    }
    const pages = new Map<string, SectionRow[]>();
    for (const row of rows) pages.set(keyOf(row), [...(pages.get(keyOf(row)) ?? []), row]);
    const values = [...pages.values()].map(pageRow);
    for (let i = 0; i < values.length; i += 200) await db.insertInto('search_pages').values(values.slice(i, i + 200)).execute();
  },

  /**
   * The pages matching the query, best first (pages whose title matches, then the rest,
   * each by relevance): the first `wanted` of them, how many pages match in all, and the
   * sections holding a searched word of the pages after the first `sectionsAfter` (those
   * to be shown; SQLite's ranking finds every page's, PostgreSQL reads only those).
   */
  async rankPages(db: Db, spaceIds: string[], query: SearchQuery, wanted: number, sectionsAfter = 0): Promise<RankedResult> {
    if (spaceIds.length === 0 || query.length === 0 || wanted <= 0) return { pages: [], total: 0, indexed: await this.states(db, spaceIds) };
    return isPostgres(db) ? this.rankPagesPostgres(db, spaceIds, query, wanted, sectionsAfter) : this.rankPagesSqlite(db, spaceIds, query, wanted);
  },

  /**
   * SQLite: pages are scored on the page-level FTS5 table (bm25: title 10, text 1), and
   * only within the searched spaces, which the MATCH names (its `space_id` column). The
   * title matches come first: the best of them are one ranking query; only when they do
   * not fill the window are the best of all matches ranked too. The matched words of the
   * pages shown are found in their text by match.ts, as FTS5 would find them.
   */
  async rankPagesSqlite(db: Db, spaceIds: string[], query: SearchQuery, wanted: number): Promise<RankedResult> {
    const spaces = sql.join(spaceIds);
    const searched = new Set(spaceIds);
    // The searched spaces' index states, and one other space's if the index holds any:
    // naming the spaces costs a term in every match, left out when there is no other.
    const { rows: states } = await sql<{ space_id: string; revision_id: string | null }>`
      select space_id, revision_id from search_index_state where space_id in (${spaces})
      union all
      select * from (select space_id, null from search_index_state where space_id not in (${spaces}) limit 1)`.execute(db);
    const indexed = new Map(states.flatMap((row) => (row.revision_id === null ? [] : [[row.space_id, row.revision_id] as const])));
    const others = states.filter((row) => row.revision_id === null);
    const searchedTerms = await this.indexedGuesses(db, query);
    const terms = fts5Expression(searchedTerms);
    const scope = others.length > 0 ? `space_id : (${spaceIds.map(fts5String).join(' OR ')}) AND ` : '';
    const anywhere = `${scope}{page_title body} : (${terms})`;
    const inTitle = `${scope}page_title : (${terms})`;

    type PageRow = { id: number; space_id: string; page_id: string; body: string; outline: string };
    type Scored = PageRow & { relevance: number };
    /**
     * The best `n` pages for this match (fewer: all of them). FTS5 scores every match in
     * one pass and SQLite's sorter keeps the best (`limit -1` keeps the scan from being
     * flattened into FTS5's own `order by rank`, which costs a third more); the rows of
     * the pages kept are read after.
     */
    const best = async (match: string, n: number): Promise<Scored[]> => {
      for (let limit = n; ; limit *= 4) {
        const { rows: scored } = await sql<{ id: number; score: number }>`
          select id, score from (
            select rowid as id, rank as score from search_pages_fts
            where search_pages_fts match ${match} and rank match 'bm25(10.0, 1.0, 0.0)' limit -1)
          order by score, id limit ${limit}`.execute(db);
        const rows = new Map<number, PageRow>();
        for (let i = 0; i < scored.length; i += 500) {
          const chunk = await db.selectFrom('search_pages').select(['id', 'space_id', 'page_id', 'body', 'outline']).where('id', 'in', scored.slice(i, i + 500).map((r) => r.id)).execute();
          for (const row of chunk) rows.set(row.id, row);
        }
        // The match compares lower-cased, stemmed ids: an exact comparison keeps only the searched spaces.
        const exact = scored.flatMap(({ id, score }) => (rows.has(id) && searched.has(rows.get(id)!.space_id) ? [{ ...rows.get(id)!, relevance: -score }] : []));
        if (exact.length >= n || scored.length < limit) return exact.slice(0, n);
      }
    };

    const [{ rows: counted }, titled] = await Promise.all([
      scope
        ? sql<{ n: number }>`select count(*) as n from search_pages_fts join search_pages p on p.id = search_pages_fts.rowid where search_pages_fts match ${anywhere} and p.space_id in (${spaces})`.execute(db)
        : sql<{ n: number }>`select count(*) as n from search_pages_fts where search_pages_fts match ${anywhere}`.execute(db),
      best(inTitle, wanted),
    ]);
    const total = Number(counted[0]?.n ?? 0);
    const shown = titled.map((row) => ({ row, titleMatch: true }));
    // Fewer title matches than the window: they are all of them, and the best of the other matches follow.
    if (shown.length < wanted && total > shown.length) {
      const titleMatches = new Set(titled.map(keyOf));
      for (const row of await best(anywhere, wanted)) {
        if (shown.length < wanted && !titleMatches.has(keyOf(row))) shown.push({ row, titleMatch: false });
      }
    }
    const find = matchFinder(fts5Terms(searchedTerms));
    const pages = shown.map(({ row, titleMatch }) => ({
      space_id: row.space_id,
      page_id: row.page_id,
      relevance: Math.max(0, Number(row.relevance)),
      title_match: titleMatch,
      sections: sectionsOfPage(row.body, find(row.body), JSON.parse(row.outline) as OutlineEntry[]),
    }));
    return { pages, total, indexed };
  },

  /**
   * The query without those stems it guesses for the word being typed (its own prefixes,
   * query.ts) that cannot add a match, each of which would cost FTS5 a term to score on
   * every matching page: guesses the prefix term already covers (FTS5 stems a prefix
   * before matching it, as match.ts does), and guesses no page holds (the vocabulary).
   * Only plain ASCII words are judged (the vocabulary holds folded words); the others
   * keep their guesses.
   */
  async indexedGuesses(db: Db, query: SearchQuery): Promise<SearchQuery> {
    const judged = (term: QueryTerm) => /^[a-z0-9]{1,64}$/.test(term.text);
    const coveredBy = new Map(query.map((group) => [group, group.find((t) => t.prefix && judged(t))] as const));
    const stems = new Map([...coveredBy.values()].filter((t) => t !== undefined).map((t) => [t, stem(t.text)]));
    const isGuess = (group: QueryTerm[], term: QueryTerm) => !term.prefix && coveredBy.get(group) !== undefined && judged(term);
    const guesses = query.flatMap((group) => group.filter((t) => isGuess(group, t) && !t.text.startsWith(stems.get(coveredBy.get(group)!)!)).map((t) => t.text));
    const { rows } = guesses.length > 0 ? await sql<{ term: string }>`select term from search_pages_vocab where term in (${sql.join(guesses)})`.execute(db) : { rows: [] };
    const indexed = new Set(rows.map((r) => r.term));
    return query.map((group) => group.filter((t) => !isGuess(group, t) || indexed.has(t.text)));
  },

  /**
   * PostgreSQL: a page matches when every searched word is in it, which the GIN index of
   * its stored tsvector (search_page_vectors) answers; only those pages are ranked
   * (ts_rank over the words any of them, weights A title, B heading, D text), and only the
   * best `wanted` leave the database, with the number of matching pages and, for those
   * after the first `sectionsAfter`, their best sections holding a searched word (as
   * readSections reads them).
   */
  async rankPagesPostgres(db: Db, spaceIds: string[], query: SearchQuery, wanted: number, sectionsAfter: number): Promise<RankedResult> {
    const spaces = sql.join(spaceIds);
    const { guesses, every, anyTerm } = guessedTsqueries(query);
    // One statement, one round trip. `held` keeps the guessed stems (the word being typed,
    // query.ts) that some page holds: any other matches nothing but would cost a term to
    // test and rank on every matching page (leaving it out changes no match, and no order:
    // ts_rank divides by the number of terms, the same on every page). The index state of
    // the searched spaces and the number of matching pages come with the ranking (a row of
    // them alone when nothing matches), and the shown pages' best sections with their page
    // (a row per section; the sections are matched and ranked with every guess, as
    // readSections does, so their scores do not depend on which statement read them).
    // Title matches come first. The best of them are found from the title's own index (a
    // title holding every word is part of a page holding them); only when they do not fill
    // the window are the best of the other matches ranked too, in the same statement: its
    // one-time filter skips that scan otherwise.
    // Ties go by page id in byte order ("C"), a comparison of bytes, not of a collation.
    const { rows } = await sql<
      SectionText & { n: number | null; relevance: number | null; title_match: boolean | null; rank: number | null; total: number | null; states: Record<string, string> | null; searched: string | null }
    >`
      with held as (
        select coalesce(string_agg(' | ' || g.term, '' order by g.n), '') as alternatives
        from unnest(${guesses}::text[]) with ordinality as g(term, n)
        where exists (select 1 from search_page_vectors p where p.tsv @@ to_tsquery('english'::regconfig, g.term))
      ), q as materialized (
        select to_tsquery('english'::regconfig, replace(${every}, ${HELD}, held.alternatives)) as every,
          to_tsquery('english'::regconfig, replace(${anyTerm}, ${HELD}, held.alternatives)) as any_term,
          to_tsquery('english'::regconfig, ${anyTermTsquery(query)}) as all_terms
        from held
      ), indexed as (
        select coalesce(json_object_agg(space_id, revision_id), '{}'::json) as states
        from search_index_state where space_id in (${spaces})
      ), matching as (
        select count(*) as total from search_page_vectors p, q where p.space_id in (${spaces}) and p.tsv @@ q.every
      ), titled as materialized (
        select p.space_id, p.page_id, ts_rank(p.tsv, q.any_term) as relevance, true as title_match
        from search_page_vectors p, q
        where p.space_id in (${spaces}) and p.title_tsv @@ q.every
        order by relevance desc, p.page_id collate "C"
        limit ${wanted}
      ), best as (
        select row_number() over (order by title_match desc, relevance desc, page_id collate "C") as n, *
        from (
          select * from titled
          union all
          (select p.space_id, p.page_id, ts_rank(p.tsv, q.any_term) as relevance, false as title_match
            from search_page_vectors p, q
            where (select count(*) from titled) < ${wanted} and p.space_id in (${spaces}) and p.tsv @@ q.every and not p.title_tsv @@ q.every
            order by relevance desc, p.page_id collate "C"
            limit ${wanted} - (select count(*) from titled))
        ) pages
      )
      select best.n, best.space_id, best.page_id, best.relevance, best.title_match, s.position, s.section_id, s.section_title, s.body, s.rank,
        -- Once, on the first row (the first page's, or the only one when nothing matches).
        case when best.n is null or best.n = 1 then matching.total end as total,
        case when best.n is null or best.n = 1 then indexed.states end as states,
        case when best.n is null or best.n = 1 then q.all_terms::text end as searched
      from indexed cross join matching cross join q left join best on true
        left join lateral (
          select s.position, s.section_id, s.section_title, s.body, ts_rank(${SECTION_VECTOR}, q.all_terms) as rank
          from search_sections s
          where best.n > ${sectionsAfter} and s.space_id = best.space_id and s.page_id = best.page_id and ${SECTION_VECTOR} @@ q.all_terms
          order by rank desc, s.position
          limit ${SECTIONS_KEPT}
        ) s on true
      order by best.n, s.position`.execute(db);
    const pages: RankedPage[] = [];
    const first = rows[0];
    let find: ReturnType<typeof matchFinder> | undefined;
    for (const row of rows) {
      if (row.n === null) continue;
      let page = pages.at(-1);
      if (page?.page_id !== row.page_id || page.space_id !== row.space_id) {
        page = { space_id: row.space_id, page_id: row.page_id, relevance: Number(row.relevance), title_match: Boolean(row.title_match) };
        if (row.n > sectionsAfter) page.sections = [];
        pages.push(page);
      }
      if (row.position !== null) {
        find ??= matchFinder(tsqueryTerms(first.searched!), POSTGRES_ENGLISH);
        page.sections!.push(sectionHit(row, find));
      }
    }
    return { pages, total: Number(first?.total ?? 0), indexed: new Map(Object.entries(first?.states ?? {})) };
  },

  /**
   * PostgreSQL plans the search queries by its statistics of the index tables, which
   * autovacuum updates late after a large write (or never, where it is off): a space
   * indexed in full would be searched with plans made for empty tables until then.
   * SQLite's FTS5 queries do not depend on statistics.
   */
  async refreshStatistics(db: Db): Promise<void> {
    if (isPostgres(db)) await sql`analyze search_page_vectors, search_sections`.execute(db);
  },

  /**
   * Reads the sections holding a searched word of the pages that have none read yet
   * (RankedPage.sections), in place. PostgreSQL: their best rows in search_sections
   * (SECTIONS_KEPT) whose heading or text holds any searched word, the first such word
   * found by match.ts (as the `english` configuration finds it). SQLite: their page rows, cut into sections by
   * their outline, the words found by match.ts (as rankPagesSqlite does).
   */
  async readSections(db: Db, query: SearchQuery, pages: RankedPage[]): Promise<void> {
    const unread = pages.filter((p) => p.sections === undefined);
    if (unread.length === 0) return;
    const sections = new Map<string, SectionHit[]>(unread.map((p) => [keyOf(p), []]));
    if (isPostgres(db)) {
      let find: ReturnType<typeof matchFinder> | undefined;
      for (let i = 0; i < unread.length; i += 500) {
        const chunk = unread.slice(i, i + 500);
        // The words are found in Node (match.ts, as the `english` configuration finds
        // them), from the query as the database parsed it (`searched`): ts_headline would
        // parse and stem every shown text again, which cost ten times the rest of a search.
        const { rows: hits } = await sql<SectionText & { rank: number; searched: string }>`
          select space_id, page_id, position, section_id, section_title, body, rank, searched from (
            select s.space_id, s.page_id, s.position, s.section_id, s.section_title, s.body,
              ts_rank(${SECTION_VECTOR}, q.q) as rank, q.q::text as searched,
              row_number() over (partition by s.space_id, s.page_id order by ts_rank(${SECTION_VECTOR}, q.q) desc, s.position) as best
            from search_sections s, to_tsquery('english'::regconfig, ${anyTermTsquery(query)}) as q(q)
            where s.space_id in (${sql.join([...new Set(chunk.map((p) => p.space_id))])})
              and s.page_id in (${sql.join([...new Set(chunk.map((p) => p.page_id))])})
              and ${SECTION_VECTOR} @@ q.q
          ) kept
          where best <= ${SECTIONS_KEPT}
          order by position`.execute(db);
        for (const hit of hits) {
          find ??= matchFinder(tsqueryTerms(hit.searched), POSTGRES_ENGLISH);
          sections.get(keyOf(hit))?.push(sectionHit(hit, find));
        }
      }
    } else {
      const find = matchFinder(fts5Terms(await this.indexedGuesses(db, query)));
      for (let i = 0; i < unread.length; i += 200) {
        const chunk = unread.slice(i, i + 200);
        const rows = await db
          .selectFrom('search_pages')
          .select(['space_id', 'page_id', 'body', 'outline'])
          .where('space_id', 'in', [...new Set(chunk.map((p) => p.space_id))])
          .where('page_id', 'in', [...new Set(chunk.map((p) => p.page_id))])
          .execute();
        for (const row of rows) {
          if (sections.has(keyOf(row))) sections.set(keyOf(row), sectionsOfPage(row.body, find(row.body), JSON.parse(row.outline) as OutlineEntry[]));
        }
      }
    }
    for (const page of unread) page.sections = sections.get(keyOf(page));
  },
};
