import type { Page } from '../../lib/pagination/index.ts';
import type { OrganizationAccess } from './organizations.policy.ts';
import type { OrganizationRow } from './organizations.repository.ts';

/*
 * What the organizations service answers: rows with the caller's access to each (null for
 * an organization the caller does not belong to; the presenter turns it into permissions
 * and shows billing to members only).
 */

export interface OrganizationResult {
  organization: OrganizationRow;
  access: OrganizationAccess | null;
}

export type OrganizationsPage = Page<OrganizationResult>;
