import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NAMED, nameRepeatedStatements, REPEATS_BEFORE_NAMING, StatementNames } from '../src/db/server-prepared.ts';
import { createTestApp, onPostgres, testDialect, type TestApp } from './app.ts';
import { createOrganization } from './factories.ts';

describe('named statements (server-prepared repeated reads)', () => {
  it('names a read once it repeats, never a write, and at most MAX_NAMED texts', () => {
    const names = new StatementNames();
    const read = 'select id from organizations where id = $1';
    for (let i = 1; i < REPEATS_BEFORE_NAMING; i++) expect(names.nameOf(read)).toBeUndefined();
    const name = names.nameOf(read);
    expect(name).toMatch(/^quire_\d+$/);
    expect(names.nameOf(read)).toBe(name);
    expect(names.nameOf('  WITH x as (select 1) select * from x')).toBeUndefined();

    const write = 'update organizations set title = $1 where id = $2';
    for (let i = 0; i < REPEATS_BEFORE_NAMING * 2; i++) expect(names.nameOf(write)).toBeUndefined();
    expect(names.nameOf('insert into x select 1')).toBeUndefined();
    // A write behind a `with` or a `select` is no read either (the barrier's rule, textOnlyReads).
    for (const hidden of ['with moved as (delete from x returning *) select * from moved', 'select pg_notify($1, $2)']) {
      for (let i = 0; i < REPEATS_BEFORE_NAMING * 2; i++) expect(names.nameOf(hidden)).toBeUndefined();
    }

    for (let n = 0; names.size < MAX_NAMED; n++) {
      for (let i = 0; i < REPEATS_BEFORE_NAMING; i++) names.nameOf(`select ${n} as n`);
    }
    const late = 'select 2 as late';
    for (let i = 0; i < REPEATS_BEFORE_NAMING * 2; i++) expect(names.nameOf(late)).toBeUndefined();
    // Names already given stay.
    expect(names.nameOf(read)).toBe(name);
    expect(new Set(Array.from({ length: 20 }, (_, n) => names.nameOf(`select ${n} as n`))).size).toBe(20);
  });

  describe.runIf(testDialect === 'postgres')('on PostgreSQL', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => {
      await t.close();
    });

    it('prepares a repeated read on the connection, whose later runs bind new values to it', async () => {
      const first = await createOrganization(t, { title: 'First' });
      const second = await createOrganization(t, { title: 'Second' });
      // One connection (a transaction), so what it prepared can be read back from it.
      const seen = await t.db.transaction().execute(async (trx) => {
        const titles: string[] = [];
        for (let i = 0; i < REPEATS_BEFORE_NAMING + 3; i++) {
          const id = i % 2 === 0 ? first.id : second.id;
          const row = await trx.selectFrom('organizations').select('title').where('id', '=', id).executeTakeFirstOrThrow();
          titles.push(row.title);
        }
        const { rows } = await sql<{ name: string; statement: string; count: number }>`
          select name, statement, generic_plans + custom_plans as count from pg_prepared_statements`.execute(trx);
        return { titles, prepared: rows };
      });
      expect(seen.titles).toEqual(Array.from({ length: REPEATS_BEFORE_NAMING + 3 }, (_, i) => (i % 2 === 0 ? 'First' : 'Second')));
      const organizationRead = seen.prepared.find((p) => p.statement.includes('from "organizations"') && p.statement.includes('"title"'));
      expect(organizationRead?.name).toMatch(/^quire_\d+$/);
      // Named on its REPEATS_BEFORE_NAMING-th run: that run and the later ones ran it.
      expect(Number(organizationRead?.count)).toBeGreaterThanOrEqual(4);
      expect(seen.prepared.every((p) => /^\s*(select|with)\b/i.test(p.statement))).toBe(true);
    });

    it('runs a named read again under a new name when a migration changed its columns', async () => {
      const databaseUrl = process.env.DATABASE_URL as string;
      const schema = `test_named_${process.pid}`;
      await onPostgres(databaseUrl, `drop schema if exists ${schema} cascade; create schema ${schema}`);
      // One connection, so the statement is prepared where the migration then bites.
      const pool = new pg.Pool({ connectionString: databaseUrl, options: `-c search_path=${schema}`, max: 1 });
      nameRepeatedStatements(pool);
      const client = await pool.connect();
      try {
        await client.query('create table shelf (id int primary key, title text)', []);
        await client.query("insert into shelf values (1, 'Atlas')", []);
        const read = () => client.query('select * from shelf where id = $1', [1]);
        for (let i = 0; i < REPEATS_BEFORE_NAMING; i++) expect((await read()).rows).toEqual([{ id: 1, title: 'Atlas' }]);
        const prepared = await client.query("select count(*)::int as n from pg_prepared_statements where statement = 'select * from shelf where id = $1'", []);
        expect(prepared.rows[0].n).toBe(1);

        // Outside a transaction: run again at once, with the new column.
        await client.query('alter table shelf add column colour text', []);
        expect((await read()).rows).toEqual([{ id: 1, title: 'Atlas', colour: null }]);

        // Inside one: that transaction fails (PostgreSQL aborted it), the next read runs.
        await client.query('alter table shelf add column height int', []);
        await client.query('begin', []);
        await expect(read()).rejects.toThrow(/cached plan must not change result type/);
        await client.query('rollback', []);
        expect((await read()).rows).toEqual([{ id: 1, title: 'Atlas', colour: null, height: null }]);
      } finally {
        client.release();
        await pool.end();
        await onPostgres(databaseUrl, `drop schema if exists ${schema} cascade`);
      }
    });
  });
});
