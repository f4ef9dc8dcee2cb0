import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Frozen: organizations.directory_version and the triggers that moved it (0002, 0003) are
 * replaced by the change feed's `directory:<org>` scope (src/db/change-scopes.ts), which
 * member listings now depend on; nothing reads the column any more. Not reversible (there
 * is no down): the counter would restart anyway, and nothing would read it.
 */

const TRIGGERS = {
  members: ['members_directory_version'],
  team_members: ['team_members_directory_version'],
  users: ['users_directory_version'],
  content_permissions: ['content_permissions_directory_version'],
  spaces: ['spaces_directory_version'],
};

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const [table, names] of Object.entries(TRIGGERS)) {
    for (const name of names) {
      if (postgres) {
        await sql`drop trigger if exists ${sql.raw(name)} on ${sql.table(table)}`.execute(db);
      } else {
        for (const suffix of ['', '_insert', '_update', '_delete']) await sql`drop trigger if exists ${sql.raw(name + suffix)}`.execute(db);
      }
    }
  }
  if (postgres) {
    await sql`drop function if exists quire_bump_directory_version()`.execute(db);
    await sql`drop function if exists quire_bump_directory_version_for_user()`.execute(db);
  }
  await db.schema.alterTable('organizations').dropColumn('directory_version').execute();
}
