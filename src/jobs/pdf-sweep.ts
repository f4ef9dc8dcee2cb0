import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../context.ts';
import { sweepExpiredPdfs } from '../modules/pdf/pdf.service.ts';

/** How often expired PDF exports are removed (a download of an expired one removes it at once). */
export const PDF_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Removes expired PDF exports (rows and files under DATA_DIR/exports) every `intervalMs`
 * and once at start. Every process may run it: each row is deleted by a statement that
 * re-checks its expiry, and only the process that deleted it removes the file.
 */
export function schedulePdfSweep(deps: AppDeps, log: FastifyBaseLogger, intervalMs = PDF_SWEEP_INTERVAL_MS): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const removed = await sweepExpiredPdfs(deps);
      if (removed > 0) log.info({ removed }, 'removed expired PDF exports');
    } catch (error) {
      log.error({ err: error }, 'PDF export sweep failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  void run();
  return () => clearInterval(timer);
}
