import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrate.ts';
import { editSpaceContent } from '../src/modules/content/content.service.ts';
import { indexRuns } from '../src/modules/search/search.service.ts';
import { testDialect } from './app.ts';
import { appOnOlderSchema, upgradeDatabase } from './upgrade.ts';

/*
 * Upgrading a database whose search index was written before migration 0010. SQLite (a
 * section-level FTS5 table, page rows without an outline): the index is emptied, and the
 * next search indexes the space again and finds its pages. PostgreSQL: 0010 leaves its
 * index as it is, and the next search uses it without indexing again.
 */
describe('search index upgrade (migration 0010)', () => {
  const database = upgradeDatabase('quire-upgrade');

  it(testDialect === 'postgres' ? 'keeps the PostgreSQL index, which the next search uses' : 'empties the old index and indexes each space again on its next search', async () => {
    const { app, db, admin, headers, spaceId } = await appOnOlderSchema(database, '0009_pdf_exports', 'Handbook');
    try {
      let pageId = '';
      await editSpaceContent(app.deps, spaceId, admin.id, (e) => {
        pageId = e.insertPage({ title: 'Gardening', markdown: '# Tools\n\nA rake and a spade.\n' });
      });
      const revision = (await db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow()).revision_id!;

      // The index as 0008 wrote it, marked current for this revision.
      await sql`insert into search_sections (space_id, page_id, position, section_id, page_title, section_title, body, revision_id)
        values (${spaceId}, ${pageId}, 0, 'tools', 'Gardening', 'Tools', 'A rake and a spade.', ${revision})`.execute(db);
      if (testDialect === 'sqlite') {
        await sql`insert into search_pages (space_id, page_id, page_title, body) values (${spaceId}, ${pageId}, 'Gardening', ${'Tools\nA rake and a spade.\n'})`.execute(db);
      }
      await sql`insert into search_index_state (space_id, revision_id, updated_at) values (${spaceId}, ${revision}, '2026-01-01T00:00:00.000Z')`.execute(db);
      const runsBefore = indexRuns.length;

      // 0010 runs first; later migrations (which do not touch the index) follow it.
      const applied = await migrateToLatest(db);
      expect(applied[0]).toBe('0010_search_by_space');
      expect(applied.every((name) => name >= '0010_search_by_space')).toBe(true);
      if (testDialect === 'sqlite') {
        const tables = (await sql<{ name: string }>`select name from sqlite_master`.execute(db)).rows.map((r) => r.name);
        expect(tables).not.toContain('search_fts');
        expect(tables).toEqual(expect.arrayContaining(['search_pages_fts', 'search_pages_vocab']));
        expect(await db.selectFrom('search_index_state').selectAll().execute()).toEqual([]);
        expect(await db.selectFrom('search_pages').selectAll().execute()).toEqual([]);
        expect(await db.selectFrom('search_sections').selectAll().execute()).toEqual([]);
      } else {
        expect(await db.selectFrom('search_index_state').select('revision_id').execute()).toEqual([{ revision_id: revision }]);
        expect(await db.selectFrom('search_sections').select(['page_id', 'section_id']).execute()).toEqual([{ page_id: pageId, section_id: 'tools' }]);
      }

      const found = await app.inject({ method: 'GET', url: `/v1/spaces/${spaceId}/search?query=spade`, headers });
      expect(found.statusCode, found.body).toBe(200);
      const body = JSON.parse(found.body);
      expect(body.count).toBe(1);
      expect(body.items[0]).toMatchObject({ id: pageId, title: 'Gardening', sections: [expect.objectContaining({ id: 'tools', body: 'A rake and a spade.' })] });
      if (testDialect === 'sqlite') {
        expect(indexRuns.at(-1)).toMatchObject({ spaceId, from: null, to: revision, indexed: 1 });
        const rows = await db.selectFrom('search_pages').select(['page_id', 'outline', 'revision_id']).execute();
        expect(rows).toEqual([{ page_id: pageId, outline: JSON.stringify([['tools', 5, 19]]), revision_id: revision }]);
      } else {
        expect(indexRuns.length).toBe(runsBefore);
      }
    } finally {
      await app.close();
    }
  });
});
