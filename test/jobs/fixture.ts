import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import { Type } from 'typebox';
import { defineJob, defineRecurringJob, type JobHandler } from '../../src/jobs/queue.ts';

/*
 * Job kinds for the queue's tests. Each records what it did in `job_effects` (created by
 * createEffectsTable), so tests count side effects: which process ran what, and when.
 * Given (testJobs) to the test apps and to test/jobs/server.ts (a real server with these kinds).
 */

export async function createEffectsTable(db: Db): Promise<void> {
  await sql`create table if not exists job_effects (
    label varchar(200) not null,
    pid integer not null,
    at_ms bigint not null
  )`.execute(db);
}

export interface Effect {
  label: string;
  pid: number;
  at_ms: number;
}

export async function effects(db: Db, prefix = ''): Promise<Effect[]> {
  const { rows } = await sql<Effect>`select label, pid, at_ms from job_effects where label like ${prefix + '%'} order by at_ms, label`.execute(db);
  return rows.map((r) => ({ ...r, pid: Number(r.pid), at_ms: Number(r.at_ms) }));
}

async function record(db: Db, label: string): Promise<void> {
  await sql`insert into job_effects (label, pid, at_ms) values (${label}, ${process.pid}, ${Date.now()})`.execute(db);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Records `count:<n>` once it ran. */
export const countJob = defineJob('test.count', { payload: Type.Object({ n: Type.Integer(), ms: Type.Optional(Type.Integer()) }) });

/** Records its start, works `ms`, records its end: a process killed between the two never records the end. */
export const slowJob = defineJob('test.slow', { payload: Type.Object({ label: Type.String(), ms: Type.Integer() }) });

/** Records each attempt, then fails. */
export const failJob = defineJob('test.fail', { payload: Type.Object({ label: Type.String() }), maxAttempts: 3, backoffMs: 100 });

/** Records its start and end, `ms` apart: lane tests check these never overlap within a key. */
export const laneJob = defineJob('test.lane', { payload: Type.Object({ key: Type.String(), n: Type.Integer(), ms: Type.Integer() }) });

/** The test kinds with their handlers, given to the test app or server beside the app's own. */
export const testJobs: JobHandler[] = [
  countJob.handledBy(async (payload, ctx) => {
    if (payload.ms) await sleep(payload.ms);
    await record(ctx.db, `count:${payload.n}`);
  }),
  slowJob.handledBy(async (payload, ctx) => {
    await record(ctx.db, `slow-start:${payload.label}`);
    await sleep(payload.ms);
    await record(ctx.db, `slow-end:${payload.label}`);
  }),
  failJob.handledBy(async (payload, ctx) => {
    await record(ctx.db, `fail:${payload.label}:${ctx.attempt}`);
    throw new Error(`${payload.label} broke on attempt ${ctx.attempt}`);
  }),
  laneJob.handledBy(async (payload, ctx) => {
    await record(ctx.db, `lane:${payload.key}:${String(payload.n).padStart(3, '0')}:start`);
    await sleep(payload.ms);
    await record(ctx.db, `lane:${payload.key}:${String(payload.n).padStart(3, '0')}:end`);
  }),
  /** Every TEST_TICK_MS (off when unset): records the period it ran for. */
  defineRecurringJob('test.tick', () => Number(process.env.TEST_TICK_MS ?? 0), async (ctx, { period }) => {
    await record(ctx.db, `tick:${period}`);
  }),
];
