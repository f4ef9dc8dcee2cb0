import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { migrateTo } from '../src/db/migrate.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { newId } from '../src/lib/ids.ts';
import { createOrganizationWithAdmin } from '../src/modules/organizations/organizations.service.ts';
import { usersRepository } from '../src/modules/users/users.repository.ts';
import { buildUserRow } from '../src/modules/users/users.service.ts';
import { issueToken } from '../src/modules/users/users.tokens.ts';
import { onPostgres } from './app.ts';

/*
 * Upgrade tests start from an older schema: a database of their own (a SQLite folder, or a
 * PostgreSQL schema) opened before each file's tests and removed after, and an app on it
 * with an admin, an organization and one space made through the API.
 */

export interface UpgradeDatabase {
  dataDir: string;
  databaseUrl: string | undefined;
  /** Opened in beforeAll. */
  handle: DatabaseHandle;
}

/** A database of this test file's own, opened in beforeAll and dropped in afterAll. */
export function upgradeDatabase(prefix: string): UpgradeDatabase {
  const state = {
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`)),
    databaseUrl: process.env.DATABASE_URL,
  } as UpgradeDatabase;
  const pgSchema = state.databaseUrl ? `test_${newId(12).toLowerCase()}` : undefined;
  beforeAll(async () => {
    if (state.databaseUrl) await onPostgres(state.databaseUrl, `create schema ${pgSchema}`);
    state.handle = openDatabase({ databaseUrl: state.databaseUrl, dataDir: state.dataDir, pgSchema });
  });
  afterAll(async () => {
    await state.handle.close();
    if (state.databaseUrl) await onPostgres(state.databaseUrl, `drop schema ${pgSchema} cascade`);
    fs.rmSync(state.dataDir, { recursive: true, force: true });
  });
  return state;
}

/**
 * Migrates to `migration`, then builds an app with an admin and a space titled `spaceTitle`
 * (created through the API). The caller closes the app.
 */
export async function appOnOlderSchema(database: UpgradeDatabase, migration: string, spaceTitle: string) {
  const { db, dialect } = database.handle;
  await migrateTo(db, migration);
  const clock = new ManualClock();
  const config = { ...loadConfig({ DATA_DIR: database.dataDir, PUBLIC_URL: 'http://quire.test' }), databaseUrl: database.databaseUrl, rateLimitMax: 0 };
  const app = await buildApp({ config, db, dialect, clock, logger: false });
  const admin = buildUserRow(clock, { email: 'admin@upgrade.test', displayName: 'Admin', emailVerified: true });
  await usersRepository.insert(db, admin);
  const organization = await createOrganizationWithAdmin(db, clock, { title: 'Upgrade' }, admin.id);
  const { token } = await issueToken(db, clock, admin.id, 'test');
  const headers = { authorization: `Bearer ${token}` };
  const created = await app.inject({ method: 'POST', url: `/v1/orgs/${organization.id}/spaces`, headers, payload: { title: spaceTitle } });
  expect(created.statusCode, created.body).toBe(201);
  return { app, db, clock, admin, organization, headers, spaceId: JSON.parse(created.body).id as string };
}
