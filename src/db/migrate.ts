import { Migrator, PostgresAdapter, sql, type Migration, type MigrationProvider } from 'kysely';
import { installChangeTriggers, type Db } from './database.ts';
import * as m0001 from './migrations/0001_foundation.ts';
import * as m0002 from './migrations/0002_directory_version.ts';
import * as m0003 from './migrations/0003_spaces_and_content.ts';
import * as m0004 from './migrations/0004_sites.ts';
import * as m0005 from './migrations/0005_change_requests.ts';
import * as m0006 from './migrations/0006_sites_more.ts';
import * as m0007 from './migrations/0007_comments.ts';
import * as m0008 from './migrations/0008_search.ts';
import * as m0009 from './migrations/0009_pdf_exports.ts';
import * as m0010 from './migrations/0010_search_by_space.ts';
import * as m0011 from './migrations/0011_jobs.ts';
import * as m0012 from './migrations/0012_file_store.ts';
import * as m0018 from './migrations/0018_conversations.ts';
import * as m0016 from './migrations/0016_sso.ts';
import * as m0014 from './migrations/0014_git_sync.ts';
import * as m0017 from './migrations/0017_translations.ts';
import * as m0013 from './migrations/0013_openapi_specs.ts';
import * as m0019 from './migrations/0019_drop_directory_version.ts';
import * as m0020 from './migrations/0020_search_vectors_inline.ts';
import * as m0015 from './migrations/0015_search_pages_postgres.ts';
import * as m0021 from './migrations/0021_section_vectors.ts';
import * as m0023 from './migrations/0023_tenant_identity.ts';
import * as m0024 from './migrations/0024_site_hostname_proof.ts';
import * as m0025 from './migrations/0025_git_urls_without_secrets.ts';
import * as m0028 from './migrations/0028_git_summary_source.ts';
import * as m0029 from './migrations/0029_collab_updates.ts';
import * as m0030 from './migrations/0030_collab_presence.ts';
import * as m0031 from './migrations/0031_comment_documents.ts';

// Listed by hand (not read from disk) so they work the same under tsx, bundlers and tests.
const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_directory_version': m0002,
  '0003_spaces_and_content': m0003,
  '0004_sites': m0004,
  '0005_change_requests': m0005,
  '0006_sites_more': m0006,
  '0007_comments': m0007,
  '0008_search': m0008,
  '0009_pdf_exports': m0009,
  '0010_search_by_space': m0010,
  '0011_jobs': m0011,
  '0012_file_store': m0012,
  '0018_conversations': m0018,
  '0016_sso': m0016,
  '0014_git_sync': m0014,
  '0017_translations': m0017,
  '0013_openapi_specs': m0013,
  '0019_drop_directory_version': m0019,
  '0020_search_vectors_inline': m0020,
  '0015_search_pages_postgres': m0015,
  '0021_section_vectors': m0021,
  '0023_tenant_identity': m0023,
  '0024_site_hostname_proof': m0024,
  '0025_git_urls_without_secrets': m0025,
  '0028_git_summary_source': m0028,
  '0029_collab_updates': m0029,
  '0030_collab_presence': m0030,
  '0031_comment_documents': m0031,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Brings the schema up to date; safe to run from several processes at once (Kysely locks).
 * A start with nothing pending only reads the list of applied migrations: the migrator
 * (lock table, lock, re-read) runs only when something is missing.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const applied = (await allApplied(db)) ? [] : await migrate(db);
  // The change feed's triggers watch the tables as they now are (cached reads wait for them).
  await installChangeTriggers(db);
  return applied;
}

/** Whether every listed migration is recorded as applied (false when the table is missing). */
async function allApplied(db: Db): Promise<boolean> {
  try {
    const schema = await migrationSchema(db);
    const rows = await (schema ? db.withSchema(schema) : db)
      .selectFrom('kysely_migration' as never)
      .select(sql<string>`name`.as('name'))
      .execute();
    const applied = new Set(rows.map((row) => row.name));
    return Object.keys(migrations).every((name) => applied.has(name));
  } catch {
    return false;
  }
}

/** Brings the schema to one migration (tests of an upgrade start from an older schema). */
export async function migrateTo(db: Db, name: string): Promise<string[]> {
  if (!(name in migrations)) throw new Error(`no migration ${name}`);
  return migrate(db, name);
}

/** On PostgreSQL the schema of our migration tables: the current one. */
async function migrationSchema(db: Db): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}

async function migrate(db: Db, target?: string): Promise<string[]> {
  // On PostgreSQL the migrator must look for its tables in our schema only: by default it
  // counts a kysely_migration table of any schema, so a database holding several Quire
  // schemas (tests, or instances side by side) would skip creating its own.
  const migrationTableSchema = await migrationSchema(db);
  // Migration numbers are handed out per issue and land in any order (0013 after 0016 and
  // 0018): a database that already ran later numbers must still run an earlier new one.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  let outcome = target ? await migrator.migrateTo(target) : await migrator.migrateToLatest();
  // Kysely looks for its tables by listing the tables of every schema; another schema dropped
  // meanwhile (tests, instances side by side) fails that listing with "schema … does not
  // exist" (3F000). Nothing was applied then: look again.
  for (let attempt = 1; attempt < 5 && droppedMeanwhile(outcome.error, migrationTableSchema); attempt++) {
    outcome = target ? await migrator.migrateTo(target) : await migrator.migrateToLatest();
  }
  const { error, results } = outcome;
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The error of a listing that raced with another schema's drop (not our own schema missing). */
function droppedMeanwhile(error: unknown, ours: string | undefined): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  return e?.code === '3F000' && ours !== undefined && !String(e.message).includes(`"${ours}"`);
}
