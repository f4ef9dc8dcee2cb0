import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createChangeRequest, createMember, createOrganization, createSpace, type TestOrganization, type TestUser } from '../../../test/factories.ts';

/*
 * Markdown a change request carries is read off the request thread (page-reader.ts): past
 * a few KB a request on a pool thread, under a time budget. These run the pool as users
 * do (the compiled thread entry against dist/).
 */

/** Real-looking page markdown of about `bytes` bytes: headings, lists, a table, hints, code. */
function longPage(bytes: number): string {
  const parts: string[] = [];
  for (let i = 0; parts.join('').length < bytes; i++) {
    parts.push(
      `## Section ${i}\n\nSome _emphasis_ and **strong** text with \`code ${i}\` and [a link](https://example.com/${i}).\n\n` +
        `* first item ${i}\n* second item\n  * nested\n\n| Flag | Default |\n| ---- | ------- |\n| \`--x${i}\` | ${i} |\n\n` +
        `{% hint style="info" %}\nA hint ${i}.\n{% endhint %}\n\n\`\`\`js\nconst x = ${i};\n\`\`\`\n\n`,
    );
  }
  return parts.join('').trimEnd() + '\n';
}

/** Hostile markdown: cheap to send, costly to read (every line opens a block and none closes). */
const HOSTILE = '{% hint style="info" %}\n'.repeat(40_000);

describe('markdown read off the request thread', () => {
  // Small allowances, so that a test reaches the thread quickly; the budget generous where a
  // page must be read (a loaded machine reads slowly) and tight where one must not be.
  let t: TestApp;
  let org: TestOrganization;
  let editor: TestUser;
  let tight: TestApp;
  let tightEditor: TestUser;
  let tightOrg: TestOrganization;

  beforeAll(async () => {
    t = await createTestApp({ markdownReader: { threads: 1, budgetMs: 60_000, inlineBytes: 2048 } });
    org = await createOrganization(t, { title: 'Acme' });
    editor = await createMember(t, org.id, 'edit');
    tight = await createTestApp({ markdownReader: { threads: 1, budgetMs: 3000, inlineBytes: 2048 } });
    tightOrg = await createOrganization(tight, { title: 'Tight' });
    tightEditor = await createMember(tight, tightOrg.id, 'edit');
  });
  afterAll(async () => {
    await t.close();
    await tight.close();
  });

  const content = (spaceId: string, cr: string) => `/v1/spaces/${spaceId}/change-requests/${cr}/content`;

  it('a page past the inline allowance is read on a thread: stored, and read back as written', async () => {
    const space = await createSpace(t, { organization: org });
    const cr = await createChangeRequest(t, { space, token: editor.token });
    const body = longPage(20_000);
    const pages = [0, 1, 2].map((i) => ({ operation: 'insert_page', title: `Long ${i}`, document: { markdown: body } }));
    const res = await t.request('POST', content(space.id, cr.id), { token: editor.token, body: { changes: pages } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tree = await t.request('GET', `${content(space.id, cr.id)}/pages`, { token: editor.token });
    expect(tree.body.pages.map((p: any) => p.title)).toEqual(['Long 0', 'Long 1', 'Long 2']);
    for (const page of tree.body.pages) {
      const read = await t.request('GET', `${content(space.id, cr.id)}/page/${page.id}`, { token: editor.token, query: { format: 'markdown' } });
      expect(read.status).toBe(200);
      expect(read.body.markdown).toBe(body);
    }
  });

  it('past the budget: 413 naming the field, nothing changed, and other requests answered meanwhile', async () => {
    const space = await createSpace(tight, { organization: tightOrg });
    const cr = await createChangeRequest(tight, { space, token: tightEditor.token });
    const before = await tight.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { token: tightEditor.token });
    const order: string[] = [];
    const hostile = tight
      .request('POST', content(space.id, cr.id), {
        token: tightEditor.token,
        body: { changes: [{ operation: 'insert_page', title: 'Fine', document: { markdown: 'Fine.\n' } }, { operation: 'insert_page', title: 'Hostile', document: { markdown: HOSTILE } }] },
      })
      .then((res) => (order.push('hostile'), res));
    // Answered while the hostile page is being read: the event loop is free.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const other = await tight.request('GET', `/v1/spaces/${space.id}/content/pages`, { token: tightEditor.token });
    order.push('other');
    expect(other.status).toBe(200);
    const res = await hostile;
    expect(order).toEqual(['other', 'hostile']);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: { code: 413, message: expect.stringContaining('body/changes/1/document/markdown') } });
    expect(res.body.error.message).toMatch(/more than the 3 s one request may use/);
    const after = await tight.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { token: tightEditor.token });
    expect(after.body.revision).toBe(before.body.revision);
    const tree = await tight.request('GET', `${content(space.id, cr.id)}/pages`, { token: tightEditor.token });
    expect(tree.body.pages).toEqual([]);
  });

  it('after a thread was stopped for its budget, the next reading gets a fresh one', async () => {
    const space = await createSpace(tight, { organization: tightOrg });
    const cr = await createChangeRequest(tight, { space, token: tightEditor.token });
    const body = longPage(3_000);
    const res = await tight.request('POST', content(space.id, cr.id), { token: tightEditor.token, body: { changes: [{ operation: 'insert_page', title: 'After', document: { markdown: body } }] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tree = await tight.request('GET', `${content(space.id, cr.id)}/pages`, { token: tightEditor.token });
    const read = await tight.request('GET', `${content(space.id, cr.id)}/page/${tree.body.pages[0].id}`, { token: tightEditor.token, query: { format: 'markdown' } });
    expect(read.body.markdown).toBe(body);
  });

  it('a caller who may not edit is refused before any markdown is read', async () => {
    const space = await createSpace(t, { organization: org });
    const cr = await createChangeRequest(t, { space, token: editor.token });
    const reader = await createMember(t, org.id, 'read');
    const res = await t.request('POST', content(space.id, cr.id), { token: reader.token, body: { changes: [{ operation: 'insert_page', title: 'Hostile', document: { markdown: HOSTILE } }] } });
    // 403 at once, not the reading budget's 413.
    expect(res.status).toBe(403);
  });
});
