import type { Context } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import type { PageRequest } from '../../lib/pagination/index.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { membersRepository } from '../members/members.repository.ts';
import { organizationPolicy } from '../organizations/organizations.policy.ts';
import { accessRepository, accessResolver, contentAccess, memberAccess, reachableCollections, requireAccess } from '../../access/index.ts';
import { permissionsRepository } from '../permissions/permissions.repository.ts';
import { assertMovableToAnotherOrganization } from '../spaces/spaces.rules.ts';
import { collectionPermissions, collectionPolicy, type ContentAccess } from './collections.policy.ts';
import type { CollectionResult, CollectionsPage } from './collections.model.ts';
import { collectionsRepository, type CollectionRow, type Sibling } from './collections.repository.ts';
import type { ContentPositionInput, CreateCollectionInput, MoveCollectionInput, UpdateCollectionInput } from './collections.schemas.ts';

type Ctx = Pick<Context, 'db' | 'actor'>;

/** A collection with the caller's permissions on it. */
function resultOf(row: CollectionRow, access: ContentAccess): CollectionResult {
  return { collection: row, permissions: collectionPermissions(access) };
}

/** The collection with the caller's access; 404 when absent or when the caller has no role on it. */
async function loadCollection(ctx: Ctx, collectionId: string, what = 'Collection') {
  const { row: collection, access } = (await requireAccess(ctx, { permission: 'collection.read', ids: [collectionId], what })).get(collectionId)!;
  return { collection, access };
}

/**
 * Checks the caller may put content under `parentId` of the organization: `create` on
 * the parent collection, or the organization's `createContent` at the root. 404 for a
 * parent the caller cannot see (or of another organization).
 */
async function authorizeCreateIn(ctx: Context & { db: Db }, organizationId: string, parentId: string | null) {
  if (parentId === null) {
    const access = await memberAccess(ctx, organizationId);
    organizationPolicy.authorize('createContent', access, 'Only members with the create role can add content at the root of the organization');
    return;
  }
  const { collection, access } = await loadCollection(ctx, parentId, 'Parent collection');
  if (collection.organization_id !== organizationId) throw notFound('Parent collection');
  collectionPolicy.authorize('create', access, 'You need the create role on the parent collection to add content in it');
}

/**
 * Serializes changes to one organization's collection tree until the transaction ends
 * (the organization's row lock), so concurrent moves cannot make a cycle and a collection
 * cannot be created in a parent being deleted (PostgreSQL; SQLite writes one at a time).
 */
function lockTree(db: Db, organizationId: string): Promise<void> {
  return membersRepository.lockOrganization(db, organizationId);
}

/** The next position at the end of `parentId`'s children. */
async function endPosition(db: Db, organizationId: string, parentId: string | null): Promise<number> {
  await membersRepository.lockOrganization(db, organizationId);
  const children = await collectionsRepository.children(db, organizationId, parentId);
  return children.reduce((max, c) => Math.max(max, c.position + 1), 0);
}

/** POST /v1/orgs/{organizationId}/collections: at the root (org role create) or in a collection (create on it). */
export async function createCollection(ctx: Context, organizationId: string, input: CreateCollectionInput): Promise<CollectionResult> {
  return ctx.transaction(async (tctx) => {
    // Non-members get 404 for the organization before anything about a parent is said.
    await memberAccess(tctx, organizationId);
    await lockTree(tctx.db, organizationId);
    const parentId = input.parent ?? null;
    await authorizeCreateIn(tctx, organizationId, parentId);
    const now = isoNow(ctx.clock);
    const description = input.description?.trim();
    const row: CollectionRow = {
      id: newId(),
      organization_id: organizationId,
      title: input.title?.trim() ?? 'Untitled',
      description: description ? description : null,
      parent_id: parentId,
      position: await endPosition(tctx.db, organizationId, parentId),
      default_level: 'inherit',
      created_by: ctx.actor.userId,
      created_at: now,
      updated_at: now,
    };
    await collectionsRepository.insert(tctx.db, row);
    return resultOf(row, await contentAccess(tctx, row, 'collection'));
  });
}

/**
 * GET /v1/orgs/{organizationId}/collections: every collection for members with an
 * organization role; guests see those their grants reach (filtered in SQL before paging).
 */
