import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, createTeam, type TestOrganization } from '../../../test/factories.ts';
import { attr, buildResponse, decodeRedirect, generateIdpKeys, postBody, type ResponseOptions, type TestIdpKeys } from '../../../test/saml-idp.ts';
import { sessionCookie } from '../sessions/sessions.presenter.ts';
import { verifyDomain } from '../organizations/organizations.service.ts';

const IDP_ENTITY = 'http://idp.test/metadata';
const IDP_SSO = 'http://idp.test/sso';

describe('SAML sign-in (SP-initiated)', () => {
  let t: TestApp;
  let org: TestOrganization;
  let keys: TestIdpKeys;
  let otherKeys: TestIdpKeys;
  let team: { id: string };
  let provider: { id: string; service: { entityID: string; acsURL: string; startURL: string } };

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Acme' });
    team = await createTeam(t, org.id, { title: 'SSO people' });
    [keys, otherKeys] = await Promise.all([generateIdpKeys(), generateIdpKeys('other.test')]);
    const created = await t.request('POST', `/v1/orgs/${org.id}/saml`, {
      token: org.admin.token,
      body: { label: 'Test IdP', entityID: IDP_ENTITY, ssoURL: IDP_SSO, certificate: keys.certificate, defaultRole: 'edit', defaultTeam: team.id },
    });
    expect(created.status).toBe(201);
    provider = created.body;
    // The organization's IdP creates accounts only on a domain it has verified (docs/security.md).
    await verifyDomain(t.db, t.clock, org.id, 'acme.test', null);
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  const startPath = () => new URL(provider.service.startURL).pathname;
  const acsPath = () => new URL(provider.service.acsURL).pathname;

  /** The browser of these tests: the sign-in nonce cookie /start sets is sent back to the ACS. */
  let browserCookie = '';

  /** GET the start URL; returns the AuthnRequest's id and the relay state. */
  async function start(to?: string) {
    const res = await t.app.inject({ method: 'GET', url: startPath(), query: to ? { to } : {}, headers: browserCookie ? { cookie: browserCookie } : {} });
    expect(res.statusCode).toBe(303);
    const nonce = /quire_saml=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1];
    expect(nonce).toBeTruthy();
    browserCookie = `quire_saml=${nonce}`;
    const { xml, relayState, url } = decodeRedirect(String(res.headers.location));
    expect(`${url.origin}${url.pathname}`).toBe(IDP_SSO);
    return { id: attr(xml, 'ID') as string, relayState, xml };
  }

  async function post(responseXml: string, relayState?: string | null, cookie: string | null = browserCookie) {
    return t.app.inject({
      method: 'POST',
      url: acsPath(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      payload: postBody(responseXml, relayState),
    });
  }

  function responseFor(requestId: string, email: string, overrides: Partial<ResponseOptions> = {}) {
    return buildResponse({
      issuer: IDP_ENTITY,
      audience: provider.service.entityID,
      acsUrl: provider.service.acsURL,
      inResponseTo: requestId,
      nameId: email,
      displayName: 'Sam Saml',
      keys,
      ...overrides,
    });
  }

  const count = async (table: 'sessions' | 'members' | 'users') =>
    Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n);

  it('sends an AuthnRequest with Quire as Issuer and the ACS URL, and records it', async () => {
    const { id, xml, relayState } = await start('/app/orgs/x');
    expect(xml).toContain(`<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${provider.service.entityID}</saml:Issuer>`);
    expect(attr(xml, 'AssertionConsumerServiceURL')).toBe(provider.service.acsURL);
    expect(attr(xml, 'Destination')).toBe(IDP_SSO);
    expect(relayState).toBe('http://quire.test/app/orgs/x');
    const row = await t.db.selectFrom('saml_requests').selectAll().where('id', '=', id).executeTakeFirst();
    expect(row?.provider_id).toBe(provider.id);
    // A relay state outside the app is dropped, not forwarded.
    for (const to of ['https://evil.test/app', '//evil.test/app', '/v1/orgs', '/\\evil.test']) {
      expect((await start(to)).relayState).toBeNull();
    }
  });

  it('signs in end to end: a member with the default role and team, sso, a session cookie, 303 to the relay state', async () => {
    const email = `new-${randomUUID()}@acme.test`;
    const { id, relayState } = await start('/app/orgs/somewhere');
    const res = await post(responseFor(id, email), relayState);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('http://quire.test/app/orgs/somewhere');
    const cookie = String((res.headers['set-cookie'] as string[])[0]);
    expect(cookie).toMatch(/^quire_session=[\w-]{40,}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
    const sessionId = /^quire_session=([^;]+)/.exec(cookie)![1];

    const user = await t.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.display_name).toBe('Sam Saml');
    const member = await t.db.selectFrom('members').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(member).toMatchObject({ organization_id: org.id, role: 'edit', sso: 1, disabled: 0 });
    const inTeam = await t.db.selectFrom('team_members').selectAll().where('user_id', '=', user.id).executeTakeFirst();
    expect(inTeam).toMatchObject({ team_id: team.id, role: 'member' });
    // Only the hash of the session id is stored.
    const hash = createHash('sha256').update(sessionId).digest('hex');
    const session = await t.db.selectFrom('sessions').selectAll().where('id_hash', '=', hash).executeTakeFirstOrThrow();
    expect(session).toMatchObject({ user_id: user.id, method: 'saml', provider_id: provider.id, organization_id: org.id, revoked_at: null });
    expect(await t.db.selectFrom('sessions').selectAll().where('id_hash', '=', sessionId).executeTakeFirst()).toBeUndefined();
    // The request was consumed.
    expect(await t.db.selectFrom('saml_requests').selectAll().where('id', '=', id).executeTakeFirst()).toBeUndefined();
    // The API shows the member as an SSO member.
    const api = await t.request('GET', `/v1/orgs/${org.id}/members/${user.id}`, { token: org.admin.token });
    expect(api.body).toMatchObject({ role: 'edit', sso: true });
  });

  it('accepts a signed response (unsigned assertion), an existing member keeps their role and becomes sso; no relay state lands on the account page', async () => {
    const existing = await createMember(t, org.id, 'review');
    const { id } = await start();
    const res = await post(responseFor(id, existing.email, { sign: 'response' }));
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('http://quire.test/app/account');
    const member = await t.db.selectFrom('members').selectAll().where('user_id', '=', existing.id).executeTakeFirstOrThrow();
    expect(member).toMatchObject({ role: 'review', sso: 1 });
    expect(await t.db.selectFrom('team_members').selectAll().where('user_id', '=', existing.id).executeTakeFirst()).toBeUndefined();
  });

  /** Posts a refused response and checks: 4xx page, no cookie, no session, user or member made. */
  async function expectRefused(responseXml: string, status: number, title: RegExp) {
    const before = { sessions: await count('sessions'), members: await count('members'), users: await count('users') };
    const res = await post(responseXml);
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(title);
    expect(res.body).toContain('no session was started');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect({ sessions: await count('sessions'), members: await count('members'), users: await count('users') }).toEqual(before);
    return res;
  }

  it('refuses a response altered after signing', async () => {
    const { id } = await start();
    const signed = responseFor(id, 'victim@acme.test');
    const altered = signed.replace('victim@acme.test', 'attacker@acme.test');
    expect(altered).not.toBe(signed);
    await expectRefused(altered, 400, /Signature not valid/);
  });

  it('refuses an unsigned response', async () => {
    const { id } = await start();
    await expectRefused(responseFor(id, 'unsigned@acme.test', { sign: 'none' }), 400, /Signature not valid/);
  });

  it('refuses a response signed by another key', async () => {
    const { id } = await start();
    await expectRefused(responseFor(id, 'otherkey@acme.test', { keys: otherKeys }), 400, /Signature not valid/);
  });

  it('refuses an expired response (beyond the clock skew)', async () => {
    const { id } = await start();
    const issuedAt = new Date(Date.now() - 10 * 60_000);
    await expectRefused(responseFor(id, 'late@acme.test', { issuedAt }), 400, /expired or not yet valid/);
  });

  it('refuses a response for another audience', async () => {
    const { id } = await start();
    const res = await expectRefused(responseFor(id, 'aud@acme.test', { audience: 'http://other-sp.test' }), 400, /another service/);
    expect(res.body).toContain(provider.service.entityID);
  });

  it('refuses a response from another issuer', async () => {
    const { id } = await start();
    await expectRefused(responseFor(id, 'iss@acme.test', { issuer: 'http://evil-idp.test' }), 400, /another identity provider/);
  });

  it('refuses a response to another destination or recipient', async () => {
    const first = await start();
    await expectRefused(responseFor(first.id, 'dest@acme.test', { destination: 'http://other.test/acs' }), 400, /another address/);
    const second = await start();
    await expectRefused(responseFor(second.id, 'rcpt@acme.test', { recipient: 'http://other.test/acs', sign: 'assertion' }), 400, /another address/);
  });

  it('refuses a response answering a request Quire never made, and one with no InResponseTo', async () => {
    await expectRefused(responseFor('_never-sent', 'stranger@acme.test'), 400, /not started here/);
    await expectRefused(responseFor('', 'nobody@acme.test', { inResponseTo: undefined }), 400, /not started here/);
  });

  it('refuses a replayed response, also when its request id were still open (the assertion id alone refuses)', async () => {
    const email = `replay-${randomUUID()}@acme.test`;
    const { id } = await start();
    const xml = responseFor(id, email);
    expect((await post(xml)).statusCode).toBe(303);
    await expectRefused(xml, 400, /not started here/);
    // Reopen the request: only the accepted-assertion record stands in the way now.
    const browserHash = createHash('sha256').update(browserCookie.slice('quire_saml='.length)).digest('hex');
    await t.db.insertInto('saml_requests').values({ id, provider_id: provider.id, created_at: new Date().toISOString(), expires_at: '2999-01-01T00:00:00.000Z', browser_hash: browserHash }).execute();
    await expectRefused(xml, 400, /already used/);
  });

  it('refuses a disabled member with 403 and starts no session', async () => {
    const disabled = await createMember(t, org.id, 'read', { disabled: true });
    const { id } = await start();
    await expectRefused(responseFor(id, disabled.email), 403, /Membership disabled/);
  });

  it('answers 404 pages for an unknown provider, 400 for a post without SAMLResponse', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/sso/saml/unknown/start' })).statusCode).toBe(404);
    const acs = await t.app.inject({
      method: 'POST',
      url: acsPath(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'RelayState=x',
    });
    expect(acs.statusCode).toBe(400);
    expect(acs.headers['content-type']).toMatch(/text\/html/);
  });

  it('serves service-provider metadata at the entity ID', async () => {
    const res = await t.app.inject({ method: 'GET', url: new URL(provider.service.entityID).pathname });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/samlmetadata\+xml/);
    expect(res.body).toContain(`entityID="${provider.service.entityID}"`);
    expect(res.body).toContain(`Location="${provider.service.acsURL}"`);
  });

  it('marks the cookie Secure when PUBLIC_URL is https', () => {
    expect(sessionCookie({ publicUrl: 'https://docs.acme.test' }, 'abc', 3600_000)).toContain('; Secure');
    expect(sessionCookie({ publicUrl: 'http://localhost:8080' }, 'abc', 3600_000)).not.toContain('Secure');
  });
});
