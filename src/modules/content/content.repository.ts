import type { Db } from '../../db/database.ts';

/*
 * Content reads go through the revision store (src/content/store), whose repository holds
 * the queries on revisions and objects; this module adds only what HTTP reads need.
 */
export const contentRepository = {
  /** Does a live (not deleted) space reference this blob? Signed file URLs work only then. */
  async liveSpaceHoldsBlob(db: Db, spaceId: string, hash: string): Promise<boolean> {
    const row = await db
      .selectFrom('space_blobs as b')
      .innerJoin('spaces as s', 's.id', 'b.space_id')
      .select('b.hash')
      .where('b.space_id', '=', spaceId)
      .where('b.hash', '=', hash)
      .where('s.deleted_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  },
};
