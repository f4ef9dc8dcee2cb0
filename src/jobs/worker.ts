import os from 'node:os';
import { sql } from 'kysely';
import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../context.ts';
import { newId } from '../lib/ids.ts';
import { postgresDriver } from '../db/postgres-driver.ts';
import { backoffFor, jobEvents, JOBS_CHANNEL, recurringKind, type JobRow } from './queue.ts';
import type { JobRegistry } from './registry.ts';

/*
 * A worker: claims due jobs from the jobs table, runs them under a lease it keeps
 * renewing, and records how they ended (docs/decisions/jobs.md). Every server process
 * runs one unless QUIRE_WORKERS=0; `npm run worker` runs a process that only does this.
 */

export interface WorkerOptions {
  /** Jobs run at once by this process. */
  concurrency: number;
  /** How often the table is polled for due jobs and recurring periods. */
  pollIntervalMs: number;
  /** How long a claim holds without renewal; a dead process's jobs run again after it. */
  leaseMs: number;
  /** On stop, how long running jobs may take to finish before they are handed back. */
  shutdownGraceMs: number;
  log: FastifyBaseLogger;
}

interface Running {
  job: JobRow;
  token: string;
  controller: AbortController;
  done: Promise<void>;
}

const MAX_ERROR_LENGTH = 4000;

function parsePayload(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return text.length > MAX_ERROR_LENGTH ? text.slice(0, MAX_ERROR_LENGTH) : text;
}

/**
 * The jobs a worker may claim now among `kinds`: due (or running under a lease that ran
 * out), and first among the unfinished jobs of their lane. The claim and the idle check
 * use this one condition.
 */
function claimable(kinds: string[], nowIso: string) {
  return sql<boolean>`j.kind in (${sql.join(kinds)})
    and ((j.state = 'queued' and j.run_at <= ${nowIso}) or (j.state = 'running' and j.locked_until < ${nowIso}))
    and (j.lane_key is null or j.id = (
      select min(l.id) from jobs l where l.lane_key = j.lane_key and l.state in ('queued', 'running')))`;
}

export class JobWorker {
  readonly id = `${os.hostname()}:${process.pid}:${newId(6)}`;
  private readonly running = new Map<number, Running>();
  private stopping = false;
  private started = false;
  private timer: NodeJS.Timeout | undefined;
  private listener: pg.Client | undefined;
  private pumping: Promise<void> | undefined;
  private ticking: Promise<void> | undefined;
  private pumpAgain = false;
  /** The last period of each recurring job this process looked at. */
  private readonly seenPeriods = new Map<string, number>();
  private readonly wake = () => void this.pump();

  constructor(
    private readonly deps: AppDeps,
    /** The kinds this process works (the app's composition). */
    private readonly registry: JobRegistry,
    private readonly options: WorkerOptions,
  ) {}

  /** Starts polling (and listening, on PostgreSQL); claims at once. */
  start(): void {
    if (this.started) return;
    this.started = true;
    jobEvents.on('wake', this.wake);
    this.schedule(0);
    if (this.deps.dialect === 'postgres') void this.listen();
  }

