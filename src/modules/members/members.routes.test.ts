import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../../../test/app.ts';
import { createMember, createOrganization, createSpace, createTeam, createUser, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { serverSecret } from '../../db/secrets.ts';

const idsOf = (res: TestResponse) => res.body.items.map((m: { id: string }) => m.id) as string[];

describe('members', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** Every page of a list, following next.page; checks count and page sizes on the way. */
  async function walk(url: string, token: string, query: Record<string, string | number>, total: number) {
    const ids: string[] = [];
    const pages: TestResponse[] = [];
    let page: string | undefined;
    do {
      const res = await t.request('GET', url, { token, query: { ...query, ...(page ? { page } : {}) } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.count).toBe(total);
      pages.push(res);
      ids.push(...idsOf(res));
      page = res.body.next?.page;
    } while (page && pages.length < 200);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    return { ids, pages };
  }

  async function memberRow(organizationId: string, userId: string) {
    return t.db
      .selectFrom('members')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  describe('GET /v1/orgs/{organizationId}/members', () => {
    let org: TestOrganization;
    /** Every member in join order: the admin first. */
    let joined: TestUser[];
    let guest: TestUser;
    let reader: TestUser;

    beforeAll(async () => {
      org = await createOrganization(t);
      joined = [org.admin];
      for (let i = 1; i <= 24; i++) {
        const role = i % 6 === 0 ? null : i % 4 === 0 ? 'edit' : 'read';
        const user = await createMember(t, org.id, role, {
          displayName: `Member ${String(i).padStart(2, '0')}`,
          email: `member${i}-${org.id.toLowerCase()}@members.test`,
        });
        joined.push(user);
      }
      guest = joined.find((_, i) => i === 6)!;
      reader = joined[1];
    });

    it('401 without a token and with an unknown token', async () => {
      expect((await t.request('GET', `/v1/orgs/${org.id}/members`)).status).toBe(401);
      expect((await t.request('GET', `/v1/orgs/${org.id}/members`, { token: 'qr_unknown' })).status).toBe(401);
    });

    it('404 for a non-member, a disabled member and an unknown organization', async () => {
      const outsider = await createUser(t);
      const res = await t.request('GET', `/v1/orgs/${org.id}/members`, { token: outsider.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Organization not found' } });
      const other = await createOrganization(t);
      const disabled = await createMember(t, other.id, 'admin', { disabled: true });
      expect((await t.request('GET', `/v1/orgs/${other.id}/members`, { token: disabled.token })).status).toBe(404);
      expect((await t.request('GET', '/v1/orgs/unknown/members', { token: org.admin.token })).status).toBe(404);
    });

    it('403 for a guest', async () => {
      const res = await t.request('GET', `/v1/orgs/${org.id}/members`, { token: guest.token });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/Guests/);
    });

    it('answers every Member field, counting teams in SQL', async () => {
      const o = await createOrganization(t);
      const photo = await createMember(t, o.id, 'review', { displayName: 'Pic Member' });
      await t.db.updateTable('users').set({ photo_url: 'https://cdn.example.com/p.png' }).where('id', '=', photo.id).execute();
      await createTeam(t, o.id, { members: [{ userId: o.admin.id, role: 'owner' }] });
      await createTeam(t, o.id, { members: [{ userId: o.admin.id }, { userId: photo.id }] });
      const other = await createOrganization(t, { admin: o.admin });
      await createTeam(t, other.id, { members: [{ userId: o.admin.id }] });
      const res = await t.request('GET', `/v1/orgs/${o.id}/members`, { token: photo.token, query: { order: 'asc' } });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(2);
      expect(res.body.next).toBeUndefined();
      expect(res.body.items).toEqual([
        {
          object: 'member',
          id: o.admin.id,
          role: 'admin',
          user: {
            object: 'user',
            id: o.admin.id,
            displayName: o.admin.displayName,
            email: o.admin.email,
            urls: { location: `http://quire.test/v1/users/${o.admin.id}` },
          },
          disabled: false,
          joinedAt: expect.any(String),
          sso: false,
          spaces: 0,
          teams: 2,
          sites: 0,
        },
        expect.objectContaining({
          id: photo.id,
          role: 'review',
          teams: 1,
          user: expect.objectContaining({ displayName: 'Pic Member', photoURL: 'https://cdn.example.com/p.png' }),
        }),
      ]);
      expect(res.body.items[0].lastSeenAt).toBeUndefined();
    });

    it('lists disabled members, marked disabled', async () => {
      const o = await createOrganization(t);
      const disabled = await createMember(t, o.id, 'edit', { disabled: true });
      const res = await t.request('GET', `/v1/orgs/${o.id}/members`, { token: o.admin.token });
      expect(res.body.items.find((m: { id: string }) => m.id === disabled.id)).toMatchObject({ disabled: true, role: 'edit' });
    });

    it('walks all pages by join time, newest first by default, and back with previous', async () => {
      const { ids, pages } = await walk(`/v1/orgs/${org.id}/members`, reader.token, { limit: 10 }, 25);
      expect(ids).toEqual(joined.map((u) => u.id).reverse());
      expect(pages.map((p) => p.body.items.length)).toEqual([10, 10, 5]);
      expect(pages[0].body.previous).toBeUndefined();
      expect(pages[2].body.next).toBeUndefined();
      const back = await t.request('GET', `/v1/orgs/${org.id}/members`, {
        token: reader.token,
        query: { limit: 10, page: pages[2].body.previous.page },
      });
      expect(idsOf(back)).toEqual(ids.slice(10, 20));
      expect(back.body.next).toBeDefined();
      const first = await t.request('GET', `/v1/orgs/${org.id}/members`, {
        token: reader.token,
        query: { limit: 10, page: back.body.previous.page },
      });
      expect(idsOf(first)).toEqual(ids.slice(0, 10));
      expect(first.body.previous).toBeUndefined();
    });

    it('sorts by join time ascending', async () => {
      const { ids } = await walk(`/v1/orgs/${org.id}/members`, reader.token, { limit: 10, order: 'asc', sort: 'joinedAt' }, 25);
      expect(ids).toEqual(joined.map((u) => u.id));
    });

    it('sorts by name both ways, ties broken by user id, across pages', async () => {
      const o = await createOrganization(t);
      await t.db.updateTable('users').set({ display_name: 'Zed Admin' }).where('id', '=', o.admin.id).execute();
      const users = [o.admin];
      for (const name of ['Carol', 'Alice', 'Bob', 'Alice', 'Bob', 'Alice']) {
        users.push(await createMember(t, o.id, 'read', { displayName: name }));
      }
      const byName = [...users]
        .map((u) => ({ id: u.id, name: u.id === o.admin.id ? 'Zed Admin' : u.displayName }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((u) => u.id);
      const asc = await walk(`/v1/orgs/${o.id}/members`, o.admin.token, { limit: 2, sort: 'name', order: 'asc' }, 7);
      expect(asc.ids).toEqual(byName);
      const desc = await walk(`/v1/orgs/${o.id}/members`, o.admin.token, { limit: 3, sort: 'name', order: 'desc' }, 7);
      expect(desc.ids).toEqual([...byName].reverse());
      // The default order is desc.
      const dflt = await t.request('GET', `/v1/orgs/${o.id}/members`, { token: o.admin.token, query: { sort: 'name' } });
      expect(idsOf(dflt)).toEqual([...byName].reverse());
    });

    it('sort=lastSeenAt lists only members seen, by last ping, both ways', async () => {
      const o = await createOrganization(t);
      const a = await createMember(t, o.id, 'read');
      const b = await createMember(t, o.id, 'edit');
      await createMember(t, o.id, 'read'); // never pings
      const g = await createMember(t, o.id, null);
      for (const user of [b, g, a, o.admin]) {
        expect((await t.request('POST', `/v1/orgs/${o.id}/ping`, { token: user.token })).status).toBe(200);
        t.clock.advance(1000);
      }
      const desc = await walk(`/v1/orgs/${o.id}/members`, a.token, { sort: 'lastSeenAt', limit: 3 }, 4);
      expect(desc.ids).toEqual([o.admin.id, a.id, g.id, b.id]);
      expect(desc.pages[0].body.items.every((m: { lastSeenAt?: string }) => typeof m.lastSeenAt === 'string')).toBe(true);
      const asc = await walk(`/v1/orgs/${o.id}/members`, a.token, { sort: 'lastSeenAt', order: 'asc', limit: 1 }, 4);
      expect(asc.ids).toEqual([b.id, g.id, a.id, o.admin.id]);
      // Pinging again moves the member to the front.
      t.clock.advance(1000);
      await t.request('POST', `/v1/orgs/${o.id}/ping`, { token: b.token });
      const again = await t.request('GET', `/v1/orgs/${o.id}/members`, { token: a.token, query: { sort: 'lastSeenAt' } });
      expect(idsOf(again)).toEqual([b.id, o.admin.id, a.id, g.id]);
    });

    it('filters by role, including guest', async () => {
      const expectRole = async (role: string, predicate: (i: number) => boolean) => {
        const res = await t.request('GET', `/v1/orgs/${org.id}/members`, { token: reader.token, query: { role, limit: 1000 } });
        expect(res.status).toBe(200);
        const expected = joined.filter((_, i) => predicate(i)).map((u) => u.id).reverse();
        expect(idsOf(res)).toEqual(expected);
        expect(res.body.count).toBe(expected.length);
        return res;
      };
      const guests = await expectRole('guest', (i) => i > 0 && i % 6 === 0);
      expect(guests.body.items.every((m: { role: unknown }) => m.role === null)).toBe(true);
      await expectRole('edit', (i) => i > 0 && i % 6 !== 0 && i % 4 === 0);
      await expectRole('read', (i) => i > 0 && i % 6 !== 0 && i % 4 !== 0);
      await expectRole('admin', (i) => i === 0);
      await expectRole('create', () => false);
      // Filters combine with pagination.
      await walk(`/v1/orgs/${org.id}/members`, reader.token, { role: 'read', limit: 5 }, 16);
    });

    it('searches display name and email, case-insensitively, wildcards taken literally', async () => {
      const o = await createOrganization(t);
      const ada = await createMember(t, o.id, 'read', { displayName: 'Ada Lovelace', email: `ada-${o.id.toLowerCase()}@engines.test` });
      const grace = await createMember(t, o.id, 'edit', { displayName: 'Grace Hopper', email: `g_hopper-${o.id.toLowerCase()}@navy.test` });
      const percent = await createMember(t, o.id, 'read', { displayName: '100% Coverage' });
      const search = async (text: string) => {
        const res = await t.request('GET', `/v1/orgs/${o.id}/members`, { token: o.admin.token, query: { search: text } });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(res.body.items.length);
        return idsOf(res);
      };
      expect(await search('lovelace')).toEqual([ada.id]);
      expect(await search('ADA LOVE')).toEqual([ada.id]);
      expect(await search('NAVY.test')).toEqual([grace.id]);
      expect(await search('g_h')).toEqual([grace.id]);
      expect(await search('_')).toEqual([grace.id]);
      expect(await search('%')).toEqual([percent.id]);
      expect(await search('nobody-here')).toEqual([]);
      const combined = await t.request('GET', `/v1/orgs/${o.id}/members`, {
        token: o.admin.token,
        query: { search: 'a', role: 'edit' },
      });
      expect(idsOf(combined)).toEqual([grace.id]);
    });

    it('rejects bad query parameters, naming them', async () => {
      const cases: [Record<string, string | number>, string][] = [
        [{ limit: 0 }, 'limit'],
        [{ limit: 1001 }, 'limit'],
        [{ limit: 'ten' }, 'limit'],
        [{ role: 'owner' }, 'role'],
        [{ sort: 'email' }, 'sort'],
        [{ order: 'up' }, 'order'],
        [{ search: 'x'.repeat(256) }, 'search'],
        [{ page: 'not-a-cursor' }, 'page'],
      ];
      for (const [query, field] of cases) {
        const res = await t.request('GET', `/v1/orgs/${org.id}/members`, { token: org.admin.token, query });
        expect(res.status, JSON.stringify(query)).toBe(400);
        expect(res.body.error.message).toContain(field);
      }
      // A cursor of another sort has the wrong shape for this one only if its arity differs;
      // limits at the bounds are fine.
      for (const limit of [1, 1000]) {
        expect((await t.request('GET', `/v1/orgs/${org.id}/members`, { token: org.admin.token, query: { limit } })).status).toBe(200);
      }
    });
  });

  describe('GET /v1/orgs/{organizationId}/members/{userId}', () => {
    it('members see each other; guests see only themselves', async () => {
      const o = await createOrganization(t);
      const reader = await createMember(t, o.id, 'read', { displayName: 'Reader' });
      const guest = await createMember(t, o.id, null, { displayName: 'Guest' });
      await createTeam(t, o.id, { members: [{ userId: guest.id }] });

      const res = await t.request('GET', `/v1/orgs/${o.id}/members/${guest.id}`, { token: reader.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        object: 'member',
        id: guest.id,
        role: null,
        user: { id: guest.id, displayName: 'Guest' },
        disabled: false,
        sso: false,
        teams: 1,
        spaces: 0,
        sites: 0,
      });
      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${guest.id}`, { token: guest.token })).status).toBe(200);
      const forbidden = await t.request('GET', `/v1/orgs/${o.id}/members/${reader.id}`, { token: guest.token });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error.code).toBe(403);
    });

    it('404 for an unknown member, a non-member caller, an unknown organization; 401; 400 on a long id', async () => {
      const o = await createOrganization(t);
      const stranger = await createUser(t);
      const notFound = await t.request('GET', `/v1/orgs/${o.id}/members/${stranger.id}`, { token: o.admin.token });
      expect(notFound.status).toBe(404);
      expect(notFound.body).toEqual({ error: { code: 404, message: 'Member not found' } });
      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${o.admin.id}`, { token: stranger.token })).status).toBe(404);
      expect((await t.request('GET', `/v1/orgs/nope/members/${o.admin.id}`, { token: o.admin.token })).status).toBe(404);
      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${o.admin.id}`)).status).toBe(401);
      const long = await t.request('GET', `/v1/orgs/${o.id}/members/${'x'.repeat(65)}`, { token: o.admin.token });
      expect(long.status).toBe(400);
      expect(long.body.error.message).toContain('userId');
    });
  });

  describe('PATCH /v1/orgs/{organizationId}/members/{userId}', () => {
    it('admins change roles, to a guest and back; the change reads back', async () => {
      const o = await createOrganization(t);
      const m = await createMember(t, o.id, 'read');
      const res = await t.request('PATCH', `/v1/orgs/${o.id}/members/${m.id}`, { token: o.admin.token, body: { role: 'create' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'member', id: m.id, role: 'create' });
      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${m.id}`, { token: o.admin.token })).body.role).toBe('create');

      const guest = await t.request('PATCH', `/v1/orgs/${o.id}/members/${m.id}`, { token: o.admin.token, body: { role: null } });
      expect(guest.status).toBe(200);
      expect(guest.body.role).toBeNull();
      expect((await memberRow(o.id, m.id))?.role).toBeNull();

      const back = await t.request('PATCH', `/v1/orgs/${o.id}/members/${m.id}`, { token: o.admin.token, body: { role: 'admin' } });
      expect(back.body.role).toBe('admin');
      // An empty body changes nothing.
      const same = await t.request('PATCH', `/v1/orgs/${o.id}/members/${m.id}`, { token: o.admin.token, body: {} });
      expect(same.status).toBe(200);
      expect(same.body.role).toBe('admin');
    });

    it('refuses to demote the last admin, also yourself, and changes nothing', async () => {
      const o = await createOrganization(t);
      await createMember(t, o.id, 'admin', { disabled: true }); // a disabled admin does not count
      for (const role of ['create', null]) {
        const res = await t.request('PATCH', `/v1/orgs/${o.id}/members/${o.admin.id}`, { token: o.admin.token, body: { role } });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/last admin/);
      }
      expect((await memberRow(o.id, o.admin.id))?.role).toBe('admin');
      // Keeping the role is fine.
      expect((await t.request('PATCH', `/v1/orgs/${o.id}/members/${o.admin.id}`, { token: o.admin.token, body: { role: 'admin' } })).status).toBe(200);
      // With a second active admin, either may step down.
      const second = await createMember(t, o.id, 'admin');
      const down = await t.request('PATCH', `/v1/orgs/${o.id}/members/${o.admin.id}`, { token: o.admin.token, body: { role: 'edit' } });
      expect(down.status).toBe(200);
      expect(down.body.role).toBe('edit');
      const last = await t.request('PATCH', `/v1/orgs/${o.id}/members/${second.id}`, { token: second.token, body: { role: 'read' } });
      expect(last.status).toBe(400);
    });

    it('403 for non-admins, 404 for unknown members and non-members, 401 without token', async () => {
      const o = await createOrganization(t);
      const creator = await createMember(t, o.id, 'create');
      const reader = await createMember(t, o.id, 'read');
      const res = await t.request('PATCH', `/v1/orgs/${o.id}/members/${reader.id}`, { token: creator.token, body: { role: 'edit' } });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/admins/);
      const self = await t.request('PATCH', `/v1/orgs/${o.id}/members/${creator.id}`, { token: creator.token, body: { role: 'admin' } });
      expect(self.status).toBe(403);
      expect((await memberRow(o.id, reader.id))?.role).toBe('read');
      const stranger = await createUser(t);
      expect((await t.request('PATCH', `/v1/orgs/${o.id}/members/${stranger.id}`, { token: o.admin.token, body: { role: 'edit' } })).status).toBe(404);
      expect((await t.request('PATCH', `/v1/orgs/${o.id}/members/${reader.id}`, { token: stranger.token, body: { role: 'edit' } })).status).toBe(404);
      expect((await t.request('PATCH', `/v1/orgs/${o.id}/members/${reader.id}`, { body: { role: 'edit' } })).status).toBe(401);
    });

    it('400 for a bad role, naming the field', async () => {
      const o = await createOrganization(t);
      const m = await createMember(t, o.id, 'read');
      for (const role of ['owner', 'guest', 3, '']) {
        const res = await t.request('PATCH', `/v1/orgs/${o.id}/members/${m.id}`, { token: o.admin.token, body: { role } });
        expect(res.status, String(role)).toBe(400);
        expect(res.body.error.message).toContain('role');
      }
      expect((await memberRow(o.id, m.id))?.role).toBe('read');
    });
  });

  describe('DELETE /v1/orgs/{organizationId}/members/{userId}', () => {
    it('admins remove members, with their team memberships; 204 again when absent', async () => {
      const o = await createOrganization(t);
      const m = await createMember(t, o.id, 'edit');
      const team = await createTeam(t, o.id, { members: [{ userId: m.id }, { userId: o.admin.id }] });
      const res = await t.request('DELETE', `/v1/orgs/${o.id}/members/${m.id}`, { token: o.admin.token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${m.id}`, { token: o.admin.token })).status).toBe(404);
      expect(await memberRow(o.id, m.id)).toBeUndefined();
      const teamRows = await t.db.selectFrom('team_members').select('user_id').where('team_id', '=', team.id).execute();
      expect(teamRows.map((r) => r.user_id)).toEqual([o.admin.id]);
      // The removed user no longer sees the organization.
      expect((await t.request('GET', `/v1/orgs/${o.id}/members`, { token: m.token })).status).toBe(404);
      // Absent: still 204.
      expect((await t.request('DELETE', `/v1/orgs/${o.id}/members/${m.id}`, { token: o.admin.token })).status).toBe(204);
      expect((await t.request('DELETE', `/v1/orgs/${o.id}/members/unknown-user`, { token: o.admin.token })).status).toBe(204);
    });

    it('any member, guests included, may leave', async () => {
      const o = await createOrganization(t);
      for (const role of ['read', null] as const) {
        const m = await createMember(t, o.id, role);
        expect((await t.request('DELETE', `/v1/orgs/${o.id}/members/${m.id}`, { token: m.token })).status).toBe(204);
        expect(await memberRow(o.id, m.id)).toBeUndefined();
      }
    });

    it('403 removing someone else without being admin', async () => {
      const o = await createOrganization(t);
      const a = await createMember(t, o.id, 'create');
      const b = await createMember(t, o.id, 'read');
      const res = await t.request('DELETE', `/v1/orgs/${o.id}/members/${b.id}`, { token: a.token });
      expect(res.status).toBe(403);
      expect(await memberRow(o.id, b.id)).toBeDefined();
      // Not even someone who is not a member.
      expect((await t.request('DELETE', `/v1/orgs/${o.id}/members/unknown-user`, { token: a.token })).status).toBe(403);
    });

    it('refuses to remove the last admin, also when leaving', async () => {
      const o = await createOrganization(t);
      const res = await t.request('DELETE', `/v1/orgs/${o.id}/members/${o.admin.id}`, { token: o.admin.token });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/last admin/);
      expect(await memberRow(o.id, o.admin.id)).toBeDefined();
      const second = await createMember(t, o.id, 'admin');
      expect((await t.request('DELETE', `/v1/orgs/${o.id}/members/${o.admin.id}`, { token: second.token })).status).toBe(204);
      expect((await t.request('DELETE', `/v1/orgs/${o.id}/members/${second.id}`, { token: second.token })).status).toBe(400);
    });

    it('two admins leaving at once leave one admin', async () => {
      // Several organizations at once make the race likely on PostgreSQL's connection pool.
      const pairs = [];
      for (let i = 0; i < 8; i++) {
        const o = await createOrganization(t);
        pairs.push({ o, second: await createMember(t, o.id, 'admin') });
      }
      const results = await Promise.all(
        pairs.map(({ o, second }) =>
          Promise.all([
            t.request('DELETE', `/v1/orgs/${o.id}/members/${o.admin.id}`, { token: o.admin.token }),
            t.request('DELETE', `/v1/orgs/${o.id}/members/${second.id}`, { token: second.token }),
          ]),
        ),
      );
      for (const [i, pair] of results.entries()) {
        expect(pair.map((r) => r.status).sort()).toEqual([204, 400]);
        const admins = await t.db
          .selectFrom('members')
          .select('user_id')
          .where('organization_id', '=', pairs[i].o.id)
          .where('role', '=', 'admin')
          .execute();
        expect(admins).toHaveLength(1);
      }
    });

    it('404 for a non-member caller, 401 without a token', async () => {
      const o = await createOrganization(t);
      const stranger = await createUser(t);
      expect((await t.request('DELETE', `/v1/orgs/${o.id}/members/${o.admin.id}`, { token: stranger.token })).status).toBe(404);
      expect((await t.request('DELETE', `/v1/orgs/${o.id}/members/${o.admin.id}`)).status).toBe(401);
      expect(await memberRow(o.id, o.admin.id)).toBeDefined();
    });
  });

  describe('POST /v1/orgs/{organizationId}/members/{userId}/sso', () => {
    it('admins mark a member as SSO; it reads back', async () => {
      const o = await createOrganization(t);
      const m = await createMember(t, o.id, 'read');
      const res = await t.request('POST', `/v1/orgs/${o.id}/members/${m.id}/sso`, { token: o.admin.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'member', id: m.id, sso: true, role: 'read' });
      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${m.id}`, { token: o.admin.token })).body.sso).toBe(true);
      // Idempotent.
      expect((await t.request('POST', `/v1/orgs/${o.id}/members/${m.id}/sso`, { token: o.admin.token })).body.sso).toBe(true);
    });

    it('403 for non-admins, 404 for unknown members, 401 without a token', async () => {
      const o = await createOrganization(t);
      const m = await createMember(t, o.id, 'create');
      expect((await t.request('POST', `/v1/orgs/${o.id}/members/${m.id}/sso`, { token: m.token })).status).toBe(403);
      expect((await memberRow(o.id, m.id))?.sso).toBe(0);
      const stranger = await createUser(t);
      expect((await t.request('POST', `/v1/orgs/${o.id}/members/${stranger.id}/sso`, { token: o.admin.token })).status).toBe(404);
      expect((await t.request('POST', `/v1/orgs/${o.id}/members/${m.id}/sso`, { token: stranger.token })).status).toBe(404);
      expect((await t.request('POST', `/v1/orgs/${o.id}/members/${m.id}/sso`)).status).toBe(401);
    });
  });

  describe('GET /v1/orgs/{organizationId}/members/{userId}/spaces', () => {
    it('lists the spaces the member can access with their effective role, after the access checks', async () => {
      const o = await createOrganization(t);
      const guest = await createMember(t, o.id, null);
      const reader = await createMember(t, o.id, 'read');
      const disabled = await createMember(t, o.id, 'edit', { disabled: true });
      const a = (await createSpace(t, { organization: o, title: 'A' })).id;
      const b = (await createSpace(t, { organization: o, title: 'B', body: { visibility: 'public' } })).id;
      const c = (await createSpace(t, { organization: o, title: 'C' })).id;
      await t.db
        .insertInto('content_permissions')
        .values({ target_type: 'space', target_id: c, organization_id: o.id, principal_type: 'user', principal_id: guest.id, role: 'edit', created_at: t.clock.now().toISOString() })
        .execute();
      await t.db
        .insertInto('content_permissions')
        .values({ target_type: 'space', target_id: a, organization_id: o.id, principal_type: 'user', principal_id: reader.id, role: 'review', created_at: t.clock.now().toISOString() })
        .execute();

      // A guest reaches the space granted to them and the public one, nothing else.
      const res = await t.request('GET', `/v1/orgs/${o.id}/members/${guest.id}/spaces`, { token: o.admin.token, query: { order: 'asc', limit: 5 } });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(2);
      expect(res.body.items.map((i: { permission: string; space: { id: string } }) => [i.space.id, i.permission])).toEqual([
        [b, 'read'],
        [c, 'edit'],
      ]);
      // The space objects carry the caller's permissions (the admin's), not the member's.
      expect(res.body.items[1].space.permissions.admin).toBe(true);

      // A member with a role reaches every space; grants raise the role; newest first by default.
      const all = await t.request('GET', `/v1/orgs/${o.id}/members/${reader.id}/spaces`, { token: o.admin.token });
      expect(all.body.items.map((i: { permission: string; space: { id: string } }) => [i.space.id, i.permission])).toEqual([
        [c, 'read'],
        [b, 'read'],
        [a, 'review'],
      ]);
      const page1 = await t.request('GET', `/v1/orgs/${o.id}/members/${reader.id}/spaces`, { token: o.admin.token, query: { limit: 2 } });
      expect(page1.body.items).toHaveLength(2);
      const page2 = await t.request('GET', `/v1/orgs/${o.id}/members/${reader.id}/spaces`, { token: o.admin.token, query: { limit: 2, page: page1.body.next.page } });
      expect(page2.body.items.map((i: { space: { id: string } }) => i.space.id)).toEqual([a]);

      // Disabled members reach nothing; deleted spaces drop out.
      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${disabled.id}/spaces`, { token: o.admin.token })).body).toEqual({ count: 0, items: [] });
      await t.request('DELETE', `/v1/spaces/${c}`, { token: o.admin.token });
      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${guest.id}/spaces`, { token: guest.token })).body.count).toBe(1);

      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${o.admin.id}/spaces`, { token: guest.token })).status).toBe(403);
      const stranger = await createUser(t);
      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${stranger.id}/spaces`, { token: o.admin.token })).status).toBe(404);
      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${o.admin.id}/spaces`, { token: stranger.token })).status).toBe(404);
      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${o.admin.id}/spaces`)).status).toBe(401);
      for (const query of [{ limit: 0 }, { limit: 1001 }, { order: 'sideways' }] as Record<string, string | number>[]) {
        const bad = await t.request('GET', `/v1/orgs/${o.id}/members/${o.admin.id}/spaces`, { token: o.admin.token, query });
        expect(bad.status).toBe(400);
        expect(bad.body.error.message).toContain(Object.keys(query)[0]);
      }
    });
  });

  describe('GET /v1/orgs/{organizationId}/members/{userId}/teams', () => {
    let o: TestOrganization;
    let member: TestUser;
    let reader: TestUser;
    let teams: { id: string; title: string }[];

    beforeAll(async () => {
      o = await createOrganization(t);
      member = await createMember(t, o.id, 'edit');
      reader = await createMember(t, o.id, 'read');
      teams = [
        await createTeam(t, o.id, { title: 'Gamma Docs', members: [{ userId: member.id, role: 'owner' }, { userId: reader.id }] }),
        await createTeam(t, o.id, { title: 'Alpha', members: [{ userId: member.id }] }),
        await createTeam(t, o.id, { title: 'Beta Docs', members: [{ userId: member.id }, { userId: reader.id, role: 'owner' }, { userId: o.admin.id }] }),
      ];
      await createTeam(t, o.id, { title: 'Delta Docs', members: [{ userId: reader.id }] }); // not the member's
    });

    it("lists the member's teams by title, with counts, roles and the caller's permissions", async () => {
      const res = await t.request('GET', `/v1/orgs/${o.id}/members/${member.id}/teams`, { token: reader.token });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(3);
      expect(res.body.items.map((i: { team: { title: string } }) => i.team.title)).toEqual(['Alpha', 'Beta Docs', 'Gamma Docs']);
      expect(res.body.items[0]).toEqual({
        team: {
          object: 'team',
          id: teams[1].id,
          title: 'Alpha',
          members: 1,
          spaces: 0,
          createdAt: expect.any(String),
          permissions: { admin: false, view: true },
        },
        member: { role: 'member' },
      });
      expect(res.body.items[1]).toMatchObject({ team: { members: 3, permissions: { admin: true, view: true } }, member: { role: 'member' } });
      expect(res.body.items[2]).toMatchObject({ team: { members: 2, permissions: { admin: false } }, member: { role: 'owner' } });
      const asAdmin = await t.request('GET', `/v1/orgs/${o.id}/members/${member.id}/teams`, { token: o.admin.token });
      expect(asAdmin.body.items.every((i: { team: { permissions: { admin: boolean } } }) => i.team.permissions.admin)).toBe(true);
      const count = (await t.request('GET', `/v1/orgs/${o.id}/members/${member.id}`, { token: reader.token })).body.teams;
      expect(count).toBe(3);
    });

    it('filters by title, case-insensitively, and pages', async () => {
      const filtered = await t.request('GET', `/v1/orgs/${o.id}/members/${member.id}/teams`, { token: member.token, query: { title: 'DOCS' } });
      expect(filtered.body.count).toBe(2);
      expect(filtered.body.items.map((i: { team: { title: string } }) => i.team.title)).toEqual(['Beta Docs', 'Gamma Docs']);
      const first = await t.request('GET', `/v1/orgs/${o.id}/members/${member.id}/teams`, { token: member.token, query: { limit: 2 } });
      expect(first.body.items).toHaveLength(2);
      expect(first.body.count).toBe(3);
      const second = await t.request('GET', `/v1/orgs/${o.id}/members/${member.id}/teams`, {
        token: member.token,
        query: { limit: 2, page: first.body.next.page },
      });
      expect(second.body.items.map((i: { team: { id: string } }) => i.team.id)).toEqual([teams[0].id]);
      expect(second.body.next).toBeUndefined();
      const none = await t.request('GET', `/v1/orgs/${o.id}/members/${member.id}/teams`, { token: member.token, query: { title: '%' } });
      expect(none.body).toEqual({ count: 0, items: [] });
    });

    it('403 for a guest looking at someone else, 404 unknown member, 401, 400 bad limit', async () => {
      const guest = await createMember(t, o.id, null);
      await createTeam(t, o.id, { title: 'Guests', members: [{ userId: guest.id }] });
      const own = await t.request('GET', `/v1/orgs/${o.id}/members/${guest.id}/teams`, { token: guest.token });
      expect(own.status).toBe(200);
      expect(own.body.items).toEqual([expect.objectContaining({ team: expect.objectContaining({ title: 'Guests', permissions: { admin: false, view: false } }) })]);
      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${member.id}/teams`, { token: guest.token })).status).toBe(403);
      const stranger = await createUser(t);
      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${stranger.id}/teams`, { token: o.admin.token })).status).toBe(404);
      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${member.id}/teams`, { token: stranger.token })).status).toBe(404);
      expect((await t.request('GET', `/v1/orgs/${o.id}/members/${member.id}/teams`)).status).toBe(401);
      for (const limit of [0, 1001]) {
        const bad = await t.request('GET', `/v1/orgs/${o.id}/members/${member.id}/teams`, { token: o.admin.token, query: { limit } });
        expect(bad.status).toBe(400);
        expect(bad.body.error.message).toContain('limit');
      }
    });
  });

  describe('POST /v1/orgs/{organizationId}/ping', () => {
    it("records the caller's last-seen time and answers signed visitor claims", async () => {
      const o = await createOrganization(t);
      const m = await createMember(t, o.id, 'comment');
      t.clock.advance(5000);
      const now = t.clock.now();
      const res = await t.request('POST', `/v1/orgs/${o.id}/ping`, { token: m.token });
      expect(res.status).toBe(200);
      expect(res.body.serviceVisitorClaims).toBe(res.body.gitbookVisitorClaims);
      const { payload, protectedHeader } = await jwtVerify(res.body.serviceVisitorClaims, await serverSecret(t.db, 'visitor-claims'), {
        issuer: 'http://quire.test',
        currentDate: now,
      });
      expect(protectedHeader.alg).toBe('HS256');
      expect(payload).toMatchObject({ sub: m.id, organization: o.id, role: 'comment', email: m.email });
      expect(payload.exp! - payload.iat!).toBe(3600);
      expect(payload.iat).toBe(Math.floor(now.getTime() / 1000));
      expect((await memberRow(o.id, m.id))?.last_seen_at).toBe(now.toISOString());
      const read = await t.request('GET', `/v1/orgs/${o.id}/members/${m.id}`, { token: m.token });
      expect(read.body.lastSeenAt).toBe(now.toISOString());
    });

    it('works for guests (role null); 404 for non-members and disabled members; 401', async () => {
      const o = await createOrganization(t);
      const guest = await createMember(t, o.id, null);
      const res = await t.request('POST', `/v1/orgs/${o.id}/ping`, { token: guest.token });
      expect(res.status).toBe(200);
      const { payload } = await jwtVerify(res.body.serviceVisitorClaims, await serverSecret(t.db, 'visitor-claims'), { currentDate: t.clock.now() });
      expect(payload.role).toBeNull();
      const stranger = await createUser(t);
      expect((await t.request('POST', `/v1/orgs/${o.id}/ping`, { token: stranger.token })).status).toBe(404);
      const disabled = await createMember(t, o.id, 'read', { disabled: true });
      expect((await t.request('POST', `/v1/orgs/${o.id}/ping`, { token: disabled.token })).status).toBe(404);
      expect((await memberRow(o.id, disabled.id))?.last_seen_at).toBeNull();
      expect((await t.request('POST', '/v1/orgs/unknown/ping', { token: guest.token })).status).toBe(404);
      expect((await t.request('POST', `/v1/orgs/${o.id}/ping`)).status).toBe(401);
    });
  });

  describe('POST /v1/orgs/{organizationId}/join', () => {
    it('adds a user of an allowed, verified email domain with the default role', async () => {
      const o = await createOrganization(t, { emailDomains: ['joiners.test'] });
      const user = await createUser(t, { email: `Someone-${o.id}@Joiners.Test` });
      const res = await t.request('POST', `/v1/orgs/${o.id}/join`, { token: user.token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const read = await t.request('GET', `/v1/orgs/${o.id}/members/${user.id}`, { token: o.admin.token });
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ role: 'read', disabled: false, sso: false, joinedAt: t.clock.now().toISOString() });
      // Joining again changes nothing.
      await t.request('PATCH', `/v1/orgs/${o.id}/members/${user.id}`, { token: o.admin.token, body: { role: 'edit' } });
      expect((await t.request('POST', `/v1/orgs/${o.id}/join`, { token: user.token })).status).toBe(204);
      expect((await memberRow(o.id, user.id))?.role).toBe('edit');
    });

    it('joins as a guest when the default role is null', async () => {
      const o = await createOrganization(t, { emailDomains: ['guests.test'] });
      await t.request('PATCH', `/v1/orgs/${o.id}`, { token: o.admin.token, body: { defaultRole: null } });
      const user = await createUser(t, { email: `g-${o.id.toLowerCase()}@guests.test` });
      expect((await t.request('POST', `/v1/orgs/${o.id}/join`, { token: user.token })).status).toBe(204);
      const row = await memberRow(o.id, user.id);
      expect(row).toMatchObject({ role: null, disabled: 0 });
    });

    it('400 for a domain the organization does not allow, and for an unverified email', async () => {
      const o = await createOrganization(t, { emailDomains: ['allowed.test'] });
      const other = await createUser(t, { email: `x-${o.id.toLowerCase()}@elsewhere.test` });
      const res = await t.request('POST', `/v1/orgs/${o.id}/join`, { token: other.token });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/domain "elsewhere.test" is not allowed/);
      // A subdomain is another domain.
      const sub = await createUser(t, { email: `y-${o.id.toLowerCase()}@eu.allowed.test` });
      expect((await t.request('POST', `/v1/orgs/${o.id}/join`, { token: sub.token })).status).toBe(400);
      const unverified = await createUser(t, { email: `z-${o.id.toLowerCase()}@allowed.test`, emailVerified: false });
      const res2 = await t.request('POST', `/v1/orgs/${o.id}/join`, { token: unverified.token });
      expect(res2.status).toBe(400);
      expect(res2.body.error.message).toMatch(/not verified/);
      for (const u of [other, sub, unverified]) expect(await memberRow(o.id, u.id)).toBeUndefined();
      // No email domain at all: nobody joins.
      const closed = await createOrganization(t);
      expect((await t.request('POST', `/v1/orgs/${closed.id}/join`, { token: other.token })).status).toBe(400);
    });

    it('a disabled member stays disabled; 404 unknown organization; 401', async () => {
      const o = await createOrganization(t, { emailDomains: ['example.com'] });
      const disabled = await createMember(t, o.id, 'read', { disabled: true });
      expect((await t.request('POST', `/v1/orgs/${o.id}/join`, { token: disabled.token })).status).toBe(204);
      expect((await memberRow(o.id, disabled.id))?.disabled).toBe(1);
      const res = await t.request('POST', '/v1/orgs/unknown/join', { token: disabled.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Organization not found' } });
      expect((await t.request('POST', `/v1/orgs/${o.id}/join`)).status).toBe(401);
    });
  });
});

describe('membership changes take effect at once on this server', () => {
  it('a demoted or removed member loses access on the next request, despite the membership cache', async () => {
    const t = await createTestApp({ authCacheTtlMs: 60_000 });
    const org = await createOrganization(t);
    const member = await createMember(t, org.id, 'edit');
    // Warm the cache with the member's standing.
    expect((await t.request('GET', `/v1/orgs/${org.id}/teams`, { token: member.token })).status).toBe(200);
    expect((await t.request('PATCH', `/v1/orgs/${org.id}/members/${member.id}`, { token: org.admin.token, body: { role: null } })).status).toBe(200);
    expect((await t.request('GET', `/v1/orgs/${org.id}/teams`, { token: member.token })).status).toBe(403);
    expect((await t.request('DELETE', `/v1/orgs/${org.id}/members/${member.id}`, { token: org.admin.token })).status).toBe(204);
    expect((await t.request('GET', `/v1/orgs/${org.id}/teams`, { token: member.token })).status).toBe(404);
    await t.close();
  });
});

describe('member listings reuse computed pages only while nothing they show has changed', () => {
  it('reflects every kind of change on the next request', async () => {
    const t = await createTestApp();
    const org = await createOrganization(t);
    const member = await createMember(t, org.id, 'read', { displayName: 'Before' });
    const list = async () => {
      const res = await t.request('GET', `/v1/orgs/${org.id}/members`, { token: org.admin.token, query: { order: 'asc' } });
      expect(res.status).toBe(200);
      return res.body.items.find((m: { id: string }) => m.id === member.id);
    };
    expect(await list()).toMatchObject({ role: 'read', teams: 0, user: { displayName: 'Before' } });

    await t.request('PATCH', `/v1/orgs/${org.id}/members/${member.id}`, { token: org.admin.token, body: { role: 'edit' } });
    expect((await list()).role).toBe('edit');

    await t.request('POST', `/v1/orgs/${org.id}/ping`, { token: member.token });
    expect((await list()).lastSeenAt).toBe(t.clock.now().toISOString());

    const team = await t.request('PUT', `/v1/orgs/${org.id}/teams`, { token: org.admin.token, body: { title: 'T', members: [member.id] } });
    expect((await list()).teams).toBe(1);
    await t.request('DELETE', `/v1/orgs/${org.id}/teams/${team.body.id}`, { token: org.admin.token });
    expect((await list()).teams).toBe(0);

    // Writes that bypass the API (the CLI, another module) move the version too: triggers keep it.
    await t.db.updateTable('users').set({ display_name: 'After' }).where('id', '=', member.id).execute();
    expect((await list()).user.displayName).toBe('After');
    const newcomer = await createUser(t);
    await t.db
      .insertInto('members')
      .values({ organization_id: org.id, user_id: newcomer.id, role: 'read', disabled: 0, sso: 0, joined_at: t.clock.now().toISOString(), last_seen_at: null })
      .execute();
    const all = await t.request('GET', `/v1/orgs/${org.id}/members`, { token: org.admin.token, query: { order: 'asc' } });
    expect(all.body.count).toBe(3);
    expect(all.body.items.map((m: { id: string }) => m.id)).toContain(newcomer.id);
    await t.close();
  });
});
