import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAfterJobs, type TestApp } from '../../../test/app.ts';
import { createOrganization, type TestOrganization } from '../../../test/factories.ts';
import { createRepository, git, type GitServer } from '../../../test/git-server.ts';
import { gitSyncTestApp } from '../../../test/git-sync-app.ts';

/*
 * GitBook's Git Sync output of 2021 (commits `GitBook: [#NN] ...`: SUMMARY.md at the top,
 * README.md, `.gitbook/assets`, `{% hint %}`, `{% embed %}`, `{% content-ref %}`, front
 * matter, `&#x20;`, trailing blank lines), imported and exported untouched to a repository
 * that has never seen it, comes back byte for byte: every page file as it was read, the
 * assets, and SUMMARY.md. The fixture (test/fixtures/git-sync-2021) is our own text in
 * that layout.
 */

const FIXTURE = path.join(import.meta.dirname, '../../../test/fixtures/git-sync-2021');

function readFixture(dir = FIXTURE): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  for (const name of fs.readdirSync(dir)) {
    const full = path.join(dir, name);
    if (fs.statSync(full).isDirectory()) for (const [p, bytes] of Object.entries(readFixture(full))) files[`${name}/${p}`] = bytes;
    else files[name] = fs.readFileSync(full);
  }
  return files;
}

/** path -> blob id of a branch's tree. */
function treeOf(bare: string, ref: string): Record<string, string> {
  const tree: Record<string, string> = {};
  for (const line of git(bare, 'ls-tree', '-r', ref).trim().split('\n')) {
    const [meta, p] = line.split('\t');
    tree[p] = meta.split(' ')[2];
  }
  return tree;
}

/** Where two texts part, for the failure message. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: ${JSON.stringify(a.slice(Math.max(0, i - 20), i + 40))} became ${JSON.stringify(b.slice(Math.max(0, i - 20), i + 40))}`;
}

describe('git sync: an untouched export of GitBook 2021 output', () => {
  let t: TestApp;
  let server: GitServer;
  let org: TestOrganization;

  beforeAll(async () => {
    ({ t, server } = await gitSyncTestApp());
    org = await createOrganization(t, { title: 'Lantern' });
  }, 120_000);
  afterAll(() => closeAfterJobs(t, server), 120_000);

  async function run(spaceId: string, direction: 'import' | 'export', body: Record<string, unknown>) {
    const res = await t.request('POST', `/v1/spaces/${spaceId}/git/${direction}`, { token: org.admin.token, body });
    expect(res.status, res.text).toBe(204);
    await t.runJobsUntilIdle();
  }

  it('comes back byte for byte, SUMMARY.md included, to a repository that never saw it', { timeout: 180_000 }, async () => {
    const source = createRepository(server, 'gitbook-2021', readFixture());
    git(source.work, 'commit', '--quiet', '--amend', '-m', 'GitBook: [#28] No subject');
    git(source.work, 'push', '--quiet', '--force', 'origin', 'HEAD:refs/heads/main');
    const space = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Lantern' } });
    await run(space.body.id, 'import', { url: server.url('gitbook-2021'), ref: 'refs/heads/main' });
    const content = await t.request('GET', `/v1/spaces/${space.body.id}/content`, { token: org.admin.token });
    expect(content.body.pages.length).toBeGreaterThan(2);

    createRepository(server, 'fresh', { 'placeholder.txt': 'x' });
    await run(space.body.id, 'export', { url: server.url('fresh'), ref: 'refs/heads/gitbook', commitMessage: 'Untouched export' });
    const exported = treeOf(path.join(server.root, 'fresh.git'), 'refs/heads/gitbook');
    const original = treeOf(source.bare, 'main');
    const differing = Object.keys(original).filter((p) => exported[p] !== original[p]);
    const diffs = differing.map((p) => `${p}: ${exported[p] ? firstDifference(git(source.bare, 'cat-file', 'blob', original[p]), git(path.join(server.root, 'fresh.git'), 'cat-file', 'blob', exported[p])) : '(missing)'}`);
    expect(differing, diffs.join('\n')).toEqual([]);
    expect(Object.keys(exported).sort()).toEqual(Object.keys(original).sort());
  });
});
