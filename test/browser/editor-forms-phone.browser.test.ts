import fs from 'node:fs';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editSpaceContent } from '../../src/modules/content/content.service.ts';
import { startSession } from '../../src/modules/sessions/sessions.service.ts';
import type { TestApp } from '../app.ts';
import { createMember, createOrganization, type TestOrganization, type TestUser } from '../factories.ts';
import { launchChromium } from './chromium.ts';
import { servedTestApp } from './served-app.ts';

/*
 * The editor keeps a page's written form (issue 32 follow-up): a page imported as markdown
 * written by hand keeps that form for the blocks the editor did not touch.
 */

const SHOTS = '/tmp/editor-phone';

describe('the editor keeps written forms, loads less, works on phones', { timeout: 180_000 }, () => {
  let t: TestApp;
  let url: string;
  let org: TestOrganization;
  let writer: TestUser;
  let spaceId: string;
  let pageId: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    ({ t, url } = await servedTestApp());
    org = await createOrganization(t, { title: 'Acme Docs' });
    writer = await createMember(t, org.id, 'edit', { displayName: 'Wren Writer' });
    spaceId = (await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Handbook' } })).body.id;
    await editSpaceContent(t.app.deps, spaceId, org.admin.id, (e) => {
      pageId = e.insertPage({ title: 'Welcome', markdown: 'Placeholder.\n' });
    });
    browser = await launchChromium();
    fs.mkdirSync(SHOTS, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await t?.close();
    expect(errors, errors.join('\n')).toEqual([]);
  });

  async function signedIn(user: TestUser, options: { width?: number; touch?: boolean } = {}): Promise<Page> {
    const session = await startSession(t.db, t.clock, t.config.sessionTtlMs, { userId: user.id, method: 'link', organizationId: null });
    const touch = options.touch ?? false;
    const context = await browser.newContext({ viewport: { width: options.width ?? 1100, height: 800 }, hasTouch: touch, isMobile: touch });
    contexts.push(context);
    await context.addCookies([{ name: 'quire_session', value: session, url }]);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && !/status of (403|404)/.test(m.text()) && errors.push(`${page.url()}: ${m.text()}`));
    return page;
  }

  const ready = (page: Page) => page.waitForSelector('#quire-editor[data-ready="true"]', { timeout: 30_000 });

  it('keeps the written form of the blocks an edit did not touch', async () => {
    const cr = (await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: writer.token, body: { subject: 'Hand-written' } })).body;
    // Written by hand: `-` bullets and `*x*` emphasis, which GitBook writes as `*` and `_x_`.
    const markdown = ['Lead paragraph.', '', '- apples', '- pears', '', 'A *quiet* word.', '', 'Change this line.', '', '1) first', '2) second', ''].join('\n');
    const imported = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      token: writer.token,
      body: { changes: [{ operation: 'update_page', page: pageId, document: { markdown } }] },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const read = async () => (await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`, { token: writer.token, query: { format: 'markdown' } })).body.markdown as string;
    const before = await read();
    expect(before).toContain('- apples\n- pears');
    expect(before).toContain('A *quiet* word.');

    const page = await signedIn(writer);
    await page.goto(`${url}/app/s/${spaceId}/change-requests/${cr.number}/pages/${pageId}/edit`);
    await ready(page);
    await page.getByText('Change this line.').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Now edited.');
    await page.keyboard.press('Control+s');
    await expect.poll(() => page.locator('.save-status').textContent(), { timeout: 10_000 }).toBe('Saved');

    const after = await read();
    // Only the edited block differs: every other block is byte for byte what was imported.
    expect(after).toBe(before.replace('Change this line.', 'Change this line. Now edited.'));
  });
});
