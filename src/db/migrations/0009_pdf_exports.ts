import type { Kysely } from 'kysely';

/*
 * Frozen: generated PDF exports (GET {S}/pdf, GET {CR}/pdf). The file lives under
 * DATA_DIR/exports/<id>.pdf; the row says what it was made from (the revision and the
 * page selection, so a second request reuses it) and until when its URL works.
 * No foreign key to spaces: a purged space's exports just expire and are swept.
 * Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pdf_exports')
    // The random 256-bit id in the download URL (base64url).
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('revision_id', 'varchar(64)', (c) => c.notNull())
    // '' (every page), 'page:<id>' (a page and its subpages) or 'only:<id>' (one page).
    .addColumn('selection', 'varchar(100)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(300)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pdf_exports_source').on('pdf_exports').columns(['space_id', 'revision_id', 'selection']).execute();
  await db.schema.createIndex('pdf_exports_expiry').on('pdf_exports').columns(['expires_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('pdf_exports').execute();
}
