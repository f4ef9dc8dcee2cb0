import path from 'node:path';
import { createRequire } from 'node:module';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPageMarkdown, writePageMarkdown } from '../../src/content/markdown/index.ts';
import type { TestApp } from '../app.ts';
import { createMember, createOrganization, type TestOrganization, type TestUser } from '../factories.ts';
import { closeExpectingNoErrors, editFromPage, editorReady, loginUrl, refusedStatus, spaceWith, TestBrowser, viewportOf } from './fixtures.ts';
import { servedTestApp } from './served-app.ts';

/*
 * The block editor in Chromium (issue 32, item 1): sign in, press Edit, type and format,
 * insert every block and inline kind through the slash menu and by markdown shortcut,
 * upload an image, save with Ctrl+S, reload and read the same document back through the
 * API (and its markdown as the engine writes it); content the editor does not know
 * survives the edit; a `read` member sees no Edit button and a forged write answers 403.
 * Screenshots (desktop and 390 px, light and dark) go to /tmp/editor/; axe checks the page.
 */

// Evaluated in the page: the browser's globals.
declare const window: any;
declare const document: any;

const SHOTS = '/tmp/editor';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAGklEQVR42mNkYPhfz0AEYBxVSF+FAAhKDveksOjmAAAAAElFTkSuQmCC', 'base64');

