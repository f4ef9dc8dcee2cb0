import type { AppDeps, Context } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import type { Page, PageRequest } from '../../lib/pagination/index.ts';
import { readUnlessChanged } from '../../db/read-cache.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { RevisionEditor } from '../../content/store/editor.ts';
import { removeBlobs } from '../../content/store/blobs.ts';
import { storeRepository } from '../../content/store/store.repository.ts';
import { accessFrom, accessResolver as sharedAccessResolver, collectionPolicy, contentAccess, contentScope, loadSpace, memberAccess, requireAccess, type ContentAccess } from '../../access/index.ts';
import { normalizeMergeRules } from '../organizations/organizations.rules.ts';
import { organizationPolicy } from '../organizations/organizations.policy.ts';
import { permissionsRepository } from '../permissions/permissions.repository.ts';
import { visibleMember } from '../members/members.rules.ts';
import { spacePermissions, spacePolicy } from './spaces.policy.ts';
import type { MemberSpaceResult, SpaceCounts, SpaceResult } from './spaces.model.ts';
import { spacesRepository, type PublishedPlacement, type Sibling, type SpaceRow } from './spaces.repository.ts';
import { assertMovableToAnotherOrganization } from './spaces.rules.ts';
import type { ContentPositionInput, CreateSpaceInput, MoveSpaceInput, UpdateSpaceInput } from './spaces.schemas.ts';

/** Deleted spaces stay restorable this long, then the purge removes them (spec 8). */
export const SPACE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** A space with the caller's permissions on it, and its counts and placement when given (spaces.presenter.ts makes the wire object). */
function resultOf(row: SpaceRow, access: ContentAccess, counts?: SpaceCounts, placement?: PublishedPlacement): SpaceResult {
  return { space: row, permissions: spacePermissions(access), counts, placement };
}

/** What a page of spaces shows besides their rows: counts and published URLs, two queries in all. */
async function extras(ctx: Pick<Context, 'db'>, rows: SpaceRow[]) {
  const ids = rows.map((r) => r.id);
  const [counts, placements] = await Promise.all([spacesRepository.counts(ctx.db, ids), spacesRepository.publishedPlacements(ctx.db, ids)]);
  return { counts, placements };
}

/** One space as the API shows it, with its counts and published placement. */
async function resultWithExtras(ctx: Pick<Context, 'db'>, row: SpaceRow, access: ContentAccess): Promise<SpaceResult> {
  const { counts, placements } = await extras(ctx, [row]);
  return resultOf(row, access, counts.get(row.id), placements.get(row.id));
}

/** Where new content may go: the organization root (createContent) or a collection (its `create`). */
async function authorizeCreateIn(ctx: Pick<Context, 'db' | 'actor' | 'caches'>, organizationId: string, parentId: string | null | undefined) {
  if (!parentId) {
    const access = await memberAccess(ctx, organizationId);
    organizationPolicy.authorize('createContent', access, 'Creating content needs the create role in the organization');
    return;
  }
  const what = `Collection "${parentId}"`;
  const { row: collection, access } = (await requireAccess(ctx, { permission: 'collection.read', ids: [parentId], what })).get(parentId)!;
  if (collection.organization_id !== organizationId) throw notFound(what);
  collectionPolicy.authorize('create', access, 'Creating content in this collection needs the create role on it');
}

/** The position that puts an item where `position` says among the siblings of its new parent. */
async function place(db: Db, organizationId: string, parentId: string | null, item: { type: Sibling['type']; id: string }, position?: ContentPositionInput) {
  await spacesRepository.lockPlacements(db, organizationId);
  const siblings = (await spacesRepository.siblings(db, organizationId, parentId)).filter((s) => !(s.type === item.type && s.id === item.id));
  let index = siblings.length;
  const pointer = position?.before ?? position?.after;
  if (position?.before && position?.after) throw badRequest('body/position: give before or after, not both');
  if (pointer) {
    const target = pointer.type === 'space' ? { type: 'space', id: pointer.space } : { type: 'collection', id: pointer.collection };
    const at = siblings.findIndex((s) => s.type === target.type && s.id === target.id);
    if (at < 0) throw badRequest(`body/position: ${target.type} "${target.id}" is not a sibling in the target location`);
    index = position?.before ? at : at + 1;
  }
  // Renumber the siblings 0..n-1 around the new place, writing only what moved.
  const ordered = [...siblings.slice(0, index), { ...item, position: Number.NaN }, ...siblings.slice(index)];
  let itemPosition = 0;
  for (const [i, sibling] of ordered.entries()) {
    if (sibling.type === item.type && sibling.id === item.id) itemPosition = i;
    else if (sibling.position !== i) await spacesRepository.setPosition(db, { ...sibling, position: i });
  }
  return itemPosition;
}

