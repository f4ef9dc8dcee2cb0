import type { Kysely } from 'kysely';

/*
 * Frozen: comments on spaces and on change requests, their replies, and emoji reactions
 * on both. Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // A comment belongs to a space, and to one of its change requests when made there
  // (change_request_id null: a comment on the space itself).
  await db.schema
    .createTable('comments')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('change_request_id', 'varchar(64)', (c) => c.references('change_requests.id').onDelete('cascade'))
    // The revision the target was found in when the comment was made.
    .addColumn('revision_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('page_id', 'varchar(64)')
    .addColumn('node_id', 'varchar(64)')
    .addColumn('table_record', 'varchar(64)')
    .addColumn('table_definition', 'varchar(64)')
    // Markdown as the user wrote it.
    .addColumn('body', 'text', (c) => c.notNull())
    // JSON array of the ids of the members the body mentions.
    .addColumn('mentions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('posted_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('posted_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('edited_at', 'varchar(32)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('open'))
    .addColumn('resolved_at', 'varchar(32)')
    .addColumn('resolved_by', 'varchar(64)')
    .execute();
  await db.schema.createIndex('comments_list').on('comments').columns(['space_id', 'change_request_id', 'posted_at', 'id']).execute();
  await db.schema.createIndex('comments_status').on('comments').columns(['space_id', 'change_request_id', 'status']).execute();
  await db.schema.createIndex('comments_change_request').on('comments').columns(['change_request_id', 'status']).execute();
  await db.schema.createIndex('comments_author').on('comments').columns(['space_id', 'posted_by']).execute();

  await db.schema
    .createTable('comment_replies')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('comment_id', 'varchar(64)', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('mentions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('posted_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('posted_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('edited_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('comment_replies_comment').on('comment_replies').columns(['comment_id', 'posted_at', 'id']).execute();
  await db.schema.createIndex('comment_replies_author').on('comment_replies').columns(['space_id', 'posted_by']).execute();

  // One row per user, emoji and comment or reply (reply_id '' for the comment itself).
  await db.schema
    .createTable('comment_reactions')
    .addColumn('comment_id', 'varchar(64)', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('reply_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('emoji', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('reacted_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_reactions_pk', ['comment_id', 'reply_id', 'emoji', 'user_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['comment_reactions', 'comment_replies', 'comments']) {
    await db.schema.dropTable(table).execute();
  }
}
