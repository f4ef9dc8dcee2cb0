/*
 * The authorization matrix's expected answers (test/suites/authz.test.ts), one rule per
 * operation of /v1/openapi.json, from the modules' policies (src/modules/<module>/<module>.policy.ts)
 * applied to the seeded objects (test/suites/seed.ts) with the minimal request the suite
 * builds. A rule reads:
 * - `public`: anyone, even without a token, gets a 2xx;
 * - `signedIn`: any valid token gets a 2xx (the caller's own things);
 * - a role (`guest` … `admin`): members from that role up get a 2xx, roles below it are
 *   refused with 403 (they see the object) or 404 (they do not); a member of another
 *   organization gets 404 and no token 401;
 * - a role and a status (`edit 409`): from that role up the policy lets the request
 *   through and it is refused for its input or the object's state with that status
 *   (the minimal body, a change request already merged);
 * - a status alone (`404`): every signed-in caller gets it: the operation names an object
 *   the seed does not make, or its minimal request is refused before any policy applies;
 *   these operations are counted as not reached;
 * - `otherOrg=N`: the member of another organization gets N instead.
 * Operations run in the suite's order (reads, writes, deletes, then its LAST list), so a
 * rule describes the state left by the operations before it.
 */

export const EXPECTED: Record<string, string> = {
  getApiInformation: 'public',
  getLiveness: 'public',
  getOpenAPIDocument: 'public',
  getAuthenticatedUser: 'signedIn',
  // A user is visible to the members of an organization they belong to.
  getUserById: 'guest',
  listOrganizationsForAuthenticatedUser: 'signedIn',
  getOrganizationById: 'guest',
  getOrganizationsForEmailDomain: 'signedIn',
  getOrganizationAgentInstructions: 'read',
  searchOrganizationContent: 'guest',
  listMembersInOrganizationById: 'read',
  getMemberInOrganizationById: 'read',
  listSpacesForOrganizationMember: 'read',
  listTeamsForOrganizationMember: 'read',
  listTeamsInOrganizationById: 'read',
  getTeamInOrganizationById: 'read',
  listTeamMembersInOrganizationById: 'read',
  listOrganizationInviteLinks: 'admin',
  getOrganizationInviteLink: 'admin',
  listCollectionsInOrganizationById: 'guest',
  // The guest's grant is on the space, not on its collection.
  getCollectionById: 'read',
  listUserPermissionsInSpace: 'admin',
  listTeamPermissionsInSpace: 'admin',
  listPermissionsAggregateInSpace: 'admin',
  listUserPermissionsInCollection: 'admin',
  listTeamPermissionsInCollection: 'admin',
  listPermissionsAggregateInCollection: 'admin',
  listSpacesInOrganizationById: 'guest',
  listSpacesInCollectionById: 'read',
  getSpaceById: 'guest',
  getCurrentRevision: 'guest',
  listPages: 'guest',
  listFiles: 'guest',
  getFileById: 'guest',
  getPageById: 'guest',
  getPageByPath: 'guest',
  getRevisionById: 'guest',
  listPagesInRevisionById: 'guest',
  listFilesInRevisionById: 'guest',
  getFileInRevisionById: 'guest',
  getPageInRevisionById: 'guest',
  getPageInRevisionByPath: 'guest',
  listChangeRequestsForSpace: 'guest',
  listChangeRequestsForOrganization: 'guest',
  getChangeRequestById: 'guest',
  getReviewsByChangeRequestId: 'guest',
  getChangeRequestReviewById: '404',
  getRequestedReviewersByChangeRequestId: 'guest',
  getContributorsByChangeRequestId: 'guest',
  getRevisionOfChangeRequestById: 'guest',
  listPagesInChangeRequest: 'guest',
  listFilesInChangeRequestById: 'guest',
  getFileInChangeRequestById: 'guest',
  getPageInChangeRequestById: 'guest',
  getPageInChangeRequestByPath: 'guest',
  getSpacePDF: 'guest',
  getChangeRequestPDF: 'guest',
  listSpaceLinks: 'guest',
  listSpacePageLinks: 'guest',
  listSpaceFileBacklinks: 'guest',
  listChangeRequestPageLinks: 'guest',
  listChangeRequestPageBacklinks: 'guest',
  listChangeRequestFileBacklinks: 'guest',
  searchSpaceContent: 'guest',
  listCommentsInSpace: 'guest',
  getCommentInSpace: 'guest',
  listCommentRepliesInSpace: 'guest',
  getCommentReplyInSpace: 'guest',
  listCommentersInSpace: 'guest',
  listCommentsInChangeRequest: 'guest',
  getCommentInChangeRequest: 'guest',
  listCommentRepliesInChangeRequest: 'guest',
  getCommentReplyInChangeRequest: 'guest',
  listCommentersInChangeRequest: 'guest',
  listSites: 'read',
  getSiteById: 'read',
  getPublishedContentSite: 'read',
  getSiteStructure: 'read',
  getSiteAdaptiveSchema: 'read 404',
  listSiteAdaptiveTemplateConditions: 'read',
  getSiteCustomizationById: 'read',
  getSiteSpaceCustomizationById: 'read',
  listSiteShareLinks: 'admin',
  // The visitor-auth key: whoever manages the site (issue 30).
  getSitePublishingAuthById: 'admin',
  listSiteSections: 'read',
  listSiteSectionGroups: 'read',
  listSiteSpaces: 'read',
  listConversations: 'read',
  getConversation: 'read 404',
  listConversationsIssues: 'read',
  getConversationsIssue: 'read 404',
  listConversationsIssuesClusters: 'read',
  listSAMLProvidersInOrganizationById: 'admin',
  getOrganizationSAMLProviderById: 'admin 404',
  listSSOProviderLoginsInOrganization: 'public',
  getSpaceGitInfo: '404',
  // OpenAPI specs: members with a role read them (guests do not); create and above write
  // them (the organization's createOpenAPISpec permission).
  listOpenAPISpecs: 'read',
  getOpenAPISpecBySlug: 'read',
  listOpenAPISpecVersions: 'read',
  getLatestOpenAPISpecVersion: 'read',
  getLatestOpenAPISpecVersionContent: 'read',
  getLatestOpenAPISpecVersionContentRaw: 'read',
  getOpenAPISpecVersionById: 'read',
  getOpenAPISpecVersionContentById: 'read',
  listTranslations: 'read',
  getTranslation: 'read',
  listGlossaryEntries: 'read',
  getGlossaryEntry: 'read',
  createOrganization: 'signedIn',
  updateOrganizationById: 'admin',
  updateOrganizationAgentInstructions: 'admin',
  updateMemberInOrganizationById: 'admin',
  setUserAsSSOMemberForOrganization: 'admin',
  // The caller's own membership.
  updateOrganizationMemberLastSeenAt: 'guest',
  // The caller's email domain decides; the other organization's admin has none of ours (400).
  joinOrganization: 'guest otherOrg=400',
  createOrganizationTeam: 'admin',
  updateTeamInOrganizationById: 'admin',
  updateMembersInOrganizationTeam: 'admin',
  addMemberToOrganizationTeamById: 'admin',
  inviteUsersToOrganization: 'admin 400',
  createOrganizationInvite: 'admin',
  updateOrganizationInviteById: 'admin',
  createCollection: 'create',
  updateCollectionById: 'admin',
  // Into the seeded collection: itself (400).
  moveCollection: 'admin 400',
  transferCollection: 'admin 404',
  inviteToSpace: '400',
  updateUserPermissionInSpace: 'admin 404',
  updateTeamPermissionInSpace: 'admin 404',
  inviteToCollection: '400',
  updateUserPermissionInCollection: 'admin 404',
  updateTeamPermissionInCollection: 'admin 404',
  createSpace: 'create',
  updateSpaceById: 'edit',
  // A live space: restoring it is a read; a deleted one needs admin.
  restoreSpace: 'guest',
  duplicateSpace: 'create',
  // Into the collection it is already in: 409, nothing to move.
  moveSpace: 'admin 409',
  transferSpace: 'admin 404',
  applyTemplateToSpace: 'edit 400',
  createChangeRequest: 'edit',
  updateChangeRequestById: 'edit',
  mergeChangeRequest: 'review',
  updateChangeRequest: 'edit 409',
  submitChangeRequestReview: 'review 409',
  requestReviewersForChangeRequest: 'edit 409',
  updateChangeRequestContent: 'edit 400',
  postCommentInSpace: 'comment 400',
  // The minimal body changes nothing: a read of the comment (its body needs its author, resolving `comment`).
  updateCommentInSpace: 'guest',
  postCommentReplyInSpace: 'comment 400',
  // As updateCommentInSpace.
  updateCommentReplyInSpace: 'guest',
  postCommentInChangeRequest: 'comment 400',
  // As updateCommentInSpace.
  updateCommentInChangeRequest: 'guest',
  postCommentReplyInChangeRequest: 'comment 400',
  // As updateCommentInSpace.
  updateCommentReplyInChangeRequest: 'guest',
  createSite: 'create',
  updateSiteById: 'admin',
  publishSite: 'admin',
  unpublishSite: 'admin',
  sortSiteStructure: 'admin 404',
  updateSiteAdaptiveSchema: '400',
  updateSiteCustomizationById: 'admin',
  overrideSiteSpaceCustomizationById: 'admin',
  createSiteShareLink: 'admin',
  regenerateSitePublishingAuthById: 'admin',
  // The seed names no hostname: the placeholder fails the hostname pattern.
  dnsRevalidateCustomHostname: '400',
  updateSiteShareLinkById: 'admin',
  addSectionToSite: 'admin',
  updateSiteSectionById: 'admin',
  moveSiteSection: 'admin',
  addSectionGroupToSite: 'admin',
  updateSiteSectionGroupById: 'admin',
  addSectionToSiteSectionGroup: 'admin 400',
  moveSiteSectionGroup: 'admin',
  addSpaceToSite: 'admin',
  updateSiteSpaceById: 'admin',
  moveSiteSpace: 'admin',
  ingestConversation: 'admin',
  createOrganizationSAMLProvider: 'admin 400',
  // No provider is seeded: admins get 404.
  updateOrganizationSAMLProvider: 'admin 404',
  importGitRepository: '400',
  exportToGitRepository: '400',
  createTranslation: 'create 400',
  createOpenAPISpec: 'create',
  createOrUpdateOpenAPISpecBySlug: 'create',
  updateOpenAPISpecBySlug: 'create',
  updateTranslation: 'create',
  runTranslation: 'create',
  updateGlossaryEntries: 'create',
  // UserId is the `read` member: removing oneself.
  deleteMemberFromOrganizationTeamById: 'read',
  deleteOrganizationInviteById: 'admin',
  removeUserFromSpace: 'admin',
  removeTeamFromSpace: 'admin',
  removeUserFromCollection: 'admin',
  removeTeamFromCollection: 'admin',
  // UserId is the `read` member: declining one's own review.
  removeRequestedReviewerFromChangeRequest: 'read',
  deleteCommentInSpace: 'admin',
  deleteCommentReplyInSpace: 'admin',
  deleteCommentInChangeRequest: 'admin',
  deleteCommentReplyInChangeRequest: 'admin',
  deleteSiteSpaceCustomizationById: 'admin',
  deleteSiteShareLinkById: 'admin',
  removeSectionFromSiteSectionGroup: 'admin',
  // No provider is seeded: deleting nothing, still admins only.
  deleteOrganizationSAMLProvider: 'admin',
  deleteLegacyGitSyncInstallation: 'edit',
  deleteTranslation: 'create',
  deleteOpenAPISpecBySlug: 'create',
  deleteSiteSectionGroupById: 'admin',
  deleteSiteSectionById: 'admin',
  deleteSiteSpaceById: 'admin',
  deleteSiteById: 'admin',
  removeTeamFromOrganizationById: 'admin',
  deleteSpaceById: 'admin',
  deleteCollectionById: 'admin',
  // UserId is the `read` member: leaving the organization.
  removeMemberFromOrganizationById: 'read',
  // Its invite was deleted before (deleteOrganizationInviteById).
  joinOrganizationWithInvite: '404',
};

export const ROLES = ['guest', 'read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Caller = 'none' | 'otherOrg' | (typeof ROLES)[number];

/** What a rule of EXPECTED (see authz.expected.ts) says `caller` gets: a status, or '2xx'. */
export function expectedStatus(rule: string, caller: Caller): Array<number | '2xx'> {
  const [head = '', ...rest] = rule.split(' ');
  const otherOrg = rest.find((p) => p.startsWith('otherOrg='));
  const then = rest.find((p) => /^\d+$/.test(p));
  if (/^\d+$/.test(head)) return caller === 'none' ? [401] : caller === 'otherOrg' ? [Number(head), 404] : [Number(head)];
  if (head === 'public') return ['2xx'];
  if (caller === 'none') return [401];
  if (caller === 'otherOrg') return otherOrg ? [Number(otherOrg.slice('otherOrg='.length))] : head === 'signedIn' ? ['2xx'] : [404];
  if (head === 'signedIn') return ['2xx'];
  const from = ROLES.indexOf(head as (typeof ROLES)[number]);
  if (from < 0) throw new Error(`unknown rule ${rule}`);
  if (ROLES.indexOf(caller) < from) return [403, 404];
  return then ? [Number(then)] : ['2xx'];
}
