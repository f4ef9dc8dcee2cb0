import { jobsRepository } from './jobs.repository.ts';
import { defineRecurringJob } from './queue.ts';

const HOUR = 60 * 60 * 1000;
/** Done and cancelled jobs are kept this long (to see what ran), failed ones longer (to retry). */
export const FINISHED_JOB_RETENTION_MS = 24 * HOUR;
export const FAILED_JOB_RETENTION_MS = 30 * 24 * HOUR;

/** Deletes old finished jobs and old recurring-period claims, hourly, in one process. */
export const jobsHousekeeping = defineRecurringJob('jobs-housekeeping', HOUR, async (ctx) => {
  const now = Date.now();
  const finishedBefore = new Date(now - FINISHED_JOB_RETENTION_MS).toISOString();
  const jobs = await jobsRepository.deleteFinished(ctx.db, finishedBefore, new Date(now - FAILED_JOB_RETENTION_MS).toISOString());
  const periods = await jobsRepository.deletePeriodsBefore(ctx.db, finishedBefore);
  return { jobs, periods };
});
