import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createTeam, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { createRoleMatrix } from '../../../test/role-matrix.ts';
import { generateIdpKeys, type TestIdpKeys } from '../../../test/saml-idp.ts';

describe('SAML providers', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: TestUser;
  let editor: TestUser;
  let outsider: TestUser;
  let keys: TestIdpKeys;
  let team: { id: string; title: string };

  beforeAll(async () => {
    t = await createTestApp();
    ({ org, admin, editor, outsider } = await createRoleMatrix(t, { title: 'Acme', roles: ['edit'] }));
    keys = await generateIdpKeys();
    team = await createTeam(t, org.id, { title: 'Readers' });
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  const url = (orgId = org.id) => `/v1/orgs/${orgId}/saml`;
  const one = (id: string, orgId = org.id) => `/v1/orgs/${orgId}/saml/${id}`;
  const body = () => ({
    label: 'Okta',
    entityID: 'http://idp.test/entity',
    ssoURL: 'http://idp.test/sso',
    certificate: keys.certificate,
  });
  const countProviders = async () =>
    Number((await t.db.selectFrom('saml_providers').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n);

  it('creates, reads, lists, patches and deletes a provider', async () => {
    const created = await t.request('POST', url(), { token: admin.token, body: { ...body(), defaultTeam: team.id, defaultRole: 'edit' } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.headers.location).toBe(`http://quire.test/v1/orgs/${org.id}/saml/${id}`);
    expect(created.body).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      entityID: 'http://idp.test/entity',
      ssoURL: 'http://idp.test/sso',
      defaultRole: 'edit',
      status: 'active',
      defaultTeam: { object: 'team', id: team.id, title: 'Readers' },
      service: {
        entityID: `http://quire.test/sso/saml/${id}`,
        acsURL: `http://quire.test/sso/saml/${id}/acs`,
        startURL: `http://quire.test/sso/saml/${id}/start`,
      },
      urls: { location: `http://quire.test/v1/orgs/${org.id}/saml/${id}` },
    });
    expect(created.body.certificate).toContain('-----BEGIN CERTIFICATE-----');

    const got = await t.request('GET', one(id), { token: admin.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);

    const listed = await t.request('GET', url(), { token: admin.token });
    expect(listed.status).toBe(200);
    expect(listed.body.count).toBe(1);
    expect(listed.body.items.map((p: any) => p.id)).toEqual([id]);

    const patched = await t.request('PATCH', one(id), { token: admin.token, body: { label: 'Okta EU', defaultTeam: null, defaultRole: null } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ label: 'Okta EU', defaultRole: null, entityID: 'http://idp.test/entity' });
    expect(patched.body.defaultTeam).toBeUndefined();
    const row = await t.db.selectFrom('saml_providers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ label: 'Okta EU', default_team_id: null, default_role: null });

    // The sign-in listing is public.
    const sso = await t.request('GET', `/v1/orgs/${org.id}/sso`);
    expect(sso.status).toBe(200);
    expect(sso.body).toEqual({ items: [{ id, label: 'Okta EU', startURL: `http://quire.test/sso/saml/${id}/start` }] });

    expect((await t.request('DELETE', one(id), { token: admin.token })).status).toBe(204);
    expect(await countProviders()).toBe(0);
    expect((await t.request('DELETE', one(id), { token: admin.token })).status).toBe(204);
    expect((await t.request('GET', one(id), { token: admin.token })).status).toBe(404);
    expect((await t.request('GET', `/v1/orgs/${org.id}/sso`)).body).toEqual({ items: [] });
  });

  it('accepts a certificate given as its base64 body, and defaults the role to read', async () => {
    const bare = keys.certificate.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    const created = await t.request('POST', url(), { token: admin.token, body: { ...body(), certificate: bare } });
    expect(created.status).toBe(201);
    expect(created.body.certificate.trim()).toBe(keys.certificate.trim());
    expect(created.body.defaultRole).toBe('read');
    await t.request('DELETE', one(created.body.id), { token: admin.token });
  });

  it('400 for a certificate that is not one, a bad URL, a foreign team, missing fields; nothing stored', async () => {
    const cases: [unknown, RegExp][] = [
      [{ ...body(), certificate: 'hello' }, /certificate/],
      [{ ...body(), certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' }, /certificate/],
      [{ ...body(), ssoURL: 'not a url' }, /ssoURL/],
      [{ ...body(), ssoURL: 'ftp://idp.test/sso' }, /ssoURL/],
      [{ ...body(), defaultTeam: 'no-such-team' }, /defaultTeam/],
      [{ ...body(), defaultRole: 'owner' }, /defaultRole/],
      [{ ...body(), label: '' }, /label/],
      [{ ...body(), label: 'x'.repeat(31) }, /label/],
      [{ label: 'Only a label' }, /entityID|certificate|ssoURL/],
    ];
    for (const [payload, message] of cases) {
      const res = await t.request('POST', url(), { token: admin.token, body: payload });
      expect(res.status, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.body.error.code).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect(await countProviders()).toBe(0);

    const created = await t.request('POST', url(), { token: admin.token, body: body() });
    const id = created.body.id;
    for (const payload of [{ certificate: 'nope' }, { defaultTeam: 'nope' }, {}]) {
      const res = await t.request('PATCH', one(id), { token: admin.token, body: payload });
      expect(res.status).toBe(400);
    }
    const row = await t.db.selectFrom('saml_providers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.certificate).toBe(created.body.certificate);
    expect(row.default_team_id).toBeNull();
    await t.request('DELETE', one(id), { token: admin.token });
  });

  it('401 without a token, 403 for members who are not admins, 404 for outsiders and unknown ids', async () => {
    const created = await t.request('POST', url(), { token: admin.token, body: body() });
    const id = created.body.id;
    const calls: [string, string, unknown?][] = [
      ['GET', url()],
      ['POST', url(), body()],
      ['GET', one(id)],
      ['PATCH', one(id), { label: 'X' }],
      ['DELETE', one(id)],
    ];
    for (const [method, path, payload] of calls) {
      expect((await t.request(method as any, path, { body: payload })).status).toBe(401);
      expect((await t.request(method as any, path, { token: 'qr_nope', body: payload })).status).toBe(401);
      const forbidden = await t.request(method as any, path, { token: editor.token, body: payload });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error.message).toMatch(/admins/);
      expect((await t.request(method as any, path, { token: outsider.token, body: payload })).status).toBe(404);
    }
    expect((await t.request('GET', one('unknown'), { token: admin.token })).status).toBe(404);
    expect((await t.request('PATCH', one('unknown'), { token: admin.token, body: { label: 'X' } })).status).toBe(404);
    expect((await t.request('GET', url('unknown-org'), { token: admin.token })).status).toBe(404);
    expect((await t.request('GET', '/v1/orgs/unknown-org/sso')).status).toBe(404);
    const still = await t.db.selectFrom('saml_providers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(still.label).toBe('Okta');
    await t.request('DELETE', one(id), { token: admin.token });
  });

  it("GitBook's client drives provider CRUD and the sign-in listing", async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const api = new GitBookAPI({ endpoint: address, authToken: admin.token });
    const created = await api.orgs.createOrganizationSamlProvider(org.id, { ...body(), defaultTeam: team.id });
    expect(created.data.label).toBe('Okta');
    const id = created.data.id;
    const listed = await api.orgs.listSamlProvidersInOrganizationById(org.id);
    expect(listed.data.items.map((p) => p.id)).toEqual([id]);
    const got = await api.orgs.getOrganizationSamlProviderById(org.id, id);
    expect(got.data.defaultTeam?.id).toBe(team.id);
    const patched = await api.orgs.updateOrganizationSamlProvider(org.id, id, { label: 'Azure' });
    expect(patched.data.label).toBe('Azure');
    const sso = await new GitBookAPI({ endpoint: address }).orgs.listSsoProviderLoginsInOrganization(org.id);
    expect(sso.data.items).toEqual([{ id, label: 'Azure', startURL: `http://quire.test/sso/saml/${id}/start` }]);
    await api.orgs.deleteOrganizationSamlProvider(org.id, id);
    expect(await countProviders()).toBe(0);
  });
});
