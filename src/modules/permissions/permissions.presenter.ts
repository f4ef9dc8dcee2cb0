import type { Config } from '../../config.ts';
import type { RoleName } from '../../db/types.ts';
import { presentUser } from '../users/users.presenter.ts';
import type { UserContentPermissionWire } from './permissions.schemas.ts';

/** A user (row with user fields) and their role on some content -> GitBook UserContentPermission. */
export function presentUserPermission(
  config: Pick<Config, 'publicUrl'>,
  row: { user_id: string; display_name: string; email: string; photo_url: string | null },
  role: RoleName,
): UserContentPermissionWire {
  return {
    permission: role,
    user: presentUser(config, { id: row.user_id, display_name: row.display_name, email: row.email, photo_url: row.photo_url }),
  };
}
