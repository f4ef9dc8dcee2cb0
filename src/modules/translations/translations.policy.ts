import { atLeast, definePolicy } from '../../policies/index.ts';
import type { OrganizationAccess } from '../organizations/organizations.policy.ts';

/**
 * Translation rules (docs/decisions/translations.md). Members with a role see the
 * organization's translations and glossary; making, changing, running or deleting a
 * translation, and editing the glossary, need the create role (they create content);
 * a translation also needs read access to its source space.
 */
export const translationPolicy = definePolicy<OrganizationAccess, 'view' | 'edit'>({
  view: (a) => atLeast(a.role, 'read'),
  edit: (a) => atLeast(a.role, 'create'),
});
