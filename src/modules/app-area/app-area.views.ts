import type { PageDiff } from './app-area.diff.ts';
import type { OrganizationSearchResult, SpaceSearchResult } from '../search/search.model.ts';
import type { ChangeRequestResult, ChangeRequestsPage, RequestedReviewersPage, ReviewsPage } from '../change-requests/change-requests.model.ts';
import type { CommentsPage, RepliesPage } from '../comments/comments.model.ts';

/*
 * What the app area's services return and its presenters render: view models, and (the
 * `*Data` types) the other modules' domain results a view is made of, which the presenter
 * turns into the view through those modules' presenters. So a service never imports a
 * presenter (docs/architecture.md).
 */

export interface TreePage {
  id: string;
  title: string;
  kind?: string;
  type?: string;
  pages?: TreePage[];
}

export interface AccountView {
  user: { display_name: string; email: string };
  memberships: { id: string; title: string; role: string | null; member_sso: number; organization_sso: number }[];
  tokens: { id: string; label: string | null; created_at: string }[];
  newToken?: string;
  mayCreateTokens: boolean;
  signedInWith: string;
}

export type MoveDirection = 'up' | 'down' | 'indent' | 'outdent';

export interface ChangeRequestListView {
  space: { id: string; title: string };
  filter: { status: string; who?: 'mine' | 'review' };
  mayCreate: boolean;
  items: { number: number; subject: string; status: string; author: string; updatedAt: string }[];
}

export interface CommentView {
  id: string;
  author: string;
  at: string;
  text: string;
  status: string;
  pageId?: string;
  nodeId?: string;
  reactions: { emoji: string; count: number; mine: boolean }[];
  replies: { author: string; at: string; text: string }[];
}

export interface ChangeRequestPageView {
  space: { id: string; title: string };
  changeRequest: {
    number: number;
    subject: string;
    status: string;
    outdated: boolean;
    createdBy: string;
    createdAt: string;
    merged?: { by: string; at: string };
    descriptionMarkdown: string;
    /** The stored GitBook document, for the rich-text editor (null: none yet). */
    descriptionDocument: unknown;
    /** Rendered by the site's document renderer (escaped there). */
    descriptionHtml: string;
  };
  can: { update: boolean; edit: boolean; review: boolean; merge: boolean; requestReview: boolean; comment: boolean };
  reviews: { status: string; outdated: boolean; reviewer: string; at: string }[];
  requestedReviewers: string[];
  members: { id: string; name: string; role: string }[];
  comments: CommentView[];
  changes: PageDiff[];
  pages: TreePage[];
  mergeBlockers: string[];
  conflicts: { pageId: string; title: string; detail: string }[];
}

export interface CrPageView {
  space: { id: string; title: string };
  changeRequest: { number: number; subject: string; status: string };
  page: { id: string; title: string; emoji?: string; description?: string };
  blocks: { nodeId: string; html: string }[];
  comments: CommentView[];
  can: { comment: boolean };
}

export interface SearchView {
  query: string;
  /** Where the search ran: an organization (all its spaces the member sees) or one space. */
  scope: { kind: 'organization' | 'space'; id: string; title: string };
  /** The search's results; none before a query is typed. */
  found: { kind: 'space'; result: SpaceSearchResult } | { kind: 'organization'; result: OrganizationSearchResult } | undefined;
}

/** A change request list: its space, the filter, and the change-request service's page. */
export interface ChangeRequestListData extends Omit<ChangeRequestListView, 'items'> {
  changeRequests: ChangeRequestsPage;
}

/** A change request's comments, the replies of those answered (by comment id), and who is looking (their reactions are marked). */
export interface CommentsData {
  comments: CommentsPage;
  replies: Map<string, RepliesPage>;
  viewer: string;
}

/** What a change request's page is made of; the presenter makes the ChangeRequestPageView. */
export interface ChangeRequestPageData extends Omit<ChangeRequestPageView, 'changeRequest' | 'reviews' | 'requestedReviewers' | 'comments'> {
  changeRequest: ChangeRequestResult;
  reviews: ReviewsPage;
  requested: RequestedReviewersPage;
  comments: CommentsData;
}

/** One page of a change request; its comments are the change request's (the view keeps the page's). */
export interface CrPageData extends Omit<CrPageView, 'comments'> {
  comments: CommentsData;
}
