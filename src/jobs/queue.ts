import { EventEmitter } from 'node:events';
import { PostgresAdapter, sql, type Kysely, type Selectable } from 'kysely';
import { Type, type Static, type TSchema, type TUnknown } from 'typebox';
import { Value } from 'typebox/value';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { AppDeps } from '../context.ts';
import type { Database, JobsTable } from '../db/types.ts';

/*
 * The durable job queue (docs/decisions/jobs.md): a table (migration 0011) that every
 * process enqueues into inside its own transactions and that workers (src/jobs/worker.ts)
 * claim from. This file holds the public API: `defineJob` (a typed kind: enqueue, waitFor,
 * handledBy), `defineRecurringJob`, and the queue's reads. Nothing here registers
 * anything: the app is composed with its list of handlers (src/composition.ts,
 * src/jobs/registry.ts).
 */

/** A Kysely database or an open transaction: an enqueue commits or rolls back with it. */
export type Executor = Kysely<Database>;

export type JobRow = Selectable<JobsTable>;

/** What a handler gets: the app's dependencies, no request and no actor (jobs act as the system). */
export interface JobContext extends AppDeps {
  log: FastifyBaseLogger;
  jobId: number;
  /** 1 on the first run, 2 on the first retry, ... */
  attempt: number;
  /** Aborted when the process shuts down and the job is handed back to the queue. */
  signal: AbortSignal;
}

/** How a kind of job runs; fixed where the kind is defined, so enqueuers and workers agree. */
export interface JobOptions {
  /** How many jobs of this kind one process runs at once (default: as many as it has slots). */
  concurrency?: number;
  /** Runs before the job ends `failed` (default 5). */
  maxAttempts?: number;
  /** Wait before the first retry; doubles for each further one (default 1000 ms, at most an hour). */
  backoffMs?: number;
}

/** What `defineJob` is given: the payload's schema (checked when a worker claims the job), the result's, and how it runs. */
export interface JobSpec<P extends TSchema, R extends TSchema> extends JobOptions {
  payload: P;
  /** What the handler returns (kept as JSON and read back by `waitFor`); unknown when not given. */
  result?: R;
}

export interface EnqueueOptions {
  /** Serial lane: jobs with the same key never run at the same time and run in enqueue order. */
  key?: string;
  /** At most one job with this key is queued or running; enqueueing another returns that one. */
  dedupeKey?: string;
  /** Not before this time. */
  runAt?: Date;
  maxAttempts?: number;
}

export interface Enqueued {
  id: number;
  /** False when a job with the same dedupe key was already queued or running (its id is returned). */
  created: boolean;
}

/** How a job waited for ended: its result when done, its last error otherwise. */
export type JobOutcome<R> = { id: number; state: 'done'; result: R } | { id: number; state: 'failed' | 'cancelled'; error: string | null };

/**
 * A kind of job, as its owner module defines it (`<module>.job-kinds.ts`): enqueuers and
 * waiters use it with typed payloads and results; the handler is attached with
 * `handledBy` where the app is composed (src/composition.ts), so a service can enqueue
 * without importing the code that runs the job, and that code can call the service.
 */
export interface JobKind<P, R = unknown> {
  readonly kind: string;
  readonly options: Readonly<JobOptions>;
  /** Adds a job in the caller's transaction (or on its own when given the database). */
  enqueue(db: Executor, payload: P, options?: EnqueueOptions): Promise<Enqueued>;
  /** Waits until the job is done, failed or cancelled; undefined when `timeoutMs` passed first. */
  waitFor(db: Executor, id: number, timeoutMs: number): Promise<JobOutcome<R> | undefined>;
  /** Why a stored payload is not one of this kind (a row written by other code or an older version), or undefined. */
  payloadProblem(payload: unknown): string | undefined;
  /** This kind with the code that runs it: what a process that works jobs is given. */
  handledBy(run: (payload: P, ctx: JobContext) => Promise<R> | R): JobHandler;
}

/** A kind of job with its handler (and, for a recurring job, its period): one entry of the app's job list. */
export interface JobHandler {
  readonly job: JobKind<any, any>;
  /** Does the work; what it returns (JSON) is kept as the job's result. Throwing retries it. */
  run(payload: any, ctx: JobContext): Promise<unknown> | unknown;
  readonly recurring?: RecurringSchedule;
}

export interface RecurringSchedule {
  name: string;
  /** The period; a number, or read from the configuration (0 turns the job off). */
  intervalMs: (config: Config) => number;
}

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** How many schema errors a failed payload check reports. */
const MAX_PAYLOAD_ERRORS = 3;

/** Defines a kind of job: its name, payload and result schemas, and how it runs. Registers nothing. */
export function defineJob<P extends TSchema, R extends TSchema = TUnknown>(kind: string, spec: JobSpec<P, R>): JobKind<Static<P>, Static<R>> {
  const { payload: schema, result: _result, ...options } = spec;
  const job: JobKind<Static<P>, Static<R>> = {
    kind,
    options,
    enqueue: (db, payload, enqueueOptions = {}) => insertJob(db, job, payload, enqueueOptions),
    async waitFor(db, id, timeoutMs) {
      const row = await waitForJob(db, id, timeoutMs);
      if (!row) return undefined;
      if (row.state === 'done') return { id, state: 'done', result: (row.result === null ? undefined : JSON.parse(row.result)) as Static<R> };
      return { id, state: row.state as 'failed' | 'cancelled', error: row.last_error };
    },
    payloadProblem(payload) {
      if (Value.Check(schema, payload)) return undefined;
      const errors = [...Value.Errors(schema, payload)].slice(0, MAX_PAYLOAD_ERRORS);
      return errors.map((error) => `${error.instancePath || '/'} ${error.message}`).join('; ') || 'does not match its schema';
    },
    handledBy: (run) => ({ job, run }),
  };
  return job;
}

