import { sweepExpiredPdfs } from '../modules/pdf/pdf.service.ts';
import { defineRecurringJob } from './queue.ts';

/** How often expired PDF exports are removed (a download of an expired one removes it at once). */
export const PDF_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/*
 * Removes expired PDF exports (rows and files), once per period in one process. Each row
 * is deleted by a statement that re-checks its expiry, and only the caller that deleted
 * it removes the file.
 */
defineRecurringJob('pdf-sweep', PDF_SWEEP_INTERVAL_MS, async (ctx) => {
  const removed = await sweepExpiredPdfs(ctx);
  if (removed > 0) ctx.log.info({ removed }, 'PDF export sweep');
  return { removed };
});
