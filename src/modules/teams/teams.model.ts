import type { Page } from '../../lib/pagination/index.ts';
import type { TeamMemberView, TeamRole, TeamRowWithCounts } from './teams.repository.ts';

/** What the caller may do with a team (the Team wire object's `permissions`). */
export interface TeamPermissions {
  admin: boolean;
  view: boolean;
}

/** A team as the caller sees it: its row with counts, and the caller's permissions on it. */
export interface TeamResult {
  team: TeamRowWithCounts;
  permissions: TeamPermissions;
}

/** A page of a team's members, and whether the caller may view the team. */
export interface TeamMembersPage extends Page<TeamMemberView> {
  view: boolean;
}

/** A team a member belongs to, with the member's role in it. */
export interface MemberTeamResult extends TeamResult {
  memberRole: TeamRole;
}
