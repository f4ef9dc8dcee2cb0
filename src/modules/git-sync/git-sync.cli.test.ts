import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { ManualClock } from '../../lib/clock.ts';
import { freshEnvironment, runCli, type Environment } from '../../../test/process.ts';
import { seedAdmin, seedSpace } from '../../../bench/scenarios/content.ts';
import { gitSyncRepository } from './git-sync.repository.ts';

/* `cli -- git-sync log SPACE` in a child process, on the database of the environment. */
describe('cli git-sync log', () => {
  let environment: Environment;
  let spaceId: string;

  beforeAll(async () => {
    environment = await freshEnvironment();
    const handle = openDatabase({ dataDir: environment.dataDir, databaseUrl: environment.env.DATABASE_URL });
    try {
      await migrateToLatest(handle.db);
      const clock = new ManualClock('2026-03-01T10:00:00.000Z');
      const admin = await handle.db.transaction().execute((trx) => seedAdmin(trx, clock));
      ({ spaceId } = await handle.db.transaction().execute((trx) => seedSpace(trx, admin.organizationId, admin.userId, clock, 1, 0)));
      const base = { space_id: spaceId, revision_id: null, change_request_id: null, timestamp: null };
      await gitSyncRepository.insertRun(handle.db, { ...base, id: 'a1', direction: 'import', status: 'success', commit: 'a'.repeat(40), pages_changed: 12, duration_ms: 340, error: null, started_at: '2026-03-01T10:00:00.000Z' });
      await gitSyncRepository.insertRun(handle.db, { ...base, id: 'a2', direction: 'export', status: 'failure', commit: null, pages_changed: 0, duration_ms: 25, error: 'git push failed: rejected', started_at: '2026-03-01T10:05:00.000Z' });
    } finally {
      await handle.close();
    }
  }, 120_000);
  afterAll(async () => {
    await environment?.cleanup();
  });

  it('prints the runs newest first; a missing space id is a usage error', async () => {
    const out = await runCli(environment.env, ['git-sync', 'log', spaceId]);
    expect(out.code, out.stderr).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/export\s+failure .*error: git push failed: rejected/);
    expect(lines[1]).toMatch(/import\s+success\s+aaaaaaaaaaaa\s+12 page\(s\)\s+340 ms/);
    const none = await runCli(environment.env, ['git-sync', 'log', 'unknown-space']);
    expect(none.stdout).toContain('no git sync runs');
    const usage = await runCli(environment.env, ['git-sync', 'log']);
    expect(usage.code).toBe(2);
  }, 60_000);
});
