import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.ts';
import { createFileStore } from '../src/files/index.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { editSpaceContent } from '../src/modules/content/content.service.ts';
import { median, tempDir } from './harness.ts';
import { CHILDREN, PARENTS, pageMarkdown, seedAdmin, seedSpace } from './scenarios/content.ts';

export interface EditScaling {
  largePages: number;
  smallPages: number;
  largeMedianMs: number;
  smallMedianMs: number;
  ratio: number;
  /** Objects one edit writes in the large space (document + trees up to the root). */
  objectsPerEdit: number;
}

/**
 * Time to write a one-page edit (new markdown for one page, committed as a revision and
 * the space moved to it) into a 10,000-page space, divided by the same edit in a 10-page
 * space. Both spaces live in one SQLite file; edits alternate between them so machine
 * noise falls on both alike. The target is 2 or less: an edit costs O(depth), not O(pages).
 */
export async function measureEditScaling(edits = 40): Promise<EditScaling> {
  const dir = tempDir('edit-scaling');
  const handle = openDatabase({ dataDir: dir });
  try {
    await migrateToLatest(handle.db);
    const clock = new ManualClock('2026-01-05T09:00:00.000Z');
    const admin = await handle.db.transaction().execute((trx) => seedAdmin(trx, clock));
    const large = await handle.db.transaction().execute((trx) => seedSpace(trx, admin.organizationId, admin.userId, clock, PARENTS, CHILDREN));
    const small = await handle.db.transaction().execute((trx) => seedSpace(trx, admin.organizationId, admin.userId, clock, 2, 4));
    const config = loadConfig({ DATA_DIR: dir });
    const deps = { db: handle.db, clock, config, files: createFileStore({ config, db: handle.db, dialect: 'sqlite' }) };
    const times = { large: [] as number[], small: [] as number[] };
    const objects = async () => Number((await handle.db.selectFrom('content_objects').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    let objectsPerEdit = 0;
    for (let i = 0; i < edits + 4; i++) {
      for (const [name, space] of [['large', large], ['small', small]] as const) {
        const before = name === 'large' ? await objects() : 0;
        const started = performance.now();
        await editSpaceContent(deps, space.spaceId, admin.userId, (editor) => editor.updatePage(space.pageId, { markdown: pageMarkdown(100_000 + i) }));
        const elapsed = performance.now() - started;
        if (name === 'large') objectsPerEdit = (await objects()) - before;
        // The first edits warm the revision caches and the JIT: not counted.
        if (i >= 4) times[name].push(elapsed);
      }
    }
    const largeMedianMs = median(times.large);
    const smallMedianMs = median(times.small);
    return {
      largePages: PARENTS * (CHILDREN + 1),
      smallPages: 2 * 5,
      largeMedianMs,
      smallMedianMs,
      ratio: largeMedianMs / smallMedianMs,
      objectsPerEdit,
    };
  } finally {
    await handle.close();
  }
}
