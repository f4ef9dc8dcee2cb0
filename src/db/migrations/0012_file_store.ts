import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Frozen: the file store (src/files).
 * - file_objects / file_chunks: file bytes kept in the database itself (FILE_STORE=database,
 *   the default on PostgreSQL), so every server process on one database serves every file
 *   with no shared disk. One row per stored file (by area and SHA-256), its bytes in
 *   chunks of about 1 MB, so a large file is written and read a chunk at a time. A file
 *   being written has its chunks under a temporary key until it is complete. Created on
 *   SQLite too (same schema everywhere), where the folder store is used instead.
 * - pdf_exports.file_hash: an export's bytes are a file in the store (area `exports`),
 *   found by their hash; exports made before this migration have none (they expire
 *   within an hour and are answered 404 then).
 * Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('file_objects')
    .addColumn('area', 'varchar(32)', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_objects_pk', ['area', 'hash'])
    .execute();
  await db.schema
    .createTable('file_chunks')
    // `<area>/<hash>` once complete, `tmp/<started at>/<random>` while being written.
    .addColumn('key', 'varchar(160)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', postgres ? sql`bytea` : sql`blob`, (c) => c.notNull())
    .addPrimaryKeyConstraint('file_chunks_pk', ['key', 'seq'])
    .execute();
  await db.schema.alterTable('pdf_exports').addColumn('file_hash', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pdf_exports').dropColumn('file_hash').execute();
  await db.schema.dropTable('file_chunks').execute();
  await db.schema.dropTable('file_objects').execute();
}
