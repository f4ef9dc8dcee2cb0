import type { Context } from '../../context.ts';
import { badRequest, forbidden, notFound } from '../../errors.ts';
import type { Document } from '../../content/markdown/index.ts';
import { completeDocument, InvalidDocument } from '../../content/markdown/complete.ts';
import { loadSnapshot } from '../../content/store/snapshot.ts';
import { renderDocument } from '../../site/render-document.ts';
import { applyContentChanges } from '../content/content.batch.ts';
import { changeRequestPolicy } from '../change-requests/change-requests.policy.ts';
import {
  createChangeRequest,
  getChangeRequest,
  listRequestedReviewers,
  listReviews,
  listSpaceChangeRequests,
  mergeBlockers,
  mergeChangeRequest,
  requestReviewers,
  submitReview,
  updateChangeRequest,
  updateFromMain,
  updateFromMainConflicts,
} from '../change-requests/change-requests.service.ts';
import type { ContentChangeInput } from '../change-requests/change-requests.schemas.ts';
import { isOutdated } from '../change-requests/change-requests.model.ts';
import { commentPolicy } from '../comments/comments.policy.ts';
import { listComments, listReplies, postComment, postReply, updateComment } from '../comments/comments.service.ts';
import { getPage, listPages, readChangeRequest } from '../content/content.service.ts';
import { outlineOf, pageOf } from '../content/content.model.ts';
import { membersRepository } from '../members/members.repository.ts';
import { organizationPolicy } from '../organizations/organizations.policy.ts';
import { loadChangeRequest, loadSpace, memberAccess } from '../../access/index.ts';
import { csrfToken, type BrowserSession } from '../../access/index.ts';
import { changedPages, enforceSpaceSso } from './app-area.service.ts';
import type { ChangeRequestListData, ChangeRequestPageData, CommentsData, CrPageData, MoveDirection, TreePage } from './app-area.views.ts';

/*
 * Change requests in the app, from start to merge (issue 32): every read and write goes
 * through the change-request, comment and content services the API uses, as the
 * session's user, so the app can do exactly what that member's API token could. What a
 * member may do decides which controls are shown; the services decide again on each POST.
 */

export type ListFilter = { status: 'open' | 'draft' | 'merged' | 'archived'; who?: 'mine' | 'review' };

/** A space's change requests with the app's filters: status, opened by me, my review requested. */
export async function changeRequestListView(ctx: Context, session: BrowserSession, spaceId: string, filter: ListFilter): Promise<ChangeRequestListData> {
  const changeRequests = await listSpaceChangeRequests(
    ctx,
    spaceId,
    {
      status: filter.status,
      ...(filter.who === 'mine' ? { creator: ctx.actor.userId } : {}),
      ...(filter.who === 'review' ? { requestedReviewer: ctx.actor.userId } : {}),
    },
    { limit: 100 },
  );
  await enforceSpaceSso(ctx, session, spaceId);
  const { space, access } = await loadSpace(ctx, spaceId);
  return {
    space: { id: space.id, title: space.title },
    filter,
    mayCreate: changeRequestPolicy.can('create', { space: access, isCreator: true }),
    changeRequests,
  };
}

/** Opens a change request from the app; its number, to go to. */
export async function openChangeRequest(ctx: Context, session: BrowserSession, spaceId: string, subject: string): Promise<number> {
  await enforceSpaceSso(ctx, session, spaceId);
  const created = await createChangeRequest(ctx, spaceId, { subject: subject.trim().slice(0, 100) });
  return Number(created.changeRequest.number);
}

/** The change request's comments, oldest first, with the replies of those that have some. */
async function commentsOf(ctx: Context, spaceId: string, crId: string): Promise<CommentsData> {
  const ref = { spaceId, changeRequestId: crId };
  const comments = await listComments(ctx, ref, { order: 'asc', format: 'markdown' }, { limit: 100 });
  const replies = new Map(
    await Promise.all(
      comments.items
        .filter((c) => c.extras.repliers.length > 0)
        .map(async (c) => [c.comment.id, await listReplies(ctx, ref, c.comment.id, { limit: 100 }, 'markdown')] as const),
    ),
  );
  return { comments, replies, viewer: ctx.actor.userId };
}

/**
 * A change request's page: subject, description (rendered), status, the diff, reviews and
 * requested reviewers, comments with replies and reactions, the page tree at its head, why
 * it cannot merge yet, the pages that conflict with main when it is outdated, and which
 * controls this member gets.
 */
