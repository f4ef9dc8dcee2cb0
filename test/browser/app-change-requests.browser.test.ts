import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../app.ts';
import { createMember, createOrganization, type TestOrganization, type TestUser } from '../factories.ts';
import { signInByCookie, spaceWith, TestBrowser } from './fixtures.ts';
import { servedTestApp } from './served-app.ts';

/*
 * Change requests in the app in Chromium, with plain forms only (issue 32): open one, add,
 * rename, move and delete pages, comment on a block, a second member approves, merge; a
 * reader sees no edit control and a forged POST answers 403; an outdated change request
 * shows its conflict and the update is refused. With the page's script: a group is added,
 * pages are dragged into it and between siblings, and the description is edited as rich text
 * and read back through the API. Screenshots (light, dark, 390 px) go to /tmp/tree32/.
 */

const SHOTS = '/tmp/tree32';

describe('change requests in the app, in a browser', () => {
  let t: TestApp;
  let url: string;
  let org: TestOrganization;
  let editor: TestUser;
  let reviewer: TestUser;
  let reader: TestUser;
  let browser: TestBrowser;
  let spaceId: string;
  let welcomeId: string;

  beforeAll(async () => {
    ({ t, url } = await servedTestApp());
    org = await createOrganization(t, { title: 'Acme Docs' });
    editor = await createMember(t, org.id, 'edit', { displayName: 'Eda Editor' });
    reviewer = await createMember(t, org.id, 'review', { displayName: 'Rev Reviewer' });
    reader = await createMember(t, org.id, 'read', { displayName: 'Rita Reader' });
    spaceId = await spaceWith(t, org, 'Handbook', (e) => {
      welcomeId = e.insertPage({ title: 'Welcome', markdown: 'Hello **team**.\n\nBook trains, not planes.\n\n- one\n- two\n' });
    });
    await t.request('PATCH', `/v1/spaces/${spaceId}`, {
      token: org.admin.token,
      body: { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reviewer.id] }] } },
    });
    browser = await TestBrowser.launch(SHOTS);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedIn(user: TestUser, options: { width?: number; dark?: boolean } = {}): Promise<Page> {
    const context = await browser.context({ viewport: { width: options.width ?? 1280, height: 900 }, colorScheme: options.dark ? 'dark' : 'light' });
    await signInByCookie(t, context, user, url);
    return context.newPage();
  }
  const pagesOf = async (number: string) =>
    (await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${number}/content/pages`, { token: org.admin.token })).body.pages as { id: string; title: string; emoji?: string }[];
  const numberOf = (page: Page) => /change-requests\/(\d+)/.exec(page.url())![1];

  // Generous timeouts: a few dozen page loads on a shared machine.
  it('opens a change request, edits the tree, comments on a block; a second member approves and merges', { timeout: 120_000 }, async () => {
    const page = await signedIn(editor);
    await page.goto(`${url}/app/s/${spaceId}`);
    await page.getByRole('link', { name: 'Change requests' }).click();
    await page.screenshot({ path: `${SHOTS}/cr-list-light.png`, fullPage: true });
    await page.getByLabel('Subject of the new change request').fill('Travel policy');
    await page.getByRole('button', { name: 'New change request' }).click();
    await page.waitForURL(/change-requests\/\d+$/);
    const number = numberOf(page);
    expect(await page.locator('h1').innerText()).toContain('Travel policy');

    // Add two pages, rename one with an emoji, move, delete: all plain forms.
    const addPage = async (title: string) => {
      await page.getByText('Add a page or group').click();
      const form = page.locator('form[action$="/pages"]');
      await form.getByLabel('Title').fill(title);
      await form.getByRole('button', { name: 'Add', exact: true }).click();
      await page.waitForLoadState();
    };
    await addPage('Trains');
    await addPage('Scratch');
    expect((await pagesOf(number)).map((p) => p.title)).toEqual(['Welcome', 'Trains', 'Scratch']);
    await page.getByText('Edit Trains').click();
    const trainsForm = page.locator('li[data-tree-page] details[open] form');
    await trainsForm.getByLabel('Title').fill('Rail travel');
    await trainsForm.getByLabel('Emoji').fill('🚆');
    await trainsForm.getByRole('button', { name: 'Save page' }).click();
    await page.getByRole('button', { name: 'Move up: Rail travel' }).click();
    await page.waitForLoadState();
    expect((await pagesOf(number)).map((p) => p.title)).toEqual(['Rail travel', 'Welcome', 'Scratch']);
    await page.getByRole('button', { name: 'Indent: Scratch' }).click();
    await page.waitForLoadState();
    expect((await pagesOf(number)).map((p) => p.title)).toEqual(['Rail travel', 'Welcome']);
    await page.screenshot({ path: `${SHOTS}/cr-tree-light.png`, fullPage: true });
    const dark = await signedIn(editor, { dark: true });
    await dark.goto(`${page.url().split('#')[0]}#pages`);
    await dark.getByText('Edit Welcome').click();
    await dark.screenshot({ path: `${SHOTS}/cr-tree-dark.png` });
    await page.getByRole('button', { name: 'Delete: Scratch' }).click();
    await page.waitForLoadState();
    const tree = await pagesOf(number);
    expect(tree.map((p) => [p.title, p.emoji])).toEqual([
      ['Rail travel', '🚆'],
      ['Welcome', undefined],
    ]);

    // The content itself comes from the editor (another page): here through the API.
    await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${number}/content`, {
      token: editor.token,
      body: { changes: [{ operation: 'update_page', page: welcomeId, document: { markdown: 'Hello **team**.\n\nBook trains, never planes.\n\n- one\n- two\n' } }] },
    });
    await page.reload();
    await page.locator(`section.change[data-page="${welcomeId}"]`).getByRole('link', { name: 'Comment on blocks' }).click();
    const block = page.locator('.block', { hasText: 'never planes' });
    await block.getByRole('link', { name: /^Comment on block \d+$/ }).click();
    await page.getByRole('textbox', { name: 'Comment on this block' }).fill('Trains only within Europe?');
    await page.locator('#comment-form').getByRole('button', { name: 'Comment', exact: true }).click();
    await page.waitForURL(new RegExp(`/pages/${welcomeId}#block-`));
    const commented = page.locator('.block', { hasText: 'never planes' });
    expect(await commented.locator('.comment').innerText()).toContain('Trains only within Europe?');
    const nodeId = await commented.getAttribute('data-node');
    await page.screenshot({ path: `${SHOTS}/cr-blocks-light.png`, fullPage: true });
    const stored = (await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${number}/comments`, { token: org.admin.token })).body.items;
    expect(stored[0].target).toMatchObject({ page: { id: welcomeId }, node: { id: nodeId } });

    // The merge waits for the reviewer the rules name, and says so.
    await page.goto(`${url}/app/s/${spaceId}/change-requests/${number}`);
    expect(await page.locator('[data-merge-blockers]').innerText()).toContain('Merging needs the review role');
    await page.getByLabel('Ask for a review').selectOption(reviewer.id);
    await page.getByRole('button', { name: 'Request review' }).click();
    await page.waitForLoadState();
    expect(await page.locator('main').innerText()).toContain('Review requested of: Rev Reviewer');
    await page.screenshot({ path: `${SHOTS}/cr-page-light.png`, fullPage: true });

    const second = await signedIn(reviewer, { dark: true });
    await second.goto(`${url}/app/s/${spaceId}/change-requests/${number}`);
    expect(await second.locator('[data-merge-blockers]').innerText()).toContain('Rev Reviewer (merge rules)');
    await second.screenshot({ path: `${SHOTS}/cr-page-dark.png`, fullPage: true });
    await second.getByLabel('Review comment (optional)').fill('Fine by me');
    await second.getByRole('button', { name: 'Approve' }).click();
    await second.waitForLoadState();
    expect(await second.locator('main').innerText()).toMatch(/Rev Reviewer: approved/);
    await second.getByRole('button', { name: 'Merge', exact: true }).click();
    await second.waitForLoadState();
    expect(await second.locator('h1 .badge').innerText()).toBe('merged');
    const cr = (await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${number}`, { token: org.admin.token })).body;
    expect(cr.status).toBe('merged');
    const main = (await t.request('GET', `/v1/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages;
    expect(main.map((p: { title: string }) => p.title)).toEqual(['Rail travel', 'Welcome']);
  });

  it('adds a group, drags pages into it and between siblings, deletes one; edits the description as rich text, read back through the API', { timeout: 120_000 }, async () => {
    const cr = (await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: editor.token, body: { subject: 'Reorganise' } })).body;
    const number = String(cr.number);
    const crUrl = `${url}/app/s/${spaceId}/change-requests/${number}`;
    const page = await signedIn(editor);
    await page.goto(crUrl);
    const before = (await pagesOf(number)).map((p) => p.title);

    const add = async (title: string, kind: 'document' | 'group') => {
      await page.getByText('Add a page or group').click();
      const form = page.locator('form[action$="/pages"]');
      await form.getByLabel('Title').fill(title);
      await form.getByLabel('Kind').selectOption(kind);
      await form.getByRole('button', { name: 'Add', exact: true }).click();
      await page.locator('li[data-tree-page]', { hasText: title }).waitFor();
    };
    await add('Guides', 'group');
    await add('Setup', 'document');
    await add('Usage', 'document');
    type Entry = { id: string; title: string; type: string; pages?: Entry[] };
    const tree = async () => (await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${number}/content/pages`, { token: org.admin.token })).body.pages as Entry[];
    let pages = await tree();
    expect(pages.map((p) => [p.title, p.type])).toEqual([...before.map((title) => [title, 'document']), ['Guides', 'group'], ['Setup', 'document'], ['Usage', 'document']]);
    const idOf = (title: string) => pages.find((p) => p.title === title)!.id;
    const [guides, setup, usage] = [idOf('Guides'), idOf('Setup'), idOf('Usage')];
    const welcome = idOf('Welcome');

    // Each drop posts one move and the page comes back with the tree as stored.
    const row = (id: string) => page.locator(`li[data-tree-page="${id}"] > .row`);
    const drag = async (id: string, onto: string, where: 'before' | 'after' | 'inside') => {
      const box = (await row(onto).boundingBox())!;
      const y = where === 'before' ? 2 : where === 'after' ? box.height - 2 : box.height / 2;
      await page.locator(`li[data-tree-page="${id}"] > .row > .drag-handle`).dragTo(row(onto), { targetPosition: { x: 40, y } });
    };
    await drag(setup, guides, 'inside');
    await page.locator(`li[data-tree-page="${guides}"] li[data-tree-page="${setup}"]`).waitFor();
    await drag(usage, guides, 'inside');
    await page.locator(`li[data-tree-page="${guides}"] li[data-tree-page="${usage}"]`).waitFor();
    pages = await tree();
    expect(pages.find((p) => p.id === guides)!.pages!.map((p) => p.title)).toEqual(['Setup', 'Usage']);
    // Between siblings: Usage before Setup inside the group, the group before Welcome at the top.
    await drag(usage, setup, 'before');
    await page.locator(`li[data-tree-page="${usage}"] + li[data-tree-page="${setup}"]`).waitFor();
    // This one by hand, to see the drop mark while the page is held over Welcome's top edge.
    const handle = (await page.locator(`li[data-tree-page="${guides}"] > .row > .drag-handle`).boundingBox())!;
    const onto = (await row(welcome).boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(onto.x + 40, onto.y + 10, { steps: 5 });
    await page.mouse.move(onto.x + 40, onto.y + 2, { steps: 2 });
    expect(await row(welcome).getAttribute('class')).toContain('drop-before');
    await page.locator('#pages').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/tree-drop-light.png` });
    await page.mouse.up();
    await page.locator(`li[data-tree-page="${guides}"] + li[data-tree-page="${welcome}"]`).waitFor();
    pages = await tree();
    const expected = [...before];
    expected.splice(before.indexOf('Welcome'), 0, 'Guides');
    expect(pages.map((p) => p.title)).toEqual(expected);
    const group = () => pages.find((p) => p.id === guides)!;
    expect(group().type).toBe('group');
    expect(group().pages!.map((p) => p.title)).toEqual(['Usage', 'Setup']);
    // The keyboard's buttons still move: Setup up again.
    await page.getByRole('button', { name: 'Move up: Setup' }).click();
    await page.locator(`li[data-tree-page="${setup}"] + li[data-tree-page="${usage}"]`).waitFor();
    await page.screenshot({ path: `${SHOTS}/tree-light.png`, fullPage: true });
    await page.getByRole('button', { name: 'Delete: Usage' }).click();
    await page.locator(`li[data-tree-page="${usage}"]`).waitFor({ state: 'detached' });
    pages = await tree();
    expect(group().pages!.map((p) => p.title)).toEqual(['Setup']);

    // The description as rich text: bold, a bulleted list, a link; saved as the API's document.
    await page.getByText('Edit subject and description').click();
    const text = page.getByRole('textbox', { name: 'Description', exact: true });
    await text.click();
    await page.keyboard.type('Fast ');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('trains');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type(' only.');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Bulleted list' }).click();
    await page.keyboard.type('one');
    await page.keyboard.press('Enter');
    await page.keyboard.type('two');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('See ');
    page.once('dialog', (dialog) => void dialog.accept('https://example.com/rail'));
    await page.getByRole('button', { name: 'Link' }).click();
    expect(await page.getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed')).toBe('false');
    await page.screenshot({ path: `${SHOTS}/description-light.png` });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('.cr-description strong', { hasText: 'trains' }).waitFor();
    const description = (await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${number}`, { token: org.admin.token })).body.description;
    expect(description.nodes.map((n: { type: string }) => n.type)).toEqual(['paragraph', 'list-unordered', 'paragraph']);
    const leaves = description.nodes[0].nodes.flatMap((n: { leaves?: { text: string; marks: { type: string }[] }[] }) => n.leaves ?? []);
    expect(leaves.map((l: { text: string; marks: { type: string }[] }) => [l.text, l.marks.map((m) => m.type)])).toEqual([
      ['Fast ', []],
      ['trains', ['bold']],
      [' only.', []],
    ]);
    expect(JSON.stringify(description.nodes[2])).toContain('"url":"https://example.com/rail"');
    expect(await page.locator('.cr-description').innerText()).toMatch(/Fast trains only\.\s+one\s+two\s+See https:\/\/example\.com\/rail/);
    // Opened again, the editor starts from what was stored.
    await page.getByText('Edit subject and description').click();
    expect(await text.innerText()).toContain('Fast trains only.');
    expect(await text.locator('strong').innerText()).toBe('trains');

    // Dark, and a phone (390 px) in both: the tree with its handles, the rich-text field.
    for (const [name, options] of [
      ['tree-dark', { dark: true }],
      ['tree-phone-light', { width: 390 }],
      ['tree-phone-dark', { width: 390, dark: true }],
    ] as const) {
      const other = await signedIn(editor, options);
      await other.goto(`${crUrl}#pages`);
      await other.locator('.drag-handle').first().waitFor();
      await other.getByText('Edit subject and description').click();
      await other.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
      expect(await other.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(options.width ?? 1280);
    }
  });

  it('a read member sees no edit, review, merge or comment control, and a forged POST answers 403', { timeout: 60_000 }, async () => {
    const cr = (await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: editor.token, body: { subject: 'Quiet change' } })).body;
    const page = await signedIn(reader);
    await page.goto(`${url}/app/s/${spaceId}/change-requests/${cr.number}`);
    expect(await page.locator('h1').innerText()).toContain('Quiet change');
    const main = page.locator('main');
    for (const control of ['Add a page', 'Approve', 'Merge', 'Archive', 'Edit subject and description', 'Request review']) {
      expect(await main.getByText(control, { exact: true }).count(), control).toBe(0);
    }
    expect(await main.locator('textarea, form[method=post]').count()).toBe(0);
    // A forged form post, with the session's real CSRF token: the service refuses it.
    const csrf = await page.locator('input[name=csrf]').first().inputValue();
    const forged = await page.request.post(`${url}/app/s/${spaceId}/change-requests/${cr.number}/pages`, {
      form: { csrf, title: 'Forged page' },
      headers: { origin: url },
    });
    expect(forged.status()).toBe(403);
    expect(await forged.text()).toContain('edit role');
    expect((await pagesOf(String(cr.number))).map((p) => p.title)).not.toContain('Forged page');

    // Phone width, light and dark.
    const phone = await signedIn(reader, { width: 390 });
    await phone.goto(`${url}/app/s/${spaceId}/change-requests/1`);
    await phone.screenshot({ path: `${SHOTS}/cr-phone-light.png`, fullPage: true });
    const scroll = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(scroll).toBeLessThanOrEqual(390);
    const phoneDark = await signedIn(editor, { width: 390, dark: true });
    await phoneDark.goto(`${url}/app/s/${spaceId}/change-requests/${cr.number}`);
    await phoneDark.screenshot({ path: `${SHOTS}/cr-phone-dark.png`, fullPage: true });
    expect(await phoneDark.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it('shows an outdated change request with its conflict; the update from main is refused with the page named', { timeout: 60_000 }, async () => {
    const mine = (await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: editor.token, body: { subject: 'Reword welcome' } })).body;
    const edit = (number: number, token: string, markdown: string) =>
      t.request('POST', `/v1/spaces/${spaceId}/change-requests/${number}/content`, { token, body: { changes: [{ operation: 'update_page', page: welcomeId, document: { markdown } }] } });
    await edit(mine.number, editor.token, 'Hello **crew**.\n\nBook trains, never planes.\n\n- one\n- two\n');
    const theirs = (await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: org.admin.token, body: { subject: 'Main' } })).body;
    await edit(theirs.number, org.admin.token, 'Hello **everyone**.\n\nBook trains, never planes.\n\n- one\n- two\n');
    await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${theirs.number}/reviews`, { token: reviewer.token, body: { status: 'approved' } });
    expect((await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${theirs.number}/merge`, { token: org.admin.token })).status).toBe(200);

    const page = await signedIn(editor);
    await page.goto(`${url}/app/s/${spaceId}/change-requests/${mine.number}`);
    expect(await page.locator('[data-outdated]').innerText()).toContain('Outdated');
    expect(await page.locator('[data-conflicts]').innerText()).toContain('Welcome');
    await page.screenshot({ path: `${SHOTS}/cr-outdated-light.png`, fullPage: true });
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/update')), page.getByRole('button', { name: 'Update from main' }).click()]);
    expect(response.status()).toBe(409);
    expect(await page.locator('[role=alert]').innerText()).toContain('conflicts with the space');
  });
});
