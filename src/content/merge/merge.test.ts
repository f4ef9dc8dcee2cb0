import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, type TestOrganization } from '../../../test/factories.ts';
import { editSpaceContent } from '../../modules/content/content.service.ts';
import { documentToMarkdown, type Document } from '../markdown/index.ts';
import { RevisionEditor } from '../store/editor.ts';
import { loadDocuments, loadSnapshot } from '../store/snapshot.ts';
import { storeRepository } from '../store/store.repository.ts';
import type { PageNode } from '../store/types.ts';
import { threeWayMerge, type MergeConflict, type MergeOutcome } from './index.ts';
import { mergeText, reorderedItems } from './text.ts';

/*
 * The three-way merge against a real database: a base revision is built through
 * editSpaceContent (the space moves to it), then two revisions diverge from it through
 * editors opened on the base and committed without moving the space.
 */
describe('threeWayMerge', () => {
  let t: TestApp;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A new space whose current revision holds what `build` inserted; returns the space and that base revision. */
  async function space(build: (e: RevisionEditor) => unknown): Promise<{ spaceId: string; base: string }> {
    const res = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Merge' } });
    expect(res.status).toBe(201);
    const spaceId = res.body.id as string;
    const base = await editSpaceContent(t.app.deps, spaceId, null, build);
    t.clock.advance(1000);
    return { spaceId, base };
  }

  /** A revision derived from `from` (the space does not move). */
  async function derive(spaceId: string, from: string, change: (e: RevisionEditor) => unknown): Promise<string> {
    const e = await RevisionEditor.open(t.db, spaceId, from, t.clock, t.app.deps.files);
    await change(e);
    const id = await e.commit(t.db, { createdBy: null });
    t.clock.advance(1000);
    return id;
  }

  function merge(spaceId: string, base: string, ours: string, theirs: string): Promise<MergeOutcome> {
    return threeWayMerge(t.db, spaceId, { base, ours, theirs }, t.clock, t.app.deps.files);
  }

  /** Merges, expects no conflict, commits with parents [ours, theirs], returns the result's shape. */
  async function merged(spaceId: string, base: string, ours: string, theirs: string) {
    const outcome = await merge(spaceId, base, ours, theirs);
    if (!outcome.ok) throw new Error(`unexpected conflicts: ${JSON.stringify(outcome.conflicts)}`);
    const id = await outcome.editor.commit(t.db, { createdBy: null, parents: [ours, theirs], type: 'merge' });
    t.clock.advance(1000);
    const snap = await loadSnapshot(t.db, spaceId, id);
    expect(snap.revision.parents).toEqual([ours, theirs]);
    expect(snap.revision.type).toBe('merge');
    return { id, changed: outcome.changed, ...(await shape(spaceId, id)) };
  }

  async function conflicts(spaceId: string, base: string, ours: string, theirs: string): Promise<MergeConflict[]> {
    const before = await counts(spaceId);
    const outcome = await merge(spaceId, base, ours, theirs);
    if (outcome.ok) throw new Error('expected conflicts');
    expect(await counts(spaceId)).toEqual(before);
    return outcome.conflicts;
  }

  /** A revision as comparable data: the page tree (no timestamps), markdown bodies, files and variables. */
  async function shape(spaceId: string, revisionId: string) {
    const snap = await loadSnapshot(t.db, spaceId, revisionId);
    const all: PageNode[] = [];
    const collect = (nodes: PageNode[]) => nodes.forEach((n) => (all.push(n), collect(n.children)));
    collect(snap.pages);
    const docs = await loadDocuments<Document>(t.db, spaceId, all.flatMap((n) => (n.entry.document ? [n.entry.document] : [])));
    const walk = (nodes: PageNode[]): unknown[] =>
      nodes.map((n) => {
        const { createdAt: _c, updatedAt: _u, children: _ch, document, ...meta } = n.entry;
        return { ...meta, markdown: document ? documentToMarkdown(docs.get(document)!) : '', pages: walk(n.children) };
      });
    return { pages: walk(snap.pages), files: snap.files, variables: snap.revision.variables, byId: snap.byId, markdown: (id: string) => {
      const hash = snap.byId.get(id)?.entry.document;
      return hash ? documentToMarkdown(docs.get(hash)!) : '';
    } };
  }

  /** A comparable summary: titles nested. */
  const titles = (pages: unknown[]): unknown[] =>
    (pages as { title: string; pages: unknown[] }[]).map((p) => (p.pages.length > 0 ? [p.title, titles(p.pages)] : p.title));

  async function counts(spaceId: string) {
    const objects = await t.db.selectFrom('content_objects').select((eb) => eb.fn.countAll<number>().as('n')).where('space_id', '=', spaceId).executeTakeFirstOrThrow();
    const revisions = await t.db.selectFrom('revisions').select((eb) => eb.fn.countAll<number>().as('n')).where('space_id', '=', spaceId).executeTakeFirstOrThrow();
    return { objects: Number(objects.n), revisions: Number(revisions.n) };
  }

  const doc = ['# Guide', '', 'First paragraph.', '', 'Second paragraph.', '', 'Third paragraph.', '', 'Fourth paragraph.', ''].join('\n');

  /** A base with three top-level pages; B has two subpages. */
  async function standard() {
    const ids: Record<string, string> = {};
    const s = await space((e) => {
      ids.a = e.insertPage({ title: 'A', markdown: doc });
      ids.b = e.insertPage({ title: 'B', markdown: 'B body.\n', pages: [{ title: 'B1' }, { title: 'B2' }] });
      ids.c = e.insertPage({ title: 'C', markdown: 'C body.\n' });
      ids.b1 = e.childrenOf(ids.b)[0].id;
      ids.b2 = e.childrenOf(ids.b)[1].id;
    });
    return { ...s, ids };
  }

  describe('fast paths', () => {
    it('theirs == base: nothing to apply; theirs == ours: nothing either', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => e.updatePage(ids.a, { title: 'A2' }));
      const before = await counts(spaceId);
      for (const theirs of [base, ours]) {
        const outcome = await merge(spaceId, base, ours, theirs);
        expect(outcome.ok).toBe(true);
        if (!outcome.ok) return;
        expect(outcome.changed).toBe(false);
        expect(outcome.editor.unchanged).toBe(true);
        expect(outcome.editor.baseRevisionId).toBe(ours);
      }
      expect(await counts(spaceId)).toEqual(before);
    });

    it('theirs changed only what ours changed the same way: changed is false', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => e.updatePage(ids.c, { markdown: 'Same.\n', emoji: '1f600' }));
      const theirs = await derive(spaceId, base, (e) => e.updatePage(ids.c, { markdown: 'Same.\n', emoji: '1f600' }));
      const outcome = await merge(spaceId, base, ours, theirs);
      expect(outcome.ok && outcome.changed).toBe(false);
    });

    it('ours == base: the result is theirs (tree, metadata, documents, files, variables)', async () => {
      const { spaceId, base, ids } = await standard();
      const theirs = await derive(spaceId, base, (e) => {
        e.updatePage(ids.a, { title: 'A renamed', markdown: doc.replace('Second', 'Changed'), emoji: '1f680', hidden: true, layout: { width: 'wide' } });
        const n = e.insertPage({ title: 'New', markdown: 'Fresh.\n', pages: [{ title: 'New child', description: 'd' }] }, { index: 1 });
        e.movePage(ids.b2, { parent: n, index: 0 });
        e.movePage(ids.c, { index: 0 });
        e.deletePage(ids.b1);
        e.insertPage({ title: 'Link', type: 'link', target: { kind: 'url', url: 'https://example.com' } }, { parent: ids.b });
        e.insertPage({ title: 'Group', type: 'group' });
        e.updatePage(ids.b, { markdown: '' });
        e.addFile({ name: 'a.txt', contentType: 'text/plain', bytes: Buffer.from('hello') });
        e.setVariables({ product: 'Quire', version: 2 });
      });
      const result = await merged(spaceId, base, base, theirs);
      const expected = await shape(spaceId, theirs);
      expect(result.changed).toBe(true);
      expect(result.pages).toEqual(expected.pages);
      expect(result.files).toEqual(expected.files);
      expect(result.variables).toEqual(expected.variables);
      expect(titles(result.pages)).toEqual(['C', 'A renamed', ['New', ['B2', 'New child']], ['B', ['Link']], 'Group']);
      // The file added by theirs is referenced by the space.
      expect(await storeRepository.hasBlobReference(t.db, spaceId, result.files[0].hash)).toBe(true);
    });

    it('ours == base with a large reshuffle still gives exactly theirs', async () => {
      const ids: string[] = [];
      const { spaceId, base } = await space((e) => {
        for (let i = 0; i < 8; i++) ids.push(e.insertPage({ title: `P${i}`, pages: [{ title: `P${i}.a` }, { title: `P${i}.b` }] }));
      });
      const theirs = await derive(spaceId, base, (e) => {
        e.movePage(ids[7], { index: 0 });
        e.movePage(ids[2], { parent: ids[5], index: 1 });
        e.movePage(ids[0], { index: 5 });
        e.deletePage(ids[3]);
        const child = e.childrenOf(ids[4])[1].id;
        e.movePage(child, { parent: null, index: 2 });
        e.insertPage({ title: 'X' }, { index: 1 });
        e.insertPage({ title: 'Y' }, { parent: ids[2], index: 0 });
        e.movePage(ids[6], { parent: ids[2] });
      });
      const result = await merged(spaceId, base, base, theirs);
      expect(result.pages).toEqual((await shape(spaceId, theirs)).pages);
    });
  });

  describe('changes on one side', () => {
    it('takes each kind of change theirs made, keeps what ours made elsewhere', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => {
        e.updatePage(ids.c, { markdown: 'C by ours.\n' });
        e.updatePage(ids.a, { emoji: '1f4d6' });
        e.insertPage({ title: 'Ours new' });
      });
      const theirs = await derive(spaceId, base, (e) => {
        e.updatePage(ids.b, { markdown: 'B by theirs.\n' });
        e.updatePage(ids.a, { title: 'Alpha', description: 'About A', noIndex: true });
        e.insertPage({ title: 'Theirs new' }, { index: 1 });
      });
      const result = await merged(spaceId, base, ours, theirs);
      expect(titles(result.pages)).toEqual(['Alpha', 'Theirs new', ['B', ['B1', 'B2']], 'C', 'Ours new']);
      expect(result.markdown(ids.c)).toBe('C by ours.\n');
      expect(result.markdown(ids.b)).toBe('B by theirs.\n');
      const a = result.byId.get(ids.a)!.entry;
      expect([a.title, a.slug, a.emoji, a.description, a.noIndex]).toEqual(['Alpha', 'alpha', '1f4d6', 'About A', true]);
      expect(result.markdown(ids.a)).toBe(doc);
    });

    it('takes the changes ours made when roles are swapped (symmetric result)', async () => {
      const { spaceId, base, ids } = await standard();
      const one = await derive(spaceId, base, (e) => {
        e.updatePage(ids.c, { markdown: 'C one.\n', title: 'C one' });
        e.movePage(ids.b1, { parent: null, index: 0 });
        e.insertPage({ title: 'One new' }, { parent: ids.a });
      });
      const two = await derive(spaceId, base, (e) => {
        e.updatePage(ids.a, { markdown: doc.replace('Fourth', 'Last') });
        e.deletePage(ids.b2);
        e.insertPage({ title: 'Two new' });
      });
      const x = await merged(spaceId, base, one, two);
      const y = await merged(spaceId, base, two, one);
      expect(titles(x.pages)).toEqual(['B1', ['A', ['One new']], 'B', 'C one', 'Two new']);
      expect(x.pages).toEqual(y.pages);
    });

    it('removes a page theirs deleted (with its subpages) when ours did not touch it', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => e.updatePage(ids.a, { title: 'A2' }));
      const theirs = await derive(spaceId, base, (e) => e.deletePage(ids.b));
      const result = await merged(spaceId, base, ours, theirs);
      expect(titles(result.pages)).toEqual(['A2', 'C']);
    });

    it('a page deleted on both sides is gone; subpages deleted with their parent too', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => {
        e.deletePage(ids.c);
        e.deletePage(ids.b1);
      });
      const theirs = await derive(spaceId, base, (e) => {
        e.deletePage(ids.c);
        e.deletePage(ids.b);
      });
      const result = await merged(spaceId, base, ours, theirs);
      expect(titles(result.pages)).toEqual(['A']);
    });

    it('a page theirs moved out of a page it deleted: the move and the deletion both land', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => e.updatePage(ids.a, { title: 'A2' }));
      // In one revision, and in two.
      const together = await derive(spaceId, base, (e) => {
        e.movePage(ids.b2, { parent: null });
        e.deletePage(ids.b);
      });
      const moved = await derive(spaceId, base, (e) => e.movePage(ids.b2, { parent: null }));
      const apart = await derive(spaceId, moved, (e) => e.deletePage(ids.b));
      for (const theirs of [together, apart]) {
        const result = await merged(spaceId, base, ours, theirs);
        expect((result.pages as { id: string }[]).map((p) => p.id)).not.toContain(ids.b);
        expect((result.pages as { id: string }[]).map((p) => p.id)).toContain(ids.b2);
        expect(titles(result.pages)).toContain('A2');
      }
    });

    it('a page deleted by ours and untouched by theirs stays deleted', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => e.deletePage(ids.b));
      const theirs = await derive(spaceId, base, (e) => {
        e.updatePage(ids.a, { markdown: 'A theirs.\n' });
        e.movePage(ids.c, { index: 0 });
      });
      const result = await merged(spaceId, base, ours, theirs);
      expect(titles(result.pages)).toEqual(['C', 'A']);
      expect(result.markdown(ids.a)).toBe('A theirs.\n');
    });

    it('pages theirs added are placed after their previous sibling in theirs, nested additions too', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => {
        e.insertPage({ title: 'Ours first' }, { index: 0 });
        e.deletePage(ids.b1);
      });
      const theirs = await derive(spaceId, base, (e) => {
        const n = e.insertPage({ title: 'After A', markdown: 'Hi.\n', pages: [{ title: 'Deep', pages: [{ title: 'Deeper' }] }] }, { index: 1 });
        e.insertPage({ title: 'After B1' }, { parent: ids.b, index: 1 });
        e.insertPage({ title: 'First under B' }, { parent: ids.b, index: 0 });
        e.insertPage({ title: 'Top' }, { index: 0 });
        expect(n).toBeTruthy();
      });
      const result = await merged(spaceId, base, ours, theirs);
      // "After B1": its previous sibling B1 is gone in ours, so it goes after the nearest earlier one (First under B).
      expect(titles(result.pages)).toEqual(['Top', 'Ours first', 'A', ['After A', [['Deep', ['Deeper']]]], ['B', ['First under B', 'After B1', 'B2']], 'C']);
    });

    it('moves: to another parent, and reordering among siblings, combined with ours editing the page', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => {
        e.updatePage(ids.b1, { markdown: 'B1 by ours.\n' });
        e.updatePage(ids.c, { title: 'C ours' });
      });
      const theirs = await derive(spaceId, base, (e) => {
        e.movePage(ids.b1, { parent: ids.a });
        e.movePage(ids.c, { index: 0 });
      });
      const result = await merged(spaceId, base, ours, theirs);
      expect(titles(result.pages)).toEqual(['C ours', ['A', ['B1']], ['B', ['B2']]]);
      expect(result.markdown(ids.b1)).toBe('B1 by ours.\n');
    });

    it('both moved a page to the same parent, or both reordered: no conflict, ours\' order stays', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => {
        e.movePage(ids.b1, { parent: ids.c });
        e.movePage(ids.a, { index: 2 });
      });
      const theirs = await derive(spaceId, base, (e) => {
        e.movePage(ids.b1, { parent: ids.c });
        e.movePage(ids.a, { index: 1 });
      });
      const result = await merged(spaceId, base, ours, theirs);
      expect(titles(result.pages)).toEqual([['B', ['B2']], ['C', ['B1']], 'A']);
    });

    it('a slug freed by a page theirs deleted goes to the page theirs added or moved in its place', async () => {
      const { spaceId, base, ids } = await standard();
      const theirs = await derive(spaceId, base, (e) => {
        e.deletePage(ids.c);
        e.insertPage({ title: 'C' });
        e.updatePage(ids.b2, { slug: 'b1-renamed' });
        e.deletePage(ids.b1);
        e.movePage(ids.b2, { parent: null });
        e.updatePage(ids.b2, { slug: 'c-2' });
      });
      const ours = await derive(spaceId, base, (e) => e.updatePage(ids.a, { markdown: 'A.\n' }));
      const result = await merged(spaceId, base, ours, theirs);
      expect((result.pages as { slug: string }[]).map((p) => p.slug)).toEqual(['a', 'b', 'c', 'c-2']);
    });

    it('a link page\'s new target (which no patch carries) is applied', async () => {
      let link = '';
      const { spaceId, base } = await space((e) => {
        e.insertPage({ title: 'Home' });
        link = e.insertPage({ title: 'Site', type: 'link', target: { kind: 'url', url: 'https://a.example' } });
        e.insertPage({ title: 'End' });
      });
      const ours = await derive(spaceId, base, (e) => e.updatePage(link, { title: 'Website' }));
      const theirs = await derive(spaceId, base, async (e) => {
        // Theirs re-creates the link with a new target (what an import would do).
        e.deletePage(link);
        e.insertPage({ id: link, title: 'Site', type: 'link', target: { kind: 'url', url: 'https://b.example' } }, { index: 1 });
      });
      const result = await merged(spaceId, base, ours, theirs);
      expect(titles(result.pages)).toEqual(['Home', 'Website', 'End']);
      expect(result.byId.get(link)!.entry.target).toEqual({ kind: 'url', url: 'https://b.example' });
    });
  });

  describe('changes on both sides', () => {
    it('merges edits far apart in the same page line by line', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => e.updatePage(ids.a, { markdown: doc.replace('First paragraph.', 'First paragraph, by ours.') }));
      const theirs = await derive(spaceId, base, (e) => e.updatePage(ids.a, { markdown: doc.replace('Fourth paragraph.', 'Fourth paragraph, by theirs.\n\nA new fifth.') }));
      const result = await merged(spaceId, base, ours, theirs);
      expect(result.markdown(ids.a)).toBe(
        ['# Guide', '', 'First paragraph, by ours.', '', 'Second paragraph.', '', 'Third paragraph.', '', 'Fourth paragraph, by theirs.', '', 'A new fifth.', ''].join('\n'),
      );
    });

    it('the same change on both sides is not a conflict', async () => {
      const { spaceId, base, ids } = await standard();
      const edit = (e: RevisionEditor) => e.updatePage(ids.a, { markdown: doc.replace('Third', 'Same'), title: 'Same' });
      const ours = await derive(spaceId, base, (e) => {
        edit(e);
        e.updatePage(ids.c, { markdown: 'Ours C.\n' });
      });
      const theirs = await derive(spaceId, base, edit);
      const result = await merged(spaceId, base, ours, theirs);
      expect(result.markdown(ids.a)).toBe(doc.replace('Third', 'Same'));
      expect(result.markdown(ids.c)).toBe('Ours C.\n');
    });

    it('the same line changed differently is a content conflict; nothing is written', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => e.updatePage(ids.a, { markdown: doc.replace('Second paragraph.', 'Second, ours.') }));
      const theirs = await derive(spaceId, base, (e) => e.updatePage(ids.a, { markdown: doc.replace('Second paragraph.', 'Second, theirs.') }));
      const found = await conflicts(spaceId, base, ours, theirs);
      expect(found).toEqual([{ pageId: ids.a, title: 'A', reason: 'content', detail: expect.stringContaining('base markdown line 5)') }]);
    });

    it('lists every conflicting page, not just the first', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => {
        e.updatePage(ids.a, { markdown: 'Ours A.\n' });
        e.updatePage(ids.b, { title: 'B ours' });
        e.updatePage(ids.c, { emoji: '1f600', description: 'ours' });
        e.updatePage(ids.b2, { markdown: 'x\n' });
      });
      const theirs = await derive(spaceId, base, (e) => {
        e.updatePage(ids.a, { markdown: 'Theirs A.\n' });
        e.updatePage(ids.b, { title: 'B theirs' });
        e.updatePage(ids.c, { emoji: '1f680', description: 'ours' });
        e.deletePage(ids.b2);
      });
      const found = await conflicts(spaceId, base, ours, theirs);
      const summary = found.map((c) => [c.pageId, c.title, c.reason]).sort();
      expect(summary).toEqual(
        [
          [ids.a, 'A', 'content'],
          [ids.b, 'B ours', 'metadata'],
          [ids.c, 'C', 'metadata'],
          [ids.b2, 'B2', 'deleted-and-modified'],
        ].sort(),
      );
      const b = found.find((c) => c.pageId === ids.b)!;
      expect(b.detail).toContain('title');
      expect(b.detail).toContain('"B theirs"');
      const c = found.find((c) => c.pageId === ids.c)!;
      expect(c.detail).toContain('emoji');
      expect(c.detail).not.toContain('description');
    });

    it('different metadata fields of one page merge; the same field changed differently conflicts', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => e.updatePage(ids.c, { hidden: true, cover: { yPos: 10 } }));
      const theirs = await derive(spaceId, base, (e) => e.updatePage(ids.c, { layout: { width: 'wide' }, description: 'Theirs' }));
      const result = await merged(spaceId, base, ours, theirs);
      const c = result.byId.get(ids.c)!.entry;
      expect([c.hidden, c.cover, c.layout, c.description]).toEqual([true, { yPos: 10 }, { width: 'wide' }, 'Theirs']);

      const ours2 = await derive(spaceId, base, (e) => e.updatePage(ids.c, { layout: { width: 'default' } }));
      const found = await conflicts(spaceId, base, ours2, theirs);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ pageId: ids.c, reason: 'metadata' });
      expect(found[0].detail).toContain('layout');
    });

    it('deleted on one side, modified on the other: a conflict either way', async () => {
      const { spaceId, base, ids } = await standard();
      const modified = await derive(spaceId, base, (e) => {
        e.updatePage(ids.c, { markdown: 'Changed.\n' });
        e.updatePage(ids.b1, { title: 'B1 renamed' });
      });
      const deleted = await derive(spaceId, base, (e) => {
        e.deletePage(ids.c);
        e.deletePage(ids.b);
      });
      for (const [ours, theirs, detail] of [
        [modified, deleted, 'deleted in theirs'],
        [deleted, modified, 'deleted in ours'],
      ]) {
        const found = await conflicts(spaceId, base, ours, theirs);
        expect(found.map((c) => [c.pageId, c.reason]).sort()).toEqual(
          [
            [ids.c, 'deleted-and-modified'],
            [ids.b1, 'deleted-and-modified'],
          ].sort(),
        );
        expect(found[0].detail).toContain(detail);
      }
    });

    it('a page theirs deleted under which ours added a page is a conflict', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => e.insertPage({ title: 'Ours child' }, { parent: ids.b1 }));
      const theirs = await derive(spaceId, base, (e) => e.deletePage(ids.b));
      const found = await conflicts(spaceId, base, ours, theirs);
      // Reported on the nearest page theirs deleted above it.
      expect(found).toEqual([expect.objectContaining({ pageId: ids.b1, reason: 'deleted-and-modified', detail: expect.stringContaining('Ours child') })]);
    });

    it('a page moved on one side and deleted on the other is a conflict', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => e.movePage(ids.b1, { parent: ids.c }));
      const theirs = await derive(spaceId, base, (e) => e.deletePage(ids.b));
      const found = await conflicts(spaceId, base, ours, theirs);
      expect(found.map((c) => [c.pageId, c.reason])).toEqual([[ids.b1, 'deleted-and-modified']]);
      const swapped = await conflicts(spaceId, base, theirs, ours);
      expect(swapped.map((c) => [c.pageId, c.reason])).toEqual([[ids.b1, 'deleted-and-modified']]);
    });

    it('structure conflicts: added or moved under a page the other side deleted; moved under different parents', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => {
        e.deletePage(ids.c);
        e.movePage(ids.b2, { parent: null });
      });
      let added = '';
      const theirs = await derive(spaceId, base, (e) => {
        added = e.insertPage({ title: 'Under C' }, { parent: ids.c });
        e.movePage(ids.b1, { parent: ids.c });
        e.movePage(ids.b2, { parent: ids.a });
      });
      const found = await conflicts(spaceId, base, ours, theirs);
      expect(found.map((c) => [c.pageId, c.title, c.reason]).sort()).toEqual(
        [
          [added, 'Under C', 'structure'],
          [ids.b1, 'B1', 'structure'],
          [ids.b2, 'B2', 'structure'],
        ].sort(),
      );
      expect(found.find((c) => c.pageId === added)!.detail).toBe('added in theirs under "C", which ours deleted');
    });

    it('a move that would put a page inside itself is a structure conflict', async () => {
      const { spaceId, base, ids } = await standard();
      const ours = await derive(spaceId, base, (e) => e.movePage(ids.a, { parent: ids.c }));
      const theirs = await derive(spaceId, base, (e) => e.movePage(ids.c, { parent: ids.a }));
      const found = await conflicts(spaceId, base, ours, theirs);
      expect(found).toEqual([expect.objectContaining({ pageId: ids.c, reason: 'structure', detail: expect.stringContaining('inside itself') })]);
    });

    it('pages added on both sides with the same slug under one parent: a structure conflict', async () => {
      const { spaceId, base } = await standard();
      const ours = await derive(spaceId, base, (e) => e.insertPage({ title: 'Intro' }));
      const theirs = await derive(spaceId, base, (e) => e.insertPage({ title: 'Intro' }));
      const found = await conflicts(spaceId, base, ours, theirs);
      expect(found).toEqual([expect.objectContaining({ title: 'Intro', reason: 'structure', detail: expect.stringContaining('slug') })]);
    });

    it('a page both sides have since an earlier merge (same id, no base) merges like one added on both sides', async () => {
      const { spaceId, base, ids } = await standard();
      // Main gets a page; the change request is updated from main (update merge), then edits it.
      const main = await derive(spaceId, base, (e) => e.insertPage({ id: 'shared', title: 'Shared', markdown: 'One.\n\nTwo.\n' }));
      const cr = await derive(spaceId, base, (e) => e.updatePage(ids.c, { markdown: 'CR C.\n' }));
      const update = await merge(spaceId, base, cr, main);
      expect(update.ok).toBe(true);
      if (!update.ok) return;
      const updated = await update.editor.commit(t.db, { createdBy: null, parents: [cr, main], type: 'update' });
      // Merging the updated change request back with the old base: the page is "added on both sides", identical.
      const result = await merged(spaceId, base, main, updated);
      expect(titles(result.pages)).toEqual(['A', ['B', ['B1', 'B2']], 'C', 'Shared']);
      expect(result.markdown(ids.c)).toBe('CR C.\n');
      // With the main revision the change request was updated to as base, the CR's edit of the shared page applies.
      const edited = await derive(spaceId, updated, (e) => e.updatePage('shared', { markdown: 'One.\n\nTwo, edited.\n' }));
      const again = await merged(spaceId, main, main, edited);
      expect(again.markdown('shared')).toBe('One.\n\nTwo, edited.\n');
      // With the old base, the same edit differs on both "added" sides in lines ours also has: a conflict.
      const stale = await conflicts(spaceId, base, main, edited);
      expect(stale).toEqual([expect.objectContaining({ pageId: 'shared', reason: 'content' })]);
    });
  });

  describe('files and variables', () => {
    it('merges the files list by id', async () => {
      let keep = '';
      let gone = '';
      let both = '';
      const { spaceId, base } = await space((e) => {
        keep = e.addFile({ name: 'keep.txt', contentType: 'text/plain', bytes: Buffer.from('keep') }).id;
        gone = e.addFile({ name: 'gone.txt', contentType: 'text/plain', bytes: Buffer.from('gone') }).id;
        both = e.addFile({ name: 'both.txt', contentType: 'text/plain', bytes: Buffer.from('both') }).id;
      });
      const ours = await derive(spaceId, base, (e) => {
        e.addFile({ name: 'ours.txt', contentType: 'text/plain', bytes: Buffer.from('ours') });
      });
      const theirs = await derive(spaceId, base, (e) => {
        e.addFile({ name: 'theirs.txt', contentType: 'text/plain', bytes: Buffer.from('theirs') });
        e.addFile({ id: keep, name: 'kept.txt', contentType: 'text/plain', bytes: Buffer.from('kept, new bytes') });
        e.removeFile(gone);
      });
      const result = await merged(spaceId, base, ours, theirs);
      expect(result.files.map((f) => f.name).sort()).toEqual(['both.txt', 'kept.txt', 'ours.txt', 'theirs.txt']);
      for (const file of result.files) expect(await storeRepository.hasBlobReference(t.db, spaceId, file.hash)).toBe(true);

      const ours2 = await derive(spaceId, base, (e) => {
        e.addFile({ id: both, name: 'both.txt', contentType: 'text/plain', bytes: Buffer.from('ours version') });
        e.addFile({ id: gone, name: 'gone.txt', contentType: 'text/plain', bytes: Buffer.from('ours keeps it') });
      });
      const theirs2 = await derive(spaceId, theirs, (e) => {
        e.addFile({ id: both, name: 'both.txt', contentType: 'text/plain', bytes: Buffer.from('theirs version') });
      });
      const found = await conflicts(spaceId, base, ours2, theirs2);
      expect(found.map((c) => [c.pageId, c.title, c.reason]).sort()).toEqual(
        [
          ['', 'both.txt', 'metadata'],
          ['', 'gone.txt', 'deleted-and-modified'],
        ].sort(),
      );
    });

    it('merges revision variables by name; the same name changed differently conflicts', async () => {
      const { spaceId, base } = await space((e) => {
        e.insertPage({ title: 'Home' });
        e.setVariables({ a: 1, b: 'two', c: true });
      });
      const ours = await derive(spaceId, base, (e) => e.setVariables({ a: 10, b: 'two', c: true, o: 'ours' }));
      const theirs = await derive(spaceId, base, (e) => e.setVariables({ a: 1, b: 'deux', t: 'theirs' }));
      const result = await merged(spaceId, base, ours, theirs);
      expect(result.variables).toEqual({ a: 10, b: 'deux', o: 'ours', t: 'theirs' });

      const theirs2 = await derive(spaceId, base, (e) => e.setVariables({ a: 2, b: 'two', c: true }));
      const found = await conflicts(spaceId, base, ours, theirs2);
      expect(found).toEqual([{ pageId: '', title: 'a', reason: 'metadata', detail: expect.stringContaining('ours 10, theirs 2') }]);
    });
  });

  it('ours == base, random edits by theirs (one revision per edit): the result is theirs', async () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 12; round++) {
      const { spaceId, base } = await space((e) => {
        for (let i = 0; i < 4; i++) e.insertPage({ title: `P${i}`, markdown: `# P${i}\n\nText ${i}.\n`, pages: [{ title: `P${i} a` }, { title: `P${i} b`, pages: [{ title: `P${i} b x` }] }] });
      });
      let theirs = base;
      for (let step = 0; step < 8; step++) {
        theirs = await derive(spaceId, theirs, (e) => {
          const all: string[] = [];
          const walk = (parent: string | null) => e.childrenOf(parent).forEach((p) => (all.push(p.id), walk(p.id)));
          walk(null);
          const pick = () => all[random(all.length)];
          const op = random(5);
          if (all.length < 3 || op === 0) e.insertPage({ title: `New ${round}.${step}`, markdown: 'New.\n' }, { parent: random(2) ? pick() : null, index: 0 });
          else if (op === 1) e.updatePage(pick(), { markdown: `Edited ${step}.\n`, title: `T ${round}.${step}` });
          else if (op === 2) e.deletePage(pick());
          else {
            const page = pick();
            const to = random(3) ? pick() : null;
            try {
              e.movePage(page, { parent: to, index: 0 });
            } catch {
              // Inside itself: skipped.
            }
          }
        });
      }
      const outcome = await merge(spaceId, base, base, theirs);
      // Theirs against an unchanged base always merges, into exactly theirs.
      expect(outcome.ok, outcome.ok ? '' : JSON.stringify(outcome.conflicts)).toBe(true);
      if (!outcome.ok) continue;
      const id = await outcome.editor.commit(t.db, { createdBy: null, parents: [base, theirs], type: 'merge' });
      expect((await shape(spaceId, id)).pages).toEqual((await shape(spaceId, theirs)).pages);
    }
  });

  it('writes nothing itself: the editor writes at commit only', async () => {
    const { spaceId, base, ids } = await standard();
    const ours = await derive(spaceId, base, (e) => e.updatePage(ids.a, { markdown: 'A.\n' }));
    const theirs = await derive(spaceId, base, (e) => {
      e.insertPage({ title: 'New', markdown: 'New page.\n' });
      e.addFile({ name: 'f.txt', contentType: 'text/plain', bytes: Buffer.from('f') });
    });
    const before = await counts(spaceId);
    const outcome = await merge(spaceId, base, ours, theirs);
    expect(outcome.ok && outcome.changed).toBe(true);
    expect(await counts(spaceId)).toEqual(before);
    const space = await t.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow();
    expect(space.revision_id).toBe(base);
  });
});

describe('mergeText and reorderedItems', () => {
  it('merges separated edits, reports touching or overlapping ones', () => {
    const base = 'a\n\nb\n\nc\n';
    expect(mergeText(base, 'A\n\nb\n\nc\n', 'a\n\nb\n\nC\n')).toEqual({ ok: true, text: 'A\n\nb\n\nC\n' });
    expect(mergeText(base, 'x\n\nb\n\nc\n', 'y\n\nb\n\nc\n')).toEqual({ ok: false, hunks: [{ baseLine: 1, baseLength: 1 }] });
    expect(mergeText(base, base, 'z\n')).toEqual({ ok: true, text: 'z\n' });
    expect(mergeText('', 'one\n', 'one\n')).toEqual({ ok: true, text: 'one\n' });
    expect(mergeText('', '', 'new\n')).toEqual({ ok: true, text: 'new\n' });
  });

  it('finds the items that left their place', () => {
    expect([...reorderedItems(['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'd'])]).toEqual([]);
    expect([...reorderedItems(['a', 'b', 'c', 'd'], ['d', 'a', 'b', 'c'])]).toEqual(['d']);
    expect([...reorderedItems(['a', 'b', 'c'], ['x', 'a', 'c'])]).toEqual([]);
  });
});
