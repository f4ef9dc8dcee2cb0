import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../context.ts';
import { sweepExpiredPdfs } from '../modules/pdf/pdf.service.ts';
import { scheduleJob } from './schedule.ts';

/** How often expired PDF exports are removed (a download of an expired one removes it at once). */
export const PDF_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Removes expired PDF exports (rows and files under DATA_DIR/exports) every `intervalMs`
 * and once at start. Every process may run it: each row is deleted by a statement that
 * re-checks its expiry, and only the process that deleted it removes the file.
 */
export function schedulePdfSweep(deps: AppDeps, log: FastifyBaseLogger, intervalMs = PDF_SWEEP_INTERVAL_MS): () => void {
  return scheduleJob('PDF export sweep', intervalMs, log, async () => {
    const removed = await sweepExpiredPdfs(deps);
    return removed > 0 ? { removed } : null;
  });
}