  /**
   * Graceful stop: claims nothing more, lets running jobs finish within the grace time,
   * then hands the others back (queued again at once, the attempt not counted) and aborts
   * their signal.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    jobEvents.off('wake', this.wake);
    if (this.timer) clearTimeout(this.timer);
    const listener = this.listener;
    this.listener = undefined;
    if (listener) await listener.end().catch(() => {});
    await this.ticking;
    await this.pumping;
    const all = Promise.all([...this.running.values()].map((r) => r.done));
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((resolve) => (timeout = setTimeout(resolve, this.options.shutdownGraceMs)))]);
    clearTimeout(timeout);
    for (const running of [...this.running.values()]) {
      running.controller.abort(new Error('the worker is shutting down'));
      await this.handBack(running);
      this.options.log.info({ jobId: running.job.id, kind: running.job.kind }, 'job handed back at shutdown');
    }
  }

  /**
   * Runs every job that is due now (and the recurring periods that are due) until none
   * can be claimed and none runs here; for tests and one-off drains. Jobs held by another
   * process are left, and so are jobs due later, unless due within `waitForDueWithinMs`
   * (a batching delay such as the conversations clustering run's): those are waited for.
   */
  async runUntilIdle(options: { waitForDueWithinMs?: number } = {}): Promise<void> {
    await this.enqueueRecurring();
    for (;;) {
      await this.pump();
      if (this.running.size > 0) {
        await Promise.race([...this.running.values()].map((r) => r.done));
        continue;
      }
      // What this process knows says idle; the table decides. A pump that had already
      // made its last claim when this one asked to claim again ends without claiming,
      // so a job enqueued meanwhile would otherwise be left behind.
      if (await this.anyClaimable(this.kindsWithRoom(), new Date().toISOString())) continue;
      const wait = await this.nextDueWithin(options.waitForDueWithinMs ?? 0);
      if (wait === undefined) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Milliseconds until the next queued job is due, when that is within `withinMs`. */
  private async nextDueWithin(withinMs: number): Promise<number | undefined> {
    const kinds = this.registry.kinds();
    if (withinMs <= 0 || kinds.length === 0) return undefined;
    const next = await this.deps.db
      .selectFrom('jobs')
      .select('run_at')
      .where('state', '=', 'queued')
      .where('kind', 'in', kinds)
      .orderBy('run_at')
      .limit(1)
      .executeTakeFirst();
    if (!next) return undefined;
    const wait = Date.parse(next.run_at) - Date.now();
    return wait <= withinMs ? Math.max(0, wait) + 5 : undefined;
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick().finally(() => (this.ticking = undefined));
    }, delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      await this.enqueueRecurring();
      await this.pump();
      if (this.deps.dialect === 'postgres' && !this.listener && !this.stopping) void this.listen();
    } catch (error) {
      this.options.log.error({ err: error }, 'job worker poll failed');
    }
    this.schedule(this.pollDelay());
  }

  /** The poll interval, or shorter when a recurring job's period is shorter. */
  private pollDelay(): number {
    let delay = this.options.pollIntervalMs;
    for (const job of this.registry.recurring()) {
      const interval = job.intervalMs(this.deps.config);
      if (interval > 0) delay = Math.min(delay, interval);
    }
    return delay;
  }

  /** PostgreSQL: a notification at each enqueue's commit wakes this worker (polling stays as a fallback). */
  private async listen(): Promise<void> {
    const url = this.deps.config.databaseUrl;
    if (!url || this.listener) return;
    const client = new (postgresDriver().Client)({ connectionString: url });
    this.listener = client;
    client.on('notification', this.wake);
    client.on('error', (error) => {
      this.options.log.warn({ err: error }, 'job notifications lost; polling until reconnected');
      if (this.listener === client) this.listener = undefined;
      void client.end().catch(() => {});
    });
    try {
      await client.connect();
      await client.query(`listen ${JOBS_CHANNEL}`);
      if (this.stopping) await client.end();
    } catch (error) {
      this.options.log.warn({ err: error }, 'could not listen for job notifications; polling');
      if (this.listener === client) this.listener = undefined;
      await client.end().catch(() => {});
    }
  }

  /** For each recurring job whose period this process has not seen: claim the period; the winner enqueues it. */
  private async enqueueRecurring(): Promise<void> {
    const now = Date.now();
    for (const job of this.registry.recurring()) {
      const interval = job.intervalMs(this.deps.config);
      if (interval <= 0) continue;
      const period = Math.floor(now / interval);
      if (this.seenPeriods.get(job.name) === period) continue;
      await this.deps.db.transaction().execute(async (trx) => {
        const claimed = await trx
          .insertInto('job_periods')
          .values({ name: job.name, period, claimed_by: this.id, claimed_at: new Date(now).toISOString() })
          .onConflict((oc) => oc.columns(['name', 'period']).doNothing())
          .returning('name')
          .executeTakeFirst();
        if (claimed) await job.handler.job.enqueue(trx, { period }, { dedupeKey: recurringKind(job.name) });
      });
      this.seenPeriods.set(job.name, period);
    }
  }

