import fs from 'node:fs';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RevisionEditor } from '../../src/content/store/editor.ts';
import { editSpaceContent } from '../../src/modules/content/content.service.ts';
import { createLoginLink, startSession } from '../../src/modules/sessions/sessions.service.ts';
import type { TestApp } from '../app.ts';
import type { TestOrganization, TestUser } from '../factories.ts';
import { CHROMIUM, launchChromium } from './chromium.ts';

/*
 * What the browser tests share: Chromium and the contexts a test file opens, the errors its
 * pages report, signing a member in, the editor being ready, a space with pages and a
 * published site.
 */

/** Which errors of a page are recorded. */
export interface ErrorWatch {
  /** A console error that is expected where it shows (a refused request's status, say). */
  expected?: (text: string, page: Page) => boolean;
  /** Console errors are recorded (default); uncaught exceptions always are. */
  console?: boolean;
  /** Failed requests are recorded too. */
  requests?: boolean;
}

/** A refused request's status, which Chromium reports as a console error (so is a missing favicon). */
export const refusedStatus = (text: string): boolean => /status of (403|404)/.test(text);

/** Records `page`'s errors into `errors`, each after the address it was on. */
export function recordErrors(page: Page, errors: string[], watch: ErrorWatch = {}): void {
  if (watch.console ?? true) page.on('console', (m) => m.type() === 'error' && !watch.expected?.(m.text(), page) && errors.push(`${page.url()}: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  if (watch.requests) page.on('requestfailed', (r) => errors.push(`${page.url()}: ${r.url()} ${r.failure()?.errorText}`));
}

/** A context `width` px wide: light or dark, a phone's touch and mobile layout below 800 px. */
export function viewportOf(width: number, height = 900, colorScheme: 'light' | 'dark' = 'light'): BrowserContextOptions {
  return { viewport: { width, height }, colorScheme, hasTouch: width < 800, isMobile: width < 800 };
}

/** Chromium for one test file, with the contexts it opened and the errors their pages reported; closed together. */
export class TestBrowser {
  readonly contexts: BrowserContext[] = [];
  readonly errors: string[] = [];
  private constructor(readonly browser: Browser) {}

  /** Debian's chromium (said plainly when missing), `shots` (a screenshot folder) made first. */
  static async launch(shots?: string): Promise<TestBrowser> {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    if (shots) fs.mkdirSync(shots, { recursive: true });
    return new TestBrowser(await launchChromium());
  }

  /** A new context, closed with the browser. */
  async context(options: BrowserContextOptions = {}): Promise<BrowserContext> {
    const context = await this.browser.newContext(options);
    this.contexts.push(context);
    return context;
  }

  /** A page in a new context, its errors recorded (none when `watch` is false). */
  async page(options: BrowserContextOptions = {}, watch: ErrorWatch | false = {}): Promise<Page> {
    const page = await (await this.context(options)).newPage();
    if (watch) recordErrors(page, this.errors, watch);
    return page;
  }

  async close(): Promise<void> {
    for (const context of this.contexts) await context.close().catch(() => {});
    await this.browser.close();
  }
}

/**
 * The end of a browser test file: the browser closed, then the servers, and no page it
 * opened reported an error.
 */
export async function closeExpectingNoErrors(browser: TestBrowser | undefined, ...servers: ({ close(): Promise<unknown> } | undefined)[]): Promise<void> {
  await browser?.close();
  for (const server of servers) await server?.close();
  const errors = browser?.errors ?? [];
  expect(errors, errors.join('\n')).toEqual([]);
}

/** The address of a login link that signs `user` in (valid ten minutes). */
export async function loginUrl(t: TestApp, url: string, user: TestUser): Promise<string> {
  return `${url}/app/login?link=${await createLoginLink(t.db, t.clock, user.id, 600_000)}`;
}

/** Signs `user` in to `context` for `url` with a session cookie (no login page). */
export async function signInByCookie(t: TestApp, context: BrowserContext, user: TestUser, url: string): Promise<void> {
  const session = await startSession(t.db, t.clock, t.config.sessionTtlMs, { userId: user.id, method: 'link', organizationId: null });
  await context.addCookies([{ name: 'quire_session', value: session, url }]);
}

/** Waits for the block editor to have loaded its document. */
export const editorReady = (page: Page) => page.waitForSelector('#quire-editor[data-ready="true"]', { timeout: 30_000 });

/** Opens a page of the app's space, presses Edit and waits for the editor. */
export async function editFromPage(page: Page, url: string, spaceId: string, pageId: string): Promise<void> {
  await page.goto(`${url}/app/s/${spaceId}/pages/${pageId}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  await editorReady(page);
}

/** The editor's text, one line a block. */
export const editorText = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const { doc } = (globalThis as unknown as { quireEditor: { view: { state: { doc: { content: { size: number }; textBetween(from: number, to: number, separator: string): string } } } } }).quireEditor.view.state;
    return doc.textBetween(0, doc.content.size, '\n');
  });

/** Puts the editor's cursor at the end of top-level block `index` (by the editor, not a click). */
export const cursorAtEndOf = (page: Page, index: number): Promise<void> =>
  page.evaluate((i) => {
    const { view } = (globalThis as unknown as { quireEditor: { view: any } }).quireEditor;
    let end = 0;
    for (let k = 0; k <= i; k++) end += view.state.doc.child(k).nodeSize;
    view.dispatch(view.state.tr.setSelection(view.state.selection.constructor.create(view.state.doc, end - 1)));
    view.focus();
  }, index);

/**
 * A collaborating member's editor: `user` signed in at `at` (one server process), `path`
 * opened there and the editor ready; the page's exceptions logged under the member's name.
 */
export async function memberEditor(browser: Browser, t: TestApp, user: TestUser, at: string, path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 700 } });
  await signInByCookie(t, context, user, at);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[${user.displayName}]`, error));
  await page.goto(`${at}${path}`);
  await editorReady(page);
  return page;
}

/** The organization's API as its admin, under /v1/orgs/{id}; a refusal throws. */
export function adminApi(t: TestApp, org: TestOrganization) {
  return async (method: 'POST' | 'PATCH' | 'PUT', path: string, body?: unknown) => {
    const res = await t.request(method, `/v1/orgs/${org.id}${path}`, { token: org.admin.token, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
}

/** A space of `org` made by its admin, its content (pages, files) written by `fill`. */
export async function spaceWith(t: TestApp, org: TestOrganization, title: string, fill?: (e: RevisionEditor) => unknown): Promise<string> {
  const id = (await adminApi(t, org)('POST', '/spaces', { title })).id as string;
  if (fill) await editSpaceContent(t.app.deps, id, org.admin.id, fill);
  return id;
}

/** A site of `spaces` published at /sites/{basename}; its id. */
export async function publishSite(t: TestApp, org: TestOrganization, input: { title: string; basename: string; spaces: string[] }): Promise<string> {
  const api = adminApi(t, org);
  const site = await api('POST', '/sites', { title: input.title, spaces: input.spaces });
  await api('PATCH', `/sites/${site.id}`, { basename: input.basename });
  await api('POST', `/sites/${site.id}/publish`);
  return site.id as string;
}
