import type { JobHandler } from '../../jobs/queue.ts';
import { runExport } from './git-sync.export.ts';
import { runImport } from './git-sync.import.ts';
import { gitExportJob, gitImportJob } from './git-sync.job-kinds.ts';

/** What runs git sync's jobs (kinds in git-sync.job-kinds.ts), given to the app at composition (src/composition.ts). */
export const gitSyncJobs: JobHandler[] = [
  gitImportJob.handledBy((operation, ctx) => runImport(ctx, operation)),
  gitExportJob.handledBy((operation, ctx) => runExport(ctx, operation)),
];