  /** Claims and starts jobs while there are free slots and due jobs; one pump at a time. */
  private pump(): Promise<void> {
    if (this.pumping) {
      // Claim once more after the pump under way: what woke us may be newer than its last claim.
      this.pumpAgain = true;
      return this.pumping;
    }
    this.pumping = this.claimWhileRoom();
    return this.pumping;
  }

  private async claimWhileRoom(): Promise<void> {
    // Always asynchronous, so the `finally` below runs after pump() stored this promise.
    await null;
    try {
      do {
        this.pumpAgain = false;
        while (!this.stopping && this.running.size < this.options.concurrency) {
          const kinds = this.kindsWithRoom();
          if (kinds.length === 0) break;
          const claimed = await this.claim(kinds);
          if (!claimed) break;
          this.begin(claimed.job, claimed.token);
        }
      } while (this.pumpAgain && !this.stopping);
    } catch (error) {
      this.options.log.error({ err: error }, 'claiming jobs failed');
    } finally {
      // Cleared in the same step as the last look at `pumpAgain`: a pump() asking in
      // between would otherwise be told to wait for a pump that will not claim again.
      this.pumping = undefined;
    }
  }

  private kindsWithRoom(): string[] {
    const counts = new Map<string, number>();
    for (const r of this.running.values()) counts.set(r.job.kind, (counts.get(r.job.kind) ?? 0) + 1);
    return this.registry.kinds().filter((kind) => (counts.get(kind) ?? 0) < (this.registry.handler(kind)?.job.options.concurrency ?? Infinity));
  }

  /**
   * Claims the next due job of one of `kinds`: the oldest due, skipping a keyed job that
   * is not the first unfinished one of its lane (so a lane runs one job at a time, in
   * order). PostgreSQL: FOR UPDATE SKIP LOCKED, so workers never wait on each other;
   * SQLite: an immediate transaction (one writer at a time, across processes too).
   */
  private async claim(kinds: string[]): Promise<{ job: JobRow; token: string } | undefined> {
    const now = new Date();
    const nowIso = now.toISOString();
    const until = new Date(now.getTime() + this.options.leaseMs).toISOString();
    const token = newId(24);
    const postgres = this.deps.dialect === 'postgres';
    // SQLite: look before taking the write lock. An empty claim would still be a write
    // transaction, and each one moves the content stamp that read caches are keyed by
    // (src/db/database.ts), so an idle poll must only read.
    if (!postgres && !(await this.anyClaimable(kinds, nowIso))) return undefined;
    const statement = sql<JobRow>`
      update jobs
      set state = 'running', attempts = attempts + 1, locked_by = ${this.id}, lock_token = ${token},
          locked_until = ${until}, updated_at = ${nowIso}
      where id = (
        select j.id from jobs j
        where ${claimable(kinds, nowIso)}
        order by j.run_at, j.id
        limit 1
        ${postgres ? sql`for update of j skip locked` : sql``}
      )
      returning *`;
    const result = postgres
      ? await statement.execute(this.deps.db)
      : await this.deps.db.transaction().execute((trx) => statement.execute(trx));
    const job = result.rows[0];
    if (!job) return undefined;
    return { job: { ...job, id: Number(job.id) }, token };
  }

  private async anyClaimable(kinds: string[], nowIso: string): Promise<boolean> {
    if (kinds.length === 0) return false;
    const { rows } = await sql<{ id: number }>`select j.id from jobs j where ${claimable(kinds, nowIso)} limit 1`.execute(this.deps.db);
    return rows.length > 0;
  }

  private begin(job: JobRow, token: string): void {
    const controller = new AbortController();
    const entry: Running = { job, token, controller, done: Promise.resolve() };
    this.running.set(job.id, entry);
    entry.done = this.execute(job, token, controller).finally(() => {
      this.running.delete(job.id);
      jobEvents.emit('finished', job.id);
      if (!this.stopping) void this.pump();
    });
  }

