import type { Kysely } from 'kysely';

/*
 * Frozen: git_syncs.summary_source names the content object (kind `source`) holding the
 * SUMMARY.md text the last import read, so an export whose table of contents is unchanged
 * writes that file as it was read rather than a regenerated one. Null: none kept (no
 * SUMMARY.md, or the summary changed since). Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('git_syncs').addColumn('summary_source', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('git_syncs').dropColumn('summary_source').execute();
}
