import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app.ts';
import { createMember, createOrganization, createUser, type TestOrganization, type TestUser } from '../factories.ts';
import { attr, buildResponse, decodeRedirect, generateIdpKeys, postBody, type TestIdpKeys } from '../saml-idp.ts';

/*
 * Issue 30, identity: an attacker signs up, founds an organization of their own and aims
 * at another organization ("victim") on the same Quire. They control their own identity
 * provider (their own certificate), so they can sign any assertion they like.
 */

interface Provider {
  id: string;
  entityID: string;
  keys: TestIdpKeys;
  service: { entityID: string; acsURL: string; startURL: string };
}

describe('tenants: identity across organizations', () => {
  let t: TestApp;
  let victim: TestOrganization;
  let attacker: TestOrganization;
  let attackerIdp: Provider;
  let victimIdp: Provider;

  async function addProvider(org: TestOrganization, label: string, entityID: string): Promise<Provider> {
    const keys = await generateIdpKeys(new URL(entityID).hostname);
    const res = await t.request('POST', `/v1/orgs/${org.id}/saml`, {
      token: org.admin.token,
      body: { label, entityID, ssoURL: `${entityID}/sso`, certificate: keys.certificate, defaultRole: 'read' },
    });
    expect(res.status).toBe(201);
    return { id: res.body.id, entityID, keys, service: res.body.service };
  }

  beforeAll(async () => {
    t = await createTestApp();
    const victimAdmin = await createUser(t, { email: 'admin@victim.test' });
    victim = await createOrganization(t, { title: 'Victim Corp', admin: victimAdmin, emailDomains: ['victim.test'] });
    attacker = await createOrganization(t, { title: 'Attacker Ltd' });
    [attackerIdp, victimIdp] = await Promise.all([
      addProvider(attacker, 'Attacker IdP', 'http://idp.attacker.test'),
      addProvider(victim, 'Victim Corp SSO', 'http://idp.victim.test'),
    ]);
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  /** A browser: GET the provider's start URL; the sign-in nonce cookie it sets, and the request id. */
  async function startSignIn(provider: Provider) {
    const res = await t.app.inject({ method: 'GET', url: new URL(provider.service.startURL).pathname });
    expect(res.statusCode).toBe(303);
    const nonce = /quire_saml=([^;]+)/.exec(String(res.headers['set-cookie'] ?? ''))?.[1];
    const { xml } = decodeRedirect(String(res.headers.location));
    return { requestId: attr(xml, 'ID') as string, cookie: nonce ? `quire_saml=${nonce}` : undefined };
  }

  /** What the provider's owner signs, for whatever email they choose. */
  function signedResponse(provider: Provider, requestId: string, email: string) {
    return buildResponse({
      issuer: provider.entityID,
      audience: provider.service.entityID,
      acsUrl: provider.service.acsURL,
      inResponseTo: requestId,
      nameId: email,
      keys: provider.keys,
    });
  }

  async function postToAcs(provider: Provider, responseXml: string, cookie: string | undefined) {
    return t.app.inject({
      method: 'POST',
      url: new URL(provider.service.acsURL).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      payload: postBody(responseXml),
    });
  }

  /** A whole sign-in from one browser; returns the ACS answer. */
  async function signIn(provider: Provider, email: string) {
    const { requestId, cookie } = await startSignIn(provider);
    return postToAcs(provider, signedResponse(provider, requestId, email), cookie);
  }

  const sessionCookieOf = (res: { headers: Record<string, unknown> }) =>
    /quire_session=([^;]+)/.exec(String(res.headers['set-cookie'] ?? ''))?.[1];

  const countRows = async (table: 'sessions' | 'users' | 'members') =>
    Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n);

  it("refuses an assertion of another organization's member from the attacker's IdP: no session, no membership, no token", async () => {
    const before = { sessions: await countRows('sessions'), users: await countRows('users'), members: await countRows('members') };
    const res = await signIn(attackerIdp, 'admin@victim.test');
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('Not a member of this organization');
    expect(sessionCookieOf(res)).toBeUndefined();
    expect({ sessions: await countRows('sessions'), users: await countRows('users'), members: await countRows('members') }).toEqual(before);
  });

  it("never creates (nor marks verified) an account on a domain the attacker's organization has not verified", async () => {
    const res = await signIn(attackerIdp, 'x@victim.test');
    expect(res.statusCode).toBe(403);
    expect(sessionCookieOf(res)).toBeUndefined();
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'x@victim.test').executeTakeFirst()).toBeUndefined();
    // So there is nobody to join the victim organization through its allowed domain.
    const members = await t.request('GET', `/v1/orgs/${victim.id}/members`, { token: victim.admin.token });
    expect(members.body.items.map((m: { user: { email: string } }) => m.user.email)).not.toContain('x@victim.test');
  });

  it("an account an organization's IdP creates on its own verified domain is not verified for use elsewhere", async () => {
    // The installation admin marks attacker.test verified for the attacker's organization.
    const { verifyDomain } = await import('../../src/modules/organizations/organizations.service.ts');
    await verifyDomain(t.db, t.clock, attacker.id, 'attacker.test', null);
    const other = await createOrganization(t, { title: 'Open Org', emailDomains: ['attacker.test'] });
    const res = await signIn(attackerIdp, 'new@attacker.test');
    expect(res.statusCode).toBe(303);
    const user = await t.db.selectFrom('users').selectAll().where('email', '=', 'new@attacker.test').executeTakeFirstOrThrow();
    expect(user.email_verified).toBe(0);
    // A token of that person, minted by the CLI, cannot join an organization by "verified" domain.
    const { issueToken } = await import('../../src/modules/users/users.tokens.ts');
    const { token } = await issueToken(t.db, t.clock, user.id);
    const join = await t.request('POST', `/v1/orgs/${other.id}/join`, { token });
    expect(join.status).toBe(400);
    expect(await t.db.selectFrom('members').select('user_id').where('organization_id', '=', other.id).where('user_id', '=', user.id).executeTakeFirst()).toBeUndefined();
  });

  describe('a session from an organization IdP is scoped to that organization', () => {
    let both: TestUser;
    let cookie: string;

    beforeAll(async () => {
      // A real person who belongs to both organizations signs in through the attacker's IdP
      // (its owner can always sign in its own members).
      both = await createMember(t, victim.id, 'admin');
      await createMember(t, attacker.id, 'read', { user: both });
      const res = await signIn(attackerIdp, both.email);
      expect(res.statusCode).toBe(303);
      cookie = `quire_session=${sessionCookieOf(res)}`;
    });

    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

    it("shows the session's own organization in the app, and not the other one", async () => {
      expect((await get(`/app/o/${attacker.id}`)).statusCode).toBe(200);
      expect((await get(`/app/o/${victim.id}`)).statusCode).toBe(404);
    });

    it('mints tokens that act on that organization only', async () => {
      const account = await get('/app/account');
      const csrf = /name="csrf" value="([^"]+)"/.exec(account.body)![1];
      const minted = await t.app.inject({
        method: 'POST',
        url: '/app/account/tokens',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ label: 'stolen', csrf }).toString(),
      });
      expect(minted.statusCode).toBe(201);
      const token = /\b(qr_[\w-]+)/.exec(minted.body)![1];
      expect((await t.request('GET', `/v1/orgs/${attacker.id}/members`, { token })).status).toBe(200);
      const members = await t.request('GET', `/v1/orgs/${victim.id}/members`, { token });
      expect(members.status).toBe(404);
      expect(members.body.error.code).toBe(404);
      expect((await t.request('GET', `/v1/orgs/${victim.id}`, { token })).status).toBe(404);
      const orgs = await t.request('GET', '/v1/orgs', { token });
      expect(orgs.body.items.map((o: { id: string }) => o.id)).toEqual([attacker.id]);
      // Nor can it found an organization of its own.
      const created = await t.request('POST', '/v1/orgs', { token, body: { title: 'Spawned' } });
      expect(created.status).toBe(403);
      expect(created.body.error.code).toBe(403);
    });
  });

  it("a victim the attacker added to their organization by email, signed in by the attacker's IdP, exposes nothing outside that organization", async () => {
    // Inviting by email makes an existing user a member at once, so the attacker's IdP may sign them in ...
    const victimToken = victim.admin.token;
    const invited = await t.request('POST', `/v1/orgs/${attacker.id}/invites`, { token: attacker.admin.token, body: { emails: ['admin@victim.test'], role: 'read' } });
    expect(invited.status).toBeLessThan(300);
    const res = await signIn(attackerIdp, 'admin@victim.test');
    expect(res.statusCode).toBe(303);
    const cookie = `quire_session=${sessionCookieOf(res)}`;
    // ... but the session is the attacker organization's: no other organization, no other token.
    const account = await t.app.inject({ method: 'GET', url: '/app/account', headers: { cookie } });
    expect(account.statusCode).toBe(200);
    expect(account.body).not.toContain('Victim Corp');
    expect((await t.app.inject({ method: 'GET', url: `/app/o/${victim.id}`, headers: { cookie } })).statusCode).toBe(404);
    const csrf = /name="csrf" value="([^"]+)"/.exec(account.body)![1];
    const tokenId = victim.admin.tokenId;
    expect(account.body).not.toContain(tokenId);
    const revoke = await t.app.inject({
      method: 'POST',
      url: `/app/account/tokens/${tokenId}/revoke`,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ csrf }).toString(),
    });
    expect(revoke.statusCode).toBe(404);
    expect((await t.request('GET', `/v1/orgs/${victim.id}/members`, { token: victimToken })).status).toBe(200);
  });

  it("refuses a response posted by a browser other than the one that started the sign-in (login CSRF)", async () => {
    // The attacker starts a sign-in in their own browser and has their IdP answer it ...
    const attackerBrowser = await startSignIn(attackerIdp);
    const xml = signedResponse(attackerIdp, attackerBrowser.requestId, attacker.admin.email);
    // ... then makes the victim's browser (no nonce cookie, or its own) post it.
    const before = await countRows('sessions');
    const victimBrowser = await startSignIn(victimIdp);
    for (const cookie of [undefined, victimBrowser.cookie]) {
      const res = await postToAcs(attackerIdp, xml, cookie);
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('Sign-in not started here');
      expect(sessionCookieOf(res)).toBeUndefined();
    }
    expect(await countRows('sessions')).toBe(before);
    // The browser that started it is signed in.
    const own = await postToAcs(attackerIdp, xml, attackerBrowser.cookie);
    expect(own.statusCode).toBe(303);
    expect(sessionCookieOf(own)).toBeDefined();
  });

  it('the global sign-in page lists no organization nor provider; an organization page lists its own', async () => {
    const global = await t.app.inject({ method: 'GET', url: '/app/signin' });
    expect(global.statusCode).toBe(200);
    for (const text of ['Victim Corp', 'Victim Corp SSO', 'Attacker Ltd', 'Attacker IdP', victimIdp.id, attackerIdp.id]) {
      expect(global.body).not.toContain(text);
    }
    const own = await t.app.inject({ method: 'GET', url: `/app/signin/${victim.id}` });
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain('Victim Corp SSO');
    expect(own.body).toContain(new URL(victimIdp.service.startURL).pathname);
    expect(own.body).not.toContain('Attacker IdP');
    expect((await t.app.inject({ method: 'GET', url: '/app/signin/unknown-organization' })).statusCode).toBe(404);
  });
});

