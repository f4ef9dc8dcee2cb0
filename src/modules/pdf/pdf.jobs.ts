import { defineRecurringJob, type JobHandler } from '../../jobs/queue.ts';
import { pdfExportJob } from './pdf.job-kinds.ts';
import { makePdfExport, sweepExpiredPdfs } from './pdf.service.ts';

/** How often expired PDF exports are removed (a download of an expired one removes it at once). */
export const PDF_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** What runs the PDF jobs (kinds in pdf.job-kinds.ts), given to the app at composition (src/composition.ts). */
export const pdfJobs: JobHandler[] = [
  pdfExportJob.handledBy((payload, ctx) => makePdfExport(ctx, payload)),
  /*
   * Removes expired PDF exports (rows and files), once per period in one process. Each row
   * is deleted by a statement that re-checks its expiry, and only the caller that deleted
   * it removes the file.
   */
  defineRecurringJob('pdf-sweep', PDF_SWEEP_INTERVAL_MS, async (ctx) => {
    const removed = await sweepExpiredPdfs(ctx);
    if (removed > 0) ctx.log.info({ removed }, 'PDF export sweep');
    return { removed };
  }),
];
