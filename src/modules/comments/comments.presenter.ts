import type { Config } from '../../config.ts';
import { documentToMarkdown, markdownToDocument, type Document, type DocumentNode } from '../../content/markdown/index.ts';
import { childrenOf } from '../../content/markdown/extract.ts';
import { apiUrl } from '../../lib/urls.ts';
import { presentUser } from '../users/users.presenter.ts';
import type { UserWire } from '../users/users.schemas.ts';
import type { Page } from '../../lib/pagination/index.ts';
import type { CommentExtras, CommentResult, CommentsPage, RepliesPage, ReplyResult, Users } from './comments.model.ts';
import type { CommentRow, ReactionRow, ReplyRow } from './comments.repository.ts';
import type { BodyFormat, CommentReplyWire, CommentWire } from './comments.schemas.ts';

/** A user by id; a user since removed from the server still shows as who they were. */
function user(config: Pick<Config, 'publicUrl'>, users: Users, id: string): UserWire {
  return presentUser(config, users.get(id) ?? { id, display_name: 'Deleted user', email: '', photo_url: null });
}

export function commentUrl(config: Pick<Config, 'publicUrl'>, row: Pick<CommentRow, 'space_id' | 'change_request_id' | 'id'>): string {
  const base = row.change_request_id ? `/spaces/${row.space_id}/change-requests/${row.change_request_id}` : `/spaces/${row.space_id}`;
  return apiUrl(config, `${base}/comments/${row.id}`);
}

/** `@[Name](user:<id>)` links of resolved mentions become user references, as GitBook's `[@Name](/users/<id>)` do. */
function resolveMentions(node: DocumentNode, mentions: Set<string>): void {
  if (node.object === 'inline' && node.type === 'link' && node.data.ref.kind === 'url' && node.data.ref.url.startsWith('user:')) {
    const id = node.data.ref.url.slice('user:'.length);
    if (mentions.has(id)) node.data.ref = { kind: 'user', user: id };
  }
  for (const child of childrenOf(node)) resolveMentions(child, mentions);
}

/** The stored body in the format asked for: its markdown, or the document it was read as when written (older rows: read now). */
export function presentBody(row: { body: string; document: string | null }, mentions: string[], format: BodyFormat): CommentWire['body'] {
  if (format === 'markdown') return { markdown: row.body };
  const document: Document = row.document !== null ? (JSON.parse(row.document) as Document) : markdownToDocument(row.body);
  if (mentions.length > 0) {
    const ids = new Set(mentions);
    for (const node of document.nodes) resolveMentions(node, ids);
  }
  return { document };
}

/** A body given as a document, written as the markdown it stands for. */
export function markdownOfDocument(document: Document): string {
  return documentToMarkdown(document);
}

/** Reactions grouped by emoji, in the order each emoji was first used; users oldest first. */
export function presentReactions(config: Pick<Config, 'publicUrl'>, rows: ReactionRow[], users: Users): CommentWire['reactions'] {
  const byEmoji = new Map<string, CommentWire['reactions'][number]>();
  for (const row of rows) {
    let reaction = byEmoji.get(row.emoji);
    if (!reaction) byEmoji.set(row.emoji, (reaction = { emoji: row.emoji, count: 0, users: [] }));
    reaction.count += 1;
    reaction.users.push({ user: user(config, users, row.user_id), reactedAt: row.reacted_at });
  }
  return [...byEmoji.values()];
}

/** comments row -> Comment wire object. */
export function presentComment(config: Pick<Config, 'publicUrl'>, row: CommentRow, extras: CommentExtras): CommentWire {
  const mentions = JSON.parse(row.mentions) as string[];
  const target: CommentWire['target'] = { space: row.space_id, revision: row.revision_id };
  if (row.page_id) target.page = { id: row.page_id };
  if (row.node_id) target.node = { id: row.node_id };
  if (row.table_record && row.table_definition) target.tableCell = { record: row.table_record, definition: row.table_definition };
  if (row.change_request_id) target.changeRequest = row.change_request_id;
  const comment: CommentWire = {
    object: 'comment',
    id: row.id,
    postedBy: user(config, extras.users, row.posted_by),
    postedAt: row.posted_at,
    reactions: presentReactions(config, extras.reactions, extras.users),
    replies: extras.repliers.reduce((sum, r) => sum + Number(r.n), 0),
    repliers: extras.repliers.map((r) => ({ updatedAt: r.last, count: Number(r.n), user: user(config, extras.users, r.posted_by) })),
    body: presentBody(row, mentions, extras.format),
    mentions: mentions.map((id) => user(config, extras.users, id)),
    target,
    urls: { location: commentUrl(config, row) },
    permissions: extras.permissions,
    status: row.status,
  };
  if (row.edited_at) comment.editedAt = row.edited_at;
  if (row.status === 'resolved' && row.resolved_at && row.resolved_by) {
    comment.resolvedAt = row.resolved_at;
    comment.resolvedBy = user(config, extras.users, row.resolved_by);
  }
  return comment;
}

/** comment_replies row -> CommentReply wire object. */
export function presentReply(
  config: Pick<Config, 'publicUrl'>,
  comment: Pick<CommentRow, 'space_id' | 'change_request_id' | 'id'>,
  row: ReplyRow,
  extras: Omit<CommentExtras, 'repliers'>,
): CommentReplyWire {
  const mentions = JSON.parse(row.mentions) as string[];
  const reply: CommentReplyWire = {
    object: 'comment-reply',
    id: row.id,
    postedBy: user(config, extras.users, row.posted_by),
    postedAt: row.posted_at,
    reactions: presentReactions(config, extras.reactions, extras.users),
    body: presentBody(row, mentions, extras.format),
    mentions: mentions.map((id) => user(config, extras.users, id)),
    urls: { location: `${commentUrl(config, comment)}/replies/${row.id}` },
    permissions: extras.permissions,
  };
  if (row.edited_at) reply.editedAt = row.edited_at;
  return reply;
}

export const presentCommentResult = (config: Pick<Config, 'publicUrl'>, result: CommentResult): CommentWire =>
  presentComment(config, result.comment, result.extras);

export const presentReplyResult = (config: Pick<Config, 'publicUrl'>, result: ReplyResult): CommentReplyWire =>
  presentReply(config, result.comment, result.reply, result.extras);

export function presentCommentsPage(config: Pick<Config, 'publicUrl'>, page: CommentsPage): Page<CommentWire> {
  return { ...page, items: page.items.map((result) => presentCommentResult(config, result)) };
}

export function presentRepliesPage(config: Pick<Config, 'publicUrl'>, page: RepliesPage): Page<CommentReplyWire> {
  return { ...page, items: page.items.map((result) => presentReplyResult(config, result)) };
}
