import { Type } from 'typebox';
import { defineJob, findJob, type Executor } from '../../jobs/queue.ts';

/*
 * Spec processing runs on the job queue: create and PUT enqueue `openapi.process` in
 * their transaction, and the `openapi-refresh` schedule (OPENAPI_REFRESH_INTERVAL_MS, one
 * process per period) enqueues it for every spec with a source URL. One lane per spec;
 * at most one waits, and a request made while one runs queues one behind it (the running
 * one may have read the source before it changed). The handlers are in openapi-specs.jobs.ts.
 */

export const processSpecJob = defineJob('openapi.process', {
  payload: Type.Object({ specId: Type.String() }),
  concurrency: 2,
  maxAttempts: 3,
});

export async function requestSpecProcessing(db: Executor, specId: string): Promise<void> {
  const lane = `openapi.process:${specId}`;
  const first = await processSpecJob.enqueue(db, { specId }, { key: lane, dedupeKey: lane });
  if (first.created) return;
  const found = await findJob(db, first.id);
  if (found?.state !== 'running') return;
  await processSpecJob.enqueue(db, { specId }, { key: lane, dedupeKey: `${lane}:after:${first.id}` });
}
