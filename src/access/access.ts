import type { Db } from '../db/database.ts';
import { actorReaches, type Actor } from './actor.ts';
import type { TtlCache } from '../lib/ttl-cache.ts';
import { readUnlessChanged, type Depend } from '../db/read-cache.ts';
import type { CollectionsTable, RoleName, SpacesTable } from '../db/types.ts';
import { notFound } from '../errors.ts';
import { accessRepository, type ChangeRequestView, type OrganizationWithAccess, type SiteView } from './access.repository.ts';
import { spacePolicy } from './content.policy.ts';
import { sitePolicy, type SiteAccess } from './site.policy.ts';
import { accessFrom, type AccessTarget, type ContentAccess, type ContentFacts } from './effective-role.ts';

/*
 * The access layer: every way a service learns what the caller may act on. Services call
 * these (never another module's service) and apply their module's policy to the result.
 * Unseen objects are 404 here; what the caller sees but may not do is the policies' 403.
 */

export { actorReaches };

/** What the loaders need of a service Context (context.ts): structurally, so access/ imports nothing of the app. */
type DbContext = { db: Db };
type AccessContext = DbContext & { actor: Actor };
type CachedContext = AccessContext & { caches: { memberships: TtlCache<unknown>; listings: TtlCache<unknown> } };

/** The caller's standing in an organization (organizations.policy.ts decides on it). */
export interface OrganizationAccess {
  organizationId: string;
  userId: string;
  /** null for guests: members invited to some content only. */
  role: RoleName | null;
  ownsTeam?: boolean;
}

/** The caller's standing in an organization row read with their membership; null when not an active member. */
export function organizationAccessOf(row: OrganizationWithAccess): OrganizationAccess | null {
  if (row.member_user_id === null || row.member_disabled === 1) return null;
  return { organizationId: row.id, userId: row.member_user_id, role: row.member_role, ownsTeam: Number(row.owns_team) === 1 };
}

/**
 * Loads an organization with the caller's standing in it. Anyone who is not an active
 * member gets 404: an organization you do not belong to is invisible.
 */
export async function organizationAccess(ctx: AccessContext, organizationId: string): Promise<{ organization: OrganizationWithAccess; access: OrganizationAccess }> {
  const row = actorReaches(ctx.actor, organizationId) ? await accessRepository.findWithMembership(ctx.db, organizationId, ctx.actor.userId) : undefined;
  const access = row ? organizationAccessOf(row) : null;
  if (!row || !access) throw notFound('Organization');
  return { organization: row, access };
}

/**
 * The caller's standing in an organization, without the organization's row: the check in
 * front of every read of what an organization holds. Outside a transaction it is reused
 * while the organization's members are unchanged (the change feed); inside one, writes
 * always see the database. 404 for anyone who is not an active member.
 */
export async function memberAccess(ctx: CachedContext, organizationId: string): Promise<OrganizationAccess> {
  const userId = ctx.actor.userId;
  if (!actorReaches(ctx.actor, organizationId)) throw notFound('Organization');
  const membership = await readUnlessChanged(ctx.db, ctx.caches.memberships, `${organizationId}\u0000${userId}`, async (depend) => {
    depend(`org:${organizationId}`);
    const row = await accessRepository.findActiveMembership(ctx.db, organizationId, userId);
    return row ? { role: row.role } : null;
  });
  if (!membership) throw notFound('Organization');
  return { organizationId, userId, role: membership.role };
}

/**
 * What the caller's role on a space or collection is made of besides the target's own
 * fields: their membership, the grants to them and their teams on the target and the
 * collections above it, and those collections' defaultLevels. A few indexed queries;
 * inside a transaction they read current facts.
 */
