import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect, type TestApp } from '../app.ts';
import { createMember, createOrganization, type TestOrganization, type TestUser } from '../factories.ts';
import { launchChromium } from './chromium.ts';
import { cursorAtEndOf, editorText, memberEditor, spaceWith } from './fixtures.ts';
import { secondProcess, servedTestApp } from './served-app.ts';

/*
 * Editing together in Chromium (issue 32, item 4): two members open one page of one change
 * request and type in the same paragraph for 10 s; both editors end with both texts, each
 * shows the other's cursor, and the document saved by one of them, read back through the
 * API, has both. On PostgreSQL once more with each member on their own server process (two
 * apps on one database, each on its own port), where edits and cursors pass through the
 * database. A page changed through the API while a member has unsaved live edits is merged
 * into them when it is written (the member typed in one paragraph, the API client changed another).
 */

const SHOTS = process.env.COLLAB_SHOTS ?? '/tmp/collab';
const TYPING_MS = Number(process.env.COLLAB_TYPING_MS ?? 10_000);

describe('editing together in a browser', () => {
  let t: TestApp;
  let url: string;
  let org: TestOrganization;
  let ana: TestUser;
  let ben: TestUser;
  let spaceId: string;
  let pageId: string;
  let browser: Browser;
  /** A second server process on the same database (PostgreSQL only), and its address. */
  let second: FastifyInstance | undefined;
  let secondUrl = '';

  beforeAll(async () => {
    ({ t, url } = await servedTestApp());
    const other = await secondProcess(t);
    second = other?.app;
    secondUrl = other?.url ?? '';
    org = await createOrganization(t, { title: 'Acme Docs' });
    ana = await createMember(t, org.id, 'edit', { displayName: 'Ana' });
    ben = await createMember(t, org.id, 'edit', { displayName: 'Ben' });
    spaceId = await spaceWith(t, org, 'Handbook', (e) => {
      pageId = e.insertPage({ title: 'Welcome', markdown: 'Shared paragraph.\n\nSecond paragraph.\n' });
    });
    browser = await launchChromium();
    fs.mkdirSync(SHOTS, { recursive: true });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await second?.close();
    await t?.close();
  });

  const editorOf = (user: TestUser, path: string, at = url): Promise<Page> => memberEditor(browser, t, user, at, path);

  const textOf = editorText;

  /** Types numbered words at the end of the first paragraph until the time is up; answers the words. */
  async function typeFor(page: Page, prefix: string, ms: number): Promise<string[]> {
    // Placed by the editor, not by a click: a click could land on the other member's cursor label.
    await cursorAtEndOf(page, 0);
    const words: string[] = [];
    const end = Date.now() + ms;
    for (let i = 1; Date.now() < end; i++) {
      const word = `${prefix}${i}`;
      await page.keyboard.type(` ${word}`, { delay: 15 });
      words.push(word);
    }
    return words;
  }

  /** Ana on `atA`, Ben on `atB`: both type in the first paragraph, then Ben saves; `name` tells the screenshots apart. */
  async function typeTogether(atA: string, atB: string, name: string): Promise<void> {
    const cr = (await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: ana.token, body: { subject: `Together ${name}` } })).body;
    const path = `/app/s/${spaceId}/change-requests/${cr.number}/pages/${pageId}/edit`;
    const [a, b] = await Promise.all([editorOf(ana, path, atA), editorOf(ben, path, atB)]);
    expect(await textOf(a)).toContain('Shared paragraph.');

    const [wordsA, wordsB] = await Promise.all([typeFor(a, 'ana', TYPING_MS), typeFor(b, 'ben', TYPING_MS)]);
    expect(wordsA.length).toBeGreaterThan(5);
    expect(wordsB.length).toBeGreaterThan(5);
    const all = [...wordsA, ...wordsB];
    // Every word whole (`ana7` is not part of `ana70`). A space typed at the very moment the
    // other member types at the same spot is a concurrent insertion at one position, which the
    // CRDT orders by client: it may land on the far side of the other's word ("ana74ben1"),
    // so a word's neighbours are not checked, only that its characters stay together.
    const missing = (text: string) => all.filter((word) => !new RegExp(`${word}(?![0-9])`).test(text));
    await expect.poll(async () => (await textOf(a)) === (await textOf(b)), { timeout: 5_000 }).toBe(true);
    expect(missing(await textOf(a)), await textOf(a)).toEqual([]);
    expect(await textOf(a)).toBe(await textOf(b));
    // Each shows the other's cursor, with their name.
    for (const [page, otherName] of [[a, 'Ben'], [b, 'Ana']] as const) {
      await expect.poll(() => page.locator('.ProseMirror-yjs-cursor').count()).toBeGreaterThan(0);
      expect(await page.locator('.ProseMirror-yjs-cursor').first().innerText()).toContain(otherName);
    }
    await a.screenshot({ path: `${SHOTS}/collab-${name}-ana.png` });

    await b.click('.save-button');
    await expect.poll(() => b.locator('.save-status').innerText(), { timeout: 10_000 }).toBe('Saved');
    const saved = await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`, { token: ana.token, query: { format: 'markdown' } });
    expect(saved.status).toBe(200);
    // The same rule as in the editors above: every word whole, its neighbours unchecked.
    expect(missing(saved.body.markdown), saved.body.markdown).toEqual([]);
    expect(saved.body.markdown).toContain('Second paragraph.');
    await a.context().close();
    await b.context().close();
  }

  it('two members type in the same paragraph for 10 s; both see both texts and each other’s cursor; the saved document has both', async () => {
    await typeTogether(url, url, 'one-process');
  }, 120_000);

  it.runIf(testDialect === 'postgres')('the same with each member on their own server process (PostgreSQL)', async () => {
    await typeTogether(url, secondUrl, 'two-processes');
  }, 120_000);

  it('a member types in paragraph A while an API client changes paragraph B of the same page: the two are merged, and the saved page has both', async () => {
    const cr = (await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: ana.token, body: { subject: 'Merged' } })).body;
    const page = await editorOf(ana, `/app/s/${spaceId}/change-requests/${cr.number}/pages/${pageId}/edit`);
    const watcher = await editorOf(ben, `/app/s/${spaceId}/change-requests/${cr.number}/pages/${pageId}/edit`, secondUrl || url);
    // Typed at the end of paragraph A, live (not saved).
    await cursorAtEndOf(page, 0);
    await page.keyboard.type(' Typed live in A.', { delay: 10 });
    await expect.poll(() => textOf(watcher), { timeout: 5_000 }).toContain('Typed live in A.');
    // Meanwhile an API client changes paragraph B.
    const changed = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      token: org.admin.token,
      body: { changes: [{ operation: 'update_page', page: pageId, document: { markdown: 'Shared paragraph.\n\nSecond paragraph, changed through the API.\n' } }] },
    });
    expect(changed.status).toBe(200);
    // No choice to make: merged when the API wrote it, the members told; both editors show both.
    await expect.poll(() => page.locator('.save-status').innerText(), { timeout: 10_000 }).toContain('merged into the live edits');
    await expect.poll(() => watcher.locator('.save-status').innerText(), { timeout: 5_000 }).toContain('merged into the live edits');
    await page.keyboard.type(' More.', { delay: 10 });
    await page.keyboard.press('Control+s');
    await expect.poll(() => page.locator('.save-status').innerText(), { timeout: 10_000 }).toBe('Saved');
    expect(await page.getByRole('alert').isHidden()).toBe(true);
    const both = 'Shared paragraph. Typed live in A. More.\nSecond paragraph, changed through the API.';
    await expect.poll(() => textOf(page), { timeout: 5_000 }).toBe(both);
    await expect.poll(() => textOf(watcher), { timeout: 5_000 }).toBe(both);
    await page.screenshot({ path: `${SHOTS}/collab-merged.png` });
    const saved = await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`, { token: ana.token, query: { format: 'markdown' } });
    expect(saved.body.markdown).toBe('Shared paragraph. Typed live in A. More.\n\nSecond paragraph, changed through the API.\n');
    await page.context().close();
    await watcher.context().close();
  }, 120_000);
});
