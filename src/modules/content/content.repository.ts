import type { Db } from '../../db/database.ts';
import { storeRepository } from '../../content/store/store.repository.ts';

/*
 * Content reads go through the revision store (src/content/store), whose repository holds
 * the queries on revisions and objects; this module adds only what HTTP reads need.
 */
export const contentRepository = {
  /** Does the space still reference this blob (it is not purged, the file was added to it)? */
  spaceHoldsBlob(db: Db, spaceId: string, hash: string): Promise<boolean> {
    return storeRepository.hasBlobReference(db, spaceId, hash);
  },
};