export async function listCollections(ctx: Context, organizationId: string, nested: boolean, page: PageRequest): Promise<CollectionsPage> {
  const access = await memberAccess(ctx, organizationId);
  const visible = await reachableCollections(ctx, organizationId, access.role);
  const [result, resolver] = await Promise.all([
    collectionsRepository.list(ctx.db, organizationId, { visible, nested }, page),
    accessResolver(ctx, organizationId, access.userId),
  ]);
  return { ...result, items: result.items.map((row) => resultOf(row, resolver.collection(row.id))) };
}

/** GET /v1/collections/{collectionId}: anyone with a role on it. */
export async function getCollection(ctx: Context, collectionId: string): Promise<CollectionResult> {
  const { collection, access } = await loadCollection(ctx, collectionId);
  return resultOf(collection, access);
}

/** PATCH /v1/collections/{collectionId}: title, description, defaultLevel (collection admins). */
export async function updateCollection(ctx: Context, collectionId: string, input: UpdateCollectionInput): Promise<CollectionResult> {
  return ctx.transaction(async (tctx) => {
    const { collection, access } = await loadCollection(tctx, collectionId);
    collectionPolicy.authorize('admin', access, 'Only admins of this collection can change it');
    const changes: Partial<CollectionRow> = {};
    if (input.title !== undefined) changes.title = input.title.trim();
    if (input.description !== undefined) changes.description = input.description.trim() || null;
    if (input.defaultLevel !== undefined) changes.default_level = input.defaultLevel;
    if (Object.keys(changes).length === 0) return resultOf(collection, access);
    changes.updated_at = isoNow(ctx.clock);
    await collectionsRepository.update(tctx.db, collectionId, changes);
    const updated = { ...collection, ...changes };
    // defaultLevel may change the caller's own role on it.
    return resultOf(updated, await contentAccess(tctx, updated, 'collection'));
  });
}

/**
 * DELETE /v1/collections/{collectionId}: collection admins; 204 also when absent. The
 * collection and its sub-collections go, with the grants on them; the spaces inside
 * are soft-deleted (restorable for 7 days, to the organization root).
 */
export async function deleteCollection(ctx: Context, collectionId: string) {
  await ctx.transaction(async (tctx) => {
    const collection = await collectionsRepository.find(tctx.db, collectionId);
    if (!collection) return;
    const { access } = await loadCollection(tctx, collectionId);
    collectionPolicy.authorize('admin', access, 'Only admins of this collection can delete it');
    await lockTree(tctx.db, collection.organization_id);
    const ids = await collectionsRepository.subtree(tctx.db, collectionId);
    await collectionsRepository.softDeleteSpacesIn(tctx.db, ids, isoNow(ctx.clock));
    await permissionsRepository.deleteForTargets(tctx.db, ids);
    await collectionsRepository.deleteMany(tctx.db, ids);
  });
}

/** Places `item` among `children` (without it) by the position, and renumbers the changed ones 0..n-1. */
function placeAmong(children: Sibling[], item: Sibling, position: ContentPositionInput | undefined): Sibling[] {
  const others = children.filter((c) => !(c.kind === item.kind && c.id === item.id));
  let index = others.length;
  const pointer = position?.before ?? position?.after;
  if (pointer) {
    const id = pointer.type === 'space' ? pointer.space : pointer.collection;
    const at = others.findIndex((c) => c.kind === pointer.type && c.id === id);
    index = position?.before ? at : at + 1;
  }
  const ordered = [...others.slice(0, index), item, ...others.slice(index)];
  return ordered.map((c, i) => ({ ...c, position: i })).filter((c, i) => ordered[i].position !== i || (c.kind === item.kind && c.id === item.id));
}

/**
 * POST /v1/collections/{collectionId}/move: to another parent (null: the root) and/or
 * before or after a sibling; at the end of the parent by default. Admins of the
 * collection, with create rights where it lands.
 */
