import type { Db } from '../../db/database.ts';
import type { PdfExportsTable } from '../../db/types.ts';

export type PdfExportRow = PdfExportsTable;

/** Generated PDF exports (migration 0009): what each file was made from and until when it is served. */
export const pdfRepository = {
  /** A live export of this revision and selection (the latest to expire), to reuse. */
  async findReusable(db: Db, spaceId: string, revisionId: string, selection: string, now: string): Promise<PdfExportRow | undefined> {
    return db
      .selectFrom('pdf_exports')
      .selectAll()
      .where('space_id', '=', spaceId)
      .where('revision_id', '=', revisionId)
      .where('selection', '=', selection)
      .where('expires_at', '>', now)
      .orderBy('expires_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  },

  /** Pushes a live export's expiry to `expiresAt`; false when it expired meanwhile (a sweep may be removing it). */
  async extend(db: Db, id: string, now: string, expiresAt: string): Promise<boolean> {
    const result = await db
      .updateTable('pdf_exports')
      .set({ expires_at: expiresAt })
      .where('id', '=', id)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async insert(db: Db, row: PdfExportRow): Promise<void> {
    await db.insertInto('pdf_exports').values(row).execute();
  },

  /** An export whose space is live (not deleted), expired or not. */
  async findServable(db: Db, id: string): Promise<PdfExportRow | undefined> {
    return db
      .selectFrom('pdf_exports as e')
      .innerJoin('spaces as s', 's.id', 'e.space_id')
      .selectAll('e')
      .where('e.id', '=', id)
      .where('s.deleted_at', 'is', null)
      .executeTakeFirst();
  },

  /** Deletes the row if it has expired; true when this call deleted it (and so removes its file). */
  async deleteIfExpired(db: Db, id: string, now: string): Promise<boolean> {
    const result = await db.deleteFrom('pdf_exports').where('id', '=', id).where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  async findById(db: Db, id: string): Promise<PdfExportRow | undefined> {
    return db.selectFrom('pdf_exports').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Whether any export's bytes are the file of this hash. */
  async holdsFile(db: Db, hash: string): Promise<boolean> {
    return (await db.selectFrom('pdf_exports').select('id').where('file_hash', '=', hash).limit(1).executeTakeFirst()) !== undefined;
  },

  async delete(db: Db, id: string): Promise<void> {
    await db.deleteFrom('pdf_exports').where('id', '=', id).execute();
  },

  /** Ids of expired exports, oldest first. */
  async expiredIds(db: Db, now: string, limit: number): Promise<string[]> {
    const rows = await db.selectFrom('pdf_exports').select('id').where('expires_at', '<=', now).orderBy('expires_at').limit(limit).execute();
    return rows.map((r) => r.id);
  },
};
