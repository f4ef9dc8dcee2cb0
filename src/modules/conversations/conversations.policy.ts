import { atLeast, definePolicy } from '../../policies/index.ts';
import type { OrganizationAccess } from '../organizations/organizations.policy.ts';
import { organizationPolicy } from '../organizations/organizations.policy.ts';

/**
 * Conversation rules (docs/decisions/conversations.md). Support conversations are the
 * organization's own data: members with a role read them (guests, invited to some content
 * only, do not); ingesting follows the organization's `ingestConversations` permission.
 */
export const conversationPolicy = definePolicy<OrganizationAccess, 'view' | 'ingest'>({
  view: (a) => atLeast(a.role, 'read'),
  ingest: (a) => organizationPolicy.can('ingestConversations', a),
});
