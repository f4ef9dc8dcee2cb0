import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Db } from './database.ts';

/*
 * What a write to each table changes, as cache scopes (docs/architecture.md, "Caches").
 * The one place that says it: the triggers of both databases are generated from this list,
 * and cached reads declare the same scopes (`Depend`, read-cache.ts) before they read.
 *
 * A scope names one object a cached read can depend on:
 *   org:<id>             the organization's settings, members and their roles, teams,
 *                        collections and permission grants (who may see what)
 *   directory:<org>      what member listings show: memberships (last seen included), team
 *                        memberships, and the spaces granted to members directly
 *   users                any user's profile (names and photos shown beside content)
 *   token:<hash prefix>  API tokens whose hash starts so (a token is looked up by hash)
 *   space:<id>           one space's row (its current revision, settings) and git sync
 *   spaces:<org>         which spaces an organization has (lists)
 *   comments:<space>     comments, replies and reactions of one space
 *   change-requests:<space>
 *   sites:<org>          the organization's sites, sections, site spaces and share links
 *   sites                any site of any organization (a published visit finds its site
 *                        by host or path before it knows the organization)
 *   openapi:<org>        the organization's OpenAPI specs and their versions
 *   conversations:<org>  ingested conversations, their issues and clusters
 *
 * Each entry is a list of SQL expressions over the written row, `r` standing for NEW or OLD
 * (written for both dialects: `||` with NULL is NULL, and a NULL scope is ignored).
 * `ignore` lists columns whose updates alone change nothing the scopes cover (a ping's
 * last_seen_at); a table may have several entries, each its own trigger.
 */
interface TableScopes {
  scopes: string[];
  /** Updates of only these columns change nothing the scopes cover. */
  ignore?: string[];
  /** Only updates of these columns change what the scopes cover. */
  only?: string[];
}

/** A token's scope: a prefix of its hash (collisions only drop a cached token early). */
const TOKEN_SCOPE_CHARS = 16;
export const tokenScope = (tokenHash: string) => `token:${tokenHash.slice(0, TOKEN_SCOPE_CHARS)}`;

const siteOrg = "(select organization_id from sites where id = r.site_id)";

export const CHANGE_SCOPES: Record<string, TableScopes | TableScopes[]> = {
  organizations: { scopes: ["'org:' || r.id"] },
  users: { scopes: ["'users'"] },
  api_tokens: { scopes: [`'token:' || substr(r.token_hash, 1, ${TOKEN_SCOPE_CHARS})`] },
  members: [{ scopes: ["'org:' || r.organization_id"], ignore: ['last_seen_at'] }, { scopes: ["'directory:' || r.organization_id"] }],
  teams: { scopes: ["'org:' || r.organization_id"] },
  team_members: { scopes: ["'org:' || r.organization_id", "'directory:' || r.organization_id"] },
  collections: { scopes: ["'org:' || r.organization_id"] },
  content_permissions: { scopes: ["'org:' || r.organization_id", "'directory:' || r.organization_id"] },
  spaces: [
    { scopes: ["'space:' || r.id", "'spaces:' || r.organization_id"] },
    { scopes: ["'directory:' || r.organization_id"], only: ['deleted_at', 'organization_id'] },
  ],
  git_syncs: { scopes: ["'space:' || r.space_id"] },
  comments: { scopes: ["'comments:' || r.space_id"] },
  comment_replies: { scopes: ["'comments:' || r.space_id"] },
  comment_reactions: { scopes: ["'comments:' || (select space_id from comments where id = r.comment_id)"] },
  change_requests: { scopes: ["'change-requests:' || r.space_id"] },
  sites: { scopes: ["'sites:' || r.organization_id", "'sites'"] },
  site_sections: { scopes: [`'sites:' || ${siteOrg}`, "'sites'"] },
  site_section_groups: { scopes: [`'sites:' || ${siteOrg}`, "'sites'"] },
  site_spaces: { scopes: [`'sites:' || ${siteOrg}`, "'sites'"] },
  site_share_links: { scopes: [`'sites:' || ${siteOrg}`, "'sites'"] },
  openapi_specs: { scopes: ["'openapi:' || r.organization_id"] },
  openapi_spec_versions: { scopes: ["'openapi:' || (select organization_id from openapi_specs where id = r.spec_id)"] },
  conversations: { scopes: ["'conversations:' || r.organization_id"] },
  conversation_issues: { scopes: ["'conversations:' || r.organization_id"] },
  conversation_clusters: { scopes: ["'conversations:' || r.organization_id"] },
};

/** Changes to the list above change this, so a database's triggers are replaced when it moves. */
export const CHANGE_SCOPES_FINGERPRINT = createHash('sha256').update(JSON.stringify(CHANGE_SCOPES)).digest('hex').slice(0, 12);

/** Every trigger to install: a table, a name for it, what it notifies and what it ignores. */
function triggers() {
  return Object.entries(CHANGE_SCOPES).flatMap(([table, entries]) =>
    (Array.isArray(entries) ? entries : [entries]).map((entry, i) => ({
      table,
      name: i === 0 ? table : `${table}_${i}`,
      scopes: entry.scopes,
      ignore: entry.ignore ?? [],
      only: entry.only,
    })),
  );
}

