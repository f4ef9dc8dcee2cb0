import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAfterJobs, type TestApp } from '../../../test/app.ts';
import { createOrganization, createSpace, type TestOrganization } from '../../../test/factories.ts';
import { createRepository, git, type GitServer } from '../../../test/git-server.ts';
import { gitSyncTestApp } from '../../../test/git-sync-app.ts';
import { okRequests } from '../../../test/link-checks.ts';

/*
 * A SUMMARY.md entry whose path differs from its file's only in case (`readme.md` for
 * README.md, written on a case-insensitive file system): the entry is the one file that
 * matches it case-insensitively, so the page has that file's content, and an untouched
 * export writes SUMMARY.md and the file as they were, under the file's own name (byte
 * for byte, nothing added). Two files matching an entry leave it an empty page (no
 * guess). Made-up text.
 */

const FILES: Record<string, string> = {
  'SUMMARY.md': '# Table of contents\n\n* [Harbour](readme.md)\n* [Moorings](guides/Moorings.md)\n',
  'README.md': '# Harbour\n\nWelcome to the harbour.\n',
  'guides/moorings.md': '# Moorings\n\nTie up at the quay.\n',
};

describe('git sync: SUMMARY.md entries in another case than their files', () => {
  let t: TestApp;
  let server: GitServer;
  let org: TestOrganization;

  beforeAll(async () => {
    ({ t, server } = await gitSyncTestApp());
    org = await createOrganization(t, { title: 'Harbour' });
  }, 120_000);
  afterAll(() => closeAfterJobs(t, server), 120_000);

  const ok = okRequests(() => t, () => org.admin.token);

  /** path -> blob id of a branch's tree. */
  function treeOf(bare: string, ref: string): Record<string, string> {
    const tree: Record<string, string> = {};
    for (const line of git(bare, 'ls-tree', '-r', ref).trim().split('\n')) {
      const [meta, p] = line.split('\t');
      tree[p] = meta.split(' ')[2];
    }
    return tree;
  }

  it('reads the one file an entry names case-insensitively, and exports both untouched', { timeout: 120_000 }, async () => {
    const source = createRepository(server, 'harbour', FILES);
    const space = await createSpace(t, { organization: org, title: 'Harbour' });
    const S = `/v1/spaces/${space.id}`;
    await ok('POST', `${S}/git/import`, { body: { url: server.url('harbour'), ref: 'refs/heads/main' } });
    await t.runJobsUntilIdle();

    const pages = (await ok('GET', `${S}/content`)).pages;
    expect(pages.map((p: any) => [p.title, p.git?.path ?? null])).toEqual([
      ['Harbour', 'README.md'],
      ['Moorings', 'guides/moorings.md'],
    ]);
    const markdownOf = async (page: any) => (await ok('GET', `${S}/content/page/${page.id}`, { query: { format: 'markdown' } })).markdown;
    expect(await markdownOf(pages[0])).toBe('Welcome to the harbour.\n');
    expect(await markdownOf(pages[1])).toBe('Tie up at the quay.\n');

    createRepository(server, 'harbour-out', { 'placeholder.txt': 'x' });
    await ok('POST', `${S}/git/export`, { body: { url: server.url('harbour-out'), ref: 'refs/heads/gitbook', commitMessage: 'Untouched export' } });
    await t.runJobsUntilIdle();
    const exported = treeOf(path.join(server.root, 'harbour-out.git'), 'refs/heads/gitbook');
    expect(exported).toEqual(treeOf(source.bare, 'main'));
    expect(git(path.join(server.root, 'harbour-out.git'), 'cat-file', 'blob', exported['SUMMARY.md'])).toBe(FILES['SUMMARY.md']);
  });

  it('leaves an entry that two files match in other cases an empty page', { timeout: 120_000 }, async () => {
    createRepository(server, 'tides', {
      'SUMMARY.md': '# Table of contents\n\n* [Harbour](README.md)\n* [Tides](notes.md)\n',
      'README.md': '# Harbour\n\nWelcome.\n',
      'Notes.md': '# Notes\n\nOne.\n',
      'NOTES.md': '# NOTES\n\nTwo.\n',
    });
    const space = await createSpace(t, { organization: org, title: 'Tides' });
    const S = `/v1/spaces/${space.id}`;
    await ok('POST', `${S}/git/import`, { body: { url: server.url('tides'), ref: 'refs/heads/main' } });
    await t.runJobsUntilIdle();
    const pages = (await ok('GET', `${S}/content`)).pages;
    expect(pages.map((p: any) => [p.title, p.git?.path ?? null])).toEqual([
      ['Harbour', 'README.md'],
      ['Tides', null],
    ]);
    expect((await ok('GET', `${S}/content/page/${pages[1].id}`, { query: { format: 'markdown' } })).markdown).toBe('');
  });
});
