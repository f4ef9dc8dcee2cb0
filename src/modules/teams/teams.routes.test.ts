import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, createTeam, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { createRoleMatrix } from '../../../test/role-matrix.ts';

describe('teams', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: TestUser;
  let reader: TestUser;
  let editor: TestUser;
  let guest: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    ({ org, admin, reader, editor, guest, outsider } = await createRoleMatrix(t, { title: 'Acme', roles: ['read', 'edit', 'guest'] }));
  });
  afterAll(async () => {
    await t.close();
  });

  const teamsUrl = (orgId = org.id) => `/v1/orgs/${orgId}/teams`;
  const teamUrl = (teamId: string, orgId = org.id) => `/v1/orgs/${orgId}/teams/${teamId}`;
  const membersUrl = (teamId: string, orgId = org.id) => `/v1/orgs/${orgId}/teams/${teamId}/members`;
  const memberUrl = (teamId: string, userId: string, orgId = org.id) => `/v1/orgs/${orgId}/teams/${teamId}/members/${userId}`;

  /** The team's row, or undefined when gone. */
  function teamRow(teamId: string) {
    return t.db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirst();
  }

  /** The team's memberships as { userId: role }. */
  async function roles(teamId: string): Promise<Record<string, string>> {
    const rows = await t.db.selectFrom('team_members').select(['user_id', 'role']).where('team_id', '=', teamId).execute();
    return Object.fromEntries(rows.map((r) => [r.user_id, r.role]));
  }

  async function countTeams(orgId = org.id): Promise<number> {
    const row = await t.db
      .selectFrom('teams')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', orgId)
      .executeTakeFirst();
    return Number(row?.n);
  }

  /** Asserts the standard auth failures of one endpoint: 401 twice, 404 for outsiders and unknown organizations. */
  async function expectAuthFailures(method: 'GET' | 'PUT' | 'PATCH' | 'DELETE', path: (orgId: string) => string, body?: unknown) {
    expect((await t.request(method, path(org.id), { body })).status).toBe(401);
    const bad = await t.request(method, path(org.id), { token: 'qr_nope', body });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe(401);
    const foreign = await t.request(method, path(org.id), { token: outsider.token, body });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: 404, message: 'Organization not found' } });
    expect((await t.request(method, path('unknown-org'), { token: admin.token, body })).status).toBe(404);
  }

  describe('PUT /v1/orgs/{organizationId}/teams (createOrganizationTeam)', () => {
    it('401 without or with a bad token, 404 for non-members', async () => {
      await expectAuthFailures('PUT', (o) => teamsUrl(o), { title: 'Nope' });
      expect(await countTeams()).toBe(0);
    });

    it('403 for members who are not admins, and for guests', async () => {
      for (const caller of [reader, editor, guest]) {
        const res = await t.request('PUT', teamsUrl(), { token: caller.token, body: { title: 'Mine' } });
        expect(res.status).toBe(403);
        expect(res.body.error.message).toMatch(/admins/);
      }
      expect(await countTeams()).toBe(0);
    });

    it('201 Team with its members; the creator does not join; state read back', async () => {
      const res = await t.request('PUT', teamsUrl(), {
        token: admin.token,
        body: { title: ' Writers ', members: [reader.id, editor.id, reader.id] },
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        object: 'team',
        id: expect.any(String),
        title: 'Writers',
        members: 2,
        spaces: 0,
        createdAt: t.clock.now().toISOString(),
        permissions: { admin: true, view: true },
      });
      expect(await teamRow(res.body.id)).toMatchObject({ organization_id: org.id, title: 'Writers' });
      expect(await roles(res.body.id)).toEqual({ [reader.id]: 'member', [editor.id]: 'member' });

      const back = await t.request('GET', teamUrl(res.body.id), { token: admin.token });
      expect(back.body).toEqual(res.body);
    });

    it('title: 0 and 65 characters, blank or missing are 400 naming the field; 64 is accepted', async () => {
      const before = await countTeams();
      for (const body of [{ title: '' }, { title: 'x'.repeat(65) }, { title: '   ' }, {}, { title: 12 }]) {
        const res = await t.request('PUT', teamsUrl(), { token: admin.token, body });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/title/);
      }
      expect(await countTeams()).toBe(before);
      const ok = await t.request('PUT', teamsUrl(), { token: admin.token, body: { title: 'y'.repeat(64) } });
      expect(ok.status).toBe(201);
      expect(ok.body.title).toBe('y'.repeat(64));
      expect(ok.body.members).toBe(0);
    });

    it('members: unknown users and non-members are 400 naming each of them, and nothing is created', async () => {
      const before = await countTeams();
      const res = await t.request('PUT', teamsUrl(), {
        token: admin.token,
        body: { title: 'Broken', members: [reader.id, 'no-such-user', outsider.id] },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('body/members');
      expect(res.body.error.message).toContain('"no-such-user"');
      expect(res.body.error.message).toContain(`"${outsider.id}"`);
      expect(res.body.error.message).not.toContain(reader.id);
      expect(await countTeams()).toBe(before);

      const notArray = await t.request('PUT', teamsUrl(), { token: admin.token, body: { title: 'Broken', members: 'x' } });
      expect(notArray.status).toBe(400);
      expect(notArray.body.error.message).toMatch(/members/);
    });
  });

  describe('GET /v1/orgs/{organizationId}/teams (listTeamsInOrganizationById)', () => {
    let o: TestOrganization;
    let owner: TestUser;
    let plain: TestUser;
    let guestOwner: TestUser;
    let alpha: { id: string };
    let beta: { id: string };
    let gamma: { id: string };

    beforeAll(async () => {
      o = await createOrganization(t);
      owner = await createMember(t, o.id, 'edit');
      plain = await createMember(t, o.id, 'read');
      guestOwner = await createMember(t, o.id, null);
      alpha = await createTeam(t, o.id, { title: 'Alpha Writers', members: [{ userId: owner.id, role: 'owner' }, { userId: plain.id }] });
      beta = await createTeam(t, o.id, { title: 'beta reviewers', members: [{ userId: plain.id }, { userId: guestOwner.id, role: 'owner' }] });
      gamma = await createTeam(t, o.id, { title: '100%_Gamma', members: [{ userId: owner.id }] });
    });

    it('401, 404 for non-members and unknown organizations', async () => {
      await expectAuthFailures('GET', (id) => teamsUrl(id));
    });

    it('403 for guests', async () => {
      const res = await t.request('GET', teamsUrl(o.id), { token: guestOwner.token });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/Guests/);
    });

    it('lists every team oldest first with counts and the caller permissions', async () => {
      const asPlain = await t.request('GET', teamsUrl(o.id), { token: plain.token });
      expect(asPlain.status).toBe(200);
      expect(asPlain.body.count).toBe(3);
      expect(asPlain.body.next).toBeUndefined();
      expect(asPlain.body.items.map((i: any) => i.id)).toEqual([alpha.id, beta.id, gamma.id]);
      expect(asPlain.body.items[0]).toMatchObject({ object: 'team', title: 'Alpha Writers', members: 2, spaces: 0 });
      expect(asPlain.body.items.map((i: any) => i.permissions)).toEqual([
        { admin: false, view: true },
        { admin: false, view: true },
        { admin: false, view: true },
      ]);

      const asOwner = await t.request('GET', teamsUrl(o.id), { token: owner.token });
      expect(asOwner.body.items.map((i: any) => i.permissions.admin)).toEqual([true, false, false]);
      const asAdmin = await t.request('GET', teamsUrl(o.id), { token: o.admin.token });
      expect(asAdmin.body.items.map((i: any) => i.permissions.admin)).toEqual([true, true, true]);
    });

    it('title filter: case-insensitive contains, wildcards taken literally', async () => {
      const ids = async (title: string) => {
        const res = await t.request('GET', teamsUrl(o.id), { token: plain.token, query: { title } });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(res.body.items.length);
        return res.body.items.map((i: any) => i.id);
      };
      expect(await ids('WRITERS')).toEqual([alpha.id]);
      expect(await ids('e')).toEqual([alpha.id, beta.id]);
      expect(await ids('a')).toEqual([alpha.id, beta.id, gamma.id]);
      expect(await ids('%_')).toEqual([gamma.id]);
      expect(await ids('_')).toEqual([gamma.id]);
      expect(await ids('nothing')).toEqual([]);
      expect(await ids('')).toEqual([alpha.id, beta.id, gamma.id]);
    });

    it('owner filter: an admin manages every team, a member the teams they own, a guest or a stranger none', async () => {
      const ids = async (owner: string, title?: string) => {
        const res = await t.request('GET', teamsUrl(o.id), { token: plain.token, query: title ? { owner, title } : { owner } });
        expect(res.status).toBe(200);
        return res.body.items.map((i: any) => i.id);
      };
      expect(await ids(o.admin.id)).toEqual([alpha.id, beta.id, gamma.id]);
      expect(await ids(owner.id)).toEqual([alpha.id]);
      expect(await ids(plain.id)).toEqual([]);
      expect(await ids(guestOwner.id)).toEqual([]);
      expect(await ids(outsider.id)).toEqual([]);
      expect(await ids(o.admin.id, 'beta')).toEqual([beta.id]);
    });

    it('query limits are 400 naming the parameter', async () => {
      const queries: Record<string, string | number>[] = [{ limit: 0 }, { limit: 1001 }, { title: 'x'.repeat(256) }, { owner: 'x'.repeat(65) }, { page: 'garbage' }];
      for (const query of queries) {
        const res = await t.request('GET', teamsUrl(o.id), { token: plain.token, query });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(Object.keys(query)[0]);
      }
    });

    it('pages over 25 teams 10 at a time without skipping or repeating, also while teams are added', async () => {
      const p = await createOrganization(t);
      const created: string[] = [];
      for (let i = 0; i < 25; i++) {
        // Several teams share a creation time, so the id breaks ties.
        if (i % 3 === 0) t.clock.advance(1000);
        const res = await t.request('PUT', teamsUrl(p.id), { token: p.admin.token, body: { title: `Team ${i}` } });
        created.push(res.body.id);
      }
      // The order the database gives in one page: created_at, then id (in the database's collation).
      const all = await t.request('GET', teamsUrl(p.id), { token: p.admin.token, query: { limit: 100 } });
      const expected: string[] = all.body.items.map((i: any) => i.id);
      expect([...expected].sort()).toEqual([...created].sort());
      const times = all.body.items.map((i: any) => i.createdAt);
      expect(times).toEqual([...times].sort());

      const seen: string[] = [];
      let page: string | undefined;
      const sizes: number[] = [];
      do {
        const res = await t.request('GET', teamsUrl(p.id), {
          token: p.admin.token,
          query: page ? { limit: 10, page } : { limit: 10 },
        });
        expect(res.status).toBe(200);
        // The team added after the first page counts from the second page on.
        expect(res.body.count).toBe(sizes.length === 0 ? 25 : 26);
        sizes.push(res.body.items.length);
        seen.push(...res.body.items.map((i: any) => i.id));
        page = res.body.next?.page;
        if (sizes.length === 1) {
          // A team created between pages lands at the end, not inside the walk.
          t.clock.advance(60_000);
          await t.request('PUT', teamsUrl(p.id), { token: p.admin.token, body: { title: 'Late' } });
        }
      } while (page && sizes.length < 5);
      expect(sizes).toEqual([10, 10, 6]);
      expect(seen.slice(0, 25)).toEqual(expected);
      expect(new Set(seen).size).toBe(seen.length);
    });
  });

  describe('GET /v1/orgs/{organizationId}/teams/{teamId} (getTeamInOrganizationById)', () => {
    let team: { id: string };
    let owner: TestUser;
    beforeAll(async () => {
      owner = await createMember(t, org.id, 'comment');
      team = await createTeam(t, org.id, { title: 'Readers', members: [{ userId: owner.id, role: 'owner' }, { userId: reader.id }, { userId: guest.id }] });
    });

    it('401, 404 for non-members and unknown organizations', async () => {
      await expectAuthFailures('GET', (o) => teamUrl(team.id, o));
    });

    it('200 with counts and the permissions of each caller', async () => {
      const asReader = await t.request('GET', teamUrl(team.id), { token: reader.token });
      expect(asReader.status).toBe(200);
      expect(asReader.body).toEqual({
        object: 'team',
        id: team.id,
        title: 'Readers',
        members: 3,
        spaces: 0,
        createdAt: expect.any(String),
        permissions: { admin: false, view: true },
      });
      const asOwner = await t.request('GET', teamUrl(team.id), { token: owner.token });
      expect(asOwner.body.permissions).toEqual({ admin: true, view: true });
      const asAdmin = await t.request('GET', teamUrl(team.id), { token: admin.token });
      expect(asAdmin.body.permissions).toEqual({ admin: true, view: true });
      const asEditor = await t.request('GET', teamUrl(team.id), { token: editor.token });
      expect(asEditor.body.permissions).toEqual({ admin: false, view: true });
    });

    it('403 for guests, even those in the team', async () => {
      expect((await t.request('GET', teamUrl(team.id), { token: guest.token })).status).toBe(403);
    });

    it('404 for an unknown team and for a team of another organization; 400 for a malformed id', async () => {
      const unknown = await t.request('GET', teamUrl('nope'), { token: admin.token });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: { code: 404, message: 'Team not found' } });
      const other = await createOrganization(t, { admin });
      const foreign = await createTeam(t, other.id);
      expect((await t.request('GET', teamUrl(foreign.id), { token: admin.token })).status).toBe(404);
      expect((await t.request('GET', teamUrl(foreign.id, other.id), { token: admin.token })).status).toBe(200);
      const malformed = await t.request('GET', teamUrl('no%20spaces'), { token: admin.token });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.message).toMatch(/teamId/);
    });
  });

  describe('PATCH /v1/orgs/{organizationId}/teams/{teamId} (updateTeamInOrganizationById)', () => {
    let team: { id: string };
    let owner: TestUser;
    let plainMember: TestUser;
    beforeAll(async () => {
      owner = await createMember(t, org.id, 'read');
      plainMember = await createMember(t, org.id, 'create');
      team = await createTeam(t, org.id, { title: 'Before', members: [{ userId: owner.id, role: 'owner' }, { userId: plainMember.id }] });
    });

    it('401, 404 for non-members and unknown organizations', async () => {
      await expectAuthFailures('PATCH', (o) => teamUrl(team.id, o), { title: 'After' });
      expect((await teamRow(team.id))?.title).toBe('Before');
    });

    it('200 for an admin, state read back', async () => {
      const res = await t.request('PATCH', teamUrl(team.id), { token: admin.token, body: { title: 'After' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'team', id: team.id, title: 'After', members: 2, permissions: { admin: true, view: true } });
      expect((await teamRow(team.id))?.title).toBe('After');
      expect((await t.request('GET', teamUrl(team.id), { token: reader.token })).body.title).toBe('After');
    });

    it('200 for an owner of the team; 403 for a plain team member, other members and guests', async () => {
      const res = await t.request('PATCH', teamUrl(team.id), { token: owner.token, body: { title: 'By owner' } });
      expect(res.status).toBe(200);
      expect(res.body.permissions).toEqual({ admin: true, view: true });
      for (const caller of [plainMember, editor, guest]) {
        const denied = await t.request('PATCH', teamUrl(team.id), { token: caller.token, body: { title: 'Hijack' } });
        expect(denied.status).toBe(403);
      }
      expect((await teamRow(team.id))?.title).toBe('By owner');
    });

    it('title: 0 and 65 characters or missing are 400 naming the field; 64 is accepted', async () => {
      for (const body of [{ title: '' }, { title: 'x'.repeat(65) }, {}]) {
        const res = await t.request('PATCH', teamUrl(team.id), { token: admin.token, body });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/title/);
      }
      expect((await teamRow(team.id))?.title).toBe('By owner');
      const ok = await t.request('PATCH', teamUrl(team.id), { token: admin.token, body: { title: 'z'.repeat(64) } });
      expect(ok.status).toBe(200);
      expect((await teamRow(team.id))?.title).toBe('z'.repeat(64));
    });

    it('404 for an unknown team', async () => {
      const res = await t.request('PATCH', teamUrl('unknown'), { token: admin.token, body: { title: 'X' } });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe('Team not found');
    });
  });

  describe('DELETE /v1/orgs/{organizationId}/teams/{teamId} (removeTeamFromOrganizationById)', () => {
    it('401, 404 for non-members and unknown organizations', async () => {
      const team = await createTeam(t, org.id);
      await expectAuthFailures('DELETE', (o) => teamUrl(team.id, o));
      expect(await teamRow(team.id)).toBeDefined();
    });

    it('403 for team owners and other members', async () => {
      const owner = await createMember(t, org.id, 'create');
      const team = await createTeam(t, org.id, { members: [{ userId: owner.id, role: 'owner' }] });
      for (const caller of [owner, reader, guest]) {
        expect((await t.request('DELETE', teamUrl(team.id), { token: caller.token })).status).toBe(403);
      }
      expect(await teamRow(team.id)).toBeDefined();
    });

    it('204 for an admin: the team and its memberships are gone; 204 again when absent', async () => {
      const team = await createTeam(t, org.id, { members: [{ userId: reader.id }, { userId: editor.id, role: 'owner' }] });
      const res = await t.request('DELETE', teamUrl(team.id), { token: admin.token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await teamRow(team.id)).toBeUndefined();
      expect(await roles(team.id)).toEqual({});
      expect((await t.request('GET', teamUrl(team.id), { token: admin.token })).status).toBe(404);
      expect((await t.request('DELETE', teamUrl(team.id), { token: admin.token })).status).toBe(204);
      expect((await t.request('DELETE', teamUrl('never-existed'), { token: admin.token })).status).toBe(204);
    });
  });

  describe('GET /v1/orgs/{organizationId}/teams/{teamId}/members (listTeamMembersInOrganizationById)', () => {
    let team: { id: string };
    let people: TestUser[];
    beforeAll(async () => {
      people = [];
      for (let i = 0; i < 12; i++) people.push(await createMember(t, org.id, i % 2 ? 'read' : 'edit'));
      team = await createTeam(t, org.id, { title: 'Big', members: people.map((p, i) => ({ userId: p.id, role: i === 0 ? 'owner' : 'member' })) });
      // The first person is in a second team, which their Member object counts.
      await createTeam(t, org.id, { members: [{ userId: people[0].id }] });
    });

    it('401, 404 for non-members and unknown organizations', async () => {
      await expectAuthFailures('GET', (o) => membersUrl(team.id, o));
    });

    it('403 for guests; 404 for an unknown team', async () => {
      expect((await t.request('GET', membersUrl(team.id), { token: guest.token })).status).toBe(403);
      const unknown = await t.request('GET', membersUrl('unknown'), { token: admin.token });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.message).toBe('Team not found');
    });

    it('lists Member objects with the team role and permissions', async () => {
      const res = await t.request('GET', membersUrl(team.id), { token: reader.token, query: { limit: 100 } });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(12);
      expect(res.body.items).toHaveLength(12);
      const first = res.body.items.find((i: any) => i.organization.id === people[0].id);
      expect(first).toEqual(
        {
          organization: {
            object: 'member',
            id: people[0].id,
            role: 'edit',
            user: {
              object: 'user',
              id: people[0].id,
              displayName: people[0].displayName,
              email: people[0].email,
              urls: { location: `http://quire.test/v1/users/${people[0].id}` },
            },
            disabled: false,
            joinedAt: expect.any(String),
            sso: false,
            spaces: 0,
            teams: 2,
            sites: 0,
          },
          team: { role: 'owner' },
          permissions: { view: true },
        },
      );
      const second = res.body.items.find((i: any) => i.organization.id === people[1].id);
      expect(second).toMatchObject({ organization: { role: 'read', teams: 1 }, team: { role: 'member' } });
    });

    it('pages over the members without skipping or repeating', async () => {
      const seen: string[] = [];
      let page: string | undefined;
      let calls = 0;
      do {
        const res = await t.request('GET', membersUrl(team.id), { token: admin.token, query: page ? { limit: 5, page } : { limit: 5 } });
        expect(res.status).toBe(200);
        seen.push(...res.body.items.map((i: any) => i.organization.id));
        page = res.body.next?.page;
        calls++;
      } while (page && calls < 5);
      expect(calls).toBe(3);
      expect(seen).toHaveLength(12);
      expect(new Set(seen)).toEqual(new Set(people.map((p) => p.id)));
      const roleOf = await roles(team.id);
      expect(Object.keys(roleOf).sort()).toEqual(people.map((p) => p.id).sort());
    });
  });

  describe('PUT /v1/orgs/{organizationId}/teams/{teamId}/members (updateMembersInOrganizationTeam)', () => {
    let owner: TestUser;
    let plainMember: TestUser;
    let a: TestUser;
    let b: TestUser;
    let c: TestUser;
    beforeAll(async () => {
      owner = await createMember(t, org.id, 'read');
      plainMember = await createMember(t, org.id, 'edit');
      a = await createMember(t, org.id, 'read', { email: 'alice.teams@example.com' });
      b = await createMember(t, org.id, 'comment');
      c = await createMember(t, org.id, 'review');
    });

    async function freshTeam() {
      return createTeam(t, org.id, { members: [{ userId: owner.id, role: 'owner' }, { userId: plainMember.id }] });
    }

    it('401, 404 for non-members and unknown organizations', async () => {
      const team = await freshTeam();
      await expectAuthFailures('PUT', (o) => membersUrl(team.id, o), { add: [a.id] });
      expect(await roles(team.id)).toEqual({ [owner.id]: 'owner', [plainMember.id]: 'member' });
    });

    it('adds by id and by email (any case), removes, and sets roles through memberships', async () => {
      const team = await freshTeam();
      const res = await t.request('PUT', membersUrl(team.id), {
        token: admin.token,
        body: { add: [a.email.toUpperCase(), b.id], remove: [plainMember.id], memberships: { [c.id]: { role: 'owner' }, [b.id]: { role: 'owner' } } },
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await roles(team.id)).toEqual({ [owner.id]: 'owner', [a.id]: 'member', [b.id]: 'owner', [c.id]: 'owner' });
      const read = await t.request('GET', teamUrl(team.id), { token: reader.token });
      expect(read.body.members).toBe(4);

      // Adding someone already in the team keeps their role; memberships changes it.
      const again = await t.request('PUT', membersUrl(team.id), {
        token: admin.token,
        body: { add: [c.id], memberships: { [owner.id]: { role: 'member' } } },
      });
      expect(again.status).toBe(204);
      expect(await roles(team.id)).toEqual({ [owner.id]: 'member', [a.id]: 'member', [b.id]: 'owner', [c.id]: 'owner' });
    });

    it('a user in both add and remove is removed, also when given by email on one side', async () => {
      const team = await freshTeam();
      const res = await t.request('PUT', membersUrl(team.id), {
        token: admin.token,
        body: { add: [a.id, plainMember.id, b.id], remove: [a.email, plainMember.id], memberships: { [b.id]: { role: 'member' } } },
      });
      expect(res.status).toBe(204);
      expect(await roles(team.id)).toEqual({ [owner.id]: 'owner', [b.id]: 'member' });
      // Removal wins over memberships too.
      await t.request('PUT', membersUrl(team.id), { token: admin.token, body: { remove: [b.id], memberships: { [b.id]: { role: 'owner' } } } });
      expect(await roles(team.id)).toEqual({ [owner.id]: 'owner' });
      // Removing someone not in the team changes nothing.
      expect((await t.request('PUT', membersUrl(team.id), { token: admin.token, body: { remove: [c.id] } })).status).toBe(204);
      expect((await t.request('PUT', membersUrl(team.id), { token: admin.token, body: {} })).status).toBe(204);
      expect(await roles(team.id)).toEqual({ [owner.id]: 'owner' });
    });

    it('400 naming every unknown or non-member user per field, and nothing changes', async () => {
      const team = await freshTeam();
      const res = await t.request('PUT', membersUrl(team.id), {
        token: admin.token,
        body: { add: [a.id, 'ghost@example.com'], remove: [outsider.id], memberships: { 'no-such-id': { role: 'owner' }, [b.id]: { role: 'owner' } } },
      });
      expect(res.status).toBe(400);
      const message: string = res.body.error.message;
      expect(message).toContain('body/add: "ghost@example.com" is not a member');
      expect(message).toContain(`body/remove: "${outsider.id}" is not a member`);
      expect(message).toContain('body/memberships: "no-such-id" is not a member');
      expect(message).not.toContain(a.id);
      expect(await roles(team.id)).toEqual({ [owner.id]: 'owner', [plainMember.id]: 'member' });
    });

    it('validation: shapes and roles are 400 naming the field', async () => {
      const team = await freshTeam();
      for (const [body, field] of [
        [{ add: a.id }, 'add'],
        [{ remove: [''] }, 'remove'],
        [{ memberships: { [a.id]: { role: 'admin' } } }, 'memberships'],
        [{ memberships: { [a.id]: 'owner' } }, 'memberships'],
      ] as const) {
        const res = await t.request('PUT', membersUrl(team.id), { token: admin.token, body });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toContain(field);
      }
      expect(await roles(team.id)).toEqual({ [owner.id]: 'owner', [plainMember.id]: 'member' });
    });

    it('a team owner may manage members; a plain team member, other members and guests get 403', async () => {
      const team = await freshTeam();
      const res = await t.request('PUT', membersUrl(team.id), { token: owner.token, body: { add: [a.id], memberships: { [plainMember.id]: { role: 'owner' } } } });
      expect(res.status).toBe(204);
      expect(await roles(team.id)).toEqual({ [owner.id]: 'owner', [plainMember.id]: 'owner', [a.id]: 'member' });

      const other = await freshTeam();
      for (const caller of [plainMember, reader, guest]) {
        const denied = await t.request('PUT', membersUrl(other.id), { token: caller.token, body: { add: [caller.id] } });
        expect(denied.status).toBe(403);
      }
      expect(await roles(other.id)).toEqual({ [owner.id]: 'owner', [plainMember.id]: 'member' });
    });

    it('a guest who owns a team still cannot manage it', async () => {
      const team = await createTeam(t, org.id, { members: [{ userId: guest.id, role: 'owner' }] });
      expect((await t.request('PUT', membersUrl(team.id), { token: guest.token, body: { add: [a.id] } })).status).toBe(403);
      expect(await roles(team.id)).toEqual({ [guest.id]: 'owner' });
    });

    it('404 for an unknown team', async () => {
      const res = await t.request('PUT', membersUrl('unknown'), { token: admin.token, body: { add: [a.id] } });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe('Team not found');
    });
  });

  describe('PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId} (addMemberToOrganizationTeamById)', () => {
    let owner: TestUser;
    let plainMember: TestUser;
    let team: { id: string };
    beforeAll(async () => {
      owner = await createMember(t, org.id, 'read');
      plainMember = await createMember(t, org.id, 'edit');
      team = await createTeam(t, org.id, { members: [{ userId: owner.id, role: 'owner' }, { userId: plainMember.id }] });
    });

    it('401, 404 for non-members and unknown organizations', async () => {
      await expectAuthFailures('PUT', (o) => memberUrl(team.id, reader.id, o), { role: 'member' });
      expect((await roles(team.id))[reader.id]).toBeUndefined();
    });

    it('adds with role member by default (also without a body), then updates the role', async () => {
      expect((await t.request('PUT', memberUrl(team.id, reader.id), { token: admin.token, body: {} })).status).toBe(204);
      expect((await roles(team.id))[reader.id]).toBe('member');
      expect((await t.request('PUT', memberUrl(team.id, editor.id), { token: admin.token })).status).toBe(204);
      expect((await roles(team.id))[editor.id]).toBe('member');
      const res = await t.request('PUT', memberUrl(team.id, reader.id), { token: admin.token, body: { role: 'owner' } });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await roles(team.id))[reader.id]).toBe('owner');
      const list = await t.request('GET', membersUrl(team.id), { token: admin.token });
      expect(list.body.items.find((i: any) => i.organization.id === reader.id).team).toEqual({ role: 'owner' });
    });

    it('400 for an invalid role; 404 for a user who is not a member of the organization', async () => {
      const bad = await t.request('PUT', memberUrl(team.id, guest.id), { token: admin.token, body: { role: 'admin' } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/role/);
      const stranger = await t.request('PUT', memberUrl(team.id, outsider.id), { token: admin.token, body: { role: 'member' } });
      expect(stranger.status).toBe(404);
      expect(stranger.body.error.message).toBe(`Member "${outsider.id}" not found`);
      expect((await roles(team.id))[outsider.id]).toBeUndefined();
    });

    it('a team owner may add; a plain team member and other members get 403; unknown team 404', async () => {
      expect((await t.request('PUT', memberUrl(team.id, guest.id), { token: owner.token, body: { role: 'member' } })).status).toBe(204);
      expect((await roles(team.id))[guest.id]).toBe('member');
      const other = await createMember(t, org.id, 'read');
      for (const caller of [plainMember, other]) {
        expect((await t.request('PUT', memberUrl(team.id, other.id), { token: caller.token, body: { role: 'owner' } })).status).toBe(403);
      }
      expect((await roles(team.id))[other.id]).toBeUndefined();
      expect((await t.request('PUT', memberUrl('unknown', other.id), { token: admin.token, body: {} })).status).toBe(404);
    });
  });

  describe('DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{userId} (deleteMemberFromOrganizationTeamById)', () => {
    let owner: TestUser;
    let x: TestUser;
    let y: TestUser;
    let team: { id: string };
    beforeAll(async () => {
      owner = await createMember(t, org.id, 'read');
      x = await createMember(t, org.id, 'edit');
      y = await createMember(t, org.id, 'edit');
      team = await createTeam(t, org.id, { members: [{ userId: owner.id, role: 'owner' }, { userId: x.id }, { userId: y.id }, { userId: reader.id }, { userId: guest.id }] });
    });

    it('401, 404 for non-members and unknown organizations', async () => {
      await expectAuthFailures('DELETE', (o) => memberUrl(team.id, x.id, o));
      expect((await roles(team.id))[x.id]).toBe('member');
    });

    it('403 when a plain member removes someone else', async () => {
      const res = await t.request('DELETE', memberUrl(team.id, y.id), { token: x.token });
      expect(res.status).toBe(403);
      expect((await roles(team.id))[y.id]).toBe('member');
    });

    it('any member may leave the team themselves, guests included', async () => {
      expect((await t.request('DELETE', memberUrl(team.id, x.id), { token: x.token })).status).toBe(204);
      expect((await t.request('DELETE', memberUrl(team.id, guest.id), { token: guest.token })).status).toBe(204);
      const left = await roles(team.id);
      expect(left[x.id]).toBeUndefined();
      expect(left[guest.id]).toBeUndefined();
    });

    it('owners and admins remove others; 204 also when the user is not in the team', async () => {
      expect((await t.request('DELETE', memberUrl(team.id, y.id), { token: owner.token })).status).toBe(204);
      const res = await t.request('DELETE', memberUrl(team.id, reader.id), { token: admin.token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await roles(team.id)).toEqual({ [owner.id]: 'owner' });
      expect((await t.request('GET', teamUrl(team.id), { token: admin.token })).body.members).toBe(1);
      expect((await t.request('DELETE', memberUrl(team.id, y.id), { token: admin.token })).status).toBe(204);
      expect((await t.request('DELETE', memberUrl(team.id, 'nobody'), { token: admin.token })).status).toBe(204);
    });

    it('404 for an unknown team', async () => {
      const res = await t.request('DELETE', memberUrl('unknown', x.id), { token: admin.token });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe('Team not found');
    });
  });
});
