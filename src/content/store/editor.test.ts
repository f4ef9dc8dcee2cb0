import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { newId } from '../../lib/ids.ts';
import { BLOB_AREA } from './blobs.ts';
import { RevisionEditor, slugFromTitle } from './editor.ts';
import { loadSnapshot } from './snapshot.ts';
import { ContentError } from '../errors.ts';
import { toHttpError } from '../../errors.ts';

/*
 * The revision store on its own: editors open on a space id (no space row is needed:
 * the store only scopes its rows by it) and commit revisions that snapshots read back.
 */
describe('revision store (RevisionEditor + loadSnapshot)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** Opens an editor on `base`, applies `edit`, commits, and returns the new revision's snapshot. */
  async function edit(spaceId: string, base: string | null, change: (editor: RevisionEditor) => void) {
    const editor = await RevisionEditor.open(t.db, spaceId, base, t.clock, t.app.deps.files);
    change(editor);
    const id = await editor.commit(t.db, { createdBy: null });
    t.clock.advance(1000);
    return loadSnapshot(t.db, spaceId, id);
  }

  async function objectCount(spaceId: string): Promise<number> {
    const row = await t.db
      .selectFrom('content_objects')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('space_id', '=', spaceId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The HTTP statuses of what a callback throws (a content domain error, as the API maps it). */
  function statusOf(fn: () => unknown): number | undefined {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(ContentError);
      return toHttpError(error)?.statusCode;
    }
    return undefined;
  }

  it('an empty space: a first revision without parents, pages or files', async () => {
    const space = newId();
    const snap = await edit(space, null, () => {});
    expect(snap.pages).toEqual([]);
    expect(snap.files).toEqual([]);
    expect(snap.revision.parents).toEqual([]);
    expect(snap.revision.variables).toEqual({});
    expect(snap.revision.type).toBe('edits');
  });

  it('insertPage: nested pages, slugs from titles, paths, document from markdown, next revision names its parent', async () => {
    const space = newId();
    const first = await edit(space, null, () => {});
    let a = '';
    let child = '';
    const snap = await edit(space, first.revision.id, (e) => {
      a = e.insertPage({ title: 'Getting Started!', markdown: '# Hello\n\nBody text.\n', pages: [{ title: 'Install it', emoji: '1f600' }] });
      child = e.childrenOf(a)[0].id;
      e.insertPage({ title: 'Empty' });
      e.insertPage({ title: 'Group', type: 'group' }, { index: 0 });
    });
    expect(snap.revision.parents).toEqual([first.revision.id]);
    expect(snap.pages.map((p) => [p.entry.title, p.entry.slug, p.path, p.entry.type])).toEqual([
      ['Group', 'group', 'group', 'group'],
      ['Getting Started!', 'getting-started', 'getting-started', 'document'],
      ['Empty', 'empty', 'empty', 'document'],
    ]);
    const childNode = snap.byId.get(child)!;
    expect(childNode.path).toBe('getting-started/install-it');
    expect(childNode.parentId).toBe(a);
    expect(childNode.depth).toBe(1);
    expect(childNode.entry.emoji).toBe('1f600');
    expect(snap.byPath.get('getting-started/install-it')?.entry.id).toBe(child);
    expect(snap.byId.get(a)!.entry.document).toMatch(/^[0-9a-f]{64}$/);
    // An empty page stores no document.
    expect(snap.byPath.get('empty')!.entry.document).toBeUndefined();
    expect(snap.byId.get(a)!.entry.createdAt).toBe(snap.revision.createdAt);
  });

  it('slugs are unique among siblings: generated ones get -2, -3; an explicit duplicate is 400; cousins may share', async () => {
    const space = newId();
    let parent = '';
    const snap = await edit(space, null, (e) => {
      e.insertPage({ title: 'Intro' });
      e.insertPage({ title: 'Intro' });
      e.insertPage({ title: 'Intro' });
      parent = e.insertPage({ title: 'Other', pages: [{ title: 'Intro' }] });
      expect(statusOf(() => e.insertPage({ title: 'X', slug: 'intro' }))).toBe(400);
    });
    expect(snap.pages.map((p) => p.entry.slug)).toEqual(['intro', 'intro-2', 'intro-3', 'other']);
    expect(snap.byId.get(parent)!.children[0].path).toBe('other/intro');

    const ids = snap.pages.map((p) => p.entry.id);
    await edit(space, snap.revision.id, (e) => {
      // Renaming the slug onto a sibling's is refused; onto its own slug is fine.
      expect(statusOf(() => e.updatePage(ids[1], { slug: 'intro' }))).toBe(400);
      expect(statusOf(() => e.updatePage(ids[0], { slug: 'intro' }))).toBeUndefined();
    });
    expect(slugFromTitle('   ')).toBe('page');
    expect(slugFromTitle('Ça va? Très bien')).toBe('ca-va-tres-bien');
  });

  it('updatePage: title (slug follows a generated slug), body, metadata cleared by null; ids and createdAt stay', async () => {
    const space = newId();
    let id = '';
    let pinned = '';
    const first = await edit(space, null, (e) => {
      id = e.insertPage({ title: 'Old title', markdown: 'Old body\n', description: 'desc', emoji: '1f4a1' });
      pinned = e.insertPage({ title: 'Pinned', slug: 'custom' });
    });
    const oldDoc = first.byId.get(id)!.entry.document;
    const next = await edit(space, first.revision.id, (e) => {
      e.updatePage(id, { title: 'New title', markdown: 'New body\n', description: null, hidden: true });
      e.updatePage(pinned, { title: 'Pinned renamed' });
    });
    const page = next.byId.get(id)!.entry;
    expect(page).toMatchObject({ id, title: 'New title', slug: 'new-title', hidden: true, emoji: '1f4a1' });
    expect(page.description).toBeUndefined();
    expect(page.document).not.toBe(oldDoc);
    expect(page.createdAt).toBe(first.byId.get(id)!.entry.createdAt);
    expect(page.updatedAt).not.toBe(page.createdAt);
    // An explicit slug does not follow the title.
    expect(next.byId.get(pinned)!.entry.slug).toBe('custom');
    // The old revision is unchanged.
    expect(first.byId.get(id)!.entry.title).toBe('Old title');
    const reread = await loadSnapshot(t.db, space, first.revision.id);
    expect(reread.byId.get(id)!.entry.document).toBe(oldDoc);

    // Emptying the body removes the document.
    const emptied = await edit(space, next.revision.id, (e) => e.updatePage(id, { markdown: '' }));
    expect(emptied.byId.get(id)!.entry.document).toBeUndefined();
    await edit(space, emptied.revision.id, (e) => {
      expect(statusOf(() => e.updatePage('nope', { title: 'x' }))).toBe(404);
    });
  });

  it('movePage: to another parent (paths follow, slug made unique), reorder, into itself or a descendant is 400', async () => {
    const space = newId();
    let a = '';
    let b = '';
    let aChild = '';
    let aGrandchild = '';
    const first = await edit(space, null, (e) => {
      a = e.insertPage({ title: 'A', pages: [{ title: 'Child', pages: [{ title: 'Grandchild' }] }] });
      aChild = e.childrenOf(a)[0].id;
      aGrandchild = e.childrenOf(aChild)[0].id;
      b = e.insertPage({ title: 'B', pages: [{ title: 'Child' }] });
    });
    expect(first.byId.get(aGrandchild)!.path).toBe('a/child/grandchild');

    const moved = await edit(space, first.revision.id, (e) => {
      expect(statusOf(() => e.movePage(a, { parent: a }))).toBe(400);
      expect(statusOf(() => e.movePage(a, { parent: aGrandchild }))).toBe(400);
      expect(statusOf(() => e.movePage(a, { parent: 'missing' }))).toBe(404);
      expect(statusOf(() => e.movePage(a, { index: 5 }))).toBe(400);
      // Refused moves change nothing.
      expect(e.childrenOf(null).map((p) => p.id)).toEqual([a, b]);
      e.movePage(aChild, { parent: b, index: 0 });
    });
    // Moved with its subpages; its slug collides with B's child and becomes child-2.
    expect(moved.byId.get(aChild)!.path).toBe('b/child-2');
    expect(moved.byId.get(aGrandchild)!.path).toBe('b/child-2/grandchild');
    expect(moved.byId.get(a)!.children).toEqual([]);
    expect(moved.byId.get(a)!.entry.children).toBeUndefined();
    expect(moved.byId.get(b)!.children.map((c) => c.entry.id)[0]).toBe(aChild);

    const reordered = await edit(space, moved.revision.id, (e) => e.movePage(b, { index: 0 }));
    expect(reordered.pages.map((p) => p.entry.id)).toEqual([b, a]);
    const toTop = await edit(space, reordered.revision.id, (e) => e.movePage(aGrandchild, { parent: null }));
    expect(toTop.byId.get(aGrandchild)!.path).toBe('grandchild');
    expect(toTop.byId.get(aGrandchild)!.parentId).toBeNull();
  });

  it('deletePage: removes the subtree; the deleted ids are unknown afterwards and reusable as new ids', async () => {
    const space = newId();
    let a = '';
    let child = '';
    const first = await edit(space, null, (e) => {
      a = e.insertPage({ title: 'A', pages: [{ title: 'Child' }] });
      child = e.childrenOf(a)[0].id;
      e.insertPage({ title: 'B' });
    });
    const next = await edit(space, first.revision.id, (e) => {
      e.deletePage(a);
      expect(e.hasPage(child)).toBe(false);
      expect(statusOf(() => e.deletePage(child))).toBe(404);
      expect(statusOf(() => e.updatePage(child, { title: 'x' }))).toBe(404);
      expect(statusOf(() => e.insertPage({ title: 'Y' }, { parent: child }))).toBe(404);
    });
    expect(next.pages.map((p) => p.entry.title)).toEqual(['B']);
    expect(next.byId.has(a)).toBe(false);
    expect(next.byId.has(child)).toBe(false);
    expect(first.byId.has(child)).toBe(true);
  });

  it('ids are stable across revisions; an insert with an id in use is 400', async () => {
    const space = newId();
    let ids: string[] = [];
    const r1 = await edit(space, null, (e) => {
      ids = [e.insertPage({ title: 'One', pages: [{ title: 'Sub' }] }), e.insertPage({ title: 'Two' })];
    });
    const sub = r1.byId.get(ids[0])!.children[0].entry.id;
    const r2 = await edit(space, r1.revision.id, (e) => {
      e.insertPage({ title: 'Three', id: 'my-page-id' });
      expect(statusOf(() => e.insertPage({ title: 'Again', id: ids[1] }))).toBe(400);
    });
    const r3 = await edit(space, r2.revision.id, (e) => e.updatePage(ids[1], { title: 'Two!' }));
    for (const snap of [r1, r2, r3]) {
      expect(snap.byId.get(ids[0])!.entry.id).toBe(ids[0]);
      expect(snap.byId.get(sub)!.parentId).toBe(ids[0]);
    }
    expect(r3.byId.get('my-page-id')!.entry.title).toBe('Three');
    expect(r3.revision.parents).toEqual([r2.revision.id]);
  });

  it('files and variables: addFile stores the blob and records it; removeFile; variables carried to later revisions', async () => {
    const space = newId();
    const bytes = Buffer.from('hello file');
    let fileId = '';
    const r1 = await edit(space, null, (e) => {
      fileId = e.addFile({ name: 'a.txt', contentType: 'text/plain', bytes }).id;
      e.setVariables({ name: 'Quire', n: 3 });
    });
    expect(r1.files).toEqual([{ id: fileId, name: 'a.txt', contentType: 'text/plain', size: bytes.length, hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(await t.app.deps.files.read(BLOB_AREA, r1.files[0].hash, 1024)).toEqual(bytes);
    const refs = await t.db.selectFrom('space_blobs').selectAll().where('space_id', '=', space).execute();
    expect(refs).toEqual([{ space_id: space, hash: r1.files[0].hash, size: bytes.length }]);

    const r2 = await edit(space, r1.revision.id, (e) => e.insertPage({ title: 'P' }));
    expect(r2.revision.variables).toEqual({ name: 'Quire', n: 3 });
    expect(r2.revision.filesHash).toBe(r1.revision.filesHash);
    const r3 = await edit(space, r2.revision.id, (e) => {
      e.removeFile(fileId);
      expect(statusOf(() => e.removeFile(fileId))).toBe(404);
    });
    expect(r3.files).toEqual([]);
    expect(r2.files).toHaveLength(1);
  });

  it('O(depth) edits: one page of 2,020 (20 parents x 100 children) adds at most depth + 1 = 3 objects and shares the rest', async () => {
    const space = newId();
    const parents: string[] = [];
    const base = await edit(space, null, (e) => {
      for (let p = 0; p < 20; p++) {
        parents.push(
          e.insertPage({
            title: `Parent ${p}`,
            markdown: `Parent ${p}\n`,
            pages: Array.from({ length: 100 }, (_, c) => ({ title: `Child ${p}.${c}`, markdown: `Body ${p}.${c}\n` })),
          }),
        );
      }
    });
    expect(base.byId.size).toBe(2020);
    const target = base.byId.get(parents[7])!.children[42];
    expect(target.depth).toBe(1);
    const before = await objectCount(space);

    const next = await edit(space, base.revision.id, (e) => e.updatePage(target.entry.id, { markdown: 'A changed body\n' }));
    const added = (await objectCount(space)) - before;
    expect(added).toBeLessThanOrEqual(target.depth + 2);
    expect(added).toBe(3); // the document, parent 7's child list, the top-level list

    expect(next.byId.size).toBe(2020);
    expect(next.revision.treeHash).not.toBe(base.revision.treeHash);
    expect(next.trees.get(parents[7])!.hash).not.toBe(base.trees.get(parents[7])!.hash);
    for (const [p, id] of parents.entries()) {
      if (p === 7) continue;
      // Unchanged subtrees keep their hash: the new revision shares them.
      expect(next.trees.get(id)!.hash).toBe(base.trees.get(id)!.hash);
      expect(next.byId.get(id)!.entry.children).toBe(base.byId.get(id)!.entry.children);
    }
    // Siblings' documents are shared too.
    const sibling = base.byId.get(parents[7])!.children[41];
    expect(next.byId.get(sibling.entry.id)!.entry.document).toBe(sibling.entry.document);
    expect(next.byId.get(target.entry.id)!.entry.document).not.toBe(target.entry.document);

    // A metadata-only edit of a top-level page writes only the top-level list.
    const before2 = await objectCount(space);
    await edit(space, next.revision.id, (e) => e.updatePage(parents[3], { emoji: '1f600' }));
    expect((await objectCount(space)) - before2).toBe(1);
  });
});
