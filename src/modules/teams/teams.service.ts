import type { Context } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import type { Page, PageRequest } from '../../lib/pagination/index.ts';
import { readUnlessChanged, reuseUnlessChanged, type Depend } from '../../db/read-cache.ts';
import { badRequest, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { visibleMember } from '../members/members.rules.ts';
import { organizationPolicy, type OrganizationAccess } from '../organizations/organizations.policy.ts';
import { memberAccess } from '../../access/index.ts';
import { teamMembershipPolicy, teamPermissions, teamPolicy, type TeamAccess } from './teams.policy.ts';
import type { MemberTeamResult, TeamMembersPage, TeamResult } from './teams.model.ts';
import { teamsRepository, type TeamRole, type TeamView } from './teams.repository.ts';
import type { CreateTeamInput, ListTeamsFilter, UpdateTeamMembersInput } from './teams.schemas.ts';

function teamAccess(access: OrganizationAccess, team: TeamView): TeamAccess {
  return { ...access, teamRole: team.caller_role };
}

/** The team with the caller's permissions on it (teams.presenter.ts makes the wire object). */
function resultOf(team: TeamView, access: OrganizationAccess): TeamResult {
  return { team, permissions: teamPermissions(teamAccess(access, team)) };
}

/** What a team read depends on: its member and space counts are the directory's (memberships, grants, space deletions). */
const teamScopes = (organizationId: string) => [`org:${organizationId}`, `directory:${organizationId}`, 'users'];

/**
 * The team with the caller's standing towards it; 404 when the organization has no such
 * team. Reused while the organization's directory is unchanged, unless a cached read that
 * calls this gives its own `within` (GET team keeps its whole result instead).
 */
async function loadTeam(ctx: Pick<Context, 'db' | 'actor' | 'caches'>, organizationId: string, teamId: string, within?: Depend) {
  const access = await memberAccess(ctx, organizationId);
  const read = (depend: Depend) => {
    depend(...teamScopes(organizationId));
    return teamsRepository.find(ctx.db, organizationId, teamId, access.userId);
  };
  const team = within ? await read(within) : await readUnlessChanged(ctx.db, ctx.caches.listings, `team\u0000${organizationId}\u0000${teamId}\u0000${access.userId}`, read);
  if (!team) throw notFound('Team');
  return { team, access: teamAccess(access, team), organizationAccess: access };
}

/**
 * Resolves user references (ids or emails) to organization members. Anything that is not
 * a member is a 400 naming every such reference, per body field, before anything changes.
 */
async function resolveMembers(
  db: Db,
  organizationId: string,
  fields: { field: string; references: string[] }[],
): Promise<Map<string, string>> {
  const all = [...new Set(fields.flatMap((f) => f.references))];
  const emails = all.filter((r) => r.includes('@')).map((r) => r.trim().toLowerCase());
  const ids = all.filter((r) => !r.includes('@'));
  const found = await teamsRepository.findMembers(db, organizationId, ids, emails);
  const byId = new Map(found.map((m) => [m.user_id, m.user_id]));
  const byEmail = new Map(found.map((m) => [m.email.toLowerCase(), m.user_id]));
  const resolved = new Map<string, string>();
  for (const reference of all) {
    const userId = reference.includes('@') ? byEmail.get(reference.trim().toLowerCase()) : byId.get(reference);
    if (userId) resolved.set(reference, userId);
  }
  const problems = fields
    .map(({ field, references }) => {
      const unknown = [...new Set(references.filter((r) => !resolved.has(r)))];
      if (unknown.length === 0) return null;
      const names = unknown.map((r) => `"${r}"`).join(', ');
      return `body/${field}: ${names} ${unknown.length === 1 ? 'is not a member' : 'are not members'} of this organization`;
    })
    .filter((p): p is string => p !== null);
  if (problems.length > 0) throw badRequest(problems.join('; '));
  return resolved;
}

/** GET /v1/orgs/{organizationId}/teams: every member but guests; filters and pages in SQL. */
export async function listTeams(ctx: Context, organizationId: string, filter: ListTeamsFilter, page: PageRequest): Promise<Page<TeamResult>> {
  const access = await memberAccess(ctx, organizationId);
  organizationPolicy.authorize('listTeams', access, 'Guests cannot list the teams of the organization');
  const result = await teamsRepository.list(ctx.db, organizationId, access.userId, filter, page);
  return { ...result, items: result.items.map((team) => resultOf(team, access)) };
}

/** PUT /v1/orgs/{organizationId}/teams: admins only; the listed members join with role member. */
export async function createTeam(ctx: Context, organizationId: string, input: CreateTeamInput): Promise<TeamResult> {
  return ctx.transaction(async (tctx) => {
    const access = await memberAccess(tctx, organizationId);
    organizationPolicy.authorize('admin', access, 'Only organization admins can create teams');
    const members = [...new Set(input.members ?? [])];
    // Member ids only: GitBook's `members` lists member identifiers, not emails.
    const ids = members.filter((id) => !id.includes('@'));
    const found = new Set((await teamsRepository.findMembers(tctx.db, organizationId, ids, [])).map((m) => m.user_id));
    const unknown = members.filter((id) => !found.has(id));
    if (unknown.length > 0) {
      const names = unknown.map((r) => `"${r}"`).join(', ');
      throw badRequest(`body/members: ${names} ${unknown.length === 1 ? 'is not a member' : 'are not members'} of this organization`);
    }
    const now = isoNow(ctx.clock);
    const id = newId();
    await teamsRepository.insert(tctx.db, { id, organization_id: organizationId, title: input.title.trim(), created_at: now });
    await teamsRepository.addMembers(tctx.db, organizationId, id, members, 'member', now);
    const team = (await teamsRepository.find(tctx.db, organizationId, id, access.userId)) as TeamView;
    return resultOf(team, access);
  });
}

/** GET /v1/orgs/{organizationId}/teams/{teamId}: two queries, access then the team with its counts. */
export function getTeam(ctx: Context, organizationId: string, teamId: string): TeamResult | Promise<TeamResult> {
  // Reused whole while the organization and its directory are unchanged: a hit answers
  // synchronously, the same result each time (the route presents and serializes it once,
  // presentReused). Refusals are not kept.
  return reuseUnlessChanged(ctx.db, ctx.caches.listings, `team-get\u0000${organizationId}\u0000${teamId}\u0000${ctx.actor.userId}`, async (depend) => {
    // Declared before loadTeam reads the membership.
    depend(...teamScopes(organizationId));
    const { team, access, organizationAccess: orgAccess } = await loadTeam(ctx, organizationId, teamId, depend);
    teamPolicy.authorize('view', access, 'Guests cannot see the teams of the organization');
    return resultOf(team, orgAccess);
  });
}

/** PATCH /v1/orgs/{organizationId}/teams/{teamId}: admins and owners of the team. */
export async function updateTeam(ctx: Context, organizationId: string, teamId: string, title: string): Promise<TeamResult> {
  return ctx.transaction(async (tctx) => {
    const { access, organizationAccess: orgAccess } = await loadTeam(tctx, organizationId, teamId);
    teamPolicy.authorize('admin', access, 'Only organization admins and owners of the team can rename it');
    await teamsRepository.updateTitle(tctx.db, organizationId, teamId, title.trim());
    const team = (await teamsRepository.find(tctx.db, organizationId, teamId, access.userId)) as TeamView;
    return resultOf(team, orgAccess);
  });
}

/** DELETE /v1/orgs/{organizationId}/teams/{teamId}: admins only; done also when absent. */
export async function deleteTeam(ctx: Context, organizationId: string, teamId: string) {
  await ctx.transaction(async (tctx) => {
    const access = await memberAccess(tctx, organizationId);
    // Deleting needs no team role: the rule is org-level, so an absent team still answers 204.
    teamPolicy.authorize('delete', { ...access, teamRole: null }, 'Only organization admins can delete teams');
    await teamsRepository.delete(tctx.db, organizationId, teamId);
  });
}

/** GET /v1/orgs/{organizationId}/teams/{teamId}/members: whoever may view the team. */
export async function listTeamMembers(ctx: Context, organizationId: string, teamId: string, page: PageRequest): Promise<TeamMembersPage> {
  const { access } = await loadTeam(ctx, organizationId, teamId);
  teamPolicy.authorize('view', access, 'Guests cannot see the teams of the organization');
  const result = await teamsRepository.listMembers(ctx.db, teamId, page);
  return { ...result, view: teamPolicy.can('view', access) };
}

/**
 * PUT /v1/orgs/{organizationId}/teams/{teamId}/members: admins and team owners. `add`
 * joins with role member, `memberships` adds or sets roles, and `remove` wins over both
 * (GitBook: a user in both add and remove is removed).
 */
export async function updateTeamMembers(
  ctx: Context,
  organizationId: string,
  teamId: string,
  input: UpdateTeamMembersInput,
) {
  await ctx.transaction(async (tctx) => {
    const { access } = await loadTeam(tctx, organizationId, teamId);
    teamPolicy.authorize('admin', access, 'Only organization admins and owners of the team can manage its members');
    const add = input.add ?? [];
    const remove = input.remove ?? [];
    const memberships = Object.entries(input.memberships ?? {});
    const resolved = await resolveMembers(tctx.db, organizationId, [
      { field: 'add', references: add },
      { field: 'remove', references: remove },
      { field: 'memberships', references: memberships.map(([reference]) => reference) },
    ]);
    const userOf = (reference: string) => resolved.get(reference) as string;

    const removed = new Set(remove.map(userOf));
    const roles = new Map<string, TeamRole>();
    for (const [reference, { role }] of memberships) {
      const userId = userOf(reference);
      if (!removed.has(userId)) roles.set(userId, role);
    }
    const added = [...new Set(add.map(userOf))].filter((id) => !removed.has(id) && !roles.has(id));

    const now = isoNow(ctx.clock);
    await teamsRepository.removeMembers(tctx.db, teamId, [...removed]);
    await teamsRepository.addMembers(tctx.db, organizationId, teamId, added, 'member', now);
    for (const [userId, role] of roles) await teamsRepository.upsertMember(tctx.db, organizationId, teamId, userId, role, now);
  });
}

/** PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}: adds or sets the role (admins, team owners). */
export async function addTeamMember(ctx: Context, organizationId: string, teamId: string, userId: string, role: TeamRole) {
  await ctx.transaction(async (tctx) => {
    const { access } = await loadTeam(tctx, organizationId, teamId);
    teamPolicy.authorize('admin', access, 'Only organization admins and owners of the team can manage its members');
    const [member] = await teamsRepository.findMembers(tctx.db, organizationId, [userId], []);
    if (!member) throw notFound(`Member "${userId}"`);
    await teamsRepository.upsertMember(tctx.db, organizationId, teamId, userId, role, isoNow(ctx.clock));
  });
}

/**
 * DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}: admins and team owners,
 * and any user leaving the team themselves; done also when the user was not in it.
 */
export async function removeTeamMember(ctx: Context, organizationId: string, teamId: string, userId: string) {
  await ctx.transaction(async (tctx) => {
    const { access } = await loadTeam(tctx, organizationId, teamId);
    teamMembershipPolicy.authorize(
      'remove',
      { team: access, userId },
      'Only organization admins and owners of the team can remove other members',
    );
    await teamsRepository.removeMembers(tctx.db, teamId, [userId]);
  });
}

/** GET /v1/orgs/{organizationId}/members/{userId}/teams: the teams a member belongs to, with their role in each. */
export async function listMemberTeams(
  ctx: Context,
  organizationId: string,
  userId: string,
  title: string | undefined,
  page: PageRequest,
): Promise<Page<MemberTeamResult>> {
  const access = await memberAccess(ctx, organizationId);
  await visibleMember(ctx, access, userId);
  const result = await teamsRepository.listForMember(ctx.db, organizationId, userId, access.userId, title, page);
  return {
    ...result,
    items: result.items.map((row) => ({
      team: row,
      permissions: teamPermissions({ ...access, teamRole: row.caller_role }),
      memberRole: row.member_role,
    })),
  };
}
