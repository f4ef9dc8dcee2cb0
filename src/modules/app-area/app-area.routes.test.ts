import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, createUser, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { generateIdpKeys } from '../../../test/saml-idp.ts';
import { editSpaceContent } from '../content/content.service.ts';
import { createLoginLink, startSession } from '../sessions/sessions.service.ts';

describe('app area', () => {
  let t: TestApp;
  let org: TestOrganization;
  let reader: TestUser;
  let outsider: TestUser;
  let spaceId: string;
  let pageId: string;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Acme Docs' });
    reader = await createMember(t, org.id, 'read', { displayName: 'Rita Reader' });
    outsider = await createUser(t, { displayName: 'Otto Outsider' });
    const created = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Handbook' } });
    spaceId = created.body.id;
    await editSpaceContent(t.app.deps, spaceId, org.admin.id, (e) => {
      pageId = e.insertPage({ title: 'Welcome', markdown: 'Private **handbook** text.\n' });
    });
    const keys = await generateIdpKeys();
    await t.request('POST', `/v1/orgs/${org.id}/saml`, {
      token: org.admin.token,
      body: { label: 'Acme IdP', entityID: 'http://idp.test', ssoURL: 'http://idp.test/sso', certificate: keys.certificate },
    });
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  async function cookieFor(user: TestUser, method: 'saml' | 'link' = 'link', organizationId: string | null = null) {
    const id = await startSession(t.db, t.clock, t.config.sessionTtlMs, { userId: user.id, method, organizationId });
    return `quire_session=${id}`;
  }
  const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const post = (url: string, cookie: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams(form).toString(),
    });
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1];

  it("sends a signed-out visitor to the sign-in page, which asks for the organization; the organization's page lists its providers", async () => {
    for (const path of ['/app/account', `/app/o/${org.id}`, `/app/s/${spaceId}`]) {
      const res = await get(path);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`http://quire.test/app/signin?to=${encodeURIComponent(path)}`);
    }
    // The installation's page names no organization or provider (issue 30, tenant enumeration).
    const signin = await get(`/app/signin?to=${encodeURIComponent(`/app/s/${spaceId}`)}`);
    expect(signin.statusCode).toBe(200);
    expect(signin.body).not.toContain('Acme Docs');
    expect(signin.body).not.toContain('Acme IdP');
    expect(signin.body).toContain('name="org"');
    expect(signin.headers['content-security-policy']).toContain("form-action 'self'");
    // Giving the organization leads to its own page, keeping where to land.
    const chosen = await get(`/app/signin?org=${org.id}&to=${encodeURIComponent(`/app/s/${spaceId}`)}`);
    expect(chosen.statusCode).toBe(303);
    expect(chosen.headers.location).toBe(`http://quire.test/app/signin/${org.id}?to=${encodeURIComponent(`/app/s/${spaceId}`)}`);
    const own = await get(String(chosen.headers.location).replace('http://quire.test', ''));
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain('Acme Docs');
    expect(own.body).toMatch(/Sign in with Acme IdP/);
    expect(own.body).toContain(`/start?to=${encodeURIComponent(`/app/s/${spaceId}`)}`);
  });

  it('shows the account, creates a token shown once, revokes it; forms need the CSRF token', async () => {
    const cookie = await cookieFor(reader);
    const account = await get('/app/account', cookie);
    expect(account.statusCode).toBe(200);
    expect(account.body).toContain('Rita Reader');
    expect(account.body).toContain(reader.email);
    expect(account.body).toMatch(/Acme Docs<\/a><\/td><td>read/);
    const csrf = csrfOf(account.body);

    const forged = await post('/app/account/tokens', cookie, { label: 'forged' });
    expect(forged.statusCode).toBe(403);
    const crossSite = await post('/app/account/tokens', cookie, { label: 'x', csrf }, { origin: 'https://evil.test' });
    expect(crossSite.statusCode).toBe(403);
    const before = await t.db.selectFrom('api_tokens').selectAll().where('user_id', '=', reader.id).execute();
    expect(before.map((r) => r.label)).not.toContain('forged');

    const created = await post('/app/account/tokens', cookie, { label: 'laptop', csrf });
    expect(created.statusCode).toBe(201);
    const token = /data-new-token>([^<]+)</.exec(created.body)![1];
    expect((await t.request('GET', '/v1/user', { token })).status).toBe(200);
    const row = await t.db.selectFrom('api_tokens').selectAll().where('user_id', '=', reader.id).where('label', '=', 'laptop').executeTakeFirstOrThrow();
    expect(row.token_hash).not.toBe(token);
    // Listed afterwards without the secret.
    const again = await get('/app/account', cookie);
    expect(again.body).toContain('laptop');
    expect(again.body).not.toContain(token);

    const revoked = await post(`/app/account/tokens/${row.id}/revoke`, cookie, { csrf });
    expect(revoked.statusCode).toBe(303);
    const after = await t.db.selectFrom('api_tokens').select('revoked_at').where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(after.revoked_at).not.toBeNull();
    // Someone else's token is not found.
    const adminTokenId = (await t.db.selectFrom('api_tokens').select('id').where('user_id', '=', org.admin.id).executeTakeFirstOrThrow()).id;
    expect((await post(`/app/account/tokens/${adminTokenId}/revoke`, cookie, { csrf })).statusCode).toBe(404);
  });

  it('shows the organization, the space with its page tree and the rendered page to a member; 404 to others', async () => {
    const cookie = await cookieFor(reader);
    const orgPage = await get(`/app/o/${org.id}`, cookie);
    expect(orgPage.statusCode).toBe(200);
    expect(orgPage.body).toContain('Handbook');
    const space = await get(`/app/s/${spaceId}`, cookie);
    expect(space.statusCode).toBe(200);
    expect(space.body).toContain('<strong>handbook</strong>');
    expect(space.body).toContain(`/app/s/${spaceId}/pages/${pageId}" aria-current="page"`);
    const page = await get(`/app/s/${spaceId}/pages/${pageId}`, cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Welcome</h1>');

    const other = await cookieFor(outsider);
    for (const path of [`/app/o/${org.id}`, `/app/s/${spaceId}`, `/app/s/${spaceId}/pages/${pageId}`, '/app/nothing-here']) {
      const res = await get(path, other);
      expect(res.statusCode, path).toBe(404);
      expect(res.body).not.toContain('handbook');
    }
    expect((await get(`/app/s/${spaceId}/pages/unknown`, cookie)).statusCode).toBe(404);
  });

  it('shows a change request: subject, status, reviews, comments and a line diff of each changed page; 404 to others', async () => {
    const S = `/v1/spaces/${spaceId}`;
    const token = org.admin.token;
    const cr = (await t.request('POST', `${S}/change-requests`, { token, body: { subject: 'Explain <refunds>' } })).body;
    const edit = await t.request('POST', `${S}/change-requests/${cr.id}/content`, {
      token,
      body: {
        changes: [
          { operation: 'update_page', page: pageId, document: { markdown: 'Private **handbook** text.\n\nRefunds take <5 days.\n' } },
          { operation: 'insert_page', title: 'Refunds', document: { markdown: 'Ask **support**.\n' } },
        ],
      },
    });
    expect(edit.status).toBe(200);
    await t.request('POST', `${S}/change-requests/${cr.id}/comments`, { token, body: { body: { markdown: 'Looks <b>good</b>' } } });
    const url = `/app/s/${spaceId}/change-requests/${cr.number}`;

    const page = await get(url, await cookieFor(reader));
    expect(page.statusCode).toBe(200);
    const html = page.body;
    expect(html).toContain(`#${cr.number} Explain &lt;refunds&gt;`);
    expect(html).toMatch(/class="badge open">open</);
    // The edited page: its old line as context, the new lines added (escaped).
    const welcome = html.slice(html.indexOf(`data-page="${pageId}"`));
    expect(welcome).toMatch(/<tr class="context">.*Private \*\*handbook\*\* text\./);
    expect(welcome).toMatch(/<tr class="add">.*Refunds take &lt;5 days\./);
    expect(html).toMatch(/Refunds<\/a> <span class="badge">added<\/span>/);
    expect(html).toMatch(/<tr class="add">.*Ask \*\*support\*\*\./);
    expect(html).toContain('Looks &lt;b&gt;good&lt;/b&gt;');
    expect(html).not.toContain('<b>good</b>');
    // The space's own page is unchanged until the merge.
    expect((await get(`/app/s/${spaceId}/pages/${pageId}`, await cookieFor(reader))).body).not.toContain('Refunds take');

    expect((await get(url, await cookieFor(outsider))).statusCode).toBe(404);
    expect((await get(`/app/s/${spaceId}/change-requests/99999`, await cookieFor(reader))).statusCode).toBe(404);
    expect((await get(url)).statusCode).toBe(303);
  });

  it('searches an organization and a space as the member; a revision, a collection and a site at their urls.app', async () => {
    const cookie = await cookieFor(reader);
    const inOrg = await get(`/app/o/${org.id}/search?q=handbook`, cookie);
    expect(inOrg.statusCode).toBe(200);
    expect(inOrg.body).toContain(`href="http://quire.test/app/s/${spaceId}/pages/${pageId}"`);
    expect(inOrg.body).toMatch(/<h2>Handbook<\/h2>/);
    const inSpace = await get(`/app/s/${spaceId}/search?q=handbook`, cookie);
    expect(inSpace.body).toContain('>Welcome</a>');
    const none = await get(`/app/s/${spaceId}/search?q=zzzqqq`, cookie);
    expect(none.body).toContain('Nothing matches “zzzqqq”.');
    expect((await get(`/app/o/${org.id}/search?q=handbook`, await cookieFor(outsider))).statusCode).toBe(404);
    expect((await get(`/app/s/${spaceId}/search?q=${'x'.repeat(600)}`, cookie)).statusCode).toBe(400);

    // The urls.app of a revision, a collection and a site (as the API gives them) answer 200.
    const space = (await t.request('GET', `/v1/spaces/${spaceId}`, { token: org.admin.token })).body;
    const revision = (await t.request('GET', `/v1/spaces/${spaceId}/content`, { token: org.admin.token })).body;
    const collection = (await t.request('POST', `/v1/orgs/${org.id}/collections`, { token: org.admin.token, body: { title: 'Guides' } })).body;
    const site = (await t.request('POST', `/v1/orgs/${org.id}/sites`, { token: org.admin.token, body: { title: 'Public docs' } })).body;
    for (const [target, text] of [
      [space.urls.app, 'Welcome'],
      [revision.urls.app, 'At revision'],
      [collection.urls.app, 'Guides'],
    ] as const) {
      const res = await get(new URL(target).pathname, cookie);
      expect(res.statusCode, target).toBe(200);
      expect(res.body).toContain(text);
    }
    const sitePage = await get(new URL(site.urls.app).pathname, await cookieFor(org.admin));
    expect(sitePage.statusCode).toBe(200);
    expect(sitePage.body).toContain('Public docs');
    expect((await get(new URL(site.urls.app).pathname, await cookieFor(outsider))).statusCode).toBe(404);
  });

  it('signs out: the session is revoked and the cookie cleared', async () => {
    const cookie = await cookieFor(reader);
    const csrf = csrfOf((await get('/app/account', cookie)).body);
    const out = await post('/app/signout', cookie, { csrf });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('http://quire.test/app/signin');
    expect(String(out.headers['set-cookie'])).toMatch(/quire_session=; Max-Age=0/);
    expect((await get('/app/account', cookie)).statusCode).toBe(303);
  });

  it('a session expires', async () => {
    const cookie = await cookieFor(reader);
    expect((await get('/app/account', cookie)).statusCode).toBe(200);
    t.clock.advance(t.config.sessionTtlMs + 1000);
    expect((await get('/app/account', cookie)).statusCode).toBe(303);
  });

  it('signs in with a one-time login link, once, within 10 minutes', async () => {
    const secret = await createLoginLink(t.db, t.clock, reader.id, 10 * 60_000);
    const first = await get(`/app/login?link=${secret}`);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('http://quire.test/app/account');
    const cookie = String(first.headers['set-cookie']).split(';')[0];
    expect((await get('/app/account', cookie)).body).toContain('Rita Reader');
    expect((await get(`/app/login?link=${secret}`)).statusCode).toBe(400);
    const late = await createLoginLink(t.db, t.clock, reader.id, 10 * 60_000);
    t.clock.advance(10 * 60_000 + 1);
    const expired = await get(`/app/login?link=${late}`);
    expect(expired.statusCode).toBe(400);
    expect(expired.headers['set-cookie']).toBeUndefined();
  });

  it('enforces SSO: an sso organization shows only to sessions of its providers, and their members make tokens only from them', async () => {
    const ssoOrg = await createOrganization(t, { title: 'Strict Co' });
    const member = await createMember(t, ssoOrg.id, 'read');
    await t.db.updateTable('organizations').set({ sso: 1 }).where('id', '=', ssoOrg.id).execute();
    const viaLink = await cookieFor(member, 'link');
    const refused = await get(`/app/o/${ssoOrg.id}`, viaLink);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toMatch(/requires signing in through its identity provider/);
    const account = await get('/app/account', viaLink);
    expect(account.body).toMatch(/enforces SSO/);
    const made = await post('/app/account/tokens', viaLink, { label: 'sneaky', csrf: csrfOf(account.body) });
    expect(made.statusCode).toBe(403);
    expect(await t.db.selectFrom('api_tokens').selectAll().where('label', '=', 'sneaky').executeTakeFirst()).toBeUndefined();

    const viaSso = await cookieFor(member, 'saml', ssoOrg.id);
    expect((await get(`/app/o/${ssoOrg.id}`, viaSso)).statusCode).toBe(200);
    const ssoAccount = await get('/app/account', viaSso);
    expect((await post('/app/account/tokens', viaSso, { label: 'ok', csrf: csrfOf(ssoAccount.body) })).statusCode).toBe(201);
  });
});
