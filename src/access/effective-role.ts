import type { ContentVisibility, DefaultLevel, RoleName } from '../db/types.ts';
import { highestRole, ROLE_RANK, ROLES } from '../policies/index.ts';

/*
 * The effective role, defined once (docs/decisions/spaces.md). The loaders of
 * access.ts, the list filters, the policies' subjects and the authorization matrix's
 * expectations (test/suites/authz.expected.ts) all come from `effectiveRole`; the one
 * place it is also written in SQL (the permissions aggregate, which filters by role before
 * paging) ranks roles from the same table (`roleRank`, `ROLE_RANK`).
 */

/**
 * The caller's standing towards one space or collection: their organization role and
 * their effective role on the content.
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

/** What decides an effective role. */
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

/**
 * The effective role on a piece of content: the highest of the organization role, the
 * grants to the caller and their teams on the content and the collections above it, the
 * applicable defaultLevel (members with an organization role only; guests get only their
 * grants), and what the visibility gives anyone (public, unlisted, a valid share key).
 */
export function effectiveRole(inputs: RoleInputs): RoleName | null {
  const roles: (RoleName | null)[] = [];
  if (inputs.member) {
    roles.push(inputs.orgRole, ...inputs.grants);
    if (inputs.orgRole !== null) roles.push(effectiveDefaultLevel(inputs.defaultLevels));
  }
  // Visibility opens reading beyond the organization (API reads; published sites follow it too).
  if (inputs.visibility === 'public' || inputs.visibility === 'unlisted') roles.push('read');
  if (inputs.visibility === 'share-link' && inputs.shareKeyValid) roles.push('read');
  return highestRole(...roles);
}

/** A role's rank from ROLE_RANK; 0 for no role. */
export function roleRank(role: RoleName | null | undefined): number {
  return role ? ROLE_RANK[role] : 0;
}

/** The role of a rank (the inverse of roleRank); null for 0. */
export function roleOfRank(rank: number): RoleName | null {
  return rank > 0 ? (ROLES[rank - 1] ?? null) : null;
}

/**
 * What a caller's role on a piece of content is made of, apart from the content's own
 * fields: read once (contentFacts in access.ts), then `accessFrom` works out the access
 * for the content as it is, or as a change leaves it, without reading again.
 */
export interface ContentFacts {
  organizationId: string;
  userId: string;
  member: boolean;
  orgRole: RoleName | null;
  /** Grants to the caller on the content and on the collections above it. */
  grants: RoleName[];
  /** The defaultLevels of the collections above the content, nearest first. */
  levelsAbove: DefaultLevel[];
}

/** The fields of a space or collection that decide who may see it (spaces also carry visibility, share key, edit mode). */
export interface AccessTarget {
  id: string;
  organization_id: string;
  parent_id: string | null;
  default_level: DefaultLevel;
  visibility?: ContentVisibility;
  share_key?: string;
  edit_mode?: 'live' | 'locked';
}

/** The caller's access to `target` from the facts read about it. */
export function accessFrom(facts: ContentFacts, target: Omit<AccessTarget, 'id' | 'organization_id' | 'parent_id'>, shareKey?: string): ContentAccess {
  const role = effectiveRole({
    member: facts.member,
    orgRole: facts.orgRole,
    grants: facts.grants,
    defaultLevels: [target.default_level, ...facts.levelsAbove],
    visibility: target.visibility,
    shareKeyValid: shareKey !== undefined && target.share_key !== undefined && shareKey === target.share_key,
  });
  return { organizationId: facts.organizationId, userId: facts.userId, member: facts.member, orgRole: facts.orgRole, role, locked: target.edit_mode === 'locked' };
}