export async function changeRequestPageView(ctx: Context, session: BrowserSession, spaceId: string, number: string): Promise<ChangeRequestPageData> {
  const { space, cr, access } = await loadChangeRequest(ctx, spaceId, number);
  await enforceSpaceSso(ctx, session, spaceId);
  const changeRequest = await getChangeRequest(ctx, spaceId, number);
  const pending = cr.status === 'open' || cr.status === 'draft';
  const can = {
    update: changeRequestPolicy.can('update', access) && cr.status !== 'merged',
    edit: changeRequestPolicy.can('edit', access) && pending,
    review: changeRequestPolicy.can('review', access) && pending,
    merge: changeRequestPolicy.can('merge', access) && pending,
    requestReview: changeRequestPolicy.can('requestReview', access) && pending,
    comment: commentPolicy.can('reply', { space: access.space, isAuthor: true }),
  };
  const [reviews, requested, comments, changes, tree, blockers, conflicts, members] = await Promise.all([
    listReviews(ctx, spaceId, number, { limit: 100 }),
    listRequestedReviewers(ctx, spaceId, number, { limit: 100 }),
    commentsOf(ctx, spaceId, cr.id),
    changedPages(ctx, spaceId, cr.revision_merged_ancestor, cr.revision_id),
    readChangeRequest(ctx, spaceId, number, (revisionId) => listPages(ctx, spaceId, { revisionId })).then((read): { pages: TreePage[] } => ({ pages: outlineOf(read.pages) })),
    pending ? mergeBlockers(ctx, spaceId, number) : Promise.resolve([]),
    isOutdated(changeRequest.changeRequest) ? updateFromMainConflicts(ctx, spaceId, number) : Promise.resolve([]),
    can.requestReview ? reviewerChoices(ctx, space.organization_id) : Promise.resolve([]),
  ]);
  return {
    space: { id: space.id, title: space.title },
    changeRequest,
    can,
    reviews,
    requested,
    members,
    comments,
    changes,
    pages: tree.pages,
    mergeBlockers: blockers,
    conflicts,
  };
}

/**
 * Members of the organization to ask for a review (the API's member list, its first 100 by
 * join date): empty when the member may not list them (a guest), by the organization's rule.
 */
async function reviewerChoices(ctx: Context, organizationId: string) {
  const access = await memberAccess(ctx, organizationId);
  if (!organizationPolicy.can('listMembers', access)) return [];
  const list = await membersRepository.list(ctx.db, organizationId, { sort: 'joinedAt', order: 'desc' }, { limit: 100 });
  return list.items.filter((m) => m.user_id !== ctx.actor.userId).map((m) => ({ id: m.user_id, name: m.display_name, role: m.role ?? 'guest' }));
}

/** One page of a change request at its head, block by block, with the comments on each block. */
export async function changeRequestPageOfView(ctx: Context, session: BrowserSession, spaceId: string, number: string, pageId: string): Promise<CrPageData> {
  const { space, cr, access } = await loadChangeRequest(ctx, spaceId, number);
  await enforceSpaceSso(ctx, session, spaceId);
  const page = pageOf(await getPage(ctx, spaceId, pageId, { revisionId: cr.revision_id, format: 'document' })) as {
    id: string;
    title: string;
    emoji?: string;
    description?: string;
    document?: Document;
  };
  const appBase = `${ctx.config.publicUrl}/app`;
  const links = {
    page: (target: string, targetSpace?: string) => `${appBase}/s/${encodeURIComponent(targetSpace ?? spaceId)}/change-requests/${cr.number}/pages/${encodeURIComponent(target)}`,
    space: (target: string) => `${appBase}/s/${encodeURIComponent(target)}`,
    file: () => null,
  };
  const comments = await commentsOf(ctx, spaceId, cr.id);
  const blocks = (page.document?.nodes ?? []).map((node) => {
    const key = (node as { key?: string }).key ?? '';
    return { nodeId: key, html: renderDocument({ object: 'document', data: {}, nodes: [node] } as never, links).html };
  });
  return {
    space: { id: space.id, title: space.title },
    changeRequest: { number: cr.number, subject: cr.subject, status: cr.status },
    page: { id: page.id, title: page.title, emoji: page.emoji, description: page.description },
    blocks,
    comments,
    can: { comment: commentPolicy.can('reply', { space: access.space, isAuthor: true }) },
  };
}

// ---------------------------------------------------------------------------------------
// Actions: each one a service call of the API's, after the app's SSO check.

