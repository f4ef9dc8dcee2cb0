import type { JobHandler } from '../../jobs/queue.ts';
import { runTranslationJob } from './translations.job-kinds.ts';
import { runTranslation } from './translations.run.ts';

/** What runs translations' jobs (kinds in translations.job-kinds.ts), given to the app at composition (src/composition.ts). */
export const translationsJobs: JobHandler[] = [
  // Provider failures end the run as failed (kept on the translation), not the job: only
  // an unexpected error (the database) makes the queue retry it.
  runTranslationJob.handledBy((payload, ctx) => runTranslation(ctx, payload.translationId, ctx.log)),
];
