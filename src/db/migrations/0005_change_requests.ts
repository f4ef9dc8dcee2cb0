import type { Kysely } from 'kysely';

/*
 * Frozen: change requests (a movable head revision per request), their reviews,
 * requested reviewers and contributors, and the per-space counter that numbers them.
 * Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // Numbers run 1, 2, 3 per space and are never reused: the counter only goes up
  // (an upsert that increments, so concurrent creations serialize on this row).
  await db.schema
    .createTable('change_request_counters')
    .addColumn('space_id', 'varchar(64)', (c) => c.primaryKey().references('spaces.id').onDelete('cascade'))
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('change_requests')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('open'))
    .addColumn('subject', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text')
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    // The change request's own head revision, and the main revisions it relates to.
    .addColumn('revision_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('revision_initial', 'varchar(64)', (c) => c.notNull())
    .addColumn('revision_merged_ancestor', 'varchar(64)', (c) => c.notNull())
    .addColumn('revision_merged', 'varchar(64)')
    .addColumn('merged_by', 'varchar(64)')
    .addColumn('merged_at', 'varchar(32)')
    .addUniqueConstraint('change_requests_space_number', ['space_id', 'number'])
    .execute();
  await db.schema.createIndex('change_requests_space').on('change_requests').columns(['space_id', 'status', 'updated_at']).execute();
  await db.schema.createIndex('change_requests_creator').on('change_requests').columns(['created_by']).execute();

  await db.schema
    .createTable('change_request_reviews')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('change_request_id', 'varchar(64)', (c) => c.notNull().references('change_requests.id').onDelete('cascade'))
    .addColumn('reviewer_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('requested_by', 'varchar(64)')
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('revision_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('change_request_reviews_cr').on('change_request_reviews').columns(['change_request_id', 'created_at']).execute();

  await db.schema
    .createTable('change_request_reviewers')
    .addColumn('change_request_id', 'varchar(64)', (c) => c.notNull().references('change_requests.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('requested_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('revision_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('change_request_reviewers_pk', ['change_request_id', 'user_id'])
    .execute();
  await db.schema.createIndex('change_request_reviewers_user').on('change_request_reviewers').column('user_id').execute();

  await db.schema
    .createTable('change_request_contributors')
    .addColumn('change_request_id', 'varchar(64)', (c) => c.notNull().references('change_requests.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('first_contributed_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_contributed_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(1))
    .addPrimaryKeyConstraint('change_request_contributors_pk', ['change_request_id', 'user_id'])
    .execute();
  await db.schema.createIndex('change_request_contributors_user').on('change_request_contributors').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['change_request_contributors', 'change_request_reviewers', 'change_request_reviews', 'change_requests', 'change_request_counters']) {
    await db.schema.dropTable(table).execute();
  }
}
