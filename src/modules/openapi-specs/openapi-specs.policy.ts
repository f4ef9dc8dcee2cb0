import { atLeast, definePolicy } from '../../policies/index.ts';
import type { OrganizationAccess } from '../organizations/organizations.policy.ts';
import { organizationPolicy } from '../organizations/organizations.policy.ts';

/**
 * OpenAPI spec rules (docs/decisions/openapi-specs.md): members with a role read the
 * organization's specs (guests do not); creating, replacing, publishing and deleting
 * follow the organization's `createOpenAPISpec` permission (create and above).
 */
export const openapiSpecPolicy = definePolicy<OrganizationAccess, 'view' | 'edit'>({
  view: (a) => atLeast(a.role, 'read'),
  edit: (a) => organizationPolicy.can('createOpenAPISpec', a),
});
