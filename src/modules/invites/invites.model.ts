import type { RoleName } from '../../db/types.ts';
import type { Page } from '../../lib/pagination/index.ts';
import type { InviteLinkRow } from './invites.repository.ts';

/*
 * What the invites service answers about invite links: the rows and the caller's own role
 * in the organization (an invite is shown as redundant for a caller who already holds what
 * it gives). The routes present them (invites.presenter.ts).
 */

export interface InviteLinkResult {
  invite: InviteLinkRow;
  callerRole: RoleName | null;
}

export type InviteLinksPage = Page<InviteLinkRow> & { callerRole: RoleName | null };
