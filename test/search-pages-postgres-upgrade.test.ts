import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrate.ts';
import { editSpaceContent } from '../src/modules/content/content.service.ts';
import { indexRuns } from '../src/modules/search/search.service.ts';
import { testDialect } from './app.ts';
import { appOnOlderSchema, upgradeDatabase } from './upgrade.ts';

/*
 * Upgrading a database whose search index was written before migration 0015. PostgreSQL
 * (a row per section only): 0015 backfills each indexed page's tsvector from its section
 * rows, the space's index state stays, and the next search uses it without indexing again;
 * the backfilled vector is the one the application writes when it indexes the page.
 * SQLite: 0015 changes nothing, and its index is used as it was.
 */
describe('search index upgrade (migration 0015)', () => {
  const database = upgradeDatabase('quire-upgrade');

  it(testDialect === 'postgres' ? 'backfills page vectors from the indexed sections, which the next search uses' : 'leaves the SQLite index as it is', async () => {
    const { app, db, admin, headers, spaceId } = await appOnOlderSchema(database, '0014_git_sync', 'Garden');
    try {
      const pages: Record<string, string> = {};
      await editSpaceContent(app.deps, spaceId, admin.id, (e) => {
        pages.tools = e.insertPage({ title: 'Tools', markdown: 'Start here.\n\n# Rakes\n\nA rake for leaves.\n\n# Orchids\n\nOrchids need shade.\n' });
        pages.orchids = e.insertPage({ title: 'Orchids', markdown: 'Potting orchids with a small rake.\n' });
        pages.pond = e.insertPage({ title: 'Pond', markdown: 'Fish and frogs.\n' });
      });
      const revision = (await db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow()).revision_id!;

      if (testDialect === 'postgres') {
        // The index as the application wrote it before 0015: a row per section, marked current.
        const sections = [
          [pages.tools, 0, '', 'Tools', '', 'Start here.'],
          [pages.tools, 1, 'rakes', 'Tools', 'Rakes', 'A rake for leaves.'],
          [pages.tools, 2, 'orchids', 'Tools', 'Orchids', 'Orchids need shade.'],
          [pages.orchids, 0, '', 'Orchids', '', 'Potting orchids with a small rake.'],
          [pages.pond, 0, '', 'Pond', '', 'Fish and frogs.'],
        ] as const;
        for (const [pageId, position, sectionId, pageTitle, sectionTitle, body] of sections) {
          await sql`insert into search_sections (space_id, page_id, position, section_id, page_title, section_title, body, revision_id)
            values (${spaceId}, ${pageId}, ${position}, ${sectionId}, ${pageTitle}, ${sectionTitle}, ${body}, ${revision})`.execute(db);
        }
        await sql`insert into search_index_state (space_id, revision_id, updated_at) values (${spaceId}, ${revision}, '2026-01-01T00:00:00.000Z')`.execute(db);
      } else {
        // SQLite's index is the same before and after 0015: the application writes it.
        const first = await app.inject({ method: 'GET', url: `/v1/spaces/${spaceId}/search?query=pond`, headers });
        expect(first.statusCode, first.body).toBe(200);
      }
      const runsBefore = indexRuns.length;

      expect(await migrateToLatest(db)).toContain('0015_search_pages_postgres');

      let backfilled: { page_id: string; revision_id: string; tsv: string; title_tsv: string }[] = [];
      if (testDialect === 'postgres') {
        backfilled = (await sql<{ page_id: string; revision_id: string; tsv: string; title_tsv: string }>`select page_id, revision_id, tsv::text as tsv, title_tsv::text as title_tsv from search_page_vectors order by page_id`.execute(db)).rows;
        expect(backfilled.map((r) => r.page_id)).toEqual(Object.values(pages).sort());
        expect(backfilled.every((r) => r.revision_id === revision)).toBe(true);
        // Title A, headings B, text D.
        const tools = backfilled.find((r) => r.page_id === pages.tools)!.tsv;
        expect(tools).toMatch(/'tool':\d+A/);
        expect(tools).toMatch(/'rake':\d+B/);
        expect(tools).toMatch(/'leav':\d+( |$)/);
        expect(backfilled.find((r) => r.page_id === pages.tools)!.title_tsv).toBe("'tool':1");
        const indexes = (await sql<{ indexname: string }>`select indexname from pg_indexes where schemaname = current_schema() and tablename in ('search_page_vectors', 'search_sections')`.execute(db)).rows.map((r) => r.indexname);
        expect(indexes).toEqual(expect.arrayContaining(['search_page_vectors_tsv', 'search_page_vectors_title']));
        expect(indexes).not.toContain('search_sections_tsv');
        // Without a pending list, which a search would scan whole until a vacuum.
        const options = (await sql<{ relname: string; reloptions: string[] }>`select relname, reloptions from pg_class where relname in ('search_page_vectors_tsv', 'search_page_vectors_title') and relnamespace = current_schema()::regnamespace`.execute(db)).rows;
        expect(options).toHaveLength(2);
        expect(options.every((o) => o.reloptions.includes('fastupdate=off'))).toBe(true);
        expect(await db.selectFrom('search_index_state').select('revision_id').execute()).toEqual([{ revision_id: revision }]);
      } else {
        const tables = (await sql<{ name: string }>`select name from sqlite_master`.execute(db)).rows.map((r) => r.name);
        expect(tables).not.toContain('search_page_vectors');
      }

      const search = async (query: string) => {
        const res = await app.inject({ method: 'GET', url: `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}`, headers });
        expect(res.statusCode, res.body).toBe(200);
        return JSON.parse(res.body);
      };
      // Both words, in two sections of one page: the page matches; the title match comes first.
      const both = await search('rake orchids');
      expect(both.count).toBe(2);
      expect(both.items.map((i: any) => i.id)).toEqual([pages.orchids, pages.tools]);
      expect(both.items[1].sections.map((s: any) => s.id).sort()).toEqual(['orchids', 'rakes']);
      expect((await search('frogs')).items.map((i: any) => i.id)).toEqual([pages.pond]);
      expect((await search('frogs rake')).count).toBe(0);
      // The upgraded index served these searches: nothing was indexed again.
      expect(indexRuns.length).toBe(runsBefore);

      if (testDialect === 'postgres') {
        // Indexed again from nothing, the pages get the vectors the migration computed.
        // (The words in another order: the result of 'rake orchids' is kept, keyed by the revision searched.)
        await db.deleteFrom('search_index_state').where('space_id', '=', spaceId).execute();
        expect((await search('orchids rake')).items.map((i: any) => i.id)).toEqual([pages.orchids, pages.tools]);
        expect(indexRuns.at(-1)).toMatchObject({ spaceId, from: null, to: revision, indexed: 3 });
        const rewritten = (await sql<{ page_id: string; revision_id: string; tsv: string; title_tsv: string }>`select page_id, revision_id, tsv::text as tsv, title_tsv::text as title_tsv from search_page_vectors order by page_id`.execute(db)).rows;
        expect(rewritten).toEqual(backfilled);
      }
    } finally {
      await app.close();
    }
  });
});
