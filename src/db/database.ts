import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  PostgresDriver,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DialectAdapter,
  type DatabaseConnection,
  type Driver,
  type PostgresDialectConfig,
  type QueryResult,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import type { Database } from './types.ts';
import { postgresDriver } from './postgres-driver.ts';
import { PostgresChangeFeed, SqliteChangeFeed, type ChangeFeed } from './change-feed.ts';
import { nameRepeatedStatements, textOnlyReads } from './server-prepared.ts';
import { installPostgresChangeTriggers, installSqliteChangeTriggers } from './change-scopes.ts';

export type Db = Kysely<Database>;
export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Db;
  dialect: DialectName;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** Folder holding `quire.sqlite` when no `databaseUrl` is given. */
  dataDir: string;
  /** PostgreSQL schema to use instead of `public` (tests give each suite its own). */
  pgSchema?: string;
  /** SQLite file name inside dataDir; ':memory:' for a throwaway database. */
  sqliteFile?: string;
}

const MAX_CACHED_STATEMENTS = 500;

interface SqliteHandle {
  sqlite: SQLite.Database;
  prepare: (sql: string) => SQLite.Statement;
}

/** Raw SQLite handles behind their Kysely instance, for the synchronous read path. */
const sqliteHandles = new WeakMap<object, SqliteHandle>();
const pgPools = new WeakMap<object, pg.Pool>();
const changeFeeds = new WeakMap<object, ChangeFeed>();

/**
 * The change feed of a root database handle (change-feed.ts); undefined for a transaction,
 * whose reads are never cached.
 */
export function changeFeedOf(db: Db): ChangeFeed | undefined {
  return changeFeeds.get(db);
}

/** The connection pool behind a PostgreSQL database (for GET /metrics); undefined on SQLite. */
export function poolStats(db: Db): { total: number; idle: number; waiting: number; max: number } | undefined {
  const pool = pgPools.get(db);
  if (!pool) return undefined;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 };
}

/**
 * Puts the triggers that feed the change feed in place (after migrations: they watch the
 * tables); until then nothing is cached on this handle.
 */
export async function installChangeTriggers(db: Db): Promise<void> {
  const feed = changeFeeds.get(db);
  if (!feed) return;
  const sqlite = sqliteHandles.get(db);
  if (sqlite) installSqliteChangeTriggers(sqlite.sqlite);
  else await installPostgresChangeTriggers(db);
  feed.markInstalled();
}

/**
 * Runs a read straight on SQLite, skipping Kysely's asynchronous executor, when that is
 * safe: `db` is the root instance (not a transaction) and no transaction is open on the
 * connection (Kysely holds its single connection across awaits only for transactions, so
 * a read now cannot see another request's uncommitted writes). Returns undefined when the
 * caller must take the ordinary path.
 */
export function readNowIfIdle<R>(db: Db, sql: string, parameters: readonly unknown[]): R[] | undefined {
  const handle = sqliteHandles.get(db);
  if (!handle || handle.sqlite.inTransaction) return undefined;
  return handle.prepare(sql).all(...parameters) as R[];
}

/**
 * better-sqlite3 behind a prepared-statement cache. Kysely prepares every query anew, and
 * preparing costs as much as running a small indexed query; the SQL text of a query
 * builder is stable, so its statement can be reused (least recently used out first).
 */
function statementCache(sqlite: SQLite.Database): (sql: string) => SQLite.Statement {
  const statements = new Map<string, SQLite.Statement>();
  return (sql: string) => {
    let statement = statements.get(sql);
    if (statement) {
      statements.delete(sql);
    } else {
      statement = sqlite.prepare(sql);
      if (statements.size >= MAX_CACHED_STATEMENTS) statements.delete(statements.keys().next().value as string);
    }
    statements.set(sql, statement);
    return statement;
  };
}

function withStatementCache(handle: SqliteHandle): SqliteDatabase {
  return {
    prepare: (sql: string) => handle.prepare(sql) as unknown as ReturnType<SqliteDatabase['prepare']>,
    close() {
      handle.sqlite.close();
    },
  };
}

/**
 * Transactions take SQLite's write lock when they begin (BEGIN IMMEDIATE). A deferred
 * transaction that reads and then writes fails at once with SQLITE_BUSY when another
 * process (the CLI, a second server) wrote in between; an immediate one waits its turn.
 */
class ImmediateTransactionDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * SQLite's DDL is transactional, but Kysely's adapter says otherwise, so its migrator
 * would run migrations outside a transaction and with no lock: two processes starting on
 * one file would both apply them. Saying so makes each migration run in one (immediate)
 * transaction: another process waits for it, then finds it applied.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class QuireSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateTransactionDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/**
 * Whether a statement only reads, so it needs no barrier. Query-builder selects say so by
 * their kind; raw SQL (`sql\`…\``: search ranking, counts) by its text (textOnlyReads).
 * Anything else counts as a write, which only costs a wait.
 */
export function onlyReads(query: CompiledQuery): boolean {
  if (query.query.kind === 'SelectQueryNode') return true;
  if (query.query.kind !== 'RawNode') return false;
  return textOnlyReads(query.sql);
}

/**
 * Kysely's PostgreSQL driver, plus read-your-writes for the change feed: a connection that
 * wrote waits, when it is released (after its commit, or after its single statement outside
 * a transaction; Kysely awaits the release before the query or transaction returns), until
 * this process's listener has the write's notifications (PostgresChangeFeed.barrier), so a
 * result cached before the write is never served after it returned. Waiting happens after
 * the commit, never inside it: a failure there cannot turn a committed write into an error
 * or a rollback.
 */
class BarrierPostgresDriver extends PostgresDriver {
  readonly #wrote = new WeakSet<DatabaseConnection>();
  readonly #watched = new WeakSet<DatabaseConnection>();

  constructor(
    config: PostgresDialectConfig,
    private readonly feed: PostgresChangeFeed,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    if (!this.#watched.has(connection)) {
      this.#watched.add(connection);
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        if (!onlyReads(query)) this.#wrote.add(connection);
        return execute(query);
      };
    }
    return connection;
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // Rolled back: nothing was notified, nothing to wait for.
    this.#wrote.delete(connection);
    await super.rollbackTransaction(connection);
  }

  override async releaseConnection(connection: Parameters<PostgresDriver['releaseConnection']>[0]): Promise<void> {
    if (this.#wrote.has(connection)) {
      this.#wrote.delete(connection);
      // The marker's own pg_notify goes through executeQuery too: it is not a write to wait for.
      await this.feed
        .barrier((channel, marker) => connection.executeQuery(CompiledQuery.raw('select pg_notify($1, $2)', [channel, marker])).finally(() => this.#wrote.delete(connection)))
        .catch(() => {});
    }
    await super.releaseConnection(connection);
  }
}

class QuirePostgresDialect extends PostgresDialect {
  constructor(
    private readonly config: PostgresDialectConfig,
    private readonly feed: PostgresChangeFeed,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new BarrierPostgresDriver(this.config, this.feed);
  }
}

/** Opens the database the configuration names: PostgreSQL when a URL is given, else SQLite. */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const connection = {
      connectionString: options.databaseUrl,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    };
    const pool = new (postgresDriver().Pool)({ ...connection, max: 10 });
    nameRepeatedStatements(pool);
    const feed = new PostgresChangeFeed(connection);
    const db = new Kysely<Database>({ dialect: new QuirePostgresDialect({ pool }, feed) });
    pgPools.set(db, pool);
    changeFeeds.set(db, feed);
    return {
      db,
      dialect: 'postgres',
      close: async () => {
        await feed.close();
        await db.destroy();
      },
    };
  }
  const file = options.sqliteFile ?? 'quire.sqlite';
  const target = file === ':memory:' ? file : path.join(options.dataDir, file);
  if (target !== ':memory:') {
    fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    // The database holds password hashes, token hashes and server_secrets (signing keys):
    // readable by its owner only. SQLite gives its -wal and -shm files the database's mode.
    fs.closeSync(fs.openSync(target, 'a', 0o600));
    fs.chmodSync(target, 0o600);
    for (const companion of [`${target}-wal`, `${target}-shm`]) if (fs.existsSync(companion)) fs.chmodSync(companion, 0o600);
  }
  const sqlite = new SQLite(target);
  // The CLI may write while the server runs: wait for the lock instead of failing.
  sqlite.pragma('busy_timeout = 5000');
  // WAL lets readers run beside the writer; FULL sync makes every acknowledged commit durable.
  // Switching to WAL can answer SQLITE_BUSY without waiting when another process opens the file
  // at the same moment (processes started together): retried for up to the busy timeout.
  for (let attempt = 0; ; attempt++) {
    try {
      sqlite.pragma('journal_mode = WAL');
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || attempt >= 100) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  const handle: SqliteHandle = { sqlite, prepare: statementCache(sqlite) };
  const feed = new SqliteChangeFeed(sqlite);
  const db = new Kysely<Database>({ dialect: new QuireSqliteDialect({ database: withStatementCache(handle) }) });
  sqliteHandles.set(db, handle);
  changeFeeds.set(db, feed);
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
