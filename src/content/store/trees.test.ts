import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization } from '../../../test/factories.ts';
import { newId } from '../../lib/ids.ts';
import { editSpaceContent } from '../../modules/content/content.service.ts';
import { RevisionEditor } from './editor.ts';
import type { LayeredMap } from './layered-map.ts';
import { revisionRecord } from './snapshot.ts';
import { storeRepository } from './store.repository.ts';
import type { PageEntry } from './types.ts';

/*
 * The editor derives each new revision's trees from its base (so the next edit reads
 * nothing back). Those derived trees must equal what a cold read of the stored revision
 * gives, whatever the edits were.
 */

/** The stored revision read cold: every child list by parent key, following hashes from the root. */
async function storedTrees(t: TestApp, spaceId: string, revisionId: string) {
  const row = await storeRepository.findRevision(t.db, spaceId, revisionId);
  const lists = new Map<string, PageEntry[]>();
  const walk = async (parent: string, hash: string) => {
    const body = (await storeRepository.getObjects(t.db, spaceId, [hash])).get(hash) as string;
    const entries = JSON.parse(body) as PageEntry[];
    if (entries.length > 0 || parent === '') lists.set(parent, entries);
    for (const entry of entries) if (entry.children) await walk(entry.id, entry.children);
  };
  await walk('', revisionRecord(row!).treeHash);
  return lists;
}

describe('derived revision trees', () => {
  let t: TestApp;
  let spaceId: string;
  beforeAll(async () => {
    t = await createTestApp();
    const org = await createOrganization(t);
    const res = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Trees' } });
    spaceId = res.body.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('equal the stored revision after inserts, updates, moves and deletes', async () => {
    const ids: string[] = [];
    const steps: ((e: RevisionEditor) => void)[] = [
      (e) => {
        for (let i = 0; i < 4; i++) ids.push(e.insertPage({ title: `Top ${i}`, markdown: `# ${i}\n`, pages: [{ title: `Child ${i}.a` }, { title: `Child ${i}.b` }] }));
      },
      (e) => e.updatePage(ids[1], { title: 'Renamed', markdown: 'new body\n' }),
      (e) => e.movePage(ids[2], { parent: ids[0], index: 0 }),
      (e) => e.deletePage(ids[3]),
      (e) => {
        const child = e.childrenOf(ids[0])[1].id;
        e.movePage(child, { parent: null, index: 0 });
        e.insertPage({ id: newId(), title: 'Late' }, { parent: ids[2] });
      },
      (e) => e.deletePage(ids[0]),
      // A page whose child list changed, then deleted, in one edit (children first, then the parent).
      (e) => {
        const parent = e.insertPage({ title: 'Doomed', pages: [{ title: 'Kept' }, { title: 'Gone' }] });
        const [kept, gone] = e.childrenOf(parent);
        e.movePage(kept.id, { parent: null });
        e.deletePage(gone.id);
        e.deletePage(parent);
      },
      // More layers than the layered maps keep before flattening.
      ...Array.from({ length: 10 }, (_, i) => (e: RevisionEditor) => {
        const top = e.childrenOf(null);
        if (i % 3 === 0) e.insertPage({ title: `Extra ${i}` }, { parent: top[0].id });
        else if (i % 3 === 1) e.updatePage(top[top.length - 1].id, { markdown: `edit ${i}\n` });
        else e.movePage(top[0].id, { parent: null, index: top.length - 1 });
      }),
    ];
    for (const step of steps) {
      const revisionId = await editSpaceContent(t.app.deps, spaceId, null, step);
      const editor = await RevisionEditor.open(t.db, spaceId, revisionId, t.clock, t.app.deps.files);
      const stored = await storedTrees(t, spaceId, revisionId);
      // Every stored list is what the derived trees give, and the derived trees hold no other list.
      for (const [parent, entries] of stored) expect(editor.childrenOf(parent === '' ? null : parent)).toEqual(entries);
      const derived = (editor as unknown as { base: { trees: LayeredMap<unknown>; parentOf: LayeredMap<string> } }).base;
      expect([...derived.trees.keys()].sort()).toEqual([...stored.keys()].sort());
      const located = new Map<string, string>();
      for (const [parent, entries] of stored) for (const entry of entries) located.set(entry.id, parent);
      expect(new Map([...derived.parentOf.entries()].sort())).toEqual(new Map([...located].sort()));
    }
  });
});
