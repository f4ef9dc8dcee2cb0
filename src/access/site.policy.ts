import type { RoleName } from '../db/types.ts';
import { atLeast, definePolicy } from '../policies/index.ts';

/*
 * The rules on docs sites. They live with the access layer because loadSite (access.ts)
 * decides visibility with them; sites.policy.ts re-exports them for the sites modules.
 */

/** The caller's standing towards one site. */
export interface SiteAccess {
  organizationId: string;
  userId: string;
  /** Organization role: null for guests and for callers who are not members. */
  role: RoleName | null;
  /** Did the caller create the site? */
  creator: boolean;
  /** Does the caller see the published site as a visitor (published, and its visibility lets them in)? */
  visitor: boolean;
}

/** Admins manage every site; a member with the create role manages the sites they created. */
const manage = (a: SiteAccess) => atLeast(a.role, 'admin') || (a.creator && atLeast(a.role, 'create'));
const member = (a: SiteAccess) => a.role !== null;

/**
 * Site rules (docs/decisions/sites.md). Members with a role read every site of the
 * organization; visitors read what the published site shows; `manage` covers settings,
 * publishing, structure, customization, the adaptive schema and share links.
 */
export const sitePolicy = definePolicy<
  SiteAccess,
  'view' | 'access' | 'edit' | 'create' | 'admin' | 'installIntegration' | 'viewAdaptiveSchema' | 'editAdaptiveSchema' | 'manage'
>({
  view: (a) => member(a) || a.visitor,
  access: member,
  edit: manage,
  create: manage,
  admin: manage,
  installIntegration: (a) => atLeast(a.role, 'admin'),
  viewAdaptiveSchema: member,
  editAdaptiveSchema: manage,
  manage,
});

/** The Site wire object's `permissions`, from the same rules. */
export function sitePermissions(access: SiteAccess) {
  const p = sitePolicy.permissions(access);
  return {
    view: p.view,
    access: p.access,
    edit: p.edit,
    create: p.create,
    admin: p.admin,
    installIntegration: p.installIntegration,
    viewAdaptiveSchema: p.viewAdaptiveSchema,
    editAdaptiveSchema: p.editAdaptiveSchema,
  };
}
