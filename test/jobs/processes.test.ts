import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { findJob, waitForJob } from '../../src/jobs/queue.ts';
import { freshEnvironment, runCli, startServer, type Environment, type RunningServer } from '../process.ts';
import { countJob, createEffectsTable, effects, failJob, slowJob } from './fixture.ts';

/*
 * The job queue across real server processes (test/jobs/server.ts: src/serve.ts with the
 * test job kinds) on one PostgreSQL: each job runs once, a killed worker's job is finished
 * by the other after its lease, recurring jobs run once per period, and a PDF export asked
 * of both servers at once is made once. PostgreSQL only: two processes on one SQLite file
 * is not a supported deployment.
 */
const TOKEN = 'qr_jobs_processes_admin_token_1234';

describe.skipIf(!process.env.DATABASE_URL)('jobs across two server processes', { timeout: 240_000 }, () => {
  let e: Environment;
  let handle: DatabaseHandle;
  let servers: RunningServer[] = [];

  const db = () => handle.db;

  async function until(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error('timed out waiting');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    e = await freshEnvironment();
    handle = openDatabase({ databaseUrl: e.env.DATABASE_URL, dataDir: e.dataDir });
    await migrateToLatest(handle.db);
    await createEffectsTable(handle.db);
    const env = {
      ...e.env,
      BOOTSTRAP_ADMIN_TOKEN: TOKEN,
      QUIRE_WORKERS: '4',
      // Long enough that a PDF render on a loaded machine (the event loop busy, renewals late)
      // keeps its lease; the SIGKILL case waits this out once.
      JOBS_LEASE_MS: '6000',
      JOBS_POLL_INTERVAL_MS: '500',
      TEST_TICK_MS: '300',
    };
    // Both at once: exactly one of them bootstraps (src/bootstrap.ts).
    servers = await Promise.all([0, 1].map(() => startServer(env, { entry: 'test/jobs/server.ts', startTimeoutMs: 600_000 })));
  }, 620_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    await handle?.close();
    await e?.cleanup();
  });

  // On a failure, what each server said last: the worker's own errors are in its log.
  beforeEach(() => {
    onTestFailed(() => {
      for (const s of servers) console.log(`server ${s.child.pid}:\n${s.lines.slice(-20).join('\n')}`);
    });
  });

  const pids = () => servers.map((s) => s.child.pid!);

  it('200 jobs enqueued at once each run exactly once, spread over both processes', async () => {
    await db().transaction().execute(async (trx) => {
      for (let n = 0; n < 200; n++) await countJob.enqueue(trx, { n, ms: 5 });
    });
    await until(async () => {
      const row = await db().selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('kind', '=', 'test.count').where('state', '=', 'done').executeTakeFirstOrThrow();
      return Number(row.n) === 200;
    });
    const done = await effects(db(), 'count:');
    expect(done.length).toBe(200);
    expect(new Set(done.map((d) => d.label)).size).toBe(200);
    const byProcess = new Set(done.map((d) => d.pid));
    expect([...byProcess].sort()).toEqual([...pids()].sort());
    const attempts = await db().selectFrom('jobs').select('attempts').distinct().where('kind', '=', 'test.count').execute();
    expect(attempts).toEqual([{ attempts: 1 }]);
  });

  it('a recurring job runs once per period with both processes up', async () => {
    const from = Math.floor(Date.now() / 300);
    const claimers = async () => {
      const claims = await db().selectFrom('job_periods').select(['period', 'claimed_by']).where('name', '=', 'test.tick').execute();
      return new Set(claims.map((c) => Number(c.claimed_by.split(':')[1])));
    };
    // Which process wins a period is a race: at least 2.5 s (8 periods), and until each has
    // won one (one process winning eight in a row happened on a loaded machine), 15 s at most.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await until(async () => (await claimers()).size === pids().length, 12_500);
    const ticks = (await effects(db(), 'tick:')).map((t) => Number(t.label.split(':')[1])).filter((p) => p >= from);
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect([...(await claimers())].sort()).toEqual([...pids()].sort());
  });

  it('a PDF export asked of both servers at once is made once (one job, one file), and either serves it', async () => {
    const call = async (server: RunningServer, method: string, url: string, body?: unknown) => {
      const res = await fetch(server.url + url, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const orgs = await call(servers[0], 'GET', '/v1/orgs');
    const space = await call(servers[0], 'POST', `/v1/orgs/${orgs.body.items[0].id}/spaces`, { title: 'Shared' });
    expect(space.status).toBe(201);
    const answers = await Promise.all([0, 1, 0, 1].map((i) => call(servers[i], 'GET', `/v1/spaces/${space.body.id}/pdf`)));
    const problems = servers.flatMap((s) => s.lines.filter((l) => /"level":(40|50)/.test(l)));
    expect(answers.map((a) => a.status), problems.join('\n')).toEqual([200, 200, 200, 200]);
    const urls = new Set(answers.map((a) => a.body.url));
    expect(urls.size).toBe(1);
    expect(await db().selectFrom('pdf_exports').select('id').execute()).toHaveLength(1);
    const jobs = await db().selectFrom('jobs').select(['state']).where('kind', '=', 'pdf.export').execute();
    expect(jobs).toEqual([{ state: 'done' }]);
    const path = new URL([...urls][0]).pathname;
    for (const server of servers) {
      const file = await fetch(server.url + path);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
    }
  });

  it('operators see a failed job with its error, queue it again, and cancel it (cli -- jobs)', async () => {
    const { id } = await failJob.enqueue(db(), { label: 'cli' });
    expect(await waitForJob(db(), id, 20_000)).toMatchObject({ state: 'failed', attempts: 3 });
    const listed = await runCli(e.env, ['jobs', 'list', '--state', 'failed', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const item = JSON.parse(listed.stdout).items.find((j: { id: number }) => j.id === id);
    expect(item).toMatchObject({ id, kind: 'test.fail', state: 'failed', attempts: 3, maxAttempts: 3 });
    expect(item.lastError).toContain('cli broke on attempt 3');

    const retried = await runCli(e.env, ['jobs', 'retry', String(id)]);
    expect(retried.code, retried.stderr).toBe(0);
    await until(async () => (await effects(db(), 'fail:cli:')).length === 6);
    expect(await waitForJob(db(), id, 20_000)).toMatchObject({ state: 'failed', attempts: 3 });

    const cancelled = await runCli(e.env, ['jobs', 'cancel', String(id)]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(await findJob(db(), id)).toMatchObject({ state: 'cancelled' });
    const again = await runCli(e.env, ['jobs', 'cancel', String(id)]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no queued or failed job has id ${id}`);
  });

  it('a job whose process is killed (SIGKILL) mid-run is finished by the other process after the lease', async () => {
    const { id } = await slowJob.enqueue(db(), { label: 'kill', ms: 3000 });
    await until(async () => (await effects(db(), 'slow-start:kill')).length === 1);
    const claimed = await findJob(db(), id);
    const holder = Number(claimed!.locked_by!.split(':')[1]);
    const victim = servers.find((s) => s.child.pid === holder)!;
    const survivor = servers.find((s) => s.child.pid !== holder)!;
    victim.child.kill('SIGKILL');
    await victim.exited;
    // The dead process's last renewal: nobody may take the job before then.
    const leaseEnd = Date.parse((await findJob(db(), id))!.locked_until!);
    const job = await waitForJob(db(), id, 90_000);
    expect(job).toMatchObject({ state: 'done', attempts: 2 });
    const runs = await effects(db(), 'slow-');
    expect(runs.map((r) => [r.label, r.pid])).toEqual([
      ['slow-start:kill', holder],
      ['slow-start:kill', survivor.child.pid],
      ['slow-end:kill', survivor.child.pid],
    ]);
    // Not taken over before the lease (renewed until the kill) ran out.
    expect(runs[1].at_ms).toBeGreaterThanOrEqual(leaseEnd);
  });
});
