import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { UsersTable } from '../../db/types.ts';

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;

/** Queries on users and their API tokens. */
export const usersRepository = {
  findById(db: Db, id: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  },

  findByEmail(db: Db, email: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
  },

  findManyByEmails(db: Db, emails: string[]): Promise<UserRow[]> {
    if (emails.length === 0) return Promise.resolve([]);
    return db.selectFrom('users').selectAll().where('email', 'in', emails).execute();
  },

  async insert(db: Db, row: NewUserRow): Promise<void> {
    await db.insertInto('users').values(row).execute();
  },

  /** True when both users belong to at least one common organization. */
  async shareAnOrganization(db: Db, userA: string, userB: string): Promise<boolean> {
    const row = await db
      .selectFrom('members as a')
      .innerJoin('members as b', 'b.organization_id', 'a.organization_id')
      .select('a.organization_id')
      .where('a.user_id', '=', userA)
      .where('b.user_id', '=', userB)
      .where('a.disabled', '=', 0)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  async insertToken(
    db: Db,
    row: { id: string; user_id: string; token_hash: string; label: string | null; created_at: string; organization_id: string | null },
  ): Promise<void> {
    // An unscoped token leaves organization_id to its default (null), so tokens made by this
    // code also go into databases not yet migrated past 0023 (the upgrade tests make them).
    const { organization_id, ...unscoped } = row;
    await db.insertInto('api_tokens').values({ ...unscoped, revoked_at: null, ...(organization_id ? { organization_id } : {}) }).execute();
  },

  /** `selectAll`: a database not yet past migration 0023 has no organization_id (read as unscoped), and the upgrade tests authenticate on such schemas. */
  findActiveTokenByHash(db: Db, hash: string) {
    return db
      .selectFrom('api_tokens')
      .selectAll()
      .where('token_hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  },

  /** Marks a token revoked; returns false when no active token has that id. */
  async revokeToken(db: Db, tokenId: string, at: string): Promise<boolean> {
    const result = await db
      .updateTable('api_tokens')
      .set({ revoked_at: at })
      .where('id', '=', tokenId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async setInstallationAdmin(db: Db, userId: string, admin: boolean): Promise<void> {
    await db.updateTable('users').set({ installation_admin: admin ? 1 : 0 }).where('id', '=', userId).execute();
  },
};
