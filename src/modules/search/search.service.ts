import type { Context } from '../../context.ts';
import { offsetOf, offsetPage, pageOfItems, type PageRequest } from '../../lib/pagination/index.ts';
import { badRequest } from '../../errors.ts';
import { ContentNotFound } from '../../content/errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { extractText, type Document } from '../../content/markdown/index.ts';
import { changedPages } from '../../content/merge/index.ts';
import { excerpt, parseSearchQuery, type SearchQuery } from '../../content/search/query.ts';
import { loadDocuments, loadSnapshot, loadTrees } from '../../content/store/snapshot.ts';
import type { PageEntry, RevisionTrees } from '../../content/store/types.ts';
import { loadSpace, visibleSpaceIds } from '../../access/index.ts';
import { shownSections, type OrganizationSearchResult, type SpaceSearchResult } from './search.model.ts';
import { searchRepository, type RankedPage, type RankedResult, type SectionRow } from './search.repository.ts';

/*
 * Full-text search of space content (docs/decisions/links-and-search.md). The index is
 * brought up to date lazily, right before a search reads it: when a space's revision has
 * moved since the index was written, only the pages that differ between the two
 * revisions are re-indexed. So a search always sees the space's current revision, and
 * nothing is indexed for spaces nobody searches.
 */

export interface IndexRun {
  spaceId: string;
  from: string | null;
  to: string;
  /** Pages whose sections were (re)written. */
  indexed: number;
  /** Pages whose sections were removed. */
  removed: number;
}

/** Every index update made by this process, newest last (bounded): tests and operators read it. */
export const indexRuns: IndexRun[] = [];

function entryIn(trees: RevisionTrees, pageId: string): PageEntry | undefined {
  const parent = trees.parentOf.get(pageId);
  if (parent === undefined) return undefined;
  return trees.trees.get(parent)?.entries.find((e) => e.id === pageId);
}

/** What the index holds of a page: its sections (one empty one for a page without text). */
function sectionRows(spaceId: string, revisionId: string, entry: PageEntry, document: Document | undefined): SectionRow[] {
  const sections = document ? extractText(document) : [];
  const rows = sections.map((s, position) => ({
    space_id: spaceId,
    page_id: entry.id,
    position,
    section_id: s.headingId ?? '',
    page_title: entry.title,
    section_title: s.title,
    body: s.body,
    revision_id: revisionId,
  }));
  if (rows.length === 0) {
    rows.push({ space_id: spaceId, page_id: entry.id, position: 0, section_id: '', page_title: entry.title, section_title: '', body: '', revision_id: revisionId });
  }
  return rows;
}

/** Link pages point elsewhere: they have no text of their own to find. */
const indexable = (entry: PageEntry) => entry.type !== 'link';

/** True when what the index keeps of a page (title, text) differs. */
const indexedChanged = (a: PageEntry, b: PageEntry) => a.title !== b.title || a.document !== b.document || a.type !== b.type;

/** Pages written or removed in one index update from which the database's statistics are refreshed. */
const STATISTICS_AFTER = 1000;

/**
 * Brings one space's index from revision `from` (null: nothing indexed) to `to`. A
 * concurrent update of the same space wins the compare-and-set; this one then re-reads
 * where the index stands and goes on from there.
 */
