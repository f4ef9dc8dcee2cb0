import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createChangeRequest } from '../../../test/factories.ts';
import { createCollabSpace } from '../../../test/collab-space.ts';
import { collabRepository, type CollabDocKey } from './collab.repository.ts';

/*
 * Compacting a live document's rows replaces exactly the rows merged: a row another process
 * stored that the compacting one did not read (on PostgreSQL a lower id may commit after a
 * higher one was read) stays for the processes polling it, on both databases.
 */
describe('compacting live-editing rows', () => {
  let t: TestApp;
  let key: CollabDocKey;

  beforeAll(async () => {
    t = await createTestApp();
    const { editor, space, pageIds } = await createCollabSpace(t, [{ title: 'Oil', markdown: 'Oil text.\n' }]);
    const cr = await createChangeRequest(t, { space, token: editor.token, subject: 'Compact' });
    key = { changeRequestId: cr.id, pageId: pageIds[0] };
  });
  afterAll(async () => {
    await t.close();
  });

  const update = (text: string) => {
    const doc = new Y.Doc();
    doc.getText('t').insert(0, text);
    return Y.encodeStateAsUpdate(doc);
  };

  it('deletes the rows it merged and keeps one it did not read, whatever its id', async () => {
    const now = t.clock.now().toISOString();
    await collabRepository.insert(t.db, key, 'here', update('a'), now);
    await collabRepository.insert(t.db, key, 'here', update('b'), now);
    await collabRepository.insert(t.db, key, 'elsewhere', update('c'), now);
    const [first, second, unread] = await collabRepository.after(t.db, key, 0);
    // Merged from the first and the third row only: the second was not read (a late commit).
    const merged = Y.mergeUpdates([first, unread].map((row) => Buffer.from(row.data, 'base64')));
    await collabRepository.compact(t.db, key, [first.id, unread.id], 'here', merged, now);
    const rows = await collabRepository.after(t.db, key, 0);
    expect(rows.map((row) => row.id)).toContain(second.id);
    expect(rows.map((row) => row.id)).not.toContain(first.id);
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.id !== second.id)!.id).toBeGreaterThan(unread.id);
  });
});
