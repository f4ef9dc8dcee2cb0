import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app.ts';
import { enqueueJob, findJob, jobEvents, waitForJob } from '../../src/jobs/queue.ts';
import { JobWorker } from '../../src/jobs/worker.ts';
import { createEffectsTable, effects } from './fixture.ts';

/*
 * The job queue in one process, on SQLite and (DATABASE_URL) PostgreSQL: transactional
 * enqueue, retries with backoff then `failed`, per-key lanes, dedupe keys, recurring jobs
 * with two workers, leases that ran out, graceful hand-back. Workers are made here with
 * short leases and polls; the app's own worker is off (workers: 0) so nothing else claims.
 * Multi-process behaviour: test/jobs/processes.test.ts.
 */

let t: TestApp;
const workers: JobWorker[] = [];

function worker(options: { concurrency?: number; leaseMs?: number; shutdownGraceMs?: number } = {}): JobWorker {
  const w = new JobWorker(t.app.deps, {
    concurrency: options.concurrency ?? 4,
    pollIntervalMs: 50,
    leaseMs: options.leaseMs ?? 2000,
    shutdownGraceMs: options.shutdownGraceMs ?? 2000,
    log: t.app.log,
  });
  workers.push(w);
  return w;
}

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  t = await createTestApp({ workers: 0 });
  await createEffectsTable(t.db);
}, 400_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await t.close();
});

