import { PostgresAdapter, type Kysely } from 'kysely';

/*
 * Frozen: collab_updates, the Yjs updates of documents being edited together (issue 32,
 * item 4), one row per update a member sent, keyed by change request and page. A document's
 * rows are now and then replaced by one merged row (compaction). `process_id` is the server
 * process that wrote the row, so each process applies only the others' rows when it polls.
 * `data` is the update in base64 (one text column on both databases). Never import
 * application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('collab_updates')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('change_request_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('page_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('process_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('collab_updates_doc').on('collab_updates').columns(['change_request_id', 'page_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('collab_updates').execute();
}