export async function contentFacts(ctx: AccessContext, target: AccessTarget, kind: 'space' | 'collection'): Promise<ContentFacts> {
  const userId = ctx.actor.userId;
  const membership = actorReaches(ctx.actor, target.organization_id) ? await accessRepository.findActiveMembership(ctx.db, target.organization_id, userId) : undefined;
  // A collection's chain starts at itself; a space's at its parent collection.
  const chain = await accessRepository.collectionChain(ctx.db, kind === 'collection' ? target.id : target.parent_id);
  const above = kind === 'collection' ? chain.slice(1) : chain;
  const grants = membership ? await accessRepository.rolesOn(ctx.db, target.organization_id, userId, [target.id, ...above.map((c) => c.id)]) : [];
  return {
    organizationId: target.organization_id,
    userId,
    member: membership !== undefined,
    orgRole: membership?.role ?? null,
    grants: grants.map((g) => g.role),
    levelsAbove: above.map((c) => c.default_level),
  };
}

/** The caller's standing towards a space or collection (content.policy.ts decides on it). */
export async function contentAccess(ctx: AccessContext, target: AccessTarget, kind: 'space' | 'collection', shareKey?: string): Promise<ContentAccess> {
  return accessFrom(await contentFacts(ctx, target, kind), target, shareKey);
}

/** A resolver of many targets' access (accessResolver). */
export interface AccessResolver {
  collection(collectionId: string): ContentAccess;
  space(space: AccessTarget, shareKey?: string): ContentAccess;
  /** Every collection of the organization. */
  collectionIds: string[];
  /** Every space or collection on which the user holds a grant (directly or by team). */
  grantedIds: string[];
}

/**
 * Effective access to many spaces and collections of one organization for one user, with
 * a fixed number of queries: their membership, every grant they hold there (directly or
 * by team) and the organization's collections are read once, then each target's role is
 * effectiveRole of what applies to it (for lists).
 */
export async function accessResolver(ctx: DbContext, organizationId: string, userId: string): Promise<AccessResolver> {
  const [membership, all, grants] = await Promise.all([
    accessRepository.findActiveMembership(ctx.db, organizationId, userId),
    accessRepository.orgCollections(ctx.db, organizationId),
    accessRepository.rolesInOrganization(ctx.db, organizationId, userId),
  ]);
  const byId = new Map(all.map((c) => [c.id, c]));
  const granted = new Map<string, RoleName[]>();
  for (const g of grants) granted.set(g.target_id, [...(granted.get(g.target_id) ?? []), g.role]);
  const member = membership !== undefined;
  const orgRole = membership?.role ?? null;

  /** The facts of a target from its own grants and those of the collections from `parentId` up. */
  const factsOf = (targetId: string, parentId: string | null): ContentFacts => {
    const roles = [...(granted.get(targetId) ?? [])];
    const levelsAbove: ContentFacts['levelsAbove'] = [];
    let current = parentId ? byId.get(parentId) : undefined;
    for (let depth = 0; current && depth < 64; depth++) {
      roles.push(...(granted.get(current.id) ?? []));
      levelsAbove.push(current.default_level);
      current = current.parent_id ? byId.get(current.parent_id) : undefined;
    }
    return { organizationId, userId, member, orgRole, grants: member ? roles : [], levelsAbove };
  };

  return {
    collection(collectionId) {
      const collection = byId.get(collectionId);
      return accessFrom(factsOf(collectionId, collection?.parent_id ?? null), { default_level: collection?.default_level ?? null });
    },
    space(space, shareKey) {
      return accessFrom(factsOf(space.id, space.parent_id), space, shareKey);
    },
    collectionIds: all.map((c) => c.id),
    grantedIds: [...granted.keys()],
  };
}

/** Which spaces of an organization a list shows a user: all of them, or those of `spaceIds`, in `collectionIds`, or public/unlisted. */
export type ContentScope = { all: true } | { all: false; spaceIds: string[]; collectionIds: string[] };

/**
 * The list filter of an organization's spaces and collections for a user (applied in SQL
 * by the spaces and collections repositories): members with an organization role reach
 * everything; others (guests) the spaces granted to them and every collection on which
 * their effective role is not null (granted, or inside a granted collection), with the
 * spaces inside those.
 */
export async function contentScope(ctx: DbContext, organizationId: string, userId: string, orgRole: RoleName | null): Promise<ContentScope> {
  if (orgRole !== null) return { all: true };
  const resolver = await accessResolver(ctx, organizationId, userId);
  const collections = new Set(resolver.collectionIds);
  return {
    all: false,
    spaceIds: resolver.grantedIds.filter((id) => !collections.has(id)),
    collectionIds: resolver.collectionIds.filter((id) => resolver.collection(id).role !== null),
  };
}

