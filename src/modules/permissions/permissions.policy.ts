import type { ContentVisibility, DefaultLevel, RoleName } from '../../db/types.ts';
import { atLeast, definePolicy, highestRole } from '../../policies/index.ts';

/**
 * The caller's standing towards one space or collection (docs/decisions/spaces.md):
 * their organization role and their effective role on the content, the highest of the
 * organization role, grants to them and their teams on the content and on the
 * collections above it, the applicable `defaultLevel`, and what the visibility gives
 * anyone (public, unlisted, a valid share key).
 */
export interface ContentAccess {
  organizationId: string;
  userId: string;
  /** Active member of the organization that owns the content (guests included). */
  member: boolean;
  /** Organization-wide role; null for guests and non-members. */
  orgRole: RoleName | null;
  /** Effective role on the content; null when the caller may not see it. */
  role: RoleName | null;
  /** Space only: edits are locked. */
  locked?: boolean;
}

/** What decides an effective role, gathered by the service in a few queries. */
export interface RoleInputs {
  member: boolean;
  orgRole: RoleName | null;
  /** Roles granted to the caller (directly or through a team) on the content or a collection above it. */
  grants: RoleName[];
  /** The content's own defaultLevel, then its collections' from nearest to farthest. */
  defaultLevels: DefaultLevel[];
  visibility?: ContentVisibility;
  shareKeyValid?: boolean;
}

/** `inherit` takes the nearest collection's level; the organization root gives none. */
export function effectiveDefaultLevel(levels: DefaultLevel[]): RoleName | null {
  for (const level of levels) if (level !== 'inherit') return level;
  return null;
}

/** The effective role on a piece of content, from the facts gathered about it. */
export function effectiveRole(inputs: RoleInputs): RoleName | null {
  const roles: (RoleName | null)[] = [];
  if (inputs.member) {
    roles.push(inputs.orgRole, ...inputs.grants);
    // defaultLevel is what members with an organization role get; guests get only their grants.
    if (inputs.orgRole !== null) roles.push(effectiveDefaultLevel(inputs.defaultLevels));
  }
  // Visibility opens reading beyond the organization (API reads; published sites follow it too).
  if (inputs.visibility === 'public' || inputs.visibility === 'unlisted') roles.push('read');
  if (inputs.visibility === 'share-link' && inputs.shareKeyValid) roles.push('read');
  return highestRole(...roles);
}

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
