import type { Kysely } from 'kysely';

/*
 * Frozen: ingested support conversations, the documentation issues found in them and the
 * clusters those issues are grouped into (docs/decisions/conversations.md), plus the
 * cluster a change request is opened against. Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('conversations')
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    // The id the ingesting system gave it; unique per organization (re-ingest updates it).
    .addColumn('id', 'varchar(200)', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('source', 'varchar(200)', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull()) // JSON { url?, attributes?, createdAt? }
    .addColumn('parts', 'text', (c) => c.notNull()) // JSON [{ type, role, body }]
    // sha256 of subject and parts: re-ingesting the same text does not process it again.
    .addColumn('digest', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ingested_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('processed_at', 'varchar(32)')
    .addColumn('processed_digest', 'varchar(64)')
    .addPrimaryKeyConstraint('conversations_pk', ['organization_id', 'id'])
    .execute();
  await db.schema.createIndex('conversations_by_date').on('conversations').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('conversations_by_source').on('conversations').columns(['organization_id', 'source', 'created_at']).execute();

  await db.schema
    .createTable('conversation_clusters')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('label', 'varchar(200)', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('icon', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    // Sum of the members' term vectors (JSON { stem: weight }) and embeddings (JSON number[]).
    .addColumn('centroid_terms', 'text', (c) => c.notNull())
    .addColumn('centroid_embedding', 'text')
    // Most frequent surface word of each stem, to write labels in words, not stems (JSON).
    .addColumn('words', 'text', (c) => c.notNull())
    // Kept by the clustering job: members, distinct conversations, conversations per source (JSON),
    // issues per calendar week (JSON { weekStart: count }).
    .addColumn('issues', 'integer', (c) => c.notNull())
    .addColumn('conversations', 'integer', (c) => c.notNull())
    .addColumn('sources', 'text', (c) => c.notNull())
    .addColumn('weeks', 'text', (c) => c.notNull())
    // Member count when a model last wrote the label (labels are rewritten when it doubles).
    .addColumn('labeled_issues', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('conversation_clusters_by_update').on('conversation_clusters').columns(['organization_id', 'updated_at', 'id']).execute();
  await db.schema.createIndex('conversation_clusters_by_creation').on('conversation_clusters').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('conversation_issues')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('conversation_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ingested_at', 'varchar(32)', (c) => c.notNull())
    // null until the clustering job places it.
    .addColumn('cluster_id', 'varchar(64)')
    .addColumn('terms', 'text', (c) => c.notNull()) // JSON { stem: weight }, unit length
    .addColumn('words', 'text', (c) => c.notNull()) // JSON { stem: word }
    .addColumn('embedding', 'text') // JSON number[] from CONVERSATIONS_EMBEDDINGS_URL
    .addForeignKeyConstraint('conversation_issues_conversation', ['organization_id', 'conversation_id'], 'conversations', ['organization_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('conversation_issues_by_conversation').on('conversation_issues').columns(['organization_id', 'conversation_id', 'position']).execute();
  await db.schema.createIndex('conversation_issues_by_cluster').on('conversation_issues').columns(['organization_id', 'cluster_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('conversation_issues_by_date').on('conversation_issues').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema.alterTable('change_requests').addColumn('conversations_issues_cluster', 'varchar(64)').execute();
  await db.schema.createIndex('change_requests_by_cluster').on('change_requests').columns(['conversations_issues_cluster']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('change_requests_by_cluster').execute();
  await db.schema.alterTable('change_requests').dropColumn('conversations_issues_cluster').execute();
  await db.schema.dropTable('conversation_issues').execute();
  await db.schema.dropTable('conversation_clusters').execute();
  await db.schema.dropTable('conversations').execute();
}
