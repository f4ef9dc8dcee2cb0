import type { Kysely } from 'kysely';

/*
 * Frozen: the default site space of each site section (a section's `defaultSiteSpace`,
 * spec 4.5). Null: the first site space of the section is its default.
 * Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('site_sections').addColumn('default_site_space_id', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('site_sections').dropColumn('default_site_space_id').execute();
}
