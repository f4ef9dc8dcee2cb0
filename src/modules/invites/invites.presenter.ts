import type { Config } from '../../config.ts';
import type { RoleName } from '../../db/types.ts';
import type { Page } from '../../lib/pagination/index.ts';
import { apiUrl } from '../../lib/urls.ts';
import { atLeast } from '../../policies/index.ts';
import type { InviteLinkResult, InviteLinksPage } from './invites.model.ts';
import type { InviteLinkRow } from './invites.repository.ts';
import type { InviteLinkWire } from './invites.schemas.ts';

/**
 * Whether a member with `callerRole` already holds what the invite gives: every member
 * (guests too) has a guest's access, and a role covers every role below it.
 */
function isRedundant(callerRole: RoleName | null, inviteRole: RoleName | null): boolean {
  return inviteRole === null || atLeast(callerRole, inviteRole);
}

/** invite_links row -> InviteLink wire object, as seen by a member with `callerRole`. */
export function presentInviteLink(
  config: Pick<Config, 'publicUrl'>,
  row: InviteLinkRow,
  callerRole: RoleName | null,
): InviteLinkWire {
  return {
    object: 'invite',
    id: row.id,
    role: row.role,
    redundant: isRedundant(callerRole, row.role),
    urls: { location: apiUrl(config, `/orgs/${row.organization_id}/link-invites/${row.id}`) },
  };
}

export const presentInviteLinkResult = (config: Pick<Config, 'publicUrl'>, result: InviteLinkResult): InviteLinkWire =>
  presentInviteLink(config, result.invite, result.callerRole);

export function presentInviteLinksPage(config: Pick<Config, 'publicUrl'>, page: InviteLinksPage): Page<InviteLinkWire> {
  const { callerRole, ...rest } = page;
  return { ...rest, items: page.items.map((row) => presentInviteLink(config, row, callerRole)) };
}
