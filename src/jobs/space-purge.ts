import { removeSpaceCache } from '../modules/git-sync/git-sync.remote.ts';
import { purgeExpiredSpaces } from '../modules/spaces/spaces.service.ts';
import { defineRecurringJob } from './queue.ts';

/*
 * Purges spaces deleted more than 7 days ago, once per SPACE_PURGE_INTERVAL_MS (0: never),
 * in one process per period. Each space is purged in its own transaction that re-reads
 * the row, so even an overlapping run (a period claimed while an expired lease's run
 * resumes) never purges a space twice.
 */
defineRecurringJob('space-purge', (config) => config.spacePurgeIntervalMs, async (ctx) => {
  const purged = await purgeExpiredSpaces(ctx);
  // The git fetch cache of this machine (each machine has its own).
  for (const spaceId of purged) await removeSpaceCache(ctx.config, spaceId);
  if (purged.length > 0) ctx.log.info({ purged }, 'space purge');
  return { purged: purged.length };
});
