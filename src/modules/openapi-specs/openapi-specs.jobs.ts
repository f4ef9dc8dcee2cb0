import { defineJob, defineRecurringJob, enqueueJob, findJob, type Executor } from '../../jobs/queue.ts';
import { processSpec, refreshSpecs } from './openapi-specs.service.ts';

/*
 * Spec processing runs on the job queue: create and PUT enqueue `openapi.process` in
 * their transaction, and the `openapi-refresh` schedule (OPENAPI_REFRESH_INTERVAL_MS, one
 * process per period) enqueues it for every spec with a source URL. One lane per spec;
 * at most one waits, and a request made while one runs queues one behind it (the running
 * one may have read the source before it changed).
 */

export const PROCESS_SPEC_JOB = 'openapi.process';

interface ProcessSpecJob {
  specId: string;
}

export async function requestSpecProcessing(db: Executor, specId: string): Promise<void> {
  const lane = `openapi.process:${specId}`;
  const first = await enqueueJob<ProcessSpecJob>(db, { kind: PROCESS_SPEC_JOB, payload: { specId }, key: lane, dedupeKey: lane });
  if (first.created) return;
  const found = await findJob(db, first.id);
  if (found?.state !== 'running') return;
  await enqueueJob<ProcessSpecJob>(db, { kind: PROCESS_SPEC_JOB, payload: { specId }, key: lane, dedupeKey: `${lane}:after:${first.id}` });
}

defineJob<ProcessSpecJob>(PROCESS_SPEC_JOB, {
  // A failed fetch or parse is recorded on the spec, not retried: the next refresh or PUT tries again.
  run: (payload, ctx) => processSpec(ctx, payload.specId, ctx.log),
  concurrency: 2,
  maxAttempts: 3,
});

defineRecurringJob('openapi-refresh', (config) => config.openapiRefreshIntervalMs, async (ctx) => ({ queued: await refreshSpecs(ctx) }));
