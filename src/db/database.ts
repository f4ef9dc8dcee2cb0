import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DialectAdapter,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import type { Database } from './types.ts';

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

// COUNT(*) and BIGINT arrive as strings from pg; numbers in this app stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

const MAX_CACHED_STATEMENTS = 500;

interface SqliteHandle {
  sqlite: SQLite.Database;
  prepare: (sql: string) => SQLite.Statement;
  /** Statements that may write, counted as they are prepared (Kysely prepares per run). */
  writes: number;
  dataVersion: SQLite.Statement;
  /** The last data_version read, and when. */
  seenVersion: number;
  seenAt: number;
}

/**
 * How long a read of SQLite's data_version is trusted. Reading it costs as much as a small
 * query, so it is read at most this often: commits by another process (the CLI, a second
 * server on the same file) are seen within this time; this process's own writes at once.
 */
const DATA_VERSION_RECHECK_MS = 100;

/** Raw SQLite handles behind their Kysely instance, for the synchronous read path. */
const sqliteHandles = new WeakMap<object, SqliteHandle>();
const pgPools = new WeakMap<object, pg.Pool>();

/** The connection pool behind a PostgreSQL database (for GET /metrics); undefined on SQLite. */
export function poolStats(db: Db): { total: number; idle: number; waiting: number; max: number } | undefined {
  const pool = pgPools.get(db);
  if (!pool) return undefined;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 };
}

/**
 * A stamp that changes whenever the database's content may have changed: at once for a
 * write through this connection, within DATA_VERSION_RECHECK_MS for a commit by another
 * process (SQLite's `data_version`). A result computed after reading the stamp can be
 * reused while the stamp stays the same. Undefined inside a transaction and on PostgreSQL,
 * which has no such cheap stamp.
 */
export function contentStamp(db: Db): string | undefined {
  const handle = sqliteHandles.get(db);
  if (!handle || handle.sqlite.inTransaction) return undefined;
  const now = Date.now();
  if (now - handle.seenAt >= DATA_VERSION_RECHECK_MS) {
    handle.seenVersion = handle.dataVersion.get() as number;
    handle.seenAt = now;
  }
  return `${handle.writes}.${handle.seenVersion}`;
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
    prepare: (sql: string) => {
      const statement = handle.prepare(sql);
      if (!statement.reader) handle.writes++;
      return statement as unknown as ReturnType<SqliteDatabase['prepare']>;
    },
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

/** Opens the database the configuration names: PostgreSQL when a URL is given, else SQLite. */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    pgPools.set(db, pool);
    return { db, dialect: 'postgres', close: () => db.destroy() };
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
  // WAL lets readers run beside the writer; FULL sync makes every acknowledged commit durable.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // The CLI may write while the server runs: wait for the lock instead of failing.
  sqlite.pragma('busy_timeout = 5000');
  const handle: SqliteHandle = {
    sqlite,
    prepare: statementCache(sqlite),
    writes: 0,
    dataVersion: sqlite.prepare('pragma data_version').pluck(),
    seenVersion: 0,
    seenAt: 0,
  };
  const db = new Kysely<Database>({ dialect: new QuireSqliteDialect({ database: withStatementCache(handle) }) });
  sqliteHandles.set(db, handle);
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
