import { defineJob, enqueueJob, findJob, type Executor } from '../../jobs/queue.ts';
import { runTranslation } from './translations.run.ts';

/*
 * A translation runs as a job (src/jobs): one lane per translation, so two runs of the
 * same translation never overlap. Requests made while a run waits join it; a request
 * made while one runs (it may have read the source already) queues one more behind it.
 */

export const RUN_TRANSLATION_JOB = 'translations.run';

interface RunTranslationJob {
  translationId: string;
}

/** In the caller's transaction: the run happens if and only if it commits. */
export async function requestTranslationRun(db: Executor, translationId: string): Promise<void> {
  const lane = `translations.run:${translationId}`;
  const first = await enqueueJob<RunTranslationJob>(db, { kind: RUN_TRANSLATION_JOB, payload: { translationId }, key: lane, dedupeKey: lane });
  if (first.created) return;
  const found = await findJob(db, first.id);
  if (found?.state !== 'running') return;
  await enqueueJob<RunTranslationJob>(db, { kind: RUN_TRANSLATION_JOB, payload: { translationId }, key: lane, dedupeKey: `${lane}:after:${first.id}` });
}

defineJob<RunTranslationJob>(RUN_TRANSLATION_JOB, {
  // Provider failures end the run as failed (kept on the translation), not the job: only
  // an unexpected error (the database) makes the queue retry it.
  run: (payload, ctx) => runTranslation(ctx, payload.translationId, ctx.log),
  concurrency: 2,
  maxAttempts: 3,
});
