import type { Db } from '../../db/database.ts';
import { keysetOf, paginate, type Page, type PageRequest } from '../../lib/pagination/index.ts';
import { lowerContains } from '../../db/like.ts';
import type { SiteShareLinksTable, SitesTable } from '../../db/types.ts';
import { accessRepository, normalizeSiteView, selectSites, type SiteView } from '../../access/access.repository.ts';
import type { ListSitesFilter } from './sites.schemas.ts';

export type { SiteView };

export type SiteRow = SitesTable;
export type ShareLinkRow = SiteShareLinksTable;

/** Queries on sites and their share links. */
export const sitesRepository = {
  /** One site of the organization, with its site space count (the access layer's read, src/access). */
  find: accessRepository.findSite,

  /** A page of the organization's sites, oldest first, filtered in SQL. */
  async list(db: Db, organizationId: string, filter: ListSitesFilter, page: PageRequest): Promise<Page<SiteView>> {
    let query = selectSites(db).where('s.organization_id', '=', organizationId);
    if (filter.title) {
      const title = filter.title;
      query = query.where((eb) => lowerContains(eb, 's.title', title));
    }
    if (filter.published !== undefined) query = query.where('s.published', '=', filter.published ? 1 : 0);
    if (filter.type && filter.type.length > 0) query = query.where('s.type', 'in', filter.type);
    if (filter.space) {
      const space = filter.space;
      query = query.where((eb) =>
        eb.exists(eb.selectFrom('site_spaces as f').select('f.id').whereRef('f.site_id', '=', 's.id').where('f.space_id', '=', space)),
      );
    }
    const result = await paginate(
      query,
      keysetOf('asc', 's.created_at', 's.id'),
      page,
    );
    return { ...result, items: (result.items as SiteView[]).map(normalizeSiteView) };
  },

  async insert(db: Db, row: SiteRow): Promise<void> {
    await db.insertInto('sites').values(row).execute();
  },

  /** Touches the site's updated_at: every change to its structure or settings does. */
  async touch(db: Db, siteId: string, updatedAt: string): Promise<void> {
    await db.updateTable('sites').set({ updated_at: updatedAt }).where('id', '=', siteId).execute();
  },

  async update(db: Db, siteId: string, changes: Partial<SiteRow>): Promise<void> {
    await db.updateTable('sites').set(changes).where('id', '=', siteId).execute();
  },

  /** Deletes the site; its groups, sections, site spaces and share links go with it (cascade). */
  async delete(db: Db, organizationId: string, siteId: string): Promise<void> {
    await db.deleteFrom('sites').where('id', '=', siteId).where('organization_id', '=', organizationId).execute();
  },

  /**
   * Is this address taken by another site? A basename may not equal another site's
   * basename or id (published URLs use the id when there is no basename).
   */
  async addressTaken(db: Db, siteId: string, field: 'basename' | 'hostname', value: string): Promise<boolean> {
    const row = await db
      .selectFrom('sites')
      .select('id')
      .where('id', '!=', siteId)
      .where((eb) => (field === 'basename' ? eb.or([eb('basename', '=', value), eb('id', '=', value)]) : eb('hostname', '=', value)))
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Sites that set this hostname and have not proven it yet. */
  sitesPendingHostname(db: Db, hostname: string) {
    return db.selectFrom('sites').select(['id', 'organization_id']).where('pending_hostname', '=', hostname).orderBy('id').execute();
  },

  listShareLinks(db: Db, siteId: string, search: string | undefined, page: PageRequest): Promise<Page<ShareLinkRow>> {
    let query = db.selectFrom('site_share_links').selectAll().where('site_id', '=', siteId);
    if (search) query = query.where((eb) => lowerContains(eb, 'name', search));
    return paginate(
      query,
      keysetOf('asc', 'created_at', 'id'),
      page,
    );
  },

  findShareLink(db: Db, siteId: string, id: string): Promise<ShareLinkRow | undefined> {
    return db.selectFrom('site_share_links').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  },

  activeShareKey: accessRepository.activeShareKey,

  async insertShareLink(db: Db, row: ShareLinkRow): Promise<void> {
    await db.insertInto('site_share_links').values(row).execute();
  },

  async updateShareLink(db: Db, siteId: string, id: string, changes: Partial<ShareLinkRow>): Promise<void> {
    await db.updateTable('site_share_links').set(changes).where('site_id', '=', siteId).where('id', '=', id).execute();
  },

  async deleteShareLink(db: Db, siteId: string, id: string): Promise<void> {
    await db.deleteFrom('site_share_links').where('site_id', '=', siteId).where('id', '=', id).execute();
  },
};
