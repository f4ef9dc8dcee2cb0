import type { Kysely } from 'kysely';

/*
 * Frozen: a site's custom hostname is claimed with a proof (issue 30, docs/security.md).
 * sites.pending_hostname holds a hostname set but not yet proven (a DNS TXT record, or an
 * installation admin); it is never served and, not being unique, lets nobody squat a
 * hostname by claiming it first. sites.hostname (unique) holds only proven hostnames.
 * Hostnames set before this migration stay as they are (served). Never import app code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sites').addColumn('pending_hostname', 'varchar(255)').execute();
  await db.schema.createIndex('sites_pending_hostname').on('sites').columns(['pending_hostname']).execute();
}
