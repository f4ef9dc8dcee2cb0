import type { Config } from '../../config.ts';
import { apiUrl } from '../../lib/urls.ts';
import type { UserRow } from './users.repository.ts';
import type { UserWire } from './users.schemas.ts';

/** users row -> User wire object. */
export function presentUser(config: Pick<Config, 'publicUrl'>, row: Pick<UserRow, 'id' | 'display_name' | 'email' | 'photo_url'>): UserWire {
  const user: UserWire = {
    object: 'user',
    id: row.id,
    displayName: row.display_name,
    email: row.email,
    urls: { location: apiUrl(config, `/users/${row.id}`) },
  };
  if (row.photo_url) user.photoURL = row.photo_url;
  return user;
}
