import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { keysetOf, paginate, type Page, type PageRequest } from '../../lib/pagination/index.ts';
import type { CommentReactionsTable, CommentRepliesTable, CommentsTable, UsersTable } from '../../db/types.ts';
import { withMemberColumns, type MemberView } from '../members/members.repository.ts';
import type { CommentFilters } from './comments.schemas.ts';

export type CommentRow = CommentsTable;
export type ReplyRow = CommentRepliesTable;
export type ReactionRow = CommentReactionsTable;
export type UserRef = Pick<UsersTable, 'id' | 'display_name' | 'email' | 'photo_url'>;

/** Where comments live: a space itself (changeRequestId null), or one of its change requests. */
export interface CommentBase {
  spaceId: string;
  changeRequestId: string | null;
}

/** Per comment and replier: how many replies and when the last one was posted. */
export interface ReplierRow {
  comment_id: string;
  posted_by: string;
  n: number | string;
  last: string;
}

const inBase = <Q extends { where: (...args: any[]) => Q }>(query: Q, base: CommentBase, prefix = ''): Q => {
  const q = query.where(`${prefix}space_id`, '=', base.spaceId);
  return base.changeRequestId === null
    ? q.where(`${prefix}change_request_id`, 'is', null)
    : q.where(`${prefix}change_request_id`, '=', base.changeRequestId);
};

