import { Migrator, PostgresAdapter, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.ts';
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
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; safe to run from several processes at once (Kysely locks). */
export async function migrateToLatest(db: Db): Promise<string[]> {
  return migrate(db);
}

/** Brings the schema to one migration (tests of an upgrade start from an older schema). */
export async function migrateTo(db: Db, name: string): Promise<string[]> {
  if (!(name in migrations)) throw new Error(`no migration ${name}`);
  return migrate(db, name);
}

async function migrate(db: Db, target?: string): Promise<string[]> {
  // On PostgreSQL the migrator must look for its tables in our schema only: by default it
  // counts a kysely_migration table of any schema, so a database holding several Quire
  // schemas (tests, or instances side by side) would skip creating its own.
  let migrationTableSchema: string | undefined;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    migrationTableSchema = rows[0]?.schema;
  }
  const migrator = new Migrator({ db, provider, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const { error, results } = target ? await migrator.migrateTo(target) : await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
