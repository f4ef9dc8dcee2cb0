import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { editSpaceContent } from '../content/content.service.ts';
import { startSession } from '../sessions/sessions.service.ts';
import { fromProseMirror, toProseMirror } from '../../editor/convert.ts';

/*
 * Editing in the app without a browser: the Edit button and who sees it, the change request
 * it opens, the editor page and its bundle, and the API reached with the session cookie —
 * only with the session's CSRF header, only from this origin, and with the member's role.
 */
describe('app area: the editor', () => {
  let t: TestApp;
  let org: TestOrganization;
  let editor: TestUser;
  let reader: TestUser;
  let spaceId: string;
  let pageId: string;
  const origin = 'http://quire.test';

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Acme Docs' });
    editor = await createMember(t, org.id, 'edit', { displayName: 'Eda Editor' });
    reader = await createMember(t, org.id, 'read', { displayName: 'Rita Reader' });
    const created = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Handbook' } });
    spaceId = created.body.id;
    await editSpaceContent(t.app.deps, spaceId, org.admin.id, (e) => {
      pageId = e.insertPage({ title: 'Welcome', markdown: 'Private **handbook** text.\n\n{% hint style="info" %}\nNote.\n{% endhint %}\n' });
    });
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  async function sessionOf(user: TestUser) {
    const id = await startSession(t.db, t.clock, t.config.sessionTtlMs, { userId: user.id, method: 'link', organizationId: null });
    const cookie = `quire_session=${id}`;
    const page = await t.app.inject({ method: 'GET', url: `/app/s/${spaceId}/pages/${pageId}`, headers: { cookie } });
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
    return { cookie, csrf, page };
  }

  const api = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: unknown) =>
    t.app.inject({ method, url, headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers }, ...(payload ? { payload: JSON.stringify(payload) } : {}) });

  it('shows the Edit button to an editor only; it opens (then reuses) the editor’s change request and its editor page', async () => {
    const mine = await sessionOf(editor);
    expect(mine.page.body).toContain(`/app/s/${spaceId}/pages/${pageId}/edit`);
    const theirs = await sessionOf(reader);
    expect(theirs.page.statusCode).toBe(200);
    expect(theirs.page.body).not.toContain('/edit"');

    const form = (cookie: string, csrf: string) =>
      t.app.inject({ method: 'POST', url: `/app/s/${spaceId}/pages/${pageId}/edit`, headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' }, payload: `csrf=${csrf}` });
    const first = await form(mine.cookie, mine.csrf);
    expect(first.statusCode).toBe(303);
    const match = new RegExp(`/app/s/${spaceId}/change-requests/(\\d+)/pages/${pageId}/edit$`).exec(first.headers.location as string);
    expect(match).not.toBeNull();
    const again = await form(mine.cookie, mine.csrf);
    expect(again.headers.location).toBe(first.headers.location);
    const list = await t.request('GET', `/v1/spaces/${spaceId}/change-requests`, { token: org.admin.token });
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0].subject).toBe('Edit Welcome');

    // A reader's forged form: no change request.
    const refused = await form(theirs.cookie, theirs.csrf);
    expect(refused.statusCode).toBe(403);

    const page = await t.app.inject({ method: 'GET', url: new URL(first.headers.location as string).pathname, headers: { cookie: mine.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).not.toContain('unsafe-eval');
    const script = /<script type="module" src="[^"]*\/app\/assets\/(editor-[A-Z0-9]+\.js)"/.exec(page.body)?.[1];
    const style = /<link rel="stylesheet" href="[^"]*\/app\/assets\/(editor-[A-Z0-9]+\.css)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    expect(style).toBeDefined();
    const asset = await t.app.inject({ method: 'GET', url: `/app/assets/${script}`, headers: { 'accept-encoding': 'br, gzip' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The shared chunks the script imports are preloaded, served like it (hashed, a year's cache).
    const chunks = [...page.body.matchAll(/<link rel="modulepreload" href="[^"]*\/app\/assets\/(chunk-[A-Z0-9]+\.js)">/g)].map((m) => m[1]!);
    expect(chunks.length).toBeGreaterThan(0);
    const chunkFiles = await Promise.all(chunks.map((chunk) => t.app.inject({ method: 'GET', url: `/app/assets/${chunk}`, headers: { 'accept-encoding': 'br, gzip' } })));
    for (const chunk of chunkFiles) {
      expect(chunk.statusCode).toBe(200);
      expect(chunk.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    // What the script imports is what the page preloads: its chunks, by their served names.
    const plain = await t.app.inject({ method: 'GET', url: `/app/assets/${script}` });
    const imported = [...plain.body.matchAll(/from"\.\/(chunk-[A-Z0-9]+\.js)"/g)].map((m) => m[1]);
    expect(imported.length).toBeGreaterThan(0);
    for (const name of imported) expect(chunks).toContain(name);
    // The first load's budget: script, its chunks and style sheet under 300 KB compressed.
    const css = await t.app.inject({ method: 'GET', url: `/app/assets/${style}`, headers: { 'accept-encoding': 'br' } });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(asset.rawPayload.length + css.rawPayload.length + chunkFiles.reduce((sum, chunk) => sum + chunk.rawPayload.length, 0)).toBeLessThan(300_000);
    expect((await t.app.inject({ method: 'GET', url: '/app/assets/nothing-here.js' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/app/assets/..%2Fsecret.js' })).statusCode).toBe(400);
  });

  it('takes the session cookie on the API only with its CSRF header from this origin, and roles hold', async () => {
    const mine = await sessionOf(editor);
    const open = await t.request('GET', `/v1/spaces/${spaceId}/change-requests`, { token: org.admin.token });
    const cr = open.body.items[0].id as string;
    const pageUrl = `/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}`;

    expect((await api('GET', pageUrl, { cookie: mine.cookie, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(401);
    expect((await api('GET', pageUrl, { cookie: mine.cookie, 'x-quire-csrf': 'forged', 'sec-fetch-site': 'same-origin' })).statusCode).toBe(401);
    expect((await api('GET', pageUrl, { cookie: mine.cookie, 'x-quire-csrf': mine.csrf, 'sec-fetch-site': 'cross-site' })).statusCode).toBe(401);
    expect((await api('GET', pageUrl, { cookie: mine.cookie, 'x-quire-csrf': mine.csrf, origin: 'https://evil.test' })).statusCode).toBe(401);
    expect((await api('GET', pageUrl, { cookie: mine.cookie, 'x-quire-csrf': mine.csrf })).statusCode).toBe(401);
    const read = await api('GET', pageUrl, { cookie: mine.cookie, 'x-quire-csrf': mine.csrf, 'sec-fetch-site': 'same-origin' });
    expect(read.statusCode).toBe(200);
    const body = read.json() as { document: { nodes: unknown[] } };

    // The editor's round trip through the API: the document saved is the document read back.
    const document = fromProseMirror(toProseMirror(body.document as never));
    expect(document).toEqual(body.document);
    const save = await api('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, { cookie: mine.cookie, 'x-quire-csrf': mine.csrf, origin }, { changes: [{ operation: 'update_page', page: pageId, document: { document } }] });
    expect(save.statusCode, save.body).toBe(200);
    const saved = await t.request('GET', pageUrl, { token: org.admin.token });
    // What the server stored (normalized by it: isVoid written out) comes back through the editor unchanged.
    expect(fromProseMirror(toProseMirror(saved.body.document))).toEqual(saved.body.document);

    // A reader's forged write with a valid session and header: the role decides.
    const theirs = await sessionOf(reader);
    const forged = await api('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, { cookie: theirs.cookie, 'x-quire-csrf': theirs.csrf, origin }, { changes: [{ operation: 'update_page', page: pageId, document: { document } }] });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ error: { code: 403 } });
    const after = await t.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}`, { token: org.admin.token });
    expect(after.body.document).toEqual(saved.body.document);
  });

  it('reads pasted markdown with the markdown engine, within a budget', async () => {
    const mine = await sessionOf(editor);
    const read = await t.app.inject({ method: 'POST', url: '/app/markdown', headers: { cookie: mine.cookie, origin, 'content-type': 'application/json' }, payload: JSON.stringify({ csrf: mine.csrf, markdown: '# Title\n\n- a\n- b\n' }) });
    expect(read.statusCode).toBe(200);
    expect(read.json().document.nodes.map((b: { type: string }) => b.type)).toEqual(['heading-1', 'list-unordered']);
    const forged = await t.app.inject({ method: 'POST', url: '/app/markdown', headers: { cookie: mine.cookie, 'content-type': 'application/json' }, payload: JSON.stringify({ csrf: 'x', markdown: 'a' }) });
    expect(forged.statusCode).toBe(403);
    const big = await t.app.inject({ method: 'POST', url: '/app/markdown', headers: { cookie: mine.cookie, 'content-type': 'application/json' }, payload: JSON.stringify({ csrf: mine.csrf, markdown: 'a'.repeat(200_001) }) });
    expect(big.statusCode).toBe(400);
  });
});
