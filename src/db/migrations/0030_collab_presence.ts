import type { Kysely } from 'kysely';

/*
 * Frozen: what live editing (issue 32, item 4) shares between server processes besides the
 * updates. collab_rooms: one row per (document, process) that has the document open,
 * renewed while it is open, so a process knows whether anyone else still holds the
 * document before it deletes its stored updates. collab_awareness: one row per editor
 * client (a browser tab) with its last awareness state (cursor, name, colour), as the
 * y-protocols awareness update of that client alone, base64, and the member it belongs to; renewed by the client's own
 * heartbeat and deleted when it leaves; a row not renewed in time is expired. Both are keyed
 * by change request and page, the document's key. Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('collab_rooms')
    .addColumn('change_request_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('page_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('process_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('seen_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('collab_rooms_pk', ['change_request_id', 'page_id', 'process_id'])
    .execute();
  await db.schema
    .createTable('collab_awareness')
    .addColumn('change_request_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('page_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('client_id', 'bigint', (c) => c.notNull())
    .addColumn('process_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('collab_awareness_pk', ['change_request_id', 'page_id', 'client_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('collab_awareness').execute();
  await db.schema.dropTable('collab_rooms').execute();
}
