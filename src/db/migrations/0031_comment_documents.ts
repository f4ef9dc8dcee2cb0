import type { Kysely } from 'kysely';

/*
 * Frozen: a comment's and a reply's body as a document (GitBook's JSON), read from its
 * markdown once, when it is written, off the request thread under the reading budget. Reading
 * it again on every list of comments cost up to seconds a body on the request thread.
 * Rows written before this migration have none (null) and are read from their markdown.
 * Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('comments').addColumn('document', 'text').execute();
  await db.schema.alterTable('comment_replies').addColumn('document', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('comment_replies').dropColumn('document').execute();
  await db.schema.alterTable('comments').dropColumn('document').execute();
}
