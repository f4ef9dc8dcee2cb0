import type { Kysely } from 'kysely';

/*
 * Frozen: an organization's OpenAPI specs and their immutable versions
 * (docs/decisions/openapi-specs.md). Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('openapi_specs')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('slug', 'varchar(100)', (c) => c.notNull())
    // The URL fetched (credentials redacted), or null for a spec uploaded as text.
    .addColumn('source_url', 'varchar(2048)')
    // An uploaded document waiting to be processed (cleared once a version holds it).
    .addColumn('source_text', 'text')
    .addColumn('visibility', 'varchar(16)', (c) => c.notNull())
    .addColumn('processing_state', 'varchar(16)', (c) => c.notNull())
    .addColumn('last_version_id', 'varchar(64)')
    .addColumn('last_processed_at', 'varchar(32)')
    .addColumn('last_error_code', 'varchar(32)')
    .addColumn('last_errors', 'text') // JSON [{ message, code? }], at most 20
    .addColumn('last_error_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('openapi_specs_by_slug').on('openapi_specs').columns(['organization_id', 'slug']).unique().execute();
  await db.schema.createIndex('openapi_specs_with_url').on('openapi_specs').columns(['source_url']).execute();

  await db.schema
    .createTable('openapi_spec_versions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('spec_id', 'varchar(64)', (c) => c.notNull().references('openapi_specs.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    // sha256 of every file's text: a fetch that returns the same content makes no version.
    .addColumn('content_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('source_url', 'varchar(2048)')
    .addColumn('format', 'varchar(8)', (c) => c.notNull()) // json | yaml, of the entrypoint
    .addColumn('raw', 'text', (c) => c.notNull()) // the entrypoint exactly as fetched or uploaded
    .addColumn('filesystem', 'text', (c) => c.notNull()) // JSON { filename: parsed document }
    .execute();
  await db.schema.createIndex('openapi_spec_versions_by_date').on('openapi_spec_versions').columns(['spec_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('openapi_spec_versions').execute();
  await db.schema.dropTable('openapi_specs').execute();
}
