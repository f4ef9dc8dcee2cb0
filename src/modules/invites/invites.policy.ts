import { atLeast, definePolicy } from '../../policies/index.ts';
import type { OrganizationAccess } from '../organizations/organizations.policy.ts';

/**
 * Invite rules (docs/decisions/invites.md): inviting people and managing invite links
 * decide who gets into the organization and with which role, so both are for admins.
 * Joining with a link needs no rule: holding the link is the permission.
 */
export const invitesPolicy = definePolicy<OrganizationAccess, 'manage'>({
  manage: (a) => atLeast(a.role, 'admin'),
});