export async function moveCollection(ctx: Context, collectionId: string, input: MoveCollectionInput): Promise<CollectionResult> {
  return ctx.transaction(async (tctx) => {
    const { collection, access } = await loadCollection(tctx, collectionId);
    collectionPolicy.authorize('admin', access, 'Only admins of this collection can move it');
    const orgId = collection.organization_id;
    await lockTree(tctx.db, orgId);
    const position = input.position;
    if (input.parent === undefined && position === undefined) throw badRequest('body must have parent or position');
    if (position && (position.before === undefined) === (position.after === undefined)) {
      throw badRequest('body/position must have exactly one of before or after');
    }

    // Where it goes: the given parent, else the pointed sibling's parent, else where it is.
    const pointer = position?.before ?? position?.after;
    let pointerParent: string | null | undefined;
    if (pointer) {
      const pointerId = pointer.type === 'space' ? pointer.space : pointer.collection;
      if (pointer.type === 'collection' && pointerId === collectionId) throw badRequest('body/position cannot point at the collection itself');
      const target =
        pointer.type === 'space'
          ? await collectionsRepository.findSpace(tctx.db, orgId, pointerId)
          : await collectionsRepository.find(tctx.db, pointerId).then((c) => (c && c.organization_id === orgId ? c : undefined));
      if (!target) throw badRequest(`body/position: ${pointer.type} "${pointerId}" is not in this organization`);
      pointerParent = target.parent_id;
    }
    const parentId = input.parent !== undefined ? input.parent : pointerParent !== undefined ? pointerParent : collection.parent_id;
    if (pointerParent !== undefined && pointerParent !== parentId) {
      throw badRequest('body/position must point at a space or collection inside the new parent');
    }

    if (parentId !== null) {
      if (parentId === collectionId) throw badRequest('body/parent: a collection cannot be moved into itself');
      const chain = await accessRepository.collectionChain(tctx.db, parentId);
      if (chain.length === 0 || (await collectionsRepository.find(tctx.db, parentId))?.organization_id !== orgId) throw notFound('Parent collection');
      if (chain.some((c) => c.id === collectionId)) throw badRequest('body/parent: a collection cannot be moved into one of its sub-collections');
    }
    if (parentId !== collection.parent_id) await authorizeCreateIn(tctx, orgId, parentId);

    // Placements renumber siblings: one at a time per organization (see spacesRepository.lockPlacements).
    await membersRepository.lockOrganization(tctx.db, orgId);
    const children = await collectionsRepository.children(tctx.db, orgId, parentId);
    const changed = placeAmong(children, { kind: 'collection', id: collectionId, position: collection.position }, position);
    const moved = changed.find((c) => c.kind === 'collection' && c.id === collectionId) as Sibling;
    await collectionsRepository.setPositions(
      tctx.db,
      changed.filter((c) => c !== moved),
    );
    const now = isoNow(ctx.clock);
    await collectionsRepository.update(tctx.db, collectionId, { parent_id: parentId, position: moved.position, updated_at: now });
    const updated = { ...collection, parent_id: parentId, position: moved.position, updated_at: now };
    return resultOf(updated, await contentAccess(tctx, updated, 'collection'));
  });
}

/**
 * POST /v1/collections/{collectionId}/transfer: to another organization, for callers who
 * are admins of both. The collection, its sub-collections and the spaces in them move;
 * it lands at the end of the target's root; grants on all of them are deleted (they name
 * the old organization's users and teams).
 */
export async function transferCollection(ctx: Context, collectionId: string, organizationId: string): Promise<CollectionResult> {
  return ctx.transaction(async (tctx) => {
    const { collection } = await loadCollection(tctx, collectionId);
    const source = await memberAccess(tctx, collection.organization_id);
    organizationPolicy.authorize('admin', source, 'Only admins of the organization can transfer its collections');
    if (organizationId === collection.organization_id) throw conflict('The collection already belongs to this organization');
    const target = await memberAccess(tctx, organizationId);
    organizationPolicy.authorize('admin', target, 'Only admins of the target organization can transfer collections into it');

    // Both trees, always in the same order, so opposite transfers cannot deadlock.
    for (const id of [collection.organization_id, organizationId].sort()) await lockTree(tctx.db, id);
    const ids = await collectionsRepository.subtree(tctx.db, collectionId);
    const spaces = await collectionsRepository.spacesIn(tctx.db, ids);
    await assertMovableToAnotherOrganization(tctx.db, spaces, 'A space of the collection');
    await permissionsRepository.deleteForTargets(tctx.db, [...ids, ...spaces]);
    const now = isoNow(ctx.clock);
    await collectionsRepository.changeOrganization(tctx.db, ids, organizationId, now);
    const position = await endPosition(tctx.db, organizationId, null);
    await collectionsRepository.update(tctx.db, collectionId, { parent_id: null, position, updated_at: now });
    const updated = { ...collection, organization_id: organizationId, parent_id: null, position, updated_at: now };
    return resultOf(updated, await contentAccess(tctx, updated, 'collection'));
  });
}
