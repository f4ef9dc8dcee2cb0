import type { JobHandler } from './jobs/queue.ts';
import { jobsHousekeeping } from './jobs/housekeeping.ts';
import { conversationsJobs } from './modules/conversations/conversations.jobs.ts';
import { gitSyncJobs } from './modules/git-sync/git-sync.jobs.ts';
import { removeSpaceCache } from './modules/git-sync/git-sync.remote.ts';
import { openapiSpecsJobs } from './modules/openapi-specs/openapi-specs.jobs.ts';
import { pdfJobs } from './modules/pdf/pdf.jobs.ts';
import { spacesJobs } from './modules/spaces/spaces.jobs.ts';
import { translationsJobs } from './modules/translations/translations.jobs.ts';

/*
 * The app's composition of background work: every kind of job a Quire process works,
 * each module's handlers (`<module>.jobs.ts`) over the kinds it owns
 * (`<module>.job-kinds.ts`). buildApp and the worker process are given this list
 * (docs/decisions/jobs.md); nothing registers itself by being imported.
 */
export const appJobs: readonly JobHandler[] = [
  jobsHousekeeping,
  ...pdfJobs,
  ...spacesJobs({ removeLocalCaches: removeSpaceCache }),
  ...conversationsJobs,
  ...gitSyncJobs,
  ...translationsJobs,
  ...openapiSpecsJobs,
];