export async function indexSpace(ctx: Pick<Context, 'db' | 'clock'>, spaceId: string, known: string | null, to: string): Promise<IndexRun | null> {
  let from = known;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (attempt > 0) from = (await searchRepository.states(ctx.db, [spaceId])).get(spaceId) ?? null;
    if (from === to) return null;
    const next = await loadTrees(ctx.db, spaceId, to);
    let previous: RevisionTrees | undefined;
    if (from !== null) {
      try {
        previous = await loadTrees(ctx.db, spaceId, from);
      } catch (error) {
        if (!(error instanceof ContentNotFound)) throw error;
      }
    }
    const write: PageEntry[] = [];
    const remove: string[] = [];
    if (previous) {
      for (const id of changedPages(previous, next)) {
        const now = entryIn(next, id);
        const before = entryIn(previous, id);
        if (!now || !indexable(now)) {
          if (before) remove.push(id);
        } else if (!before || indexedChanged(before, now)) write.push(now);
      }
    } else {
      const snapshot = await loadSnapshot(ctx.db, spaceId, to);
      for (const node of snapshot.byId.values()) if (indexable(node.entry)) write.push(node.entry);
    }
    const documents = await loadDocuments<Document>(
      ctx.db,
      spaceId,
      write.map((e) => e.document).filter((h): h is string => h !== undefined),
    );
    const rows = write.flatMap((entry) => sectionRows(spaceId, to, entry, entry.document ? documents.get(entry.document) : undefined));
    const claimed = await ctx.db.transaction().execute(async (trx) => {
      if (!(await searchRepository.claim(trx, spaceId, from, to, isoNow(ctx.clock)))) return false;
      if (previous) await searchRepository.deletePages(trx, spaceId, [...remove, ...write.map((e) => e.id)]);
      else await searchRepository.deleteSpace(trx, spaceId);
      await searchRepository.insertSections(trx, rows);
      return true;
    });
    if (!claimed) continue;
    // Statistics made before a large write would plan the next searches for the old table.
    if (write.length + remove.length >= STATISTICS_AFTER) await searchRepository.refreshStatistics(ctx.db);
    const run = { spaceId, from, to, indexed: write.length, removed: remove.length };
    indexRuns.push(run);
    if (indexRuns.length > 100) indexRuns.shift();
    return run;
  }
  return null;
}

/** The 400 for a search text beyond the spec's 512 characters (the schema says so too). */
function queryOf(text: string): SearchQuery {
  if (text.length > 512) throw badRequest('querystring/query must NOT have more than 512 characters');
  return parseSearchQuery(text);
}

/**
 * The best `wanted` pages of these spaces for the query, ranked once per window: a
 * result depends only on the revisions searched (their index never changes) and the
 * query, so it is kept (caches.searchResults) and serves repeats of the search and its
 * earlier pages; a later page ranks a wider window again. The sections of the pages after
 * the first `sectionsAfter` (those about to be shown) come with the ranking; any other
 * page's are read when it is first shown (searchRepository.readSections) into the same
 * objects, so the kept result keeps them too.
 *
 * The index is expected to be current, and the ranking says which revision each space's
 * index reflected (in the same statement on PostgreSQL): a space whose index is behind is
 * brought up to date (indexSpace) and the ranking made again, so a search always sees
 * the spaces' current revisions without a statement of its own to ask.
 */
async function rankedPages(
  ctx: Pick<Context, 'db' | 'caches' | 'clock'>,
  spaces: { id: string; revision_id: string }[],
  query: SearchQuery,
  wanted: number,
  sectionsAfter: number,
): Promise<RankedResult> {
  const key = JSON.stringify([[...spaces].sort((a, b) => (a.id < b.id ? -1 : 1)).map((s) => [s.id, s.revision_id]), query]);
  const kept = ctx.caches.searchResults.get(key) as { wanted: number; result: RankedResult } | undefined;
  if (kept && (kept.wanted >= wanted || kept.result.pages.length === kept.result.total)) {
    return { ...kept.result, pages: kept.result.pages.slice(0, wanted) };
  }
  const rank = () => searchRepository.rankPages(ctx.db, spaces.map((s) => s.id), query, wanted, sectionsAfter);
  let result = await rank();
  const behind = spaces.filter((s) => result.indexed.get(s.id) !== s.revision_id);
  if (behind.length > 0) {
    for (const space of behind) await indexSpace(ctx, space.id, result.indexed.get(space.id) ?? null, space.revision_id);
    result = await rank();
  }
  ctx.caches.searchResults.set(key, { wanted, result });
  return result;
}

/** GET {S}/search: pages of one space, ranked. */
export async function searchSpace(ctx: Context, spaceId: string, text: string, page: PageRequest): Promise<SpaceSearchResult> {
  const query = queryOf(text);
  const { space } = await loadSpace(ctx, spaceId);
  if (query.length === 0 || !space.revision_id) return { count: 0, items: [], query };
  const start = offsetOf(page);
  // Only the pages up to this window are ranked in full: the best are what is shown.
  const ranked = await rankedPages(ctx, [{ id: space.id, revision_id: space.revision_id }], query, start + page.limit, start);
  const snapshot = await loadSnapshot(ctx.db, spaceId, space.revision_id);
  // The index reflects the current revision (rankedPages), so every page is in it.
  const hits = ranked.pages.slice(start).filter((p) => snapshot.byId.has(p.page_id));
  // The sections (and excerpts) of the pages shown only, not of the earlier pages of the
  // window: the ranking brought them, unless its result was kept from an earlier search.
  await searchRepository.readSections(ctx.db, query, hits);
  return {
    ...offsetPage(
      hits.map((hit, i) => ({ hit, snapshot, rank: start + i + 1 })),
      ranked.total,
      start,
    ),
    query,
  };
}

