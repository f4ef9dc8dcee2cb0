import type { Config } from '../../config.ts';
import type { Page } from '../../lib/pagination/index.ts';
import { presentUser } from '../users/users.presenter.ts';
import type { MemberView } from './members.repository.ts';
import type { MemberWire } from './members.schemas.ts';

/** members row (with user and team count) -> Member wire object. */
export function presentMember(config: Pick<Config, 'publicUrl'>, row: MemberView): MemberWire {
  const member: MemberWire = {
    object: 'member',
    id: row.user_id,
    role: row.role,
    user: presentUser(config, {
      id: row.user_id,
      display_name: row.display_name,
      email: row.email,
      photo_url: row.photo_url,
    }),
    disabled: row.disabled === 1,
    joinedAt: row.joined_at,
    sso: row.sso === 1,
    // Non-deleted spaces the member holds a direct grant on; sites arrive with a later module.
    spaces: Number(row.spaces),
    teams: Number(row.teams),
    sites: 0,
  };
  if (row.last_seen_at) member.lastSeenAt = row.last_seen_at;
  return member;
}

export function presentMembersPage(config: Pick<Config, 'publicUrl'>, page: Page<MemberView>): Page<MemberWire> {
  return { ...page, items: page.items.map((row) => presentMember(config, row)) };
}
