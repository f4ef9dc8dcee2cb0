import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, createTeam, createUser, type TestOrganization } from '../../../test/factories.ts';

describe('organizations', () => {
  let t: TestApp;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Acme Docs', emailDomains: ['acme.test'] });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET /v1/orgs/{organizationId}', () => {
    it('401 without a token, and with an unknown token', async () => {
      expect((await t.request('GET', `/v1/orgs/${org.id}`)).status).toBe(401);
      const bad = await t.request('GET', `/v1/orgs/${org.id}`, { token: 'qr_nope' });
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual({ error: { code: 401, message: expect.stringMatching(/invalid|revoked/) } });
    });

    it('404 for a non-member and for an unknown organization', async () => {
      const outsider = await createUser(t);
      const res = await t.request('GET', `/v1/orgs/${org.id}`, { token: outsider.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Organization not found' } });
      expect((await t.request('GET', '/v1/orgs/unknown', { token: org.admin.token })).status).toBe(404);
    });

    it('404 for a disabled member', async () => {
      const disabled = await createMember(t, org.id, 'admin', { disabled: true });
      expect((await t.request('GET', `/v1/orgs/${org.id}`, { token: disabled.token })).status).toBe(404);
    });

    it('gives every field with the admin permissions', async () => {
      const res = await t.request('GET', `/v1/orgs/${org.id}`, { token: org.admin.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        object: 'organization',
        id: org.id,
        title: 'Acme Docs',
        emailDomains: ['acme.test'],
        type: 'business',
        defaultRole: 'read',
        sso: false,
        ai: false,
        inviteLinks: true,
        plan: 'enterprise_2024',
        mergeRules: { type: 'none' },
        trial: { status: 'notapplicable', count: 0 },
        urls: { location: `http://quire.test/v1/orgs/${org.id}`, app: `http://quire.test/app/o/${org.id}` },
        billing: { endDate: null, hasPaymentFailed: false },
      });
      expect(res.body.permissions).toEqual({
        view: true,
        access: true,
        admin: true,
        ownTeam: false,
        createContent: true,
        createOpenAPISpec: true,
        ingestConversations: true,
        viewBilling: true,
        listMembers: true,
        listTeams: true,
        listIntegrations: true,
        listInstallations: true,
        installIntegration: true,
      });
    });

    it('fills permissions from the caller role: reader, guest, team owner', async () => {
      const reader = await createMember(t, org.id, 'read');
      const asReader = await t.request('GET', `/v1/orgs/${org.id}`, { token: reader.token });
      expect(asReader.body.permissions).toMatchObject({ view: true, admin: false, createContent: false, listMembers: true, ownTeam: false });

      const guest = await createMember(t, org.id, null);
      const asGuest = await t.request('GET', `/v1/orgs/${org.id}`, { token: guest.token });
      expect(asGuest.body.permissions).toMatchObject({ view: true, admin: false, listMembers: false, listTeams: false });

      const creator = await createMember(t, org.id, 'create');
      await createTeam(t, org.id, { members: [{ userId: creator.id, role: 'owner' }] });
      const asOwner = await t.request('GET', `/v1/orgs/${org.id}`, { token: creator.token });
      expect(asOwner.body.permissions).toMatchObject({ ownTeam: true, createContent: true, admin: false });
      // Lists compute the same permissions in their one query.
      const listed = await t.request('GET', '/v1/orgs', { token: creator.token });
      expect(listed.body.items[0].permissions).toEqual(asOwner.body.permissions);
    });
  });

  describe('GET /v1/orgs', () => {
    it('lists only the organizations the caller belongs to, walking pages both ways', async () => {
      const user = await createUser(t);
      const ids: string[] = [];
      for (let i = 0; i < 23; i++) {
        const o = await createOrganization(t, { admin: user });
        ids.push(o.id);
        t.clock.advance(10);
      }
      await createOrganization(t); // someone else's
      const seen: string[] = [];
      let page: string | undefined;
      const pages: any[] = [];
      do {
        const res = await t.request('GET', '/v1/orgs', { token: user.token, query: { limit: 10, ...(page ? { page } : {}) } });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(23);
        pages.push(res.body);
        seen.push(...res.body.items.map((o: { id: string }) => o.id));
        page = res.body.next?.page;
      } while (page);
      expect(pages.map((p) => p.items.length)).toEqual([10, 10, 3]);
      expect(seen).toEqual(ids);
      expect(pages[0].previous).toBeUndefined();
      // Walk back from the last page.
      const back = await t.request('GET', '/v1/orgs', { token: user.token, query: { limit: 10, page: pages[2].previous.page } });
      expect(back.body.items.map((o: { id: string }) => o.id)).toEqual(ids.slice(10, 20));
      expect(back.body.next).toBeDefined();
    });

    it('rejects a bad limit and a forged page cursor', async () => {
      for (const limit of [0, 1001]) {
        const res = await t.request('GET', '/v1/orgs', { token: org.admin.token, query: { limit } });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toContain('limit');
      }
      const forged = await t.request('GET', '/v1/orgs', { token: org.admin.token, query: { page: 'not-a-cursor' } });
      expect(forged.status).toBe(400);
      expect(forged.body.error.message).toContain('page');
      expect((await t.request('GET', '/v1/orgs', { token: org.admin.token, query: { limit: 1000 } })).status).toBe(200);
    });

    it('401 without a token', async () => {
      expect((await t.request('GET', '/v1/orgs')).status).toBe(401);
    });
  });

  describe('POST /v1/orgs', () => {
    it('creates an organization whose creator is admin', async () => {
      const founder = await createUser(t);
      const res = await t.request('POST', '/v1/orgs', { token: founder.token, body: { title: 'New Org', emailDomains: ['New.Test'] } });
      expect(res.status).toBe(201);
      expect(res.headers.location).toBe(res.body.urls.location);
      expect(res.body).toMatchObject({ title: 'New Org', emailDomains: ['new.test'], permissions: { admin: true } });
      const read = await t.request('GET', `/v1/orgs/${res.body.id}`, { token: founder.token });
      expect(read.body.title).toBe('New Org');
      const member = await t.db.selectFrom('members').selectAll().where('organization_id', '=', res.body.id).execute();
      expect(member).toEqual([expect.objectContaining({ user_id: founder.id, role: 'admin' })]);
    });

    it('validates the title', async () => {
      for (const title of ['x', 'y'.repeat(256), '  ']) {
        const res = await t.request('POST', '/v1/orgs', { token: org.admin.token, body: { title } });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toContain('title');
      }
      const missing = await t.request('POST', '/v1/orgs', { token: org.admin.token, body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toContain('title');
      expect((await t.request('POST', '/v1/orgs', { body: { title: 'Nope' } })).status).toBe(401);
    });
  });

  describe('PATCH /v1/orgs/{organizationId}', () => {
    it('updates every writable field and reads it back', async () => {
      const o = await createOrganization(t);
      const body = {
        title: 'Renamed',
        emailDomains: ['a.test', 'B.test'],
        hostname: `host-${o.id.toLowerCase().slice(0, 8)}`,
        defaultRole: null,
        logo: 'https://cdn.example.com/logo.png',
        sso: true,
        ai: true,
        inviteLinks: false,
        mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [o.admin.id] }] },
      };
      const res = await t.request('PATCH', `/v1/orgs/${o.id}`, { token: o.admin.token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const read = await t.request('GET', `/v1/orgs/${o.id}`, { token: o.admin.token });
      expect(read.body).toMatchObject({
        title: 'Renamed',
        emailDomains: ['a.test', 'b.test'],
        hostname: body.hostname,
        defaultRole: null,
        sso: true,
        ai: true,
        inviteLinks: false,
        mergeRules: body.mergeRules,
        urls: { logo: 'https://cdn.example.com/logo.png' },
      });
      const closed = await t.request('PATCH', `/v1/orgs/${o.id}`, { token: o.admin.token, body: { mergeRules: { type: 'none', extra: 1 } } });
      expect(closed.body.mergeRules).toEqual({ type: 'none' });
      const cleared = await t.request('PATCH', `/v1/orgs/${o.id}`, { token: o.admin.token, body: { logo: null, defaultRole: 'edit', defaultContent: null } });
      expect(cleared.body.urls.logo).toBeUndefined();
      expect(cleared.body.defaultRole).toBe('edit');
    });

    it('rejects bad input and changes nothing', async () => {
      const o = await createOrganization(t, { title: 'Stable' });
      const cases: [unknown, string][] = [
        [{ title: 'a' }, 'title'],
        [{ hostname: 'No Caps' }, 'hostname'],
        [{ hostname: 'ab' }, 'hostname'],
        [{ defaultRole: 'owner' }, 'defaultRole'],
        [{ emailDomains: ['not a domain'] }, 'emailDomains'],
        [{ logo: 'not a url' }, 'logo'],
        [{ mergeRules: { type: 'rules', rules: [{ rule: 'bogus' }] } }, 'mergeRules'],
        [{ defaultContent: { type: 'space', space: 'nope' } }, 'defaultContent'],
        [{ mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: ['not-a-member'] }] } }, 'not-a-member'],
        [{ defaultContent: { type: 'site', site: 'nope' } }, 'defaultContent'],
        [{ title: 'Fine title', defaultContent: { type: 'collection', collection: 'nope' } }, 'defaultContent'],
      ];
      for (const [body, field] of cases) {
        const res = await t.request('PATCH', `/v1/orgs/${o.id}`, { token: o.admin.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.code).toBe(400);
        expect(res.body.error.message).toContain(field);
      }
      const read = await t.request('GET', `/v1/orgs/${o.id}`, { token: o.admin.token });
      expect(read.body.title).toBe('Stable');
    });

    it('refuses a hostname another organization uses (409)', async () => {
      const a = await createOrganization(t);
      const b = await createOrganization(t);
      expect((await t.request('PATCH', `/v1/orgs/${a.id}`, { token: a.admin.token, body: { hostname: 'taken-host' } })).status).toBe(200);
      const res = await t.request('PATCH', `/v1/orgs/${b.id}`, { token: b.admin.token, body: { hostname: 'taken-host' } });
      expect(res.status).toBe(409);
      expect(res.body.error.message).toContain('hostname');
    });

    it('403 for non-admins, 404 for outsiders, 401 without token', async () => {
      const creator = await createMember(t, org.id, 'create');
      const res = await t.request('PATCH', `/v1/orgs/${org.id}`, { token: creator.token, body: { title: 'Hijack' } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe(403);
      const outsider = await createUser(t);
      expect((await t.request('PATCH', `/v1/orgs/${org.id}`, { token: outsider.token, body: { title: 'Hijack' } })).status).toBe(404);
      expect((await t.request('PATCH', `/v1/orgs/${org.id}`, { body: { title: 'Hijack' } })).status).toBe(401);
      const read = await t.request('GET', `/v1/orgs/${org.id}`, { token: org.admin.token });
      expect(read.body.title).toBe('Acme Docs');
    });
  });

  describe('GET /v1/email-domains/{emailDomain}/orgs', () => {
    it('lists the organizations allowing that domain to users of that domain, and nobody else (issue 13)', async () => {
      const stranger = await createUser(t);
      const leak = await t.request('GET', '/v1/email-domains/acme.test/orgs', { token: stranger.token });
      expect(leak.status).toBe(200);
      expect(leak.body).toEqual({ organizations: [] });
      const unverified = await createUser(t, { email: `u${Date.now()}@acme.test`, emailVerified: false });
      expect((await t.request('GET', '/v1/email-domains/acme.test/orgs', { token: unverified.token })).body).toEqual({ organizations: [] });
      const outsider = await createUser(t, { email: `o${Date.now()}@acme.test` });
      const res = await t.request('GET', '/v1/email-domains/ACME.test/orgs', { token: outsider.token });
      expect(res.status).toBe(200);
      expect(res.body.organizations.map((o: { id: string }) => o.id)).toEqual([org.id]);
      expect(res.body.organizations[0].permissions.view).toBe(false);
      expect(res.body.organizations[0].billing).toBeUndefined();
      // The admin sees the organization whatever their own address's domain.
      expect((await t.request('GET', '/v1/email-domains/acme.test/orgs', { token: org.admin.token })).body.organizations.map((o: { id: string }) => o.id)).toEqual([org.id]);
      const none = await t.request('GET', '/v1/email-domains/other.test/orgs', { token: outsider.token });
      expect(none.body).toEqual({ organizations: [] });
      // A LIKE wildcard is matched literally.
      const wildcard = await t.request('GET', '/v1/email-domains/%25/orgs', { token: outsider.token });
      expect(wildcard.body).toEqual({ organizations: [] });
      expect((await t.request('GET', '/v1/email-domains/acme.test/orgs')).status).toBe(401);
    });
  });

  describe('agent instructions', () => {
    const doc = {
      object: 'document',
      data: { schemaVersion: 1 },
      nodes: [
        { object: 'block', type: 'paragraph', key: 'p1', isVoid: false, data: { align: 'start' }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Be brief.', marks: [] }] }] },
      ],
    };

    it('starts empty, is replaced by an admin, and reads back', async () => {
      const o = await createOrganization(t);
      const empty = await t.request('GET', `/v1/orgs/${o.id}/agent-instructions`, { token: o.admin.token });
      expect(empty.status).toBe(200);
      expect(empty.body).toMatchObject({ object: 'agent-instructions', instructions: { object: 'document', nodes: [] }, updatedBy: o.admin.id });
      t.clock.advance(60_000);
      const put = await t.request('PUT', `/v1/orgs/${o.id}/agent-instructions`, { token: o.admin.token, body: { instructions: doc } });
      expect(put.status).toBe(200);
      const read = await t.request('GET', `/v1/orgs/${o.id}/agent-instructions`, { token: o.admin.token });
      expect(read.body.instructions).toEqual(doc);
      expect(read.body.updatedAt).toBe(t.clock.now().toISOString());
      expect(read.body.urls.location).toBe(`http://quire.test/v1/orgs/${o.id}/agent-instructions`);
    });

    it('validates the document, 403 for non-admins and for guests reading, 404 for outsiders', async () => {
      const bad = await t.request('PUT', `/v1/orgs/${org.id}/agent-instructions`, { token: org.admin.token, body: { instructions: { object: 'paragraph', nodes: [] } } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('instructions');
      const editor = await createMember(t, org.id, 'edit');
      expect((await t.request('PUT', `/v1/orgs/${org.id}/agent-instructions`, { token: editor.token, body: { instructions: doc } })).status).toBe(403);
      expect((await t.request('GET', `/v1/orgs/${org.id}/agent-instructions`, { token: editor.token })).status).toBe(200);
      // Guests are invited to some content only: organization-wide instructions are not theirs (issue 13).
      const guest = await createMember(t, org.id, null);
      const guestRead = await t.request('GET', `/v1/orgs/${org.id}/agent-instructions`, { token: guest.token });
      expect(guestRead.status).toBe(403);
      expect(guestRead.body.error.code).toBe(403);
      const outsider = await createUser(t);
      expect((await t.request('GET', `/v1/orgs/${org.id}/agent-instructions`, { token: outsider.token })).status).toBe(404);
      expect((await t.request('GET', `/v1/orgs/${org.id}/agent-instructions`)).status).toBe(401);
    });
  });

  describe('GET /v1/orgs/{organizationId}/search', () => {
    it('answers a well-formed empty list until spaces exist', async () => {
      const res = await t.request('GET', `/v1/orgs/${org.id}/search`, { token: org.admin.token, query: { query: 'install' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ count: 0, items: [] });
    });

    it('requires a query of at most 512 characters', async () => {
      const missing = await t.request('GET', `/v1/orgs/${org.id}/search`, { token: org.admin.token });
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toContain('query');
      const long = await t.request('GET', `/v1/orgs/${org.id}/search`, { token: org.admin.token, query: { query: 'x'.repeat(513) } });
      expect(long.status).toBe(400);
      expect((await t.request('GET', `/v1/orgs/${org.id}/search`, { token: org.admin.token, query: { query: 'x'.repeat(512) } })).status).toBe(200);
      const outsider = await createUser(t);
      expect((await t.request('GET', `/v1/orgs/${org.id}/search`, { token: outsider.token, query: { query: 'a' } })).status).toBe(404);
      expect((await t.request('GET', `/v1/orgs/${org.id}/search`, { query: { query: 'a' } })).status).toBe(401);
    });
  });
});
