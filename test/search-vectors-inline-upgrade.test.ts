import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrate.ts';
import { editSpaceContent } from '../src/modules/content/content.service.ts';
import { indexRuns } from '../src/modules/search/search.service.ts';
import { testDialect } from './app.ts';
import { appOnOlderSchema, upgradeDatabase } from './upgrade.ts';

/*
 * Migration 0020 keeps PostgreSQL's page vectors in search_page_vectors' own rows (up to a
 * row of 8 KB) instead of its TOAST table, where ranking read them back chunk by chunk.
 * The vectors written before are moved in, unchanged, and the next search uses them
 * without indexing again. SQLite has no such table: nothing changes.
 */
describe.runIf(testDialect === 'postgres')('search vectors kept inline (migration 0020)', () => {
  const database = upgradeDatabase('quire-upgrade-inline');

  /** Live rows in search_page_vectors' TOAST table. */
  const toasted = async () => {
    const db = database.handle.db;
    const { rows } = await sql<{ toast: string }>`select reltoastrelid::regclass::text as toast from pg_class where oid = 'search_page_vectors'::regclass`.execute(db);
    return Number((await sql<{ n: string }>`select count(*) as n from ${sql.raw(rows[0].toast)}`.execute(db)).rows[0].n);
  };

  it('moves the vectors written before into the rows, unchanged, and searches them without indexing again', async () => {
    const { app, db, admin, headers, spaceId } = await appOnOlderSchema(database, '0019_drop_directory_version', 'Manual');
    try {
      // Pages whose vector is about 4 KB of words that hardly compress: PostgreSQL moves such a
      // value out of the row by default, and keeps it in the row after 0020.
      let seed = 7;
      const letter = () => String.fromCharCode(97 + ((seed = (seed * 48271) % 2147483647) % 26));
      const words = Array.from({ length: 250 }, () => Array.from({ length: 8 }, letter).join('')).join(' ');
      const pages: string[] = [];
      await editSpaceContent(app.deps, spaceId, admin.id, (e) => {
        for (let i = 0; i < 3; i++) pages.push(e.insertPage({ title: `Chapter ${i}`, markdown: `Gardening ${i}.\n\n${words}\n` }));
      });
      const search = async (query: string) => {
        const res = await app.inject({ method: 'GET', url: `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}`, headers });
        expect(res.statusCode, res.body).toBe(200);
        return JSON.parse(res.body);
      };
      expect((await search('gardening')).count).toBe(3);
      const vectors = async () => (await sql<{ page_id: string; tsv: string }>`select page_id, tsv::text as tsv from search_page_vectors order by page_id`.execute(db)).rows;
      const before = await vectors();
      expect(before).toHaveLength(3);
      expect(await toasted()).toBeGreaterThan(0);
      const runsBefore = indexRuns.length;

      expect(await migrateToLatest(db)).toContain('0020_search_vectors_inline');

      expect(await toasted()).toBe(0);
      expect(await vectors()).toEqual(before);
      const { rows } = await sql<{ options: string[] }>`select reloptions as options from pg_class where oid = 'search_page_vectors'::regclass`.execute(db);
      expect(rows[0].options).toContain('toast_tuple_target=8160');
      const found = await search('gardening 1');
      expect(found.items.map((i: any) => i.id)).toEqual([pages[1]]);
      expect((await search(words.split(' ')[100])).count).toBe(3);
      expect(indexRuns.length).toBe(runsBefore);

      // Pages indexed after the migration are kept in the rows too.
      await editSpaceContent(app.deps, spaceId, admin.id, (e) => {
        e.insertPage({ title: 'Appendix', markdown: `Pruning.\n\n${words}\n` });
      });
      expect((await search('pruning')).count).toBe(1);
      expect(await toasted()).toBe(0);
    } finally {
      await app.close();
    }
  });
});
