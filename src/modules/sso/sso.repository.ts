import type { Db } from '../../db/database.ts';
import type { MembersTable, RoleName } from '../../db/types.ts';

/** Queries of the SAML sign-in flow. */
export const ssoRepository = {
  async insertRequest(db: Db, row: { id: string; provider_id: string; created_at: string; expires_at: string; browser_hash: string }): Promise<void> {
    await db.insertInto('saml_requests').values(row).execute();
  },

  /** A request this provider was sent from this browser, when not yet answered nor expired. */
  async findRequest(db: Db, providerId: string, id: string, browserHash: string, now: string) {
    return db
      .selectFrom('saml_requests')
      .select(['id', 'created_at'])
      .where('id', '=', id)
      .where('provider_id', '=', providerId)
      .where('browser_hash', '=', browserHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  },

  async deleteRequest(db: Db, providerId: string, id: string, browserHash: string): Promise<void> {
    await db.deleteFrom('saml_requests').where('id', '=', id).where('provider_id', '=', providerId).where('browser_hash', '=', browserHash).execute();
  },

  /** Forgets requests and accepted assertions past their expiry (they can no longer be answered or replayed). */
  async sweep(db: Db, now: string): Promise<void> {
    await db.deleteFrom('saml_requests').where('expires_at', '<=', now).execute();
    await db.deleteFrom('saml_assertions').where('expires_at', '<=', now).execute();
  },

  /** Records an accepted assertion; throws a unique violation when it was accepted before (replay). */
  async insertAssertion(db: Db, row: { provider_id: string; assertion_id: string; accepted_at: string; expires_at: string }) {
    await db.insertInto('saml_assertions').values(row).execute();
  },

  async findMembership(db: Db, organizationId: string, userId: string): Promise<MembersTable | undefined> {
    return db
      .selectFrom('members')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  },

  async insertMember(db: Db, organizationId: string, userId: string, role: RoleName | null, at: string): Promise<void> {
    await db
      .insertInto('members')
      .values({ organization_id: organizationId, user_id: userId, role, disabled: 0, sso: 1, joined_at: at, last_seen_at: at })
      .execute();
  },

  async markSso(db: Db, organizationId: string, userId: string, at: string): Promise<void> {
    await db
      .updateTable('members')
      .set({ sso: 1, last_seen_at: at })
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .execute();
  },

  async teamExists(db: Db, organizationId: string, teamId: string): Promise<boolean> {
    const row = await db.selectFrom('teams').select('id').where('organization_id', '=', organizationId).where('id', '=', teamId).executeTakeFirst();
    return row !== undefined;
  },

  async addToTeam(db: Db, organizationId: string, teamId: string, userId: string, at: string): Promise<void> {
    await db
      .insertInto('team_members')
      .values({ team_id: teamId, organization_id: organizationId, user_id: userId, role: 'member', added_at: at })
      .onConflict((oc) => oc.doNothing())
      .execute();
  },
};
