import type { Page } from '../../lib/pagination/index.ts';
import type { CommentRow, ReactionRow, ReplierRow, ReplyRow, UserRef } from './comments.repository.ts';
import type { BodyFormat } from './comments.schemas.ts';

/*
 * What the comments service answers: rows with what their wire objects show (the users
 * they name, repliers, reactions, the caller's permissions, the body format asked for).
 * The routes present them (comments.presenter.ts).
 */

/** The users a result names, by id; one removed from the server is missing and shows as who they were. */
export type Users = Map<string, UserRef>;

/** What the caller may do on a comment or a reply. */
export interface CommentPermissions {
  view: boolean;
  edit: boolean;
  reply: boolean;
  delete: boolean;
}

/** What a comment's wire object shows beside its row. */
export interface CommentExtras {
  users: Users;
  repliers: ReplierRow[];
  reactions: ReactionRow[];
  permissions: CommentPermissions;
  format: BodyFormat;
}

export interface CommentResult {
  comment: CommentRow;
  extras: CommentExtras;
}

/** A reply, with the comment it answers (its URL is under the comment's). */
export interface ReplyResult {
  comment: Pick<CommentRow, 'space_id' | 'change_request_id' | 'id'>;
  reply: ReplyRow;
  extras: Omit<CommentExtras, 'repliers'>;
}

export type CommentsPage = Page<CommentResult>;
export type RepliesPage = Page<ReplyResult>;