/** Queries on comments, their replies and reactions. */
export const commentsRepository = {
  async insert(db: Db, row: CommentRow): Promise<void> {
    await db.insertInto('comments').values(row).execute();
  },

  async update(db: Db, id: string, changes: Partial<CommentRow>): Promise<void> {
    await db.updateTable('comments').set(changes).where('id', '=', id).execute();
  },

  /** Removes the comment; its replies and reactions go with it (foreign keys). */
  async delete(db: Db, id: string): Promise<void> {
    await db.deleteFrom('comments').where('id', '=', id).execute();
  },

  find(db: Db, base: CommentBase, id: string): Promise<CommentRow | undefined> {
    return inBase(db.selectFrom('comments').selectAll().where('id', '=', id), base).executeTakeFirst();
  },

  /** A page of the base's comments, filtered in SQL, by posting time (newest first unless asc). */
  list(db: Db, base: CommentBase, filters: CommentFilters, page: PageRequest): Promise<Page<CommentRow>> {
    let query = inBase(db.selectFrom('comments').selectAll(), base);
    if (filters.status !== 'all') query = query.where('status', '=', filters.status);
    if (filters.targetPage) query = query.where('page_id', '=', filters.targetPage);
    if (filters.authors) query = filters.authors.length > 0 ? query.where('posted_by', 'in', filters.authors) : query.where(sql<boolean>`1 = 0`);
    return paginate(
      query,
      [
        { ref: 'posted_at', field: 'posted_at', dir: filters.order },
        { ref: 'id', field: 'id', dir: filters.order },
      ],
      page,
    );
  },

  /** Who replied to these comments, how often and when last, oldest replier first. */
  repliers(db: Db, commentIds: string[]): Promise<ReplierRow[]> {
    if (commentIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('comment_replies')
      .select(['comment_id', 'posted_by', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max('posted_at').as('last'), (eb) => eb.fn.min('posted_at').as('first')])
      .where('comment_id', 'in', commentIds)
      .groupBy(['comment_id', 'posted_by'])
      .orderBy('first')
      .orderBy('posted_by')
      .execute() as Promise<ReplierRow[]>;
  },

  /** Reactions on these comments themselves (not on their replies), oldest first. */
  commentReactions(db: Db, commentIds: string[]): Promise<ReactionRow[]> {
    if (commentIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('comment_reactions')
      .selectAll()
      .where('comment_id', 'in', commentIds)
      .where('reply_id', '=', '')
      .orderBy('reacted_at')
      .orderBy('emoji')
      .orderBy('user_id')
      .execute();
  },

  /** Reactions on these replies of one comment, oldest first. */
  replyReactions(db: Db, commentId: string, replyIds: string[]): Promise<ReactionRow[]> {
    if (replyIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('comment_reactions')
      .selectAll()
      .where('comment_id', '=', commentId)
      .where('reply_id', 'in', replyIds)
      .orderBy('reacted_at')
      .orderBy('emoji')
      .orderBy('user_id')
      .execute();
  },

  /** Adds reactions; one the user already made stays as it was. */
  async addReactions(db: Db, rows: ReactionRow[]): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto('comment_reactions')
      .values(rows)
      .onConflict((oc) => oc.columns(['comment_id', 'reply_id', 'emoji', 'user_id']).doNothing())
      .execute();
  },

  /** Takes back the user's reactions with these emojis; others' stay. */
  async removeReactions(db: Db, target: { commentId: string; replyId: string }, userId: string, emojis: string[]): Promise<void> {
    if (emojis.length === 0) return;
    await db
      .deleteFrom('comment_reactions')
      .where('comment_id', '=', target.commentId)
      .where('reply_id', '=', target.replyId)
      .where('user_id', '=', userId)
      .where('emoji', 'in', emojis)
      .execute();
  },

  async insertReply(db: Db, row: ReplyRow): Promise<void> {
    await db.insertInto('comment_replies').values(row).execute();
  },

  async updateReply(db: Db, id: string, changes: Partial<ReplyRow>): Promise<void> {
    await db.updateTable('comment_replies').set(changes).where('id', '=', id).execute();
  },

  async deleteReply(db: Db, commentId: string, id: string): Promise<void> {
    await db.deleteFrom('comment_reactions').where('comment_id', '=', commentId).where('reply_id', '=', id).execute();
    await db.deleteFrom('comment_replies').where('comment_id', '=', commentId).where('id', '=', id).execute();
  },

  findReply(db: Db, commentId: string, id: string): Promise<ReplyRow | undefined> {
    return db.selectFrom('comment_replies').selectAll().where('comment_id', '=', commentId).where('id', '=', id).executeTakeFirst();
  },

  pageOfReplies(db: Db, commentId: string, page: PageRequest): Promise<Page<ReplyRow>> {
    return paginate(
      db.selectFrom('comment_replies').selectAll().where('comment_id', '=', commentId),
      keysetOf('asc', 'posted_at', 'id'),
      page,
    );
  },

  /** The users among these ids (nulls skipped), by id. */
  async usersById(db: Db, ids: (string | null | undefined)[]): Promise<Map<string, UserRef>> {
    const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
    if (wanted.length === 0) return new Map();
    const rows = await db.selectFrom('users').select(['id', 'display_name', 'email', 'photo_url']).where('id', 'in', wanted).execute();
    return new Map(rows.map((u) => [u.id, u]));
  },

  /** The active members of the organization among these user ids. */
  async activeMembers(db: Db, organizationId: string, userIds: string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await db
      .selectFrom('members')
      .select('user_id')
      .where('organization_id', '=', organizationId)
      .where('disabled', '=', 0)
      .where('user_id', 'in', userIds)
      .execute();
    return new Set(rows.map((r) => r.user_id));
  },

  /** A page of the organization's members who posted a comment or a reply in the base, by name. */
  commenters(db: Db, organizationId: string, base: CommentBase, page: PageRequest): Promise<Page<MemberView>> {
    const authors = inBase(db.selectFrom('comments').select('posted_by as user_id'), base).union(
      inBase(db.selectFrom('comment_replies as r').innerJoin('comments as c', 'c.id', 'r.comment_id').select('r.posted_by as user_id'), base, 'c.'),
    );
    const memberships = db
      .selectFrom('members')
      .where('members.organization_id', '=', organizationId)
      .where('members.user_id', 'in', authors);
    return paginate(
      withMemberColumns(memberships),
      keysetOf('asc', 'u.display_name', 'members.user_id'),
      page,
    ) as Promise<Page<MemberView>>;
  },
};
