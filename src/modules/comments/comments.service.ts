import type { Context } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import type { Page, PageRequest } from '../../lib/pagination/index.ts';
import { readUnlessChanged } from '../../db/read-cache.ts';
import { badRequest, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { documentToMarkdown, extractLinks, type Document, type DocumentNode } from '../../content/markdown/index.ts';
import { childrenOf } from '../../content/markdown/extract.ts';
import { completeDocument, InvalidDocument } from '../../content/markdown/complete.ts';
import { loadDocument, loadSnapshot } from '../../content/store/snapshot.ts';
import { loadChangeRequest, loadSpace, type ContentAccess } from '../../access/index.ts';
import type { MemberView } from '../members/members.repository.ts';
import { commentPolicy, type CommentAccess } from './comments.policy.ts';
import type { CommentResult, CommentsPage, RepliesPage, ReplyResult, Users } from './comments.model.ts';
import { commentsRepository, type CommentBase, type CommentRow, type ReplyRow } from './comments.repository.ts';
import {
  MAX_BODY_LENGTH,
  type BodyFormat,
  type CommentBodyInput,
  type CommentFilters,
  type PostCommentInput,
  type UpdateCommentInput,
  type UpdateReplyInput,
} from './comments.schemas.ts';

/** Where a request's comments live: `{S}/comments` (no change request) or `{CR}/comments`. */
export interface BaseRef {
  spaceId: string;
  changeRequestId?: string;
}

interface LoadedBase {
  base: CommentBase;
  access: ContentAccess;
  /** The revision new comments are made on: the space's current one, or the change request's head. */
  revisionId: string;
  organizationId: string;
}

/** The base and the caller's access to its space; 404 when the caller may not see its discussions. */
async function loadBase(ctx: Context, ref: BaseRef): Promise<LoadedBase> {
  if (ref.changeRequestId !== undefined) {
    const { space, cr, access } = await loadChangeRequest(ctx, ref.spaceId, ref.changeRequestId);
    return { base: { spaceId: space.id, changeRequestId: cr.id }, access: access.space, revisionId: cr.revision_id, organizationId: space.organization_id };
  }
  const { space, access } = await loadSpace(ctx, ref.spaceId);
  if (!commentPolicy.can('view', { space: access, isAuthor: false })) throw notFound('Space');
  return { base: { spaceId: space.id, changeRequestId: null }, access, revisionId: space.revision_id as string, organizationId: space.organization_id };
}

const accessTo = (ctx: Context, loaded: LoadedBase, postedBy: string): CommentAccess => ({ space: loaded.access, isAuthor: postedBy === ctx.actor.userId });

function permissionsOf(access: CommentAccess) {
  const p = commentPolicy.permissions(access);
  return { view: p.view, edit: p.edit, reply: p.reply, delete: p.delete };
}

async function findComment(ctx: Context, loaded: LoadedBase, commentId: string): Promise<CommentRow> {
  const comment = await commentsRepository.find(ctx.db, loaded.base, commentId);
  if (!comment) throw notFound('Comment');
  return comment;
}

// ---------------------------------------------------------------------------------------
// Bodies, mentions, reactions

/** A caller's JSON document, completed (content/markdown/complete.ts); 400 naming the field when it is none. */
function acceptJsonDocument(input: unknown, where: string): Document {
  try {
    return completeDocument(input);
  } catch (error) {
    if (error instanceof InvalidDocument) throw badRequest(`${where}/document is not a document Quire can read (${error.message})`);
    throw error;
  }
}

/**
 * The markdown to store for a body: as given (never rendered or executed here), or the
 * markdown a given document writes as. 400 for neither, both, blank or too long.
 */
function markdownOf(body: CommentBodyInput, where: string): string {
  const hasMarkdown = typeof body.markdown === 'string';
  const hasDocument = body.document !== undefined;
  if (hasMarkdown === hasDocument) throw badRequest(`${where}: give markdown or document (exactly one)`);
  let markdown: string;
  if (hasMarkdown) markdown = body.markdown as string;
  else {
    try {
      markdown = documentToMarkdown(acceptJsonDocument(body.document, where));
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode) throw error;
      throw badRequest(`${where}/document is not a document Quire can read (unknown or malformed nodes)`);
    }
  }
  if (markdown.trim() === '') throw badRequest(`${where}: the body is empty`);
  if (markdown.length > MAX_BODY_LENGTH) throw badRequest(`${where}: the body is longer than ${MAX_BODY_LENGTH} characters`);
  return markdown;
}

/** A body as stored: its markdown and the document it reads as (JSON). */
interface ReadBody {
  markdown: string;
  document: Document;
}

