import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app.ts';
import { createMember, createOrganization, type TestOrganization, type TestUser } from '../factories.ts';
import { editSpaceContent } from '../../src/modules/content/content.service.ts';
import { startDnsServer, type TestDnsServer } from '../dns-server.ts';

/*
 * Issue 30, sites: the visitor-auth key an owner can read and rotate (GitBook's
 * site-publishing-auth), and visitor tokens that must expire.
 */
describe('tenants: visitor authentication of a site', () => {
  let t: TestApp;
  let org: TestOrganization;
  let other: TestOrganization;
  let reader: TestUser;
  let siteId: string;
  let basename: string;
  const SITE = () => `/v1/orgs/${org.id}/sites/${siteId}`;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Owner' });
    other = await createOrganization(t, { title: 'Other' });
    reader = await createMember(t, org.id, 'read');
    const space = (await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Guide' } })).body;
    await editSpaceContent(t.app.deps, space.id, org.admin.id, (e) => {
      e.insertPage({ title: 'Welcome', markdown: 'Members only text.\n' });
    });
    const site = (await t.request('POST', `/v1/orgs/${org.id}/sites`, { token: org.admin.token, body: { title: 'Private', spaces: [space.id], visibility: 'visitor-auth' } })).body;
    siteId = site.id;
    basename = `private-${siteId.toLowerCase()}`;
    expect((await t.request('PATCH', SITE(), { token: org.admin.token, body: { basename } })).status).toBe(200);
    expect((await t.request('POST', `${SITE()}/publish`, { token: org.admin.token })).status).toBe(200);
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  /** A visit with a token: accepted, it is kept in a cookie and the browser is sent to the clean URL. */
  async function visit(jwt: string) {
    const first = await t.app.inject({ method: 'GET', url: `/sites/${basename}/?jwt_token=${jwt}` });
    if (first.statusCode !== 302) return first;
    const cookie = String(first.headers['set-cookie']).split(';')[0];
    return t.app.inject({ method: 'GET', url: new URL(String(first.headers.location), 'http://quire.test').pathname, headers: { cookie } });
  }
  const sign = (key: string, expiresIn: string | null) => {
    const token = new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
    return (expiresIn ? token.setExpirationTime(expiresIn) : token).sign(new TextEncoder().encode(key));
  };

  it('gives the owner the signing key (GitBook getSitePublishingAuth); it is not stored in clear; tokens signed with it open the site', async () => {
    const res = await t.request('GET', `${SITE()}/publishing/auth`, { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'publishing-auth', backend: 'custom' });
    const key = res.body.privateKey as string;
    expect(key.length).toBeGreaterThanOrEqual(32);
    const row = await t.db.selectFrom('sites').select('visitor_auth_key').where('id', '=', siteId).executeTakeFirstOrThrow();
    expect(row.visitor_auth_key).not.toContain(key);
    const opened = await visit(await sign(key, '1h'));
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain('Members only text.');
  });

  it('refuses the key to members who do not manage the site (403) and to other organizations (404)', async () => {
    const asReader = await t.request('GET', `${SITE()}/publishing/auth`, { token: reader.token });
    expect(asReader.status).toBe(403);
    expect(asReader.body.error.code).toBe(403);
    const asOther = await t.request('GET', `${SITE()}/publishing/auth`, { token: other.admin.token });
    expect(asOther.status).toBe(404);
    expect((await t.request('POST', `${SITE()}/publishing/auth/regenerate`, { token: reader.token })).status).toBe(403);
    expect((await t.request('POST', `${SITE()}/publishing/auth/regenerate`, { token: other.admin.token })).status).toBe(404);
  });

  it('rotates the key (regenerateSitePublishingAuth): tokens signed with the old one stop working at once', async () => {
    const before = (await t.request('GET', `${SITE()}/publishing/auth`, { token: org.admin.token })).body.privateKey;
    const oldToken = await sign(before, '1h');
    expect((await visit(oldToken)).statusCode).toBe(200);
    const rotated = await t.request('POST', `${SITE()}/publishing/auth/regenerate`, { token: org.admin.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.privateKey).not.toBe(before);
    expect((await t.request('GET', `${SITE()}/publishing/auth`, { token: org.admin.token })).body.privateKey).toBe(rotated.body.privateKey);
    expect((await visit(oldToken)).statusCode).toBe(401);
    expect((await visit(await sign(rotated.body.privateKey, '1h'))).statusCode).toBe(200);
  });

  it('refuses a visitor token without exp, and an unsigned one', async () => {
    const key = (await t.request('GET', `${SITE()}/publishing/auth`, { token: org.admin.token })).body.privateKey;
    expect((await visit(await sign(key, null))).statusCode).toBe(401);
    expect((await visit(new UnsecuredJWT({ plan: 'pro' }).setExpirationTime('1h').encode())).statusCode).toBe(401);
  });
});

describe('tenants: custom hostnames are claimed with a proof', () => {
  let t: TestApp;
  let owner: TestOrganization;
  let attacker: TestOrganization;
  let dns: TestDnsServer;
  let ownerSite: string;
  let attackerSite: string;
  const HOST = 'docs.owner.test';

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await createTestApp({ dnsServer: dns.address } as never);
    owner = await createOrganization(t, { title: 'Owner' });
    attacker = await createOrganization(t, { title: 'Attacker' });
    const make = async (org: TestOrganization) => {
      const space = (await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: `${org.id} space` } })).body;
      await editSpaceContent(t.app.deps, space.id, org.admin.id, (e) => {
        e.insertPage({ title: 'Home', markdown: `Served by ${org.id}.\n` });
      });
      const site = (await t.request('POST', `/v1/orgs/${org.id}/sites`, { token: org.admin.token, body: { title: 'Docs', spaces: [space.id] } })).body;
      expect((await t.request('POST', `/v1/orgs/${org.id}/sites/${site.id}/publish`, { token: org.admin.token })).status).toBe(200);
      return site.id as string;
    };
    ownerSite = await make(owner);
    attackerSite = await make(attacker);
  }, 180_000);
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  const visitHost = () => t.app.inject({ method: 'GET', url: '/', headers: { host: HOST } });

  it('a hostname set without proof is pending: not served, and it blocks nobody', async () => {
    const claimed = await t.request('PATCH', `/v1/orgs/${attacker.id}/sites/${attackerSite}`, { token: attacker.admin.token, body: { hostname: HOST } });
    expect(claimed.status).toBe(200);
    expect(claimed.body.hostname).toBe(HOST);
    expect((await visitHost()).body).not.toContain(`Served by ${attacker.id}`);
    // The real owner can still set it (a pending claim is no squat).
    expect((await t.request('PATCH', `/v1/orgs/${owner.id}/sites/${ownerSite}`, { token: owner.admin.token, body: { hostname: HOST } })).status).toBe(200);
  });

  it('without the TXT record the proof is refused with 409 naming the record; nothing is served', async () => {
    const res = await t.request('PATCH', `/v1/custom-hostnames/${HOST}`, { token: attacker.admin.token });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain(`_quire-challenge.${HOST}`);
    expect((await visitHost()).body).not.toContain('Served by');
    // Nobody else's claim is proven by asking: an outsider gets 404.
    const outsider = await createOrganization(t, { title: 'Outsider' });
    expect((await t.request('PATCH', `/v1/custom-hostnames/${HOST}`, { token: outsider.admin.token })).status).toBe(404);
  });

  it('the site whose owner publishes its TXT record gets the hostname and is served on it', async () => {
    const first = await t.request('PATCH', `/v1/custom-hostnames/${HOST}`, { token: owner.admin.token });
    expect(first.status).toBe(409);
    const value = /with the value "([^"]+)"/.exec(first.body.error.message)![1];
    dns.txt.set(`_quire-challenge.${HOST}`, [value]);
    expect((await t.request('PATCH', `/v1/custom-hostnames/${HOST}`, { token: owner.admin.token })).status).toBe(204);
    const served = await visitHost();
    expect(served.statusCode).toBe(200);
    expect(served.body).toContain(`Served by ${owner.id}`);
    // The attacker's record is another value (site-bound): their claim stays pending.
    expect((await t.request('PATCH', `/v1/custom-hostnames/${HOST}`, { token: attacker.admin.token })).status).toBe(409);
    expect((await visitHost()).body).toContain(`Served by ${owner.id}`);
  });
});
