import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { GitSyncRunsTable, GitSyncsTable } from '../../db/types.ts';

export type GitSyncRow = Selectable<GitSyncsTable>;
export type GitSyncRunRow = Selectable<GitSyncRunsTable>;

/** Queries of git sync: the per-space sync state, its run log, the space's gitSync object. */
export const gitSyncRepository = {
  find(db: Db, spaceId: string): Promise<GitSyncRow | undefined> {
    return db.selectFrom('git_syncs').selectAll().where('space_id', '=', spaceId).executeTakeFirst();
  },

  async upsert(db: Db, row: Insertable<GitSyncsTable>): Promise<void> {
    const { space_id: _id, created_at: _created, ...changes } = row;
    await db
      .insertInto('git_syncs')
      .values(row)
      .onConflict((oc) => oc.column('space_id').doUpdateSet(changes))
      .execute();
  },

  async update(db: Db, spaceId: string, changes: Partial<Omit<GitSyncRow, 'space_id'>>): Promise<void> {
    await db.updateTable('git_syncs').set(changes).where('space_id', '=', spaceId).execute();
  },

  async setSpaceGitSync(db: Db, spaceId: string, gitSync: string | null): Promise<void> {
    await db.updateTable('spaces').set({ git_sync: gitSync }).where('id', '=', spaceId).execute();
  },

  async spaceGitSync(db: Db, spaceId: string): Promise<string | null> {
    const row = await db.selectFrom('spaces').select('git_sync').where('id', '=', spaceId).executeTakeFirst();
    return row?.git_sync ?? null;
  },

  async insertRun(db: Db, row: GitSyncRunRow): Promise<void> {
    await db.insertInto('git_sync_runs').values(row).execute();
  },

  /** Runs of a space, newest first. */
  listRuns(db: Db, spaceId: string, limit: number): Promise<GitSyncRunRow[]> {
    return db.selectFrom('git_sync_runs').selectAll().where('space_id', '=', spaceId).orderBy('started_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  },
};
