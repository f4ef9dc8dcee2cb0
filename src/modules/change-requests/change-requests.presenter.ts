import type { Config } from '../../config.ts';
import { apiUrl, appUrl } from '../../lib/urls.ts';
import { presentUser } from '../users/users.presenter.ts';
import type { UserWire } from '../users/users.schemas.ts';
import type { Page } from '../../lib/pagination/index.ts';
import type {
  ChangeRequestResult,
  ChangeRequestsPage,
  ContributorsPage,
  PageWithUsers,
  RequestedReviewersPage,
  RequestedReviewersResult,
  ReviewResult,
  ReviewsPage,
  Users,
} from './change-requests.model.ts';
import { isOutdated } from './change-requests.model.ts';
import type { ChangeRequestView, ContributorRow, ReviewerRow, ReviewRow } from './change-requests.repository.ts';
import type { ChangeRequestWire } from './change-requests.schemas.ts';

/** A user by id; a user since removed from the server still shows as who they were. */
function user(config: Pick<Config, 'publicUrl'>, users: Users, id: string): UserWire {
  const row = users.get(id) ?? { id, display_name: 'Deleted user', email: '', photo_url: null };
  return presentUser(config, row);
}

export const changeRequestUrl = (config: Pick<Config, 'publicUrl'>, spaceId: string, id: string) =>
  apiUrl(config, `/spaces/${spaceId}/change-requests/${id}`);

/** change_requests row -> ChangeRequest wire object. */
export function presentChangeRequest(config: Pick<Config, 'publicUrl'>, row: ChangeRequestView, users: Users): ChangeRequestWire {
  return {
    object: 'change-request',
    id: row.id,
    number: Number(row.number),
    status: row.status,
    subject: row.subject,
    ...(row.description ? { description: JSON.parse(row.description) } : {}),
    createdBy: user(config, users, row.created_by),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.merged_by ? { mergedBy: user(config, users, row.merged_by) } : {}),
    ...(row.merged_at ? { mergedAt: row.merged_at } : {}),
    space: row.space_id,
    revision: row.revision_id,
    revisionInitial: row.revision_initial,
    revisionMergedAncestor: row.revision_merged_ancestor,
    ...(row.revision_merged ? { revisionMerged: row.revision_merged } : {}),
    // Open comments (a just-created change request has none).
    comments: Number(row.comments ?? 0),
    outdated: isOutdated(row),
    ...(row.conversations_issues_cluster ? { conversationsIssuesCluster: row.conversations_issues_cluster } : {}),
    urls: {
      location: changeRequestUrl(config, row.space_id, row.id),
      app: appUrl(config, `/s/${row.space_id}/change-requests/${row.number}`),
    },
  };
}

/** A review; outdated when the reviewer reviewed again later, or the change request moved on. */
export function presentReview(config: Pick<Config, 'publicUrl'>, row: ReviewRow, users: Users, outdated: boolean, spaceId: string) {
  return {
    object: 'change-request-review' as const,
    id: row.id,
    revision: row.revision_id,
    reviewer: user(config, users, row.reviewer_id),
    ...(row.requested_by ? { requestedBy: user(config, users, row.requested_by) } : {}),
    status: row.status,
    outdated,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: { location: `${changeRequestUrl(config, spaceId, row.change_request_id)}/reviews/${row.id}` },
  };
}

export function presentRequestedReviewer(config: Pick<Config, 'publicUrl'>, row: ReviewerRow, users: Users) {
  return {
    object: 'change-request-requested-reviewer' as const,
    revision: row.revision_id,
    requestedBy: user(config, users, row.requested_by),
    createdAt: row.created_at,
    kind: 'user' as const,
    user: user(config, users, row.user_id),
  };
}

export function presentContributor(config: Pick<Config, 'publicUrl'>, row: ContributorRow, users: Users) {
  return { updatedAt: row.last_contributed_at, count: Number(row.count), user: user(config, users, row.user_id), actionType: 'edit' as const };
}

/** A page of the service's rows as the wire's list: the same cursors and count, each item presented. */
function presentPage<T, W>(page: PageWithUsers<T>, present: (row: T) => W): Page<W> {
  const { items, count, next, previous } = page;
  return { items: items.map(present), count, ...(next ? { next } : {}), ...(previous ? { previous } : {}) };
}

export const presentChangeRequestResult = (config: Pick<Config, 'publicUrl'>, result: ChangeRequestResult) =>
  presentChangeRequest(config, result.changeRequest, result.users);

export const presentChangeRequestsPage = (config: Pick<Config, 'publicUrl'>, page: ChangeRequestsPage) =>
  presentPage(page, (row) => presentChangeRequest(config, row, page.users));

export const presentReviewResult = (config: Pick<Config, 'publicUrl'>, result: ReviewResult) =>
  presentReview(config, result.review, result.users, result.outdated, result.spaceId);

export const presentReviewsPage = (config: Pick<Config, 'publicUrl'>, page: ReviewsPage) =>
  presentPage(page, (row) => presentReview(config, row, page.users, page.outdated.has(row.id), page.spaceId));

export const presentRequestedReviewers = (config: Pick<Config, 'publicUrl'>, result: RequestedReviewersResult) => ({
  users: result.reviewers.map((row) => presentRequestedReviewer(config, row, result.users)),
});

export const presentRequestedReviewersPage = (config: Pick<Config, 'publicUrl'>, page: RequestedReviewersPage) =>
  presentPage(page, (row) => presentRequestedReviewer(config, row, page.users));

export const presentContributorsPage = (config: Pick<Config, 'publicUrl'>, page: ContributorsPage) =>
  presentPage(page, (row) => presentContributor(config, row, page.users));
