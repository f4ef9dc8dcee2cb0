import { atLeast, definePolicy } from '../../policies/index.ts';
import type { OrganizationAccess } from '../organizations/organizations.policy.ts';

/** The caller's standing towards one team: their organization access and their role in the team. */
export interface TeamAccess extends OrganizationAccess {
  /** The caller's role in the team, null when not in it. */
  teamRole: 'owner' | 'member' | null;
}

const orgMember = (a: OrganizationAccess) => a.role !== null;

/**
 * Team rules (docs/decisions/teams.md). Every organization member except guests sees
 * every team; org admins manage all teams, team owners manage their own team. Guests
 * never manage a team, even one they own, since they cannot see it. Deleting a team
 * is for org admins only; listing and creating teams are organization rules
 * (organizationPolicy `listTeams` and `admin`). The `owner` filter of the team list applies
 * the same `admin` rule in SQL (teams.repository.ts).
 */
export const teamPolicy = definePolicy<TeamAccess, 'view' | 'admin' | 'delete'>({
  view: orgMember,
  admin: (a) => atLeast(a.role, 'admin') || (orgMember(a) && a.teamRole === 'owner'),
  delete: (a) => atLeast(a.role, 'admin'),
});

/** Who may take a user out of a team: whoever manages the team, and the user themselves. */
export const teamMembershipPolicy = definePolicy<{ team: TeamAccess; userId: string }, 'remove'>({
  remove: (s) => teamPolicy.can('admin', s.team) || s.userId === s.team.userId,
});

/** The Team wire object's `permissions`, from the same rules. */
export function teamPermissions(access: TeamAccess): { admin: boolean; view: boolean } {
  return { admin: teamPolicy.can('admin', access), view: teamPolicy.can('view', access) };
}
