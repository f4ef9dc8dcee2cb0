/*
 * The structure of a site (sections, section groups, site spaces) follows the site's
 * rules: whoever may manage the site manages its structure (docs/decisions/sites.md).
 * This file names them for this module, as every module has its policy file.
 */
export { sitePolicy, sitePermissions, type SiteAccess } from './sites.policy.ts';
