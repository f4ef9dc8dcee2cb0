import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { editSpaceContent } from '../../src/modules/content/content.service.ts';
import { startSession } from '../../src/modules/sessions/sessions.service.ts';
import { createTestApp, type TestApp } from '../app.ts';
import { createMember, createOrganization, createUser, type TestOrganization, type TestUser } from '../factories.ts';

/*
 * Issue 33 item 4: one error handler (plugins/errors.ts) maps every error; the browser
 * routes (the app area, the SAML endpoints) only choose how a failure is shown. The same
 * kinds of error are GitBook's JSON body on the API and an HTML page there, with the
 * status the mapping gave. SQLite and PostgreSQL (DATABASE_URL).
 */

describe('one error mapping, shown as JSON on the API and as pages to browsers', () => {
  let t: TestApp;
  let org: TestOrganization;
  let reader: TestUser;
  let outsider: TestUser;
  let spaceId: string;
  let providerId: string;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Acme' });
    reader = await createMember(t, org.id, 'read');
    outsider = await createUser(t, {});
    const space = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Handbook' } });
    expect(space.status).toBe(201);
    spaceId = space.body.id;
    await editSpaceContent(t.app.deps, spaceId, org.admin.id, (e) => {
      e.insertPage({ title: 'Welcome', markdown: 'Hello.\n' });
    });
    const { generateIdpKeys } = await import('../saml-idp.ts');
    const keys = await generateIdpKeys();
    const provider = await t.request('POST', `/v1/orgs/${org.id}/saml`, {
      token: org.admin.token,
      body: { label: 'Acme IdP', entityID: 'http://idp.test', ssoURL: 'http://idp.test/sso', certificate: keys.certificate },
    });
    expect(provider.status).toBe(201);
    providerId = provider.body.id;
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  const cookieFor = async (user: TestUser) =>
    `quire_session=${await startSession(t.db, t.clock, t.config.sessionTtlMs, { userId: user.id, method: 'link', organizationId: null })}`;
  const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const isHtml = (res: { headers: Record<string, unknown> }) => expect(String(res.headers['content-type'])).toMatch(/^text\/html/);

  it('the API answers GitBook error bodies: a service 404, a validation 400, a domain 400 (a bad cursor)', async () => {
    const missing = await t.request('GET', `/v1/spaces/${newId()}`, { token: org.admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 404, message: expect.any(String) } });
    const invalid = await t.request('GET', `/v1/orgs/${org.id}/spaces?limit=0`, { token: org.admin.token });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: { code: 400, message: expect.stringContaining('limit') } });
    const cursor = await t.request('GET', `/v1/orgs/${org.id}/spaces?page=bm90LWpzb24`, { token: org.admin.token });
    expect(cursor.status).toBe(400);
    expect(cursor.body).toEqual({ error: { code: 400, message: 'querystring/page is not a page identifier of this list' } });
  });

  it('the app area shows the same mapping as pages: not found, bad request', async () => {
    const hidden = await get(`/app/s/${spaceId}`, await cookieFor(outsider));
    expect(hidden.statusCode).toBe(404);
    isHtml(hidden);
    expect(hidden.body).toContain('There is nothing here, or you do not have access to it.');
    expect(hidden.body).not.toContain('"error"');

    const cookie = await cookieFor(reader);
    const shown = await get(`/app/s/${spaceId}`, cookie);
    expect(shown.statusCode).toBe(200);
    const badParams = await get(`/app/s/not%20an%20id`, cookie);
    expect(badParams.statusCode).toBe(400);
    isHtml(badParams);
    expect(badParams.body).toContain('Bad request');
    expect(badParams.body).toContain('params/spaceId');
  });

  it('the SAML endpoints show their own pages: an unknown provider, a request no identity provider sends', async () => {
    const unknown = await get(`/sso/saml/${newId()}`);
    expect(unknown.statusCode).toBe(404);
    isHtml(unknown);
    expect(unknown.body).toContain('Unknown identity provider');

    const acs = await t.app.inject({
      method: 'POST',
      url: `/sso/saml/${providerId}/acs`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'RelayState=x',
    });
    expect(acs.statusCode).toBe(400);
    isHtml(acs);
    expect(acs.body).toContain('Sign-in failed');
    expect(acs.body).toContain('was not what an identity provider sends');
  });
});
