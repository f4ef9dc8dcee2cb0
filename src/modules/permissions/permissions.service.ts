import type { Context } from '../../context.ts';
import type { ContentVisibility, DefaultLevel } from '../../db/types.ts';
import { organizationsRepository } from '../organizations/organizations.repository.ts';
import { effectiveRole, type ContentAccess } from './permissions.policy.ts';
import { permissionsRepository } from './permissions.repository.ts';

/** The fields of a space or collection that decide who may see it. */
export interface AccessTarget {
  id: string;
  organization_id: string;
  parent_id: string | null;
  default_level: DefaultLevel;
  /** Spaces only. */
  visibility?: ContentVisibility;
  share_key?: string;
  edit_mode?: 'live' | 'locked';
}

/**
 * The caller's standing towards a space or collection (permissions.policy.ts): their
 * membership, grants to them and their teams on the target and the collections above it,
 * the applicable defaultLevel, and the visibility. A few indexed queries; inside a
 * transaction they read current facts.
 */
export async function contentAccess(
  ctx: Pick<Context, 'db' | 'actor'>,
  target: AccessTarget,
  kind: 'space' | 'collection',
  shareKey?: string,
): Promise<ContentAccess> {
  const userId = ctx.actor.userId;
  const membership = await organizationsRepository.findActiveMembership(ctx.db, target.organization_id, userId);
  // A collection's chain starts at itself; a space's at its parent collection.
  const chain = await permissionsRepository.collectionChain(ctx.db, kind === 'collection' ? target.id : target.parent_id);
  const above = kind === 'collection' ? chain.slice(1) : chain;
  const grants = membership
    ? await permissionsRepository.rolesOn(ctx.db, target.organization_id, userId, [target.id, ...above.map((c) => c.id)])
    : [];
  const role = effectiveRole({
    member: membership !== undefined,
    orgRole: membership?.role ?? null,
    grants: grants.map((g) => g.role),
    defaultLevels: [target.default_level, ...above.map((c) => c.default_level)],
    visibility: target.visibility,
    shareKeyValid: shareKey !== undefined && target.share_key !== undefined && shareKey === target.share_key,
  });
  return {
    organizationId: target.organization_id,
    userId,
    member: membership !== undefined,
    orgRole: membership?.role ?? null,
    role,
    locked: target.edit_mode === 'locked',
  };
}

/**
 * Ids of the spaces and collections of an organization that a guest (or a member whose
 * organization role alone would not show them) reaches through grants: granted targets
 * and everything inside a granted collection. Used to filter lists in SQL.
 */
export async function reachableByGrants(
  ctx: Pick<Context, 'db' | 'actor'>,
  organizationId: string,
): Promise<{ spaces: string[]; collections: string[] }> {
  const userId = ctx.actor.userId;
  const [spaces, granted, all] = await Promise.all([
    permissionsRepository.grantedTargets(ctx.db, organizationId, userId, 'space'),
    permissionsRepository.grantedTargets(ctx.db, organizationId, userId, 'collection'),
    permissionsRepository.orgCollections(ctx.db, organizationId),
  ]);
  const children = new Map<string | null, string[]>();
  for (const c of all) children.set(c.parent_id, [...(children.get(c.parent_id) ?? []), c.id]);
  const collections = new Set<string>();
  const stack = [...granted];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (collections.has(id)) continue;
    collections.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return { spaces, collections: [...collections] };
}
