import type { Db } from '../../db/database.ts';

/** The key of a document edited together: one page of one change request. */
export interface CollabDocKey {
  changeRequestId: string;
  pageId: string;
}

export interface CollabUpdateRow {
  id: number;
  process_id: string;
  data: string;
  size: number;
  created_at: string;
}

const columns = ['id', 'process_id', 'data', 'size', 'created_at'] as const;
const asRow = (row: { id: number | string; process_id: string; data: string; size: number | string; created_at: string }): CollabUpdateRow => ({
  ...row,
  id: Number(row.id),
  size: Number(row.size),
});

export const collabRepository = {
  async insert(db: Db, key: CollabDocKey, processId: string, update: Uint8Array, now: string): Promise<void> {
    await db
      .insertInto('collab_updates')
      .values({ change_request_id: key.changeRequestId, page_id: key.pageId, process_id: processId, data: Buffer.from(update).toString('base64'), size: update.length, created_at: now })
      .execute();
  },

  /** The document's updates after `afterId`, oldest first. */
  async after(db: Db, key: CollabDocKey, afterId: number): Promise<CollabUpdateRow[]> {
    const rows = await db
      .selectFrom('collab_updates')
      .select(columns)
      .where('change_request_id', '=', key.changeRequestId)
      .where('page_id', '=', key.pageId)
      .where('id', '>', afterId)
      .orderBy('id')
      .execute();
    return rows.map(asRow);
  },

  /** Replaces the rows up to `throughId` by one merged update, in one transaction. */
  async compact(db: Db, key: CollabDocKey, throughId: number, processId: string, merged: Uint8Array, now: string): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('collab_updates').where('change_request_id', '=', key.changeRequestId).where('page_id', '=', key.pageId).where('id', '<=', throughId).execute();
      await trx
        .insertInto('collab_updates')
        .values({ change_request_id: key.changeRequestId, page_id: key.pageId, process_id: processId, data: Buffer.from(merged).toString('base64'), size: merged.length, created_at: now })
        .execute();
    });
  },
};
