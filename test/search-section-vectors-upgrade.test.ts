import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrate.ts';
import { editSpaceContent } from '../src/modules/content/content.service.ts';
import { indexRuns } from '../src/modules/search/search.service.ts';
import { testDialect } from './app.ts';
import { appOnOlderSchema, upgradeDatabase } from './upgrade.ts';

/*
 * Migration 0021 makes each PostgreSQL section row's tsvector its heading's and text's
 * only (it held the page title too, which every read filtered out). The vectors are made
 * again from the rows, the same sections hold a query's words with the same ranks as
 * when the title was filtered out, and nothing is indexed again. SQLite has no such column.
 */
describe.runIf(testDialect === 'postgres')('section vectors without the page title (migration 0021)', () => {
  const database = upgradeDatabase('quire-upgrade-sections');

  it('rewrites the section vectors from their rows: same sections and ranks, nothing indexed again', async () => {
    const { app, db, admin, headers, spaceId } = await appOnOlderSchema(database, '0020_search_vectors_inline', 'Greenhouse');
    try {
      await editSpaceContent(app.deps, spaceId, admin.id, (e) => {
        // The title's words are in its sections too, so the old vectors held them twice (A, and B or D).
        e.insertPage({
          title: 'Orchids and ferns',
          markdown: 'Orchids like shade; ferns like it more.\n\n# Watering orchids\n\nWater orchids weekly, ferns daily. Orchids rot when over-watered.\n\n# Potting\n\nA loose bark mix.\n',
        });
        e.insertPage({ title: 'Ferns', markdown: 'Ferns grow beside orchids.\n\n# Orchids among ferns\n\nKeep orchids above the ferns.\n' });
        e.insertPage({ title: 'Tools', markdown: 'A rake, a trowel.\n\n# Orchid pots\n\nClear pots let orchid roots see light.\n' });
      });
      const search = async (query: string) => {
        const res = await app.inject({ method: 'GET', url: `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}`, headers });
        expect(res.statusCode, res.body).toBe(200);
        return JSON.parse(res.body);
      };
      // The space is indexed by its first search (this build reads the vectors as 0021 makes them: not its answer).
      await search('orchids');
      const queries = ['orchids:* | orchid | orchi | orch', 'fern', 'water:* | wate | wat', 'rake', 'orch:*'];
      /** Which sections hold each query's words and their rank, by the vector as read before (filtered) or after. */
      const sectionRanks = async (vector: 'ts_filter(tsv, \'{b,d}\')' | 'tsv') => {
        const ranks = [];
        for (const query of queries) {
          const { rows } = await sql<{ page_id: string; position: number; holds: boolean; rank: number }>`
            select page_id, position, ${sql.raw(vector)} @@ q as holds, ts_rank(${sql.raw(vector)}, q) as rank
            from search_sections, to_tsquery('english'::regconfig, ${query}) as q
            order by page_id, position`.execute(db);
          ranks.push(rows);
        }
        return ranks;
      };
      const vectors = async () =>
        (await sql<{ page_id: string; position: number; tsv: string; expected: string }>`
          select page_id, position, tsv::text as tsv,
            (setweight(to_tsvector('english'::regconfig, section_title), 'B') || setweight(to_tsvector('english'::regconfig, body), 'D'))::text as expected
          from search_sections order by page_id, position`.execute(db)).rows;
      const old = await vectors();
      expect(old).toHaveLength(7);
      expect(old.some((r) => /:\d+A/.test(r.tsv))).toBe(true);
      const ranksBefore = await sectionRanks("ts_filter(tsv, '{b,d}')");
      expect(ranksBefore[0].filter((r) => r.holds)).toHaveLength(5);
      const runsBefore = indexRuns.length;

      expect(await migrateToLatest(db)).toContain('0021_section_vectors');

      const rewritten = await vectors();
      expect(rewritten.map((r) => [r.page_id, r.position])).toEqual(old.map((r) => [r.page_id, r.position]));
      for (const row of rewritten) {
        expect(row.tsv).toBe(row.expected);
        expect(row.tsv).not.toMatch(/\d+A/);
      }
      // The same sections hold each query's words, with the same ranks, as when the title was filtered out.
      expect(await sectionRanks('tsv')).toEqual(ranksBefore);
      app.deps.caches.searchResults.clear();
      const found = await search('orchids');
      expect(found.count).toBe(3);
      // "Orchids and ferns": the two sections naming orchids, not "Potting", whose page title alone does.
      expect(found.items[0].sections.map((s: { title: string }) => s.title)).toEqual(['Watering orchids', 'Orchids and ferns']);
      expect(indexRuns.length).toBe(runsBefore);

      // Pages indexed after the migration get the new vectors too.
      await editSpaceContent(app.deps, spaceId, admin.id, (e) => {
        e.insertPage({ title: 'Orchid care', markdown: 'Mist the orchids.\n' });
      });
      expect((await search('mist')).count).toBe(1);
      for (const row of await vectors()) expect(row.tsv).toBe(row.expected);
    } finally {
      await app.close();
    }
  });
});