const rowAs = (expression: string, row: 'new' | 'old') => expression.replace(/\br\./g, `${row}.`);

/**
 * SQLite: TEMP triggers on this connection call `quire_changed(scope, …)`, a function of
 * this process (registered by openDatabase). Temporary, so the file itself holds no trigger
 * that other programs (the sqlite3 shell, a backup tool) would fail on; commits of other
 * processes are seen through data_version instead (change-feed.ts).
 */
export function installSqliteChangeTriggers(sqlite: SQLite.Database): void {
  const columns = (table: string) => (sqlite.prepare(`select name from pragma_table_info(?)`).pluck().all(table) as string[]);
  for (const { table, name, scopes, ignore, only } of triggers()) {
    const all = columns(table);
    if (all.length === 0) continue;
    const call = (row: 'new' | 'old') => `select quire_changed(${scopes.map((s) => rowAs(s, row)).join(', ')});`;
    const watched = (only ?? all.filter((c) => !ignore.includes(c))).map((c) => `"${c}"`).join(', ');
    sqlite.exec(`
      drop trigger if exists temp."quire_changes_${name}_insert";
      drop trigger if exists temp."quire_changes_${name}_update";
      drop trigger if exists temp."quire_changes_${name}_delete";
      create temp trigger "quire_changes_${name}_insert" after insert on main."${table}" begin ${call('new')} end;
      create temp trigger "quire_changes_${name}_update" after update of ${watched} on main."${table}" begin ${call('old')} ${call('new')} end;
      create temp trigger "quire_changes_${name}_delete" after delete on main."${table}" begin ${call('old')} end;
    `);
  }
}

/**
 * PostgreSQL: triggers that `pg_notify` the changed scopes on the schema's channel
 * (`quire:<schema>`); notifications go out on commit only, and to every process listening.
 * Installed once per fingerprint of CHANGE_SCOPES (a function named after it marks it done),
 * under an advisory lock so that processes starting together do it once.
 */
export async function installPostgresChangeTriggers(db: Db): Promise<void> {
  const marker = `quire_change_scopes_${CHANGE_SCOPES_FINGERPRINT}`;
  const installed = async (executor: Db) =>
    (await sql<{ n: number }>`select count(*)::int as n from pg_proc p join pg_namespace s on s.oid = p.pronamespace
      where s.nspname = current_schema() and p.proname = ${marker}`.execute(executor)).rows[0].n > 0;
  if (await installed(db)) return;
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(current_schema() || ':quire-change-triggers'))`.execute(trx);
    if (await installed(trx)) return;
    // Whatever an earlier list installed goes first (a table may have left the list).
    const old = await sql<{ trigger: string; table: string }>`select t.tgname as trigger, c.relname as table from pg_trigger t
      join pg_class c on c.oid = t.tgrelid join pg_namespace s on s.oid = c.relnamespace
      where s.nspname = current_schema() and t.tgname like 'quire\\_changes%'`.execute(trx);
    for (const row of old.rows) await sql.raw(`drop trigger "${row.trigger}" on "${row.table}"`).execute(trx);
    for (const { table, name, scopes, ignore, only } of triggers()) {
      const exists = await sql<{ t: string | null }>`select to_regclass(${`"${table}"`})::text as t`.execute(trx);
      if (!exists.rows[0].t) continue;
      const notify = (row: 'new' | 'old') =>
        `perform pg_notify('quire:' || current_schema(), concat_ws(' ', ${scopes.map((s) => rowAs(s, row)).join(', ')}));`;
      const fn = `quire_changes_${name}`;
      await sql.raw(`create or replace function "${fn}"() returns trigger language plpgsql as $$
        begin
          if tg_op <> 'INSERT' then ${notify('old')} end if;
          if tg_op <> 'DELETE' then ${notify('new')} end if;
          return null;
        end $$`).execute(trx);
      const ignored = `array[${ignore.map((c) => `'${c}'`).join(', ')}]::text[]`;
      const changed = only
        ? `when ((${only.map((c) => `old."${c}"`).join(', ')}, null) is distinct from (${only.map((c) => `new."${c}"`).join(', ')}, null))`
        : ignore.length > 0
          ? `when (to_jsonb(old) - ${ignored} is distinct from to_jsonb(new) - ${ignored})`
          : '';
      await sql.raw(`create trigger "${fn}" after insert or delete on "${table}" for each row execute function "${fn}"()`).execute(trx);
      await sql.raw(`create trigger "${fn}_update" after update on "${table}" for each row ${changed} execute function "${fn}"()`).execute(trx);
    }
    const stale = await sql<{ proname: string }>`select p.proname from pg_proc p join pg_namespace s on s.oid = p.pronamespace
      where s.nspname = current_schema() and p.proname like 'quire_change_scopes_%'`.execute(trx);
    for (const { proname } of stale.rows) await sql.raw(`drop function "${proname}"()`).execute(trx);
    await sql.raw(`create function "${marker}"() returns void language sql as $$ select $$`).execute(trx);
  });
}

