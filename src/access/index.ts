/*
 * The access layer (docs/architecture.md, "Authorization"): who may act on what. Services
 * import it from here; its queries are in access.repository.ts, the effective role in
 * effective-role.ts, the content rules in content.policy.ts, the site rules in site.policy.ts.
 */
export {
  accessResolver,
  actorReaches,
  contentAccess,
  contentFacts,
  contentScope,
  loadChangeRequest,
  loadSite,
  loadSiteToManage,
  loadSpace,
  memberAccess,
  organizationAccess,
  organizationAccessOf,
  reachableCollections,
  requireAccess,
  seesChangeRequests,
  visibleSpaceIds,
  type AccessPermission,
  type AccessResolver,
  type ChangeRequestAccess,
  type ContentScope,
  type OrganizationAccess,
} from './access.ts';
export { accessRepository, CALLER_MEMBERSHIP, openComments, ownsTeam, type ChangeRequestView, type OrganizationWithAccess, type SiteView } from './access.repository.ts';
export { collectionPermissions, collectionPolicy, spacePermissions, spacePolicy } from './content.policy.ts';
export { sitePermissions, sitePolicy, type SiteAccess } from './site.policy.ts';
export { csrfToken, csrfTokenValid, findSession, SESSION_COOKIE, sessionActor, sessionIdOf, sessionScope, type BrowserSession } from './session.ts';
export {
  accessFrom,
  effectiveDefaultLevel,
  effectiveRole,
  roleOfRank,
  roleRank,
  type AccessTarget,
  type ContentAccess,
  type ContentFacts,
  type RoleInputs,
} from './effective-role.ts';
