import type { Config } from '../../config.ts';
import type { SpacesTable } from '../../db/types.ts';
import type { Page } from '../../lib/pagination/index.ts';
import { apiUrl, appUrl, publishedSiteUrl, siteSpaceUrl } from '../../lib/urls.ts';
import { NO_COUNTS, type MemberSpaceResult, type SpaceCounts, type SpaceResult } from './spaces.model.ts';
import type { PublishedPlacement } from './spaces.repository.ts';
import type { SpaceWire } from './spaces.schemas.ts';

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

/** The published URL of a space from the site space showing it. */
function publishedUrl(config: Pick<Config, 'publicUrl'>, placement: PublishedPlacement) {
  const base = publishedSiteUrl(config, { id: placement.site_id, basename: placement.basename, hostname: placement.hostname });
  const section = placement.section_path === null ? null : { path: placement.section_path };
  return { url: siteSpaceUrl(base, section, placement), public: placement.visibility === 'public' };
}

/** A space as the caller sees it -> Space wire object. */
export function presentSpaceResult(config: Pick<Config, 'publicUrl'>, result: SpaceResult): SpaceWire {
  const { placement } = result;
  return presentSpace(config, result.space, result.permissions, result.counts, placement && publishedUrl(config, placement));
}

/** A page of spaces -> the SpaceList wire object. */
export function presentSpaces(config: Pick<Config, 'publicUrl'>, page: Page<SpaceResult>) {
  return { ...page, items: page.items.map((result) => presentSpaceResult(config, result)) };
}

/** A page of the spaces a member can access -> the MemberSpaceList wire object. */
export function presentMemberSpaces(config: Pick<Config, 'publicUrl'>, page: Page<MemberSpaceResult>) {
  return { ...page, items: page.items.map((result) => ({ permission: result.permission, space: presentSpaceResult(config, result) })) };
}
