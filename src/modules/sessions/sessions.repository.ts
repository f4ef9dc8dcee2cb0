import type { Db } from '../../db/database.ts';
import type { LoginLinksTable, SessionsTable } from '../../db/types.ts';

export type SessionRow = SessionsTable;

/** Queries of browser sessions and one-time login links (both stored as hashes only). */
export const sessionsRepository = {
  async insert(db: Db, row: SessionRow): Promise<void> {
    await db.insertInto('sessions').values(row).execute();
  },

  async revoke(db: Db, idHash: string, now: string): Promise<void> {
    await db.updateTable('sessions').set({ revoked_at: now }).where('id_hash', '=', idHash).where('revoked_at', 'is', null).execute();
  },

  async insertLoginLink(db: Db, row: LoginLinksTable): Promise<void> {
    await db.insertInto('login_links').values(row).execute();
  },

  /**
   * Marks an unused, unexpired link used and returns its user; undefined when the link is
   * unknown, used or expired. One conditional UPDATE, so two clicks cannot both win.
   */
  async consumeLoginLink(db: Db, secretHash: string, now: string): Promise<string | undefined> {
    const row = await db
      .updateTable('login_links')
      .set({ used_at: now })
      .where('secret_hash', '=', secretHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  },
};
