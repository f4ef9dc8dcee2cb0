import type { Db } from '../../db/database.ts';
import type { SiteSectionGroupsTable, SiteSectionsTable } from '../../db/types.ts';

export type SectionRow = SiteSectionsTable;
export type GroupRow = SiteSectionGroupsTable;

/** Queries on site sections and section groups. */
export const siteSectionsRepository = {
  /** Every section of the site (ordering is the service's: positions are per level). */
  sections(db: Db, siteId: string): Promise<SectionRow[]> {
    return db.selectFrom('site_sections').selectAll().where('site_id', '=', siteId).orderBy('position').orderBy('id').execute();
  },

  groups(db: Db, siteId: string): Promise<GroupRow[]> {
    return db.selectFrom('site_section_groups').selectAll().where('site_id', '=', siteId).orderBy('position').orderBy('id').execute();
  },

  async insertSection(db: Db, row: SectionRow): Promise<void> {
    await db.insertInto('site_sections').values(row).execute();
  },

  async updateSection(db: Db, siteId: string, id: string, changes: Partial<SectionRow>): Promise<void> {
    await db.updateTable('site_sections').set(changes).where('site_id', '=', siteId).where('id', '=', id).execute();
  },

  /** Deletes a section; false when there was none. */
  async deleteSection(db: Db, siteId: string, id: string): Promise<boolean> {
    const result = await db.deleteFrom('site_sections').where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /** Clears a section's default when it names a site space that is going away. */
  async clearDefaultSiteSpace(db: Db, siteId: string, siteSpaceId: string): Promise<void> {
    await db
      .updateTable('site_sections')
      .set({ default_site_space_id: null })
      .where('site_id', '=', siteId)
      .where('default_site_space_id', '=', siteSpaceId)
      .execute();
  },

  /** Clears the site's chosen default section (it is going away). */
  async clearSiteDefaultSection(db: Db, siteId: string): Promise<void> {
    await db.updateTable('sites').set({ default_site_section_id: null }).where('id', '=', siteId).execute();
  },

  async insertGroup(db: Db, row: GroupRow): Promise<void> {
    await db.insertInto('site_section_groups').values(row).execute();
  },

  async updateGroup(db: Db, siteId: string, id: string, changes: Partial<GroupRow>): Promise<void> {
    await db.updateTable('site_section_groups').set(changes).where('site_id', '=', siteId).where('id', '=', id).execute();
  },

  async deleteGroup(db: Db, siteId: string, id: string): Promise<void> {
    await db.deleteFrom('site_section_groups').where('site_id', '=', siteId).where('id', '=', id).execute();
  },
};
