import type { Db } from '../../db/database.ts';
import { keysetOf, paginate, type Page, type PageRequest } from '../../lib/pagination/index.ts';
import type { GlossaryEntriesTable, TranslationPagesTable, TranslationsTable } from '../../db/types.ts';

export type TranslationRow = TranslationsTable;
export type TranslationPageRow = TranslationPagesTable;
export type GlossaryEntryRow = GlossaryEntriesTable;

/** Queries on translations, their page mappings and the organization's glossary. */
export const translationsRepository = {
  insert(db: Db, row: TranslationRow): Promise<unknown> {
    return db.insertInto('translations').values(row).execute();
  },

  find(db: Db, organizationId: string, id: string): Promise<TranslationRow | undefined> {
    return db.selectFrom('translations').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  },

  findById(db: Db, id: string): Promise<TranslationRow | undefined> {
    return db.selectFrom('translations').selectAll().where('id', '=', id).executeTakeFirst();
  },

  list(db: Db, organizationId: string, page: PageRequest): Promise<Page<TranslationRow>> {
    const query = db.selectFrom('translations').selectAll().where('organization_id', '=', organizationId);
    return paginate(
      query,
      keysetOf('asc', 'created_at', 'id'),
      page,
    ) as Promise<Page<TranslationRow>>;
  },

  update(db: Db, id: string, changes: Partial<TranslationRow>): Promise<unknown> {
    return db.updateTable('translations').set(changes).where('id', '=', id).execute();
  },

  delete(db: Db, organizationId: string, id: string): Promise<unknown> {
    return db.deleteFrom('translations').where('organization_id', '=', organizationId).where('id', '=', id).execute();
  },

  pages(db: Db, translationId: string): Promise<TranslationPageRow[]> {
    return db.selectFrom('translation_pages').selectAll().where('translation_id', '=', translationId).execute();
  },

  async upsertPages(db: Db, rows: TranslationPageRow[]): Promise<void> {
    // Chunks keep each statement under SQLite's bound-parameter limit.
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto('translation_pages')
        .values(rows.slice(i, i + 500))
        .onConflict((oc) =>
          oc.columns(['translation_id', 'source_page_id']).doUpdateSet((eb) => ({
            page_id: eb.ref('excluded.page_id'),
            source_hash: eb.ref('excluded.source_hash'),
            translated_at: eb.ref('excluded.translated_at'),
          })),
        )
        .execute();
    }
  },

  async deletePages(db: Db, translationId: string, sourcePageIds: string[]): Promise<void> {
    for (let i = 0; i < sourcePageIds.length; i += 500) {
      await db.deleteFrom('translation_pages').where('translation_id', '=', translationId).where('source_page_id', 'in', sourcePageIds.slice(i, i + 500)).execute();
    }
  },

  clearPages(db: Db, translationId: string): Promise<unknown> {
    return db.deleteFrom('translation_pages').where('translation_id', '=', translationId).execute();
  },

  glossary(db: Db, organizationId: string): Promise<GlossaryEntryRow[]> {
    return db.selectFrom('glossary_entries').selectAll().where('organization_id', '=', organizationId).orderBy('created_at').orderBy('id').execute();
  },

  findGlossaryEntry(db: Db, organizationId: string, id: string): Promise<GlossaryEntryRow | undefined> {
    return db.selectFrom('glossary_entries').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  },

  async countGlossary(db: Db, organizationId: string): Promise<number> {
    const row = await db.selectFrom('glossary_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('organization_id', '=', organizationId).executeTakeFirst();
    return Number(row?.n ?? 0);
  },

  insertGlossaryEntry(db: Db, row: GlossaryEntryRow): Promise<unknown> {
    return db.insertInto('glossary_entries').values(row).execute();
  },

  updateGlossaryEntry(db: Db, organizationId: string, id: string, translations: string, at: string): Promise<unknown> {
    return db.updateTable('glossary_entries').set({ translations, updated_at: at }).where('organization_id', '=', organizationId).where('id', '=', id).execute();
  },

  deleteGlossaryEntry(db: Db, organizationId: string, id: string): Promise<unknown> {
    return db.deleteFrom('glossary_entries').where('organization_id', '=', organizationId).where('id', '=', id).execute();
  },
};
