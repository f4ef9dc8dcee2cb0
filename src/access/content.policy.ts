import type { RoleName } from '../db/types.ts';
import { atLeast, definePolicy } from '../policies/index.ts';
import type { ContentAccess } from './effective-role.ts';

/*
 * The rules on content (spaces and collections), over the effective role of
 * effective-role.ts. They live with the access layer because spaces, collections, change
 * requests, comments and grants all decide on the same ContentAccess; each module's
 * policy file re-exports what it uses (spaces.policy.ts, collections.policy.ts,
 * permissions.policy.ts).
 */

const can = (minimum: RoleName) => (a: ContentAccess) => atLeast(a.role, minimum);
const member = (minimum: RoleName) => (a: ContentAccess) => a.member && atLeast(a.role, minimum);

/**
 * Space rules. Reading needs any role; editing content needs `edit` and an unlocked
 * space; reviewing and merging need `review`; settings, permissions and deletion need
 * `admin` on the space. Only members act: visibility lets outsiders read, nothing more.
 */
export const spacePolicy = definePolicy<
  ContentAccess,
  'view' | 'access' | 'admin' | 'viewInviteLinks' | 'edit' | 'triggerGitSync' | 'comment' | 'merge' | 'review' | 'installIntegration' | 'rename'
>({
  view: can('read'),
  access: member('read'),
  admin: member('admin'),
  viewInviteLinks: member('admin'),
  edit: (a) => member('edit')(a) && !a.locked,
  triggerGitSync: member('edit'),
  comment: member('comment'),
  merge: (a) => member('review')(a) && !a.locked,
  review: member('review'),
  installIntegration: member('admin'),
  rename: member('edit'),
});

/** The Space wire object's `permissions`. */
export function spacePermissions(access: ContentAccess) {
  const p = spacePolicy.permissions(access);
  return {
    view: p.view,
    access: p.access,
    admin: p.admin,
    viewInviteLinks: p.viewInviteLinks,
    edit: p.edit,
    triggerGitSync: p.triggerGitSync,
    comment: p.comment,
    merge: p.merge,
    review: p.review,
    installIntegration: p.installIntegration,
  };
}

/** Collection rules: `create` makes spaces and collections inside it; `admin` manages it. */
export const collectionPolicy = definePolicy<ContentAccess, 'view' | 'admin' | 'viewInviteLinks' | 'create'>({
  view: can('read'),
  admin: member('admin'),
  viewInviteLinks: member('admin'),
  create: member('create'),
});

/** The Collection wire object's `permissions`. */
export function collectionPermissions(access: ContentAccess) {
  return collectionPolicy.permissions(access);
}