  private async execute(job: JobRow, token: string, controller: AbortController): Promise<void> {
    const log = this.options.log.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
    const handler = this.registry.handler(job.kind)!;
    if (job.attempts > job.max_attempts) {
      // Its last allowed run ended with its process (the lease ran out): do not run it again.
      await this.fail(job, token, `the process running attempt ${job.max_attempts} stopped before it finished (lease expired)`);
      log.error('job failed: its worker stopped during the last attempt');
      return;
    }
    // A payload not of its kind (written by other code, or by a version with another
    // shape) would fail the same way on every attempt: it fails at once, with the reason.
    const payload = parsePayload(job.payload);
    const problem = payload.ok ? handler.job.payloadProblem(payload.value) : 'it is not JSON';
    if (!payload.ok || problem !== undefined) {
      await this.fail(job, token, `the payload is not one of job kind "${job.kind}": ${problem}`);
      log.error({ problem }, 'job failed: its payload does not match its kind');
      return;
    }
    const renew = setInterval(() => void this.renew(job.id, token).catch(() => {}), Math.max(50, Math.floor(this.options.leaseMs / 3)));
    renew.unref();
    try {
      const { db, dialect, config, clock, caches, files, outbound, markdown } = this.deps;
      const result = await handler.run(payload.value, {
        db,
        dialect,
        config,
        files,
        outbound,
        markdown,
        clock,
        caches,
        log,
        jobId: job.id,
        attempt: job.attempts,
        signal: controller.signal,
      });
      clearInterval(renew);
      if (controller.signal.aborted) return;
      const finished = await this.finish(job.id, token, {
        state: 'done',
        result: result === undefined ? null : JSON.stringify(result),
      });
      if (!finished) log.warn('job finished after its lease was taken over; its result is dropped');
    } catch (error) {
      clearInterval(renew);
      if (controller.signal.aborted) return;
      if (job.attempts < job.max_attempts) {
        const delay = backoffFor(handler.job.options, job.attempts);
        await this.finish(job.id, token, {
          state: 'queued',
          run_at: new Date(Date.now() + delay).toISOString(),
          last_error: errorText(error),
          finished_at: null,
        });
        log.warn({ err: error, retryInMs: delay }, 'job failed; will retry');
      } else {
        await this.fail(job, token, errorText(error));
        log.error({ err: error }, 'job failed for good');
      }
    }
  }

  private async fail(job: JobRow, token: string, error: string): Promise<void> {
    await this.finish(job.id, token, { state: 'failed', last_error: error });
  }

  /** Ends this claim; false when the lease was lost (another worker took the job over). */
  private async finish(
    id: number,
    token: string,
    set: { state: JobRow['state']; result?: string | null; last_error?: string; run_at?: string; finished_at?: null },
  ): Promise<boolean> {
    const now = new Date().toISOString();
    const result = await this.deps.db
      .updateTable('jobs')
      .set({
        ...set,
        locked_by: null,
        lock_token: null,
        locked_until: null,
        updated_at: now,
        ...(set.state === 'queued' ? {} : { finished_at: now }),
      })
      .where('id', '=', id)
      .where('lock_token', '=', token)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  private async renew(id: number, token: string): Promise<void> {
    const until = new Date(Date.now() + this.options.leaseMs).toISOString();
    await this.deps.db.updateTable('jobs').set({ locked_until: until }).where('id', '=', id).where('lock_token', '=', token).execute();
  }

  /** Puts a running job back in the queue, due now, without counting the attempt. */
  private async handBack(running: Running): Promise<void> {
    await this.deps.db
      .updateTable('jobs')
      .set({
        state: 'queued',
        attempts: sql<number>`attempts - 1`,
        run_at: new Date().toISOString(),
        locked_by: null,
        lock_token: null,
        locked_until: null,
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', running.job.id)
      .where('lock_token', '=', running.token)
      .execute();
  }
}

/**
 * Runs every job due now in this process until none is left (tests; the app's own worker
 * may run beside it: jobs are claimed, so none runs twice).
 */
export async function drainJobs(
  deps: AppDeps,
  registry: JobRegistry,
  log: FastifyBaseLogger,
  options: { waitForDueWithinMs?: number } = {},
): Promise<void> {
  const worker = new JobWorker(deps, registry, { concurrency: 4, pollIntervalMs: 1000, leaseMs: 60_000, shutdownGraceMs: 0, log });
  await worker.runUntilIdle(options);
}