describe('background jobs', () => {
  it('a job enqueued in a transaction that rolls back never exists nor runs; one that commits runs once', async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await enqueueJob(trx, { kind: 'test.count', payload: { n: 1 } });
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    const committed = await t.db.transaction().execute((trx) => enqueueJob(trx, { kind: 'test.count', payload: { n: 2 } }));
    expect(committed.created).toBe(true);
    await t.runJobsUntilIdle();
    expect((await effects(t.db, 'count:')).map((e) => e.label)).toEqual(['count:2']);
    expect(await t.db.selectFrom('jobs').select(['id', 'state', 'attempts']).where('kind', '=', 'test.count').execute()).toEqual([
      { id: committed.id, state: 'done', attempts: 1 },
    ]);
  });

  it('an unknown kind is refused at enqueue', async () => {
    await expect(enqueueJob(t.db, { kind: 'test.nope', payload: {} })).rejects.toThrow('unknown job kind "test.nope"');
  });

  it('a failing job is retried with exponential backoff, then ends failed with its last error', async () => {
    const w = worker();
    w.start();
    const { id } = await enqueueJob(t.db, { kind: 'test.fail', payload: { label: 'broken' } });
    const job = await waitForJob(t.db, id, 10_000);
    expect(job).toMatchObject({ state: 'failed', attempts: 3, max_attempts: 3, lock_token: null, locked_by: null });
    expect(job!.last_error).toContain('broken broke on attempt 3');
    expect(job!.finished_at).not.toBeNull();
    const runs = await effects(t.db, 'fail:broken:');
    expect(runs.map((e) => e.label)).toEqual(['fail:broken:1', 'fail:broken:2', 'fail:broken:3']);
    // backoffMs 100: at least 100 ms before the 2nd attempt, 200 ms before the 3rd.
    expect(runs[1].at_ms - runs[0].at_ms).toBeGreaterThanOrEqual(95);
    expect(runs[2].at_ms - runs[1].at_ms).toBeGreaterThanOrEqual(195);
    await w.stop();
  });

  it('a keyed lane runs one job at a time, in enqueue order, across two workers; other keys run beside it', async () => {
    const a = worker();
    const b = worker();
    await t.db.transaction().execute(async (trx) => {
      for (let n = 0; n < 6; n++) {
        for (const key of ['x', 'y']) await enqueueJob(trx, { kind: 'test.lane', payload: { key, n, ms: 25 }, key: `lane-${key}` });
      }
    });
    a.start();
    b.start();
    await until(async () => (await effects(t.db, 'lane:')).length === 24);
    for (const key of ['x', 'y']) {
      const rows = await effects(t.db, `lane:${key}:`);
      // Sorted by time: start n, end n, start n+1, end n+1, ...: no overlap, in order.
      const expected = Array.from({ length: 6 }, (_, n) => [`lane:${key}:00${n}:start`, `lane:${key}:00${n}:end`]).flat();
      expect(rows.map((r) => r.label)).toEqual(expected);
    }
    await Promise.all([a.stop(), b.stop()]);
  });

  it('a dedupe key allows one unfinished job: a second enqueue returns it; once done, a new one is made', async () => {
    const first = await enqueueJob(t.db, { kind: 'test.count', payload: { n: 10 }, dedupeKey: 'only-one' });
    const second = await enqueueJob(t.db, { kind: 'test.count', payload: { n: 11 }, dedupeKey: 'only-one' });
    expect(second).toEqual({ id: first.id, created: false });
    await t.runJobsUntilIdle();
    const third = await enqueueJob(t.db, { kind: 'test.count', payload: { n: 12 }, dedupeKey: 'only-one' });
    expect(third.created).toBe(true);
    expect(third.id).not.toBe(first.id);
    await t.runJobsUntilIdle();
    expect((await effects(t.db, 'count:1')).map((e) => e.label).sort()).toEqual(['count:10', 'count:12']);
  });

  it('a job whose worker died runs again once its lease ran out; one that died on its last attempt ends failed', async () => {
    const past = new Date(Date.now() - 1000).toISOString();
    const dead = { state: 'running' as const, locked_by: 'gone:1', lock_token: 'stale', locked_until: past };
    const retried = await enqueueJob(t.db, { kind: 'test.count', payload: { n: 30 } });
    const last = await enqueueJob(t.db, { kind: 'test.count', payload: { n: 31 }, maxAttempts: 1 });
    await t.db.updateTable('jobs').set({ ...dead, attempts: 1 }).where('id', 'in', [retried.id, last.id]).execute();
    const live = await enqueueJob(t.db, { kind: 'test.count', payload: { n: 32 } });
    await t.db.updateTable('jobs').set({ ...dead, attempts: 1, locked_until: new Date(Date.now() + 60_000).toISOString() }).where('id', '=', live.id).execute();
    await t.runJobsUntilIdle();
    expect(await findJob(t.db, retried.id)).toMatchObject({ state: 'done', attempts: 2 });
    expect(await findJob(t.db, last.id)).toMatchObject({ state: 'failed', attempts: 2 });
    expect((await findJob(t.db, last.id))!.last_error).toContain('lease expired');
    // A live lease is left alone.
    expect(await findJob(t.db, live.id)).toMatchObject({ state: 'running', lock_token: 'stale' });
    expect((await effects(t.db, 'count:3')).map((e) => e.label)).toEqual(['count:30']);
    await t.db.updateTable('jobs').set({ state: 'cancelled' }).where('id', '=', live.id).execute();
  });

  it('a worker woken while every slot is busy claims again once a slot frees', async () => {
    // Regression: a wake with no free slot ended the claim loop synchronously and left the
    // worker believing a claim was under way, so it never claimed again (seen at stop 11).
    const w = worker({ concurrency: 1 });
    const busy = await enqueueJob(t.db, { kind: 'test.slow', payload: { label: 'busy', ms: 400 } });
    // (Its effects are removed at the end: other tests count every slow-start and slow-end.)
    w.start();
    await until(async () => (await effects(t.db, 'slow-start:busy')).length === 1);
    const next = await enqueueJob(t.db, { kind: 'test.count', payload: { n: 77 } });
    jobEvents.emit('wake');
    expect(await waitForJob(t.db, next.id, 10_000)).toMatchObject({ state: 'done', attempts: 1 });
    expect(await findJob(t.db, busy.id)).toMatchObject({ state: 'done' });
    await w.stop();
    await sql`delete from job_effects where label like 'slow-%:busy'`.execute(t.db);
  });

  it('graceful stop lets a short job finish and hands a long one back (queued, attempt not counted)', async () => {
    const w = worker({ shutdownGraceMs: 300 });
    const short = await enqueueJob(t.db, { kind: 'test.slow', payload: { label: 'short', ms: 100 } });
    const long = await enqueueJob(t.db, { kind: 'test.slow', payload: { label: 'long', ms: 3000 } });
    w.start();
    await until(async () => (await effects(t.db, 'slow-start:')).length === 2);
    await w.stop();
    expect(await findJob(t.db, short.id)).toMatchObject({ state: 'done', attempts: 1 });
    expect(await findJob(t.db, long.id)).toMatchObject({ state: 'queued', attempts: 0, locked_by: null, lock_token: null });
    expect((await effects(t.db, 'slow-end:')).map((e) => e.label)).toEqual(['slow-end:short']);
    await t.db.updateTable('jobs').set({ state: 'cancelled' }).where('id', '=', long.id).execute();
  });

  it('a recurring job runs once per period with two workers up', async () => {
    process.env.TEST_TICK_MS = '100';
    try {
      const a = worker();
      const b = worker();
      const startedAt = Date.now();
      a.start();
      b.start();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await Promise.all([a.stop(), b.stop()]);
      const elapsedPeriods = Math.floor(Date.now() / 100) - Math.floor(startedAt / 100) + 1;
      const ticks = (await effects(t.db, 'tick:')).map((e) => e.label);
      expect(new Set(ticks).size).toBe(ticks.length);
      expect(ticks.length).toBeGreaterThanOrEqual(5);
      expect(ticks.length).toBeLessThanOrEqual(elapsedPeriods);
      const claims = await t.db.selectFrom('job_periods').select(['period', 'claimed_by']).where('name', '=', 'test.tick').execute();
      expect(claims.length).toBe(ticks.length);
      // Which worker wins a period is a race (on a busy machine one may win them all), so
      // only that each claim names one of the two is asserted.
      expect(claims.every((c) => c.claimed_by === a.id || c.claimed_by === b.id)).toBe(true);
    } finally {
      delete process.env.TEST_TICK_MS;
    }
  });
});
