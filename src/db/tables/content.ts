/*
 * Row types of content: collections, spaces, grants, the revision store, change requests, comments,
 * live editing.
 * Conventions and the table map: ../types.ts.
 */

import type { Generated } from 'kysely';
import type { RoleName } from './accounts.ts';

/** A space's or collection's `defaultLevel`: a role, null (no access by default) or `inherit`. */
export type DefaultLevel = RoleName | 'inherit' | null;

export type ContentVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';

export interface CollectionsTable {
  id: string;
  organization_id: string;
  title: string;
  description: string | null;
  parent_id: string | null;
  position: number;
  default_level: DefaultLevel;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface SpacesTable {
  id: string;
  organization_id: string;
  title: string;
  emoji: string;
  visibility: ContentVisibility;
  edit_mode: 'live' | 'locked';
  default_level: DefaultLevel;
  language: string | null;
  merge_rules: string; // JSON
  parent_id: string | null;
  position: number;
  revision_id: string | null;
  share_key: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** JSON: the space's gitSync object once a git sync was set up (migration 0014). */
  git_sync?: string | null;
}

export interface ContentPermissionsTable {
  target_type: 'space' | 'collection';
  target_id: string;
  organization_id: string;
  principal_type: 'user' | 'team';
  principal_id: string;
  role: RoleName;
  created_at: string;
}

export interface RevisionsTable {
  id: string;
  space_id: string;
  parents: string; // JSON string[]
  type: string;
  tree_hash: string;
  files_hash: string;
  reusables_hash: string;
  variables: string; // JSON
  git: string | null; // JSON
  merged_from: string | null;
  created_by: string | null;
  created_at: string;
}

export interface ContentObjectsTable {
  space_id: string;
  hash: string;
  /** `source`: a file's text as git sync read it (a JSON string), written back while its page is unchanged. */
  kind: 'document' | 'tree' | 'files' | 'reusables' | 'source';
  body: string; // JSON
}

export interface SpaceBlobsTable {
  space_id: string;
  hash: string;
  size: number;
}

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';

export interface ChangeRequestCountersTable {
  space_id: string;
  last_number: number;
}

export interface ChangeRequestsTable {
  id: string;
  space_id: string;
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  description: string | null; // JSON rich-text document
  created_by: string;
  created_at: string;
  updated_at: string;
  revision_id: string;
  revision_initial: string;
  revision_merged_ancestor: string;
  revision_merged: string | null;
  merged_by: string | null;
  merged_at: string | null;
  /** The conversations issues cluster it was opened against (migration 0018). */
  conversations_issues_cluster?: string | null;
}

export interface ChangeRequestReviewsTable {
  id: string;
  change_request_id: string;
  reviewer_id: string;
  requested_by: string | null;
  status: 'approved' | 'changes-requested';
  revision_id: string;
  comment: string | null; // markdown
  created_at: string;
  updated_at: string;
}

export interface ChangeRequestReviewersTable {
  change_request_id: string;
  user_id: string;
  requested_by: string;
  revision_id: string;
  created_at: string;
}

export interface ChangeRequestContributorsTable {
  change_request_id: string;
  user_id: string;
  first_contributed_at: string;
  last_contributed_at: string;
  count: number;
}

export type CommentStatus = 'open' | 'resolved';

export interface CommentsTable {
  id: string;
  space_id: string;
  change_request_id: string | null; // null: a comment on the space itself
  revision_id: string;
  page_id: string | null;
  node_id: string | null;
  table_record: string | null;
  table_definition: string | null;
  body: string; // markdown as written
  /** The body read as a document (JSON), when it was written; null on rows older than migration 0031. */
  document: string | null;
  mentions: string; // JSON array of mentioned member ids
  posted_by: string;
  posted_at: string;
  edited_at: string | null;
  status: CommentStatus;
  resolved_at: string | null;
  resolved_by: string | null;
}

export interface CommentRepliesTable {
  id: string;
  comment_id: string;
  space_id: string;
  body: string;
  /** As CommentsTable.document. */
  document: string | null;
  mentions: string;
  posted_by: string;
  posted_at: string;
  edited_at: string | null;
}

export interface CommentReactionsTable {
  comment_id: string;
  reply_id: string; // '' for a reaction on the comment itself
  emoji: string;
  user_id: string;
  reacted_at: string;
}

/** A Yjs update of a page edited together in a change request (modules/collab). */
export interface CollabUpdatesTable {
  id: Generated<number>;
  change_request_id: string;
  page_id: string;
  process_id: string;
  /** The update, base64. */
  data: string;
  size: number;
  created_at: string;
}

/** A server process that has a live document open, renewed while it is (modules/collab). */
export interface CollabRoomsTable {
  change_request_id: string;
  page_id: string;
  process_id: string;
  seen_at: string;
}

/** One editor client's last awareness state in a live document (modules/collab). */
export interface CollabAwarenessTable {
  change_request_id: string;
  page_id: string;
  client_id: number;
  process_id: string;
  /** The member whose editor this client is. */
  user_id: string;
  /** The y-protocols awareness update of this client alone, base64. */
  data: string;
  updated_at: string;
}
