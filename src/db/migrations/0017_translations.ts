import type { Kysely } from 'kysely';

/*
 * Frozen: translations of a space into another language, the page mapping each keeps
 * between its source and result spaces, and the organization's translation glossary
 * (docs/decisions/translations.md). Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('translations')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    // No foreign key: the source may be deleted (runs then fail, saying so) and the result
    // space is an ordinary space its members may delete (the next run makes a new one).
    .addColumn('source_space_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('source_language', 'varchar(16)', (c) => c.notNull())
    .addColumn('language', 'varchar(16)', (c) => c.notNull())
    .addColumn('instructions', 'text', (c) => c.notNull()) // JSON rich-text document
    .addColumn('status', 'varchar(16)', (c) => c.notNull()) // pending | running | completed
    .addColumn('result_space_id', 'varchar(64)')
    .addColumn('result_revision_id', 'varchar(64)')
    // The outcome of the latest finished run: completed | failed (with its reason); null before any.
    .addColumn('last_run_state', 'varchar(16)')
    .addColumn('last_run_error', 'text')
    .addColumn('last_run_at', 'varchar(32)')
    .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_words', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('latest_run_duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('latest_pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('latest_words', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('translations_by_org').on('translations').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('translation_pages')
    .addColumn('translation_id', 'varchar(64)', (c) => c.notNull().references('translations.id').onDelete('cascade'))
    .addColumn('source_page_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('page_id', 'varchar(64)', (c) => c.notNull())
    // sha256 of what was translated (title, description, document hash): unchanged means not sent again.
    .addColumn('source_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('translated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('translation_pages_pk', ['translation_id', 'source_page_id'])
    .execute();

  await db.schema
    .createTable('glossary_entries')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('translations', 'text', (c) => c.notNull()) // JSON { language: term }
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('glossary_entries_by_org').on('glossary_entries').columns(['organization_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('glossary_entries').execute();
  await db.schema.dropTable('translation_pages').execute();
  await db.schema.dropTable('translations').execute();
}