describe('tenants: who may create organizations (ORG_CREATION)', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
  });

  async function appWith(orgCreation: 'anyone' | 'verified' | 'admins') {
    const app = await createTestApp({ orgCreation } as never);
    apps.push(app);
    return app;
  }

  async function installationAdmin(app: TestApp) {
    const user = await createUser(app);
    await app.db.updateTable('users').set({ installation_admin: 1 } as never).where('id', '=', user.id).execute();
    return user;
  }

  it('verified (the default): users with an unverified email are refused with 403 and nothing is created', async () => {
    const app = await appWith('verified');
    const unverified = await createUser(app, { emailVerified: false });
    const res = await app.request('POST', '/v1/orgs', { token: unverified.token, body: { title: 'Mine' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 403 });
    expect(await app.db.selectFrom('organizations').select('id').where('title', '=', 'Mine').executeTakeFirst()).toBeUndefined();
    const verified = await createUser(app);
    expect((await app.request('POST', '/v1/orgs', { token: verified.token, body: { title: 'Theirs' } })).status).toBe(201);
  });

  it('admins: only installation admins', async () => {
    const app = await appWith('admins');
    const user = await createUser(app);
    const refused = await app.request('POST', '/v1/orgs', { token: user.token, body: { title: 'Nope' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/installation administrators/);
    const admin = await installationAdmin(app);
    expect((await app.request('POST', '/v1/orgs', { token: admin.token, body: { title: 'Yes' } })).status).toBe(201);
  });

  it('anyone: any signed-in user', async () => {
    const app = await appWith('anyone');
    const unverified = await createUser(app, { emailVerified: false });
    expect((await app.request('POST', '/v1/orgs', { token: unverified.token, body: { title: 'Open' } })).status).toBe(201);
  });

  it('the default setting is verified', async () => {
    const { loadConfig } = await import('../../src/config.ts');
    expect(loadConfig({}).orgCreation).toBe('verified');
    expect(() => loadConfig({ ORG_CREATION: 'everyone' })).toThrow(/ORG_CREATION/);
  });
});
