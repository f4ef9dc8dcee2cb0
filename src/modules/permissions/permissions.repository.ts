import type { Db } from '../../db/database.ts';
import { selectTeams, type TeamRowWithCounts } from '../teams/teams.repository.ts';
import { paginate, type Page, type PageRequest } from '../../lib/pagination/index.ts';
import type { ContentPermissionsTable, RoleName } from '../../db/types.ts';

export type GrantRow = ContentPermissionsTable;

/** Queries on content permission grants that other modules run (a space or collection going away). */
export const permissionsRepository = {
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
export interface TeamGrantView extends TeamRowWithCounts {
  caller_role: 'owner' | 'member' | null;
  role: RoleName;
  granted_at: string;
}

export const grantsRepository = {
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
};
