import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import { selectTeams } from '../teams/teams.repository.ts';
import { paginate, type Page, type PageRequest } from '../../db/keyset.ts';
import type { ContentPermissionsTable, ContentVisibility, Database, DefaultLevel, RoleName } from '../../db/types.ts';
import { ROLES } from '../../policies/index.ts';

export type GrantRow = ContentPermissionsTable;

/** One collection on the way from a space (or collection) up to the organization root. */
export interface CollectionLink {
  id: string;
  parent_id: string | null;
  default_level: DefaultLevel;
  depth: number;
}

/** Grants `g` held by the user: given to them, or to a team of theirs in the organization. */
function heldBy(eb: ExpressionBuilder<Database & { g: ContentPermissionsTable }, 'g'>, organizationId: string, userId: string) {
  return eb.or([
    eb.and([eb('g.principal_type', '=', 'user'), eb('g.principal_id', '=', userId)]),
    eb.and([
      eb('g.principal_type', '=', 'team'),
      eb('g.principal_id', 'in', eb.selectFrom('team_members as tm').select('tm.team_id').where('tm.user_id', '=', userId).where('tm.organization_id', '=', organizationId)),
    ]),
  ]);
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
      .where((eb) => heldBy(eb, organizationId, userId))
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
      .where((eb) => heldBy(eb, organizationId, userId))
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

/* ------------------------------------------------------------------------------------
 * Grant management (permissions.routes.ts): targets, principals, grant lists, and who
 * can access a target with which effective role. Grants of users who left the
 * organization, and of teams that were deleted, stay in the table but are never shown
 * or counted: every list joins the current membership or team (docs/decisions/collections.md).
 * ---------------------------------------------------------------------------------- */

/** The fields of a space or collection that decide who may see it (`AccessTarget` in permissions.service.ts). */
export interface TargetRow {
  id: string;
  organization_id: string;
  parent_id: string | null;
  default_level: DefaultLevel;
  visibility?: ContentVisibility;
  share_key?: string;
  edit_mode?: 'live' | 'locked';
}

/** A user grant with the user's fields. */
export interface UserGrantView {
  user_id: string;
  display_name: string;
  email: string;
  photo_url: string | null;
  role: RoleName;
  granted_at: string;
}

/** A team grant with the team's counts and the caller's role in the team. */
export interface TeamGrantView {
  id: string;
  organization_id: string;
  title: string;
  created_at: string;
  members: number;
  spaces: number;
  caller_role: 'owner' | 'member' | null;
  role: RoleName;
  granted_at: string;
}

/** A member who can access a target, with their effective role as a rank (1 read .. 6 admin). */
export interface AccessView {
  user_id: string;
  joined_at: string;
  display_name: string;
  email: string;
  photo_url: string | null;
  rank: number;
}

/** Role name -> rank, in SQL (0 for anything else, null included). */
function rankOf(column: string) {
  const cases = ROLES.map((role, i) => sql`when ${sql.lit(role)} then ${sql.lit(i + 1)}`);
  return sql<number>`(case ${sql.ref(column)} ${sql.join(cases, sql` `)} else 0 end)`;
}

export const grantsRepository = {
  /** A space that is not deleted, or a collection, with the fields that decide access. */
  async findTarget(db: Db, kind: 'space' | 'collection', id: string): Promise<TargetRow | undefined> {
    if (kind === 'space') {
      return db
        .selectFrom('spaces')
        .select(['id', 'organization_id', 'parent_id', 'default_level', 'visibility', 'share_key', 'edit_mode'])
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    }
    return db.selectFrom('collections').select(['id', 'organization_id', 'parent_id', 'default_level']).where('id', '=', id).executeTakeFirst();
  },

  /** Roles granted to the user (directly or through a team) on every target (of a kind, when given) in the organization. */
  rolesOfKind(db: Db, organizationId: string, userId: string, targetType?: 'space' | 'collection'): Promise<{ target_id: string; role: RoleName }[]> {
    let query = db
      .selectFrom('content_permissions as g')
      .select(['g.target_id', 'g.role'])
      .where('g.organization_id', '=', organizationId);
    if (targetType) query = query.where('g.target_type', '=', targetType);
    return query
      .where((eb) => heldBy(eb, organizationId, userId))
      .execute();
  },

  /** Which of these team ids are teams of the organization. */
  async teamIds(db: Db, organizationId: string, teamIds: string[]): Promise<string[]> {
    if (teamIds.length === 0) return [];
    const rows = await db.selectFrom('teams').select('id').where('organization_id', '=', organizationId).where('id', 'in', teamIds).execute();
    return rows.map((r) => r.id);
  },

  /** Gives each principal `role` on the target; an existing grant takes the new role. */
  async upsert(db: Db, rows: GrantRow[]): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto('content_permissions')
      .values(rows)
      .onConflict((oc) => oc.columns(['target_id', 'principal_type', 'principal_id']).doUpdateSet((eb) => ({ role: eb.ref('excluded.role') })))
      .execute();
  },

  /** Changes the role of an existing grant; false when there is none. */
  async updateRole(db: Db, targetId: string, principalType: 'user' | 'team', principalId: string, role: RoleName): Promise<boolean> {
    const result = await db
      .updateTable('content_permissions')
      .set({ role })
      .where('target_id', '=', targetId)
      .where('principal_type', '=', principalType)
      .where('principal_id', '=', principalId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** Removes the grants of these principals on the target (nothing to remove is fine). */
  async remove(db: Db, targetId: string, principalType: 'user' | 'team', principalIds: string[]): Promise<void> {
    if (principalIds.length === 0) return;
    await db
      .deleteFrom('content_permissions')
      .where('target_id', '=', targetId)
      .where('principal_type', '=', principalType)
      .where('principal_id', 'in', principalIds)
      .execute();
  },

  /** Whether the principal holds a grant on the target (a current member or team). */
  async hasGrant(db: Db, targetId: string, principalType: 'user' | 'team', principalId: string): Promise<boolean> {
    const row = await db
      .selectFrom('content_permissions')
      .select('role')
      .where('target_id', '=', targetId)
      .where('principal_type', '=', principalType)
      .where('principal_id', '=', principalId)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** A page of the users granted a role on the target, oldest grant first; only current members. */
  listUsers(db: Db, organizationId: string, targetId: string, page: PageRequest): Promise<Page<UserGrantView>> {
    const query = db
      .selectFrom('content_permissions as g')
      .innerJoin('members as m', (join) => join.onRef('m.user_id', '=', 'g.principal_id').on('m.organization_id', '=', organizationId))
      .innerJoin('users as u', 'u.id', 'g.principal_id')
      .select(['g.principal_id as user_id', 'u.display_name', 'u.email', 'u.photo_url', 'g.role', 'g.created_at as granted_at'])
      .where('g.target_id', '=', targetId)
      .where('g.organization_id', '=', organizationId)
      .where('g.principal_type', '=', 'user');
    return paginate(
      query,
      [
        { ref: 'g.created_at', field: 'granted_at', dir: 'asc' },
        { ref: 'g.principal_id', field: 'user_id', dir: 'asc' },
      ],
      page,
    ) as Promise<Page<UserGrantView>>;
  },

  /** A page of the teams granted a role on the target, oldest grant first, with the Team object's counts. */
  listTeams(db: Db, organizationId: string, targetId: string, callerId: string, page: PageRequest): Promise<Page<TeamGrantView>> {
    const query = selectTeams(db, callerId)
      .innerJoin('content_permissions as g', (join) => join.onRef('g.principal_id', '=', 't.id').on('t.organization_id', '=', organizationId))
      .select(['g.role', 'g.created_at as granted_at'])
      .where('g.target_id', '=', targetId)
      .where('g.organization_id', '=', organizationId)
      .where('g.principal_type', '=', 'team');
    return paginate(
      query,
      [
        { ref: 'g.created_at', field: 'granted_at', dir: 'asc' },
        { ref: 'g.principal_id', field: 'id', dir: 'asc' },
      ],
      page,
    ) as Promise<Page<TeamGrantView>>;
  },

  /**
   * A page of the organization's active members who can access a target, with their
   * effective role as a rank: the highest of their organization role and the target's
   * effective defaultLevel (members with a role only), and every grant to them or their
   * teams on `grantTargets` (the target and the collections above it). Computed in SQL so
   * the `role` filter applies before paging. Oldest member first.
   */
  listAccess(
    db: Db,
    organizationId: string,
    grantTargets: string[],
    defaultRank: number,
    onlyRank: number | undefined,
    page: PageRequest,
  ): Promise<Page<AccessView>> {
    const orgRank = rankOf('m.role');
    const inner = db
      .selectFrom('members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'm.joined_at', 'u.display_name', 'u.email', 'u.photo_url'])
      .select(
        sql<number>`(case when m.role is null then 0 when ${orgRank} > ${sql.lit(defaultRank)} then ${orgRank} else ${sql.lit(defaultRank)} end)`.as(
          'org_rank',
        ),
      )
      .select((eb) =>
        eb
          .selectFrom('content_permissions as g')
          .select(sql<number>`max(${rankOf('g.role')})`.as('r'))
          .where('g.organization_id', '=', organizationId)
          .where('g.target_id', 'in', grantTargets)
          .where((w) =>
            w.or([
              w.and([w('g.principal_type', '=', 'user'), w('g.principal_id', '=', w.ref('m.user_id'))]),
              w.and([
                w('g.principal_type', '=', 'team'),
                w(
                  'g.principal_id',
                  'in',
                  w
                    .selectFrom('team_members as tm')
                    .select('tm.team_id')
                    .whereRef('tm.user_id', '=', 'm.user_id')
                    .where('tm.organization_id', '=', organizationId),
                ),
              ]),
            ]),
          )
          .as('grant_rank'),
      )
      .where('m.organization_id', '=', organizationId)
      .where('m.disabled', '=', 0);
    const rank = sql<number>`(case when coalesce(a.grant_rank, 0) > a.org_rank then coalesce(a.grant_rank, 0) else a.org_rank end)`;
    let query = db
      .selectFrom(inner.as('a'))
      .select(['a.user_id', 'a.joined_at', 'a.display_name', 'a.email', 'a.photo_url'])
      .select(rank.as('rank'))
      .where(rank, '>', 0);
    if (onlyRank !== undefined) query = query.where(rank, '=', onlyRank);
    return paginate(
      query,
      [
        { ref: 'a.joined_at', field: 'joined_at', dir: 'asc' },
        { ref: 'a.user_id', field: 'user_id', dir: 'asc' },
      ],
      page,
    ) as Promise<Page<AccessView>>;
  },
};
