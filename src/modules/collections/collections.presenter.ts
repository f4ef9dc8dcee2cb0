import type { Config } from '../../config.ts';
import type { Page } from '../../lib/pagination/index.ts';
import { apiUrl, appUrl } from '../../lib/urls.ts';
import type { CollectionResult, CollectionsPage } from './collections.model.ts';
import type { CollectionRow } from './collections.repository.ts';
import type { CollectionWire } from './collections.schemas.ts';

/** collections row -> Collection wire object, with the caller's permissions on it. */
export function presentCollection(
  config: Pick<Config, 'publicUrl'>,
  row: CollectionRow,
  permissions: CollectionWire['permissions'],
): CollectionWire {
  const collection: CollectionWire = {
    object: 'collection',
    id: row.id,
    title: row.title,
    organization: row.organization_id,
    defaultLevel: row.default_level,
    urls: {
      location: apiUrl(config, `/collections/${row.id}`),
      app: appUrl(config, `/o/${row.organization_id}/c/${row.id}`),
    },
    permissions: {
      view: permissions.view,
      admin: permissions.admin,
      viewInviteLinks: permissions.viewInviteLinks,
      create: permissions.create,
    },
  };
  if (row.description) collection.description = row.description;
  if (row.parent_id) collection.parent = row.parent_id;
  return collection;
}

export const presentCollectionResult = (config: Pick<Config, 'publicUrl'>, result: CollectionResult): CollectionWire =>
  presentCollection(config, result.collection, result.permissions);

export function presentCollectionsPage(config: Pick<Config, 'publicUrl'>, page: CollectionsPage): Page<CollectionWire> {
  return { ...page, items: page.items.map((result) => presentCollectionResult(config, result)) };
}
