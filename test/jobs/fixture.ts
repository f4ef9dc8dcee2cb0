import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import { defineJob, defineRecurringJob } from '../../src/jobs/queue.ts';

/*
 * Job kinds for the queue's tests. Each records what it did in `job_effects` (created by
 * createEffectsTable), so tests count side effects: which process ran what, and when.
 * Imported by the test files and by test/jobs/server.ts (a real server with these kinds).
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
defineJob<{ n: number; ms?: number }>('test.count', {
  async run(payload, ctx) {
    if (payload.ms) await sleep(payload.ms);
    await record(ctx.db, `count:${payload.n}`);
  },
});

/** Records its start, works `ms`, records its end: a process killed between the two never records the end. */
defineJob<{ label: string; ms: number }>('test.slow', {
  async run(payload, ctx) {
    await record(ctx.db, `slow-start:${payload.label}`);
    await sleep(payload.ms);
    await record(ctx.db, `slow-end:${payload.label}`);
  },
});

/** Records each attempt, then fails. */
defineJob<{ label: string }>('test.fail', {
  maxAttempts: 3,
  backoffMs: 100,
  async run(payload, ctx) {
    await record(ctx.db, `fail:${payload.label}:${ctx.attempt}`);
    throw new Error(`${payload.label} broke on attempt ${ctx.attempt}`);
  },
});

/** Records its start and end, `ms` apart: lane tests check these never overlap within a key. */
defineJob<{ key: string; n: number; ms: number }>('test.lane', {
  async run(payload, ctx) {
    await record(ctx.db, `lane:${payload.key}:${String(payload.n).padStart(3, '0')}:start`);
    await sleep(payload.ms);
    await record(ctx.db, `lane:${payload.key}:${String(payload.n).padStart(3, '0')}:end`);
  },
});

/** Every TEST_TICK_MS (off when unset): records the period it ran for. */
defineRecurringJob('test.tick', () => Number(process.env.TEST_TICK_MS ?? 0), async (ctx, { period }) => {
  await record(ctx.db, `tick:${period}`);
});
