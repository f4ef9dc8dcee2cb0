import type { Context } from '../../context.ts';
import { assertClusterOf } from '../conversations/conversations.rules.ts';
import type { Db } from '../../db/database.ts';
import { HeadMoved } from '../../db/retry.ts';
import type { PageRequest } from '../../lib/pagination/index.ts';
import { badRequest, conflict, type HttpError, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { threeWayMerge } from '../../content/merge/index.ts';
import { RevisionEditor } from '../../content/store/editor.ts';
import { derivedCache } from '../../content/store/snapshot.ts';
import { findTemplate, SPACE_TEMPLATES } from '../../content/templates.ts';
import { loadChangeRequest, loadSpace, memberAccess, visibleSpaceIds } from '../../access/index.ts';
import { spacesRepository } from '../spaces/spaces.repository.ts';
import { changeRequestPolicy } from './change-requests.policy.ts';
import { changeRequestMoved } from './change-requests.events.ts';
import type {
  ChangeRequestResult,
  ChangeRequestsPage,
  ContributorsPage,
  RequestedReviewersPage,
  RequestedReviewersResult,
  ReviewResult,
  ReviewsPage,
  Users,
} from './change-requests.model.ts';
import { changeRequestsRepository, type ChangeRequestRow, type ChangeRequestView, type ReviewRow } from './change-requests.repository.ts';
import type { ChangeRequestFilters, CreateChangeRequestInput, UpdateChangeRequestInput } from './change-requests.schemas.ts';

const usersOf = (db: Db, ids: (string | null | undefined)[]): Promise<Users> => changeRequestsRepository.usersById(db, ids);

/** A change request and the users it names. */
async function withUsers(db: Db, row: ChangeRequestView): Promise<ChangeRequestResult> {
  return { changeRequest: row, users: await usersOf(db, [row.created_by, row.merged_by]) };
}

const pending = (cr: ChangeRequestRow) => cr.status === 'open' || cr.status === 'draft';

function assertPending(cr: ChangeRequestRow, action: string) {
  if (!pending(cr)) throw conflict(`The change request is ${cr.status}: it cannot be ${action}`);
}

/** POST {S}/change-requests: edit role; starts at the space's current revision (with a template's pages when given). */
export async function createChangeRequest(ctx: Context, spaceId: string, input: CreateChangeRequestInput): Promise<ChangeRequestResult> {
  const template = input.template ? findTemplate(input.template.id) : undefined;
  if (input.template && !template) {
    throw badRequest(`body/template/id: unknown template "${input.template.id}"; known: ${SPACE_TEMPLATES.map((t) => t.id).join(', ')}`);
  }
  return ctx.transaction(async (tctx) => {
    const { space, access } = await loadSpace(tctx, spaceId);
    changeRequestPolicy.authorize('create', { space: access, isCreator: true }, 'Opening a change request needs the edit role on an unlocked space');
    if (input.conversationsIssuesCluster) await assertClusterOf(tctx.db, space.organization_id, input.conversationsIssuesCluster, 'body/conversationsIssuesCluster');
    const now = isoNow(ctx.clock);
    const base = space.revision_id as string;
    let head = base;
    if (template) {
      const editor = await RevisionEditor.open(tctx.db, spaceId, base, ctx.clock, ctx.files);
      for (const page of template.pages) editor.insertPage(page);
      head = await editor.commit(tctx.db, { createdBy: ctx.actor.userId });
    }
    const row: ChangeRequestRow = {
      id: newId(),
      space_id: spaceId,
      number: await changeRequestsRepository.nextNumber(tctx.db, spaceId),
      status: 'open',
      subject: input.subject?.trim() ?? '',
      description: null,
      created_by: ctx.actor.userId,
      created_at: now,
      updated_at: now,
      revision_id: head,
      revision_initial: base,
      revision_merged_ancestor: base,
      revision_merged: null,
      merged_by: null,
      merged_at: null,
      conversations_issues_cluster: input.conversationsIssuesCluster ?? null,
    };
    await changeRequestsRepository.insert(tctx.db, row);
    if (template) await changeRequestsRepository.addContribution(tctx.db, row.id, ctx.actor.userId, now);
    return withUsers(tctx.db, { ...row, space_revision_id: base, organization_id: space.organization_id });
  });
}

/** List filters as the query gives them: one status (space lists) or several (organization lists). */
type FilterQuery = Omit<Partial<ChangeRequestFilters>, 'status'> & { status?: ChangeRequestFilters['status'] | ChangeRequestFilters['status'][number] };

function filtersOf(query: FilterQuery): ChangeRequestFilters {
  const status = query.status === undefined ? ['open' as const] : Array.isArray(query.status) ? query.status : [query.status];
  return { ...query, status, orderBy: query.orderBy ?? 'updatedAt' };
}

/** GET {S}/change-requests: members who may access the space; status defaults to open. */
export async function listSpaceChangeRequests(ctx: Context, spaceId: string, query: FilterQuery, page: PageRequest): Promise<ChangeRequestsPage> {
  const { access } = await loadSpace(ctx, spaceId);
  if (!changeRequestPolicy.can('view', { space: access, isCreator: false })) throw notFound('Space');
  const result = await changeRequestsRepository.list(ctx.db, { spaceIds: [spaceId] }, filtersOf(query), page);
  return { ...result, users: await usersOf(ctx.db, result.items.flatMap((r) => [r.created_by, r.merged_by])) };
}

/** GET {O}/change-requests: over the spaces of the organization the caller may access. */
export async function listOrganizationChangeRequests(ctx: Context, organizationId: string, query: FilterQuery, page: PageRequest): Promise<ChangeRequestsPage> {
  await memberAccess(ctx, organizationId);
  const spaceIds = await visibleSpaceIds(ctx, organizationId);
  const result = await changeRequestsRepository.list(ctx.db, { spaceIds }, filtersOf(query), page);
  return { ...result, users: await usersOf(ctx.db, result.items.flatMap((r) => [r.created_by, r.merged_by])) };
}

/** GET {CR} */
export async function getChangeRequest(ctx: Context, spaceId: string, idOrNumber: string): Promise<ChangeRequestResult> {
  const { cr } = await loadChangeRequest(ctx, spaceId, idOrNumber);
  return withUsers(ctx.db, cr);
}

/** PATCH {CR}: subject, description, status (draft, open, archived); the creator or the edit role. */
export async function updateChangeRequest(ctx: Context, spaceId: string, idOrNumber: string, input: UpdateChangeRequestInput): Promise<ChangeRequestResult> {
  const result = await ctx.transaction(async (tctx) => {
    const { cr, access } = await loadChangeRequest(tctx, spaceId, idOrNumber);
    changeRequestPolicy.authorize('update', access, 'Only its creator and members with the edit role can change a change request');
    if (cr.status === 'merged') throw conflict('The change request is merged: it cannot change any more');
    const changes: Partial<ChangeRequestRow> = { updated_at: isoNow(ctx.clock) };
    if (input.subject !== undefined) changes.subject = input.subject.trim();
    if (input.description !== undefined) changes.description = JSON.stringify({ data: {}, ...input.description });
    if (input.status !== undefined) changes.status = input.status;
    if (input.conversationsIssuesCluster) await assertClusterOf(tctx.db, cr.organization_id, input.conversationsIssuesCluster, 'body/conversationsIssuesCluster');
    if (input.conversationsIssuesCluster !== undefined) changes.conversations_issues_cluster = input.conversationsIssuesCluster;
    await changeRequestsRepository.update(tctx.db, cr.id, changes);
    return withUsers(tctx.db, { ...cr, ...changes });
  });
  // Closed or reopened: live editing ends or keeps its documents (change-requests.events.ts).
  if (input.status !== undefined) changeRequestMoved(ctx.db, result.changeRequest.id, 'status');
  return result;
}

interface MergeRule {
  rule: string;
  users: string[];
}

/** The users whose approval of the current revision the merge rules still wait for. */
async function missingApprovals(db: Db, cr: ChangeRequestView, spaceRules: string): Promise<string[]> {
  let rules = JSON.parse(spaceRules) as { type: string; rules?: MergeRule[] };
  if (rules.type === 'inherit') rules = JSON.parse(await changeRequestsRepository.organizationMergeRules(db, cr.organization_id));
  if (rules.type !== 'rules') return [];
  const required = [...new Set((rules.rules ?? []).filter((r) => r.rule === 'require_specific_reviewers').flatMap((r) => r.users))];
  if (required.length === 0) return [];
  const latest = new Map<string, ReviewRow>();
  for (const review of await changeRequestsRepository.reviews(db, cr.id)) latest.set(review.reviewer_id, review);
  return required.filter((user) => {
    const review = latest.get(user);
    return !review || review.status !== 'approved' || review.revision_id !== cr.revision_id;
  });
}

/** 409 naming every page the merge could not reconcile; nothing was written. */
function conflicts(list: { pageId: string; title: string; reason: string; detail: string }[]): HttpError {
  const pages = list.map((c) => `"${c.title}" (${c.pageId}): ${c.detail}`).join('; ');
  return conflict(`The change request conflicts with the space’s content on ${list.length} page${list.length === 1 ? '' : 's'}: ${pages}`);
}

/**
 * POST {CR}/merge (changeRequestMerger): three-way merge by page id of main's head and
 * the change request's head from the main revision it last took changes from. The space
 * moves to the result by compare-and-set; a concurrent merge makes this one start over on
 * top of it, so no edit is lost. Conflicts answer 409 and change nothing.
 */
export async function mergeChangeRequest(ctx: Context, spaceId: string, idOrNumber: string) {
  let mergedId = '';
  const result = await ctx.retryingTransaction(async (tctx) => {
    const { space, cr, access } = await loadChangeRequest(tctx, spaceId, idOrNumber);
    changeRequestPolicy.authorize('merge', access, access.space.locked ? 'The space is locked: nothing can be merged into it' : 'Merging needs the review role on the space');
    assertPending(cr, 'merged');
    const missing = await missingApprovals(tctx.db, cr, space.merge_rules);
    if (missing.length > 0) {
      const users = await usersOf(tctx.db, missing);
      const names = missing.map((id) => users.get(id)?.display_name ?? id).join(', ');
      throw conflict(`The merge rules wait for the approval of the current revision by: ${names}`);
    }
    const ours = space.revision_id as string;
    const outcome = await threeWayMerge(tctx.db, spaceId, { base: cr.revision_merged_ancestor, ours, theirs: cr.revision_id }, ctx.clock, ctx.files);
    if (!outcome.ok) throw conflicts(outcome.conflicts);
    const now = isoNow(ctx.clock);
    const merged = await outcome.editor.commit(tctx.db, { createdBy: ctx.actor.userId, parents: [ours, cr.revision_id], type: 'merge', mergedFrom: cr.id });
    if (!(await spacesRepository.advanceRevision(tctx.db, spaceId, ours, merged, now))) throw new HeadMoved();
    await changeRequestsRepository.update(tctx.db, cr.id, { status: 'merged', revision_merged: merged, merged_by: ctx.actor.userId, merged_at: now, updated_at: now });
    mergedId = cr.id;
    return { revision: merged, result: 'merge' as const };
  });
  changeRequestMoved(ctx.db, mergedId, 'status');
  return result;
}

/**
 * POST {CR}/update: brings main's changes into the change request with the same
 * three-way merge (base: the last main revision taken; ours: the change request; theirs:
 * main). Nothing to take answers the current revision unchanged.
 */
export async function updateFromMain(ctx: Context, spaceId: string, idOrNumber: string) {
  let updatedId = '';
  const result = await ctx.retryingTransaction(async (tctx) => {
    const { space, cr, access } = await loadChangeRequest(tctx, spaceId, idOrNumber);
    changeRequestPolicy.authorize('edit', access, 'Updating a change request needs the edit role on an unlocked space');
    assertPending(cr, 'updated');
    const main = space.revision_id as string;
    if (main === cr.revision_merged_ancestor) return { revision: cr.revision_id, result: 'update' as const };
    const outcome = await threeWayMerge(tctx.db, spaceId, { base: cr.revision_merged_ancestor, ours: cr.revision_id, theirs: main }, ctx.clock, ctx.files);
    if (!outcome.ok) throw conflicts(outcome.conflicts);
    const now = isoNow(ctx.clock);
    const updated = await outcome.editor.commit(tctx.db, { createdBy: ctx.actor.userId, parents: [cr.revision_id, main], type: 'update' });
    const moved = await changeRequestsRepository.advanceRevision(tctx.db, cr.id, cr.revision_id, {
      revision_id: updated,
      revision_merged_ancestor: main,
      updated_at: now,
    });
    if (!moved) throw new HeadMoved();
    updatedId = cr.id;
    return { revision: updated, result: 'update' as const };
  });
  if (updatedId) changeRequestMoved(ctx.db, updatedId, 'content');
  return result;
}

/** A review is outdated when its reviewer reviewed again later, or it judged an older revision. */
function outdatedReviews(reviews: ReviewRow[], head: string): Set<string> {
  const latest = new Map<string, string>();
  for (const review of reviews) latest.set(review.reviewer_id, review.id);
  return new Set(reviews.filter((r) => latest.get(r.reviewer_id) !== r.id || r.revision_id !== head).map((r) => r.id));
}

/** POST {CR}/reviews: the review role; judges the current revision. */
export async function submitReview(
  ctx: Context,
  spaceId: string,
  idOrNumber: string,
  input: { status: ReviewRow['status']; comment?: { markdown: string } },
): Promise<ReviewResult> {
  return ctx.transaction(async (tctx) => {
    const { cr, access } = await loadChangeRequest(tctx, spaceId, idOrNumber);
    changeRequestPolicy.authorize('review', access, 'Reviewing needs the review role on the space');
    assertPending(cr, 'reviewed');
    const now = isoNow(ctx.clock);
    const [request] = await changeRequestsRepository.reviewersOf(tctx.db, cr.id, [ctx.actor.userId]);
    const row: ReviewRow = {
      id: newId(),
      change_request_id: cr.id,
      reviewer_id: ctx.actor.userId,
      requested_by: request?.requested_by ?? null,
      status: input.status,
      revision_id: cr.revision_id,
      comment: input.comment?.markdown ?? null,
      created_at: now,
      updated_at: now,
    };
    await changeRequestsRepository.insertReview(tctx.db, row);
    return { review: row, outdated: false, spaceId, users: await usersOf(tctx.db, [row.reviewer_id, row.requested_by]) };
  });
}

/** GET {CR}/reviews */
export async function listReviews(ctx: Context, spaceId: string, idOrNumber: string, page: PageRequest): Promise<ReviewsPage> {
  const { cr } = await loadChangeRequest(ctx, spaceId, idOrNumber);
  const [result, all] = await Promise.all([changeRequestsRepository.pageOfReviews(ctx.db, cr.id, page), changeRequestsRepository.reviews(ctx.db, cr.id)]);
  const outdated = outdatedReviews(all, cr.revision_id);
  const users = await usersOf(ctx.db, result.items.flatMap((r) => [r.reviewer_id, r.requested_by]));
  return { ...result, users, outdated, spaceId };
}

/** GET {CR}/reviews/{reviewId} */
export async function getReview(ctx: Context, spaceId: string, idOrNumber: string, reviewId: string): Promise<ReviewResult> {
  const { cr } = await loadChangeRequest(ctx, spaceId, idOrNumber);
  const review = await changeRequestsRepository.findReview(ctx.db, cr.id, reviewId);
  if (!review) throw notFound('Review');
  const outdated = outdatedReviews(await changeRequestsRepository.reviews(ctx.db, cr.id), cr.revision_id);
  return { review, outdated: outdated.has(review.id), spaceId, users: await usersOf(ctx.db, [review.reviewer_id, review.requested_by]) };
}

/** POST {CR}/requested-reviewers: the creator or the edit role; reviewers must be active members. */
export async function requestReviewers(
  ctx: Context,
  spaceId: string,
  idOrNumber: string,
  input: { users: string[]; subject?: string; description?: UpdateChangeRequestInput['description'] },
): Promise<RequestedReviewersResult> {
  return ctx.transaction(async (tctx) => {
    const { cr, access } = await loadChangeRequest(tctx, spaceId, idOrNumber);
    changeRequestPolicy.authorize('requestReview', access, 'Only its creator and members with the edit role can request reviews');
    assertPending(cr, 'sent for review');
    const wanted = [...new Set(input.users)];
    const members = new Set((await changeRequestsRepository.members(tctx.db, cr.organization_id, wanted)).map((m) => m.user_id));
    const unknown = wanted.filter((id) => !members.has(id));
    if (unknown.length > 0) throw badRequest(`body/users: ${unknown.map((u) => `"${u}"`).join(', ')} ${unknown.length === 1 ? 'is not a member' : 'are not members'} of this organization`);
    const now = isoNow(ctx.clock);
    const rows = wanted.map((user_id) => ({ change_request_id: cr.id, user_id, requested_by: ctx.actor.userId, revision_id: cr.revision_id, created_at: now }));
    await changeRequestsRepository.upsertReviewers(tctx.db, rows);
    const changes: Partial<ChangeRequestRow> = { updated_at: now };
    if (input.subject !== undefined) changes.subject = input.subject.trim();
    if (input.description !== undefined) changes.description = JSON.stringify({ data: {}, ...input.description });
    await changeRequestsRepository.update(tctx.db, cr.id, changes);
    return { reviewers: rows, users: await usersOf(tctx.db, [...wanted, ctx.actor.userId]) };
  });
}

/** GET {CR}/requested-reviewers */
export async function listRequestedReviewers(ctx: Context, spaceId: string, idOrNumber: string, page: PageRequest): Promise<RequestedReviewersPage> {
  const { cr } = await loadChangeRequest(ctx, spaceId, idOrNumber);
  const result = await changeRequestsRepository.pageOfReviewers(ctx.db, cr.id, page);
  return { ...result, users: await usersOf(ctx.db, result.items.flatMap((r) => [r.user_id, r.requested_by])) };
}

/** DELETE {CR}/requested-reviewers/{userId}: 204 also when the user was not requested. */
export async function removeRequestedReviewer(ctx: Context, spaceId: string, idOrNumber: string, userId: string) {
  await ctx.transaction(async (tctx) => {
    const { cr, access } = await loadChangeRequest(tctx, spaceId, idOrNumber);
    // Reviewers may also decline themselves.
    if (userId !== ctx.actor.userId) changeRequestPolicy.authorize('requestReview', access, 'Only its creator and members with the edit role can change its reviewers');
    await changeRequestsRepository.removeReviewer(tctx.db, cr.id, userId);
  });
}

/** GET {CR}/contributors */
export async function listContributors(ctx: Context, spaceId: string, idOrNumber: string, page: PageRequest): Promise<ContributorsPage> {
  const { cr } = await loadChangeRequest(ctx, spaceId, idOrNumber);
  const result = await changeRequestsRepository.pageOfContributors(ctx.db, cr.id, page);
  return { ...result, users: await usersOf(ctx.db, result.items.map((r) => r.user_id)) };
}


/**
 * Why the change request cannot merge yet, as sentences (the app says it before a merge is
 * tried): the approvals of the current revision the merge rules still wait for. Empty when
 * the rules are met; roles and conflicts are decided by the merge itself.
 */
export async function mergeBlockers(ctx: Context, spaceId: string, idOrNumber: string): Promise<string[]> {
  const { space, cr } = await loadChangeRequest(ctx, spaceId, idOrNumber);
  const missing = await missingApprovals(ctx.db, cr, space.merge_rules);
  if (missing.length === 0) return [];
  const users = await usersOf(ctx.db, missing);
  const names = missing.map((id) => users.get(id)?.display_name ?? id);
  return [`Needs ${missing.length === 1 ? 'the approval' : `${missing.length} approvals`} of the current revision by ${names.join(', ')} (merge rules)`];
}

class PreviewDone extends Error {}

/**
 * The pages an update from main would conflict on, tried and rolled back: the same
 * three-way merge as updateFromMain, in a transaction that never commits.
 */
export async function updateFromMainConflicts(ctx: Context, spaceId: string, idOrNumber: string): Promise<{ pageId: string; title: string; detail: string }[]> {
  const { space, cr } = await loadChangeRequest(ctx, spaceId, idOrNumber);
  const main = space.revision_id as string;
  if (main === cr.revision_merged_ancestor) return [];
  // Revisions never change: the outcome of these three is kept (the page is viewed more than it changes).
  const key = `update-conflicts\u0000${spaceId}\u0000${cr.revision_merged_ancestor}\u0000${cr.revision_id}\u0000${main}`;
  const known = derivedCache.get(key) as { pageId: string; title: string; detail: string }[] | undefined;
  if (known) return known;
  let found: { pageId: string; title: string; detail: string }[] = [];
  try {
    await ctx.transaction(async (tctx) => {
      const outcome = await threeWayMerge(tctx.db, spaceId, { base: cr.revision_merged_ancestor, ours: cr.revision_id, theirs: main }, ctx.clock, ctx.files);
      if (!outcome.ok) found = outcome.conflicts.map((c) => ({ pageId: c.pageId, title: c.title, detail: c.detail }));
      throw new PreviewDone();
    });
  } catch (error) {
    if (!(error instanceof PreviewDone)) throw error;
  }
  derivedCache.set(key, found);
  return found;
}
