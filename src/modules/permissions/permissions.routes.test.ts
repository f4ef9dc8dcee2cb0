import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, createTeam, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { createRoleMatrix } from '../../../test/role-matrix.ts';
import type { DefaultLevel, RoleName } from '../../db/types.ts';
import { newId } from '../../lib/ids.ts';

describe('content permissions (spaces and collections)', () => {
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

  /** A space row inserted directly (the spaces module owns their creation). */
  async function insertSpace(
    orgId: string,
    options: { parent?: string | null; defaultLevel?: DefaultLevel; deleted?: boolean; visibility?: 'private' | 'public' } = {},
  ): Promise<string> {
    const id = newId();
    const now = t.clock.now().toISOString();
    await t.db
      .insertInto('spaces')
      .values({
        id,
        organization_id: orgId,
        title: 'Space',
        emoji: '',
        visibility: options.visibility ?? 'private',
        edit_mode: 'live',
        default_level: options.defaultLevel === undefined ? null : options.defaultLevel,
        language: null,
        merge_rules: '{"type":"inherit"}',
        parent_id: options.parent ?? null,
        position: 0,
        revision_id: null,
        share_key: newId(),
        created_by: admin.id,
        created_at: now,
        updated_at: now,
        deleted_at: options.deleted ? now : null,
      })
      .execute();
    t.clock.advance(1000);
    return id;
  }

  async function insertCollection(orgId: string, options: { parent?: string | null; defaultLevel?: DefaultLevel } = {}): Promise<string> {
    const id = newId();
    const now = t.clock.now().toISOString();
    await t.db
      .insertInto('collections')
      .values({
        id,
        organization_id: orgId,
        title: 'Collection',
        description: null,
        parent_id: options.parent ?? null,
        position: 0,
        default_level: options.defaultLevel === undefined ? 'inherit' : options.defaultLevel,
        created_by: admin.id,
        created_at: now,
        updated_at: now,
      })
      .execute();
    t.clock.advance(1000);
    return id;
  }

  async function grant(targetType: 'space' | 'collection', targetId: string, principalType: 'user' | 'team', principalId: string, role: RoleName, orgId = org.id) {
    await t.db
      .insertInto('content_permissions')
      .values({
        target_type: targetType,
        target_id: targetId,
        organization_id: orgId,
        principal_type: principalType,
        principal_id: principalId,
        role,
        created_at: t.clock.now().toISOString(),
      })
      .execute();
    t.clock.advance(1000);
  }

  /** Grants on a target as { "user:<id>" | "team:<id>": role }. */
  async function grants(targetId: string): Promise<Record<string, string>> {
    const rows = await t.db.selectFrom('content_permissions').selectAll().where('target_id', '=', targetId).execute();
    return Object.fromEntries(rows.map((r) => [`${r.principal_type}:${r.principal_id}`, r.role]));
  }

  const spaceBase = (id: string) => `/v1/spaces/${id}/permissions`;
  const collectionBase = (id: string) => `/v1/collections/${id}/permissions`;

  /** 401 without a token, 404 for outsiders and unknown targets. */
  async function expectAuthFailures(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, unknownUrl: string, body?: unknown) {
    expect((await t.request(method, url, { body })).status).toBe(401);
    expect((await t.request(method, url, { token: 'qr_nope', body })).status).toBe(401);
    expect((await t.request(method, url, { token: outsider.token, body })).status).toBe(404);
    expect((await t.request(method, unknownUrl, { token: admin.token, body })).status).toBe(404);
  }

  for (const kind of ['space', 'collection'] as const) {
    const base = kind === 'space' ? spaceBase : collectionBase;
    const Kind = kind === 'space' ? 'Space' : 'Collection';
    const make = () => (kind === 'space' ? insertSpace(org.id) : insertCollection(org.id));

    describe(`${kind}: POST ${kind === 'space' ? '/v1/spaces/{spaceId}' : '/v1/collections/{collectionId}'}/permissions (inviteTo${Kind})`, () => {
      let target: string;
      let team: { id: string };
      beforeAll(async () => {
        target = await make();
        team = await createTeam(t, org.id, { members: [{ userId: reader.id }] });
      });

      it('401, 404 for non-members and unknown ids', async () => {
        await expectAuthFailures('POST', base(target), base('unknown'), { role: 'read', users: [guest.id] });
        expect(await grants(target)).toEqual({});
      });

      it('gives users (guests included) and teams the role; re-inviting changes the role', async () => {
        const res = await t.request('POST', base(target), { token: admin.token, body: { role: 'edit', users: [guest.id, editor.id, guest.id], teams: [team.id] } });
        expect(res.status).toBe(204);
        expect(res.text).toBe('');
        expect(await grants(target)).toEqual({ [`user:${guest.id}`]: 'edit', [`user:${editor.id}`]: 'edit', [`team:${team.id}`]: 'edit' });
        expect((await t.request('POST', base(target), { token: admin.token, body: { role: 'comment', users: [guest.id] } })).status).toBe(204);
        expect((await grants(target))[`user:${guest.id}`]).toBe('comment');
      });

      it('role null removes the grants of the named users and teams', async () => {
        expect((await t.request('POST', base(target), { token: admin.token, body: { role: null, users: [editor.id], teams: [team.id] } })).status).toBe(204);
        expect(await grants(target)).toEqual({ [`user:${guest.id}`]: 'comment' });
      });

      it('404 naming unknown users and teams (non-members, other organizations), nothing written', async () => {
        const other = await createOrganization(t);
        const foreignTeam = await createTeam(t, other.id);
        const res = await t.request('POST', base(target), {
          token: admin.token,
          body: { role: 'admin', users: [reader.id, outsider.id], teams: [foreignTeam.id] },
        });
        expect(res.status).toBe(404);
        expect(res.body.error.message).toBe(`Member "${outsider.id}" and Team "${foreignTeam.id}" not found`);
        expect(await grants(target)).toEqual({ [`user:${guest.id}`]: 'comment' });
      });

      it('400 for a bad role, a missing role, no users nor teams, empty or oversized lists', async () => {
        const bad = await t.request('POST', base(target), { token: admin.token, body: { role: 'owner', users: [reader.id] } });
        expect(bad.status).toBe(400);
        expect(bad.body.error.message).toMatch(/role/);
        const missing = await t.request('POST', base(target), { token: admin.token, body: { users: [reader.id] } });
        expect(missing.status).toBe(400);
        expect(missing.body.error.message).toMatch(/role/);
        const none = await t.request('POST', base(target), { token: admin.token, body: { role: 'read' } });
        expect(none.status).toBe(400);
        expect(none.body.error.message).toMatch(/users or teams/);
        const empty = await t.request('POST', base(target), { token: admin.token, body: { role: 'read', users: [] } });
        expect(empty.status).toBe(400);
        expect(empty.body.error.message).toMatch(/users/);
        const tooMany = await t.request('POST', base(target), { token: admin.token, body: { role: 'read', teams: Array.from({ length: 1001 }, (_, i) => `t${i}`) } });
        expect(tooMany.status).toBe(400);
        expect(tooMany.body.error.message).toMatch(/teams/);
        expect(await grants(target)).toEqual({ [`user:${guest.id}`]: 'comment' });
      });

      it('403 for members who are not admins of it; a guest granted admin may invite', async () => {
        for (const caller of [reader, editor]) {
          expect((await t.request('POST', base(target), { token: caller.token, body: { role: 'read', users: [caller.id] } })).status).toBe(403);
        }
        // A guest without any role on it cannot see it at all.
        const stranger = await createMember(t, org.id, null);
        expect((await t.request('POST', base(target), { token: stranger.token, body: { role: 'read', users: [stranger.id] } })).status).toBe(404);
        const guestAdmin = await createMember(t, org.id, null);
        await grant(kind, target, 'user', guestAdmin.id, 'admin');
        expect((await t.request('POST', base(target), { token: guestAdmin.token, body: { role: 'read', users: [stranger.id] } })).status).toBe(204);
        expect((await grants(target))[`user:${stranger.id}`]).toBe('read');
      });
    });

    describe(`${kind}: listing, updating and removing grants (list/update/remove...In${Kind})`, () => {
      let target: string;
      let team: { id: string };
      let team2: { id: string };
      let leaver: TestUser;
      beforeAll(async () => {
        target = await make();
        leaver = await createMember(t, org.id, 'read');
        team = await createTeam(t, org.id, { title: 'Writers', members: [{ userId: editor.id }, { userId: admin.id, role: 'owner' }] });
        team2 = await createTeam(t, org.id, { title: 'Readers' });
        await grant(kind, target, 'user', guest.id, 'comment');
        await grant(kind, target, 'user', reader.id, 'edit');
        await grant(kind, target, 'user', leaver.id, 'read');
        await grant(kind, target, 'team', team.id, 'review');
        await grant(kind, target, 'team', team2.id, 'read');
      });

      it('lists users, oldest grant first, paginated; stale grants of former members are never shown', async () => {
        // The member leaves the organization: their grant row stays but is not shown.
        expect((await t.request('DELETE', `/v1/orgs/${org.id}/members/${leaver.id}`, { token: admin.token })).status).toBe(204);
        const res = await t.request('GET', `${base(target)}/users`, { token: admin.token });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(2);
        expect(res.body.items).toEqual([
          {
            permission: 'comment',
            user: { object: 'user', id: guest.id, displayName: guest.displayName, email: guest.email, urls: { location: `http://quire.test/v1/users/${guest.id}` } },
          },
          expect.objectContaining({ permission: 'edit', user: expect.objectContaining({ id: reader.id }) }),
        ]);
        const first = await t.request('GET', `${base(target)}/users`, { token: admin.token, query: { limit: 1 } });
        expect(first.body.items.map((i: any) => i.user.id)).toEqual([guest.id]);
        const second = await t.request('GET', `${base(target)}/users`, { token: admin.token, query: { limit: 1, page: first.body.next.page } });
        expect(second.body.items.map((i: any) => i.user.id)).toEqual([reader.id]);
        expect(second.body.next).toBeUndefined();
      });

      it('lists teams as Team objects with their counts; deleted teams are not shown', async () => {
        const res = await t.request('GET', `${base(target)}/teams`, { token: admin.token });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(2);
        expect(res.body.items[0]).toEqual({
          permission: 'review',
          team: {
            object: 'team',
            id: team.id,
            title: 'Writers',
            members: 2,
            spaces: kind === 'space' ? 1 : 0,
            createdAt: expect.any(String),
            permissions: { admin: true, view: true },
          },
        });
        const gone = await createTeam(t, org.id);
        await grant(kind, target, 'team', gone.id, 'admin');
        expect((await t.request('DELETE', `/v1/orgs/${org.id}/teams/${gone.id}`, { token: admin.token })).status).toBe(204);
        const after = await t.request('GET', `${base(target)}/teams`, { token: admin.token, query: { limit: 1 } });
        expect(after.body.count).toBe(2);
        expect(after.body.items.map((i: any) => i.team.id)).toEqual([team.id]);
        expect(after.body.next).toBeDefined();
      });

      it('400 for limits outside 1..1000 and a bad page', async () => {
        for (const path of ['users', 'teams', 'aggregate']) {
          for (const limit of [0, 1001]) {
            const res = await t.request('GET', `${base(target)}/${path}`, { token: admin.token, query: { limit } });
            expect(res.status).toBe(400);
            expect(res.body.error.message).toMatch(/limit/);
          }
          expect((await t.request('GET', `${base(target)}/${path}`, { token: admin.token, query: { page: 'nope' } })).status).toBe(400);
        }
      });

      it('401, 404 and 403 on the lists', async () => {
        for (const path of ['users', 'teams', 'aggregate']) {
          await expectAuthFailures('GET', `${base(target)}/${path}`, `${base('unknown')}/${path}`);
          // reader holds `edit` on it: sees it, does not administer it.
          const denied = await t.request('GET', `${base(target)}/${path}`, { token: reader.token });
          expect(denied.status).toBe(403);
        }
      });

      it('PATCH changes a user or team role (204); null removes; 404 when there is no grant', async () => {
        const res = await t.request('PATCH', `${base(target)}/users/${reader.id}`, { token: admin.token, body: { role: 'admin' } });
        expect(res.status).toBe(204);
        expect((await grants(target))[`user:${reader.id}`]).toBe('admin');
        expect((await t.request('PATCH', `${base(target)}/teams/${team2.id}`, { token: admin.token, body: { role: 'comment' } })).status).toBe(204);
        expect((await grants(target))[`team:${team2.id}`]).toBe('comment');
        expect((await t.request('PATCH', `${base(target)}/teams/${team2.id}`, { token: admin.token, body: { role: null } })).status).toBe(204);
        expect((await grants(target))[`team:${team2.id}`]).toBeUndefined();
        const none = await t.request('PATCH', `${base(target)}/users/${editor.id}`, { token: admin.token, body: { role: 'read' } });
        expect(none.status).toBe(404);
        expect(none.body.error.message).toMatch(editor.id);
        // A former member's stale grant cannot be updated either.
        expect((await t.request('PATCH', `${base(target)}/users/${leaver.id}`, { token: admin.token, body: { role: 'read' } })).status).toBe(404);
        expect((await t.request('PATCH', `${base(target)}/teams/unknown`, { token: admin.token, body: { role: 'read' } })).status).toBe(404);
        expect((await grants(target))[`user:${reader.id}`]).toBe('admin');
        await grant(kind, target, 'team', team2.id, 'read');
      });

      it('PATCH: 400 for a bad or missing role, 401, 403, 404', async () => {
        expect((await t.request('PATCH', `${base(target)}/users/${guest.id}`, { token: admin.token, body: { role: 'owner' } })).status).toBe(400);
        expect((await t.request('PATCH', `${base(target)}/users/${guest.id}`, { token: admin.token, body: {} })).status).toBe(400);
        await expectAuthFailures('PATCH', `${base(target)}/users/${guest.id}`, `${base('unknown')}/users/${guest.id}`, { role: 'read' });
        await expectAuthFailures('PATCH', `${base(target)}/teams/${team.id}`, `${base('unknown')}/teams/${team.id}`, { role: 'read' });
        expect((await t.request('PATCH', `${base(target)}/users/${guest.id}`, { token: guest.token, body: { role: 'admin' } })).status).toBe(403);
        expect((await t.request('PATCH', `${base(target)}/teams/${team.id}`, { token: editor.token, body: { role: 'admin' } })).status).toBe(403);
        expect((await grants(target))[`user:${guest.id}`]).toBe('comment');
      });

      it('DELETE removes a user or team grant; 204 also when absent; 401, 403, 404', async () => {
        await expectAuthFailures('DELETE', `${base(target)}/users/${guest.id}`, `${base('unknown')}/users/${guest.id}`);
        await expectAuthFailures('DELETE', `${base(target)}/teams/${team.id}`, `${base('unknown')}/teams/${team.id}`);
        expect((await t.request('DELETE', `${base(target)}/users/${guest.id}`, { token: editor.token })).status).toBe(403);
        expect((await t.request('DELETE', `${base(target)}/teams/${team.id}`, { token: editor.token })).status).toBe(403);
        expect((await grants(target))[`user:${guest.id}`]).toBe('comment');
        const res = await t.request('DELETE', `${base(target)}/users/${guest.id}`, { token: admin.token });
        expect(res.status).toBe(204);
        expect(res.text).toBe('');
        expect((await t.request('DELETE', `${base(target)}/teams/${team.id}`, { token: admin.token })).status).toBe(204);
        const left = await grants(target);
        expect(left[`user:${guest.id}`]).toBeUndefined();
        expect(left[`team:${team.id}`]).toBeUndefined();
        expect((await t.request('DELETE', `${base(target)}/users/${guest.id}`, { token: admin.token })).status).toBe(204);
        expect((await t.request('DELETE', `${base(target)}/teams/nobody`, { token: admin.token })).status).toBe(204);
      });
    });
  }

  describe('deleted spaces', () => {
    it('are 404 for every grant operation', async () => {
      const space = await insertSpace(org.id, { deleted: true });
      await grant('space', space, 'user', guest.id, 'read');
      expect((await t.request('POST', spaceBase(space), { token: admin.token, body: { role: 'read', users: [reader.id] } })).status).toBe(404);
      for (const path of ['users', 'teams', 'aggregate']) expect((await t.request('GET', `${spaceBase(space)}/${path}`, { token: admin.token })).status).toBe(404);
      expect((await t.request('PATCH', `${spaceBase(space)}/users/${guest.id}`, { token: admin.token, body: { role: 'edit' } })).status).toBe(404);
      const res = await t.request('DELETE', `${spaceBase(space)}/users/${guest.id}`, { token: admin.token });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe('Space not found');
      expect(await grants(space)).toEqual({ [`user:${guest.id}`]: 'read' });
    });
  });

  describe('effective roles (listPermissionsAggregateInSpace / listPermissionsAggregateInCollection)', () => {
    let o: TestOrganization;
    let r: TestUser; // org role read
    let e: TestUser; // org role edit
    let g: TestUser; // guest, collection grant (comment) on the top collection
    let g2: TestUser; // guest, direct grant (admin) on the space
    let tg: TestUser; // guest in a team granted edit on the space
    let nobody: TestUser; // guest without grants
    let top: string;
    let sub: string;
    let space: string;
    let rootSpace: string;

    /** { userId: role } from an aggregate listing. */
    async function aggregate(url: string, token: string, query: Record<string, string | number> = {}) {
      const res = await t.request('GET', url, { token, query });
      expect(res.status).toBe(200);
      return { body: res.body, roles: Object.fromEntries(res.body.items.map((i: any) => [i.user.id, i.permission])) as Record<string, string> };
    }

    beforeAll(async () => {
      o = await createOrganization(t);
      r = await createMember(t, o.id, 'read');
      e = await createMember(t, o.id, 'edit');
      g = await createMember(t, o.id, null);
      g2 = await createMember(t, o.id, null);
      tg = await createMember(t, o.id, null);
      nobody = await createMember(t, o.id, null);
      await createMember(t, o.id, 'admin', { disabled: true });
      top = await insertCollection(o.id, { defaultLevel: 'review' });
      sub = await insertCollection(o.id, { parent: top, defaultLevel: 'inherit' });
      space = await insertSpace(o.id, { parent: sub, defaultLevel: 'inherit' });
      rootSpace = await insertSpace(o.id, { defaultLevel: null });
      const team = await createTeam(t, o.id, { members: [{ userId: tg.id }] });
      await grant('collection', top, 'user', g.id, 'comment', o.id);
      await grant('space', space, 'user', g2.id, 'admin', o.id);
      await grant('space', space, 'team', team.id, 'edit', o.id);
    });

    it('combines org roles, the inherited defaultLevel, direct, team and collection grants', async () => {
      const { body, roles } = await aggregate(`${spaceBase(space)}/aggregate`, o.admin.token);
      expect(roles).toEqual({ [o.admin.id]: 'admin', [r.id]: 'review', [e.id]: 'review', [g.id]: 'comment', [g2.id]: 'admin', [tg.id]: 'edit' });
      expect(body.count).toBe(6);
      // The oldest member first.
      expect(body.items[0].user.id).toBe(o.admin.id);
      expect(roles[nobody.id]).toBeUndefined();
    });

    it('a guest admin by grant may list; the role filter and pagination apply in SQL', async () => {
      const { body, roles } = await aggregate(`${spaceBase(space)}/aggregate`, g2.token, { role: 'review' });
      expect(roles).toEqual({ [r.id]: 'review', [e.id]: 'review' });
      expect(body.count).toBe(2);
      const page1 = await aggregate(`${spaceBase(space)}/aggregate`, o.admin.token, { limit: 4 });
      expect(page1.body.items).toHaveLength(4);
      const page2 = await aggregate(`${spaceBase(space)}/aggregate`, o.admin.token, { limit: 4, page: page1.body.next.page });
      expect(Object.keys(page2.roles)).toHaveLength(2);
      expect(page2.body.next).toBeUndefined();
      expect(page2.body.count).toBe(6);
      const bad = await t.request('GET', `${spaceBase(space)}/aggregate`, { token: o.admin.token, query: { role: 'owner' } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/role/);
    });

    it('an explicit defaultLevel stops inheritance; null gives members only their org role', async () => {
      await t.db.updateTable('collections').set({ default_level: null }).where('id', '=', sub).execute();
      const { roles } = await aggregate(`${spaceBase(space)}/aggregate`, o.admin.token);
      expect(roles[r.id]).toBe('read');
      expect(roles[e.id]).toBe('edit');
      await t.db.updateTable('spaces').set({ default_level: 'comment' }).where('id', '=', space).execute();
      const own = await aggregate(`${spaceBase(space)}/aggregate`, o.admin.token);
      expect(own.roles[r.id]).toBe('comment');
      expect(own.roles[e.id]).toBe('edit');
      await t.db.updateTable('spaces').set({ default_level: 'inherit' }).where('id', '=', space).execute();
      await t.db.updateTable('collections').set({ default_level: 'inherit' }).where('id', '=', sub).execute();
    });

    it('collection grants reach sub-collections; space grants do not reach collections', async () => {
      const { roles } = await aggregate(`${collectionBase(sub)}/aggregate`, o.admin.token);
      expect(roles).toEqual({ [o.admin.id]: 'admin', [r.id]: 'review', [e.id]: 'review', [g.id]: 'comment' });
      const root = await aggregate(`${spaceBase(rootSpace)}/aggregate`, o.admin.token);
      expect(root.roles).toEqual({ [o.admin.id]: 'admin', [r.id]: 'read', [e.id]: 'edit' });
      // The guest with a collection grant sees the sub-collection but does not administer it.
      expect((await t.request('GET', `${collectionBase(sub)}/aggregate`, { token: g.token })).status).toBe(403);
      expect((await t.request('GET', `${collectionBase(sub)}/aggregate`, { token: tg.token })).status).toBe(404);
    });
  });

  describe('counts: Team.spaces and Member.spaces', () => {
    it('count non-deleted spaces granted to the team, and directly to the member', async () => {
      const o = await createOrganization(t);
      const m = await createMember(t, o.id, 'read');
      const team = await createTeam(t, o.id, { members: [{ userId: m.id }] });
      const [s1, s2, s3] = [await insertSpace(o.id), await insertSpace(o.id), await insertSpace(o.id)];
      const c = await insertCollection(o.id);
      for (const s of [s1, s2, s3]) await grant('space', s, 'team', team.id, 'read', o.id);
      await grant('collection', c, 'team', team.id, 'read', o.id);
      await grant('space', s1, 'user', m.id, 'edit', o.id);
      await grant('space', s2, 'user', m.id, 'edit', o.id);
      await grant('collection', c, 'user', m.id, 'edit', o.id);
      const teamUrl = `/v1/orgs/${o.id}/teams/${team.id}`;
      const memberUrl = `/v1/orgs/${o.id}/members/${m.id}`;
      expect((await t.request('GET', teamUrl, { token: o.admin.token })).body.spaces).toBe(3);
      expect((await t.request('GET', memberUrl, { token: o.admin.token })).body.spaces).toBe(2);
      const listed = await t.request('GET', `/v1/orgs/${o.id}/members`, { token: o.admin.token });
      expect(listed.body.items.find((i: any) => i.id === m.id).spaces).toBe(2);
      // Deleting a space (soft) takes it out of both counts, and out of the cached member list.
      await t.db.updateTable('spaces').set({ deleted_at: t.clock.now().toISOString() }).where('id', '=', s1).execute();
      expect((await t.request('GET', teamUrl, { token: o.admin.token })).body.spaces).toBe(2);
      expect((await t.request('GET', memberUrl, { token: o.admin.token })).body.spaces).toBe(1);
      const after = await t.request('GET', `/v1/orgs/${o.id}/members`, { token: o.admin.token });
      expect(after.body.items.find((i: any) => i.id === m.id).spaces).toBe(1);
      // A grant made through the API moves the count too.
      expect((await t.request('POST', spaceBase(s3), { token: o.admin.token, body: { role: 'read', users: [m.id] } })).status).toBe(204);
      const latest = await t.request('GET', `/v1/orgs/${o.id}/members`, { token: o.admin.token });
      expect(latest.body.items.find((i: any) => i.id === m.id).spaces).toBe(2);
    });
  });
});
