import type { Kysely } from 'kysely';

/*
 * Frozen: git sync (docs/decisions/git-sync.md). One row per space that was synced (the
 * remote without credentials, the last commit and revision in step, the ordering
 * timestamp), a log of sync runs, and the space's `gitSync` object kept on the space row
 * so every space read has it without a join. Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('git_syncs')
    .addColumn('space_id', 'varchar(64)', (c) => c.primaryKey().references('spaces.id').onDelete('cascade'))
    .addColumn('remote', 'text', (c) => c.notNull()) // the URL without credentials
    .addColumn('ref', 'varchar(512)', (c) => c.notNull())
    .addColumn('repo_cache_id', 'varchar(200)')
    .addColumn('project_directory', 'varchar(1000)', (c) => c.notNull())
    // Newest operation timestamp applied; older ones are skipped unless forced.
    .addColumn('last_timestamp', 'varchar(32)')
    // The commit and the revision last known to hold the same content.
    .addColumn('last_commit', 'varchar(64)')
    .addColumn('last_revision_id', 'varchar(64)')
    // Hash of the SUMMARY.md the tree of last_revision_id would have (JSON-free text).
    .addColumn('summary_sig', 'varchar(64)')
    // `.gitbook.yaml` redirects as JSON: old URL path -> page id (resolved at import).
    .addColumn('redirects', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('git_sync_runs')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('direction', 'varchar(16)', (c) => c.notNull()) // import | export
    .addColumn('status', 'varchar(32)', (c) => c.notNull()) // success | failure | skipped | change-request | unchanged
    .addColumn('commit', 'varchar(64)')
    .addColumn('revision_id', 'varchar(64)')
    .addColumn('change_request_id', 'varchar(64)')
    .addColumn('pages_changed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('timestamp', 'varchar(32)')
    .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('git_sync_runs_by_space').on('git_sync_runs').columns(['space_id', 'started_at', 'id']).execute();

  await db.schema.alterTable('spaces').addColumn('git_sync', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('spaces').dropColumn('git_sync').execute();
  await db.schema.dropTable('git_sync_runs').execute();
  await db.schema.dropTable('git_syncs').execute();
}
