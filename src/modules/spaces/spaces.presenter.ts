import type { Config } from '../../config.ts';
import type { SpacesTable } from '../../db/types.ts';
import { apiUrl, appUrl } from '../../lib/urls.ts';
import type { SpaceWire } from './spaces.schemas.ts';

/** What a Space shows besides its row: counts kept by other modules. */
export interface SpaceCounts {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

export const NO_COUNTS: SpaceCounts = { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 };

/** spaces row -> Space wire object, with the caller's permissions on it. */
export function presentSpace(
  config: Pick<Config, 'publicUrl'>,
  row: SpacesTable,
  permissions: SpaceWire['permissions'],
  counts: SpaceCounts = NO_COUNTS,
  published?: { url: string; public: boolean },
): SpaceWire {
  return {
    object: 'space',
    id: row.id,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.deleted_at ? { deletedAt: row.deleted_at } : {}),
    editMode: row.edit_mode,
    mergeRules: JSON.parse(row.merge_rules),
    urls: {
      location: apiUrl(config, `/spaces/${row.id}`),
      app: appUrl(config, `/s/${row.id}`),
      // Where the space's pages are served: its site space on a published site.
      ...(published ? { published: published.url, ...(published.public ? { public: published.url } : {}) } : {}),
    },
    organization: row.organization_id,
    ...(row.parent_id ? { parent: row.parent_id } : {}),
    ...(row.language ? { language: row.language as SpaceWire['language'] } : {}),
    revision: row.revision_id as string,
    defaultLevel: row.default_level,
    ...counts,
    permissions,
    ...(row.git_sync ? { gitSync: JSON.parse(row.git_sync) } : {}),
  };
}
