import type { Db } from '../../db/database.ts';
import type { MembersTable } from '../../db/types.ts';

export type MemberRow = MembersTable;

/** Queries on organization memberships. */
export const membersRepository = {
  async insert(db: Db, row: MemberRow): Promise<void> {
    await db.insertInto('members').values(row).execute();
  },
};
