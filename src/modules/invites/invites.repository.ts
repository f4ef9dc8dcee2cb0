import type { Db } from '../../db/database.ts';
import { keysetOf, paginate, type PageRequest } from '../../lib/pagination/index.ts';
import type { InviteLinksTable, RoleName } from '../../db/types.ts';

export type InviteLinkRow = InviteLinksTable;

/** Queries on invite links, and the membership queries inviting needs. */
export const invitesRepository = {
  /** One invite link of the organization; an id of another organization's link finds nothing. */
  find(db: Db, organizationId: string, inviteId: string): Promise<InviteLinkRow | undefined> {
    return db
      .selectFrom('invite_links')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', inviteId)
      .executeTakeFirst();
  },

  /** A page of the organization's invite links, oldest first (index invite_links_org). */
  list(db: Db, organizationId: string, page: PageRequest) {
    const query = db.selectFrom('invite_links').selectAll().where('organization_id', '=', organizationId);
    return paginate(
      query,
      keysetOf('asc', 'created_at', 'id'),
      page,
    );
  },

  async insert(db: Db, row: InviteLinkRow): Promise<void> {
    await db.insertInto('invite_links').values(row).execute();
  },

  /** Changes the role of an invite link; false when the organization has no such link. */
  async updateRole(db: Db, organizationId: string, inviteId: string, role: RoleName | null): Promise<boolean> {
    const result = await db
      .updateTable('invite_links')
      .set({ role })
      .where('organization_id', '=', organizationId)
      .where('id', '=', inviteId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async delete(db: Db, organizationId: string, inviteId: string): Promise<void> {
    await db.deleteFrom('invite_links').where('organization_id', '=', organizationId).where('id', '=', inviteId).execute();
  },
};
