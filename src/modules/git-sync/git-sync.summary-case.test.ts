import { describe, expect, it } from 'vitest';
import { createRepository, git } from '../../../test/git-server.ts';
import { gitSyncSuite, treeOf } from '../../../test/git-sync-space.ts';
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
  const suite = gitSyncSuite('Harbour');
  const ok = okRequests(() => suite.t, () => suite.org.admin.token);

  it('reads the one file an entry names case-insensitively, and exports both untouched', { timeout: 120_000 }, async () => {
    const source = createRepository(suite.server, 'harbour', FILES);
    const space = await suite.importedSpace('Harbour', 'harbour');
    const S = `/v1/spaces/${space.id}`;

    const pages = (await ok('GET', `${S}/content`)).pages;
    expect(pages.map((p: any) => [p.title, p.git?.path ?? null])).toEqual([
      ['Harbour', 'README.md'],
      ['Moorings', 'guides/moorings.md'],
    ]);
    const markdownOf = async (page: any) => (await ok('GET', `${S}/content/page/${page.id}`, { query: { format: 'markdown' } })).markdown;
    expect(await markdownOf(pages[0])).toBe('Welcome to the harbour.\n');
    expect(await markdownOf(pages[1])).toBe('Tie up at the quay.\n');

    const exported = await suite.exportToNew(space.id, 'harbour-out');
    expect(exported).toEqual(treeOf(source.bare, 'main'));
    expect(git(suite.bare('harbour-out'), 'cat-file', 'blob', exported['SUMMARY.md'])).toBe(FILES['SUMMARY.md']);
  });

  it('leaves an entry that two files match in other cases an empty page', { timeout: 120_000 }, async () => {
    createRepository(suite.server, 'tides', {
      'SUMMARY.md': '# Table of contents\n\n* [Harbour](README.md)\n* [Tides](notes.md)\n',
      'README.md': '# Harbour\n\nWelcome.\n',
      'Notes.md': '# Notes\n\nOne.\n',
      'NOTES.md': '# NOTES\n\nTwo.\n',
    });
    const S = `/v1/spaces/${(await suite.importedSpace('Tides', 'tides')).id}`;
    const pages = (await ok('GET', `${S}/content`)).pages;
    expect(pages.map((p: any) => [p.title, p.git?.path ?? null])).toEqual([
      ['Harbour', 'README.md'],
      ['Tides', null],
    ]);
    expect((await ok('GET', `${S}/content/page/${pages[1].id}`, { query: { format: 'markdown' } })).markdown).toBe('');
  });
});
