import { sql } from 'kysely';
import type { Db, DialectName } from '../../db/database.ts';

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

/** One editor client's stored awareness state. */
export interface CollabAwarenessRow {
  client_id: number;
  user_id: string;
  data: string;
  updated_at: string;
}

const ofDoc = (key: CollabDocKey) => ({ change_request_id: key.changeRequestId, page_id: key.pageId });

export const collabRepository = {
  /**
   * Runs `work` in a transaction that holds the document's lock: opening a document (taking
   * it and reading its rows) and deleting its rows when the last process leaves never
   * interleave. SQLite's transactions already hold the write lock (BEGIN IMMEDIATE);
   * PostgreSQL takes an advisory lock for this document until the transaction ends.
   */
  async withDocLock<T>(db: Db, dialect: DialectName, key: CollabDocKey, work: (trx: Db) => Promise<T>): Promise<T> {
    return db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(current_schema() || ':quire-collab:' || ${key.changeRequestId} || '/' || ${key.pageId}))`.execute(trx);
      return work(trx);
    });
  },

  /** Records (or renews) that `processId` has the document open. */
  async holdRoom(db: Db, key: CollabDocKey, processId: string, now: string): Promise<void> {
    await db
      .insertInto('collab_rooms')
      .values({ ...ofDoc(key), process_id: processId, seen_at: now })
      .onConflict((oc) => oc.columns(['change_request_id', 'page_id', 'process_id']).doUpdateSet({ seen_at: now }))
      .execute();
  },

  async releaseRoom(db: Db, key: CollabDocKey, processId: string): Promise<void> {
    await db.deleteFrom('collab_rooms').where('change_request_id', '=', key.changeRequestId).where('page_id', '=', key.pageId).where('process_id', '=', processId).execute();
  },

  /** How many other processes hold the document, renewed at or after `since`. */
  async otherHolders(db: Db, key: CollabDocKey, processId: string, since: string): Promise<number> {
    const row = await db
      .selectFrom('collab_rooms')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('change_request_id', '=', key.changeRequestId)
      .where('page_id', '=', key.pageId)
      .where('process_id', '<>', processId)
      .where('seen_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The pages of a change request that have stored live edits. */
  async pagesOf(db: Db, changeRequestId: string): Promise<string[]> {
    const rows = await db.selectFrom('collab_updates').select('page_id').distinct().where('change_request_id', '=', changeRequestId).execute();
    return rows.map((row) => row.page_id);
  },

  /** Deletes everything stored of a document: its updates, holders and awareness states. */
  async clearDoc(db: Db, key: CollabDocKey): Promise<void> {
    for (const table of ['collab_updates', 'collab_rooms', 'collab_awareness'] as const) {
      await db.deleteFrom(table).where('change_request_id', '=', key.changeRequestId).where('page_id', '=', key.pageId).execute();
    }
  },

  async putAwareness(db: Db, key: CollabDocKey, client: { id: number; userId: string }, processId: string, data: Uint8Array, now: string): Promise<void> {
    const encoded = Buffer.from(data).toString('base64');
    await db
      .insertInto('collab_awareness')
      .values({ ...ofDoc(key), client_id: client.id, user_id: client.userId, process_id: processId, data: encoded, updated_at: now })
      .onConflict((oc) => oc.columns(['change_request_id', 'page_id', 'client_id']).doUpdateSet({ user_id: client.userId, process_id: processId, data: encoded, updated_at: now }))
      .execute();
  },

  async deleteAwareness(db: Db, key: CollabDocKey, clientIds: number[]): Promise<void> {
    if (clientIds.length === 0) return;
    await db.deleteFrom('collab_awareness').where('change_request_id', '=', key.changeRequestId).where('page_id', '=', key.pageId).where('client_id', 'in', clientIds).execute();
  },

  /** The awareness states other processes stored for the document, renewed at or after `since`. */
  async othersAwareness(db: Db, key: CollabDocKey, processId: string, since: string): Promise<CollabAwarenessRow[]> {
    const rows = await db
      .selectFrom('collab_awareness')
      .select(['client_id', 'user_id', 'data', 'updated_at'])
      .where('change_request_id', '=', key.changeRequestId)
      .where('page_id', '=', key.pageId)
      .where('process_id', '<>', processId)
      .where('updated_at', '>=', since)
      .execute();
    return rows.map((row) => ({ ...row, client_id: Number(row.client_id) }));
  },

  /** Deletes the document's holders and awareness states not renewed since `before` (a process that stopped without leaving). */
  async expire(db: Db, key: CollabDocKey, before: string): Promise<void> {
    await db.deleteFrom('collab_rooms').where('change_request_id', '=', key.changeRequestId).where('page_id', '=', key.pageId).where('seen_at', '<', before).execute();
    await db.deleteFrom('collab_awareness').where('change_request_id', '=', key.changeRequestId).where('page_id', '=', key.pageId).where('updated_at', '<', before).execute();
  },

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

  /**
   * Replaces the rows `ids` (those `merged` was made of) by one merged update, in one
   * transaction (the caller's, if it is one). By ids, not up to the last one: a row given a
   * lower id may commit after the rows were read (PostgreSQL), and is not in `merged`.
   */
  async compact(db: Db, key: CollabDocKey, ids: number[], processId: string, merged: Uint8Array, now: string): Promise<void> {
    const inTransaction = <T>(work: (trx: Db) => Promise<T>) => (db.isTransaction ? work(db) : db.transaction().execute(work));
    await inTransaction(async (trx) => {
      await trx.deleteFrom('collab_updates').where('change_request_id', '=', key.changeRequestId).where('page_id', '=', key.pageId).where('id', 'in', ids).execute();
      await trx
        .insertInto('collab_updates')
        .values({ change_request_id: key.changeRequestId, page_id: key.pageId, process_id: processId, data: Buffer.from(merged).toString('base64'), size: merged.length, created_at: now })
        .execute();
    });
  },
};
