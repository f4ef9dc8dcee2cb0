import type { Config } from '../../config.ts';
import { defineRecurringJob, type JobHandler } from '../../jobs/queue.ts';
import { purgeExpiredSpaces } from './spaces.service.ts';

export interface SpacePurgeOptions {
  /** What else this machine keeps of a purged space (git sync's fetch cache), removed after the purge. */
  removeLocalCaches(config: Config, spaceId: string): Promise<void>;
}

/**
 * Purges spaces deleted more than 7 days ago, once per SPACE_PURGE_INTERVAL_MS (0: never),
 * in one process per period. Each space is purged in its own transaction that re-reads
 * the row, so even an overlapping run (a period claimed while an expired lease's run
 * resumes) never purges a space twice. Given the other modules' caches at composition
 * (src/composition.ts), so spaces does not import them.
 */
export function spacesJobs(options: SpacePurgeOptions): JobHandler[] {
  return [
    defineRecurringJob('space-purge', (config) => config.spacePurgeIntervalMs, async (ctx) => {
      const purged = await purgeExpiredSpaces(ctx);
      // The caches of this machine (each machine has its own).
      for (const spaceId of purged) await options.removeLocalCaches(ctx.config, spaceId);
      if (purged.length > 0) ctx.log.info({ purged }, 'space purge');
      return { purged: purged.length };
    }),
  ];
}
