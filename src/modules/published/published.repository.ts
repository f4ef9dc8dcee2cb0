import type { Db } from '../../db/database.ts';
import { preparedQuery } from '../../db/prepared.ts';
import type { SiteSectionGroupsTable, SiteSectionsTable, SitesTable } from '../../db/types.ts';

/*
 * Reads of the published-site path (ordering and defaults are siteStructure's, in
 * src/site/structure.ts, the model the API presents too). Sites, sections and site spaces change, so they are
 * read on every request (each a prepared, indexed query); revisions never change and are
 * cached by the content store.
 */

/** What serving needs of a site (fewer columns read faster: this is every request's first query). */
export type PublishedSiteRow = Pick<
  SitesTable,
  'id' | 'organization_id' | 'title' | 'visibility' | 'published' | 'customization' | 'default_site_space_id' | 'default_site_section_id' | 'visitor_auth_key'
>;

const SITE_COLUMNS = [
  'id',
  'organization_id',
  'title',
  'visibility',
  'published',
  'customization',
  'default_site_space_id',
  'default_site_section_id',
  'visitor_auth_key',
] as const;

export type PublishedSectionRow = Pick<
  SiteSectionsTable,
  'id' | 'title' | 'path' | 'condition' | 'section_group_id' | 'icon' | 'position' | 'default_site_space_id'
>;

export type PublishedGroupRow = Pick<SiteSectionGroupsTable, 'id' | 'title' | 'parent_group_id' | 'position'>;

/** A site space with what the published path needs of its space. */
export interface PublishedSiteSpaceRow {
  id: string;
  section_id: string | null;
  space_id: string;
  path: string;
  title: string | null;
  condition: string | null;
  customization: string;
  position: number;
  revision_id: string | null;
  space_title: string;
}

// Sites are addressed by basename (the canonical address) or id; both are unique.
const siteByBasename = preparedQuery((db: Db, p: { key: string }) =>
  db.selectFrom('sites').select(SITE_COLUMNS).where('basename', '=', p.key).limit(1),
);
const siteById = preparedQuery((db: Db, p: { key: string }) => db.selectFrom('sites').select(SITE_COLUMNS).where('id', '=', p.key).limit(1));

const siteByHostname = preparedQuery((db: Db, p: { hostname: string }) =>
  db.selectFrom('sites').select(SITE_COLUMNS).where('hostname', '=', p.hostname).limit(1),
);

const sections = preparedQuery((db: Db, p: { siteId: string }) =>
  db
    .selectFrom('site_sections')
    .select(['id', 'title', 'path', 'condition', 'section_group_id', 'icon', 'position', 'default_site_space_id'])
    .where('site_id', '=', p.siteId)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id'),
);

const groups = preparedQuery((db: Db, p: { siteId: string }) =>
  db
    .selectFrom('site_section_groups')
    .select(['id', 'title', 'parent_group_id', 'position'])
    .where('site_id', '=', p.siteId)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id'),
);

// Site spaces whose space is gone (deleted) are not served.
const siteSpaces = preparedQuery((db: Db, p: { siteId: string }) =>
  db
    .selectFrom('site_spaces')
    .innerJoin('spaces', 'spaces.id', 'site_spaces.space_id')
    .select([
      'site_spaces.id',
      'site_spaces.section_id',
      'site_spaces.space_id',
      'site_spaces.path',
      'site_spaces.title',
      'site_spaces.condition',
      'site_spaces.customization',
      'site_spaces.position',
      'spaces.revision_id',
      'spaces.title as space_title',
    ])
    .where('site_spaces.site_id', '=', p.siteId)
    .where('spaces.deleted_at', 'is', null)
    .orderBy('site_spaces.position')
    .orderBy('site_spaces.created_at')
    .orderBy('site_spaces.id'),
);

const activeShareLink = preparedQuery((db: Db, p: { siteId: string; key: string }) =>
  db
    .selectFrom('site_share_links')
    .select('id')
    .where('site_id', '=', p.siteId)
    .where('key', '=', p.key)
    .where('active', '=', 1)
    .limit(1),
);

export const publishedRepository = {
  /** By basename first (one indexed read for canonical URLs), then by id. */
  async siteByKey(db: Db, key: string): Promise<PublishedSiteRow | undefined> {
    const [row] = await siteByBasename(db, { key });
    if (row) return row;
    const [byId] = await siteById(db, { key });
    return byId;
  },

  async siteByHostname(db: Db, hostname: string): Promise<PublishedSiteRow | undefined> {
    const [row] = await siteByHostname(db, { hostname });
    return row;
  },

  sections(db: Db, siteId: string): Promise<PublishedSectionRow[]> {
    return sections(db, { siteId });
  },

  groups(db: Db, siteId: string): Promise<PublishedGroupRow[]> {
    return groups(db, { siteId });
  },

  siteSpaces(db: Db, siteId: string): Promise<PublishedSiteSpaceRow[]> {
    return siteSpaces(db, { siteId }) as Promise<PublishedSiteSpaceRow[]>;
  },

  /** Whether `key` is an active share link of the site. */
  async shareLinkIsActive(db: Db, siteId: string, key: string): Promise<boolean> {
    return (await activeShareLink(db, { siteId, key })).length > 0;
  },
};
