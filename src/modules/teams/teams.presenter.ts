import type { Config } from '../../config.ts';
import type { Page } from '../../lib/pagination/index.ts';
import { presentMember } from '../members/members.presenter.ts';
import type { MemberTeamResult, TeamMembersPage, TeamPermissions, TeamResult } from './teams.model.ts';
import type { TeamRowWithCounts } from './teams.repository.ts';
import type { TeamWire } from './teams.schemas.ts';

/** teams row (with counts) -> Team wire object, with the caller's permissions on it. */
export function presentTeam(
  _config: Pick<Config, 'publicUrl'>,
  row: TeamRowWithCounts,
  permissions: TeamPermissions,
): TeamWire {
  return {
    object: 'team',
    id: row.id,
    title: row.title,
    // count() is a bigint on PostgreSQL; the wire wants plain numbers whatever the driver gives.
    members: Number(row.members),
    spaces: Number(row.spaces),
    createdAt: row.created_at,
    permissions: { admin: permissions.admin, view: permissions.view },
  };
}

/** A team as the caller sees it -> Team wire object. */
export function presentTeamResult(config: Pick<Config, 'publicUrl'>, result: TeamResult): TeamWire {
  return presentTeam(config, result.team, result.permissions);
}

/** A page of teams -> the TeamList wire object. */
export function presentTeams(config: Pick<Config, 'publicUrl'>, page: Page<TeamResult>) {
  return { ...page, items: page.items.map((result) => presentTeamResult(config, result)) };
}

/** A page of a team's members -> the TeamMemberList wire object. */
export function presentTeamMembers(config: Pick<Config, 'publicUrl'>, page: TeamMembersPage) {
  const { view, ...rest } = page;
  return {
    ...rest,
    items: page.items.map((row) => ({
      organization: presentMember(config, row),
      team: { role: row.team_role },
      permissions: { view },
    })),
  };
}

/** A page of the teams a member belongs to -> the MemberTeamList wire object. */
export function presentMemberTeams(config: Pick<Config, 'publicUrl'>, page: Page<MemberTeamResult>) {
  return {
    ...page,
    items: page.items.map((result) => ({ team: presentTeamResult(config, result), member: { role: result.memberRole } })),
  };
}