/**
 * Subject and description. The description arrives as the rich-text editor's GitBook document
 * (JSON, change-request.ts) or, without script, as markdown; either way the API's document is
 * stored. A document from the browser is completed and checked as the content batch checks
 * one (completeDocument): 400 when it is not a document the engine can write.
 */
export async function saveDetails(
  ctx: Context,
  session: BrowserSession,
  spaceId: string,
  number: string,
  subject: string,
  description: { markdown: string } | { json: string },
) {
  // The reading counts against the space's organization (page-reader.ts, one reading a thread per tenant).
  const tenant = await enforceSpaceSso(ctx, session, spaceId);
  const document = 'json' in description ? descriptionFromJson(description.json) : await ctx.markdown.begin({ tenant }).document(description.markdown.replace(/\r\n/g, '\n'), 'description');
  await updateChangeRequest(ctx, spaceId, number, { subject: subject.slice(0, 100), description: { object: 'document', nodes: document.nodes } });
}

/** The API's description limit (RichText: at most 1000 blocks). */
const MAX_DESCRIPTION_BLOCKS = 1000;

function descriptionFromJson(json: string): Document {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw badRequest('descriptionDocument: not valid JSON');
  }
  let document: Document;
  try {
    document = completeDocument(value);
  } catch (error) {
    if (error instanceof InvalidDocument) throw badRequest(`descriptionDocument: ${error.message}`);
    throw error;
  }
  if (document.nodes.length > MAX_DESCRIPTION_BLOCKS) throw badRequest(`descriptionDocument: at most ${MAX_DESCRIPTION_BLOCKS} blocks`);
  return document;
}

export async function setStatus(ctx: Context, session: BrowserSession, spaceId: string, number: string, status: 'open' | 'draft' | 'archived') {
  await enforceSpaceSso(ctx, session, spaceId);
  await updateChangeRequest(ctx, spaceId, number, { status });
}

export async function askReviewers(ctx: Context, session: BrowserSession, spaceId: string, number: string, users: string[]) {
  await enforceSpaceSso(ctx, session, spaceId);
  if (users.length === 0) throw badRequest('Choose at least one member to ask for a review');
  await requestReviewers(ctx, spaceId, number, { users });
}

export async function review(ctx: Context, session: BrowserSession, spaceId: string, number: string, status: 'approved' | 'changes-requested', comment: string) {
  await enforceSpaceSso(ctx, session, spaceId);
  await submitReview(ctx, spaceId, number, { status, ...(comment.trim() ? { comment: { markdown: comment } } : {}) });
}

export async function merge(ctx: Context, session: BrowserSession, spaceId: string, number: string) {
  await enforceSpaceSso(ctx, session, spaceId);
  await mergeChangeRequest(ctx, spaceId, number);
}

export async function takeMain(ctx: Context, session: BrowserSession, spaceId: string, number: string) {
  await enforceSpaceSso(ctx, session, spaceId);
  await updateFromMain(ctx, spaceId, number);
}

async function crId(ctx: Context, spaceId: string, number: string) {
  return (await loadChangeRequest(ctx, spaceId, number)).cr.id;
}

/** A comment on the change request, on one of its pages, or on one block (node) of a page. */
export async function comment(ctx: Context, session: BrowserSession, spaceId: string, number: string, input: { text: string; page?: string; node?: string }) {
  await enforceSpaceSso(ctx, session, spaceId);
  const ref = { spaceId, changeRequestId: await crId(ctx, spaceId, number) };
  await postComment(ctx, ref, { body: { markdown: input.text }, ...(input.page ? { page: input.page } : {}), ...(input.node ? { node: input.node } : {}) });
}

export async function reply(ctx: Context, session: BrowserSession, spaceId: string, number: string, commentId: string, text: string) {
  await enforceSpaceSso(ctx, session, spaceId);
  await postReply(ctx, { spaceId, changeRequestId: await crId(ctx, spaceId, number) }, commentId, { body: { markdown: text } });
}

/** Resolves or reopens, or toggles the member's reaction with one emoji. */
export async function updateCommentFromApp(
  ctx: Context,
  session: BrowserSession,
  spaceId: string,
  number: string,
  commentId: string,
  change: { resolved?: boolean; react?: string; unreact?: string },
) {
  await enforceSpaceSso(ctx, session, spaceId);
  await updateComment(ctx, { spaceId, changeRequestId: await crId(ctx, spaceId, number) }, commentId, {
    ...(change.resolved !== undefined ? { resolved: change.resolved } : {}),
    ...(change.react ? { addedReactions: [change.react] } : {}),
    ...(change.unreact ? { removedReactions: [change.unreact] } : {}),
  });
}