/** Ids of the organization's live spaces the caller can access (for lists over many spaces): 404 for non-members. */
export async function visibleSpaceIds(ctx: CachedContext, organizationId: string): Promise<string[]> {
  const access = await memberAccess(ctx, organizationId);
  return accessRepository.spaceIds(ctx.db, organizationId, await contentScope(ctx, organizationId, access.userId, access.role));
}

/** The collections of an organization the caller reaches (contentScope), or undefined when they reach all. */
export async function reachableCollections(ctx: AccessContext, organizationId: string, orgRole: RoleName | null): Promise<string[] | undefined> {
  const scope = await contentScope(ctx, organizationId, ctx.actor.userId, orgRole);
  return scope.all ? undefined : scope.collectionIds;
}

/** What requireAccess checks: seeing spaces or collections. */
export type AccessPermission = 'space.read' | 'collection.read';

type TargetRowOf<P extends AccessPermission> = P extends 'space.read' ? SpacesTable : CollectionsTable;

/**
 * Immich's `requireAccess`: the rows of `ids` the caller may act on for `permission`, each
 * with their access, read with a fixed number of queries whatever the number of ids (one
 * id: contentAccess's indexed reads; several: accessResolver per organization). Any id
 * that is missing or unseen is a 404: `what` when given, else `Space` / `Collection` for one
 * id (as the one-at-a-time loaders answer) and the first missing id named among several.
 */
export async function requireAccess<P extends AccessPermission>(
  ctx: AccessContext,
  request: { permission: P; ids: string[]; shareKey?: string; what?: string },
): Promise<Map<string, { row: TargetRowOf<P>; access: ContentAccess }>> {
  const kind = request.permission === 'space.read' ? 'space' : 'collection';
  const ids = [...new Set(request.ids)];
  const rows = (await accessRepository.findTargets(ctx.db, kind, ids)) as TargetRowOf<P>[];
  const allowed = new Map<string, { row: TargetRowOf<P>; access: ContentAccess }>();
  // One target: its own chain and grants (indexed reads), not the whole organization's.
  if (rows.length === 1) {
    const access = await contentAccess(ctx, rows[0], kind, request.shareKey);
    if (access.role !== null) allowed.set(rows[0].id, { row: rows[0], access });
  }
  const resolvers = new Map<string, AccessResolver | null>();
  for (const row of rows.length > 1 ? rows : []) {
    const organizationId = row.organization_id;
    if (!resolvers.has(organizationId)) {
      // A scoped caller's memberships elsewhere count as if they did not exist.
      resolvers.set(organizationId, actorReaches(ctx.actor, organizationId) ? await accessResolver(ctx, organizationId, ctx.actor.userId) : null);
    }
    const resolver = resolvers.get(organizationId);
    const outsider: ContentFacts = { organizationId, userId: ctx.actor.userId, member: false, orgRole: null, grants: [], levelsAbove: [] };
    const access =
      kind === 'space'
        ? resolver
          ? resolver.space(row as SpacesTable, request.shareKey)
          : accessFrom(outsider, row as SpacesTable, request.shareKey)
        : resolver
          ? resolver.collection(row.id)
          : accessFrom(outsider, row);
    if (access.role !== null) allowed.set(row.id, { row, access });
  }
  const missing = ids.find((id) => !allowed.has(id));
  if (missing !== undefined) {
    const noun = kind === 'space' ? 'Space' : 'Collection';
    throw notFound(request.what ?? (ids.length === 1 ? noun : `${noun} "${missing}"`));
  }
  return allowed;
}

/**
 * A live space and the caller's standing towards it (with the facts it came from, for
 * working out the access again after a change to the space's own fields); 404 when it does
 * not exist, is deleted, or the caller may not see it. Outside transactions on SQLite the
 * result is reused while neither the space nor the organization's permissions change
 * (content reads are the hottest path).
 */
