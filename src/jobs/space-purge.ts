import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../context.ts';
import { purgeExpiredSpaces } from '../modules/spaces/spaces.service.ts';

/**
 * Runs the purge of expired deleted spaces every `intervalMs` (and once at start). Every
 * process may run it: each space is purged in its own transaction that re-reads the row,
 * so two processes never purge the same space twice. Returns a stop function.
 */
export function scheduleSpacePurge(deps: AppDeps, log: FastifyBaseLogger, intervalMs: number): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const purged = await purgeExpiredSpaces(deps);
      if (purged.length > 0) log.info({ purged }, 'purged deleted spaces');
    } catch (error) {
      log.error({ err: error }, 'space purge failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  void run();
  return () => clearInterval(timer);
}
