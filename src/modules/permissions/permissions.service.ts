import type { Context } from '../../context.ts';
import type { Page, PageRequest } from '../../lib/pagination/index.ts';
import type { RoleName } from '../../db/types.ts';
import { badRequest, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { accessRepository, contentAccess, effectiveDefaultLevel, roleOfRank, roleRank } from '../../access/index.ts';
import { organizationsRepository } from '../organizations/organizations.repository.ts';
import { teamPermissions } from '../teams/teams.policy.ts';
import { collectionPolicy, spacePolicy } from './permissions.policy.ts';
import type { TeamGrant, UserRole } from './permissions.model.ts';
import { grantsRepository, type GrantRow } from './permissions.repository.ts';

/* ------------------------------------------------------------------------------------
 * Grant management: GitBook's space-permissions and collection-permissions operations.
 * Only admins of the target manage or list its grants; callers who cannot see the
 * target at all get 404, as do deleted spaces (docs/decisions/collections.md).
 * ---------------------------------------------------------------------------------- */

export type TargetKind = 'space' | 'collection';

const TARGET_NAME: Record<TargetKind, string> = { space: 'Space', collection: 'Collection' };

/** The target with the caller's access, after the admin check; 404 when unseen, 403 when not admin. */
async function adminTarget(ctx: Pick<Context, 'db' | 'actor'>, kind: TargetKind, id: string) {
  const target = await accessRepository.findTarget(ctx.db, kind, id);
  if (!target) throw notFound(TARGET_NAME[kind]);
  const access = await contentAccess(ctx, target, kind);
  if (access.role === null) throw notFound(TARGET_NAME[kind]);
  const policy = kind === 'space' ? spacePolicy : collectionPolicy;
  policy.authorize('admin', access, `Only admins of this ${kind} can manage its permissions`);
  return { target, access };
}

export interface InviteInput {
  role: RoleName | null;
  users?: string[];
  teams?: string[];
}

/**
 * POST /v1/{spaces|collections}/{id}/permissions: gives users and teams `role` on the
 * target (an existing grant takes the new role; `role: null` removes their grants).
 * Users must be members of the organization (guests included) and teams its teams:
 * otherwise 404 naming them, and nothing is written.
 */
export async function inviteToTarget(ctx: Context, kind: TargetKind, id: string, input: InviteInput) {
  const users = [...new Set(input.users ?? [])];
  const teams = [...new Set(input.teams ?? [])];
  if (users.length === 0 && teams.length === 0) throw badRequest('body must have users or teams');
  await ctx.transaction(async (tctx) => {
    const { target } = await adminTarget(tctx, kind, id);
    const orgId = target.organization_id;
    const [foundUsers, foundTeams] = await Promise.all([organizationsRepository.memberUserIds(tctx.db, orgId, users), grantsRepository.teamIds(tctx.db, orgId, teams)]);
    const missingUsers = users.filter((u) => !foundUsers.includes(u));
    const missingTeams = teams.filter((t) => !foundTeams.includes(t));
    const names = (ids: string[]) => ids.map((i) => `"${i}"`).join(', ');
    const missing: string[] = [];
    if (missingUsers.length > 0) missing.push(`${missingUsers.length === 1 ? 'Member' : 'Members'} ${names(missingUsers)}`);
    if (missingTeams.length > 0) missing.push(`${missingTeams.length === 1 ? 'Team' : 'Teams'} ${names(missingTeams)}`);
    if (missing.length > 0) throw notFound(missing.join(' and '));
    if (input.role === null) {
      await grantsRepository.remove(tctx.db, id, 'user', users);
      await grantsRepository.remove(tctx.db, id, 'team', teams);
      return;
    }
    const now = isoNow(ctx.clock);
    const row = (principal_type: 'user' | 'team', principal_id: string): GrantRow => ({
      target_type: kind,
      target_id: id,
      organization_id: orgId,
      principal_type,
      principal_id,
      role: input.role as RoleName,
      created_at: now,
    });
    await grantsRepository.upsert(tctx.db, [...users.map((u) => row('user', u)), ...teams.map((t) => row('team', t))]);
  });
}

/**
 * PATCH /v1/{spaces|collections}/{id}/permissions/{users|teams}/{principalId}: changes the
 * role of an existing grant (`null` removes it). 404 when the principal holds no grant on
 * the target (or is no longer a member of the organization).
 */
export async function updateTargetPermission(
  ctx: Context,
  kind: TargetKind,
  id: string,
  principalType: 'user' | 'team',
  principalId: string,
  role: RoleName | null,
) {
  await ctx.transaction(async (tctx) => {
    const { target } = await adminTarget(tctx, kind, id);
    const current =
      principalType === 'user'
        ? (await organizationsRepository.memberUserIds(tctx.db, target.organization_id, [principalId])).length > 0
        : (await grantsRepository.teamIds(tctx.db, target.organization_id, [principalId])).length > 0;
    if (!current || !(await grantsRepository.hasGrant(tctx.db, id, principalType, principalId))) {
      throw notFound(`${principalType === 'user' ? 'User' : 'Team'} "${principalId}" with a permission on this ${kind}`);
    }
    if (role === null) await grantsRepository.remove(tctx.db, id, principalType, [principalId]);
    else await grantsRepository.updateRole(tctx.db, id, principalType, principalId, role);
  });
}

/** DELETE /v1/{spaces|collections}/{id}/permissions/{users|teams}/{principalId}: 204 also when there was no grant. */
export async function removeTargetPermission(ctx: Context, kind: TargetKind, id: string, principalType: 'user' | 'team', principalId: string) {
  await ctx.transaction(async (tctx) => {
    await adminTarget(tctx, kind, id);
    await grantsRepository.remove(tctx.db, id, principalType, [principalId]);
  });
}

/** GET .../permissions/users: users granted a role on the target (current members only). */
export async function listUserPermissions(ctx: Context, kind: TargetKind, id: string, page: PageRequest): Promise<Page<UserRole>> {
  const { target } = await adminTarget(ctx, kind, id);
  const result = await grantsRepository.listUsers(ctx.db, target.organization_id, id, page);
  return { ...result, items: result.items.map((row) => ({ user: row, role: row.role })) };
}

/** GET .../permissions/teams: teams granted a role on the target, as Team objects. */
export async function listTeamPermissions(ctx: Context, kind: TargetKind, id: string, page: PageRequest): Promise<Page<TeamGrant>> {
  const { target, access } = await adminTarget(ctx, kind, id);
  const result = await grantsRepository.listTeams(ctx.db, target.organization_id, id, access.userId, page);
  const orgAccess = { organizationId: target.organization_id, userId: access.userId, role: access.orgRole };
  return {
    ...result,
    items: result.items.map((row) => ({
      team: row,
      permissions: teamPermissions({ ...orgAccess, teamRole: row.caller_role }),
      role: row.role,
    })),
  };
}

/**
 * GET .../permissions/aggregate: every active member of the organization who can access
 * the target, with their effective role (organization role, defaultLevel, grants to them
 * and their teams on the target and the collections above it); `role` keeps one role.
 */
export async function listAccessAggregate(
  ctx: Context,
  kind: TargetKind,
  id: string,
  role: RoleName | undefined,
  page: PageRequest,
): Promise<Page<UserRole>> {
  const { target } = await adminTarget(ctx, kind, id);
  const chain = await accessRepository.collectionChain(ctx.db, kind === 'collection' ? target.id : target.parent_id);
  const above = kind === 'collection' ? chain.slice(1) : chain;
  const defaultLevel = effectiveDefaultLevel([target.default_level, ...above.map((c) => c.default_level)]);
  const result = await accessRepository.listAccess(
    ctx.db,
    target.organization_id,
    [target.id, ...above.map((c) => c.id)],
    roleRank(defaultLevel),
    role === undefined ? undefined : roleRank(role),
    page,
  );
  // listAccess keeps members with a rank above 0, so every row has a role.
  return { ...result, items: result.items.map((row) => ({ user: row, role: roleOfRank(Number(row.rank)) as RoleName })) };
}