/** POST /v1/orgs/{organizationId}/spaces: create role in the organization, or in the parent collection. */
export async function createSpace(ctx: Context, organizationId: string, input: CreateSpaceInput): Promise<SpaceResult> {
  return ctx.transaction(async (tctx) => {
    await memberAccess(tctx, organizationId);
    await authorizeCreateIn(tctx, organizationId, input.parent);
    if (input.visibility === 'in-collection' && !input.parent) throw badRequest('body/visibility: in-collection needs a parent collection');
    const now = isoNow(ctx.clock);
    const id = newId();
    const row: SpaceRow = {
      id,
      organization_id: organizationId,
      title: input.title?.trim() || 'Untitled',
      emoji: input.emoji ?? '',
      visibility: input.visibility ?? 'private',
      edit_mode: input.editMode ?? 'live',
      default_level: 'inherit',
      language: input.language ?? null,
      merge_rules: JSON.stringify({ type: 'inherit' }),
      parent_id: input.parent ?? null,
      position: await place(tctx.db, organizationId, input.parent ?? null, { type: 'space', id }),
      revision_id: null,
      share_key: newId(32),
      created_by: ctx.actor.userId,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    await spacesRepository.insert(tctx.db, row);
    const editor = await RevisionEditor.open(tctx.db, id, null, ctx.clock, ctx.files);
    row.revision_id = await editor.commit(tctx.db, { createdBy: ctx.actor.userId });
    await spacesRepository.update(tctx.db, id, { revision_id: row.revision_id });
    return resultOf(row, await contentAccess(tctx, row, 'space'));
  });
}

/** GET /v1/orgs/{organizationId}/spaces: what the caller may see, filtered in SQL. */
export async function listSpaces(ctx: Context, organizationId: string, page: PageRequest, collectionId?: string): Promise<Page<SpaceResult>> {
  const access = await memberAccess(ctx, organizationId);
  const scope = await contentScope(ctx, organizationId, access.userId, access.role);
  const result = await spacesRepository.list(ctx.db, organizationId, scope, page, collectionId);
  const [resolve, { counts, placements }] = await Promise.all([
    accessResolver(ctx, organizationId, access.userId),
    extras(ctx, result.items),
  ]);
  return { ...result, items: result.items.map((row) => resultOf(row, resolve(row), counts.get(row.id), placements.get(row.id))) };
}

/**
 * GET /v1/orgs/{organizationId}/members/{userId}/spaces: the spaces a member can access,
 * with the member's effective role on each (GitBook's MemberContentPermission); each space
 * carries the caller's own permissions.
 */
export async function listMemberSpaces(
  ctx: Context,
  organizationId: string,
  userId: string,
  page: PageRequest,
  order: 'asc' | 'desc',
): Promise<Page<MemberSpaceResult>> {
  const access = await memberAccess(ctx, organizationId);
  const member = await visibleMember(ctx, access, userId);
  // A disabled member can access none.
  if (member.disabled === 1) return { count: 0, items: [] };
  const scope = await contentScope(ctx, organizationId, userId, member.role);
  const result = await spacesRepository.list(ctx.db, organizationId, scope, page, undefined, order);
  const [theirs, mine, { counts, placements }] = await Promise.all([
    accessResolver(ctx, organizationId, userId),
    accessResolver(ctx, organizationId, ctx.actor.userId),
    extras(ctx, result.items),
  ]);
  return {
    ...result,
    items: result.items.map((row) => ({
      ...resultOf(row, mine(row), counts.get(row.id), placements.get(row.id)),
      permission: theirs(row).role ?? 'read',
    })),
  };
}

/** Effective access of `userId` to many spaces of one organization (permissions.service accessResolver). */
async function accessResolver(ctx: Pick<Context, 'db'>, organizationId: string, userId: string) {
  const resolver = await sharedAccessResolver(ctx, organizationId, userId);
  return (row: SpaceRow) => resolver.space(row);
}

/** GET /v1/collections/{collectionId}/spaces */
export async function listCollectionSpaces(ctx: Context, collectionId: string, page: PageRequest): Promise<Page<SpaceResult>> {
  const { row: collection } = (await requireAccess(ctx, { permission: 'collection.read', ids: [collectionId] })).get(collectionId)!;
  return listSpaces(ctx, collection.organization_id, page, collectionId);
}

/** GET /v1/spaces/{spaceId} */
export async function getSpace(ctx: Context, spaceId: string, shareKey?: string): Promise<SpaceResult> {
  // The space as the caller sees it (counts and published placement included) depends only
  // on the database: reused while what it depends on is unchanged, the same result each
  // time (the route presents and serializes it once, presentReused).
  const key = `space-get\u0000${spaceId}\u0000${ctx.actor.userId}\u0000${shareKey ?? ''}`;
  return readUnlessChanged(ctx.db, ctx.caches.listings, key, async (depend) => {
    const { space, access } = await loadSpace(ctx, spaceId, shareKey, depend);
    // The Space object also counts comments and change requests and shows where it is published.
    depend(`comments:${space.id}`, `change-requests:${space.id}`, `sites:${space.organization_id}`);
    return resultWithExtras(ctx, space, access);
  });
}

/** PATCH /v1/spaces/{spaceId}: title, emoji and language need edit; the rest admin. */
export async function updateSpace(ctx: Context, spaceId: string, input: UpdateSpaceInput): Promise<SpaceResult> {
  return ctx.transaction(async (tctx) => {
    const { space, access, facts } = await loadSpace(tctx, spaceId);
    const settings = input.editMode !== undefined || input.defaultLevel !== undefined || input.mergeRules !== undefined || input.visibility !== undefined;
    if (settings) spacePolicy.authorize('admin', access, 'Changing the settings of a space needs the admin role on it');
    else spacePolicy.authorize('rename', access, 'Renaming a space needs the edit role on it');
    const changes: Partial<SpaceRow> = { updated_at: isoNow(ctx.clock) };
    if (input.title !== undefined) changes.title = input.title.trim() || 'Untitled';
    if (input.emoji !== undefined) changes.emoji = input.emoji ?? '';
    if (input.language !== undefined) changes.language = input.language;
    if (input.editMode !== undefined) changes.edit_mode = input.editMode;
    if (input.defaultLevel !== undefined) changes.default_level = input.defaultLevel;
    if (input.visibility !== undefined) {
      if (input.visibility === 'in-collection' && !space.parent_id) throw badRequest('body/visibility: in-collection is only for spaces in a collection');
      changes.visibility = input.visibility;
    }
    if (input.mergeRules !== undefined) {
      changes.merge_rules = JSON.stringify(
        input.mergeRules.type === 'inherit' ? { type: 'inherit' } : await normalizeMergeRules(tctx.db, space.organization_id, input.mergeRules),
      );
    }
    await spacesRepository.update(tctx.db, spaceId, changes);
    const row = { ...space, ...changes };
    // The space stays where it was: the facts read by loadSpace still hold, only its own
    // fields (defaultLevel, visibility, edit mode) may have changed the access.
    return resultWithExtras(tctx, row, accessFrom(facts, row));
  });
}

/** DELETE /v1/spaces/{spaceId}: admin on the space; the space goes to the deleted state (restorable 7 days). */
export async function deleteSpace(ctx: Context, spaceId: string) {
  await ctx.transaction(async (tctx) => {
    const space = await spacesRepository.findActive(tctx.db, spaceId);
    if (!space) return; // absent or already deleted: 204
    const access = await contentAccess(tctx, space, 'space');
    if (access.role === null) throw notFound('Space');
    spacePolicy.authorize('admin', access, 'Deleting a space needs the admin role on it');
    await spacesRepository.update(tctx.db, spaceId, { deleted_at: isoNow(ctx.clock) });
  });
}

/** POST /v1/spaces/{spaceId}/restore: admin on the space, within 7 days of its deletion. */
export async function restoreSpace(ctx: Context, spaceId: string): Promise<SpaceResult> {
  return ctx.transaction(async (tctx) => {
    const space = await spacesRepository.findAny(tctx.db, spaceId);
    if (!space) throw notFound('Space');
    // A space whose collection went away comes back at the organization root.
    const parentGone = space.parent_id !== null && !(await spacesRepository.collectionExists(tctx.db, space.organization_id, space.parent_id));
    const target = parentGone ? { ...space, parent_id: null } : space;
    const access = await contentAccess(tctx, target, 'space');
    if (access.role === null) throw notFound('Space');
    if (space.deleted_at === null) return resultWithExtras(tctx, space, access);
    spacePolicy.authorize('admin', access, 'Restoring a space needs the admin role on it');
    if (ctx.clock.now().getTime() - Date.parse(space.deleted_at) > SPACE_RETENTION_MS) throw notFound('Space');
    const changes: Partial<SpaceRow> = { deleted_at: null, updated_at: isoNow(ctx.clock) };
    if (parentGone) {
      changes.parent_id = null;
      if (space.visibility === 'in-collection') changes.visibility = 'private';
      changes.position = await place(tctx.db, space.organization_id, null, { type: 'space', id: space.id });
    }
    await spacesRepository.update(tctx.db, spaceId, changes);
    return resultWithExtras(tctx, { ...space, ...changes }, access);
  });
}

/**
 * POST /v1/spaces/{spaceId}/duplicate (spaceDuplicator): a new space beside the original
 * with the same settings, grants and content, and a history of its own (one revision
 * without parents). Needs read on the space and the create role where the copy goes.
 */
export async function duplicateSpace(ctx: Context, spaceId: string): Promise<SpaceResult> {
  return ctx.transaction(async (tctx) => {
    const { space } = await loadSpace(tctx, spaceId);
    await authorizeCreateIn(tctx, space.organization_id, space.parent_id);
    const now = isoNow(ctx.clock);
    const id = newId();
    const copy: SpaceRow = {
      ...space,
      id,
      title: `${space.title.slice(0, 43)} (copy)`,
      position: 0,
      share_key: newId(32),
      created_by: ctx.actor.userId,
      created_at: now,
      updated_at: now,
      deleted_at: null,
      revision_id: null,
      // A copy is not synced with the original's repository.
      git_sync: null,
    };
    await spacesRepository.insert(tctx.db, copy);
    copy.position = await place(tctx.db, space.organization_id, space.parent_id, { type: 'space', id }, { after: { type: 'space', space: space.id } });
    await spacesRepository.update(tctx.db, id, { position: copy.position });
    await storeRepository.copySpaceContent(tctx.db, space.id, id);
    const source = await storeRepository.findRevision(tctx.db, space.id, space.revision_id as string);
    if (!source) throw new Error(`Space ${space.id} has no current revision`);
    copy.revision_id = newId();
    // The copy's history starts here: one revision of edits, merged from nothing.
    await storeRepository.insertRevision(tctx.db, {
      ...source,
      id: copy.revision_id,
      space_id: id,
      parents: '[]',
      type: 'edits',
      merged_from: null,
      created_by: ctx.actor.userId,
      created_at: now,
    });
    await spacesRepository.update(tctx.db, id, { revision_id: copy.revision_id });
    await spacesRepository.copyGrants(tctx.db, space.id, id, now);
    return resultOf(copy, await contentAccess(tctx, copy, 'space'));
  });
}

/** POST /v1/spaces/{spaceId}/move: admin on the space and create in the new parent collection. */
export async function moveSpace(ctx: Context, spaceId: string, input: MoveSpaceInput): Promise<SpaceResult> {
  return ctx.transaction(async (tctx) => {
    const { space, access } = await loadSpace(tctx, spaceId);
    spacePolicy.authorize('admin', access, 'Moving a space needs the admin role on it');
    const parent = input.parent === undefined ? space.parent_id : input.parent;
    if (parent === space.parent_id && !input.position) throw conflict('The space is already there: nothing to move');
    if (parent !== space.parent_id) await authorizeCreateIn(tctx, space.organization_id, parent);
    const changes: Partial<SpaceRow> = {
      parent_id: parent,
      position: await place(tctx.db, space.organization_id, parent, { type: 'space', id: space.id }, input.position),
      updated_at: isoNow(ctx.clock),
    };
    if (parent === null && space.visibility === 'in-collection') changes.visibility = 'private';
    await spacesRepository.update(tctx.db, spaceId, changes);
    const row = { ...space, ...changes };
    return resultWithExtras(tctx, row, await contentAccess(tctx, row, 'space'));
  });
}

/**
 * POST /v1/spaces/{spaceId}/transfer: to another organization, for admins of both. The
 * space lands at the new organization's root; grants naming the old organization's
 * members and teams are removed so no permission leaks across.
 */
export async function transferSpace(ctx: Context, spaceId: string, organizationId: string): Promise<SpaceResult> {
  return ctx.transaction(async (tctx) => {
    const { space, access } = await loadSpace(tctx, spaceId);
    const from = await memberAccess(tctx, space.organization_id).catch(() => null);
    if (!from || !organizationPolicy.can('admin', from)) throw forbidden('Transferring a space needs the admin role in its organization');
    void access;
    const to = await memberAccess(tctx, organizationId);
    organizationPolicy.authorize('admin', to, 'Transferring a space needs the admin role in the target organization');
    if (organizationId === space.organization_id) throw conflict('The space already belongs to this organization');
    await assertMovableToAnotherOrganization(tctx.db, [space.id], 'The space');
    await permissionsRepository.deleteForTargets(tctx.db, [space.id]);
    const changes: Partial<SpaceRow> = {
      organization_id: organizationId,
      parent_id: null,
      visibility: space.visibility === 'in-collection' ? 'private' : space.visibility,
      merge_rules: JSON.stringify({ type: 'inherit' }),
      position: 0,
      updated_at: isoNow(ctx.clock),
    };
    await spacesRepository.update(tctx.db, spaceId, changes);
    changes.position = await place(tctx.db, organizationId, null, { type: 'space', id: space.id });
    await spacesRepository.update(tctx.db, spaceId, { position: changes.position });
    const row = { ...space, ...changes };
    return resultWithExtras(tctx, row, await contentAccess(tctx, row, 'space'));
  });
}

/**
 * Removes for good every space deleted more than 7 days ago, with its history, grants
 * and the blobs no other space references. Runs on a schedule (spaces.jobs.ts);
 * each space in its own transaction, so a failure leaves the others done.
 */
export async function purgeExpiredSpaces(deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'files'>): Promise<string[]> {
  const cutoff = new Date(deps.clock.now().getTime() - SPACE_RETENTION_MS).toISOString();
  const purged: string[] = [];
  for (;;) {
    const due = await spacesRepository.deletedBefore(deps.db, cutoff, 50);
    if (due.length === 0) break;
    for (const space of due) {
      const blobs = await deps.db.transaction().execute(async (trx) => {
        const still = await spacesRepository.findAny(trx, space.id);
        if (!still || still.deleted_at === null || still.deleted_at > cutoff) return [];
        const held = (await storeRepository.blobsOf(trx, space.id)).map((b) => b.hash);
        await permissionsRepository.deleteForTargets(trx, [space.id]);
        await storeRepository.deleteSpaceContent(trx, space.id);
        await spacesRepository.deleteRow(trx, space.id);
        return storeRepository.unreferencedBlobs(trx, held);
      });
      await removeBlobs(deps.files, blobs);
      purged.push(space.id);
    }
  }
  return purged;
}

