import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Frozen: organizations.directory_version counts changes to what member listings show
 * (memberships, team memberships, the users of members). Triggers keep it, so every
 * write path (API, CLI, future modules) moves it without having to remember to.
 * Listings computed at one version can be reused until it moves.
 */

const BUMP_TABLES = ['members', 'team_members'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('directory_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      create function quire_bump_directory_version() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          update organizations set directory_version = directory_version + 1 where id = old.organization_id;
        else
          update organizations set directory_version = directory_version + 1 where id = new.organization_id;
          if tg_op = 'UPDATE' and new.organization_id <> old.organization_id then
            update organizations set directory_version = directory_version + 1 where id = old.organization_id;
          end if;
        end if;
        return null;
      end $$`.execute(db);
    await sql`
      create function quire_bump_directory_version_for_user() returns trigger language plpgsql as $$
      begin
        update organizations set directory_version = directory_version + 1
          where id in (select organization_id from members where user_id = new.id);
        return null;
      end $$`.execute(db);
    for (const table of BUMP_TABLES) {
      await sql`create trigger ${sql.raw(`${table}_directory_version`)} after insert or update or delete on ${sql.table(table)}
        for each row execute function quire_bump_directory_version()`.execute(db);
    }
    await sql`create trigger users_directory_version after update of display_name, email, photo_url on users
      for each row execute function quire_bump_directory_version_for_user()`.execute(db);
    return;
  }

  for (const table of BUMP_TABLES) {
    await sql`create trigger ${sql.raw(`${table}_directory_version_insert`)} after insert on ${sql.table(table)} begin
      update organizations set directory_version = directory_version + 1 where id = new.organization_id; end`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_directory_version_update`)} after update on ${sql.table(table)} begin
      update organizations set directory_version = directory_version + 1 where id in (new.organization_id, old.organization_id); end`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_directory_version_delete`)} after delete on ${sql.table(table)} begin
      update organizations set directory_version = directory_version + 1 where id = old.organization_id; end`.execute(db);
  }
  await sql`create trigger users_directory_version after update of display_name, email, photo_url on users begin
    update organizations set directory_version = directory_version + 1
      where id in (select organization_id from members where user_id = new.id); end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const table of BUMP_TABLES) await sql`drop trigger ${sql.raw(`${table}_directory_version`)} on ${sql.table(table)}`.execute(db);
    await sql`drop trigger users_directory_version on users`.execute(db);
    await sql`drop function quire_bump_directory_version()`.execute(db);
    await sql`drop function quire_bump_directory_version_for_user()`.execute(db);
  } else {
    for (const table of BUMP_TABLES) {
      for (const op of ['insert', 'update', 'delete']) await sql`drop trigger ${sql.raw(`${table}_directory_version_${op}`)}`.execute(db);
    }
    await sql`drop trigger users_directory_version`.execute(db);
  }
  await db.schema.alterTable('organizations').dropColumn('directory_version').execute();
}
