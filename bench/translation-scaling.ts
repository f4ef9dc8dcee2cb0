import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.ts';
import { createFileStore } from '../src/files/index.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { editSpaceContent } from '../src/modules/content/content.service.ts';
import { translationsRepository } from '../src/modules/translations/translations.repository.ts';
import { newTranslationRow } from '../src/modules/translations/translations.service.ts';
import { providerSettings, runMetrics, runTranslation } from '../src/modules/translations/translations.run.ts';
import { startProviderStandIn } from '../test/translation-providers.ts';
import { tempDir } from './harness.ts';
import { pageMarkdown, seedAdmin, seedSpace } from './scenarios/content.ts';

export interface TranslationScaling {
  pages: number;
  firstRunMs: number;
  firstProviderMs: number;
  /** Quire's own work per page in the first run (run time less the time waiting for the provider). */
  ownMsPerPage: number;
  secondRunMs: number;
  secondProviderMs: number;
  /** Pages (titles) the provider was sent in the second run: 1 is the target. */
  secondPagesSent: number;
  secondSegmentsSent: number;
  ratio: number;
}

export const TRANSLATION_SCALING = { name: 'translations.run', title: '1,000-page space: first run, then a run after a one-page change', target: 0.1 };

const silent = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * A 1,000-page space (100 top-level pages of 9 subpages, each with headings, marks, links,
 * code) translated through a LibreTranslate stand-in on 127.0.0.1, in process, on SQLite:
 * the first run's time per page of Quire's own work (the provider's time excluded), then
 * one page changed and a second run, which must send that page only and take under a
 * tenth of the first.
 */
export async function measureTranslationScaling(): Promise<TranslationScaling> {
  const dir = tempDir('translation-scaling');
  const handle = openDatabase({ dataDir: dir });
  const provider = await startProviderStandIn('libretranslate');
  try {
    await migrateToLatest(handle.db);
    const clock = new ManualClock('2026-01-05T09:00:00.000Z');
    const admin = await handle.db.transaction().execute((trx) => seedAdmin(trx, clock));
    const space = await handle.db.transaction().execute((trx) => seedSpace(trx, admin.organizationId, admin.userId, clock, 100, 9));
    const config = { ...loadConfig({ DATA_DIR: dir }), translationProvider: 'libretranslate' as const, translationApiUrl: provider.url };
    const deps = { db: handle.db, clock, config, files: createFileStore({ config, db: handle.db, dialect: 'sqlite' }) };
    providerSettings.backoffMs = 10;
    const row = newTranslationRow({
      organizationId: admin.organizationId,
      sourceSpaceId: space.spaceId,
      sourceLanguage: 'en',
      language: 'fr',
      instructions: { object: 'document', data: {}, nodes: [] },
      createdBy: admin.userId,
      now: clock.now().toISOString(),
    });
    const id = row.id;
    await translationsRepository.insert(handle.db, row);

    const timed = async () => {
      provider.reset();
      runMetrics.providerMs = 0;
      const started = performance.now();
      await runTranslation(deps, id, silent);
      const row = await translationsRepository.findById(handle.db, id);
      if (row?.last_run_state !== 'completed') throw new Error(`translation run failed: ${row?.last_run_error}`);
      return { ms: performance.now() - started, providerMs: runMetrics.providerMs, row };
    };
    const first = await timed();
    await editSpaceContent(deps, space.spaceId, admin.userId, (editor) => editor.updatePage(space.pageId, { markdown: pageMarkdown(424_242) }));
    const second = await timed();
    return {
      pages: first.row.latest_pages,
      firstRunMs: first.ms,
      firstProviderMs: first.providerMs,
      ownMsPerPage: (first.ms - first.providerMs) / first.row.latest_pages,
      secondRunMs: second.ms,
      secondProviderMs: second.providerMs,
      secondPagesSent: second.row.latest_pages,
      secondSegmentsSent: provider.segments().length,
      ratio: second.ms / first.ms,
    };
  } finally {
    await provider.close();
    await handle.close();
  }
}
