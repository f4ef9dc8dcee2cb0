import type { Db } from '../../db/database.ts';

/** Queries of the app area's own pages (account, sign-in); content comes through the modules' services. */
export const appAreaRepository = {
  /** An organization by ID or by its hostname (the organization sign-in page). */
  async organizationByIdOrHostname(db: Db, key: string) {
    return db
      .selectFrom('organizations')
      .select(['id', 'title'])
      .where((eb) => eb.or([eb('id', '=', key), eb('hostname', '=', key.toLowerCase())]))
      .executeTakeFirst();
  },

  /** One organization's SAML providers, oldest first. */
  async providersOf(db: Db, organizationId: string) {
    return db.selectFrom('saml_providers').select(['id', 'label']).where('organization_id', '=', organizationId).orderBy('created_at').orderBy('id').execute();
  },

  async user(db: Db, userId: string) {
    return db.selectFrom('users').select(['id', 'display_name', 'email']).where('id', '=', userId).executeTakeFirst();
  },

  /** The user's active memberships with the organization's SSO enforcement. */
  async memberships(db: Db, userId: string) {
    return db
      .selectFrom('members as m')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id')
      .select(['o.id', 'o.title', 'o.sso as organization_sso', 'm.role', 'm.sso as member_sso'])
      .where('m.user_id', '=', userId)
      .where('m.disabled', '=', 0)
      .orderBy('o.title')
      .execute();
  },

  async organizationSso(db: Db, organizationId: string) {
    return db.selectFrom('organizations').select(['id', 'sso']).where('id', '=', organizationId).executeTakeFirst();
  },

  async spaceOrganization(db: Db, spaceId: string) {
    return db.selectFrom('spaces').select(['organization_id']).where('id', '=', spaceId).executeTakeFirst();
  },

  /** The user's active tokens; with `scope`, only those scoped to that organization. */
  async activeTokens(db: Db, userId: string, scope: string | null) {
    let query = db
      .selectFrom('api_tokens')
      .select(['id', 'label', 'created_at'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (scope !== null) query = query.where('organization_id', '=', scope);
    return query.orderBy('created_at', 'desc').execute();
  },

  /** Revokes one of the user's own tokens (with `scope`: one scoped to it); false when not theirs or already revoked. */
  async revokeOwnToken(db: Db, userId: string, tokenId: string, at: string, scope: string | null): Promise<boolean> {
    let query = db
      .updateTable('api_tokens')
      .set({ revoked_at: at })
      .where('id', '=', tokenId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (scope !== null) query = query.where('organization_id', '=', scope);
    const result = await query
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },
};
