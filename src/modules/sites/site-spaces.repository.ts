import type { Db } from '../../db/database.ts';
import type { SiteSpacesTable, SpacesTable } from '../../db/types.ts';

export type SiteSpaceRow = SiteSpacesTable;

/** Queries on site spaces. */
export const siteSpacesRepository = {
  /** Every site space of the site. */
  list(db: Db, siteId: string): Promise<SiteSpaceRow[]> {
    return db.selectFrom('site_spaces').selectAll().where('site_id', '=', siteId).orderBy('position').orderBy('id').execute();
  },

  /** The live spaces among these ids. */
  async liveSpaces(db: Db, spaceIds: string[]): Promise<SpacesTable[]> {
    if (spaceIds.length === 0) return [];
    return db.selectFrom('spaces').selectAll().where('id', 'in', spaceIds).where('deleted_at', 'is', null).execute();
  },

  /** A live space of the organization. */
  findLiveSpace(db: Db, organizationId: string, spaceId: string): Promise<SpacesTable | undefined> {
    return db
      .selectFrom('spaces')
      .selectAll()
      .where('id', '=', spaceId)
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  },

  async insert(db: Db, row: SiteSpaceRow): Promise<void> {
    await db.insertInto('site_spaces').values(row).execute();
  },

  async update(db: Db, siteId: string, id: string, changes: Partial<SiteSpaceRow>): Promise<void> {
    await db.updateTable('site_spaces').set(changes).where('site_id', '=', siteId).where('id', '=', id).execute();
  },

  /** Deletes a site space; false when there was none. */
  async delete(db: Db, siteId: string, id: string): Promise<boolean> {
    const result = await db.deleteFrom('site_spaces').where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  async deleteInSection(db: Db, siteId: string, sectionId: string): Promise<void> {
    await db.deleteFrom('site_spaces').where('site_id', '=', siteId).where('section_id', '=', sectionId).execute();
  },

  /** Clears the site's root default site space (it is going away). */
  async clearSiteDefault(db: Db, siteId: string): Promise<void> {
    await db.updateTable('sites').set({ default_site_space_id: null }).where('id', '=', siteId).execute();
  },

  /** Moves the site spaces at the site root into a section (sections turned on). */
  async moveRootInto(db: Db, siteId: string, sectionId: string): Promise<void> {
    await db.updateTable('site_spaces').set({ section_id: sectionId }).where('site_id', '=', siteId).where('section_id', 'is', null).execute();
  },
};
