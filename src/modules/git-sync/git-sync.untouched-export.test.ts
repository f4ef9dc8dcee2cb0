import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRepository, git } from '../../../test/git-server.ts';
import { gitSyncSuite, treeOf } from '../../../test/git-sync-space.ts';

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

/** Where two texts part, for the failure message. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: ${JSON.stringify(a.slice(Math.max(0, i - 20), i + 40))} became ${JSON.stringify(b.slice(Math.max(0, i - 20), i + 40))}`;
}

describe('git sync: an untouched export of GitBook 2021 output', () => {
  const suite = gitSyncSuite('Lantern');

  it('comes back byte for byte, SUMMARY.md included, to a repository that never saw it', { timeout: 180_000 }, async () => {
    const source = createRepository(suite.server, 'gitbook-2021', readFixture());
    git(source.work, 'commit', '--quiet', '--amend', '-m', 'GitBook: [#28] No subject');
    git(source.work, 'push', '--quiet', '--force', 'origin', 'HEAD:refs/heads/main');
    const space = await suite.importedSpace('Lantern', 'gitbook-2021');
    const content = await suite.t.request('GET', `/v1/spaces/${space.id}/content`, { token: suite.org.admin.token });
    expect(content.body.pages.length).toBeGreaterThan(2);

    const exported = await suite.exportToNew(space.id, 'fresh');
    const original = treeOf(source.bare, 'main');
    const differing = Object.keys(original).filter((p) => exported[p] !== original[p]);
    const diffs = differing.map((p) => `${p}: ${exported[p] ? firstDifference(git(source.bare, 'cat-file', 'blob', original[p]), git(suite.bare('fresh'), 'cat-file', 'blob', exported[p])) : '(missing)'}`);
    expect(differing, diffs.join('\n')).toEqual([]);
    expect(Object.keys(exported).sort()).toEqual(Object.keys(original).sort());
  });
});