/** Pages shown per space in the organization search: its best ones. */
const PAGES_PER_SPACE = 20;

/** GET {O}/search: one item per space the caller can see, holding its matching pages; spaces ranked by their best page. */
export async function searchOrganization(ctx: Context, organizationId: string, text: string, page: PageRequest): Promise<OrganizationSearchResult> {
  const query = queryOf(text);
  const ids = await visibleSpaceIds(ctx, organizationId);
  if (query.length === 0 || ids.length === 0) return { count: 0, items: [], query };
  const spaces = (await searchRepository.liveSpaces(ctx.db, ids)).filter((s): s is typeof s & { revision_id: string } => s.revision_id !== null);
  // Which spaces are shown is known after the ranking: their pages' sections are read after it.
  const result = await rankedPages(ctx, spaces, query, PAGES_PER_SPACE * spaces.length, PAGES_PER_SPACE * spaces.length);
  const ranked = result.pages;
  const bySpace = new Map<string, RankedPage[]>();
  for (const hit of ranked) bySpace.set(hit.space_id, [...(bySpace.get(hit.space_id) ?? []), hit]);
  const rankOf = new Map(ranked.map((hit, i) => [hit, i + 1]));
  const ordered = spaces.filter((s) => bySpace.has(s.id)).sort((a, b) => rankOf.get(bySpace.get(a.id)![0])! - rankOf.get(bySpace.get(b.id)![0])!);
  const { items: slice, next } = pageOfItems(ordered, page);
  const shown = [];
  for (const space of slice) {
    const snapshot = await loadSnapshot(ctx.db, space.id, space.revision_id as string);
    shown.push({ space, snapshot, top: bySpace.get(space.id)!.filter((p) => snapshot.byId.has(p.page_id)).slice(0, PAGES_PER_SPACE) });
  }
  // The sections (and excerpts) of the pages shown only: those of the spaces on this page of results.
  await searchRepository.readSections(ctx.db, query, shown.flatMap((s) => s.top));
  const items = shown.map(({ space, snapshot, top }) => ({
    space: { id: space.id, title: space.title },
    pages: top.map((hit) => ({ hit, snapshot, rank: rankOf.get(hit)! })),
  }));
  return { ...(next ? { next } : {}), count: ordered.length, items, query };
}

/** One result of a search on a published site: where the page is, and the text that matched. */
export interface VisitorResult {
  spaceId: string;
  pageId: string;
  title: string;
  path: string;
  /** `anchor`: the heading id of the section on the page ('' for the text before the first heading). */
  sections: { title: string; body: string; anchor: string }[];
}

/**
 * A search over spaces a site shows a visitor (the published site's search box): the same
 * index, ranking and excerpts as the API's search, at most `limit` pages; callers decide
 * which spaces the visitor may see.
 */
export async function searchForVisitors(
  ctx: Pick<Context, 'db' | 'clock' | 'caches'>,
  spaces: { id: string; revision_id: string | null }[],
  text: string,
  limit: number,
): Promise<{ count: number; results: VisitorResult[] }> {
  const query = parseSearchQuery(text.slice(0, 512));
  const live = spaces.filter((s): s is { id: string; revision_id: string } => s.revision_id !== null);
  if (query.length === 0 || live.length === 0) return { count: 0, results: [] };
  const ranked = await rankedPages(ctx, live, query, limit, 0);
  await searchRepository.readSections(ctx.db, query, ranked.pages);
  const results: VisitorResult[] = [];
  for (const hit of ranked.pages) {
    const space = live.find((s) => s.id === hit.space_id)!;
    const node = (await loadSnapshot(ctx.db, space.id, space.revision_id)).byId.get(hit.page_id);
    if (!node) continue;
    results.push({
      spaceId: hit.space_id,
      pageId: hit.page_id,
      title: node.entry.title,
      path: node.path,
      sections: shownSections(hit, 3).map((s) => ({ title: s.title, body: excerpt(s.body, query, s.match_at), anchor: s.section_id })),
    });
  }
  return { count: ranked.total, results };
}
