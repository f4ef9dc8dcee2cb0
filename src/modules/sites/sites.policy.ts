/* The site rules live with the access layer (src/access/site.policy.ts), beside loadSite, which applies them. */
export { sitePermissions, sitePolicy, type SiteAccess } from '../../access/index.ts';
