import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedOperations, createTestApp, type TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, createUser, type TestOrganization } from '../../../test/factories.ts';

describe('invites', () => {
  let t: TestApp;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t);
  });
  afterAll(async () => {
    await t.close();
  });

  /** The membership of a user in an organization, straight from the database. */
  const membership = (organizationId: string, userId: string) =>
    t.db
      .selectFrom('members')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();

  const userByEmail = (email: string) => t.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

  const memberCount = async (organizationId: string) => {
    const row = await t.db
      .selectFrom('members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  /** Roles by user id as GET /v1/orgs/{id}/members answers them (guests included via role filter). */
  const memberRoles = async (o: TestOrganization) => {
    const roles = new Map<string, string | null>();
    for (const query of [{ limit: 1000 }, { limit: 1000, role: 'guest' }] as Record<string, string | number>[]) {
      const res = await t.request('GET', `/v1/orgs/${o.id}/members`, { token: o.admin.token, query });
      expect(res.status).toBe(200);
      for (const m of res.body.items as { id: string; role: string | null }[]) roles.set(m.id, m.role);
    }
    return roles;
  };

  let emailSequence = 0;
  const freshEmail = (prefix = 'invitee') => `${prefix}${++emailSequence}-${Date.now().toString(36)}@invited.test`;

  const createLink = async (o: TestOrganization, role: string | null) => {
    const res = await t.request('POST', `/v1/orgs/${o.id}/link-invites`, { token: o.admin.token, body: { role } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; role: string | null };
  };

  describe('POST /v1/orgs/{organizationId}/invites', () => {
    it('makes an existing user a member with the default role and leaves existing members unchanged', async () => {
      const o = await createOrganization(t);
      const existing = await createUser(t, { displayName: 'Existing Person' });
      const editor = await createMember(t, o.id, 'edit');
      const res = await t.request('POST', `/v1/orgs/${o.id}/invites`, {
        token: o.admin.token,
        body: { emails: [existing.email.toUpperCase(), editor.email] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ users: [existing.id], invited: 1 });
      // The organization's defaultRole (read) applies when the body gives none.
      expect(await membership(o.id, existing.id)).toMatchObject({ role: 'read', disabled: 0, sso: 0 });
      expect(await membership(o.id, editor.id)).toMatchObject({ role: 'edit' });
      expect(await memberRoles(o)).toEqual(new Map([[o.admin.id, 'admin'], [editor.id, 'edit'], [existing.id, 'read']]));
      // The account itself is untouched.
      expect(await userByEmail(existing.email)).toMatchObject({ id: existing.id, display_name: 'Existing Person', email_verified: 1 });

      const again = await t.request('POST', `/v1/orgs/${o.id}/invites`, { token: o.admin.token, body: { emails: [existing.email], role: 'admin' } });
      expect(again.body).toEqual({ users: [], invited: 0 });
      expect(await membership(o.id, existing.id)).toMatchObject({ role: 'read' });
    });

    it('creates an unverified account for an unknown email, named after the part before @', async () => {
      const o = await createOrganization(t);
      const email = freshEmail('New.Person');
      const res = await t.request('POST', `/v1/orgs/${o.id}/invites`, { token: o.admin.token, body: { emails: [email], role: 'edit' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.invited).toBe(1);
      const user = await userByEmail(email.toLowerCase());
      expect(user).toMatchObject({ id: res.body.users[0], display_name: email.split('@')[0].toLowerCase(), email_verified: 0 });
      expect(await membership(o.id, res.body.users[0])).toMatchObject({ role: 'edit', joined_at: t.clock.now().toISOString() });
      const member = await t.request('GET', `/v1/orgs/${o.id}/members/${user!.id}`, { token: o.admin.token });
      expect(member.status).toBe(200);
      expect(member.body).toMatchObject({
        id: user!.id,
        role: 'edit',
        disabled: false,
        user: { displayName: email.split('@')[0].toLowerCase(), email: email.toLowerCase() },
      });
      // The new user is visible to the admin as a colleague.
      const read = await t.request('GET', `/v1/users/${user!.id}`, { token: o.admin.token });
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id: user!.id, email: email.toLowerCase() });
    });

    it("uses the organization's defaultRole, the body role (null: guest) and per-email roles", async () => {
      const o = await createOrganization(t);
      const patched = await t.request('PATCH', `/v1/orgs/${o.id}`, { token: o.admin.token, body: { defaultRole: 'comment' } });
      expect(patched.status).toBe(200);
      const byDefault = freshEmail();
      const res1 = await t.request('POST', `/v1/orgs/${o.id}/invites`, { token: o.admin.token, body: { emails: [byDefault] } });
      expect(await membership(o.id, res1.body.users[0])).toMatchObject({ role: 'comment' });

      const [a, b, c, d, e] = [freshEmail(), freshEmail(), freshEmail(), freshEmail(), freshEmail()];
      const res = await t.request('POST', `/v1/orgs/${o.id}/invites`, {
        token: o.admin.token,
        body: { emails: [a, { email: b, role: 'admin' }, { email: c, role: null }, { email: d, role: 'review' }, { email: e }, a], role: null, sso: true },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.invited).toBe(5);
      expect(res.body.failedSSOEmails).toEqual([]);
      const ids = await Promise.all([a, b, c, d, e].map(async (email) => (await userByEmail(email))!.id));
      expect(res.body.users).toEqual(ids);
      const roles = await Promise.all(ids.map(async (id) => (await membership(o.id, id))!.role));
      expect(roles).toEqual([null, 'admin', null, 'review', null]);
      const listed = await memberRoles(o);
      expect(ids.map((id) => listed.get(id))).toEqual([null, 'admin', null, 'review', null]);
      expect((await membership(o.id, ids[0]))!.sso).toBe(1);
    });

    it('rejects a bad email, naming it, and adds nobody', async () => {
      const o = await createOrganization(t);
      const good = freshEmail();
      const known = await createUser(t);
      const cases: unknown[] = [
        [known.email, 'not-an-email', good],
        [good, { email: 'no at sign', role: 'read' }],
        [good, { email: `${'x'.repeat(250)}@a.test`, role: 'read' }],
        [good, { email: 'a@b.test', role: 'owner' }],
        [good, 42],
        [good, 'jon@@example.com'],
        [good, 'jon@example'],
        [good, 'jon doe@example.com'],
      ];
      for (const emails of cases) {
        const res = await t.request('POST', `/v1/orgs/${o.id}/invites`, { token: o.admin.token, body: { emails } });
        expect(res.status, JSON.stringify(emails)).toBe(400);
        expect(res.body.error.code).toBe(400);
        expect(res.body.error.message).toContain('emails/1');
      }
      // The service's own check names the address itself.
      const named = await t.request('POST', `/v1/orgs/${o.id}/invites`, { token: o.admin.token, body: { emails: [good, { email: 'jon@@example.com' }] } });
      expect(named.body.error.message).toBe('body/emails/1: "jon@@example.com" is not a valid email address');
      expect(await userByEmail(good)).toBeUndefined();
      expect(await membership(o.id, known.id)).toBeUndefined();
      expect(await memberCount(o.id)).toBe(1);
    });

    it('refuses an email listed twice with different roles', async () => {
      const o = await createOrganization(t);
      const email = freshEmail();
      const res = await t.request('POST', `/v1/orgs/${o.id}/invites`, {
        token: o.admin.token,
        body: { emails: [{ email, role: 'read' }, { email: email.toUpperCase(), role: 'admin' }] },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(email.toUpperCase());
      expect(res.body.error.message).toContain('emails/1');
      expect(await userByEmail(email)).toBeUndefined();
    });

    it('takes 1 to 100 emails and validates role and sso', async () => {
      const o = await createOrganization(t);
      const tooMany = Array.from({ length: 101 }, () => freshEmail());
      const cases: [unknown, string][] = [
        [{ emails: tooMany }, 'emails'],
        [{ emails: [] }, 'emails'],
        [{}, 'emails'],
        [{ emails: 'a@b.test' }, 'emails'],
        [{ emails: [freshEmail()], role: 'owner' }, 'role'],
        [{ emails: [freshEmail()], sso: 'yes' }, 'sso'],
      ];
      for (const [body, field] of cases) {
        const res = await t.request('POST', `/v1/orgs/${o.id}/invites`, { token: o.admin.token, body });
        expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
        expect(res.body.error.message).toContain(field);
      }
      expect(await memberCount(o.id)).toBe(1);
      expect(await userByEmail(tooMany[0])).toBeUndefined();

      const hundred = tooMany.slice(0, 100);
      const res = await t.request('POST', `/v1/orgs/${o.id}/invites`, { token: o.admin.token, body: { emails: hundred } });
      expect(res.status).toBe(200);
      expect(res.body.invited).toBe(100);
      expect(await memberCount(o.id)).toBe(101);
    });

    it('401 without or with a bad token, 403 for non-admins, 404 for outsiders and unknown organizations', async () => {
      const email = freshEmail();
      const body = { emails: [email] };
      const url = `/v1/orgs/${org.id}/invites`;
      expect((await t.request('POST', url, { body })).status).toBe(401);
      expect((await t.request('POST', url, { token: 'qr_nope', body })).status).toBe(401);
      for (const role of ['create', null] as const) {
        const member = await createMember(t, org.id, role);
        const res = await t.request('POST', url, { token: member.token, body });
        expect(res.status).toBe(403);
        expect(res.body.error.message).toContain('admins');
      }
      const outsider = await createUser(t);
      expect((await t.request('POST', url, { token: outsider.token, body })).status).toBe(404);
      expect((await t.request('POST', '/v1/orgs/unknown/invites', { token: org.admin.token, body })).status).toBe(404);
      expect(await userByEmail(email)).toBeUndefined();
    });
  });

  describe('invite links', () => {
    it('creates, reads, lists, updates and deletes an invite link', async () => {
      const o = await createOrganization(t);
      const created = await t.request('POST', `/v1/orgs/${o.id}/link-invites`, { token: o.admin.token, body: { role: 'edit' } });
      expect(created.status).toBe(201);
      const location = `http://quire.test/v1/orgs/${o.id}/link-invites/${created.body.id}`;
      expect(created.body).toEqual({ object: 'invite', id: expect.any(String), role: 'edit', redundant: true, urls: { location } });
      expect(created.headers.location).toBe(location);
      const row = await t.db.selectFrom('invite_links').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ id: created.body.id, organization_id: o.id, role: 'edit', created_by: o.admin.id, created_at: t.clock.now().toISOString() });

      const read = await t.request('GET', `/v1/orgs/${o.id}/link-invites/${created.body.id}`, { token: o.admin.token });
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created.body);

      const list = await t.request('GET', `/v1/orgs/${o.id}/link-invites`, { token: o.admin.token });
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ count: 1, items: [created.body] });

      const updated = await t.request('PATCH', `/v1/orgs/${o.id}/link-invites/${created.body.id}`, { token: o.admin.token, body: { role: null } });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ id: created.body.id, role: null, redundant: true });
      const reread = await t.request('GET', `/v1/orgs/${o.id}/link-invites/${created.body.id}`, { token: o.admin.token });
      expect(reread.body.role).toBeNull();
      await t.request('PATCH', `/v1/orgs/${o.id}/link-invites/${created.body.id}`, { token: o.admin.token, body: { role: 'admin' } });
      expect((await t.request('GET', `/v1/orgs/${o.id}/link-invites/${created.body.id}`, { token: o.admin.token })).body.role).toBe('admin');

      const deleted = await t.request('DELETE', `/v1/orgs/${o.id}/link-invites/${created.body.id}`, { token: o.admin.token });
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expect((await t.request('GET', `/v1/orgs/${o.id}/link-invites/${created.body.id}`, { token: o.admin.token })).status).toBe(404);
      expect((await t.request('GET', `/v1/orgs/${o.id}/link-invites`, { token: o.admin.token })).body).toEqual({ count: 0, items: [] });
      // Deleting what is gone is still a success.
      expect((await t.request('DELETE', `/v1/orgs/${o.id}/link-invites/${created.body.id}`, { token: o.admin.token })).status).toBe(204);
    });

    it('lists oldest first, walking pages both ways', async () => {
      const o = await createOrganization(t);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push((await createLink(o, 'read')).id);
        // Two links in the same millisecond are ordered by id.
        if (i !== 2) t.clock.advance(10);
      }
      const other = await createOrganization(t);
      await createLink(other, 'read');
      const seen: string[] = [];
      let page: string | undefined;
      const pages: any[] = [];
      do {
        const res = await t.request('GET', `/v1/orgs/${o.id}/link-invites`, { token: o.admin.token, query: { limit: 2, ...(page ? { page } : {}) } });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(5);
        pages.push(res.body);
        seen.push(...res.body.items.map((i: { id: string }) => i.id));
        page = res.body.next?.page;
      } while (page);
      expect(pages).toHaveLength(3);
      const sorted = [...ids.slice(0, 2), ...ids.slice(2, 4).sort(), ids[4]];
      expect(seen).toEqual(sorted);
      const back = await t.request('GET', `/v1/orgs/${o.id}/link-invites`, { token: o.admin.token, query: { limit: 2, page: pages[2].previous.page } });
      expect(back.body.items.map((i: { id: string }) => i.id)).toEqual(sorted.slice(2, 4));
    });

    it('validates the role, the limit and the page', async () => {
      const o = await createOrganization(t);
      const link = await createLink(o, 'read');
      // [method, url, body, the word the 400 names]: a wrong field name is named as unknown.
      const cases: [string, string, unknown, string][] = [
        ['POST', `/v1/orgs/${o.id}/link-invites`, {}, 'role'],
        ['POST', `/v1/orgs/${o.id}/link-invites`, { role: 'owner' }, 'role'],
        ['PATCH', `/v1/orgs/${o.id}/link-invites/${link.id}`, { level: 'read' }, 'level'],
        ['PATCH', `/v1/orgs/${o.id}/link-invites/${link.id}`, { role: 'superuser' }, 'role'],
      ];
      for (const [method, url, body, named] of cases) {
        const res = await t.request(method as 'POST', url, { token: o.admin.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.message).toContain(named);
      }
      for (const query of [{ limit: 0 }, { limit: 1001 }, { page: 'forged' }] as Record<string, string | number>[]) {
        const res = await t.request('GET', `/v1/orgs/${o.id}/link-invites`, { token: o.admin.token, query });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toContain(Object.keys(query)[0]);
      }
      const list = await t.request('GET', `/v1/orgs/${o.id}/link-invites`, { token: o.admin.token });
      expect(list.body.items).toEqual([expect.objectContaining({ id: link.id, role: 'read' })]);
    });

    it('404 for unknown invites and for invites of another organization', async () => {
      const o = await createOrganization(t);
      const other = await createOrganization(t);
      const foreign = await createLink(other, 'admin');
      for (const id of ['unknown', foreign.id]) {
        const get = await t.request('GET', `/v1/orgs/${o.id}/link-invites/${id}`, { token: o.admin.token });
        expect(get.status).toBe(404);
        expect(get.body).toEqual({ error: { code: 404, message: 'Invite not found' } });
        expect((await t.request('PATCH', `/v1/orgs/${o.id}/link-invites/${id}`, { token: o.admin.token, body: { role: 'read' } })).status).toBe(404);
        expect((await t.request('DELETE', `/v1/orgs/${o.id}/link-invites/${id}`, { token: o.admin.token })).status).toBe(204);
      }
      // The other organization's link survived the delete attempt, unchanged.
      const read = await t.request('GET', `/v1/orgs/${other.id}/link-invites/${foreign.id}`, { token: other.admin.token });
      expect(read.body.role).toBe('admin');
    });

    it('refuses to create links while invite links are turned off, but still manages existing ones', async () => {
      const o = await createOrganization(t);
      const link = await createLink(o, 'read');
      expect((await t.request('PATCH', `/v1/orgs/${o.id}`, { token: o.admin.token, body: { inviteLinks: false } })).status).toBe(200);
      const res = await t.request('POST', `/v1/orgs/${o.id}/link-invites`, { token: o.admin.token, body: { role: 'read' } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('inviteLinks');
      const list = await t.request('GET', `/v1/orgs/${o.id}/link-invites`, { token: o.admin.token });
      expect(list.body.count).toBe(1);
      expect((await t.request('PATCH', `/v1/orgs/${o.id}/link-invites/${link.id}`, { token: o.admin.token, body: { role: 'edit' } })).status).toBe(200);
      expect((await t.request('DELETE', `/v1/orgs/${o.id}/link-invites/${link.id}`, { token: o.admin.token })).status).toBe(204);
      expect((await t.db.selectFrom('invite_links').select('id').where('organization_id', '=', o.id).execute())).toEqual([]);
    });

    it('401, 403 for non-admins and 404 for outsiders on every link operation', async () => {
      const link = await createLink(org, 'edit');
      const base = `/v1/orgs/${org.id}/link-invites`;
      const operations: [string, string, unknown][] = [
        ['GET', base, undefined],
        ['POST', base, { role: 'read' }],
        ['GET', `${base}/${link.id}`, undefined],
        ['PATCH', `${base}/${link.id}`, { role: 'admin' }],
        ['DELETE', `${base}/${link.id}`, undefined],
      ];
      const reviewer = await createMember(t, org.id, 'review');
      const outsider = await createUser(t);
      for (const [method, url, body] of operations) {
        const m = method as 'GET';
        expect((await t.request(m, url, { body })).status, `${method} ${url}`).toBe(401);
        expect((await t.request(m, url, { token: 'qr_nope', body })).status).toBe(401);
        const denied = await t.request(m, url, { token: reviewer.token, body });
        expect(denied.status, `${method} ${url}`).toBe(403);
        expect(denied.body.error.code).toBe(403);
        expect((await t.request(m, url, { token: outsider.token, body })).status, `${method} ${url}`).toBe(404);
        const unknownOrg = url.replace(org.id, 'unknown-org');
        expect((await t.request(m, unknownOrg, { token: org.admin.token, body })).status).toBe(404);
      }
      const read = await t.request('GET', `${base}/${link.id}`, { token: org.admin.token });
      expect(read.body.role).toBe('edit');
      const all = await t.db.selectFrom('invite_links').select('id').where('organization_id', '=', org.id).execute();
      expect(all.map((r) => r.id)).toEqual([link.id]);
    });
  });

  describe('POST /v1/orgs/{organizationId}/invites/{inviteId}', () => {
    it("makes the caller a member with the link's role", async () => {
      const o = await createOrganization(t);
      const link = await createLink(o, 'comment');
      const newcomer = await createUser(t);
      t.clock.advance(5000);
      const res = await t.request('POST', `/v1/orgs/${o.id}/invites/${link.id}`, { token: newcomer.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect(await membership(o.id, newcomer.id)).toMatchObject({ role: 'comment', disabled: 0, sso: 0, joined_at: t.clock.now().toISOString() });
      const member = await t.request('GET', `/v1/orgs/${o.id}/members/${newcomer.id}`, { token: o.admin.token });
      expect(member.body).toMatchObject({ id: newcomer.id, role: 'comment', joinedAt: t.clock.now().toISOString() });
      // Now a member: the organization is visible.
      const org1 = await t.request('GET', `/v1/orgs/${o.id}`, { token: newcomer.token });
      expect(org1.status).toBe(200);
      expect(org1.body.permissions.admin).toBe(false);
      // Joining twice changes nothing.
      expect((await t.request('POST', `/v1/orgs/${o.id}/invites/${link.id}`, { token: newcomer.token })).status).toBe(200);
      expect(await memberCount(o.id)).toBe(2);

      const guestLink = await createLink(o, null);
      const guest = await createUser(t);
      expect((await t.request('POST', `/v1/orgs/${o.id}/invites/${guestLink.id}`, { token: guest.token })).status).toBe(200);
      expect(await membership(o.id, guest.id)).toMatchObject({ role: null });
    });

    it('never changes an existing membership: no downgrade, no upgrade, no re-enabling', async () => {
      const o = await createOrganization(t);
      const readLink = await createLink(o, 'read');
      const adminLink = await createLink(o, 'admin');
      expect((await t.request('POST', `/v1/orgs/${o.id}/invites/${readLink.id}`, { token: o.admin.token })).status).toBe(200);
      expect(await membership(o.id, o.admin.id)).toMatchObject({ role: 'admin' });

      const reader = await createMember(t, o.id, 'read');
      expect((await t.request('POST', `/v1/orgs/${o.id}/invites/${adminLink.id}`, { token: reader.token })).status).toBe(200);
      expect(await membership(o.id, reader.id)).toMatchObject({ role: 'read' });
      expect(await memberRoles(o)).toEqual(new Map([[o.admin.id, 'admin'], [reader.id, 'read']]));

      const disabled = await createMember(t, o.id, 'edit', { disabled: true });
      expect((await t.request('POST', `/v1/orgs/${o.id}/invites/${readLink.id}`, { token: disabled.token })).status).toBe(200);
      expect(await membership(o.id, disabled.id)).toMatchObject({ role: 'edit', disabled: 1 });
    });

    it('404 for an unknown organization or invite, a link of another organization, and while invite links are off', async () => {
      const o = await createOrganization(t);
      const link = await createLink(o, 'edit');
      const other = await createOrganization(t);
      const foreign = await createLink(other, 'edit');
      const user = await createUser(t);
      const cases = [
        `/v1/orgs/unknown/invites/${link.id}`,
        `/v1/orgs/${o.id}/invites/unknown`,
        `/v1/orgs/${o.id}/invites/${foreign.id}`,
      ];
      for (const url of cases) {
        const res = await t.request('POST', url, { token: user.token });
        expect(res.status, url).toBe(404);
        expect(res.body).toEqual({ error: { code: 404, message: 'Invite not found' } });
      }
      expect((await t.request('PATCH', `/v1/orgs/${o.id}`, { token: o.admin.token, body: { inviteLinks: false } })).status).toBe(200);
      const off = await t.request('POST', `/v1/orgs/${o.id}/invites/${link.id}`, { token: user.token });
      expect(off.status).toBe(404);
      expect(await membership(o.id, user.id)).toBeUndefined();

      expect((await t.request('PATCH', `/v1/orgs/${o.id}`, { token: o.admin.token, body: { inviteLinks: true } })).status).toBe(200);
      expect((await t.request('POST', `/v1/orgs/${o.id}/invites/${link.id}`, { token: user.token })).status).toBe(200);
      expect(await membership(o.id, user.id)).toMatchObject({ role: 'edit' });

      // A deleted link no longer works.
      await t.request('DELETE', `/v1/orgs/${o.id}/link-invites/${link.id}`, { token: o.admin.token });
      const late = await createUser(t);
      expect((await t.request('POST', `/v1/orgs/${o.id}/invites/${link.id}`, { token: late.token })).status).toBe(404);
      expect(await membership(o.id, late.id)).toBeUndefined();
    });

    it('lets concurrent joins of one user add one membership', async () => {
      const o = await createOrganization(t);
      const link = await createLink(o, 'edit');
      const user = await createUser(t);
      const results = await Promise.all(
        [1, 2, 3].map(() => t.request('POST', `/v1/orgs/${o.id}/invites/${link.id}`, { token: user.token })),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(await memberCount(o.id)).toBe(2);
      expect(await membership(o.id, user.id)).toMatchObject({ role: 'edit' });
    });

    it('401 without or with a bad token', async () => {
      const link = await createLink(org, 'read');
      expect((await t.request('POST', `/v1/orgs/${org.id}/invites/${link.id}`)).status).toBe(401);
      expect((await t.request('POST', `/v1/orgs/${org.id}/invites/${link.id}`, { token: 'qr_nope' })).status).toBe(401);
    });
  });

  it("checked every answer with a body against GitBook's response schemas", () => {
    for (const operationId of [
      'inviteUsersToOrganization',
      'listOrganizationInviteLinks',
      'createOrganizationInvite',
      'getOrganizationInviteLink',
      'updateOrganizationInviteById',
      'joinOrganizationWithInvite',
    ]) {
      expect(checkedOperations.has(operationId), operationId).toBe(true);
    }
  });
});
