import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app.ts';
import { Type } from 'typebox';
import { defineJob, findJob, jobEvents, waitForJob } from '../../src/jobs/queue.ts';
import { JobRegistry } from '../../src/jobs/registry.ts';
import { JobWorker } from '../../src/jobs/worker.ts';
import { countJob, createEffectsTable, effects, failJob, laneJob, slowJob, testJobs } from './fixture.ts';

/*
 * The job queue in one process, on SQLite and (DATABASE_URL) PostgreSQL: transactional
 * enqueue, retries with backoff then `failed`, per-key lanes, dedupe keys, recurring jobs
 * with two workers, leases that ran out, graceful hand-back. Workers are made here with
 * short leases and polls; the app's own worker is off (workers: 0) so nothing else claims.
 * Typed kinds: a payload is checked against its kind's schema when claimed; the app is
 * composed with its kinds (here the app's and ./fixture.ts's). Multi-process behaviour:
 * test/jobs/processes.test.ts.
 */

let t: TestApp;
const workers: JobWorker[] = [];

function worker(options: { concurrency?: number; leaseMs?: number; shutdownGraceMs?: number } = {}): JobWorker {
  const w = new JobWorker(t.app.deps, t.app.jobRegistry, {
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
  t = await createTestApp({ workers: 0 }, { jobs: testJobs });
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
        await countJob.enqueue(trx, { n: 1 });
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    const committed = await t.db.transaction().execute((trx) => countJob.enqueue(trx, { n: 2 }));
    expect(committed.created).toBe(true);
    await t.runJobsUntilIdle();
    expect((await effects(t.db, 'count:')).map((e) => e.label)).toEqual(['count:2']);
    expect(await t.db.selectFrom('jobs').select(['id', 'state', 'attempts']).where('kind', '=', 'test.count').execute()).toEqual([
      { id: committed.id, state: 'done', attempts: 1 },
    ]);
  });

  it('a payload is typed by its kind at enqueue', () => {
    // Compiled, never run: `tsc --noEmit` fails if these type-check.
    const typed = () => {
      // @ts-expect-error n is a number
      void countJob.enqueue(t.db, { n: 'one' });
      // @ts-expect-error label is missing
      void failJob.enqueue(t.db, {});
    };
    expect(typeof typed).toBe('function');
  });

  it('a claimed payload that is not of its kind fails at once with the reason, and its handler never runs', async () => {
    const now = new Date().toISOString();
    const row = { state: 'queued' as const, attempts: 0, max_attempts: 5, run_at: now, created_at: now, updated_at: now };
    const inserted = await t.db
      .insertInto('jobs')
      .values([
        { ...row, kind: countJob.kind, payload: JSON.stringify({ n: 'forty' }) },
        { ...row, kind: countJob.kind, payload: '{not json' },
      ])
      .returning('id')
      .execute();
    const [wrong, garbled] = inserted.map((r) => Number(r.id));
    await t.runJobsUntilIdle();
    const failed = await findJob(t.db, wrong);
    expect(failed).toMatchObject({ state: 'failed', attempts: 1, lock_token: null });
    expect(failed!.last_error).toBe('the payload is not one of job kind "test.count": /n must be integer');
    const notJson = await findJob(t.db, garbled);
    expect(notJson).toMatchObject({ state: 'failed', attempts: 1 });
    expect(notJson!.last_error).toBe('the payload is not one of job kind "test.count": it is not JSON');
    expect((await effects(t.db, 'count:forty')).length).toBe(0);
  });

  it('a kind the process was not composed with is left queued for a process that knows it', async () => {
    const elsewhere = defineJob('test.elsewhere', { payload: Type.Object({ n: Type.Integer() }) });
    const { id } = await elsewhere.enqueue(t.db, { n: 1 });
    await t.runJobsUntilIdle();
    expect(await findJob(t.db, id)).toMatchObject({ state: 'queued', attempts: 0 });
    // A worker composed with it runs it.
    let ran = 0;
    const w = new JobWorker(t.app.deps, new JobRegistry([elsewhere.handledBy(() => void ran++)]), {
      concurrency: 1,
      pollIntervalMs: 50,
      leaseMs: 2000,
      shutdownGraceMs: 0,
      log: t.app.log,
    });
    await w.runUntilIdle();
    expect(await findJob(t.db, id)).toMatchObject({ state: 'done', attempts: 1 });
    expect(ran).toBe(1);
  });

  it('a composition that handles a kind twice is refused', () => {
    expect(() => new JobRegistry([...testJobs, countJob.handledBy(() => undefined)])).toThrow('job kind "test.count" is handled twice');
  });

  it('waitFor answers the typed result of a done job and the error of a failed one', async () => {
    const done = await countJob.enqueue(t.db, { n: 40 });
    await t.runJobsUntilIdle();
    expect(await countJob.waitFor(t.db, done.id, 1000)).toEqual({ id: done.id, state: 'done', result: undefined });
    const w = worker();
    w.start();
    const broken = await failJob.enqueue(t.db, { label: 'waited' });
    const outcome = await failJob.waitFor(t.db, broken.id, 10_000);
    expect(outcome).toMatchObject({ id: broken.id, state: 'failed' });
    expect(outcome!.state === 'failed' && outcome!.error).toContain('waited broke on attempt 3');
    await w.stop();
  });

  it('a failing job is retried with exponential backoff, then ends failed with its last error', async () => {
    const w = worker();
    w.start();
    const { id } = await failJob.enqueue(t.db, { label: 'broken' });
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
        for (const key of ['x', 'y']) await laneJob.enqueue(trx, { key, n, ms: 25 }, { key: `lane-${key}` });
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
    const first = await countJob.enqueue(t.db, { n: 10 }, { dedupeKey: 'only-one' });
    const second = await countJob.enqueue(t.db, { n: 11 }, { dedupeKey: 'only-one' });
    expect(second).toEqual({ id: first.id, created: false });
    await t.runJobsUntilIdle();
    const third = await countJob.enqueue(t.db, { n: 12 }, { dedupeKey: 'only-one' });
    expect(third.created).toBe(true);
    expect(third.id).not.toBe(first.id);
    await t.runJobsUntilIdle();
    expect((await effects(t.db, 'count:1')).map((e) => e.label).sort()).toEqual(['count:10', 'count:12']);
  });

  it('a job whose worker died runs again once its lease ran out; one that died on its last attempt ends failed', async () => {
    const past = new Date(Date.now() - 1000).toISOString();
    const dead = { state: 'running' as const, locked_by: 'gone:1', lock_token: 'stale', locked_until: past };
    const retried = await countJob.enqueue(t.db, { n: 30 });
    const last = await countJob.enqueue(t.db, { n: 31 }, { maxAttempts: 1 });
    await t.db.updateTable('jobs').set({ ...dead, attempts: 1 }).where('id', 'in', [retried.id, last.id]).execute();
    const live = await countJob.enqueue(t.db, { n: 32 });
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
    const busy = await slowJob.enqueue(t.db, { label: 'busy', ms: 400 });
    // (Its effects are removed at the end: other tests count every slow-start and slow-end.)
    w.start();
    await until(async () => (await effects(t.db, 'slow-start:busy')).length === 1);
    const next = await countJob.enqueue(t.db, { n: 77 });
    jobEvents.emit('wake');
    expect(await waitForJob(t.db, next.id, 10_000)).toMatchObject({ state: 'done', attempts: 1 });
    expect(await findJob(t.db, busy.id)).toMatchObject({ state: 'done' });
    await w.stop();
    await sql`delete from job_effects where label like 'slow-%:busy'`.execute(t.db);
  });

  it('graceful stop lets a short job finish and hands a long one back (queued, attempt not counted)', async () => {
    const w = worker({ shutdownGraceMs: 300 });
    const short = await slowJob.enqueue(t.db, { label: 'short', ms: 100 });
    const long = await slowJob.enqueue(t.db, { label: 'long', ms: 3000 });
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
      // Every run has its period's claim. A period claimed just before the workers stopped may
      // not have run yet (its run handed back, queued), so claims may outnumber runs; one run per
      // period is the ticks being distinct, above.
      const claimed = new Set(claims.map((c) => `tick:${c.period}`));
      expect(ticks.every((tick) => claimed.has(tick))).toBe(true);
      // Which worker wins a period is a race (on a busy machine one may win them all), so
      // only that each claim names one of the two is asserted.
      expect(claims.every((c) => c.claimed_by === a.id || c.claimed_by === b.id)).toBe(true);
    } finally {
      delete process.env.TEST_TICK_MS;
    }
  });
});
