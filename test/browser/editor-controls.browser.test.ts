import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../app.ts';
import { createMember, createOrganization, type TestOrganization, type TestUser } from '../factories.ts';
import { closeExpectingNoErrors, editFromPage, editorReady, loginUrl, refusedStatus, spaceWith, TestBrowser } from './fixtures.ts';
import { servedTestApp } from './served-app.ts';

/*
 * The block panel's table controls in Chromium (issue 32, "Not supported yet"): a card's cover
 * image set (uploaded), replaced and removed; the card target column chosen; a grid column's
 * width; a table switched between grid and cards. Each saved, read back through the API (the
 * document, and the page's markdown as the engine writes it), and the editor reloaded on it.
 * Screenshots go to /tmp/editor-controls/.
 * The block handle moves a list item in its list and a paragraph in its hint, by keyboard
 * and pointer. A changelog update's tags.
 */

// Evaluated in the page: the browser's globals.
declare const window: any;

const SHOTS = '/tmp/editor-controls';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAGklEQVR42mNkYPhfz0AEYBxVSF+FAAhKDveksOjmAAAAAElFTkSuQmCC', 'base64');

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });

describe('the editor\'s table controls in a browser', { timeout: 300_000 }, () => {
  let t: TestApp;
  let url: string;
  let org: TestOrganization;
  let writer: TestUser;
  let browser: TestBrowser;
  let spaceId: string;
  let pageId: string;
  let otherPageId: string;
  let listsPageId: string;
  let changelogPageId: string;

  async function signedIn(user: TestUser): Promise<Page> {
    const page = await browser.page({ viewport: { width: 1280, height: 900 } }, { expected: refusedStatus });
    await page.goto(await loginUrl(t, url, user));
    return page;
  }

  const ready = editorReady;
  const apiDocument = async (crId: string) => (await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/content/page/${pageId}`, { token: org.admin.token, skipSchemaCheck: true })).body.document;
  const apiMarkdown = async (crId: string) => (await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/content/page/${pageId}?format=markdown`, { token: org.admin.token, skipSchemaCheck: true })).body.markdown as string;
  const slow = { timeout: 15_000 };
  const save = async (page: Page) => {
    await page.evaluate(() => window.quireEditor.save());
    await expect.poll(() => page.locator('.save-status').textContent(), slow).toBe('Saved');
  };
  const tables = (document: any) => document.nodes.filter((node: any) => node.type === 'table');
  const byOrder = (table: any) => Object.values(table.data.records).sort((a: any, b: any) => (a.orderIndex < b.orderIndex ? -1 : 1)) as any[];

  beforeAll(async () => {
    // Signed download URLs (the uploaded cover) are made with DOWNLOAD_URL: the app's own address.
    ({ t, url } = await servedTestApp({}, { downloads: true }));
    org = await createOrganization(t, { title: 'Acme Docs' });
    writer = await createMember(t, org.id, 'edit', { displayName: 'Wanda Writer' });
    spaceId = await spaceWith(t, org, 'Handbook', (e) => {
      pageId = e.insertPage({ title: 'Welcome', markdown: 'The handbook.\n' });
      otherPageId = e.insertPage({ title: 'Travel', markdown: 'Book trains.\n' });
      listsPageId = e.insertPage({ title: 'Lists', markdown: '* One\n* Two\n* Three\n\n{% hint style="info" %}\nFirst.\n\nSecond.\n{% endhint %}\n\nAfter.\n' });
      changelogPageId = e.insertPage({ title: 'Changelog', markdown: '{% updates format="full" %}\n\n{% update date="2025-12-17" tags="fix" %}\nShipped.\n{% endupdate %}\n{% endupdates %}\n' });
    });
    browser = await TestBrowser.launch(SHOTS);
  }, 180_000);

  afterAll(() => closeExpectingNoErrors(browser, t));

  it('a card cover set, replaced and removed; the target column chosen; a grid column width; grid and cards switched; saved and read back', async () => {
    const page = await signedIn(writer);
    await editFromPage(page, url, spaceId, pageId);
    const cr = (await t.request('GET', `/v1/spaces/${spaceId}/change-requests`, { token: org.admin.token })).body.items[0];

    // An API client's cards table (a target column, no cover) and a grid.
    const cards = {
      object: 'block', type: 'table', isVoid: true,
      data: {
        view: { type: 'cards', columns: ['c0'], cardSize: 'medium', targetDefinition: 'c1' },
        records: {
          r0: { orderIndex: 'a0', values: { c0: 'r0c0', c1: { kind: 'page', page: otherPageId } } },
          r1: { orderIndex: 'a1', values: { c0: 'r1c0', c1: null } },
        },
        definition: { c0: { id: 'c0', title: 'Card', type: 'text', textAlignment: 'left' }, c1: { id: 'c1', title: 'Target', type: 'content-ref' } },
      },
      fragments: [
        { object: 'fragment', fragment: 'r0c0', nodes: [paragraph('First card')] },
        { object: 'fragment', fragment: 'r1c0', nodes: [paragraph('Second card')] },
      ],
    };
    const grid = {
      object: 'block', type: 'table', isVoid: true,
      data: {
        view: { type: 'grid', columns: ['g0', 'g1'], hideHeader: false },
        records: { r0: { orderIndex: 'a0', values: { g0: 'f0', g1: 'f1' } } },
        definition: { g0: { id: 'g0', title: 'Name', type: 'text', textAlignment: 'left' }, g1: { id: 'g1', title: 'Value', type: 'text', textAlignment: 'left' } },
      },
      fragments: [
        { object: 'fragment', fragment: 'f0', nodes: [paragraph('Grid name')] },
        { object: 'fragment', fragment: 'f1', nodes: [paragraph('Grid value')] },
      ],
    };
    const before = await apiDocument(cr.id);
    const seeded = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      token: org.admin.token,
      body: { changes: [{ operation: 'update_page', page: pageId, document: { document: { ...before, nodes: [...before.nodes, cards, grid] } } }] },
    });
    expect(seeded.status, JSON.stringify(seeded.body)).toBe(200);
    await page.reload();
    await ready(page);
    const panel = page.getByRole('region', { name: 'Block settings' });
    const dialog = page.locator('dialog.editor-dialog[open]');
    const cardsTable = page.locator('.ProseMirror table.table-cards');
    await expect.poll(() => cardsTable.count(), slow).toBe(1);

    // 1. A cover column added, the first card's cover uploaded: shown as the image.
    await cardsTable.locator('td', { hasText: 'First card' }).click();
    await panel.getByRole('button', { name: 'Add cover image column' }).click();
    await expect.poll(() => cardsTable.locator('td.cover-cell').count()).toBe(2);
    await cardsTable.locator('tr').nth(1).locator('td.cover-cell').click();
    await panel.getByRole('button', { name: 'Set cover image…' }).click();
    await dialog.locator('input[type=file]').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
    await dialog.getByRole('button', { name: 'Insert' }).click();
    await expect.poll(() => cardsTable.locator('tr').nth(1).locator('td.cover-cell img[src]').count(), slow).toBe(1);
    await page.screenshot({ path: `${SHOTS}/editor-cover-desktop.png` });
    await save(page);
    let saved = await apiDocument(cr.id);
    let table = tables(saved)[0];
    const cover = table.data.view.coverDefinition;
    expect(table.data.definition[cover]).toMatchObject({ type: 'files' });
    expect(table.data.view).toMatchObject({ type: 'cards', columns: ['c0'], targetDefinition: 'c1', coverDefinition: cover });
    const [first, second] = byOrder(table);
    expect(first.values[cover]).toEqual([expect.any(String)]);
    expect(second.values[cover]).toBeUndefined();
    const files = (await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/files`, { token: org.admin.token, skipSchemaCheck: true })).body;
    expect(JSON.stringify(files)).toContain(first.values[cover][0]);
    let markdown = await apiMarkdown(cr.id);
    expect(markdown).toMatch(/<th data-hidden data-card-cover data-type="files">Cover image<\/th>/);
    expect(markdown).toMatch(/<td>First card<\/td><td><a href="[^"]*">[^<]*<\/a><\/td><td><a href="[^"]*\.gitbook\/assets\/cover\.png">cover\.png<\/a><\/td>/);
    const firstCover = first.values[cover][0];

    // 2. Replaced (a new upload), then the second card's target column set to none and back.
    await cardsTable.locator('tr').nth(1).locator('td.cover-cell').click();
    await panel.getByRole('button', { name: 'Replace cover image…' }).click();
    await dialog.locator('input[type=file]').setInputFiles({ name: 'cover-2.png', mimeType: 'image/png', buffer: PNG });
    await dialog.getByRole('button', { name: 'Insert' }).click();
    const coverInEditor = () => page.evaluate((column) => {
      const table = window.quireEditor.document().nodes.find((n: any) => n.type === 'table');
      return Object.values(table.data.records).sort((a: any, b: any) => (a.orderIndex < b.orderIndex ? -1 : 1)).map((r: any) => r.values[column] ?? null)[0];
    }, cover);
    await expect.poll(async () => (await coverInEditor())?.[0], slow).not.toBe(firstCover);
    await cardsTable.locator('td', { hasText: 'Second card' }).click();
    await panel.getByLabel('Card target column').selectOption('');
    await expect.poll(() => page.evaluate(() => window.quireEditor.document().nodes.find((n: any) => n.type === 'table').data.view.targetDefinition ?? null)).toBeNull();
    await save(page);
    markdown = await apiMarkdown(cr.id);
    expect(markdown).not.toContain('data-card-target');
    expect(markdown).toContain('cover-2.png');
    await panel.getByLabel('Card target column').selectOption('c1');
    // 3. Removed.
    await cardsTable.locator('tr').nth(1).locator('td.cover-cell').click();
    await panel.getByRole('button', { name: 'Remove cover image' }).click();
    await expect.poll(() => cardsTable.locator('tr').nth(1).locator('td.cover-cell img').count()).toBe(0);

    // 4. The grid: a column width, then shown as cards, and back as a grid.
    const gridTable = page.locator('.ProseMirror table:not(.table-cards)');
    await gridTable.locator('td', { hasText: 'Grid name' }).click();
    await panel.getByLabel('Column width (px)').fill('180');
    await panel.getByLabel('Column width (px)').press('Tab');
    await expect.poll(() => gridTable.locator('th').first().getAttribute('style')).toContain('width: 180px');
    await save(page);
    saved = await apiDocument(cr.id);
    [table] = tables(saved);
    expect(table.data.view).toEqual({ type: 'cards', columns: ['c0'], cardSize: 'medium', targetDefinition: 'c1', coverDefinition: cover });
    expect(byOrder(table)[0].values[cover]).toEqual([]);
    expect(tables(saved)[1].data.view).toEqual({ type: 'grid', columns: ['g0', 'g1'], hideHeader: false, columnWidths: { g0: 180 } });
    markdown = await apiMarkdown(cr.id);
    expect(markdown).toContain('<th width="180">Name</th>');
    expect(markdown).toMatch(/<td>First card<\/td><td><a href="[^"]*">[^<]*<\/a><\/td><td><\/td><\/tr>/);

    await gridTable.locator('td', { hasText: 'Grid name' }).click();
    await panel.getByRole('button', { name: 'Show as cards' }).click();
    await expect.poll(() => page.locator('.ProseMirror table.table-cards').count()).toBe(2);
    await save(page);
    saved = await apiDocument(cr.id);
    expect(tables(saved)[1].data.view).toEqual({ type: 'cards', columns: ['g0', 'g1'], cardSize: 'medium' });
    markdown = await apiMarkdown(cr.id);
    expect(markdown).toContain('<table data-view="cards"><thead><tr><th>Name</th><th>Value</th></tr></thead>');

    // Reload: the same document, which the editor would save unchanged.
    await page.reload();
    await ready(page);
    expect(await page.evaluate(() => window.quireEditor.document())).toEqual(saved);
    await page.locator('.ProseMirror table.table-cards').nth(1).locator('td', { hasText: 'Grid name' }).click();
    await panel.getByRole('button', { name: 'Show as grid' }).click();
    await save(page);
    // A cards view holds no widths (GitBook's schema): saved as cards, the width is gone.
    expect(tables(await apiDocument(cr.id))[1].data.view).toEqual({ type: 'grid', columns: ['g0', 'g1'], hideHeader: false });
    expect(await apiMarkdown(cr.id)).toContain('| Name      | Value      |\n| --------- | ---------- |\n| Grid name | Grid value |');
  });

  it('the block handle moves a list item within its list and a paragraph within its hint, by Alt+arrows, the focused handle\'s arrows and a pointer drag', async () => {
    const page = await signedIn(writer);
    await editFromPage(page, url, spaceId, listsPageId);
    const cr = (await t.request('GET', `/v1/spaces/${spaceId}/change-requests`, { token: org.admin.token })).body.items[0];
    const words = (node: any): string[] => (node.nodes ?? []).map((child: any) => JSON.stringify(child).match(/"text":"([^"]+)"/)?.[1]);
    const order = async () => {
      const nodes = (await page.evaluate(() => window.quireEditor.document())).nodes;
      return { list: words(nodes[0]), hint: words(nodes[1]), after: nodes.length };
    };
    const item = (text: string) => page.locator('.ProseMirror li', { hasText: text });
    const handle = page.getByRole('button', { name: /^Move block/ });

    // Alt+↑ in the second item: it moves above the first, inside the list.
    await item('Two').click();
    // The editor has read the click's selection once the handle stands beside the item.
    await expect.poll(async () => Math.abs((await handle.boundingBox())!.y - (await item('Two').boundingBox())!.y), slow).toBeLessThan(12);
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(order).toEqual({ list: ['Two', 'One', 'Three'], hint: ['First.', 'Second.'], after: 3 });
    // The focused handle's ↑ on the hint's second paragraph: above the first, inside the hint.
    await page.locator('.ProseMirror p', { hasText: 'Second.' }).click();
    await expect.poll(async () => Math.abs((await handle.boundingBox())!.y - (await page.locator('.ProseMirror p', { hasText: 'Second.' }).boundingBox())!.y), slow).toBeLessThan(12);
    await handle.focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(order).toEqual({ list: ['Two', 'One', 'Three'], hint: ['Second.', 'First.'], after: 3 });
    // A pointer drag of the last item, by its handle (beside the item, not the list), to the top of the list.
    await item('Three').click();
    await expect.poll(async () => Math.abs((await handle.boundingBox())!.y - (await item('Three').boundingBox())!.y), slow).toBeLessThan(12);
    const from = (await handle.boundingBox())!;
    const to = (await item('Two').boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 5; i++) await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + ((to.y + 3 - (from.y + from.height / 2)) * i) / 5);
    await expect.poll(() => page.locator('.block-drop-line:not([hidden])').count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/editor-nested-drag-desktop.png` });
    await page.mouse.up();
    await expect.poll(order).toEqual({ list: ['Three', 'Two', 'One'], hint: ['Second.', 'First.'], after: 3 });

    await save(page);
    const saved = (await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${listsPageId}`, { token: org.admin.token, skipSchemaCheck: true })).body.document;
    expect(saved.nodes.map((n: any) => n.type)).toEqual(['list-unordered', 'hint', 'paragraph']);
    expect(words(saved.nodes[0])).toEqual(['Three', 'Two', 'One']);
    expect(words(saved.nodes[1])).toEqual(['Second.', 'First.']);
    const markdown = (await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${listsPageId}?format=markdown`, { token: org.admin.token, skipSchemaCheck: true })).body.markdown;
    expect(markdown).toMatch(/^\* Three\n\* Two\n\* One\n\n\{% hint style="info" %\}\nSecond\.\n\nFirst\.\n\{% endhint %\}\n\nAfter\.\n$/);
  });

  it('a changelog update\'s tags: shown, changed, saved, written as GitBook\'s tags="…"', async () => {
    const page = await signedIn(writer);
    await editFromPage(page, url, spaceId, changelogPageId);
    const cr = (await t.request('GET', `/v1/spaces/${spaceId}/change-requests`, { token: org.admin.token })).body.items[0];
    const panel = page.getByRole('region', { name: 'Block settings' });
    await page.locator('.ProseMirror p', { hasText: 'Shipped.' }).click();
    await expect.poll(() => panel.getByLabel('Tags').inputValue()).toBe('fix');
    await panel.getByLabel('Tags').fill('fix, data-quality');
    await panel.getByLabel('Tags').press('Tab');
    await save(page);
    const read = (format = '') => t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${changelogPageId}${format}`, { token: org.admin.token, skipSchemaCheck: true });
    const saved = (await read()).body.document;
    expect(saved.nodes[0].nodes[0].data).toEqual({ date: '2025-12-17T00:00:00.000Z', tags: [{ kind: 'tag', tag: 'fix' }, { kind: 'tag', tag: 'data-quality' }] });
    expect((await read('?format=markdown')).body.markdown).toContain('{% update date="2025-12-17" tags="fix,data-quality" %}\nShipped.\n{% endupdate %}');
    // A value that is no tag slug is refused: the tags stay.
    await panel.getByLabel('Tags').fill('Not A Slug');
    await panel.getByLabel('Tags').press('Tab');
    await expect.poll(() => page.evaluate(() => window.quireEditor.document().nodes[0].nodes[0].data.tags.length)).toBe(2);
  });
});
