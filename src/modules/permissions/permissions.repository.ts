import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ContentPermissionsTable, DefaultLevel, RoleName } from '../../db/types.ts';

export type GrantRow = ContentPermissionsTable;

/** One collection on the way from a space (or collection) up to the organization root. */
export interface CollectionLink {
  id: string;
  parent_id: string | null;
  default_level: DefaultLevel;
  depth: number;
}

/** Queries on content permission grants (users and teams given a role on a space or collection). */
export const permissionsRepository = {
  /**
   * The collection `collectionId` and its ancestors, nearest first (depth 0 is the
   * collection itself). One recursive query; both dialects support WITH RECURSIVE.
   */
  async collectionChain(db: Db, collectionId: string | null): Promise<CollectionLink[]> {
    if (!collectionId) return [];
    const result = await sql<CollectionLink>`
      with recursive chain(id, parent_id, default_level, depth) as (
        select id, parent_id, default_level, 0 from collections where id = ${collectionId}
        union all
        select c.id, c.parent_id, c.default_level, chain.depth + 1
          from collections c join chain on c.id = chain.parent_id
          where chain.depth < 64
      )
      select id, parent_id, default_level, depth from chain order by depth`.execute(db);
    return result.rows.map((r) => ({ ...r, depth: Number(r.depth) }));
  },

  /** Roles given to the user, directly or through their teams, on any of these targets. */
  async rolesOn(db: Db, organizationId: string, userId: string, targetIds: string[]): Promise<{ target_id: string; role: RoleName }[]> {
    if (targetIds.length === 0) return [];
    return db
      .selectFrom('content_permissions as g')
      .select(['g.target_id', 'g.role'])
      .where('g.organization_id', '=', organizationId)
      .where('g.target_id', 'in', targetIds)
      .where((eb) =>
        eb.or([
          eb.and([eb('g.principal_type', '=', 'user'), eb('g.principal_id', '=', userId)]),
          eb.and([
            eb('g.principal_type', '=', 'team'),
            eb(
              'g.principal_id',
              'in',
              eb.selectFrom('team_members as tm').select('tm.team_id').where('tm.user_id', '=', userId).where('tm.organization_id', '=', organizationId),
            ),
          ]),
        ]),
      )
      .execute();
  },

  /** Every target of a kind in the organization on which the user holds a grant (directly or by team). */
  async grantedTargets(db: Db, organizationId: string, userId: string, targetType: 'space' | 'collection'): Promise<string[]> {
    const rows = await db
      .selectFrom('content_permissions as g')
      .select('g.target_id')
      .distinct()
      .where('g.organization_id', '=', organizationId)
      .where('g.target_type', '=', targetType)
      .where((eb) =>
        eb.or([
          eb.and([eb('g.principal_type', '=', 'user'), eb('g.principal_id', '=', userId)]),
          eb.and([
            eb('g.principal_type', '=', 'team'),
            eb(
              'g.principal_id',
              'in',
              eb.selectFrom('team_members as tm').select('tm.team_id').where('tm.user_id', '=', userId).where('tm.organization_id', '=', organizationId),
            ),
          ]),
        ]),
      )
      .execute();
    return rows.map((r) => r.target_id);
  },

  /** Every collection of the organization, as parent links (for walking trees in memory). */
  orgCollections(db: Db, organizationId: string): Promise<{ id: string; parent_id: string | null; default_level: DefaultLevel }[]> {
    return db
      .selectFrom('collections')
      .select(['id', 'parent_id', 'default_level'])
      .where('organization_id', '=', organizationId)
      .execute();
  },

  /** Removes every grant on these targets (a space or collection leaving for good or for another organization). */
  async deleteForTargets(db: Db, targetIds: string[]): Promise<void> {
    if (targetIds.length === 0) return;
    await db.deleteFrom('content_permissions').where('target_id', 'in', targetIds).execute();
  },
};
