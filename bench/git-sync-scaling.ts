import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { createDeps } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { JobContext } from '../src/jobs/queue.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { editSpaceContent } from '../src/modules/content/content.service.ts';
import { runExport } from '../src/modules/git-sync/git-sync.export.ts';
import { runImport } from '../src/modules/git-sync/git-sync.import.ts';
import type { GitOperation } from '../src/modules/git-sync/git-sync.job-kinds.ts';
import { loadSnapshot } from '../src/content/store/snapshot.ts';
import { spacesRepository } from '../src/modules/spaces/spaces.repository.ts';
import { createRepository, startGitServer } from '../test/git-server.ts';
import { median, tempDir } from './harness.ts';
import { pageMarkdown, seedAdmin, seedSpace } from './scenarios/content.ts';

export interface GitSyncScaling {
  largePages: number;
  smallPages: number;
  /** Import of the large repository (fetch, read, one revision), ms. */
  importMs: number;
  smallImportMs: number;
  /** Export after a one-page edit (median ms). */
  largeExportMs: number;
  smallExportMs: number;
  ratio: number;
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

/** A GitBook-layout repository: `folders` chapters (README.md) of `perFolder` pages, one asset per chapter. */
function layoutFiles(folders: number, perFolder: number): Record<string, string | Buffer> {
  const files: Record<string, string | Buffer> = {};
  const summary = ['# Table of contents', '', '* [Home](README.md)'];
  files['README.md'] = '# Home\n\nWelcome.\n';
  let n = 0;
  for (let f = 0; f < folders; f++) {
    files[`chapter-${f}/README.md`] = `# Chapter ${f}\n\n![Figure](../.gitbook/assets/figure-${f}.png)\n`;
    files[`.gitbook/assets/figure-${f}.png`] = Buffer.concat([PNG, Buffer.from(String(f))]);
    summary.push(`* [Chapter ${f}](chapter-${f}/README.md)`);
    for (let p = 0; p < perFolder; p++) {
      const body = pageMarkdown(n++).replace(/^# .*\n/, '');
      files[`chapter-${f}/topic-${p}.md`] = `# Topic ${f}.${p}\n\n${body}\nSee [the chapter](README.md).\n`;
      summary.push(`  * [Topic ${f}.${p}](chapter-${f}/topic-${p}.md)`);
    }
  }
  files['SUMMARY.md'] = summary.join('\n') + '\n';
  return files;
}

/**
 * Import of a generated 2,000-page repository with assets, then exports after a one-page
 * edit, against the same in a 20-page repository; exports alternate between the two so
 * machine noise falls on both. Target: the large export costs at most 3 times the small one.
 */
export async function measureGitSyncScaling(exports = 5): Promise<GitSyncScaling> {
  const dir = tempDir('git-sync-scaling');
  const server = await startGitServer();
  const handle = openDatabase({ dataDir: dir });
  try {
    await migrateToLatest(handle.db);
    const clock = new ManualClock('2026-01-05T09:00:00.000Z');
    const config = { ...loadConfig({ DATA_DIR: dir }), outboundAllowPrivate: true };
    const deps = createDeps({ config, db: handle.db, dialect: 'sqlite', clock });
    const ctx: JobContext = { ...deps, log: pino({ level: 'silent' }), jobId: 0, attempt: 1, signal: new AbortController().signal };
    const admin = await handle.db.transaction().execute((trx) => seedAdmin(trx, clock));
    const sizes = { large: [40, 49], small: [4, 4] } as const; // (1 + folders × (1 + perFolder)) pages
    const spaces: Record<'large' | 'small', { spaceId: string; op: Omit<GitOperation, 'direction'>; pages: number; importMs: number }> = {} as never;
    for (const name of ['large', 'small'] as const) {
      const [folders, perFolder] = sizes[name];
      createRepository(server, name, layoutFiles(folders, perFolder));
      const { spaceId } = await handle.db.transaction().execute((trx) => seedSpace(trx, admin.organizationId, admin.userId, clock, 1, 0));
      const op = { spaceId, userId: admin.userId, remote: server.url(name), ref: 'refs/heads/main', projectDirectory: '', force: false, standalone: false, commitMessage: 'Edit' };
      const started = performance.now();
      const outcome = await runImport(ctx, { ...op, direction: 'import' });
      const importMs = performance.now() - started;
      if (outcome.status !== 'success') throw new Error(`import failed: ${outcome.error}`);
      const space = await spacesRepository.findActive(handle.db, spaceId);
      const pages = (await loadSnapshot(handle.db, spaceId, space!.revision_id!)).byId.size;
      spaces[name] = { spaceId, op, pages, importMs };
    }
    const times = { large: [] as number[], small: [] as number[] };
    for (let i = 0; i < exports + 1; i++) {
      for (const name of ['large', 'small'] as const) {
        const { spaceId, op } = spaces[name];
        const space = await spacesRepository.findActive(handle.db, spaceId);
        const snapshot = await loadSnapshot(handle.db, spaceId, space!.revision_id!);
        const target = snapshot.pages[1].children[Math.floor(snapshot.pages[1].children.length / 2)].entry.id;
        await editSpaceContent(deps, spaceId, admin.userId, (editor) => editor.updatePage(target, { markdown: pageMarkdown(900_000 + i) }));
        const started = performance.now();
        const outcome = await runExport(ctx, { ...op, direction: 'export', commitMessage: `Edit ${i}` });
        const elapsed = performance.now() - started;
        if (outcome.status !== 'success') throw new Error(`export failed: ${outcome.status} ${outcome.error ?? ''}`);
        if (i > 0) times[name].push(elapsed); // the first warms caches and the JIT
      }
    }
    const largeExportMs = median(times.large);
    const smallExportMs = median(times.small);
    return {
      largePages: spaces.large.pages,
      smallPages: spaces.small.pages,
      importMs: spaces.large.importMs,
      smallImportMs: spaces.small.importMs,
      largeExportMs,
      smallExportMs,
      ratio: largeExportMs / smallExportMs,
    };
  } finally {
    await handle.close();
    await server.close();
    fs.rmSync(path.resolve(dir), { recursive: true, force: true });
  }
}

// `node --import tsx bench/git-sync-scaling.ts`: this measure alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  measureGitSyncScaling(Number(process.argv[2] ?? 5)).then((r) => console.log(JSON.stringify(r, null, 2)));
}
