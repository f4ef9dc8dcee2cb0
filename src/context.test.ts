import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createTestApp, type TestApp } from '../test/app.ts';
import { createOrganization } from '../test/factories.ts';
import { serviceContext, type Context } from './context.ts';
import { HeadMoved } from './db/retry.ts';
import { toHttpError } from './errors.ts';
import { ContentKeptChanging } from './lib/domain-errors.ts';

/*
 * Context's transactions against a real database: what the callback writes through the
 * transactional context commits with it or rolls back with it, a copy made with a spread
 * opens its transaction with the copy's fields, and retryingTransaction tries again on
 * HeadMoved, then gives up with ContentKeptChanging (a 409 at the API).
 */
describe('ctx.transaction', () => {
  let t: TestApp;
  let ctx: Context;
  const titleOf = async (id: string) => (await t.db.selectFrom('organizations').select('title').where('id', '=', id).executeTakeFirst())?.title;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp();
    ctx = serviceContext(t.app.deps, { userId: 'nobody', tokenId: 'test', organizationId: null }, 'test', pino({ level: 'silent' }));
    orgId = (await createOrganization(t, { title: 'Before' })).id;
  });
  afterAll(async () => {
    await t.close();
  });

  const rename = (db: Context['db'], title: string) => db.updateTable('organizations').set({ title }).where('id', '=', orgId).execute();

  it('commits what the transactional context wrote when the callback resolves, and returns its value', async () => {
    const value = await ctx.transaction(async (tctx) => {
      expect(tctx.db.isTransaction).toBe(true);
      expect(tctx.actor).toBe(ctx.actor);
      await rename(tctx.db, 'Committed');
      return 42;
    });
    expect(value).toBe(42);
    expect(await titleOf(orgId)).toBe('Committed');
  });

  it('rolls everything back when the callback throws', async () => {
    await expect(
      ctx.transaction(async (tctx) => {
        await rename(tctx.db, 'Rolled back');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await titleOf(orgId)).toBe('Committed');
  });

  it('a context copied with a spread yields its own fields inside the transaction', async () => {
    const other = { ...ctx, actor: { userId: 'someone-else', tokenId: 'test', organizationId: null } };
    const seen = await other.transaction(async (tctx) => tctx.actor.userId);
    expect(seen).toBe('someone-else');
  });

  it('retryingTransaction runs again after HeadMoved, rolling back each lost attempt, and answers 409 after 5', async () => {
    let attempts = 0;
    const result = await ctx.retryingTransaction(async (tctx) => {
      attempts++;
      await rename(tctx.db, `Attempt ${attempts}`);
      if (attempts < 3) throw new HeadMoved();
      return attempts;
    });
    expect(result).toBe(3);
    expect(await titleOf(orgId)).toBe('Attempt 3');

    attempts = 0;
    await expect(
      ctx.retryingTransaction(async (tctx) => {
        attempts++;
        await rename(tctx.db, 'Never');
        throw new HeadMoved();
      }),
    ).rejects.toBeInstanceOf(ContentKeptChanging);
    expect(attempts).toBe(5);
    // Mapped to HTTP in one place (src/errors.ts): a 409.
    expect(toHttpError(new ContentKeptChanging())?.statusCode).toBe(409);
    expect(await titleOf(orgId)).toBe('Attempt 3');
  });
});
