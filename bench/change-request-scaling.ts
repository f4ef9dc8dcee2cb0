import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { createFileStore } from '../src/files/index.ts';
import { createMarkdownReader } from '../src/content/markdown/page-reader.ts';
import { createOutboundClient } from '../src/lib/outbound/index.ts';
import { serviceContext, type Context } from '../src/context.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { TtlCache } from '../src/lib/ttl-cache.ts';
import { applyContentChanges } from '../src/modules/content/content.batch.ts';
import { createChangeRequest, mergeChangeRequest } from '../src/modules/change-requests/change-requests.service.ts';
import { median, tempDir } from './harness.ts';
import { CHILDREN, PARENTS, pageMarkdown, seedAdmin, seedSpace } from './scenarios/content.ts';

export interface ChangeRequestScaling {
  largePages: number;
  smallPages: number;
  edit: { largeMedianMs: number; smallMedianMs: number; ratio: number };
  merge: { largeMedianMs: number; smallMedianMs: number; ratio: number };
}

/**
 * A one-page batch edit of a change request (POST {CR}/content's work) and its merge
 * (POST {CR}/merge's work), timed through the services on SQLite in a 10,000-page space
 * and in a 10-page space, alternating between the two; medians, and their ratio (target 2
 * or less each). Each round opens a fresh change request; main moves on between rounds.
 */
export async function measureChangeRequestScaling(rounds = 30): Promise<ChangeRequestScaling> {
  const dir = tempDir('cr-scaling');
  const handle = openDatabase({ dataDir: dir });
  try {
    await migrateToLatest(handle.db);
    const clock = new ManualClock('2026-01-05T09:00:00.000Z');
    const admin = await handle.db.transaction().execute((trx) => seedAdmin(trx, clock));
    const large = await handle.db.transaction().execute((trx) => seedSpace(trx, admin.organizationId, admin.userId, clock, PARENTS, CHILDREN));
    const small = await handle.db.transaction().execute((trx) => seedSpace(trx, admin.organizationId, admin.userId, clock, 2, 4));
    const config = loadConfig({ DATA_DIR: dir });
    const ctx: Context = serviceContext(
      {
        db: handle.db,
        dialect: 'sqlite',
        config,
        clock,
        caches: { memberships: new TtlCache(0), listings: new TtlCache(0), searchResults: new TtlCache(0) },
        files: createFileStore({ config, db: handle.db, dialect: 'sqlite' }),
        outbound: createOutboundClient({}),
        markdown: createMarkdownReader(config.markdownReader),
      },
      { userId: admin.userId, tokenId: 'bench', organizationId: null },
      'bench',
      pino({ level: 'silent' }),
    );
    const times = { large: { edit: [] as number[], merge: [] as number[] }, small: { edit: [] as number[], merge: [] as number[] } };
    for (let i = 0; i < rounds + 3; i++) {
      for (const [name, space] of [['large', large], ['small', small]] as const) {
        const { changeRequest: cr } = await createChangeRequest(ctx, space.spaceId, { subject: `Round ${i}` });
        let started = performance.now();
        await applyContentChanges(ctx, space.spaceId, cr.id, [{ operation: 'update_page', page: space.pageId, document: { markdown: pageMarkdown(200_000 + i) } }], true);
        const edit = performance.now() - started;
        started = performance.now();
        await mergeChangeRequest(ctx, space.spaceId, cr.id);
        const merge = performance.now() - started;
        // The first rounds warm caches and the JIT: not counted.
        if (i >= 3) {
          times[name].edit.push(edit);
          times[name].merge.push(merge);
        }
      }
    }
    const summary = (large: number[], small: number[]) => {
      const l = median(large);
      const s = median(small);
      return { largeMedianMs: l, smallMedianMs: s, ratio: l / s };
    };
    return {
      largePages: PARENTS * (CHILDREN + 1),
      smallPages: 10,
      edit: summary(times.large.edit, times.small.edit),
      merge: summary(times.large.merge, times.small.merge),
    };
  } finally {
    await handle.close();
  }
}
