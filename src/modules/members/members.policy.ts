import { atLeast, definePolicy } from '../../policies/index.ts';
import type { OrganizationAccess } from '../organizations/organizations.policy.ts';

/** The caller's standing in the organization, and the member the action is about. */
export interface MemberSubject {
  access: OrganizationAccess;
  /** User id of the member acted upon. */
  userId: string;
}

const isSelf = (s: MemberSubject) => s.access.userId === s.userId;
const isAdmin = (s: MemberSubject) => atLeast(s.access.role, 'admin');

/**
 * Member rules (docs/decisions/members.md). Members with a role see the directory, guests
 * only themselves; admins manage memberships; anyone may leave.
 */
export const memberPolicy = definePolicy<MemberSubject, 'view' | 'updateRole' | 'remove' | 'setSSO'>({
  view: (s) => s.access.role !== null || isSelf(s),
  updateRole: isAdmin,
  remove: (s) => isAdmin(s) || isSelf(s),
  setSSO: isAdmin,
});
