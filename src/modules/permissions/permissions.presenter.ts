import type { Config } from '../../config.ts';
import type { RoleName } from '../../db/types.ts';
import type { Page } from '../../lib/pagination/index.ts';
import { presentTeam } from '../teams/teams.presenter.ts';
import { presentUser } from '../users/users.presenter.ts';
import type { PermissionUser, TeamGrant, UserRole } from './permissions.model.ts';
import type { UserContentPermissionWire } from './permissions.schemas.ts';

/** A user (row with user fields) and their role on some content -> GitBook UserContentPermission. */
export function presentUserPermission(
  config: Pick<Config, 'publicUrl'>,
  row: PermissionUser,
  role: RoleName,
): UserContentPermissionWire {
  return {
    permission: role,
    user: presentUser(config, { id: row.user_id, display_name: row.display_name, email: row.email, photo_url: row.photo_url }),
  };
}

/** A page of users and their roles -> the UserPermissionList (or AccessList) wire object. */
export function presentUserPermissions(config: Pick<Config, 'publicUrl'>, page: Page<UserRole>) {
  return { ...page, items: page.items.map((item) => presentUserPermission(config, item.user, item.role)) };
}

/** A page of team grants -> the TeamPermissionList wire object. */
export function presentTeamPermissions(config: Pick<Config, 'publicUrl'>, page: Page<TeamGrant>) {
  return { ...page, items: page.items.map((item) => ({ permission: item.role, team: presentTeam(config, item.team, item.permissions) })) };
}