/**
 * A body read before its transaction: the markdown off the request thread past 16 KB, under
 * the reading budget (page-reader.ts), never under the database's write lock, and stored with
 * the comment so that no list of comments reads it again. Only for a member who may comment
 * on the base: no one else can make the server read.
 */
async function readBody(ctx: Context, ref: BaseRef, body: CommentBodyInput): Promise<ReadBody> {
  const loaded = await loadBase(ctx, ref);
  commentPolicy.authorize('reply', { space: loaded.access, isAuthor: true }, 'Commenting needs the comment role on the space');
  const markdown = markdownOf(body, 'body/body');
  return { markdown, document: await ctx.markdown.begin({ tenant: loaded.organizationId }).document(markdown, 'body/body') };
}

/** The columns a read body sets (its markdown, its document and the members it mentions). */
async function bodyColumns(db: Db, organizationId: string, body: ReadBody): Promise<Pick<CommentRow, 'body' | 'document' | 'mentions'>> {
  return { body: body.markdown, document: JSON.stringify(body.document), mentions: JSON.stringify(await mentionsOf(db, organizationId, body.document)) };
}

/**
 * The members a body mentions: links to `/users/<id>` (GitBook's form) or `user:<id>`
 * (`@[Name](user:<id>)`) naming an active member of the organization. Others stay links.
 */
async function mentionsOf(db: Db, organizationId: string, document: Document): Promise<string[]> {
  const ids: string[] = [];
  for (const link of extractLinks(document)) {
    if (link.ref.kind === 'user') ids.push(link.ref.user);
    else if (link.ref.kind === 'url' && /^user:[^\s/]+$/.test(link.ref.url)) ids.push(link.ref.url.slice('user:'.length));
  }
  const wanted = [...new Set(ids)].slice(0, 100);
  const members = await commentsRepository.activeMembers(db, organizationId, wanted);
  return wanted.filter((id) => members.has(id));
}

// One emoji: pictographs with their modifiers, joiners and variation selectors, or a flag.
const EMOJI = /^(?:\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3|\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F|\u20E3|[\u{E0020}-\u{E007F}])*(?:\u200D\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F)*)*)$/u;

function checkEmojis(emojis: string[] | undefined, where: string): string[] {
  const list = [...new Set(emojis ?? [])];
  for (const [i, emoji] of list.entries()) {
    if (!EMOJI.test(emoji)) throw badRequest(`${where}/${i}: "${emoji}" is not an emoji`);
  }
  return list;
}

/** Applies the caller's reaction changes to a comment (replyId '') or a reply: removals first, then additions. */
async function react(ctx: Context, db: Db, target: { commentId: string; replyId: string }, removed: string[], added: string[]): Promise<void> {
  await commentsRepository.removeReactions(db, target, ctx.actor.userId, removed);
  const now = isoNow(ctx.clock);
  await commentsRepository.addReactions(
    db,
    added.map((emoji) => ({ comment_id: target.commentId, reply_id: target.replyId, emoji, user_id: ctx.actor.userId, reacted_at: now })),
  );
}

// ---------------------------------------------------------------------------------------
// Targets

/** Every key of a document's nodes (blocks, inlines, texts), with the tables by key. */
function nodesOf(document: Document): { keys: Set<string>; tables: Map<string, { records?: Record<string, unknown>; definition?: Record<string, unknown> }> } {
  const keys = new Set<string>();
  const tables = new Map<string, { records?: Record<string, unknown>; definition?: Record<string, unknown> }>();
  const visit = (node: DocumentNode) => {
    const key = (node as { key?: string }).key;
    if (key) keys.add(key);
    if (node.object === 'block' && node.type === 'table' && key) tables.set(key, node.data as { records?: Record<string, unknown>; definition?: Record<string, unknown> });
    for (const child of childrenOf(node)) visit(child);
  };
  document.nodes.forEach(visit);
  return { keys, tables };
}

