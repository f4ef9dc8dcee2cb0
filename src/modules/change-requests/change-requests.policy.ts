import { atLeast, definePolicy } from '../../policies/index.ts';
import { seesChangeRequests, spacePolicy, type ChangeRequestAccess } from '../../access/index.ts';

/** The caller's standing towards one change request (the access layer loads it: loadChangeRequest). */
export type { ChangeRequestAccess };

/**
 * Change-request rules (docs/decisions/change-requests.md). Change requests are the
 * organization's drafts: reading them needs membership with read on the space (a public
 * space's visitors see its content, not its change requests). `edit` opens and edits
 * them (not in a locked space); `review` reviews and merges (GitBook: reviewers merge;
 * editors propose); the creator may always retitle, describe and archive their own.
 */
export const changeRequestPolicy = definePolicy<ChangeRequestAccess, 'view' | 'create' | 'edit' | 'update' | 'review' | 'merge' | 'requestReview'>({
  view: seesChangeRequests,
  create: (a) => spacePolicy.can('edit', a.space),
  edit: (a) => spacePolicy.can('edit', a.space),
  update: (a) => spacePolicy.can('access', a.space) && (a.isCreator || atLeast(a.space.role, 'edit')),
  review: (a) => spacePolicy.can('review', a.space),
  merge: (a) => spacePolicy.can('merge', a.space),
  requestReview: (a) => spacePolicy.can('access', a.space) && (a.isCreator || atLeast(a.space.role, 'edit')),
});
