import type { Page } from '../../lib/pagination/index.ts';
import type { ChangeRequestView, ContributorRow, ReviewerRow, ReviewRow, UserRef } from './change-requests.repository.ts';

/*
 * What the change-request service answers: rows with the users they name, read once per
 * result. The routes present them (change-requests.presenter.ts); a user since removed
 * from the server is missing from `users` and shows as who they were.
 */

/** The users a result names, by id. */
export type Users = Map<string, UserRef>;

/** A list's page and the users its items name. */
export type PageWithUsers<T> = Page<T> & { users: Users };

/** One change request and the users it names (its creator, who merged it). */
export interface ChangeRequestResult {
  changeRequest: ChangeRequestView;
  users: Users;
}

/** One review: `outdated` when its reviewer reviewed again later, or it judged an older revision. */
export interface ReviewResult {
  review: ReviewRow;
  outdated: boolean;
  spaceId: string;
  users: Users;
}

/** A page of reviews, with the ids of those outdated. */
export type ReviewsPage = PageWithUsers<ReviewRow> & { outdated: Set<string>; spaceId: string };

/** The reviewers just requested. */
export interface RequestedReviewersResult {
  reviewers: ReviewerRow[];
  users: Users;
}

export type ChangeRequestsPage = PageWithUsers<ChangeRequestView>;
export type RequestedReviewersPage = PageWithUsers<ReviewerRow>;
export type ContributorsPage = PageWithUsers<ContributorRow>;

/** Whether a pending change request started from a revision older than its space's head. */
export function isOutdated(row: Pick<ChangeRequestView, 'status' | 'space_revision_id' | 'revision_merged_ancestor'>): boolean {
  return (row.status === 'open' || row.status === 'draft') && row.space_revision_id !== row.revision_merged_ancestor;
}
