import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { keysetOf, paginate, type Page, type PageRequest } from '../../lib/pagination/index.ts';
import type { CollectionsTable } from '../../db/types.ts';

export type CollectionRow = CollectionsTable;

/** A child of a collection (or of the organization root): a collection or a non-deleted space. */
export interface Sibling {
  kind: 'space' | 'collection';
  id: string;
  position: number;
}

/** Queries on collections, and on the positions and ownership of what they hold. */
export const collectionsRepository = {
  find(db: Db, collectionId: string): Promise<CollectionRow | undefined> {
    return db.selectFrom('collections').selectAll().where('id', '=', collectionId).executeTakeFirst();
  },

  /**
   * A page of the organization's collections, oldest first. `visible` (guests) keeps only
   * these ids; `nested: false` keeps only top-level collections.
   */
  list(db: Db, organizationId: string, filters: { visible?: string[]; nested: boolean }, page: PageRequest): Promise<Page<CollectionRow>> {
    let query = db.selectFrom('collections as c').selectAll('c').where('c.organization_id', '=', organizationId);
    if (filters.visible) {
      // An empty IN list is not valid SQL everywhere: nothing visible is no row at all.
      query = filters.visible.length > 0 ? query.where('c.id', 'in', filters.visible) : query.where(sql<boolean>`1 = 0`);
    }
    if (!filters.nested) query = query.where('c.parent_id', 'is', null);
    return paginate(
      query,
      keysetOf('asc', 'c.created_at', 'c.id'),
      page,
    ) as Promise<Page<CollectionRow>>;
  },

  async insert(db: Db, row: CollectionRow): Promise<void> {
    await db.insertInto('collections').values(row).execute();
  },

  async update(db: Db, collectionId: string, changes: Partial<Omit<CollectionRow, 'id'>>): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await db.updateTable('collections').set(changes).where('id', '=', collectionId).execute();
  },

  /** The collections and non-deleted spaces directly under `parentId` (null: the root), in order. */
  async children(db: Db, organizationId: string, parentId: string | null): Promise<Sibling[]> {
    const collections = db
      .selectFrom('collections')
      .select([sql<string>`'collection'`.as('kind'), 'id', 'position', 'created_at'])
      .where('organization_id', '=', organizationId)
      .where('parent_id', parentId === null ? 'is' : '=', parentId);
    const spaces = db
      .selectFrom('spaces')
      .select([sql<string>`'space'`.as('kind'), 'id', 'position', 'created_at'])
      .where('organization_id', '=', organizationId)
      .where('parent_id', parentId === null ? 'is' : '=', parentId)
      .where('deleted_at', 'is', null);
    const rows = await collections.unionAll(spaces).orderBy('position').orderBy('created_at').orderBy('id').execute();
    return rows.map((r) => ({ kind: r.kind as Sibling['kind'], id: r.id, position: Number(r.position) }));
  },

  /** Sets the positions of siblings (each row of its own table). */
  async setPositions(db: Db, items: Sibling[]): Promise<void> {
    for (const item of items) {
      await db
        .updateTable(item.kind === 'space' ? 'spaces' : 'collections')
        .set({ position: item.position })
        .where('id', '=', item.id)
        .execute();
    }
  },

  /** Whether a non-deleted space of the organization exists, and its parent. */
  findSpace(db: Db, organizationId: string, spaceId: string): Promise<{ id: string; parent_id: string | null } | undefined> {
    return db
      .selectFrom('spaces')
      .select(['id', 'parent_id'])
      .where('id', '=', spaceId)
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  },

  /** The collection and every collection below it (one recursive query). */
  async subtree(db: Db, collectionId: string): Promise<string[]> {
    const result = await sql<{ id: string }>`
      with recursive sub(id, depth) as (
        select id, 0 from collections where id = ${collectionId}
        union all
        select c.id, sub.depth + 1 from collections c join sub on c.parent_id = sub.id where sub.depth < 64
      )
      select id from sub`.execute(db);
    return result.rows.map((r) => r.id);
  },

  /** Soft-deletes the non-deleted spaces directly inside these collections (restorable for 7 days). */
  async softDeleteSpacesIn(db: Db, collectionIds: string[], at: string): Promise<void> {
    await db
      .updateTable('spaces')
      .set({ deleted_at: at, updated_at: at })
      .where('parent_id', 'in', collectionIds)
      .where('deleted_at', 'is', null)
      .execute();
  },

  /** Ids of every space (deleted or not) directly inside these collections. */
  async spacesIn(db: Db, collectionIds: string[]): Promise<string[]> {
    const rows = await db.selectFrom('spaces').select('id').where('parent_id', 'in', collectionIds).execute();
    return rows.map((r) => r.id);
  },

  async deleteMany(db: Db, collectionIds: string[]): Promise<void> {
    await db.deleteFrom('collections').where('id', 'in', collectionIds).execute();
  },

  /** Moves these collections and the spaces directly inside them to another organization. */
  async changeOrganization(db: Db, collectionIds: string[], organizationId: string, at: string): Promise<void> {
    await db.updateTable('collections').set({ organization_id: organizationId, updated_at: at }).where('id', 'in', collectionIds).execute();
    await db.updateTable('spaces').set({ organization_id: organizationId, updated_at: at }).where('parent_id', 'in', collectionIds).execute();
  },
};