describe('the block editor in a browser', { timeout: 300_000 }, () => {
  let t: TestApp;
  let url: string;
  let org: TestOrganization;
  let writer: TestUser;
  let reader: TestUser;
  let browser: TestBrowser;
  let spaceId: string;
  let pageId: string;
  let otherPageId: string;
  let editorUrl = '';

  async function signedIn(user: TestUser, options: { width?: number; colorScheme?: 'light' | 'dark'; bypassCSP?: boolean } = {}): Promise<Page> {
    const context = { ...viewportOf(options.width ?? 1280, 900, options.colorScheme), bypassCSP: options.bypassCSP ?? false };
    const page = await browser.page(context, { expected: refusedStatus, requests: true });
    await page.goto(await loginUrl(t, url, user));
    return page;
  }

  const ready = editorReady;
  // Not checked against GitBook's published schema: its button inline accepts no button at all
  // (label and kind in one allOf branch, `additionalProperties: false` in the other).
  const apiDocument = async (crId: string) => (await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/content/page/${pageId}`, { token: org.admin.token, skipSchemaCheck: true })).body;
  const typesIn = (nodes: any[], out = new Set<string>()): Set<string> => {
    for (const node of nodes ?? []) {
      if (node.type) out.add(node.type);
      typesIn(node.nodes, out);
      for (const fragment of node.fragments ?? []) typesIn(fragment.nodes, out);
    }
    return out;
  };

  const findNode = (nodes: any[], test: (node: any) => boolean): any => {
    for (const node of nodes ?? []) {
      if (test(node)) return node;
      const inner = findNode(node.nodes, test) ?? (node.fragments ?? []).map((f: any) => findNode(f.nodes, test)).find(Boolean);
      if (inner) return inner;
    }
    return undefined;
  };

  beforeAll(async () => {
    // Signed download URLs (the uploaded image) are made with DOWNLOAD_URL: the app's own address.
    ({ t, url } = await servedTestApp({}, { downloads: true }));
    org = await createOrganization(t, { title: 'Acme Docs' });
    writer = await createMember(t, org.id, 'edit', { displayName: 'Wanda Writer' });
    reader = await createMember(t, org.id, 'read', { displayName: 'Rita Reader' });
    spaceId = await spaceWith(t, org, 'Handbook', (e) => {
      pageId = e.insertPage({ title: 'Welcome', markdown: 'The handbook.\n\n{% hint style="info" %}\nRead this.\n{% endhint %}\n' });
      otherPageId = e.insertPage({ title: 'Travel', markdown: 'Book trains.\n' });
    });
    browser = await TestBrowser.launch(SHOTS);
  }, 180_000);

  afterAll(() => closeExpectingNoErrors(browser, t));

  it('edits a page: formatting, every block kind by slash menu and shortcut, an image upload, save, reload, read back', async () => {
    const page = await signedIn(writer);
    await editFromPage(page, url, spaceId, pageId);
    editorUrl = page.url();
    expect(editorUrl).toMatch(new RegExp(`/app/s/${spaceId}/change-requests/\\d+/pages/${pageId}/edit$`));
    const cr = (await t.request('GET', `/v1/spaces/${spaceId}/change-requests`, { token: org.admin.token })).body.items[0];

    // Content the editor shows read-only, put there by an API client: a cards table (the editor
    // edits grid tables), another integration's block, a key of data it does not know.
    const cards = {
      object: 'block', type: 'table', isVoid: true,
      data: {
        view: { type: 'cards', columns: ['c0'], cardSize: 'medium', targetDefinition: 'c1' },
        records: { r0: { orderIndex: 'a0', values: { c0: 'r0c0', c1: { kind: 'page', page: otherPageId } } } },
        definition: { c0: { id: 'c0', title: 'Card', type: 'text', textAlignment: 'left' }, c1: { id: 'c1', title: 'Target', type: 'content-ref' } },
      },
      fragments: [{ object: 'fragment', fragment: 'r0c0', nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Card text', marks: [] }] }] }] }],
    };
    const widget = { object: 'block', type: 'integration', isVoid: true, data: { integration: 'acme-widgets', block: 'chart', props: { series: [1, 2, 3] } } };
    const hint = { object: 'block', type: 'hint', data: { style: 'success', future: { deep: [1, 2] } }, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Future-proof.', marks: [] }] }] }] };
    const before = await apiDocument(cr.id);
    const seeded = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      token: org.admin.token,
      body: { changes: [{ operation: 'update_page', page: pageId, document: { document: { ...before.document, nodes: [...before.document.nodes, cards, widget, hint] } } }] },
    });
    expect(seeded.status, JSON.stringify(seeded.body)).toBe(200);
    const stored = (await apiDocument(cr.id)).document.nodes.slice(-3);
    expect(stored.map((node: any) => node.type)).toEqual(['table', 'integration', 'hint']);
    expect(stored[2].data.future).toEqual({ deep: [1, 2] });
    await page.reload();
    await ready(page);
    // The cards table is edited as cards (issue 32): only the other integration's block is read-only.
    await expect.poll(() => page.locator('.opaque-block').count()).toBe(1);
    await expect.poll(() => page.locator('.ProseMirror table.table-cards').count()).toBe(1);

    // Type and format.
    await page.evaluate(() => window.quireEditor.focusEnd());
    await page.keyboard.type('Plain then ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('bold');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(' and ');
    await page.keyboard.press('Control+i');
    await page.keyboard.type('italic');
    await page.keyboard.press('Control+i');
    await page.keyboard.type(' and **stars** and `code`.');
    expect(await page.locator('.ProseMirror strong', { hasText: 'bold' }).count()).toBe(1);
    expect(await page.locator('.ProseMirror strong', { hasText: 'stars' }).count()).toBe(1);
    expect(await page.locator('.ProseMirror em', { hasText: 'italic' }).count()).toBe(1);
    expect(await page.locator('.ProseMirror code', { hasText: 'code' }).count()).toBe(1);

    // Every kind through the slash menu.
    const dialogs: Record<string, (dialog: ReturnType<Page['locator']>) => Promise<void>> = {
      image: async (d) => {
        await d.locator('input[type=file]').setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: PNG });
        await d.locator('input[name=alt]').fill('A screenshot');
        await d.locator('input[name=caption]').fill('The caption');
      },
      file: async (d) => d.locator('input[type=file]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes') }),
      embed: async (d) => d.locator('input[name=url]').fill('https://www.youtube.com/watch?v=abc'),
      math: async (d) => d.locator('input[name=formula]').fill('a^2+b^2=c^2'),
      'content-ref': async (d) => void (await d.locator('select[name=page]').selectOption(otherPageId)),
      mention: async (d) => void (await d.locator('select[name=page]').selectOption(otherPageId)),
      emoji: async (d) => d.locator('input[name=emoji]').fill('😀'),
      button: async (d) => {
        await d.locator('input[name=label]').fill('Go');
        await d.locator('input[name=url]').fill('https://example.com/go');
      },
      'inline-math': async (d) => d.locator('input[name=formula]').fill('x^2'),
    };
    const kinds: Array<{ id: string; label: string }> = await page.evaluate(() =>
      [...document.querySelectorAll('select[aria-label="Insert a block"] option')].filter((o: any) => o.value).map((o: any) => ({ id: o.value, label: o.textContent })),
    );
    expect(kinds.length).toBeGreaterThanOrEqual(28);
    for (const kind of kinds) {
      await page.evaluate(() => window.quireEditor.focusEnd());
      await page.keyboard.type(`/${kind.id}`);
      const option = page.locator(`#slash-menu [data-kind="${kind.id}"]`);
      await expect.poll(() => option.count(), { message: kind.id }).toBe(1);
      // Keyboard only: arrow down to the kind, Enter.
      for (let i = 0; i < 30 && (await option.getAttribute('aria-selected')) !== 'true'; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      const fill = dialogs[kind.id];
      if (fill) {
        const dialog = page.locator('dialog.editor-dialog[open]');
        await dialog.waitFor();
        await fill(dialog);
        await dialog.getByRole('button', { name: 'Insert' }).click();
        await dialog.waitFor({ state: 'hidden' });
      }
      await page.waitForSelector('#quire-editor[data-busy="false"]');
      await expect.poll(() => page.locator('#slash-menu').count()).toBe(0);
    }
    await expect.poll(() => page.locator('.figure-image img[src]').count()).toBe(1);

    // Markdown shortcuts.
    const shortcuts: Array<[string, string]> = [
      ['# ', 'Shortcut heading'],
      ['- ', 'Shortcut bullet'],
      ['1. ', 'Shortcut number'],
      ['[] ', 'Shortcut task'],
      ['> ', 'Shortcut quote'],
      ['```', 'shortcut_code()'],
    ];
    for (const [shortcut, text] of shortcuts) {
      await page.evaluate(() => window.quireEditor.focusEnd());
      await page.keyboard.type(shortcut);
      await page.keyboard.type(text);
    }
    await page.evaluate(() => window.quireEditor.focusEnd());
    await page.keyboard.type('---');

    await page.keyboard.press('Control+s');
    await expect.poll(() => page.locator('.save-status').textContent()).toBe('Saved');
    await page.screenshot({ path: path.join(SHOTS, 'editor-all-blocks.png'), fullPage: true });

    // Read back through the API: every kind is there, the unknown block too, untouched.
    const saved = (await apiDocument(cr.id)).document;
    const types = typesIn(saved.nodes);
    for (const type of ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-unordered', 'list-ordered', 'list-tasks', 'code', 'hint', 'blockquote', 'table', 'images', 'image', 'file', 'embed', 'tabs', 'expandable', 'stepper', 'columns', 'divider', 'math', 'content-ref', 'mention', 'emoji', 'button', 'inline-math', 'link'].filter((x) => x !== 'link')) {
      expect(types.has(type), type).toBe(true);
    }
    for (const node of stored) expect(saved.nodes.find((n: any) => n.key === node.key)).toEqual(node);
    const hints = saved.nodes.filter((node: any) => node.type === 'hint').map((node: any) => node.data.style);
    expect(hints).toEqual(expect.arrayContaining(['info', 'success', 'warning', 'danger']));
    const image = findNode(saved.nodes, (node) => node.type === 'image');
    expect(image.data).toMatchObject({ ref: { kind: 'file', file: expect.any(String) }, alt: 'A screenshot' });
    expect(image.fragments[0].nodes[0].nodes[0].leaves[0].text).toBe('The caption');

    // Reload: the editor shows the same document, which it would save unchanged.
    await page.reload();
    await ready(page);
    expect(await page.evaluate(() => window.quireEditor.document())).toEqual(saved);
    // Its markdown, as the API exports it, is what the engine writes for the document.
    const markdown = (await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}?format=markdown`, { token: org.admin.token, skipSchemaCheck: true })).body.markdown;
    expect(typeof markdown).toBe('string');
    expect(markdown).toContain('Plain then **bold** and _italic_ and **stars** and `code`.');
    expect(markdown).toContain('{% hint style="danger" %}');
    // The engine's export: read back, it is the same blocks, and the engine writes it so again.
    const reread = readPageMarkdown(markdown).document;
    // (Another integration's block has no markdown form in the engine: the export leaves it out.)
    const written = saved.nodes.filter((node: any) => !(node.type === 'integration' && node.data.integration !== 'quire'));
    expect(reread.nodes.map((node: any) => node.type)).toEqual(written.map((node: any) => node.type));
    expect(writePageMarkdown(reread)).toBe(markdown);
  });

  it('block panel: alignment, image width and dark-mode image, a button icon and action, a changelog, a replaced drawing, a card, an OpenAPI operation; a block moved by touch; saved and read back', async () => {
    // Before the next test, which leaves live edits unsaved: a page changed through the API is
    // followed by the live document only when nothing was typed since its last save.
    const page = await signedIn(writer);
    await page.goto(editorUrl);
    await ready(page);
    const cr = (await t.request('GET', `/v1/spaces/${spaceId}/change-requests`, { token: org.admin.token })).body.items[0];
    // A drawing, as GitBook stores one: an image file of the space.
    const stored = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, {
      token: org.admin.token,
      body: { changes: [{ operation: 'insert_files', files: [{ name: 'drawing.png', contentType: 'image/png', base64: PNG.toString('base64') }] }] },
    });
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    const drawingFile = stored.body.insertedFiles[0].id;
    const before = await apiDocument(cr.id);
    const drawing = { object: 'block', type: 'drawing', isVoid: true, data: { ref: { kind: 'file', file: drawingFile } } };
    const seeded = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      token: org.admin.token,
      body: { changes: [{ operation: 'update_page', page: pageId, document: { document: { ...before.document, nodes: [...before.document.nodes, drawing] } } }] },
    });
    expect(seeded.status, JSON.stringify(seeded.body)).toBe(200);
    // The open editor follows the API's change without a reload (nothing was typed since the
    // last save), and shows the drawing's image from its download URL, read through the API.
    const slow = { timeout: 15_000 };
    await expect.poll(() => page.locator('.ProseMirror .drawing img[src]').count(), slow).toBe(1);
    await expect.poll(() => page.locator('.ProseMirror .drawing img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), slow).toBe(true);
    const panel = page.getByRole('region', { name: 'Block settings' });

    // 4. Alignment of a paragraph.
    await page.evaluate(() => window.quireEditor.focusEnd());
    await page.keyboard.type('Centred text');
    await panel.getByLabel('Alignment', { exact: true }).selectOption('center');
    await expect.poll(() => page.locator('.ProseMirror p[style*="center"]', { hasText: 'Centred text' }).count()).toBe(1);

    // 5. The image: width, dark-mode image (uploaded), the images block's alignment.
    await page.locator('.figure-image .figure-caption', { hasText: 'The caption' }).click();
    await panel.getByLabel('Width (px)').fill('240');
    await panel.getByLabel('Width (px)').press('Tab');
    await panel.getByRole('button', { name: 'Add dark-mode image…' }).click();
    const dialog = page.locator('dialog.editor-dialog[open]');
    await dialog.locator('input[type=file]').setInputFiles({ name: 'dark.png', mimeType: 'image/png', buffer: PNG });
    await dialog.getByRole('button', { name: 'Insert' }).click();
    await expect.poll(() => page.locator('.figure-dark img[src]').count(), slow).toBe(1);
    await panel.getByLabel('Align', { exact: true }).selectOption('center');
    await expect.poll(() => page.locator('.ProseMirror .images-center').count()).toBe(1);
    await page.screenshot({ path: path.join(SHOTS, 'editor-image-panel-desktop.png') });

    // 6. The button: an icon, then an action in place of its link.
    await page.locator('.ProseMirror .inline-button', { hasText: 'Go' }).click();
    await panel.getByLabel('Icon').fill('rocket');
    await panel.getByLabel('Icon').press('Tab');
    await panel.getByLabel('Action').selectOption('search');
    await panel.getByLabel('Query').fill('install');
    await panel.getByLabel('Query').press('Tab');
    await expect.poll(() => page.locator('.ProseMirror .inline-button .button-action').count()).toBe(1);

    // 2. A changelog through the slash menu: a date, a second update above the first.
    await page.evaluate(() => window.quireEditor.focusEnd());
    await page.keyboard.type('/updates');
    await page.locator('#slash-menu [data-kind="updates"]').waitFor();
    await page.keyboard.press('Enter');
    await page.waitForSelector('#quire-editor[data-busy="false"]');
    await page.keyboard.type('Shipped it.');
    await panel.getByLabel('Date', { exact: true }).fill('2026-11-20');
    await panel.getByLabel('Date', { exact: true }).press('Tab');
    await expect.poll(() => page.locator('.ProseMirror .update[data-date="2026-11-20"]').count()).toBe(1);
    await page.locator('.ProseMirror .update', { hasText: 'Shipped it.' }).click();
    await panel.getByRole('button', { name: 'Add update' }).click();
    await page.keyboard.type('Newer.');
    await expect.poll(() => page.locator('.ProseMirror .updates .update').count()).toBe(2);
    await panel.getByLabel('Date format').selectOption('short');

    // 8. The drawing: replaced by another image.
    await page.locator('.ProseMirror .drawing').click();
    await panel.getByRole('button', { name: 'Replace drawing image…' }).click();
    await dialog.locator('input[type=file]').setInputFiles({ name: 'new-drawing.png', mimeType: 'image/png', buffer: PNG });
    await dialog.getByRole('button', { name: 'Insert' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await page.evaluate(() => window.quireEditor.document())).nodes.find((node: any) => node.type === 'drawing').data.ref.file, slow).not.toBe(drawingFile);

    // 1. The cards table (put there by the first test): a card added, its title typed, its target page chosen.
    const cardsTable = page.locator('.ProseMirror table.table-cards');
    await cardsTable.locator('td', { hasText: 'Card text' }).click();
    await panel.getByRole('button', { name: 'Add card' }).click();
    await page.keyboard.type('New card');
    await expect.poll(() => cardsTable.locator('tr').count()).toBe(3);
    await cardsTable.locator('tr').nth(2).locator('td.ref-cell').click();
    await panel.getByLabel('Target page').selectOption(otherPageId);
    await expect.poll(() => cardsTable.locator('tr').nth(2).locator('td.ref-cell').textContent()).toBe('→ Travel');
    await page.screenshot({ path: path.join(SHOTS, 'editor-cards-desktop.png') });

    // 3. An OpenAPI operation: a spec of the organization, one of its operations, then another.
    const spec = { openapi: '3.0.0', info: { title: 'Pets', version: '1' }, paths: { '/pets': { get: { responses: { 200: { description: 'ok' } } }, post: { responses: { 201: { description: 'ok' } } } }, '/pets/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: { description: 'ok' } } } } } };
    const created = await t.request('POST', `/v1/orgs/${org.id}/openapi`, { token: org.admin.token, body: { slug: 'pets', source: { text: JSON.stringify(spec) } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // Processed in the background (the app's job worker).
    await expect
      .poll(async () => {
        await t.runJobsUntilIdle();
        return (await t.request('GET', `/v1/orgs/${org.id}/openapi/pets`, { token: org.admin.token })).body.processingState;
      }, slow)
      .toBe('complete');
    await page.evaluate(() => window.quireEditor.focusEnd());
    await page.keyboard.type('/openapi');
    await page.locator('#slash-menu [data-kind="openapi-operation"]').waitFor();
    await page.keyboard.press('Enter');
    await dialog.locator('select[name=spec]').selectOption('pets');
    await dialog.getByRole('button', { name: 'Insert' }).click();
    await dialog.locator('select[name=operation]').selectOption('POST /pets');
    await dialog.getByRole('button', { name: 'Insert' }).click();
    await expect.poll(() => page.locator('.ProseMirror .openapi-operation', { hasText: '/pets' }).textContent(), slow).toContain('POST /pets');
    await page.locator('.ProseMirror .openapi-operation', { hasText: '/pets' }).click();
    await panel.getByRole('button', { name: 'Change operation…' }).click();
    await dialog.getByRole('button', { name: 'Insert' }).click();
    await dialog.locator('select[name=operation]').selectOption('GET /pets/{id}');
    await dialog.getByRole('button', { name: 'Insert' }).click();
    await expect.poll(() => page.locator('.ProseMirror .openapi-operation', { hasText: '/pets' }).textContent(), slow).toContain('GET /pets/{id}');

    await page.evaluate(() => window.quireEditor.save());
    await expect.poll(() => page.locator('.save-status').textContent(), slow).toBe('Saved');

    // Read back through the API: what each control wrote.
    const saved = (await apiDocument(cr.id)).document;
    expect(findNode(saved.nodes, (node) => node.type === 'paragraph' && node.nodes[0]?.leaves?.[0]?.text === 'Centred text').data).toEqual({ align: 'center' });
    const images = findNode(saved.nodes, (node) => node.type === 'images');
    expect(images.data).toEqual({ align: 'center' });
    expect(images.nodes[0].data).toMatchObject({ width: 240, refDark: { kind: 'file', file: expect.any(String) }, alt: 'A screenshot' });
    expect(findNode(saved.nodes, (node) => node.type === 'button').data).toEqual({ label: 'Go', kind: 'primary', icon: 'rocket', action: { action: 'search', query: 'install' } });
    // (The first test inserted an empty changelog through the slash menu: this one has our text.)
    const updates = findNode(saved.nodes, (node) => node.type === 'updates' && JSON.stringify(node).includes('Shipped it.'));
    expect(updates.data).toEqual({ format: 'short' });
    expect(updates.nodes.map((update: any) => update.nodes[0].nodes[0].leaves[0].text)).toEqual(['Newer.', 'Shipped it.']);
    expect(updates.nodes[1].data).toEqual({ date: '2026-11-20T00:00:00.000Z' });
    expect(updates.nodes[0].data.date).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
    const savedDrawing = findNode(saved.nodes, (node) => node.type === 'drawing');
    expect(savedDrawing.data.ref).toEqual({ kind: 'file', file: expect.any(String) });
    expect(savedDrawing.data.ref.file).not.toBe(drawingFile);

    // Reload: the same document, which the editor would save unchanged; the engine's markdown of it reads back the same.
    await page.reload();
    await ready(page);
    expect(await page.evaluate(() => window.quireEditor.document())).toEqual(saved);
    const markdown = (await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}?format=markdown`, { token: org.admin.token, skipSchemaCheck: true })).body.markdown;
    expect(markdown).toContain('<p align="center">Centred text</p>');
    expect(markdown).toContain('width="240"');
    expect(markdown).toContain('media="(prefers-color-scheme: dark)"');
    expect(markdown).toContain('data-action="search" data-query="install" data-icon="rocket"');
    expect(markdown).toContain('{% updates format="short" %}');
    expect(markdown).toContain('{% update date="2026-11-20" %}');
    expect(markdown).toContain('class="gitbook-drawing"');
    expect(markdown).toContain('{% openapi-operation spec="pets" path="/pets/{id}" method="get" %}');
    expect(findNode(saved.nodes, (node) => node.type === 'openapi-operation').data).toEqual({ ref: { kind: 'openapi', spec: 'pets' }, path: '/pets/{id}', method: 'get' });
    expect(markdown).toMatch(/<table data-view="cards">.*<td>New card<\/td><td><a href="[^"]*">/);
    const table = findNode(saved.nodes, (node) => node.type === 'table' && node.data.view.type === 'cards');
    const cards = Object.values(table.data.records).sort((a: any, b: any) => (a.orderIndex < b.orderIndex ? -1 : 1)) as any[];
    expect(cards.map((card) => card.values.c1)).toEqual([{ kind: 'page', page: otherPageId }, { kind: 'page', page: otherPageId }]);
    expect(JSON.stringify(table.fragments.find((f: any) => f.fragment === cards[1].values.c0).nodes)).toContain('New card');
    expect(table.data.view).toEqual({ type: 'cards', columns: ['c0'], cardSize: 'medium', targetDefinition: 'c1' });
    expect(writePageMarkdown(readPageMarkdown(markdown).document)).toBe(markdown);

    // At 390 px: the image's panel fits the phone.
    const phone = await signedIn(writer, { width: 390 });
    await phone.goto(editorUrl);
    await ready(phone);
    await phone.locator('.figure-image .figure-caption', { hasText: 'The caption' }).tap();
    await phone.getByRole('region', { name: 'Block settings' }).getByLabel('Width (px)').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await phone.screenshot({ path: path.join(SHOTS, 'editor-image-panel-phone.png') });
    // A tap's selection arrives with the browser's selectionchange, after any layout shift of images loading: tapped again until it lands.
    const addCard = phone.getByRole('region', { name: 'Block settings' }).getByRole('button', { name: 'Add card' });
    await expect
      .poll(async () => {
        await phone.locator('.ProseMirror table.table-cards td', { hasText: 'New card' }).tap();
        await phone.waitForTimeout(300);
        return addCard.count();
      }, slow)
      .toBe(1);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await phone.screenshot({ path: path.join(SHOTS, 'editor-cards-phone.png') });

    // 7. The block handle on the phone: a finger drags "Centred text" above the drawing (real
    // touch events, which give pointer events as on a phone), then Alt+↓ moves it back.
    const centred = phone.locator('.ProseMirror p', { hasText: 'Centred text' });
    await centred.scrollIntoViewIfNeeded();
    await centred.tap();
    const handle = phone.getByRole('button', { name: /^Move block/ });
    await expect.poll(async () => Math.abs((await handle.boundingBox())!.y - (await centred.boundingBox())!.y), slow).toBeLessThan(12);
    const order = async () => {
      const nodes = (await phone.evaluate(() => window.quireEditor.document())).nodes;
      return [nodes.findIndex((n: any) => n.type === 'drawing'), nodes.findIndex((n: any) => n.type === 'paragraph' && JSON.stringify(n).includes('Centred text'))];
    };
    const [drawingAt, centredAt] = await order();
    expect(centredAt).toBe(drawingAt + 1);
    const from = (await handle.boundingBox())!;
    const to = (await phone.locator('.ProseMirror .drawing').boundingBox())!;
    const cdp = await phone.context().newCDPSession(phone);
    const touch = (type: string, x: number, y: number) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] } as any);
    const x = from.x + from.width / 2;
    await touch('touchStart', x, from.y + from.height / 2);
    for (let i = 1; i <= 5; i++) await touch('touchMove', x, from.y + from.height / 2 + ((to.y + 4 - (from.y + from.height / 2)) * i) / 5);
    await touch('touchEnd', x, to.y + 4);
    await expect.poll(order, slow).toEqual([drawingAt + 1, drawingAt]);
    await phone.screenshot({ path: path.join(SHOTS, 'editor-handle-phone.png') });
    await phone.keyboard.press('Alt+ArrowDown');
    await expect.poll(order).toEqual([drawingAt, drawingAt + 1]);
    await phone.keyboard.press('Alt+ArrowUp');
    await expect.poll(order).toEqual([drawingAt + 1, drawingAt]);
    const moved = await phone.evaluate(() => window.quireEditor.document());
    await phone.evaluate(() => window.quireEditor.save());
    await expect.poll(() => phone.locator('.save-status').textContent(), slow).toBe('Saved');
    // Read back: the same blocks, keys and all, the paragraph now before the drawing.
    // The editor moved the block with its key, and the revision store keeps the key of a block
    // that moved unchanged (src/content/markdown/keys.ts): the document read back is the moved one.
    const after = (await apiDocument(cr.id)).document;
    const isCentred = (n: any) => n.type === 'paragraph' && JSON.stringify(n).includes('Centred text');
    expect(moved.nodes.find(isCentred).key).toBe(saved.nodes.find(isCentred).key);
    expect(after).toEqual(moved);
    expect(after.nodes.filter((n: any) => !isCentred(n))).toEqual(saved.nodes.filter((n: any) => !isCentred(n)));
    expect(after.nodes.findIndex(isCentred)).toBe(after.nodes.findIndex((n: any) => n.type === 'drawing') - 1);
  });

  it('undo and redo; a table gets rows, columns and alignment', async () => {
    const page = await signedIn(writer);
    await page.goto(editorUrl);
    await ready(page);
    await page.evaluate(() => window.quireEditor.focusEnd());
    await page.keyboard.type('Undo me');
    await page.keyboard.press('Control+z');
    expect(await page.locator('.ProseMirror', { hasText: 'Undo me' }).count()).toBe(0);
    await page.keyboard.press('Control+Shift+z');
    expect(await page.locator('.ProseMirror', { hasText: 'Undo me' }).count()).toBe(1);
    // The grid table (the cards table before it has its own buttons, tested above).
    const grid = page.locator('.ProseMirror table:not(.table-cards)').first();
    await grid.locator('td').first().click();
    const rows = await grid.locator('tr').count();
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.getByRole('button', { name: 'Add column' }).click();
    await page.getByRole('button', { name: 'Align right' }).click();
    expect(await grid.locator('tr').count()).toBe(rows + 1);
    expect(await grid.locator('th').count()).toBe(3);
    const doc = await page.evaluate(() => window.quireEditor.document());
    const table = doc.nodes.find((node: any) => node.type === 'table' && node.data.view.type === 'grid');
    expect(Object.keys(table.data.records)).toHaveLength(rows);
    expect(Object.values(table.data.definition).map((d: any) => d.textAlignment)).toEqual(expect.arrayContaining(['right']));
  });

  it('looks right at desktop and phone widths, light and dark, and passes axe', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 390]) {
        const page = await signedIn(writer, { width, colorScheme, bypassCSP: true });
        await page.goto(editorUrl);
        await ready(page);
        // A measurement, not a test: navigation to an editable page.
        console.log(`editor ready in ${await page.locator('#quire-editor').getAttribute('data-ready-ms')} ms (${width} px, ${colorScheme}, ${(await page.evaluate(() => window.quireEditor.view.state.doc.childCount))} blocks)`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${width} ${colorScheme}`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: path.join(SHOTS, `editor-${width < 800 ? 'phone' : 'desktop'}-${colorScheme}.png`) });
        if (width === 1280 && colorScheme === 'light') {
          const axe = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
          await page.addScriptTag({ path: axe });
          const result = await page.evaluate(async () => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa'] }));
          const violations = result.violations.map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).slice(0, 3).join(', ')}`);
          expect(violations).toEqual([]);
        }
      }
    }
  });

  it('a read member sees no Edit button, and a forged write from their session answers 403', async () => {
    // The app's pages may not fetch (connect-src 'none'): the forged call runs as a script would elsewhere.
    const page = await signedIn(reader, { bypassCSP: true });
    await page.goto(`${url}/app/s/${spaceId}/pages/${pageId}`);
    expect(await page.locator('main h1').textContent()).toBe('Welcome');
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    const cr = (await t.request('GET', `/v1/spaces/${spaceId}/change-requests`, { token: org.admin.token })).body.items[0];
    const before = await apiDocument(cr.id);
    const status = await page.evaluate(
      async ({ spaceId, crId, pageId }) => {
        const csrf = document.querySelector('input[name=csrf]').value;
        const response = await fetch(`/v1/spaces/${spaceId}/change-requests/${crId}/content`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-quire-csrf': csrf },
          body: JSON.stringify({ changes: [{ operation: 'update_page', page: pageId, document: { markdown: 'Forged.' } }] }),
        });
        // Read to the end: a body still arriving when the page navigates is reported as aborted.
        await response.text();
        return response.status;
      },
      { spaceId, crId: cr.id, pageId },
    );
    expect(status).toBe(403);
    expect((await apiDocument(cr.id)).document).toEqual(before.document);
    // The editor page itself refuses them.
    const direct = await page.goto(editorUrl);
    expect(direct?.status()).toBe(403);
  });
});
