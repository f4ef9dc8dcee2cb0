import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { migrateToLatest } from '../../db/migrate.ts';

/*
 * 0013_openapi_specs lands after 0016 and 0018 were handed out (and maybe run): a
 * database that already ran them still gets it.
 */
describe('migration 0013_openapi_specs on a database that ran later numbers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('runs the missing earlier migration', async () => {
    await sql`drop table openapi_spec_versions`.execute(t.db);
    await sql`drop table openapi_specs`.execute(t.db);
    await sql`delete from kysely_migration where name = '0013_openapi_specs'`.execute(t.db);
    expect(await migrateToLatest(t.db)).toEqual(['0013_openapi_specs']);
    expect(await t.db.selectFrom('openapi_specs').select('id').execute()).toEqual([]);
  });
});