/** 400 unless the page, node and table cell exist in the revision the comment is made on. */
async function checkTarget(db: Db, loaded: LoadedBase, input: PostCommentInput): Promise<void> {
  if (!input.page) {
    if (input.node) throw badRequest('body/node: a node is in a page; give page too');
    if (input.tableCell) throw badRequest('body/tableCell: a table cell is in a page; give page too');
    return;
  }
  const where = loaded.base.changeRequestId ? 'the change request' : 'the space';
  const snapshot = await loadSnapshot(db, loaded.base.spaceId, loaded.revisionId);
  const page = snapshot.byId.get(input.page);
  if (!page) throw badRequest(`body/page: no page "${input.page}" in ${where}`);
  if (!input.node && !input.tableCell) return;
  const document = await loadDocument<Document>(db, loaded.base.spaceId, page.entry.document);
  const { keys, tables } = document ? nodesOf(document) : { keys: new Set<string>(), tables: new Map() };
  if (input.node && !keys.has(input.node)) throw badRequest(`body/node: no node "${input.node}" in page "${input.page}"`);
  if (input.tableCell) {
    const { record, definition } = input.tableCell;
    const candidates = input.node ? [tables.get(input.node)].filter((t) => t !== undefined) : [...tables.values()];
    const found = candidates.some((t) => t.records?.[record] !== undefined && t.definition?.[definition] !== undefined);
    if (!found) throw badRequest(`body/tableCell: no cell (record "${record}", column "${definition}") in a table of page "${input.page}"`);
  }
}

// ---------------------------------------------------------------------------------------
// What a comment's or reply's wire object shows beside its row

async function commentResults(ctx: Context, loaded: LoadedBase, rows: CommentRow[], format: BodyFormat): Promise<CommentResult[]> {
  const ids = rows.map((r) => r.id);
  const [repliers, reactions] = await Promise.all([commentsRepository.repliers(ctx.db, ids), commentsRepository.commentReactions(ctx.db, ids)]);
  const users = await commentsRepository.usersById(ctx.db, [
    ...rows.flatMap((r) => [r.posted_by, r.resolved_by, ...(JSON.parse(r.mentions) as string[])]),
    ...repliers.map((r) => r.posted_by),
    ...reactions.map((r) => r.user_id),
  ]);
  const repliersOf = group(repliers, (r) => r.comment_id);
  const reactionsOf = group(reactions, (r) => r.comment_id);
  return rows.map((row) => ({
    comment: row,
    extras: {
      users,
      repliers: repliersOf.get(row.id) ?? [],
      reactions: reactionsOf.get(row.id) ?? [],
      permissions: permissionsOf(accessTo(ctx, loaded, row.posted_by)),
      format,
    },
  }));
}

async function replyResults(ctx: Context, loaded: LoadedBase, comment: CommentRow, rows: ReplyRow[], format: BodyFormat): Promise<ReplyResult[]> {
  const reactions = await commentsRepository.replyReactions(ctx.db, comment.id, rows.map((r) => r.id));
  const users: Users = await commentsRepository.usersById(ctx.db, [
    ...rows.flatMap((r) => [r.posted_by, ...(JSON.parse(r.mentions) as string[])]),
    ...reactions.map((r) => r.user_id),
  ]);
  const reactionsOf = group(reactions, (r) => r.reply_id);
  return rows.map((row) => ({
    comment,
    reply: row,
    extras: {
      users,
      reactions: reactionsOf.get(row.id) ?? [],
      permissions: permissionsOf(accessTo(ctx, loaded, row.posted_by)),
      format,
    },
  }));
}

function group<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

const formatOf = (format: BodyFormat | undefined): BodyFormat => format ?? 'markdown';

// ---------------------------------------------------------------------------------------
// Comments

/** GET {base}: members who may access the space; status all, newest first unless asked otherwise. */
export async function listComments(
  ctx: Context,
  ref: BaseRef,
  query: { order?: 'asc' | 'desc'; status?: CommentFilters['status']; targetPage?: string; authors?: string[]; format?: BodyFormat },
  page: PageRequest,
): Promise<CommentsPage> {
  const loaded = await loadBase(ctx, ref);
  const filters: CommentFilters = { order: query.order ?? 'desc', status: query.status ?? 'all', targetPage: query.targetPage, authors: query.authors };
  const format = formatOf(query.format);
  // A page is reused (the route presents it and serializes its JSON once, presentReused) while the
  // space's comments are unchanged; the caller is part of the key since permissions are theirs.
  const key = ['comments', loaded.base.spaceId, loaded.base.changeRequestId ?? '', ctx.actor.userId, JSON.stringify(filters), page.page ?? '', page.limit, format].join('\u0000');
  return readUnlessChanged(ctx.db, ctx.caches.listings, key, async (depend) => {
    depend(`comments:${loaded.base.spaceId}`, `org:${loaded.organizationId}`, 'users');
    const result = await commentsRepository.list(ctx.db, loaded.base, filters, page);
    return { ...result, items: await commentResults(ctx, loaded, result.items, format) };
  });
}

