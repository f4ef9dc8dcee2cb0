import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Frozen: collections, spaces, content permission grants, and the revision store
 * (revisions, content-addressed objects, the blobs each space references). Never import
 * application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('collections')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'varchar(255)')
    // Parent collection; deleting a collection is done by the service (children go with it).
    .addColumn('parent_id', 'varchar(64)')
    .addColumn('position', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('default_level', 'varchar(16)')
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('collections_org').on('collections').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('collections_parent').on('collections').columns(['parent_id', 'position']).execute();

  await db.schema
    .createTable('spaces')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('emoji', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('visibility', 'varchar(16)', (c) => c.notNull().defaultTo('private'))
    .addColumn('edit_mode', 'varchar(16)', (c) => c.notNull().defaultTo('live'))
    .addColumn('default_level', 'varchar(16)')
    .addColumn('language', 'varchar(16)')
    .addColumn('merge_rules', 'text', (c) => c.notNull().defaultTo('{"type":"inherit"}'))
    .addColumn('parent_id', 'varchar(64)')
    .addColumn('position', 'double precision', (c) => c.notNull().defaultTo(0))
    // The current revision; null only inside the transaction that creates the space.
    .addColumn('revision_id', 'varchar(64)')
    .addColumn('share_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('deleted_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('spaces_org').on('spaces').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('spaces_parent').on('spaces').columns(['parent_id', 'position']).execute();
  await db.schema.createIndex('spaces_deleted').on('spaces').column('deleted_at').execute();

  // A role given to a user or a team on a space or a collection.
  await db.schema
    .createTable('content_permissions')
    .addColumn('target_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('target_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('principal_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('principal_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('content_permissions_pk', ['target_id', 'principal_type', 'principal_id'])
    .execute();
  await db.schema
    .createIndex('content_permissions_principal')
    .on('content_permissions')
    .columns(['principal_id', 'target_type'])
    .execute();

  // Revisions are insert-only; their repository has no update.
  await db.schema
    .createTable('revisions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('parents', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo('edits'))
    .addColumn('tree_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('files_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('reusables_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('variables', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('git', 'text')
    // Merge revisions: the change request they merged.
    .addColumn('merged_from', 'varchar(64)')
    .addColumn('created_by', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('revisions_space').on('revisions').columns(['space_id', 'created_at']).execute();

  // Content-addressed objects of one space: page documents, tree nodes, file and
  // reusable-content lists. Scoped by space so a purge removes exactly what it held.
  await db.schema
    .createTable('content_objects')
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('content_objects_pk', ['space_id', 'hash'])
    .execute();

  // Which blob (file bytes, stored by hash under DATA_DIR) each space references.
  await db.schema
    .createTable('space_blobs')
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('space_blobs_pk', ['space_id', 'hash'])
    .execute();
  await db.schema.createIndex('space_blobs_hash').on('space_blobs').column('hash').execute();

  // Member listings show how many spaces each member and team is given: grants and space
  // deletions move organizations.directory_version too (see migration 0002).
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create trigger content_permissions_directory_version after insert or update or delete on content_permissions
      for each row execute function quire_bump_directory_version()`.execute(db);
    await sql`create trigger spaces_directory_version after update of deleted_at, organization_id or delete on spaces
      for each row execute function quire_bump_directory_version()`.execute(db);
    return;
  }
  await sql`create trigger content_permissions_directory_version_insert after insert on content_permissions begin
    update organizations set directory_version = directory_version + 1 where id = new.organization_id; end`.execute(db);
  await sql`create trigger content_permissions_directory_version_update after update on content_permissions begin
    update organizations set directory_version = directory_version + 1 where id in (new.organization_id, old.organization_id); end`.execute(db);
  await sql`create trigger content_permissions_directory_version_delete after delete on content_permissions begin
    update organizations set directory_version = directory_version + 1 where id = old.organization_id; end`.execute(db);
  await sql`create trigger spaces_directory_version_update after update of deleted_at, organization_id on spaces begin
    update organizations set directory_version = directory_version + 1 where id in (new.organization_id, old.organization_id); end`.execute(db);
  await sql`create trigger spaces_directory_version_delete after delete on spaces begin
    update organizations set directory_version = directory_version + 1 where id = old.organization_id; end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['space_blobs', 'content_objects', 'revisions', 'content_permissions', 'spaces', 'collections']) {
    await db.schema.dropTable(table).execute();
  }
}