// ---------------------------------------------------------------------------------------
// The page tree inside a change request, through the content batch (insert/update/delete_page).

async function content(ctx: Context, session: BrowserSession, spaceId: string, number: string, changes: ContentChangeInput[]) {
  await enforceSpaceSso(ctx, session, spaceId);
  await applyContentChanges(ctx, spaceId, number, changes, true);
}

/** Adds an empty page, or a group (a title over the pages moved into it). */
export async function addPage(
  ctx: Context,
  session: BrowserSession,
  spaceId: string,
  number: string,
  input: { title: string; type?: 'document' | 'group'; parent?: string; at?: number },
) {
  const title = input.title.trim();
  if (!title) throw badRequest(input.type === 'group' ? 'A group needs a title' : 'A page needs a title');
  await content(ctx, session, spaceId, number, [
    {
      operation: 'insert_page',
      title: title.slice(0, 255),
      ...(input.type === 'group' ? { type: 'group' as const } : { document: { markdown: '' } }),
      ...(input.parent ? { into: input.parent } : {}),
      ...(input.at !== undefined ? { at: input.at } : {}),
    },
  ]);
}

export async function editPage(
  ctx: Context,
  session: BrowserSession,
  spaceId: string,
  number: string,
  pageId: string,
  input: { title?: string; emoji?: string; icon?: string; description?: string },
) {
  if (input.title !== undefined && !input.title.trim()) throw badRequest('A page needs a title');
  await content(ctx, session, spaceId, number, [
    {
      operation: 'update_page',
      page: pageId,
      ...(input.title !== undefined ? { title: input.title.trim().slice(0, 255) } : {}),
      ...(input.emoji !== undefined ? { emoji: input.emoji.trim() } : {}),
      ...(input.icon !== undefined ? { icon: input.icon.trim() } : {}),
      ...(input.description !== undefined ? { description: input.description.trim().slice(0, 1000) } : {}),
    },
  ]);
}

export async function deletePage(ctx: Context, session: BrowserSession, spaceId: string, number: string, pageId: string) {
  await content(ctx, session, spaceId, number, [{ operation: 'delete_page', page: pageId }]);
}

/**
 * Moves a page one step: up or down among its siblings, indent (into the page above, as its
 * last child) or outdent (after its parent). The tree is read at the change request's head;
 * the batch decides again (a page moved meanwhile moves from where it is).
 */
export async function movePage(ctx: Context, session: BrowserSession, spaceId: string, number: string, pageId: string, direction: MoveDirection) {
  const { cr } = await loadChangeRequest(ctx, spaceId, number);
  const snapshot = await loadSnapshot(ctx.db, spaceId, cr.revision_id);
  const place = locate(snapshot.pages, pageId);
  if (!place) throw notFound('Page');
  const index = place.siblings.findIndex((n) => n.entry.id === pageId);
  let change: ContentChangeInput;
  if (direction === 'up' || direction === 'down') {
    const at = direction === 'up' ? index - 1 : index + 1;
    if (at < 0 || at >= place.siblings.length) throw badRequest(`The page is already the ${direction === 'up' ? 'first' : 'last'} at its level`);
    change = { operation: 'update_page', page: pageId, at };
  } else if (direction === 'indent') {
    const above = place.siblings[index - 1];
    if (!above || above.entry.type === 'link') throw badRequest('There is no page above to move it into');
    change = { operation: 'update_page', page: pageId, into: above.entry.id, at: above.children.length };
  } else {
    if (!place.parent) throw badRequest('The page is already at the top level');
    const parentId = place.parent.entry.id;
    const grand = locate(snapshot.pages, parentId)!;
    const parentIndex = grand.siblings.findIndex((n) => n.entry.id === parentId);
    change = { operation: 'update_page', page: pageId, into: grand.parent ? grand.parent.entry.id : null, at: parentIndex + 1 };
  }
  await content(ctx, session, spaceId, number, [change]);
}

/**
 * The drop of the tree's drag and drop: the page goes before or after `target` (among
 * target's siblings) or inside it (last). Computed from the tree at the change request's head
 * like the one-step moves, and sent as one `update_page { into, at }`; the batch decides again.
 */