/** POST {base}: the comment role; the target must exist in the revision the comment is made on. */
export async function postComment(ctx: Context, ref: BaseRef, input: PostCommentInput, format?: BodyFormat): Promise<CommentResult> {
  const body = await readBody(ctx, ref, input.body);
  return ctx.transaction(async (tctx) => {
    const loaded = await loadBase(tctx, ref);
    commentPolicy.authorize('reply', { space: loaded.access, isAuthor: true }, 'Commenting needs the comment role on the space');
    await checkTarget(tctx.db, loaded, input);
    const row: CommentRow = {
      id: newId(),
      space_id: loaded.base.spaceId,
      change_request_id: loaded.base.changeRequestId,
      revision_id: loaded.revisionId,
      page_id: input.page ?? null,
      node_id: input.node ?? null,
      table_record: input.tableCell?.record ?? null,
      table_definition: input.tableCell?.definition ?? null,
      ...(await bodyColumns(tctx.db, loaded.organizationId, body)),
      posted_by: ctx.actor.userId,
      posted_at: isoNow(ctx.clock),
      edited_at: null,
      status: 'open',
      resolved_at: null,
      resolved_by: null,
    };
    await commentsRepository.insert(tctx.db, row);
    const [comment] = await commentResults(tctx, loaded, [row], formatOf(format));
    return comment;
  });
}

/** GET {base}/{commentId} */
export async function getComment(ctx: Context, ref: BaseRef, commentId: string, format?: BodyFormat): Promise<CommentResult> {
  const loaded = await loadBase(ctx, ref);
  const comment = await findComment(ctx, loaded, commentId);
  const [result] = await commentResults(ctx, loaded, [comment], formatOf(format));
  return result;
}

/**
 * PUT {base}/{commentId}: its author changes the body; the comment role resolves, reopens
 * and reacts. Resolving an already resolved comment keeps who resolved it and when.
 */
export async function updateComment(ctx: Context, ref: BaseRef, commentId: string, input: UpdateCommentInput, format?: BodyFormat): Promise<CommentResult> {
  const added = checkEmojis(input.addedReactions, 'body/addedReactions');
  const removed = checkEmojis(input.removedReactions, 'body/removedReactions');
  const body = input.body !== undefined ? await readBody(ctx, ref, input.body) : undefined;
  return ctx.transaction(async (tctx) => {
    const loaded = await loadBase(tctx, ref);
    const comment = await findComment(tctx, loaded, commentId);
    const access = accessTo(ctx, loaded, comment.posted_by);
    if (body !== undefined) commentPolicy.authorize('edit', access, 'Only its author can change a comment');
    if (input.resolved !== undefined || added.length > 0 || removed.length > 0) {
      commentPolicy.authorize('reply', access, 'Resolving and reacting need the comment role on the space');
    }
    const now = isoNow(ctx.clock);
    const changes: Partial<CommentRow> = {};
    if (body !== undefined) Object.assign(changes, await bodyColumns(tctx.db, loaded.organizationId, body), { edited_at: now });
    if (input.resolved === true && comment.status !== 'resolved') Object.assign(changes, { status: 'resolved', resolved_at: now, resolved_by: ctx.actor.userId });
    if (input.resolved === false && comment.status !== 'open') Object.assign(changes, { status: 'open', resolved_at: null, resolved_by: null });
    if (Object.keys(changes).length > 0) await commentsRepository.update(tctx.db, comment.id, changes);
    await react(ctx, tctx.db, { commentId: comment.id, replyId: '' }, removed, added);
    const [result] = await commentResults(tctx, loaded, [{ ...comment, ...changes }], formatOf(format));
    return result;
  });
}

/** DELETE {base}/{commentId}: its author or an admin of the space; nothing to delete is fine. */
export async function deleteComment(ctx: Context, ref: BaseRef, commentId: string): Promise<void> {
  await ctx.transaction(async (tctx) => {
    const loaded = await loadBase(tctx, ref);
    const comment = await commentsRepository.find(tctx.db, loaded.base, commentId);
    if (!comment) return;
    commentPolicy.authorize('delete', accessTo(ctx, loaded, comment.posted_by), 'Only its author and admins of the space can delete a comment');
    await commentsRepository.delete(tctx.db, comment.id);
  });
}

// ---------------------------------------------------------------------------------------
// Replies

/** GET {base}/{commentId}/replies: oldest first. */
export async function listReplies(ctx: Context, ref: BaseRef, commentId: string, page: PageRequest, format?: BodyFormat): Promise<RepliesPage> {
  const loaded = await loadBase(ctx, ref);
  const comment = await findComment(ctx, loaded, commentId);
  const result = await commentsRepository.pageOfReplies(ctx.db, comment.id, page);
  return { ...result, items: await replyResults(ctx, loaded, comment, result.items, formatOf(format)) };
}

