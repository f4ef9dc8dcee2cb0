import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationsRepository } from '../src/modules/organizations/organizations.repository.ts';
import { createTestApp, type TestApp } from './app.ts';
import { createOrganization, createTeam, createUser } from './factories.ts';

describe('database layer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("never lets a read see another request's uncommitted write", async () => {
    const org = await createOrganization(t);
    const user = await createUser(t);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedSignal = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = t.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('members')
          .values({ organization_id: org.id, user_id: user.id, role: 'read', disabled: 0, sso: 0, joined_at: '2026-01-01T00:00:00.000Z', last_seen_at: null })
          .execute();
        inserted();
        await held;
        throw new Error('roll back');
      })
      .catch(() => 'rolled back');
    await insertedSignal;
    // A prepared read while the transaction is open: it must not see the uncommitted row.
    const read = organizationsRepository.findActiveMembership(t.db, org.id, user.id);
    const early = await Promise.race([read, new Promise((r) => setTimeout(() => r('pending'), 50))]);
    expect(early === 'pending' || early === undefined).toBe(true);
    release();
    expect(await transaction).toBe('rolled back');
    expect(await read).toBeUndefined();
  });

  it('reuses prepared statements and compiled queries with the right parameters', async () => {
    const a = await createOrganization(t);
    const b = await createOrganization(t);
    expect(await organizationsRepository.findActiveMembership(t.db, a.id, a.admin.id)).toEqual({ role: 'admin' });
    expect(await organizationsRepository.findActiveMembership(t.db, b.id, b.admin.id)).toEqual({ role: 'admin' });
    expect(await organizationsRepository.findActiveMembership(t.db, a.id, b.admin.id)).toBeUndefined();
    // Inside a transaction the same query goes through the transaction's connection.
    await t.db.transaction().execute(async (trx) => {
      expect(await organizationsRepository.findActiveMembership(trx, b.id, b.admin.id)).toEqual({ role: 'admin' });
    });
  });
});

describe('reads reused while the database is unchanged', () => {
  it('see writes of this process at once, and commits of other connections within 100 ms', async () => {
    const t = await createTestApp();
    const org = await createOrganization(t);
    const team = await createTeam(t, org.id, { title: 'First' });
    const read = async () =>
      (await t.request('GET', `/v1/orgs/${org.id}/teams/${team.id}`, { token: org.admin.token })).body.title as string;
    expect(await read()).toBe('First');
    // A write through this process's database handle (not through the API): seen at once.
    await t.db.updateTable('teams').set({ title: 'Second' }).where('id', '=', team.id).execute();
    expect(await read()).toBe('Second');
    if (t.dialect === 'sqlite') {
      // Another connection, as the CLI or a second server on the same file would be.
      const other = new SQLite(path.join(t.dataDir, 'quire.sqlite'));
      other.prepare('update teams set title = ? where id = ?').run('Third', team.id);
      other.close();
      await new Promise((resolve) => setTimeout(resolve, 150));
    } else {
      await t.db.updateTable('teams').set({ title: 'Third' }).where('id', '=', team.id).execute();
    }
    expect(await read()).toBe('Third');
    await t.close();
  });
});
