import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyServerOptions, InjectOptions } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import type { JobHandler } from '../src/jobs/queue.ts';
import { drainJobs } from '../src/jobs/worker.ts';
import { appJobs } from '../src/composition.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Db, type DialectName } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { newId } from '../src/lib/ids.ts';
import { gitbookOperation, gitbookSchemaErrors } from './gitbook-schema.ts';

/** Operation ids whose responses were checked against GitBook's schema in this process. */
export const checkedOperations = new Set<string>();

export interface TestResponse {
  status: number;
  headers: Record<string, unknown>;
  body: any;
  text: string;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  query?: Record<string, string | string[] | number | boolean>;
  headers?: Record<string, string>;
  /** Skip GitBook schema validation (for deliberately odd responses). */
  skipSchemaCheck?: boolean;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  dialect: DialectName;
  config: Config;
  clock: ManualClock;
  dataDir: string;
  request(method: InjectOptions['method'], url: string, options?: RequestOptions): Promise<TestResponse>;
  /**
   * Runs every background job due now (and due recurring periods) until none is left
   * and none runs. The app's worker also runs them as they come (woken by each enqueue);
   * this waits for that deterministically.
   */
  runJobsUntilIdle(): Promise<void>;
  close(): Promise<void>;
}

/** The dialect under test: PostgreSQL when DATABASE_URL is set, else SQLite. */
export const testDialect: DialectName = process.env.DATABASE_URL ? 'postgres' : 'sqlite';

/** Runs one statement on the PostgreSQL server (creating and dropping test schemas). */
export async function onPostgres(databaseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A fresh app on a fresh database: a SQLite file in a temp folder, or a new PostgreSQL
 * schema dropped on close. Every 2xx response of an operation GitBook documents is
 * validated against GitBook's response schema; a mismatch fails the test.
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  appOptions: { logger?: FastifyServerOptions['logger']; /** Job kinds beside the app's own. */ jobs?: readonly JobHandler[] } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-test-'));
  const databaseUrl = process.env.DATABASE_URL;
  const pgSchema = databaseUrl ? `test_${newId(12).toLowerCase()}` : undefined;
  if (databaseUrl && pgSchema) await onPostgres(databaseUrl, `create schema ${pgSchema}`);
  const config: Config = {
    ...loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://quire.test' }),
    databaseUrl,
    rateLimitMax: 0,
    // Tests run jobs until idle; a clustering run waiting for company would be left queued.
    conversationsClusterDelayMs: 0,
    ...overrides,
  };
  const handle = openDatabase({ databaseUrl, dataDir, pgSchema });
  await migrateToLatest(handle.db);
  const clock = new ManualClock();
  const app = await buildApp({ config, db: handle.db, dialect: handle.dialect, clock, logger: appOptions.logger ?? false, jobs: [...appJobs, ...(appOptions.jobs ?? [])] });

  return {
    app,
    db: handle.db,
    dialect: handle.dialect,
    config,
    clock,
    dataDir,
    async request(method, url, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      const response = await app.inject({
        method,
        url,
        headers,
        query: options.query as any,
        ...(options.body !== undefined ? { payload: options.body as any } : {}),
      });
      const text = response.body;
      let body: any = undefined;
      if (text && String(response.headers['content-type'] ?? '').includes('json')) body = JSON.parse(text);
      if (!options.skipSchemaCheck && response.statusCode < 300 && body !== undefined) {
        const op = gitbookOperation(String(method), url);
        const errors = gitbookSchemaErrors(String(method), url, response.statusCode, body);
        if (errors) throw new Error(`Response does not match GitBook's schema:\n  ${errors}\n${JSON.stringify(body, null, 2).slice(0, 2000)}`);
        if (op) checkedOperations.add(op.operationId);
      }
      return { status: response.statusCode, headers: response.headers, body, text };
    },
    async runJobsUntilIdle() {
      if (app.jobs) await app.jobs.runUntilIdle();
      else await drainJobs(app.deps, app.jobRegistry, app.log);
    },
    async close() {
      await app.close();
      await handle.close();
      if (databaseUrl && pgSchema) await onPostgres(databaseUrl, `drop schema ${pgSchema} cascade`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The end of a test file's app: the background jobs it queued run out, then it closes, then
 * the servers beside it (a git server, a spec server) close.
 */
export async function closeAfterJobs(t: TestApp | undefined, ...servers: ({ close(): Promise<unknown> } | undefined)[]): Promise<void> {
  await t?.runJobsUntilIdle();
  await t?.close();
  for (const server of servers) await server?.close();
}

/**
 * Another server process on the test app's database, listening on a free loopback port: it
 * learns of the first one's writes only through the database.
 */
export async function secondServer(t: TestApp, config: Config = t.config): Promise<{ app: FastifyInstance; port: number }> {
  const app = await buildApp({ config, db: t.db, dialect: t.dialect, clock: t.clock, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port };
}

/** The test app listening on a free loopback port, and a second server process on its database. */
export async function listenWithSecondProcess(t: TestApp): Promise<{ port: number; second: FastifyInstance; secondPort: number }> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { app: second, port: secondPort } = await secondServer(t);
  return { port: (t.app.server.address() as AddressInfo).port, second, secondPort };
}
