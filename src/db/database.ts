import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
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

/** Opens the database the configuration names: PostgreSQL when a URL is given, else SQLite. */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const file = options.sqliteFile ?? 'quire.sqlite';
  if (file !== ':memory:') fs.mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SQLite(file === ':memory:' ? file : path.join(options.dataDir, file));
  // WAL lets readers run beside the writer; FULL sync makes every acknowledged commit durable.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // The CLI may write while the server runs: wait for the lock instead of failing.
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
