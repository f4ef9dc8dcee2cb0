import { defineRecurringJob, type JobHandler } from '../../jobs/queue.ts';
import { processSpecJob } from './openapi-specs.job-kinds.ts';
import { processSpec, refreshSpecs } from './openapi-specs.service.ts';

/** What runs the specs' jobs (kinds in openapi-specs.job-kinds.ts), given to the app at composition (src/composition.ts). */
export const openapiSpecsJobs: JobHandler[] = [
  // A failed fetch or parse is recorded on the spec, not retried: the next refresh or PUT tries again.
  processSpecJob.handledBy((payload, ctx) => processSpec(ctx, payload.specId, ctx.log)),
  defineRecurringJob('openapi-refresh', (config) => config.openapiRefreshIntervalMs, async (ctx) => ({ queued: await refreshSpecs(ctx) })),
];
