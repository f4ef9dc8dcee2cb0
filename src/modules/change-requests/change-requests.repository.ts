import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { keysetOf, paginate, type Page, type PageRequest } from '../../lib/pagination/index.ts';
import type {
  ChangeRequestContributorsTable,
  ChangeRequestReviewersTable,
  ChangeRequestReviewsTable,
  ChangeRequestsTable,
  UsersTable,
} from '../../db/types.ts';
import type { ChangeRequestFilters } from './change-requests.schemas.ts';
import { accessRepository, openComments, type ChangeRequestView } from '../../access/access.repository.ts';

export type ChangeRequestRow = ChangeRequestsTable;
export type ReviewRow = ChangeRequestReviewsTable;
export type ReviewerRow = ChangeRequestReviewersTable;
export type ContributorRow = ChangeRequestContributorsTable;
export type UserRef = Pick<UsersTable, 'id' | 'display_name' | 'email' | 'photo_url'>;

export type { ChangeRequestView };

/** Queries on change requests, their reviews, requested reviewers and contributors. */
export const changeRequestsRepository = {
  /** The next number of the space: increments its counter (the row lock serializes concurrent creations). */
  async nextNumber(db: Db, spaceId: string): Promise<number> {
    const row = await db
      .insertInto('change_request_counters')
      .values({ space_id: spaceId, last_number: 1 })
      .onConflict((oc) => oc.column('space_id').doUpdateSet({ last_number: sql`change_request_counters.last_number + 1` }))
      .returning('last_number')
      .executeTakeFirstOrThrow();
    return Number(row.last_number);
  },

  async insert(db: Db, row: ChangeRequestRow): Promise<void> {
    await db.insertInto('change_requests').values(row).execute();
  },

  async update(db: Db, id: string, changes: Partial<ChangeRequestRow>): Promise<void> {
    await db.updateTable('change_requests').set(changes).where('id', '=', id).execute();
  },

  /** Moves the head revision if it is still `from` (compare and set). */
  async advanceRevision(db: Db, id: string, from: string, changes: Partial<ChangeRequestRow> & { revision_id: string }): Promise<boolean> {
    const result = await db.updateTable('change_requests').set(changes).where('id', '=', id).where('revision_id', '=', from).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** The head revision and status of change requests by id (live editing polls those it has open). */
  async heads(db: Db, ids: string[]): Promise<Pick<ChangeRequestRow, 'id' | 'revision_id' | 'status'>[]> {
    if (ids.length === 0) return [];
    return db.selectFrom('change_requests').select(['id', 'revision_id', 'status']).where('id', 'in', ids).execute();
  },

  /** A change request of the space by id or number (the access layer's query, which loadChangeRequest runs). */
  find: accessRepository.findChangeRequest,

  /** A page of change requests of a space, or of several spaces (an organization's visible ones), filtered in SQL. */
  list(db: Db, scope: { spaceIds: string[] }, filters: ChangeRequestFilters, page: PageRequest): Promise<Page<ChangeRequestView>> {
    let query = db
      .selectFrom('change_requests as cr')
      .innerJoin('spaces as s', 's.id', 'cr.space_id')
      .selectAll('cr')
      .select(['s.revision_id as space_revision_id', 's.organization_id', openComments])
      .where('s.deleted_at', 'is', null);
    query = scope.spaceIds.length > 0 ? query.where('cr.space_id', 'in', scope.spaceIds) : query.where(sql<boolean>`1 = 0`);
    if (filters.status.length > 0) query = query.where('cr.status', 'in', filters.status);
    if (filters.creator) query = query.where('cr.created_by', '=', filters.creator);
    if (filters.space) query = query.where('cr.space_id', '=', filters.space);
    if (filters.contributor) {
      const user = filters.contributor;
      query = query.where((eb) =>
        eb.exists(eb.selectFrom('change_request_contributors as c').select('c.user_id').whereRef('c.change_request_id', '=', 'cr.id').where('c.user_id', '=', user)),
      );
    }
    if (filters.requestedReviewer) {
      const user = filters.requestedReviewer;
      query = query.where((eb) =>
        eb.exists(eb.selectFrom('change_request_reviewers as r').select('r.user_id').whereRef('r.change_request_id', '=', 'cr.id').where('r.user_id', '=', user)),
      );
    }
    if (filters.conversationsIssuesCluster) query = query.where('cr.conversations_issues_cluster', '=', filters.conversationsIssuesCluster);
    const column = filters.orderBy === 'createdAt' ? 'cr.created_at' : 'cr.updated_at';
    const field = filters.orderBy === 'createdAt' ? 'created_at' : 'updated_at';
    return paginate(
      query,
      [
        { ref: column, field, dir: 'desc' },
        { ref: 'cr.id', field: 'id', dir: 'desc' },
      ],
      page,
    ) as Promise<Page<ChangeRequestView>>;
  },

  /** The users among these ids (nulls skipped), by id. */
  async usersById(db: Db, ids: (string | null | undefined)[]): Promise<Map<string, UserRef>> {
    const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
    if (wanted.length === 0) return new Map();
    const rows = await db.selectFrom('users').select(['id', 'display_name', 'email', 'photo_url']).where('id', 'in', wanted).execute();
    return new Map(rows.map((u) => [u.id, u]));
  },

  async insertReview(db: Db, row: ReviewRow): Promise<void> {
    await db.insertInto('change_request_reviews').values(row).execute();
  },

  reviews(db: Db, changeRequestId: string): Promise<ReviewRow[]> {
    return db.selectFrom('change_request_reviews').selectAll().where('change_request_id', '=', changeRequestId).orderBy('created_at').orderBy('id').execute();
  },

  findReview(db: Db, changeRequestId: string, reviewId: string): Promise<ReviewRow | undefined> {
    return db.selectFrom('change_request_reviews').selectAll().where('change_request_id', '=', changeRequestId).where('id', '=', reviewId).executeTakeFirst();
  },

  pageOfReviews(db: Db, changeRequestId: string, page: PageRequest): Promise<Page<ReviewRow>> {
    return paginate(
      db.selectFrom('change_request_reviews').selectAll().where('change_request_id', '=', changeRequestId),
      keysetOf('asc', 'created_at', 'id'),
      page,
    );
  },

  async upsertReviewers(db: Db, rows: ReviewerRow[]): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto('change_request_reviewers')
      .values(rows)
      .onConflict((oc) => oc.columns(['change_request_id', 'user_id']).doUpdateSet((eb) => ({ requested_by: eb.ref('excluded.requested_by'), revision_id: eb.ref('excluded.revision_id'), created_at: eb.ref('excluded.created_at') })))
      .execute();
  },

  async removeReviewer(db: Db, changeRequestId: string, userId: string): Promise<void> {
    await db.deleteFrom('change_request_reviewers').where('change_request_id', '=', changeRequestId).where('user_id', '=', userId).execute();
  },

  reviewersOf(db: Db, changeRequestId: string, userIds?: string[]): Promise<ReviewerRow[]> {
    let query = db.selectFrom('change_request_reviewers').selectAll().where('change_request_id', '=', changeRequestId);
    if (userIds) query = userIds.length > 0 ? query.where('user_id', 'in', userIds) : query.where(sql<boolean>`1 = 0`);
    return query.execute();
  },

  pageOfReviewers(db: Db, changeRequestId: string, page: PageRequest): Promise<Page<ReviewerRow>> {
    return paginate(
      db.selectFrom('change_request_reviewers').selectAll().where('change_request_id', '=', changeRequestId),
      keysetOf('asc', 'created_at', 'user_id'),
      page,
    );
  },

  /** Records that the user edited the change request. */
  async addContribution(db: Db, changeRequestId: string, userId: string, at: string): Promise<void> {
    await db
      .insertInto('change_request_contributors')
      .values({ change_request_id: changeRequestId, user_id: userId, first_contributed_at: at, last_contributed_at: at, count: 1 })
      .onConflict((oc) =>
        oc.columns(['change_request_id', 'user_id']).doUpdateSet({ last_contributed_at: at, count: sql`change_request_contributors.count + 1` }),
      )
      .execute();
  },

  pageOfContributors(db: Db, changeRequestId: string, page: PageRequest): Promise<Page<ContributorRow>> {
    return paginate(
      db.selectFrom('change_request_contributors').selectAll().where('change_request_id', '=', changeRequestId),
      keysetOf('asc', 'first_contributed_at', 'user_id'),
      page,
    );
  },

  /** Members among these user ids, with their organization role (reviewers must be members). */
  members(db: Db, organizationId: string, userIds: string[]) {
    if (userIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('members').select(['user_id', 'role']).where('organization_id', '=', organizationId).where('disabled', '=', 0).where('user_id', 'in', userIds).execute();
  },

  /** The organization's merge rules (for spaces whose rules are `inherit`). */
  async organizationMergeRules(db: Db, organizationId: string): Promise<string> {
    const row = await db.selectFrom('organizations').select('merge_rules').where('id', '=', organizationId).executeTakeFirst();
    return row?.merge_rules ?? '{"type":"none"}';
  },
};
