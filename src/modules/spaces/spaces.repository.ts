import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { paginate, type Page, type PageRequest } from '../../lib/pagination/index.ts';
import { accessRepository, spaceInScope as inScope } from '../../access/access.repository.ts';
import type { ContentScope } from '../../access/access.ts';
import type { SpacesTable } from '../../db/types.ts';
import { NO_COUNTS, type SpaceCounts } from './spaces.model.ts';

export type SpaceRow = SpacesTable;

/** A site space showing a space on a published site. */
export interface PublishedPlacement {
  path: string;
  site_id: string;
  basename: string | null;
  hostname: string | null;
  visibility: string;
  section_path: string | null;
}

/** Who may list what: everything of the organization, or only what grants and visibility open. */
/** Which spaces a list shows (the access layer's list filter). */
export type SpaceListScope = ContentScope;

/** A space or collection placed among siblings. */
export interface Sibling {
  type: 'space' | 'collection';
  id: string;
  position: number;
}

/** Queries on spaces. */
export const spacesRepository = {
  /** A space that is not deleted. */
  findActive(db: Db, spaceId: string): Promise<SpaceRow | undefined> {
    // The access layer's hot read (compiled once), so a space is read one way.
    return accessRepository.findLiveSpace(db, spaceId);
  },

  /** A space whatever its state (restore reads deleted ones). */
  findAny(db: Db, spaceId: string): Promise<SpaceRow | undefined> {
    return db.selectFrom('spaces').selectAll().where('id', '=', spaceId).executeTakeFirst();
  },

  async insert(db: Db, row: SpaceRow): Promise<void> {
    await db.insertInto('spaces').values(row).execute();
  },

  async update(db: Db, spaceId: string, changes: Partial<SpaceRow>): Promise<void> {
    await db.updateTable('spaces').set(changes).where('id', '=', spaceId).execute();
  },

  /**
   * Moves the space to a new revision if it is still at `from` (compare and set): false
   * when another write moved it first.
   */
  async advanceRevision(db: Db, spaceId: string, from: string | null, to: string, at: string): Promise<boolean> {
    const result = await db
      .updateTable('spaces')
      .set({ revision_id: to, updated_at: at })
      .where('id', '=', spaceId)
      .where(from === null ? sql<boolean>`revision_id is null` : sql<boolean>`revision_id = ${from}`)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** A page of the organization's live spaces (or a collection's), oldest first, filtered by access in SQL. */
  list(
    db: Db,
    organizationId: string,
    scope: SpaceListScope,
    page: PageRequest,
    collectionId?: string,
    order: 'asc' | 'desc' = 'asc',
  ): Promise<Page<SpaceRow>> {
    let query = db.selectFrom('spaces').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null);
    if (collectionId !== undefined) query = query.where('parent_id', '=', collectionId);
    if (!scope.all) query = query.where((eb) => inScope(eb, scope));
    return paginate(
      query,
      [
        { ref: 'created_at', field: 'created_at', dir: order },
        { ref: 'id', field: 'id', dir: order },
      ],
      page,
    );
  },

  /** What the Space object counts of other modules' rows: change requests by status, open comments. */
  async counts(db: Db, spaceIds: string[]): Promise<Map<string, SpaceCounts>> {
    const counts = new Map<string, SpaceCounts>(spaceIds.map((id) => [id, { ...NO_COUNTS }]));
    if (spaceIds.length === 0) return counts;
    const rows = await db
      .selectFrom('change_requests')
      .select(['space_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('space_id', 'in', spaceIds)
      .groupBy(['space_id', 'status'])
      .execute();
    for (const row of rows) {
      const c = counts.get(row.space_id) as SpaceCounts;
      const n = Number(row.n);
      c.changeRequests += n;
      if (row.status === 'open') c.changeRequestsOpen += n;
      if (row.status === 'draft') c.changeRequestsDraft += n;
    }
    // Open comments on the space itself; a change request's comments count on the change request.
    const comments = await db
      .selectFrom('comments')
      .select(['space_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('space_id', 'in', spaceIds)
      .where('change_request_id', 'is', null)
      .where('status', '=', 'open')
      .groupBy('space_id')
      .execute();
    for (const row of comments) (counts.get(row.space_id) as SpaceCounts).comments = Number(row.n);
    return counts;
  },

  /**
   * Where each of these spaces is published: its first site space (oldest site first) on
   * a published site, with what its URL is built from.
   */
  async publishedPlacements(db: Db, spaceIds: string[]) {
    if (spaceIds.length === 0) return new Map<string, PublishedPlacement>();
    const rows = await db
      .selectFrom('site_spaces as ss')
      .innerJoin('sites as site', 'site.id', 'ss.site_id')
      .leftJoin('site_sections as sec', 'sec.id', 'ss.section_id')
      .select(['ss.space_id', 'ss.path', 'site.id as site_id', 'site.basename', 'site.hostname', 'site.visibility', 'sec.path as section_path'])
      .where('ss.space_id', 'in', spaceIds)
      .where('site.published', '=', 1)
      .orderBy('site.created_at')
      .orderBy('site.id')
      .orderBy('ss.position')
      .execute();
    const placements = new Map<string, PublishedPlacement>();
    for (const row of rows) if (!placements.has(row.space_id)) placements.set(row.space_id, row);
    return placements;
  },

  /**
   * What of their organization shows or feeds from these spaces: the first site that holds
   * one of them (a site space) and the first translation reading or writing one.
   */
  async organizationUses(db: Db, spaceIds: string[]): Promise<{ site?: { title: string }; translation?: { id: string } }> {
    if (spaceIds.length === 0) return {};
    const site = await db
      .selectFrom('site_spaces as ss')
      .innerJoin('sites as site', 'site.id', 'ss.site_id')
      .select('site.title')
      .where('ss.space_id', 'in', spaceIds)
      .orderBy('site.created_at')
      .limit(1)
      .executeTakeFirst();
    const translation = await db
      .selectFrom('translations')
      .select('id')
      .where((eb) => eb.or([eb('source_space_id', 'in', spaceIds), eb('result_space_id', 'in', spaceIds)]))
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
    return { ...(site ? { site } : {}), ...(translation ? { translation } : {}) };
  },

  /** Spaces and collections directly under `parentId` (null: the organization root), in order. */
  async siblings(db: Db, organizationId: string, parentId: string | null): Promise<Sibling[]> {
    const under = (column: 'parent_id') => (parentId === null ? sql<boolean>`${sql.ref(column)} is null` : sql<boolean>`${sql.ref(column)} = ${parentId}`);
    const [spaces, collections] = await Promise.all([
      db.selectFrom('spaces').select(['id', 'position']).where('organization_id', '=', organizationId).where('deleted_at', 'is', null).where(under('parent_id')).execute(),
      db.selectFrom('collections').select(['id', 'position']).where('organization_id', '=', organizationId).where(under('parent_id')).execute(),
    ]);
    return [
      ...spaces.map((s) => ({ type: 'space' as const, id: s.id, position: Number(s.position) })),
      ...collections.map((c) => ({ type: 'collection' as const, id: c.id, position: Number(c.position) })),
    ].sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
  },

  /**
   * Takes the organization's row lock until the transaction ends: placements (create,
   * duplicate, move) renumber siblings, and two of them at one parent updating the same rows
   * in different orders deadlock on PostgreSQL. Taken before the siblings are read, so
   * placements in one organization run one after another and each reads the other's result.
   * (A no-op UPDATE locks on both dialects without dialect SQL.)
   */
  async lockPlacements(db: Db, organizationId: string): Promise<void> {
    await db
      .updateTable('organizations')
      .set((eb) => ({ title: eb.ref('title') }))
      .where('id', '=', organizationId)
      .execute();
  },

  async setPosition(db: Db, sibling: Sibling): Promise<void> {
    await db
      .updateTable(sibling.type === 'space' ? 'spaces' : 'collections')
      .set({ position: sibling.position })
      .where('id', '=', sibling.id)
      .execute();
  },

  /** Does the organization hold this collection? */
  async collectionExists(db: Db, organizationId: string, collectionId: string): Promise<boolean> {
    const row = await db.selectFrom('collections').select('id').where('id', '=', collectionId).where('organization_id', '=', organizationId).executeTakeFirst();
    return row !== undefined;
  },

  /** Spaces deleted at or before `cutoff`: due for the purge. */
  async deletedBefore(db: Db, cutoff: string, limit: number): Promise<SpaceRow[]> {
    return db.selectFrom('spaces').selectAll().where('deleted_at', 'is not', null).where('deleted_at', '<=', cutoff).limit(limit).execute();
  },

  /** Removes the space row for good (its content and grants are removed by their owners). */
  async deleteRow(db: Db, spaceId: string): Promise<void> {
    await db.deleteFrom('spaces').where('id', '=', spaceId).execute();
  },

  /** Copies the space's grants to another space (duplicate keeps who may access it). */
  async copyGrants(db: Db, fromSpaceId: string, toSpaceId: string, at: string): Promise<void> {
    const grants = await db.selectFrom('content_permissions').selectAll().where('target_id', '=', fromSpaceId).execute();
    if (grants.length === 0) return;
    await db
      .insertInto('content_permissions')
      .values(grants.map((g) => ({ ...g, target_id: toSpaceId, created_at: at })))
      .execute();
  },
};
