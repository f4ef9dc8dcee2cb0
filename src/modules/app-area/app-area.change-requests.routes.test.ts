import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { editSpaceContent } from '../content/content.service.ts';
import { startSession } from '../sessions/sessions.service.ts';
import { editorAssets } from '../../editor/assets.ts';

/*
 * Change requests in the app (issue 32): each form POST does what the API does as that
 * member, answers 303 back, or shows the refusal with its 4xx and changes nothing. State
 * is read back through the API.
 */
describe('app area: change requests', () => {
  let t: TestApp;
  let org: TestOrganization;
  let editor: TestUser;
  let reviewer: TestUser;
  let commenter: TestUser;
  let reader: TestUser;
  let spaceId: string;
  let welcomeId: string;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Acme Docs' });
    editor = await createMember(t, org.id, 'edit', { displayName: 'Eda Editor' });
    reviewer = await createMember(t, org.id, 'review', { displayName: 'Rev Reviewer' });
    commenter = await createMember(t, org.id, 'comment', { displayName: 'Cora Commenter' });
    reader = await createMember(t, org.id, 'read', { displayName: 'Rita Reader' });
    spaceId = (await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Handbook' } })).body.id;
    await editSpaceContent(t.app.deps, spaceId, org.admin.id, (e) => {
      welcomeId = e.insertPage({ title: 'Welcome', markdown: 'Hello **team**.\n\nSecond paragraph.\n' });
    });
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  const cookies = new Map<string, string>();
  async function cookieFor(user: TestUser) {
    if (!cookies.has(user.id)) cookies.set(user.id, `quire_session=${await startSession(t.db, t.clock, t.config.sessionTtlMs, { userId: user.id, method: 'link' })}`);
    return cookies.get(user.id)!;
  }
  const get = async (url: string, user: TestUser) => t.app.inject({ method: 'GET', url, headers: { cookie: await cookieFor(user) } });
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1];
  async function post(url: string, user: TestUser, form: Record<string, string | string[]>) {
    const csrf = csrfOf((await get('/app/account', user)).body);
    const body = new URLSearchParams();
    body.set('csrf', csrf);
    for (const [k, v] of Object.entries(form)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return t.app.inject({ method: 'POST', url, headers: { cookie: await cookieFor(user), 'content-type': 'application/x-www-form-urlencoded' }, payload: body.toString() });
  }
  const S = () => `/v1/spaces/${spaceId}`;
  const api = (path: string, token = org.admin.token) => t.request('GET', `${S()}${path}`, { token });
  async function open(user: TestUser, subject: string) {
    const res = await post(`/app/s/${spaceId}/change-requests`, user, { subject });
    expect(res.statusCode).toBe(303);
    const number = /change-requests\/(\d+)$/.exec(String(res.headers.location))![1];
    return { number, url: `/app/s/${spaceId}/change-requests/${number}` };
  }
  type Tree = { id: string; type: string; title: string; emoji?: string; icon?: string; description?: string; pages?: Tree[] };
  async function treeOf(number: string): Promise<Tree[]> {
    return (await api(`/change-requests/${number}/content/pages`)).body.pages;
  }

  it('lists and filters change requests, opens one from a form; a read member gets no form and a forged POST answers 403', async () => {
    const { number, url } = await open(editor, 'Fix <typos>');
    const cr = (await api(`/change-requests/${number}`)).body;
    expect(cr.subject).toBe('Fix <typos>');
    expect(cr.createdBy.id).toBe(editor.id);

    const list = await get(`/app/s/${spaceId}/change-requests`, editor);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`href="http://quire.test${url}">Fix &lt;typos&gt;</a>`);
    expect(list.body).toContain('New change request');
    const mine = (await get(`/app/s/${spaceId}/change-requests?who=mine`, editor)).body;
    expect(mine).toContain('Fix &lt;typos&gt;');
    // The filters combine: the status tabs keep "mine", the whose tabs keep the status.
    expect(mine).toContain('?status=open&amp;who=mine" aria-current="page">Opened by me');
    expect(mine).toContain('?status=merged&amp;who=mine">Merged');
    expect((await get(`/app/s/${spaceId}/change-requests?who=mine`, reviewer)).body).not.toContain('Fix &lt;typos&gt;');
    expect((await get(`/app/s/${spaceId}/change-requests?status=merged`, editor)).body).not.toContain('Fix &lt;typos&gt;');
    expect((await get(`/app/s/${spaceId}/change-requests?status=bogus`, editor)).statusCode).toBe(400);

    const asReader = await get(`/app/s/${spaceId}/change-requests`, reader);
    expect(asReader.statusCode).toBe(200);
    expect(asReader.body).not.toContain('New change request');
    const before = (await api('/change-requests?status=open')).body.items.length;
    const forged = await post(`/app/s/${spaceId}/change-requests`, reader, { subject: 'Forged' });
    expect(forged.statusCode).toBe(403);
    expect((await api('/change-requests?status=open')).body.items.length).toBe(before);
  });

  it('edits the tree inside a change request: add, rename with emoji and description, move up/down/indent/outdent, delete', async () => {
    const { number, url } = await open(editor, 'Tree work');
    expect((await post(`${url}/pages`, editor, { title: 'Travel', parent: '', at: '' })).statusCode).toBe(303);
    expect((await post(`${url}/pages`, editor, { title: 'Money', parent: '', at: '0' })).statusCode).toBe(303);
    let tree = await treeOf(number);
    expect(tree.map((p) => p.title)).toEqual(['Money', 'Welcome', 'Travel']);
    const money = tree[0].id;
    const travel = tree[2].id;
    // The space is untouched until the merge.
    expect((await api('/content/pages')).body.pages.map((p: Tree) => p.title)).toEqual(['Welcome']);

    expect((await post(`${url}/pages/${money}`, editor, { title: 'Expenses', emoji: '💶', description: 'How to claim' })).statusCode).toBe(303);
    expect((await post(`${url}/pages/${money}/move`, editor, { direction: 'down' })).statusCode).toBe(303);
    tree = await treeOf(number);
    expect(tree.map((p) => p.title)).toEqual(['Welcome', 'Expenses', 'Travel']);
    expect(tree[1]).toMatchObject({ emoji: '💶', description: 'How to claim' });

    expect((await post(`${url}/pages/${travel}/move`, editor, { direction: 'indent' })).statusCode).toBe(303);
    tree = await treeOf(number);
    expect(tree.map((p) => p.title)).toEqual(['Welcome', 'Expenses']);
    expect(tree[1].pages!.map((p) => p.title)).toEqual(['Travel']);
    // Already first among its siblings: refused on the page with 400, nothing moved.
    const refused = await post(`${url}/pages/${travel}/move`, editor, { direction: 'up' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('already the first');
    expect((await post(`${url}/pages/${travel}/move`, editor, { direction: 'outdent' })).statusCode).toBe(303);
    expect((await post(`${url}/pages/${travel}/move`, editor, { direction: 'up' })).statusCode).toBe(303);
    tree = await treeOf(number);
    expect(tree.map((p) => p.title)).toEqual(['Welcome', 'Travel', 'Expenses']);

    expect((await post(`${url}/pages/${money}/delete`, editor, {})).statusCode).toBe(303);
    expect((await treeOf(number)).map((p) => p.title)).toEqual(['Welcome', 'Travel']);
    expect((await post(`${url}/pages`, editor, { title: '   ' })).statusCode).toBe(400);
    expect((await post(`${url}/pages/${money}/move`, editor, { direction: 'sideways' })).statusCode).toBe(400);

    const page = await get(url, editor);
    expect(page.body).toContain('Add a page or group');
    expect(page.body).toContain('aria-label="Move down: Welcome"');
    expect(page.body).toMatch(/Travel<\/a> <span class="badge">added<\/span>/);
  });

  it('adds a group, sets an icon, and places pages by drop (before, after, inside) as one update_page each; bad drops are 400, a reader 403', async () => {
    const { number, url } = await open(editor, 'Groups and drops');
    expect((await post(`${url}/pages`, editor, { title: 'Guides', type: 'group', parent: '', at: '' })).statusCode).toBe(303);
    expect((await post(`${url}/pages`, editor, { title: 'Setup', type: 'document' })).statusCode).toBe(303);
    expect((await post(`${url}/pages`, editor, { title: 'Usage' })).statusCode).toBe(303);
    let tree = await treeOf(number);
    expect(tree.map((p) => [p.type, p.title])).toEqual([
      ['document', 'Welcome'],
      ['group', 'Guides'],
      ['document', 'Setup'],
      ['document', 'Usage'],
    ]);
    const [, guides, setup, usage] = tree.map((p) => p.id);
    expect((await post(`${url}/pages/${guides}`, editor, { title: 'Guides', emoji: '', icon: 'book-open' })).statusCode).toBe(303);
    expect((await treeOf(number))[1]).toMatchObject({ type: 'group', icon: 'book-open' });

    const head = async () => (await api(`/change-requests/${number}`)).body.revision as string;
    expect((await post(`${url}/pages/${usage}/place`, editor, { target: guides, position: 'inside' })).statusCode).toBe(303);
    expect((await post(`${url}/pages/${setup}/place`, editor, { target: usage, position: 'before' })).statusCode).toBe(303);
    tree = await treeOf(number);
    expect(tree.map((p) => p.title)).toEqual(['Welcome', 'Guides']);
    expect(tree[1].pages!.map((p) => p.title)).toEqual(['Setup', 'Usage']);
    // After a sibling at the top level, out of the group.
    expect((await post(`${url}/pages/${setup}/place`, editor, { target: welcomeId, position: 'after' })).statusCode).toBe(303);
    tree = await treeOf(number);
    expect(tree.map((p) => p.title)).toEqual(['Welcome', 'Setup', 'Guides']);
    expect(tree[2].pages!.map((p) => p.title)).toEqual(['Usage']);
    // Before a page below it among the same siblings: positions count without the moved page.
    expect((await post(`${url}/pages/${welcomeId}/place`, editor, { target: guides, position: 'before' })).statusCode).toBe(303);
    expect((await treeOf(number)).map((p) => p.title)).toEqual(['Setup', 'Welcome', 'Guides']);

    // Refusals: 400 on the page with the reason, and the change request's head does not move.
    const before = await head();
    const intoItself = await post(`${url}/pages/${guides}/place`, editor, { target: usage, position: 'inside' });
    expect(intoItself.statusCode).toBe(400);
    expect(intoItself.body).toContain('cannot be moved inside itself');
    expect((await post(`${url}/pages/${guides}/place`, editor, { target: guides, position: 'after' })).statusCode).toBe(400);
    expect((await post(`${url}/pages/${guides}/place`, editor, { target: welcomeId, position: 'above' })).statusCode).toBe(400);
    expect((await post(`${url}/pages/${guides}/place`, editor, { position: 'before' })).statusCode).toBe(400);
    expect((await post(`${url}/pages`, editor, { title: 'Odd', type: 'link' })).statusCode).toBe(400);
    expect((await post(`${url}/pages`, editor, { title: ' ', type: 'group' })).statusCode).toBe(400);
    expect((await post(`${url}/pages/${guides}/place`, editor, { target: 'nope', position: 'inside' })).statusCode).toBe(404);
    // A read member: 403, nothing moved; a comment member's drop too.
    for (const member of [reader, commenter]) {
      const forged = await post(`${url}/pages/${welcomeId}/place`, member, { target: guides, position: 'inside' });
      expect(forged.statusCode).toBe(403);
      expect((await post(`${url}/pages`, member, { title: 'G', type: 'group' })).statusCode).toBe(403);
    }
    expect(await head()).toBe(before);

    // The page: the tree says where drops post, and the script comes under a policy that allows it.
    const page = await get(url, editor);
    expect(page.body).toContain(`data-tree-editable data-pages-url="http://quire.test${url}/pages/"`);
    expect(page.body).toContain(`data-tree-page="${guides}" data-tree-kind="group"`);
    const script = /<script type="module" src="([^"]+)"><\/script>/.exec(page.body)![1];
    expect(script).toMatch(/\/app\/assets\/change-request-[A-Z0-9]+\.js$/);
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    const asset = await t.app.inject({ method: 'GET', url: new URL(script).pathname });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('text/javascript');
    // ProseMirror and the converter are not in the page's own script but in chunks it shares
    // with the block editor (src/editor/assets.ts): a member who opened one has them cached.
    expect(asset.rawPayload.length).toBeLessThan(20_000);
    const chunks = [...page.body.matchAll(/<link rel="modulepreload" href="[^"]*\/app\/assets\/(chunk-[A-Z0-9]+\.js)">/g)].map((m) => m[1]);
    expect(chunks.length).toBeGreaterThan(0);
    const { entries } = await editorAssets();
    expect(entries['change-request'].chunks).toEqual(chunks);
    expect(entries.editor.chunks).toEqual(expect.arrayContaining(chunks));
    // A reader gets neither script nor drop targets, under the app's script-less policy.
    const asReader = await get(url, reader);
    expect(asReader.body).not.toContain('<script type="module"');
    expect(asReader.body).not.toContain('data-tree-editable');
    expect(/script-src ([^;]*)/.exec(String(asReader.headers['content-security-policy']))![1]).not.toContain("'self'");
  });

  it("another organization's admin cannot drop, add a group or save a description in this change request, nor drop onto this space's pages from their own", async () => {
    const { number, url } = await open(editor, 'Not theirs');
    const other = await createOrganization(t, { title: 'Other Org' });
    const otherSpace = (await t.request('POST', `/v1/orgs/${other.id}/spaces`, { token: other.admin.token, body: { title: 'Theirs' } })).body.id;
    let theirPage = '';
    await editSpaceContent(t.app.deps, otherSpace, other.admin.id, (e) => {
      theirPage = e.insertPage({ title: 'Their page', markdown: 'x\n' });
    });
    const head = async () => (await api(`/change-requests/${number}`)).body.revision as string;
    const before = await head();
    const outsider = other.admin;
    const document = JSON.stringify({ object: 'document', nodes: [] });
    for (const [path, form] of [
      [`${url}/pages/${welcomeId}/place`, { target: welcomeId, position: 'after' }],
      [`${url}/pages`, { title: 'Planted', type: 'group' }],
      [`${url}/details`, { subject: 'Planted', descriptionDocument: document }],
    ] as const) {
      const res = await post(path, outsider, form);
      expect(res.statusCode, path).toBe(404);
      expect(res.body, path).not.toContain('Not theirs');
    }
    expect(await head()).toBe(before);
    expect((await api(`/change-requests/${number}`)).body.subject).toBe('Not theirs');
    // In their own change request, a drop naming this space's page finds nothing there.
    const mine = await t.request('POST', `/v1/spaces/${otherSpace}/change-requests`, { token: outsider.token, body: { subject: 'Theirs' } });
    const theirUrl = `/app/s/${otherSpace}/change-requests/${mine.body.number}`;
    expect((await post(`${theirUrl}/pages/${theirPage}/place`, outsider, { target: welcomeId, position: 'inside' })).statusCode).toBe(404);
    expect((await post(`${theirUrl}/pages/${welcomeId}/place`, outsider, { target: theirPage, position: 'inside' })).statusCode).toBe(404);
  });

  it('saves a rich-text description sent as a GitBook document (the script\'s editor); bad documents are 400 and change nothing', async () => {
    const { number, url } = await open(editor, 'Rich');
    const document = {
      object: 'document',
      nodes: [
        { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 'Fast ', marks: [] }, { text: 'trains', marks: [{ object: 'mark', type: 'bold', data: {} }] }] }] },
        {
          object: 'block',
          type: 'list-unordered',
          nodes: [{ object: 'block', type: 'list-item', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 'one' }] }] }] }],
        },
      ],
    };
    expect((await post(`${url}/details`, editor, { subject: 'Rich', descriptionDocument: JSON.stringify(document), description: 'ignored' })).statusCode).toBe(303);
    const cr = (await api(`/change-requests/${number}`)).body;
    expect(cr.description.nodes.map((n: { type: string }) => n.type)).toEqual(['paragraph', 'list-unordered']);
    expect((await api(`/change-requests/${number}?format=markdown`)).body.description).toBeDefined();
    const page = await get(url, editor);
    expect(page.body).toContain('<strong>trains</strong>');
    // The editor starts from the stored document, handed over in a data attribute.
    expect(page.body).toMatch(/data-document="\{&quot;data&quot;:\{\},&quot;object&quot;:&quot;document&quot;/);
    for (const bad of ['{not json', JSON.stringify({ object: 'value' }), JSON.stringify({ object: 'document', nodes: [{ object: 'block', type: 'no-such-block', nodes: 5 }] })]) {
      const res = await post(`${url}/details`, editor, { subject: 'Broken', descriptionDocument: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.body).toContain('descriptionDocument');
    }
    const after = (await api(`/change-requests/${number}`)).body;
    expect(after.subject).toBe('Rich');
    expect(after.description).toEqual(cr.description);
    const forged = await post(`${url}/details`, reader, { subject: 'Rich', descriptionDocument: JSON.stringify(document) });
    expect(forged.statusCode).toBe(403);
  });

  it('saves subject and a markdown description as the document the API stores, shown rendered', async () => {
    const { number, url } = await open(editor, 'Describe');
    const saved = await post(`${url}/details`, editor, { subject: 'Described', description: 'Why: **speed** <script>x</script>\n\n- one\n- two\n' });
    expect(saved.statusCode).toBe(303);
    const cr = (await api(`/change-requests/${number}`)).body;
    expect(cr.subject).toBe('Described');
    expect(cr.description.object).toBe('document');
    expect(cr.description.nodes.map((n: { type: string }) => n.type)).toEqual(['paragraph', 'list-unordered']);
    const page = await get(url, reader);
    expect(page.body).toContain('<strong>speed</strong>');
    expect(page.body).not.toContain('<script>x</script>');
    // A reader sees it, not the form; their forged save is refused and changes nothing.
    expect(page.body).not.toContain('Edit subject and description');
    const forged = await post(`${url}/details`, reader, { subject: 'Hacked' });
    expect(forged.statusCode).toBe(403);
    expect((await api(`/change-requests/${number}`)).body.subject).toBe('Described');
    // Archive and reopen.
    expect((await post(`${url}/status`, editor, { status: 'archived' })).statusCode).toBe(303);
    expect((await api(`/change-requests/${number}`)).body.status).toBe('archived');
    expect((await post(`${url}/status`, editor, { status: 'open' })).statusCode).toBe(303);
    expect((await api(`/change-requests/${number}`)).body.status).toBe('open');
  });

  it('comments on the change request and on a block, replies, reacts and resolves; a comment member may, a reader may not', async () => {
    const { number, url } = await open(editor, 'Discuss');
    await t.request('POST', `${S()}/change-requests/${number}/content`, {
      token: editor.token,
      body: { changes: [{ operation: 'update_page', page: welcomeId, document: { markdown: 'Hello **team**.\n\nSecond paragraph, changed.\n' } }] },
    });
    // The page view: each block has a Comment link to a form anchored on its node.
    const pageUrl = `${url}/pages/${welcomeId}`;
    const view = await get(pageUrl, commenter);
    expect(view.statusCode).toBe(200);
    const nodes = [...view.body.matchAll(/class="block" id="block-([^"]+)" data-node/g)].map((m) => m[1]);
    expect(nodes.length).toBe(2);
    expect(view.body).toContain(`?comment=${nodes[1]}#block-${nodes[1]}`);
    const form = await get(`${pageUrl}?comment=${nodes[1]}`, commenter);
    expect(form.body).toContain(`name="node" value="${nodes[1]}"`);

    const onBlock = await post(`${url}/comments`, commenter, { text: 'Is "changed" right?', page: welcomeId, node: nodes[1], back: pageUrl });
    expect(onBlock.statusCode).toBe(303);
    expect(onBlock.headers.location).toBe(`http://quire.test${pageUrl}#block-${nodes[1]}`);
    const general = await post(`${url}/comments`, commenter, { text: 'Looks good overall', back: 'https://evil.test/' });
    expect(general.headers.location).toBe(`http://quire.test${url}`);
    const comments = (await api(`/change-requests/${number}/comments?order=asc`)).body.items;
    expect(comments).toHaveLength(2);
    const onNode = comments.find((c: { body: { markdown: string } }) => c.body.markdown.includes('changed'));
    expect(onNode.target).toMatchObject({ page: { id: welcomeId }, node: { id: nodes[1] } });
    const blockComment = onNode.id;
    expect((await get(pageUrl, reader)).body).toContain('Is &quot;changed&quot; right?');

    const replied = await post(`${url}/comments/${blockComment}/replies`, editor, { text: 'Yes.' });
    expect(replied.statusCode).toBe(303);
    expect(replied.headers.location).toBe(`http://quire.test${url}#comment-${blockComment}`);
    expect((await post(`${url}/comments/${blockComment}`, reviewer, { react: '👍' })).statusCode).toBe(303);
    expect((await post(`${url}/comments/${blockComment}`, commenter, { resolved: 'true' })).statusCode).toBe(303);
    const after = (await api(`/change-requests/${number}/comments/${blockComment}`)).body;
    expect(after.status).toBe('resolved');
    expect(after.replies).toBe(1);
    expect(after.reactions).toMatchObject([{ emoji: '👍', count: 1 }]);
    expect((await post(`${url}/comments/${blockComment}`, reviewer, { unreact: '👍' })).statusCode).toBe(303);
    expect((await api(`/change-requests/${number}/comments/${blockComment}`)).body.reactions).toEqual([]);
    // Not an emoji: 400 on the page, nothing stored.
    expect((await post(`${url}/comments/${blockComment}`, reviewer, { react: 'hello' })).statusCode).toBe(400);
    // A node that is not in the page: 400.
    expect((await post(`${url}/comments`, commenter, { text: 'x', page: welcomeId, node: 'nope' })).statusCode).toBe(400);

    const crPage = await get(url, commenter);
    expect(crPage.body).toContain('Yes.');
    expect(crPage.body).toContain('name="text"');
    expect(crPage.body).not.toContain('Add a page');
    expect(crPage.body).not.toContain('>Approve<');
    // The comment member's forged edit is refused.
    expect((await post(`${url}/pages`, commenter, { title: 'Nope' })).statusCode).toBe(403);

    const asReader = await get(url, reader);
    expect(asReader.body).not.toContain('name="text"');
    expect(asReader.body).not.toContain('action="http://quire.test' + url + '/comments/');
    expect((await post(`${url}/comments`, reader, { text: 'forged' })).statusCode).toBe(403);
    expect((await post(`${url}/comments/${blockComment}`, reader, { resolved: 'false' })).statusCode).toBe(403);
    expect((await api(`/change-requests/${number}/comments`)).body.items).toHaveLength(2);
  });

  it('says why it cannot merge (merge rules), takes a review request and an approval, then merges', async () => {
    await t.request('PATCH', S(), { token: org.admin.token, body: { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reviewer.id] }] } } });
    const { number, url } = await open(editor, 'Ship it');
    await t.request('POST', `${S()}/change-requests/${number}/content`, {
      token: editor.token,
      body: { changes: [{ operation: 'insert_page', title: 'Shipped', document: { markdown: 'Shipped.\n' } }] },
    });
    expect((await post(`${url}/reviewers`, editor, { users: [reviewer.id] })).statusCode).toBe(303);
    expect((await api(`/change-requests/${number}/requested-reviewers`)).body.items.map((r: { user: { id: string } }) => r.user.id)).toEqual([reviewer.id]);
    expect((await get(`/app/s/${spaceId}/change-requests?who=review`, reviewer)).body).toContain('Ship it');

    const waiting = await get(url, org.admin);
    expect(waiting.body).toContain('Cannot merge yet');
    expect(waiting.body).toContain('Rev Reviewer (merge rules)');
    expect(waiting.body).not.toContain('>Merge<');
    const early = await post(`${url}/merge`, org.admin, {});
    expect(early.statusCode).toBe(409);
    expect(early.body).toContain('Rev Reviewer');

    // An editor cannot review (no form, 403); the reviewer approves.
    expect((await get(url, editor)).body).not.toContain('>Approve<');
    expect((await post(`${url}/reviews`, editor, { status: 'approved' })).statusCode).toBe(403);
    expect((await post(`${url}/reviews`, reviewer, { status: 'approved', comment: 'Fine' })).statusCode).toBe(303);
    const ready = await get(url, reviewer);
    expect(ready.body).toContain('>Merge<');
    expect(ready.body).toMatch(/Rev Reviewer: <strong>approved<\/strong>/);
    // The editor may not merge: told why, and refused.
    expect((await get(url, editor)).body).toContain('Merging needs the review role');
    expect((await post(`${url}/merge`, editor, {})).statusCode).toBe(403);
    expect((await post(`${url}/merge`, reviewer, {})).statusCode).toBe(303);
    expect((await api(`/change-requests/${number}`)).body.status).toBe('merged');
    expect((await api('/content/pages')).body.pages.map((p: Tree) => p.title)).toContain('Shipped');
    const merged = await get(url, reader);
    expect(merged.body).toContain('merged by Rev Reviewer');
    expect(merged.body).not.toContain('data-merge-blockers');
    await t.request('PATCH', S(), { token: org.admin.token, body: { mergeRules: { type: 'inherit' } } });
  });

  it('shows an outdated change request with the pages that conflict, refuses the update with 409, and updates when the conflict is gone', async () => {
    const { number, url } = await open(editor, 'Rewrite welcome');
    const edit = (markdown: string) =>
      t.request('POST', `${S()}/change-requests/${number}/content`, {
        token: editor.token,
        body: { changes: [{ operation: 'update_page', page: welcomeId, document: { markdown } }] },
      });
    await edit('Hello **crew**.\n\nSecond paragraph.\n');
    // Main changes the same paragraph meanwhile.
    const other = await open(org.admin, 'Main change');
    await t.request('POST', `${S()}/change-requests/${other.number}/content`, {
      token: org.admin.token,
      body: { changes: [{ operation: 'update_page', page: welcomeId, document: { markdown: 'Hello **everyone**.\n\nSecond paragraph.\n' } }] },
    });
    expect((await post(`${other.url}/merge`, org.admin, {})).statusCode).toBe(303);

    const page = await get(url, editor);
    expect(page.body).toContain('data-outdated');
    expect(page.body).toMatch(/<ul data-conflicts><li><strong>Welcome<\/strong>/);
    expect(page.body).toContain('Update from main');
    const refused = await post(`${url}/update`, editor, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('conflicts with the space');
    const before = (await api(`/change-requests/${number}`)).body;
    expect(before.outdated).toBe(true);

    // Taking main's words resolves it; the update then goes through.
    await edit('Hello **everyone**.\n\nSecond paragraph.\n\nNew closing line.\n');
    const retried = await get(url, editor);
    expect(retried.body).not.toContain('data-conflicts');
    expect((await post(`${url}/update`, editor, {})).statusCode).toBe(303);
    expect((await api(`/change-requests/${number}`)).body.outdated).toBe(false);
    expect((await get(url, reader)).body).not.toContain('Update from main');
  });

  it("holds the organization's SSO enforcement on every change-request page and form", async () => {
    const strict = await createOrganization(t, { title: 'Strict Co' });
    const member = await createMember(t, strict.id, 'edit');
    const space = (await t.request('POST', `/v1/orgs/${strict.id}/spaces`, { token: strict.admin.token, body: { title: 'Secret' } })).body.id;
    const cr = (await t.request('POST', `/v1/spaces/${space}/change-requests`, { token: strict.admin.token, body: { subject: 'Hidden plan' } })).body;
    await t.db.updateTable('organizations').set({ sso: 1 }).where('id', '=', strict.id).execute();
    for (const path of [`/app/s/${space}/change-requests`, `/app/s/${space}/change-requests/${cr.number}`]) {
      const res = await get(path, member);
      expect(res.statusCode, path).toBe(403);
      expect(res.body).not.toContain('Hidden plan');
    }
    const refused = await post(`/app/s/${space}/change-requests/${cr.number}/pages`, member, { title: 'Sneaky' });
    expect(refused.statusCode).toBe(403);
    expect((await t.request('GET', `/v1/spaces/${space}/change-requests/${cr.number}/content/pages`, { token: strict.admin.token })).body.pages).toEqual([]);
  });
});