/** The job kind that runs one period of a recurring job. */
export const recurringKind = (name: string) => `recurring:${name}`;

const RecurringPeriod = Type.Object({ period: Type.Integer({ minimum: 0 }) });

/**
 * A job that runs every `intervalMs` (or as often as the configuration says), by exactly
 * one process per period: the first process to claim the period's row in job_periods
 * enqueues that period's run. A run still going when the next period starts makes that
 * period skip (dedupe key). A failed run is not retried: the next period is. Like any
 * handler, it runs only in an app given it at composition.
 */
export function defineRecurringJob(
  name: string,
  intervalMs: number | ((config: Config) => number),
  run: (ctx: JobContext, period: { period: number }) => Promise<unknown> | unknown,
): JobHandler {
  const job = defineJob(recurringKind(name), { payload: RecurringPeriod, maxAttempts: 1, concurrency: 1 });
  return {
    ...job.handledBy((payload, ctx) => run(ctx, payload)),
    recurring: { name, intervalMs: typeof intervalMs === 'number' ? () => intervalMs : intervalMs },
  };
}

/** The wait before retry number `attempt` (1-based attempts already made). */
export function backoffFor(options: JobOptions | undefined, attempt: number): number {
  const base = options?.backoffMs ?? DEFAULT_BACKOFF_MS;
  return Math.min(MAX_BACKOFF_MS, base * 2 ** Math.max(0, attempt - 1));
}

/**
 * In-process signals: `wake` when this process enqueued a job (its workers claim at once
 * instead of at their next poll), `finished` with a job id when a worker here ended one.
 * Other processes learn of new jobs by LISTEN/NOTIFY on PostgreSQL, or by polling.
 */
export const jobEvents = new EventEmitter();
jobEvents.setMaxListeners(0);

/** The PostgreSQL channel notified (at commit) when a job is enqueued. */
export const JOBS_CHANNEL = 'quire_jobs';

function isPostgres(db: Executor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Adds a job in the caller's transaction (or on its own when given the database): the
 * job exists if and only if that transaction commits. Handlers act as the system: check
 * what the enqueuer may do before calling this. Reached only through a kind's `enqueue`,
 * so the payload has the kind's type.
 */
async function insertJob<P>(db: Executor, job: JobKind<P, unknown>, payload: P, options: EnqueueOptions): Promise<Enqueued> {
  const now = new Date();
  const runAt = options.runAt && options.runAt > now ? options.runAt : now;
  const row = {
    kind: job.kind,
    payload: JSON.stringify(payload ?? null),
    state: 'queued' as const,
    lane_key: options.key ?? null,
    dedupe_key: options.dedupeKey ?? null,
    attempts: 0,
    max_attempts: Math.max(1, options.maxAttempts ?? job.options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS),
    run_at: runAt.toISOString(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  let enqueued: Enqueued | undefined;
  if (options.dedupeKey === undefined) {
    const inserted = await db.insertInto('jobs').values(row).returning('id').executeTakeFirstOrThrow();
    enqueued = { id: Number(inserted.id), created: true };
  } else {
    // A finished duplicate between the insert and the read: try again (bounded).
    for (let round = 0; round < 5 && !enqueued; round++) {
      const inserted = await db
        .insertInto('jobs')
        .values(row)
        .onConflict((oc) => oc.column('dedupe_key').where(sql<boolean>`dedupe_key is not null and state in ('queued', 'running')`).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) {
        enqueued = { id: Number(inserted.id), created: true };
        break;
      }
      const existing = await db
        .selectFrom('jobs')
        .select('id')
        .where('dedupe_key', '=', options.dedupeKey)
        .where('state', 'in', ['queued', 'running'])
        .executeTakeFirst();
      if (existing) enqueued = { id: Number(existing.id), created: false };
    }
    if (!enqueued) throw new Error(`could not enqueue "${job.kind}" with dedupe key "${options.dedupeKey}"`);
  }
  if (enqueued.created) {
    // Delivered when the transaction commits, never when it rolls back.
    if (isPostgres(db)) await sql`select pg_notify(${JOBS_CHANNEL}, '')`.execute(db);
    // On SQLite the open transaction holds the only connection, so a woken worker's claim
    // runs after the commit; on PostgreSQL a claim before commit finds nothing, and the
    // notification wakes it again.
    setImmediate(() => jobEvents.emit('wake'));
  }
  return enqueued;
}

export async function findJob(db: Executor, id: number): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Waits until a job is done, failed or cancelled (in any process) and returns its row;
 * undefined when `timeoutMs` passed first. Reads the row again when a worker here ends a
 * job, and otherwise every so often (starting fast, as most jobs waited for are short).
 */
export async function waitForJob(db: Executor, id: number, timeoutMs: number): Promise<JobRow | undefined> {
  const deadline = Date.now() + timeoutMs;
  let delay = 20;
  for (;;) {
    const job = await findJob(db, id);
    if (!job) throw new Error(`job ${id} does not exist`);
    if (job.state === 'done' || job.state === 'failed' || job.state === 'cancelled') return job;
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    await new Promise<void>((resolve) => {
      const onFinished = (finished: number) => {
        if (finished === id) done();
      };
      const timer = setTimeout(() => done(), Math.min(delay, left));
      function done() {
        clearTimeout(timer);
        jobEvents.off('finished', onFinished);
        resolve();
      }
      jobEvents.on('finished', onFinished);
    });
    delay = Math.min(250, delay * 2);
  }
}