export async function loadSpace(
  ctx: CachedContext,
  spaceId: string,
  shareKey?: string,
  /** Given by a cached read that calls this: it reads, declaring its scopes there. */
  within?: Depend,
): Promise<{ space: SpacesTable; access: ContentAccess; facts: ContentFacts }> {
  const read = async (depend: Depend) => {
    depend(`space:${spaceId}`);
    const space = await accessRepository.findLiveSpace(ctx.db, spaceId);
    if (!space) return null;
    depend(`org:${space.organization_id}`);
    const facts = await contentFacts(ctx, space, 'space');
    return { space, access: accessFrom(facts, space, shareKey), facts };
  };
  const loaded = within ? await read(within) : await readUnlessChanged(ctx.db, ctx.caches.listings, `space\u0000${spaceId}\u0000${ctx.actor.userId}\u0000${shareKey ?? ''}`, read);
  if (!loaded || loaded.access.role === null) throw notFound('Space');
  return loaded;
}

/** The caller's standing towards one change request: their access to its space, and whether they opened it. */
export interface ChangeRequestAccess {
  space: ContentAccess;
  isCreator: boolean;
}

/**
 * Who sees a space's change requests (the organization's drafts): members with read on
 * the space. change-requests.policy.ts's `view`, and the check of loadChangeRequest.
 */
export const seesChangeRequests = (a: ChangeRequestAccess) => spacePolicy.can('access', a.space);

/**
 * A change request of a space the caller may see, with their standing towards it; 404
 * when the space or the change request is not there for them.
 */
export async function loadChangeRequest(ctx: CachedContext, spaceId: string, idOrNumber: string): Promise<{ space: SpacesTable; cr: ChangeRequestView; access: ChangeRequestAccess }> {
  const { space, access: spaceAccess } = await loadSpace(ctx, spaceId);
  const cr = await accessRepository.findChangeRequest(ctx.db, spaceId, idOrNumber);
  const access: ChangeRequestAccess = { space: spaceAccess, isCreator: cr?.created_by === ctx.actor.userId };
  if (!seesChangeRequests(access) || !cr) throw notFound('Change request');
  return { space, cr, access };
}

/**
 * A docs site and the caller's standing towards it. Members with a role read every site;
 * guests get 403. In `visitor` mode (published profile, structure, section and
 * site-space lists) anyone signed in reads a published site its visibility opens to
 * them: public and unlisted sites, and share-link sites with an active `shareKey`.
 * Anyone else gets 404.
 */
export async function loadSite(
  ctx: AccessContext,
  organizationId: string,
  siteId: string,
  mode: { visitor?: boolean; shareKey?: string } = {},
): Promise<{ site: SiteView; access: SiteAccess }> {
  const membership = actorReaches(ctx.actor, organizationId)
    ? await accessRepository.findActiveMembership(ctx.db, organizationId, ctx.actor.userId)
    : undefined;
  if (!membership && !mode.visitor) throw notFound('Organization');
  const site = await accessRepository.findSite(ctx.db, organizationId, siteId);
  if (!site) throw notFound('Site');
  let visitor = false;
  if (mode.visitor && site.published === 1) {
    if (site.visibility === 'public' || site.visibility === 'unlisted') visitor = true;
    else if (site.visibility === 'share-link' && mode.shareKey) visitor = await accessRepository.activeShareKey(ctx.db, site.id, mode.shareKey);
  }
  const access: SiteAccess = {
    organizationId,
    userId: ctx.actor.userId,
    role: membership?.role ?? null,
    creator: site.created_by === ctx.actor.userId,
    visitor,
  };
  if (!sitePolicy.can('view', access)) {
    if (!membership) throw notFound('Site');
    sitePolicy.authorize('view', access, 'Guests cannot see the sites of the organization');
  }
  return { site, access };
}

/** The site for a change: 403 unless the caller manages it. */
export async function loadSiteToManage(ctx: AccessContext, organizationId: string, siteId: string): Promise<{ site: SiteView; access: SiteAccess }> {
  const loaded = await loadSite(ctx, organizationId, siteId);
  sitePolicy.authorize('manage', loaded.access, 'Managing a site needs the admin role, or the create role on a site you created');
  return loaded;
}
