import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { closeAfterJobs, type TestApp } from './app.ts';
import { createOrganization, createSpace, type TestOrganization, type TestSpace } from './factories.ts';
import { createRepository, git, type GitServer } from './git-server.ts';
import { gitSyncTestApp } from './git-sync-app.ts';

/*
 * The setup git sync's suites share: a test app that reaches a git server, one
 * organization, and spaces imported from and exported to that server's repositories.
 */

export interface GitSyncSuite {
  /** Set in the suite's `beforeAll`: read them inside tests. */
  t: TestApp;
  server: GitServer;
  org: TestOrganization;
  /** A new space of the organization, imported from the server's repository `repository` (main branch), jobs run. */
  importedSpace(title: string, repository: string): Promise<TestSpace>;
  /** Exports a space untouched to a new repository `repository` (branch `gitbook`), jobs run: the exported tree. */
  exportToNew(spaceId: string, repository: string): Promise<Record<string, string>>;
  /** The bare repository `repository` of the server. */
  bare(repository: string): string;
}

/** Registers the suite's `beforeAll` (app, git server, organization titled `orgTitle`) and `afterAll`. */
export function gitSyncSuite(orgTitle: string): GitSyncSuite {
  const suite = {
    bare: (repository: string) => path.join(suite.server.root, `${repository}.git`),
    async importedSpace(title: string, repository: string) {
      const space = await createSpace(suite.t, { organization: suite.org, title });
      await gitRun(suite, space.id, 'import', { url: suite.server.url(repository), ref: 'refs/heads/main' });
      return space;
    },
    async exportToNew(spaceId: string, repository: string) {
      createRepository(suite.server, repository, { 'placeholder.txt': 'x' });
      await gitRun(suite, spaceId, 'export', { url: suite.server.url(repository), ref: 'refs/heads/gitbook', commitMessage: 'Untouched export' });
      return treeOf(suite.bare(repository), 'refs/heads/gitbook');
    },
  } as GitSyncSuite;
  beforeAll(async () => {
    ({ t: suite.t, server: suite.server } = await gitSyncTestApp());
    suite.org = await createOrganization(suite.t, { title: orgTitle });
  }, 120_000);
  afterAll(() => closeAfterJobs(suite.t, suite.server), 120_000);
  return suite;
}

/** An import or export as the organization's admin, which must be accepted; then its jobs run. */
async function gitRun(suite: GitSyncSuite, spaceId: string, direction: 'import' | 'export', body: Record<string, unknown>): Promise<void> {
  const res = await suite.t.request('POST', `/v1/spaces/${spaceId}/git/${direction}`, { token: suite.org.admin.token, body });
  expect(res.status, res.text).toBe(204);
  await suite.t.runJobsUntilIdle();
}

/** path -> blob id of a branch's tree. */
export function treeOf(bare: string, ref: string): Record<string, string> {
  const tree: Record<string, string> = {};
  for (const line of git(bare, 'ls-tree', '-r', ref).trim().split('\n')) {
    const [meta, p] = line.split('\t');
    tree[p] = meta.split(' ')[2];
  }
  return tree;
}
