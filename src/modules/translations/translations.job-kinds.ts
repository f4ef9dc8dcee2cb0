import { Type } from 'typebox';
import { defineJob, findJob, type Executor } from '../../jobs/queue.ts';

/*
 * A translation runs as a job (src/jobs): one lane per translation, so two runs of the
 * same translation never overlap. Requests made while a run waits join it; a request
 * made while one runs (it may have read the source already) queues one more behind it.
 * The handler is in translations.jobs.ts.
 */

export const runTranslationJob = defineJob('translations.run', {
  payload: Type.Object({ translationId: Type.String() }),
  concurrency: 2,
  maxAttempts: 3,
});

/** In the caller's transaction: the run happens if and only if it commits. */
export async function requestTranslationRun(db: Executor, translationId: string): Promise<void> {
  const lane = `translations.run:${translationId}`;
  const first = await runTranslationJob.enqueue(db, { translationId }, { key: lane, dedupeKey: lane });
  if (first.created) return;
  const found = await findJob(db, first.id);
  if (found?.state !== 'running') return;
  await runTranslationJob.enqueue(db, { translationId }, { key: lane, dedupeKey: `${lane}:after:${first.id}` });
}
