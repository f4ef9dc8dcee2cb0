import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOB_AREA } from '../../src/content/store/blobs.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { presentRunLine } from '../../src/modules/git-sync/git-sync.presenter.ts';
import { listRuns } from '../../src/modules/git-sync/git-sync.service.ts';
import { closeAfterJobs, createTestApp, type TestApp } from '../app.ts';
import { createOrganization, createSpace, type TestOrganization } from '../factories.ts';
import { createRepository, git, startGitServer, type GitServer } from '../git-server.ts';
import { appOnOlderSchema, upgradeDatabase } from '../upgrade.ts';

/*
 * Issue 30: an organization that owns a git server aims at another organization on the
 * same Quire through git sync (the shared fetch cache, blob sizes, URLs with credentials,
 * cache and temporary names steered by request text).
 */

/** The space's sync runs as `cli -- git-sync log` shows them, newest first. */
const runLog = async (db: Parameters<typeof listRuns>[0], spaceId: string) => (await listRuns(db, spaceId)).map(presentRunLine);

const MAX_FILE = 1024 * 1024;
const MAX_IMPORT = 3 * 1024 * 1024;

describe('git sync between tenants', () => {
  let t: TestApp;
  let victimServer: GitServer;
  let attackerServer: GitServer;
  let victim: TestOrganization;
  let attacker: TestOrganization;
  const credentials = { user: 'acme-bot', password: 'pr1vate-Pa55' };
  const SECRET = 'SECRET_API_KEY=hunter2-do-not-leak';

  beforeAll(async () => {
    // Small caps so a file just over them is quick to make; the 800 MB case was measured by hand (docs/operations.md).
    t = await createTestApp({ outboundAllowPrivate: true, gitSyncMaxFileBytes: MAX_FILE, gitSyncMaxImportBytes: MAX_IMPORT });
    victimServer = await startGitServer(credentials);
    attackerServer = await startGitServer();
    victim = await createOrganization(t, { title: 'Acme' });
    attacker = await createOrganization(t, { title: 'Mallory' });
  }, 120_000);
  afterAll(() => closeAfterJobs(t, victimServer, attackerServer), 120_000);

  async function sync(org: TestOrganization, spaceId: string, direction: 'import' | 'export', body: Record<string, unknown>) {
    const res = await t.request('POST', `/v1/spaces/${spaceId}/git/${direction}`, { token: org.admin.token, body });
    expect(res.status, res.text).toBe(204);
    await t.runJobsUntilIdle();
  }

  async function pageTitles(org: TestOrganization, spaceId: string): Promise<string[]> {
    const res = await t.request('GET', `/v1/spaces/${spaceId}/content`, { token: org.admin.token });
    expect(res.status).toBe(200);
    const flat = (pages: any[]): any[] => pages.flatMap((p) => [p, ...flat(p.pages ?? [])]);
    return flat(res.body.pages).map((p) => p.title);
  }

  /** Points a branch of a bare repository at any object id, present or not (what a hostile server may advertise). */
  function advertise(bare: string, branch: string, oid: string) {
    fs.mkdirSync(path.join(bare, 'refs/heads'), { recursive: true });
    fs.writeFileSync(path.join(bare, 'refs/heads', branch), `${oid}\n`);
  }

  function hasObject(bare: string, oid: string): boolean {
    try {
      git(bare, 'cat-file', '-e', oid);
      return true;
    } catch {
      return false;
    }
  }

  it("never answers another organization's fetch with objects fetched for a victim's private repository", async () => {
    const privateRepo = createRepository(victimServer, 'acme-private', {
      'README.md': '# Acme internal roadmap\n\nNot for outside eyes.\n',
      'config/.env': `${SECRET}\n`,
    });
    const secretCommit = git(privateRepo.bare, 'rev-parse', 'main').trim();
    const victimSpace = (await createSpace(t, { organization: victim, title: 'Docs' })).id;
    await sync(victim, victimSpace, 'import', { url: victimServer.url('acme-private', credentials), ref: 'refs/heads/main', repoCacheID: 'acme-docs' });
    expect(await pageTitles(victim, victimSpace)).toContain('Acme internal roadmap');

    // The attacker's server advertises the victim's commit (learnt from the fetch negotiation) as its main branch.
    const bait = createRepository(attackerServer, 'bait', { 'README.md': '# Bait\n' });
    advertise(bait.bare, 'main', secretCommit);
    const attackerSpace = (await createSpace(t, { organization: attacker, title: 'Docs' })).id;
    await sync(attacker, attackerSpace, 'import', { url: attackerServer.url('bait'), ref: 'refs/heads/main', repoCacheID: 'acme-docs', force: true });
    expect(await pageTitles(attacker, attackerSpace)).not.toContain('Acme internal roadmap');
    expect((await runLog(t.db, attackerSpace))[0]).toContain('failure');

    // Without a cache id the URL alone was the key: the same bait without repoCacheID, then an export to a branch it lacks.
    await sync(attacker, attackerSpace, 'import', { url: attackerServer.url('bait'), ref: 'refs/heads/main', force: true });
    expect(await pageTitles(attacker, attackerSpace)).not.toContain('Acme internal roadmap');
    const drop = createRepository(attackerServer, 'drop', { 'README.md': '# Drop\n' });
    await sync(attacker, attackerSpace, 'export', { url: attackerServer.url('bait'), ref: 'refs/heads/exfiltrate', repoCacheID: 'acme-docs', commitMessage: 'Take it' });
    await sync(attacker, attackerSpace, 'export', { url: attackerServer.url('drop'), ref: 'refs/heads/exfiltrate', repoCacheID: 'acme-docs', commitMessage: 'Take it' });
    for (const bare of [bait.bare, drop.bare]) {
      expect(hasObject(bare, secretCommit)).toBe(false);
      const everything = git(bare, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname)').split('\n').filter(Boolean);
      for (const oid of everything) expect(git(bare, 'cat-file', '-p', oid)).not.toContain(SECRET);
    }

    // The victim's own syncs still work (and stay incremental).
    privateRepo.commit({ 'README.md': '# Acme internal roadmap v2\n' });
    await sync(victim, victimSpace, 'import', { url: victimServer.url('acme-private', credentials), ref: 'refs/heads/main', repoCacheID: 'acme-docs' });
    expect(await pageTitles(victim, victimSpace)).toContain('Acme internal roadmap v2');
  }, 180_000);

  it('stores and serves git URLs without credentials or token parameters (revision git.url, gitSync, job rows, sync state)', async () => {
    createRepository(victimServer, 'acme-urls', { 'README.md': '# Urls\n' });
    const spaceId = (await createSpace(t, { organization: victim, title: 'Docs' })).id;
    await sync(victim, spaceId, 'import', {
      url: victimServer.url('acme-urls', credentials),
      ref: 'refs/heads/main',
      repoCommitURL: 'https://ci-user:commit-pa55@git.acme.test/acme/urls/commit/?access_token=tok-commit-123&view=1&c=',
      repoTreeURL: 'https://tree-user:tree-pa55@git.acme.test/acme/urls/tree/main?token=tok-tree-456',
    });
    const head = git(path.join(victimServer.root, 'acme-urls.git'), 'rev-parse', 'main').trim();
    const current = await t.request('GET', `/v1/spaces/${spaceId}/content`, { token: victim.admin.token });
    expect(current.body.git.url).toBe(`https://git.acme.test/acme/urls/commit/?view=1&c=${head}`);
    const revision = await t.request('GET', `/v1/spaces/${spaceId}/revisions/${current.body.id}`, { token: victim.admin.token });
    expect(revision.body.git.url).toBe(`https://git.acme.test/acme/urls/commit/?view=1&c=${head}`);
    const info = await t.request('GET', `/v1/spaces/${spaceId}/git/info`, { token: victim.admin.token });
    expect(info.body.url).toBe('https://git.acme.test/acme/urls/tree/main');

    const jobs = await t.db.selectFrom('jobs').selectAll().where('kind', 'like', 'git-sync.%').execute();
    const payload = JSON.parse(String(jobs.find((j) => String(j.payload).includes(spaceId))!.payload));
    expect(payload).toMatchObject({ repoCommitURL: 'https://git.acme.test/acme/urls/commit/?view=1&c=', repoTreeURL: 'https://git.acme.test/acme/urls/tree/main' });
    expect((await t.db.selectFrom('git_syncs').selectAll().where('space_id', '=', spaceId).executeTakeFirstOrThrow()).remote).toBe(victimServer.url('acme-urls'));
    for (const table of ['jobs', 'git_syncs', 'git_sync_runs', 'spaces', 'revisions'] as const) {
      const rows = JSON.stringify(await t.db.selectFrom(table).selectAll().execute());
      for (const secret of ['commit-pa55', 'tok-commit-123', 'tree-pa55', 'tok-tree-456', 'ci-user', 'tree-user', credentials.password]) expect(rows).not.toContain(secret);
    }
  }, 180_000);

  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  it('refuses a file over the per-file cap and an import over the total cap, with the run recorded and nothing stored', async () => {
    const zeros = Buffer.alloc(MAX_FILE + 1);
    const repo = createRepository(victimServer, 'acme-big', {
      'README.md': '# Big\n\n![zeros](.gitbook/assets/zeros.png)\n',
      '.gitbook/assets/zeros.png': zeros,
    });
    expect(Number(git(repo.bare, 'count-objects', '-v').match(/size-pack: (\d+)/)![1])).toBeLessThan(64); // KiB: it compresses to almost nothing
    const spaceId = (await createSpace(t, { organization: victim, title: 'Docs' })).id;
    const url = victimServer.url('acme-big', credentials);
    await sync(victim, spaceId, 'import', { url, ref: 'refs/heads/main' });
    const [run] = await t.db.selectFrom('git_sync_runs').selectAll().where('space_id', '=', spaceId).execute();
    expect(run.status).toBe('failure');
    expect(run.error).toContain('.gitbook/assets/zeros.png');
    expect(run.error).toContain(`${MAX_FILE + 1} bytes`);
    expect(run.error).toContain('GIT_SYNC_MAX_FILE_BYTES');
    expect(await pageTitles(victim, spaceId)).toEqual([]);
    expect(await t.app.deps.files.exists(BLOB_AREA, sha256(zeros))).toBe(false);

    // Each file under the cap, together over the import's: refused before any is stored.
    const parts = [1, 2, 3, 4].map((n) => Buffer.alloc(MAX_FILE - 1, n));
    repo.commit({ '.gitbook/assets/zeros.png': null, ...Object.fromEntries(parts.map((bytes, i) => [`.gitbook/assets/part-${i}.bin`, bytes])) });
    await sync(victim, spaceId, 'import', { url, ref: 'refs/heads/main' });
    const last = (await runLog(t.db, spaceId))[0];
    expect(last).toContain('failure');
    expect(last).toContain('GIT_SYNC_MAX_IMPORT_BYTES');
    for (const bytes of parts) expect(await t.app.deps.files.exists(BLOB_AREA, sha256(bytes))).toBe(false);
    expect(await pageTitles(victim, spaceId)).toEqual([]);

    // Under both caps: imported, the file streamed to the file store whole.
    repo.commit({ '.gitbook/assets/part-2.bin': null, '.gitbook/assets/part-3.bin': null });
    await sync(victim, spaceId, 'import', { url, ref: 'refs/heads/main' });
    expect((await runLog(t.db, spaceId))[0]).toContain('success');
    expect(await pageTitles(victim, spaceId)).toEqual(['Big']);
    for (const bytes of parts.slice(0, 2)) expect(await t.app.deps.files.read(BLOB_AREA, sha256(bytes), MAX_FILE)).toEqual(bytes);

    // An export reads the branch's .gitbook.yaml (the remote's text) within the same cap.
    const pushed = repo.commit({ '.gitbook.yaml': Buffer.alloc(MAX_FILE + 1, 0x23) });
    await sync(victim, spaceId, 'export', { url, ref: 'refs/heads/main', commitMessage: 'Export', force: true });
    const exported = (await runLog(t.db, spaceId))[0];
    expect(exported).toMatch(/export\s+failure/);
    expect(exported).toContain('.gitbook.yaml');
    expect(exported).toContain('GIT_SYNC_MAX_FILE_BYTES');
    expect(git(repo.bare, 'rev-parse', 'main').trim()).toBe(pushed);
  }, 180_000);

  it('keys every cache folder by space, whatever repoCacheID says, and refuses branch names git would not take', async () => {
    createRepository(attackerServer, 'names', { 'README.md': '# Names\n' });
    const spaceId = (await createSpace(t, { organization: attacker, title: 'Docs' })).id;
    for (const repoCacheID of ['../x', '../../../../escape', '/tmp/absolute', 'a/../../b', '..', '%2e%2e%2fx']) {
      await sync(attacker, spaceId, 'import', { url: attackerServer.url('names'), ref: 'refs/heads/main', repoCacheID, force: true });
      expect((await runLog(t.db, spaceId))[0]).toContain('success');
    }
    const cacheRoot = path.join(t.dataDir, 'git-cache');
    for (const entry of fs.readdirSync(cacheRoot)) {
      expect(entry).toMatch(/^[A-Za-z0-9]{20}$/); // a space id, nothing else
      for (const inner of fs.readdirSync(path.join(cacheRoot, entry))) expect(inner).toMatch(/^[0-9a-f]{40}$/);
    }
    expect(fs.readdirSync(path.join(cacheRoot, spaceId))).toHaveLength(6);
    expect(fs.readdirSync(t.dataDir).filter((name) => /x|escape|absolute|^b$/.test(name))).toEqual([]);

    for (const ref of ['refs/heads/../../x', 'refs/heads/a..b', 'refs/heads/.hidden', 'refs/heads/x.lock', 'refs/heads/x/', 'refs/heads/a//b', 'refs/heads/a@{1}', 'refs/heads/x.']) {
      const res = await t.request('POST', `/v1/spaces/${spaceId}/git/import`, { token: attacker.admin.token, body: { url: attackerServer.url('names'), ref } });
      expect(res.status, ref).toBe(400);
      expect(res.body.error.message).toContain('body/ref');
    }
  }, 180_000);
});

