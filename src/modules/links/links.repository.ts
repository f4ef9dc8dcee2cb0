import type { Db } from '../../db/database.ts';

/** The only queries of the links module: the rest is read from the revision store. */
export const linksRepository = {
  /**
   * Which of these spaces exist in the organization and are not deleted. A space of another
   * organization counts as missing: a link must not tell that it exists, nor whose it is.
   */
  async liveSpaces(db: Db, organizationId: string, spaceIds: string[]): Promise<Map<string, { organizationId: string }>> {
    const found = new Map<string, { organizationId: string }>();
    const unique = [...new Set(spaceIds)];
    for (let i = 0; i < unique.length; i += 500) {
      const rows = await db
        .selectFrom('spaces')
        .select(['id', 'organization_id'])
        .where('id', 'in', unique.slice(i, i + 500))
        .where('organization_id', '=', organizationId)
        .where('deleted_at', 'is', null)
        .execute();
      for (const row of rows) found.set(row.id, { organizationId: row.organization_id });
    }
    return found;
  },
};