/** POST {base}/{commentId}/replies: the comment role. */
export async function postReply(ctx: Context, ref: BaseRef, commentId: string, input: { body: CommentBodyInput }, format?: BodyFormat): Promise<ReplyResult> {
  const body = await readBody(ctx, ref, input.body);
  return ctx.transaction(async (tctx) => {
    const loaded = await loadBase(tctx, ref);
    const comment = await findComment(tctx, loaded, commentId);
    commentPolicy.authorize('reply', { space: loaded.access, isAuthor: true }, 'Replying needs the comment role on the space');
    const row: ReplyRow = {
      id: newId(),
      comment_id: comment.id,
      space_id: comment.space_id,
      ...(await bodyColumns(tctx.db, loaded.organizationId, body)),
      posted_by: ctx.actor.userId,
      posted_at: isoNow(ctx.clock),
      edited_at: null,
    };
    await commentsRepository.insertReply(tctx.db, row);
    const [reply] = await replyResults(tctx, loaded, comment, [row], formatOf(format));
    return reply;
  });
}

async function findReply(ctx: Context, comment: CommentRow, replyId: string): Promise<ReplyRow> {
  const reply = await commentsRepository.findReply(ctx.db, comment.id, replyId);
  if (!reply) throw notFound('Comment reply');
  return reply;
}

/** GET {base}/{commentId}/replies/{commentReplyId} */
export async function getReply(ctx: Context, ref: BaseRef, commentId: string, replyId: string, format?: BodyFormat): Promise<ReplyResult> {
  const loaded = await loadBase(ctx, ref);
  const comment = await findComment(ctx, loaded, commentId);
  const reply = await findReply(ctx, comment, replyId);
  const [result] = await replyResults(ctx, loaded, comment, [reply], formatOf(format));
  return result;
}

/** PUT {base}/{commentId}/replies/{commentReplyId}: its author changes the body; the comment role reacts. */
export async function updateReply(
  ctx: Context,
  ref: BaseRef,
  commentId: string,
  replyId: string,
  input: UpdateReplyInput,
  format?: BodyFormat,
): Promise<ReplyResult> {
  const added = checkEmojis(input.addedReactions, 'body/addedReactions');
  const removed = checkEmojis(input.removedReactions, 'body/removedReactions');
  const body = input.body !== undefined ? await readBody(ctx, ref, input.body) : undefined;
  return ctx.transaction(async (tctx) => {
    const loaded = await loadBase(tctx, ref);
    const comment = await findComment(tctx, loaded, commentId);
    const reply = await findReply(tctx, comment, replyId);
    const access = accessTo(ctx, loaded, reply.posted_by);
    if (body !== undefined) commentPolicy.authorize('edit', access, 'Only its author can change a reply');
    if (added.length > 0 || removed.length > 0) commentPolicy.authorize('reply', access, 'Reacting needs the comment role on the space');
    const changes: Partial<ReplyRow> = {};
    if (body !== undefined) {
      Object.assign(changes, await bodyColumns(tctx.db, loaded.organizationId, body), { edited_at: isoNow(ctx.clock) });
      await commentsRepository.updateReply(tctx.db, reply.id, changes);
    }
    await react(ctx, tctx.db, { commentId: comment.id, replyId: reply.id }, removed, added);
    const [result] = await replyResults(tctx, loaded, comment, [{ ...reply, ...changes }], formatOf(format));
    return result;
  });
}

/** DELETE {base}/{commentId}/replies/{commentReplyId}: its author or an admin of the space; absent is fine. */
export async function deleteReply(ctx: Context, ref: BaseRef, commentId: string, replyId: string): Promise<void> {
  await ctx.transaction(async (tctx) => {
    const loaded = await loadBase(tctx, ref);
    const comment = await commentsRepository.find(tctx.db, loaded.base, commentId);
    if (!comment) return;
    const reply = await commentsRepository.findReply(tctx.db, comment.id, replyId);
    if (!reply) return;
    commentPolicy.authorize('delete', accessTo(ctx, loaded, reply.posted_by), 'Only its author and admins of the space can delete a reply');
    await commentsRepository.deleteReply(tctx.db, comment.id, reply.id);
  });
}

// ---------------------------------------------------------------------------------------
// Commenters

/** GET {base-owner}/commenters: members who posted a comment or a reply there, by name (member rows, presented as members). */
export async function listCommenters(ctx: Context, ref: BaseRef, page: PageRequest): Promise<Page<MemberView>> {
  const loaded = await loadBase(ctx, ref);
  return commentsRepository.commenters(ctx.db, loaded.organizationId, loaded.base, page);
}

