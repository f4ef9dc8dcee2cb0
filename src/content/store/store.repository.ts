import { createHash } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { ContentObjectsTable, RevisionsTable } from '../../db/types.ts';

export type ObjectKind = ContentObjectsTable['kind'];

/** The address of an object: sha256 of its kind and bytes (hex). */
export function objectHash(kind: ObjectKind, body: string): string {
  return createHash('sha256').update(kind).update('\u0000').update(body).digest('hex');
}

/** Queries of the revision store. Revisions and objects are insert-only: no updates here. */
export const storeRepository = {
  /**
   * The space's `.gitbook.yaml` redirects as git sync stored them at its last import
   * (paths.ts redirectKey -> page id); none for a space without git sync.
   */
  async gitRedirects(db: Db, spaceId: string): Promise<Record<string, string>> {
    const row = await db.selectFrom('git_syncs').select('redirects').where('space_id', '=', spaceId).executeTakeFirst();
    return row?.redirects ? (JSON.parse(row.redirects) as Record<string, string>) : {};
  },

  /** Stores objects not stored yet (same hash, same bytes: a conflict is a no-op). */
  async putObjects(db: Db, spaceId: string, objects: { hash: string; kind: ObjectKind; body: string }[]): Promise<void> {
    if (objects.length === 0) return;
    const unique = [...new Map(objects.map((o) => [o.hash, o])).values()];
    // Chunks keep each statement under both dialects' parameter limits.
    for (let i = 0; i < unique.length; i += 200) {
      await db
        .insertInto('content_objects')
        .values(unique.slice(i, i + 200).map((o) => ({ space_id: spaceId, hash: o.hash, kind: o.kind, body: o.body })))
        .onConflict((oc) => oc.columns(['space_id', 'hash']).doNothing())
        .execute();
    }
  },

  /** Bodies of these objects by hash. */
  async getObjects(db: Db, spaceId: string, hashes: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const unique = [...new Set(hashes)];
    for (let i = 0; i < unique.length; i += 500) {
      const rows = await db
        .selectFrom('content_objects')
        .select(['hash', 'body'])
        .where('space_id', '=', spaceId)
        .where('hash', 'in', unique.slice(i, i + 500))
        .execute();
      for (const row of rows) found.set(row.hash, row.body);
    }
    return found;
  },

  async insertRevision(db: Db, row: RevisionsTable): Promise<void> {
    await db.insertInto('revisions').values(row).execute();
  },

  findRevision(db: Db, spaceId: string, revisionId: string): Promise<RevisionsTable | undefined> {
    return db.selectFrom('revisions').selectAll().where('id', '=', revisionId).where('space_id', '=', spaceId).executeTakeFirst();
  },

  /** Every object of a space (duplicating a space copies them). */
  allObjects(db: Db, spaceId: string) {
    return db.selectFrom('content_objects').select(['hash', 'kind', 'body']).where('space_id', '=', spaceId).execute();
  },

  async addBlobReference(db: Db, spaceId: string, hash: string, size: number): Promise<void> {
    await db
      .insertInto('space_blobs')
      .values({ space_id: spaceId, hash, size })
      .onConflict((oc) => oc.columns(['space_id', 'hash']).doNothing())
      .execute();
  },

  blobsOf(db: Db, spaceId: string) {
    return db.selectFrom('space_blobs').select(['hash', 'size']).where('space_id', '=', spaceId).execute();
  },

  async hasBlobReference(db: Db, spaceId: string, hash: string): Promise<boolean> {
    const row = await db.selectFrom('space_blobs').select('hash').where('space_id', '=', spaceId).where('hash', '=', hash).executeTakeFirst();
    return row !== undefined;
  },

  /** Hashes among these that no space references any more. */
  async unreferencedBlobs(db: Db, hashes: string[]): Promise<string[]> {
    if (hashes.length === 0) return [];
    const still = new Set<string>();
    for (let i = 0; i < hashes.length; i += 500) {
      const rows = await db.selectFrom('space_blobs').select('hash').distinct().where('hash', 'in', hashes.slice(i, i + 500)).execute();
      for (const row of rows) still.add(row.hash);
    }
    return hashes.filter((h) => !still.has(h));
  },

  /** Removes a space's whole history: revisions, objects and blob references. */
  async deleteSpaceContent(db: Db, spaceId: string): Promise<void> {
    await db.deleteFrom('revisions').where('space_id', '=', spaceId).execute();
    await db.deleteFrom('content_objects').where('space_id', '=', spaceId).execute();
    await db.deleteFrom('space_blobs').where('space_id', '=', spaceId).execute();
  },

  /** Copies every object and blob reference of one space into another (duplicate). */
  async copySpaceContent(db: Db, fromSpaceId: string, toSpaceId: string): Promise<void> {
    const objects = await this.allObjects(db, fromSpaceId);
    await this.putObjects(db, toSpaceId, objects as { hash: string; kind: ObjectKind; body: string }[]);
    for (const blob of await this.blobsOf(db, fromSpaceId)) await this.addBlobReference(db, toSpaceId, blob.hash, blob.size);
  },
};
