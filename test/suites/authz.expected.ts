import type { OrganizationAccess } from '../../src/access/index.ts';
import { accessFrom, collectionPolicy, spacePolicy, type ContentFacts } from '../../src/access/index.ts';
import type { ContentVisibility, DefaultLevel, RoleName } from '../../src/db/types.ts';
import { changeRequestPolicy } from '../../src/modules/change-requests/change-requests.policy.ts';
import { commentPolicy } from '../../src/modules/comments/comments.policy.ts';
import { organizationPolicy } from '../../src/modules/organizations/organizations.policy.ts';
import type { Policy } from '../../src/policies/index.ts';

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
 * The role of a rule is derived, wherever a policy on the seeded objects decides it, from
 * the access layer's own definition (src/access: effectiveRole and the policies applied to
 * what the seed makes): `onSpace('edit')` is the lowest caller whose effective role on the
 * seeded space passes spacePolicy's `edit`. Only rules no such policy decides (the
 * caller's own things, objects the seed does not make, sites' and translations' own
 * standing) are written out.
 * Operations run in the suite's order (reads, writes, deletes, then its LAST list), so a
 * rule describes the state left by the operations before it.
 */

export const ROLES = ['guest', 'read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Caller = 'none' | 'otherOrg' | (typeof ROLES)[number];

/** A member of the matrix (test/suites/seed.ts): the organization role, or a guest. */
type Member = (typeof ROLES)[number];

/**
 * What the seed (seedObjects) makes, as the access layer reads it: the collection
 * "Handbook" at the organization root and the space "Guide" in it, both with
 * defaultLevel `inherit`, the space private and live; the guest holds `read` on the space.
 */
const SEEDED = {
  collection: { default_level: 'inherit' as DefaultLevel },
  space: { default_level: 'inherit' as DefaultLevel, visibility: 'private' as ContentVisibility, edit_mode: 'live' as const },
  grantsOnSpace: { guest: ['read'] } as Partial<Record<Member, RoleName[]>>,
};

const orgRoleOf = (member: Member): RoleName | null => (member === 'guest' ? null : member);

function factsOf(member: Member, target: 'space' | 'collection'): ContentFacts {
  return {
    organizationId: 'seeded',
    userId: member,
    member: true,
    orgRole: orgRoleOf(member),
    grants: target === 'space' ? (SEEDED.grantsOnSpace[member] ?? []) : [],
    levelsAbove: target === 'space' ? [SEEDED.collection.default_level] : [],
  };
}

/** Each member's access to the seeded space and collection, and standing in the organization. */
const spaceAccess = (member: Member) => accessFrom(factsOf(member, 'space'), SEEDED.space);
const collectionAccess = (member: Member) => accessFrom(factsOf(member, 'collection'), SEEDED.collection);
const organizationAccess = (member: Member): OrganizationAccess => ({ organizationId: 'seeded', userId: member, role: orgRoleOf(member), ownsTeam: false });

/** The rule of the lowest member `allows` lets through, then `status` when given (the minimal request's refusal). */
function lowest(allows: (member: Member) => boolean, status?: number): string {
  const member = ROLES.find(allows);
  if (!member) throw new Error('authz.expected: no member of the matrix is allowed');
  return status === undefined ? member : `${member} ${status}`;
}

type ActionOf<P> = P extends Policy<never, infer A> ? A : never;
const onSpace = (action: ActionOf<typeof spacePolicy>, status?: number) => lowest((m) => spacePolicy.can(action, spaceAccess(m)), status);
const onCollection = (action: ActionOf<typeof collectionPolicy>, status?: number) => lowest((m) => collectionPolicy.can(action, collectionAccess(m)), status);
const inOrganization = (action: ActionOf<typeof organizationPolicy>, status?: number) =>
  lowest((m) => organizationPolicy.can(action, organizationAccess(m)), status);
/** On the seeded draft, which the admin opened (so nobody in the matrix is its creator). */
const onChangeRequest = (action: ActionOf<typeof changeRequestPolicy>, status?: number) =>
  lowest((m) => changeRequestPolicy.can(action, { space: spaceAccess(m), isCreator: false }), status);
/** On the seeded comments and replies, which the admin wrote. */
const onComment = (action: ActionOf<typeof commentPolicy>, status?: number) =>
  lowest((m) => commentPolicy.can(action, { space: spaceAccess(m), isAuthor: false }), status);

export const EXPECTED: Record<string, string> = {
  getApiInformation: 'public',
  getLiveness: 'public',
  getOpenAPIDocument: 'public',
  getAuthenticatedUser: 'signedIn',
  // A user is visible to the members of an organization they belong to.
  getUserById: 'guest',
  listOrganizationsForAuthenticatedUser: 'signedIn',
  getOrganizationById: inOrganization('view'),
  getOrganizationsForEmailDomain: 'signedIn',
  getOrganizationAgentInstructions: inOrganization('readAgentInstructions'),
  searchOrganizationContent: 'guest',
  listMembersInOrganizationById: inOrganization('listMembers'),
  getMemberInOrganizationById: inOrganization('listMembers'),
  listSpacesForOrganizationMember: inOrganization('listMembers'),
  listTeamsForOrganizationMember: inOrganization('listTeams'),
  listTeamsInOrganizationById: inOrganization('listTeams'),
  getTeamInOrganizationById: inOrganization('listTeams'),
  listTeamMembersInOrganizationById: inOrganization('listTeams'),
  listOrganizationInviteLinks: inOrganization('admin'),
  getOrganizationInviteLink: inOrganization('admin'),
  listCollectionsInOrganizationById: inOrganization('view'),
  // The guest's grant is on the space, not on its collection.
  getCollectionById: onCollection('view'),
  listUserPermissionsInSpace: onSpace('admin'),
  listTeamPermissionsInSpace: onSpace('admin'),
  listPermissionsAggregateInSpace: onSpace('admin'),
  listUserPermissionsInCollection: onCollection('admin'),
  listTeamPermissionsInCollection: onCollection('admin'),
  listPermissionsAggregateInCollection: onCollection('admin'),
  listSpacesInOrganizationById: 'guest',
  listSpacesInCollectionById: onCollection('view'),
  getSpaceById: onSpace('view'),
  getCurrentRevision: onSpace('view'),
  listPages: onSpace('view'),
  listFiles: onSpace('view'),
  getFileById: onSpace('view'),
  getPageById: onSpace('view'),
  getPageByPath: onSpace('view'),
  getRevisionById: onSpace('view'),
  listPagesInRevisionById: onSpace('view'),
  listFilesInRevisionById: onSpace('view'),
  getFileInRevisionById: onSpace('view'),
  getPageInRevisionById: onSpace('view'),
  getPageInRevisionByPath: onSpace('view'),
  listChangeRequestsForSpace: onChangeRequest('view'),
  listChangeRequestsForOrganization: 'guest',
  getChangeRequestById: onChangeRequest('view'),
  getReviewsByChangeRequestId: onChangeRequest('view'),
  getChangeRequestReviewById: '404',
  getRequestedReviewersByChangeRequestId: onChangeRequest('view'),
  getContributorsByChangeRequestId: onChangeRequest('view'),
  getRevisionOfChangeRequestById: onChangeRequest('view'),
  listPagesInChangeRequest: onChangeRequest('view'),
  listFilesInChangeRequestById: onChangeRequest('view'),
  getFileInChangeRequestById: onChangeRequest('view'),
  getPageInChangeRequestById: onChangeRequest('view'),
  getPageInChangeRequestByPath: onChangeRequest('view'),
  getSpacePDF: onSpace('view'),
  getChangeRequestPDF: onChangeRequest('view'),
  listSpaceLinks: onSpace('view'),
  listSpacePageLinks: onSpace('view'),
  listSpaceFileBacklinks: onSpace('view'),
  listChangeRequestPageLinks: onChangeRequest('view'),
  listChangeRequestPageBacklinks: onChangeRequest('view'),
  listChangeRequestFileBacklinks: onChangeRequest('view'),
  searchSpaceContent: onSpace('view'),
  listCommentsInSpace: onComment('view'),
  getCommentInSpace: onComment('view'),
  listCommentRepliesInSpace: onComment('view'),
  getCommentReplyInSpace: onComment('view'),
  listCommentersInSpace: onComment('view'),
  listCommentsInChangeRequest: onComment('view'),
  getCommentInChangeRequest: onComment('view'),
  listCommentRepliesInChangeRequest: onComment('view'),
  getCommentReplyInChangeRequest: onComment('view'),
  listCommentersInChangeRequest: onComment('view'),
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
  listSAMLProvidersInOrganizationById: inOrganization('admin'),
  getOrganizationSAMLProviderById: inOrganization('admin', 404),
  listSSOProviderLoginsInOrganization: 'public',
  getSpaceGitInfo: '404',
  // OpenAPI specs: members with a role read them (guests do not); create and above write
  // them (the organization's createOpenAPISpec permission).
  listOpenAPISpecs: inOrganization('listMembers'),
  getOpenAPISpecBySlug: inOrganization('listMembers'),
  listOpenAPISpecVersions: inOrganization('listMembers'),
  getLatestOpenAPISpecVersion: inOrganization('listMembers'),
  getLatestOpenAPISpecVersionContent: inOrganization('listMembers'),
  getLatestOpenAPISpecVersionContentRaw: inOrganization('listMembers'),
  getOpenAPISpecVersionById: inOrganization('listMembers'),
  getOpenAPISpecVersionContentById: inOrganization('listMembers'),
  listTranslations: 'read',
  getTranslation: 'read',
  listGlossaryEntries: 'read',
  getGlossaryEntry: 'read',
  createOrganization: 'signedIn',
  updateOrganizationById: inOrganization('admin'),
  updateOrganizationAgentInstructions: inOrganization('admin'),
  updateMemberInOrganizationById: inOrganization('admin'),
  setUserAsSSOMemberForOrganization: inOrganization('admin'),
  // The caller's own membership.
  updateOrganizationMemberLastSeenAt: 'guest',
  // The caller's email domain decides; the other organization's admin has none of ours (400).
  joinOrganization: 'guest otherOrg=400',
  createOrganizationTeam: inOrganization('admin'),
  updateTeamInOrganizationById: inOrganization('admin'),
  updateMembersInOrganizationTeam: inOrganization('admin'),
  addMemberToOrganizationTeamById: inOrganization('admin'),
  inviteUsersToOrganization: inOrganization('admin', 400),
  createOrganizationInvite: inOrganization('admin'),
  updateOrganizationInviteById: inOrganization('admin'),
  createCollection: inOrganization('createContent'),
  updateCollectionById: onCollection('admin'),
  // Into the seeded collection: itself (400).
  moveCollection: onCollection('admin', 400),
  transferCollection: 'admin 404',
  inviteToSpace: '400',
  updateUserPermissionInSpace: onSpace('admin', 404),
  updateTeamPermissionInSpace: onSpace('admin', 404),
  inviteToCollection: '400',
  updateUserPermissionInCollection: onCollection('admin', 404),
  updateTeamPermissionInCollection: onCollection('admin', 404),
  createSpace: onCollection('create'),
  updateSpaceById: onSpace('rename'),
  // A live space: restoring it is a read; a deleted one needs admin.
  restoreSpace: onSpace('view'),
  duplicateSpace: onCollection('create'),
  // Into the collection it is already in: 409, nothing to move.
  moveSpace: onSpace('admin', 409),
  transferSpace: 'admin 404',
  applyTemplateToSpace: onSpace('edit', 400),
  createChangeRequest: onChangeRequest('create'),
  updateChangeRequestById: onChangeRequest('edit'),
  mergeChangeRequest: onChangeRequest('merge'),
  updateChangeRequest: onChangeRequest('edit', 409),
  submitChangeRequestReview: onChangeRequest('review', 409),
  requestReviewersForChangeRequest: onChangeRequest('requestReview', 409),
  updateChangeRequestContent: onChangeRequest('edit', 400),
  postCommentInSpace: onComment('reply', 400),
  // The minimal body changes nothing: a read of the comment (its body needs its author, resolving `comment`).
  updateCommentInSpace: onComment('view'),
  postCommentReplyInSpace: onComment('reply', 400),
  // As updateCommentInSpace.
  updateCommentReplyInSpace: onComment('view'),
  postCommentInChangeRequest: onComment('reply', 400),
  // As updateCommentInSpace.
  updateCommentInChangeRequest: onComment('view'),
  postCommentReplyInChangeRequest: onComment('reply', 400),
  // As updateCommentInSpace.
  updateCommentReplyInChangeRequest: onComment('view'),
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
  ingestConversation: inOrganization('ingestConversations'),
  createOrganizationSAMLProvider: inOrganization('admin', 400),
  // No provider is seeded: admins get 404.
  updateOrganizationSAMLProvider: inOrganization('admin', 404),
  importGitRepository: '400',
  exportToGitRepository: '400',
  createTranslation: 'create 400',
  createOpenAPISpec: inOrganization('createOpenAPISpec'),
  createOrUpdateOpenAPISpecBySlug: inOrganization('createOpenAPISpec'),
  updateOpenAPISpecBySlug: inOrganization('createOpenAPISpec'),
  updateTranslation: 'create',
  runTranslation: 'create',
  updateGlossaryEntries: 'create',
  // UserId is the `read` member: removing oneself.
  deleteMemberFromOrganizationTeamById: 'read',
  deleteOrganizationInviteById: inOrganization('admin'),
  removeUserFromSpace: onSpace('admin'),
  removeTeamFromSpace: onSpace('admin'),
  removeUserFromCollection: onCollection('admin'),
  removeTeamFromCollection: onCollection('admin'),
  // UserId is the `read` member: declining one's own review.
  removeRequestedReviewerFromChangeRequest: 'read',
  deleteCommentInSpace: onComment('delete'),
  deleteCommentReplyInSpace: onComment('delete'),
  deleteCommentInChangeRequest: onComment('delete'),
  deleteCommentReplyInChangeRequest: onComment('delete'),
  deleteSiteSpaceCustomizationById: 'admin',
  deleteSiteShareLinkById: 'admin',
  removeSectionFromSiteSectionGroup: 'admin',
  // No provider is seeded: deleting nothing, still admins only.
  deleteOrganizationSAMLProvider: inOrganization('admin'),
  deleteLegacyGitSyncInstallation: onSpace('triggerGitSync'),
  deleteTranslation: 'create',
  deleteOpenAPISpecBySlug: inOrganization('createOpenAPISpec'),
  deleteSiteSectionGroupById: 'admin',
  deleteSiteSectionById: 'admin',
  deleteSiteSpaceById: 'admin',
  deleteSiteById: 'admin',
  removeTeamFromOrganizationById: inOrganization('admin'),
  deleteSpaceById: onSpace('admin'),
  deleteCollectionById: onCollection('admin'),
  // UserId is the `read` member: leaving the organization.
  removeMemberFromOrganizationById: 'read',
  // Its invite was deleted before (deleteOrganizationInviteById).
  joinOrganizationWithInvite: '404',
};


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
