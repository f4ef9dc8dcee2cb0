import type { RoleName } from '../../db/types.ts';
import type { TeamResult } from '../teams/teams.model.ts';

/** The user fields a permission shows. */
export interface PermissionUser {
  user_id: string;
  display_name: string;
  email: string;
  photo_url: string | null;
}

/** A user and their role on some content (a grant, or their effective role). */
export interface UserRole {
  user: PermissionUser;
  role: RoleName;
}

/** A team's grant on some content: the team as the caller sees it, and the role granted. */
export interface TeamGrant extends TeamResult {
  role: RoleName;
}
