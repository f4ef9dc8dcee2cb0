import type { Page } from '../../lib/pagination/index.ts';
import type { collectionPermissions } from './collections.policy.ts';
import type { CollectionRow } from './collections.repository.ts';

/** What the caller may do on a collection (collectionPolicy's actions). */
export type CollectionPermissions = ReturnType<typeof collectionPermissions>;

/** A collection as the collection service answers it: its row and the caller's permissions on it (presented by the routes). */
export interface CollectionResult {
  collection: CollectionRow;
  permissions: CollectionPermissions;
}

export type CollectionsPage = Page<CollectionResult>;
