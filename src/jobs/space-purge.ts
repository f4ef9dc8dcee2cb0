import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../context.ts';
import { purgeExpiredSpaces } from '../modules/spaces/spaces.service.ts';
import { scheduleJob } from './schedule.ts';

/**
 * Purges spaces deleted more than 7 days ago, every `intervalMs` and once at start. Every
 * process may run it: each space is purged in its own transaction that re-reads the row,
 * so two processes never purge the same space twice. Returns a stop function.
 */
export function scheduleSpacePurge(deps: AppDeps, log: FastifyBaseLogger, intervalMs: number): () => void {
  return scheduleJob('space purge', intervalMs, log, async () => {
    const purged = await purgeExpiredSpaces(deps);
    return purged.length > 0 ? { purged } : null;
  });
}