describe('git URLs stored before (migration 0025)', () => {
  const database = upgradeDatabase('quire-upgrade-git-urls');

  it('strips credentials and token parameters from revisions, job rows, sync state and gitSync; a pending job keeps what git needs', async () => {
    const { app, db, spaceId } = await appOnOlderSchema(database, '0021_section_vectors', 'Synced');
    try {
      const now = new Date().toISOString();
      const { id: revisionId } = await db.selectFrom('revisions').select('id').where('space_id', '=', spaceId).executeTakeFirstOrThrow();
      await db.updateTable('revisions').set({ git: JSON.stringify({ oid: 'a'.repeat(40), ref: 'refs/heads/main', url: `https://ci:commit-pa55@git.acme.test/c/?access_token=tok-1&c=${'a'.repeat(40)}` }) }).where('id', '=', revisionId).execute();
      await db.updateTable('spaces').set({ git_sync: JSON.stringify({ installationId: spaceId, url: 'https://redacted@git.acme.test/tree?token=redacted' }) }).where('id', '=', spaceId).execute();
      await db.insertInto('git_syncs').values({ space_id: spaceId, remote: 'https://git.acme.test/r.git?token=tok-2', ref: 'refs/heads/main', project_directory: '', created_at: now, updated_at: now }).execute();
      const payload = (remote: string) => JSON.stringify({ direction: 'import', spaceId, remote, ref: 'refs/heads/main', repoTreeURL: 'https://t:tree-pa55@git.acme.test/tree', repoCommitURL: 'https://git.acme.test/c/?token=tok-3&c=' });
      const job = (state: 'done' | 'queued', remote: string) => ({ kind: 'git-sync.import', payload: payload(remote), state, attempts: 0, max_attempts: 1, run_at: '2999-01-01T00:00:00.000Z', created_at: now, updated_at: now });
      await db.insertInto('jobs').values([job('done', 'https://git.acme.test/r.git?token=tok-4'), job('queued', 'https://git.acme.test/r.git?token=tok-5')]).execute();

      await migrateToLatest(db);
      const revision = await db.selectFrom('revisions').select('git').where('id', '=', revisionId).executeTakeFirstOrThrow();
      expect(JSON.parse(revision.git!).url).toBe(`https://git.acme.test/c/?c=${'a'.repeat(40)}`);
      expect(JSON.parse((await db.selectFrom('spaces').select('git_sync').where('id', '=', spaceId).executeTakeFirstOrThrow()).git_sync!).url).toBe('https://git.acme.test/tree');
      expect((await db.selectFrom('git_syncs').select('remote').where('space_id', '=', spaceId).executeTakeFirstOrThrow()).remote).toBe('https://git.acme.test/r.git');
      const jobs = await db.selectFrom('jobs').select(['state', 'payload']).where('kind', '=', 'git-sync.import').orderBy('id').execute();
      expect(JSON.parse(jobs[0].payload)).toMatchObject({ remote: 'https://git.acme.test/r.git', repoTreeURL: 'https://git.acme.test/tree', repoCommitURL: 'https://git.acme.test/c/?c=' });
      expect(JSON.parse(jobs[1].payload)).toMatchObject({ remote: 'https://git.acme.test/r.git?token=tok-5', repoTreeURL: 'https://git.acme.test/tree', repoCommitURL: 'https://git.acme.test/c/?c=' });
      for (const table of ['revisions', 'spaces', 'git_syncs', 'jobs'] as const) {
        const rows = JSON.stringify(await db.selectFrom(table).selectAll().execute());
        for (const secret of ['commit-pa55', 'tok-1', 'tree-pa55', 'tok-2', 'tok-3', 'tok-4', 'redacted']) expect(rows, table).not.toContain(secret);
      }
    } finally {
      await app.close();
    }
  }, 120_000);
});