export async function placePage(
  ctx: Context,
  session: BrowserSession,
  spaceId: string,
  number: string,
  pageId: string,
  drop: { target: string; position: 'before' | 'after' | 'inside' },
) {
  const { cr } = await loadChangeRequest(ctx, spaceId, number);
  const snapshot = await loadSnapshot(ctx.db, spaceId, cr.revision_id);
  const place = locate(snapshot.pages, pageId);
  if (!place) throw notFound('Page');
  const moved = place.siblings.find((n) => n.entry.id === pageId)!;
  if (drop.target === pageId) throw badRequest('A page cannot be dropped on itself');
  if (locate(moved.children, drop.target)) throw badRequest('A page cannot be moved inside itself');
  const target = locate(snapshot.pages, drop.target);
  if (!target) throw notFound('Target page');
  const targetNode = target.siblings.find((n) => n.entry.id === drop.target)!;
  let change: ContentChangeInput;
  if (drop.position === 'inside') {
    if (targetNode.entry.type === 'link') throw badRequest('A link cannot hold pages');
    change = { operation: 'update_page', page: pageId, into: drop.target, at: targetNode.children.filter((n) => n.entry.id !== pageId).length };
  } else {
    // Positions count the target's siblings without the moved page, as the batch does.
    const others = target.siblings.filter((n) => n.entry.id !== pageId);
    const index = others.findIndex((n) => n.entry.id === drop.target);
    change = { operation: 'update_page', page: pageId, into: target.parent ? target.parent.entry.id : null, at: drop.position === 'before' ? index : index + 1 };
  }
  await content(ctx, session, spaceId, number, [change]);
}

type SnapshotNode = Awaited<ReturnType<typeof loadSnapshot>>['pages'][number];
function locate(nodes: SnapshotNode[], id: string, parent: SnapshotNode | null = null): { siblings: SnapshotNode[]; parent: SnapshotNode | null } | undefined {
  for (const node of nodes) if (node.entry.id === id) return { siblings: nodes, parent };
  for (const node of nodes) {
    const found = locate(node.children, id, node);
    if (found) return found;
  }
  return undefined;
}

// ---- Editing: the Edit button's target and the editor page (app-area.editor.routes.ts serves them) ----

/** Whether the session's user may edit the space (open and edit change requests on it). */
export async function mayEditSpace(ctx: Context, spaceId: string): Promise<boolean> {
  const { access } = await loadSpace(ctx, spaceId);
  return changeRequestPolicy.can('create', { space: access, isCreator: true });
}

/** The page an Edit button opens, with the form's CSRF token; undefined for a member who may not edit. */
export async function editTarget(
  ctx: Context,
  session: BrowserSession,
  spaceId: string,
  pageId: string | undefined,
): Promise<{ spaceId: string; pageId: string; csrf: string } | undefined> {
  if (!pageId || !(await mayEditSpace(ctx, spaceId))) return undefined;
  return { spaceId, pageId, csrf: csrfToken(session) };
}

/**
 * The change request the Edit button opens: the member's own newest open one on the space,
 * or a new one named after the page.
 */
export async function changeRequestToEdit(ctx: Context, session: BrowserSession, spaceId: string, pageId: string): Promise<number> {
  await enforceSpaceSso(ctx, session, spaceId);
  const page = pageOf(await getPage(ctx, spaceId, pageId, {}));
  const mine = await listSpaceChangeRequests(ctx, spaceId, { status: 'open', creator: ctx.actor.userId, orderBy: 'updatedAt' } as never, { limit: 1 });
  const open = mine.items[0];
  if (open) return Number(open.number);
  const created = await createChangeRequest(ctx, spaceId, { subject: `Edit ${page.title}`.slice(0, 100) });
  return Number(created.changeRequest.number);
}

/**
 * The editor page's change request and page: 403 without the edit role, 400 once the change
 * request is closed (merged or archived).
 */
export async function changeRequestPageToEdit(ctx: Context, session: BrowserSession, spaceId: string, number: string, pageId: string) {
  await enforceSpaceSso(ctx, session, spaceId);
  const { cr, access } = await loadChangeRequest(ctx, spaceId, number);
  if (!changeRequestPolicy.can('edit', access)) throw forbidden('Editing needs the edit role on this space');
  if (cr.status !== 'open' && cr.status !== 'draft') throw badRequest(`This change request is ${cr.status}: it can no longer be edited`);
  const page = pageOf(await getPage(ctx, spaceId, pageId, { revisionId: cr.revision_id }));
  return { cr, page };
}
