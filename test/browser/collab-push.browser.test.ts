import type { FastifyInstance } from 'fastify';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editSpaceContent } from '../../src/modules/content/content.service.ts';
import { testDialect, type TestApp } from '../app.ts';
import { createMember, createOrganization, type TestOrganization, type TestUser } from '../factories.ts';
import { launchChromium } from './chromium.ts';
import { cursorAtEndOf, editorText, memberEditor, spaceWith } from './fixtures.ts';
import { secondProcess, servedTestApp } from './served-app.ts';

/*
 * Live editing and block identity in Chromium (issue 32): a block moved with Alt+↓ and saved
 * keeps its block comment; a page written through the API while a member has it open shows in
 * their editor within 2 s (on PostgreSQL with the member on another server process, where it
 * passes through the database), merged into unsaved edits with the member told; and the
 * editor's unsaved mark follows what the server stored (a follow, a merge, a save).
 */
describe('live editing follows the page, and blocks keep their identity, in a browser', () => {
  let t: TestApp;
  let url: string;
  let org: TestOrganization;
  let ana: TestUser;
  let spaceId: string;
  let browser: Browser;
  let second: FastifyInstance | undefined;
  /** Where the member's editor runs: another process on PostgreSQL, this one on SQLite. */
  let memberUrl = '';

  beforeAll(async () => {
    ({ t, url } = await servedTestApp());
    const other = await secondProcess(t);
    second = other?.app;
    memberUrl = other?.url ?? url;
    org = await createOrganization(t, { title: 'Acme Docs' });
    ana = await createMember(t, org.id, 'edit', { displayName: 'Ana' });
    spaceId = await spaceWith(t, org, 'Handbook');
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await second?.close();
    await t?.close();
  });

  async function newPage(markdown: string): Promise<string> {
    let pageId = '';
    await editSpaceContent(t.app.deps, spaceId, org.admin.id, (e) => {
      pageId = e.insertPage({ title: 'Page', markdown });
    });
    return pageId;
  }

  const editorOf = (user: TestUser, path: string, at: string): Promise<Page> => memberEditor(browser, t, user, at, path);

  const textOf = editorText;
  const dirty = (page: Page) => page.locator('#quire-editor').getAttribute('data-dirty');
  const status = (page: Page) => page.locator('.save-status').innerText();

  async function changeRequest(subject: string) {
    return (await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: ana.token, body: { subject } })).body as { id: string; number: number };
  }
  const write = async (cr: string, pageId: string, markdown: string) => {
    const res = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, { token: org.admin.token, body: { changes: [{ operation: 'update_page', page: pageId, document: { markdown } }] } });
    expect(res.status).toBe(200);
  };

  it('a block moved with Alt+↓ and saved keeps its block comment', async () => {
    const pageId = await newPage('Alpha.\n\nBravo, commented on.\n\nCharlie.\n');
    const cr = await changeRequest('Move');
    const CR = `/v1/spaces/${spaceId}/change-requests/${cr.id}`;
    const read = async () => (await t.request('GET', `${CR}/content/page/${pageId}`, { token: ana.token, query: { format: 'document' } })).body.document as { nodes: { key: string }[] };
    const bravo = (await read()).nodes[1]!.key;
    const comment = await t.request('POST', `${CR}/comments`, { token: ana.token, body: { body: { markdown: 'About Bravo.' }, page: pageId, node: bravo } });
    expect(comment.status).toBe(200);

    const page = await editorOf(ana, `/app/s/${spaceId}/change-requests/${cr.number}/pages/${pageId}/edit`, memberUrl);
    await cursorAtEndOf(page, 1);
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => textOf(page)).toBe('Alpha.\nCharlie.\nBravo, commented on.');
    await page.keyboard.press('Control+s');
    await expect.poll(() => status(page), { timeout: 10_000 }).toBe('Saved');
    expect(await dirty(page)).toBe('false');

    const document = await read();
    expect(document.nodes.map((n) => JSON.stringify(n).match(/"text":"([^"]*)"/)?.[1])).toEqual(['Alpha.', 'Charlie.', 'Bravo, commented on.']);
    // The comment's anchor names the moved block (before: it was saved under a new key, and the anchor named nothing).
    const target = (await t.request('GET', `${CR}/comments/${comment.body.id}`, { token: ana.token })).body.target.node.id;
    expect(target).toBe(bravo);
    expect(JSON.stringify(document.nodes.find((n) => n.key === target))).toContain('Bravo, commented on.');
    await page.context().close();
  }, 120_000);

  it('shows a page written through the API within 2 s; merges it into unsaved edits, told; the unsaved mark follows what the server stored', async () => {
    const pageId = await newPage('Paragraph A.\n\nParagraph B.\n');
    const cr = await changeRequest('Push');
    const page = await editorOf(ana, `/app/s/${spaceId}/change-requests/${cr.number}/pages/${pageId}/edit`, memberUrl);

    // Nothing typed: the editor follows the API write, and nothing is left unsaved.
    let started = Date.now();
    await write(cr.id, pageId, 'Paragraph A.\n\nParagraph B, written through the API.\n');
    await expect.poll(() => textOf(page), { timeout: 2_000, interval: 20 }).toBe('Paragraph A.\nParagraph B, written through the API.');
    const followMs = Date.now() - started;
    await expect.poll(() => dirty(page)).toBe('false');

    // Typed in A, not saved; the API changes B and A: merged into the live edits at once, the
    // live A kept and named; the typed edit is still unsaved.
    await cursorAtEndOf(page, 0);
    await page.keyboard.type(' Typed live.', { delay: 10 });
    await expect.poll(() => dirty(page)).toBe('true');
    started = Date.now();
    await write(cr.id, pageId, 'Paragraph A, changed outside.\n\nParagraph B, changed again.\n');
    await expect.poll(() => textOf(page), { timeout: 2_000, interval: 20 }).toBe('Paragraph A. Typed live.\nParagraph B, changed again.');
    const mergeMs = Date.now() - started;
    await expect.poll(() => status(page), { timeout: 2_000 }).toContain('changed on both sides, and the live version was kept: paragraph “Paragraph A. Typed live.”');
    expect(await dirty(page)).toBe('true');
    console.log(`[collab push browser] an API write shown after ${followMs} ms (followed) and ${mergeMs} ms (merged), ${testDialect === 'postgres' ? 'on another process' : 'on the same process'}`);

    // Saved: nothing unsaved (before: the mark stayed when the saved document differed from the one sent).
    await page.keyboard.press('Control+s');
    await expect.poll(() => status(page), { timeout: 10_000 }).toBe('Saved');
    await expect.poll(() => dirty(page)).toBe('false');
    // A new block gets its key from the server at the save: still nothing unsaved after it.
    await cursorAtEndOf(page, 1);
    await page.keyboard.press('Enter');
    await page.keyboard.type('A new paragraph.', { delay: 10 });
    await page.keyboard.press('Control+s');
    await expect.poll(() => status(page), { timeout: 10_000 }).toBe('Saved');
    await expect.poll(() => dirty(page)).toBe('false');
    const saved = await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`, { token: ana.token, query: { format: 'markdown' } });
    expect(saved.body.markdown).toBe('Paragraph A. Typed live.\n\nParagraph B, changed again.\n\nA new paragraph.\n');
    await page.context().close();
  }, 120_000);
});
