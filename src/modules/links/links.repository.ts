import type { Db } from '../../db/database.ts';

/** The only queries of the links module: the rest is read from the revision store. */
export const linksRepository = {
  /** Which of these spaces exist and are not deleted, with their organization. */
  async liveSpaces(db: Db, spaceIds: string[]): Promise<Map<string, { organizationId: string }>> {
    const found = new Map<string, { organizationId: string }>();
    const unique = [...new Set(spaceIds)];
    for (let i = 0; i < unique.length; i += 500) {
      const rows = await db
        .selectFrom('spaces')
        .select(['id', 'organization_id'])
        .where('id', 'in', unique.slice(i, i + 500))
        .where('deleted_at', 'is', null)
        .execute();
      for (const row of rows) found.set(row.id, { organizationId: row.organization_id });
    }
    return found;
  },
};
