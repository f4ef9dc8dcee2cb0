import type { RoleName } from '../../db/types.ts';
import type { PublishedPlacement, SpaceRow } from './spaces.repository.ts';
import type { SpaceWire } from './spaces.schemas.ts';

/** What a Space shows besides its row: counts kept by other modules. */
export interface SpaceCounts {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

export const NO_COUNTS: SpaceCounts = { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 };

/**
 * A space as the caller sees it: its row, the caller's permissions on it, and, where the
 * API shows them, its counts and the site space publishing it (spaces.presenter.ts).
 */
export interface SpaceResult {
  space: SpaceRow;
  permissions: SpaceWire['permissions'];
  counts?: SpaceCounts;
  placement?: PublishedPlacement;
}

/** A space a member can access: the member's effective role on it, the space as the caller sees it. */
export interface MemberSpaceResult extends SpaceResult {
  permission: RoleName;
}
