import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, createTeam, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { createRoleMatrix } from '../../../test/role-matrix.ts';
import type { RoleName } from '../../db/types.ts';
import { newId } from '../../lib/ids.ts';

describe('collections', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: TestUser;
  let creator: TestUser;
  let reader: TestUser;
  let guest: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    ({ org, admin, creator, reader, guest, outsider } = await createRoleMatrix(t, { title: 'Acme', roles: ['create', 'read', 'guest'] }));
  });
  afterAll(async () => {
    await t.close();
  });

  const collectionsUrl = (orgId = org.id) => `/v1/orgs/${orgId}/collections`;
  const collectionUrl = (id: string) => `/v1/collections/${id}`;

  /** A space row inserted directly (the spaces module owns their creation). */
  async function insertSpace(orgId: string, parent: string | null, position = 0): Promise<string> {
    const id = newId();
    const now = t.clock.now().toISOString();
    await t.db
      .insertInto('spaces')
      .values({
        id,
        organization_id: orgId,
        title: 'Space',
        emoji: '',
        visibility: 'private',
        edit_mode: 'live',
        default_level: 'inherit',
        language: null,
        merge_rules: '{"type":"inherit"}',
        parent_id: parent,
        position,
        revision_id: null,
        share_key: newId(),
        created_by: admin.id,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .execute();
    t.clock.advance(1000);
    return id;
  }

  async function grant(targetType: 'space' | 'collection', targetId: string, principalType: 'user' | 'team', principalId: string, role: RoleName, orgId = org.id) {
    await t.db
      .insertInto('content_permissions')
      .values({ target_type: targetType, target_id: targetId, organization_id: orgId, principal_type: principalType, principal_id: principalId, role, created_at: t.clock.now().toISOString() })
      .execute();
  }

  /** Creates a collection through the API as `token` (admin by default). */
  async function create(body: Record<string, unknown> = {}, token = admin.token, orgId = org.id): Promise<any> {
    const res = await t.request('POST', collectionsUrl(orgId), { token, body: { title: 'C', ...body } });
    expect(res.status).toBe(201);
    t.clock.advance(1000);
    return res.body;
  }

  const row = (id: string) => t.db.selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirst();

  /** Children of a parent in order, as "c:<id>" / "s:<id>". */
  async function order(parent: string | null, orgId = org.id): Promise<string[]> {
    const q = (table: 'collections' | 'spaces') => {
      let query = t.db.selectFrom(table).select(['id', 'position']).where('organization_id', '=', orgId);
      query = parent === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', parent);
      return query.execute();
    };
    const spaces = await t.db
      .selectFrom('spaces')
      .select(['id', 'position'])
      .where('organization_id', '=', orgId)
      .where('deleted_at', 'is', null)
      .where('parent_id', parent === null ? 'is' : '=', parent)
      .execute();
    const all = [...(await q('collections')).map((r) => ({ key: `c:${r.id}`, p: Number(r.position) })), ...spaces.map((r) => ({ key: `s:${r.id}`, p: Number(r.position) }))];
    return all.sort((a, b) => a.p - b.p).map((x) => x.key);
  }

  describe('POST /v1/orgs/{organizationId}/collections (createCollection)', () => {
    it('creates at the root for create and admin roles: 201, Location, every field, stored', async () => {
      const res = await t.request('POST', collectionsUrl(), { token: creator.token, body: { title: '  Guides ', description: 'All the guides' } });
      expect(res.status).toBe(201);
      const id = res.body.id;
      expect(res.headers.location).toBe(`http://quire.test/v1/collections/${id}`);
      expect(res.body).toEqual({
        object: 'collection',
        id,
        title: 'Guides',
        description: 'All the guides',
        organization: org.id,
        defaultLevel: 'inherit',
        urls: { location: `http://quire.test/v1/collections/${id}`, app: `http://quire.test/app/o/${org.id}/c/${id}` },
        permissions: { view: true, admin: false, viewInviteLinks: false, create: true },
      });
      expect(await row(id)).toMatchObject({ title: 'Guides', description: 'All the guides', parent_id: null, default_level: 'inherit', created_by: creator.id });
      const byAdmin = await t.request('POST', collectionsUrl(), { token: admin.token });
      expect(byAdmin.status).toBe(201);
      expect(byAdmin.body.title).toBe('Untitled');
      expect(byAdmin.body.permissions).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });
    });

    it('creates inside a parent with create on it (by grant too), placed last', async () => {
      const parent = await create();
      const first = await create({ parent: parent.id });
      expect(first.parent).toBe(parent.id);
      await grant('collection', parent.id, 'user', reader.id, 'create');
      const res = await t.request('POST', collectionsUrl(), { token: reader.token, body: { title: 'Mine', parent: parent.id } });
      expect(res.status).toBe(201);
      expect(res.body.permissions.create).toBe(true);
      expect(await order(parent.id)).toEqual([`c:${first.id}`, `c:${res.body.id}`]);
    });

    it('400 for a title over 50, a blank title, a description over 100, a bad parent id', async () => {
      for (const body of [{ title: 'x'.repeat(51) }, { title: '   ' }, { title: 42 }, { description: 'd'.repeat(101) }, { parent: 'bad id!' }]) {
        const res = await t.request('POST', collectionsUrl(), { token: admin.token, body });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(new RegExp(Object.keys(body)[0]));
      }
      expect((await t.request('POST', collectionsUrl(), { token: admin.token, body: { title: 'x'.repeat(50), description: 'd'.repeat(100) } })).status).toBe(201);
    });

    it('401; 404 for outsiders, unknown organizations, unknown or foreign parents', async () => {
      expect((await t.request('POST', collectionsUrl(), { body: { title: 'No' } })).status).toBe(401);
      const foreign = await t.request('POST', collectionsUrl(), { token: outsider.token, body: { title: 'No' } });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.message).toBe('Organization not found');
      expect((await t.request('POST', collectionsUrl('unknown'), { token: admin.token, body: { title: 'No' } })).status).toBe(404);
      const unknownParent = await t.request('POST', collectionsUrl(), { token: admin.token, body: { title: 'No', parent: 'unknown' } });
      expect(unknownParent.status).toBe(404);
      expect(unknownParent.body.error.message).toBe('Parent collection not found');
      const other = await createOrganization(t, { admin });
      const elsewhere = await create({}, admin.token, other.id);
      expect((await t.request('POST', collectionsUrl(), { token: admin.token, body: { title: 'No', parent: elsewhere.id } })).status).toBe(404);
    });

    it('403 for read members and guests at the root, and without create on the parent', async () => {
      const before = await t.db.selectFrom('collections').select('id').execute();
      for (const caller of [reader, guest]) {
        expect((await t.request('POST', collectionsUrl(), { token: caller.token, body: { title: 'No' } })).status).toBe(403);
      }
      const parent = await create();
      expect((await t.request('POST', collectionsUrl(), { token: reader.token, body: { title: 'No', parent: parent.id } })).status).toBe(403);
      // A guest who cannot see the parent gets 404 for it.
      expect((await t.request('POST', collectionsUrl(), { token: guest.token, body: { title: 'No', parent: parent.id } })).status).toBe(404);
      expect((await t.db.selectFrom('collections').select('id').execute()).length).toBe(before.length + 1);
    });
  });

  describe('GET /v1/orgs/{organizationId}/collections (listCollectionsInOrganizationById)', () => {
    let o: TestOrganization;
    let g: TestUser;
    let ids: string[];
    beforeAll(async () => {
      o = await createOrganization(t);
      g = await createMember(t, o.id, null);
      const a = await create({ title: 'A' }, o.admin.token, o.id);
      const b = await create({ title: 'B' }, o.admin.token, o.id);
      const bChild = await create({ title: 'B1', parent: b.id }, o.admin.token, o.id);
      const c = await create({ title: 'C' }, o.admin.token, o.id);
      ids = [a.id, b.id, bChild.id, c.id];
      await grant('collection', b.id, 'user', g.id, 'edit', o.id);
    });

    it('members see every collection, oldest first, paginated', async () => {
      const res = await t.request('GET', collectionsUrl(o.id), { token: o.admin.token });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(4);
      expect(res.body.items.map((c: any) => c.id)).toEqual(ids);
      const page1 = await t.request('GET', collectionsUrl(o.id), { token: o.admin.token, query: { limit: 3 } });
      expect(page1.body.items.map((c: any) => c.id)).toEqual(ids.slice(0, 3));
      const page2 = await t.request('GET', collectionsUrl(o.id), { token: o.admin.token, query: { limit: 3, page: page1.body.next.page } });
      expect(page2.body.items.map((c: any) => c.id)).toEqual(ids.slice(3));
      const top = await t.request('GET', collectionsUrl(o.id), { token: o.admin.token, query: { nested: false } });
      expect(top.body.items.map((c: any) => c.id)).toEqual([ids[0], ids[1], ids[3]]);
    });

    it('guests see what their grants reach (the granted collection and below), with permissions', async () => {
      const res = await t.request('GET', collectionsUrl(o.id), { token: g.token });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(2);
      expect(res.body.items.map((c: any) => c.id)).toEqual([ids[1], ids[2]]);
      expect(res.body.items[1].permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
      const other = await createMember(t, o.id, null);
      const none = await t.request('GET', collectionsUrl(o.id), { token: other.token });
      expect(none.body).toEqual({ count: 0, items: [] });
    });

    it('400 for limits outside 1..1000 and a bad page; 401; 404 for outsiders', async () => {
      for (const limit of [0, 1001]) {
        const res = await t.request('GET', collectionsUrl(o.id), { token: o.admin.token, query: { limit } });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/limit/);
      }
      expect((await t.request('GET', collectionsUrl(o.id), { token: o.admin.token, query: { page: 'x' } })).status).toBe(400);
      expect((await t.request('GET', collectionsUrl(o.id))).status).toBe(401);
      expect((await t.request('GET', collectionsUrl(o.id), { token: outsider.token })).status).toBe(404);
      expect((await t.request('GET', collectionsUrl('unknown'), { token: o.admin.token })).status).toBe(404);
    });
  });

  describe('GET /v1/collections/{collectionId} (getCollectionById) and effective roles', () => {
    it('401; 404 for unknown ids, outsiders and guests without a grant', async () => {
      const c = await create();
      expect((await t.request('GET', collectionUrl(c.id))).status).toBe(401);
      const unknown = await t.request('GET', collectionUrl('unknown'), { token: admin.token });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.message).toBe('Collection not found');
      expect((await t.request('GET', collectionUrl(c.id), { token: outsider.token })).status).toBe(404);
      expect((await t.request('GET', collectionUrl(c.id), { token: guest.token })).status).toBe(404);
    });

    it('each way to a role: org role, direct grant, team grant, grant on a parent, defaultLevel and inherit', async () => {
      const perms = async (id: string, user: TestUser) => (await t.request('GET', collectionUrl(id), { token: user.token })).body.permissions;
      const top = await create();
      const sub = await create({ parent: top.id });
      // Org role: read sees, does not administer.
      expect(await perms(sub.id, reader)).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
      // Direct grant on the sub-collection.
      const direct = await createMember(t, org.id, 'read');
      await grant('collection', sub.id, 'user', direct.id, 'admin');
      expect((await perms(sub.id, direct)).admin).toBe(true);
      expect((await perms(top.id, direct)).admin).toBe(false);
      // Team grant.
      const teamMember = await createMember(t, org.id, null);
      const team = await createTeam(t, org.id, { members: [{ userId: teamMember.id }] });
      await grant('collection', sub.id, 'team', team.id, 'create');
      expect(await perms(sub.id, teamMember)).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
      // A grant on the parent reaches the sub-collection (guest).
      const inherited = await createMember(t, org.id, null);
      await grant('collection', top.id, 'user', inherited.id, 'admin');
      expect((await perms(sub.id, inherited)).admin).toBe(true);
      // defaultLevel on the parent, inherited by the sub-collection, for members with an org role only.
      expect((await t.request('PATCH', collectionUrl(top.id), { token: admin.token, body: { defaultLevel: 'create' } })).status).toBe(200);
      expect((await perms(sub.id, reader)).create).toBe(true);
      expect((await t.request('GET', collectionUrl(sub.id), { token: guest.token })).status).toBe(404);
      // An explicit level on the sub-collection stops inheritance; null gives the org role only.
      expect((await t.request('PATCH', collectionUrl(sub.id), { token: admin.token, body: { defaultLevel: null } })).body.defaultLevel).toBeNull();
      expect((await perms(sub.id, reader)).create).toBe(false);
      expect((await perms(top.id, reader)).create).toBe(true);
    });
  });

  describe('PATCH /v1/collections/{collectionId} (updateCollectionById)', () => {
    it('changes title, description, defaultLevel; stored', async () => {
      const c = await create({ description: 'old' });
      const res = await t.request('PATCH', collectionUrl(c.id), { token: admin.token, body: { title: 'New', description: 'Newer', defaultLevel: 'edit' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: c.id, title: 'New', description: 'Newer', defaultLevel: 'edit' });
      expect(await row(c.id)).toMatchObject({ title: 'New', description: 'Newer', default_level: 'edit' });
      const cleared = await t.request('PATCH', collectionUrl(c.id), { token: admin.token, body: { description: '', defaultLevel: 'inherit' } });
      expect(cleared.body.description).toBeUndefined();
      expect(cleared.body.defaultLevel).toBe('inherit');
      expect(await row(c.id)).toMatchObject({ description: null, default_level: 'inherit' });
    });

    it('400 for a title over 50, a description over 100, a bad defaultLevel', async () => {
      const c = await create();
      for (const body of [{ title: 'x'.repeat(51) }, { description: 'd'.repeat(101) }, { defaultLevel: 'owner' }, { title: '' }]) {
        const res = await t.request('PATCH', collectionUrl(c.id), { token: admin.token, body });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(new RegExp(Object.keys(body)[0]));
      }
      expect((await row(c.id))?.title).toBe('C');
    });

    it('401, 403 for members who see it without admin, 404 for outsiders and unknown ids', async () => {
      const c = await create();
      expect((await t.request('PATCH', collectionUrl(c.id), { body: { title: 'No' } })).status).toBe(401);
      expect((await t.request('PATCH', collectionUrl(c.id), { token: creator.token, body: { title: 'No' } })).status).toBe(403);
      expect((await t.request('PATCH', collectionUrl(c.id), { token: outsider.token, body: { title: 'No' } })).status).toBe(404);
      expect((await t.request('PATCH', collectionUrl('unknown'), { token: admin.token, body: { title: 'No' } })).status).toBe(404);
      expect((await row(c.id))?.title).toBe('C');
    });
  });

  describe('DELETE /v1/collections/{collectionId} (deleteCollectionById)', () => {
    it('deletes it and its sub-collections with their grants, soft-deletes their spaces, in one go', async () => {
      const top = await create();
      const sub = await create({ parent: top.id });
      const subsub = await create({ parent: sub.id });
      const keep = await create();
      const s1 = await insertSpace(org.id, top.id);
      const s2 = await insertSpace(org.id, subsub.id);
      const outside = await insertSpace(org.id, keep.id);
      await grant('collection', sub.id, 'user', reader.id, 'admin');
      await grant('space', s2, 'user', reader.id, 'admin');
      const res = await t.request('DELETE', collectionUrl(top.id), { token: admin.token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      for (const id of [top.id, sub.id, subsub.id]) expect(await row(id)).toBeUndefined();
      expect(await row(keep.id)).toBeDefined();
      const spaces = await t.db.selectFrom('spaces').select(['id', 'deleted_at', 'parent_id']).where('id', 'in', [s1, s2, outside]).execute();
      const byId = Object.fromEntries(spaces.map((s) => [s.id, s]));
      expect(byId[s1].deleted_at).toEqual(expect.any(String));
      expect(byId[s2].deleted_at).toEqual(expect.any(String));
      expect(byId[outside].deleted_at).toBeNull();
      const grants = await t.db.selectFrom('content_permissions').select('target_id').where('target_id', 'in', [sub.id, s2]).execute();
      // Grants on deleted collections go; the (restorable) space keeps its own.
      expect(grants.map((g) => g.target_id)).toEqual([s2]);
      expect((await t.request('DELETE', collectionUrl(top.id), { token: admin.token })).status).toBe(204);
    });

    it('401, 403 without admin on it, 404 for outsiders; nothing deleted', async () => {
      const c = await create();
      expect((await t.request('DELETE', collectionUrl(c.id))).status).toBe(401);
      expect((await t.request('DELETE', collectionUrl(c.id), { token: creator.token })).status).toBe(403);
      expect((await t.request('DELETE', collectionUrl(c.id), { token: outsider.token })).status).toBe(404);
      expect((await t.request('DELETE', collectionUrl(c.id), { token: guest.token })).status).toBe(404);
      expect(await row(c.id)).toBeDefined();
      expect((await t.request('DELETE', collectionUrl('unknown'), { token: admin.token })).status).toBe(204);
    });
  });

  describe('POST /v1/collections/{collectionId}/move (moveCollection)', () => {
    let o: TestOrganization;
    beforeAll(async () => {
      o = await createOrganization(t);
    });
    const move = (id: string, body: unknown, token = o.admin.token) => t.request('POST', `${collectionUrl(id)}/move`, { token, body });

    it('moves into a parent (at the end), before or after siblings (spaces too), and back to the root', async () => {
      const parent = await create({}, o.admin.token, o.id);
      const a = await create({ parent: parent.id }, o.admin.token, o.id);
      const s = await insertSpace(o.id, parent.id, 1);
      const b = await create({}, o.admin.token, o.id);
      const res = await move(b.id, { parent: parent.id });
      expect(res.status).toBe(200);
      expect(res.body.parent).toBe(parent.id);
      expect(await order(parent.id, o.id)).toEqual([`c:${a.id}`, `s:${s}`, `c:${b.id}`]);
      expect((await move(b.id, { position: { before: { type: 'collection', collection: a.id } } })).status).toBe(200);
      expect(await order(parent.id, o.id)).toEqual([`c:${b.id}`, `c:${a.id}`, `s:${s}`]);
      expect((await move(b.id, { position: { after: { type: 'space', space: s } } })).status).toBe(200);
      expect(await order(parent.id, o.id)).toEqual([`c:${a.id}`, `s:${s}`, `c:${b.id}`]);
      expect((await move(b.id, { parent: parent.id, position: { after: { type: 'collection', collection: a.id } } })).status).toBe(200);
      expect(await order(parent.id, o.id)).toEqual([`c:${a.id}`, `c:${b.id}`, `s:${s}`]);
      const root = await move(b.id, { parent: null, position: { before: { type: 'collection', collection: parent.id } } });
      expect(root.status).toBe(200);
      expect(root.body.parent).toBeUndefined();
      expect(await order(null, o.id)).toEqual([`c:${b.id}`, `c:${parent.id}`]);
      expect(await order(parent.id, o.id)).toEqual([`c:${a.id}`, `s:${s}`]);
    });

    it('400 for moving into itself or a descendant, a bad position, an empty body', async () => {
      const top = await create({}, o.admin.token, o.id);
      const sub = await create({ parent: top.id }, o.admin.token, o.id);
      const other = await create({}, o.admin.token, o.id);
      const cases: [unknown, RegExp][] = [
        [{ parent: top.id }, /itself/],
        [{ parent: sub.id }, /sub-collections/],
        [{}, /parent|position|properties/],
        [{ position: {} }, /position/],
        [{ position: { before: { type: 'collection', collection: other.id }, after: { type: 'collection', collection: other.id } } }, /position/],
        [{ position: { before: { type: 'collection', collection: 'unknown' } } }, /position/],
        [{ parent: other.id, position: { before: { type: 'collection', collection: sub.id } } }, /position/],
        [{ position: { before: { type: 'folder', folder: 'x' } } }, /position/],
        [{ parent: 42 }, /parent/],
      ];
      for (const [body, message] of cases) {
        const res = await move(top.id, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.message).toMatch(message);
      }
      expect((await row(top.id))?.parent_id).toBeNull();
    });

    it('401, 403 without admin on it or create where it lands, 404 for unknown parents and collections', async () => {
      const c = await create({}, o.admin.token, o.id);
      const target = await create({}, o.admin.token, o.id);
      expect((await move(c.id, { parent: target.id }, '')).status).toBe(401);
      const member = await createMember(t, o.id, 'create');
      expect((await move(c.id, { parent: target.id }, member.token)).status).toBe(403);
      // Admin of the collection by grant, but only read where it would land.
      const granted = await createMember(t, o.id, 'read');
      await grant('collection', c.id, 'user', granted.id, 'admin', o.id);
      expect((await move(c.id, { parent: target.id }, granted.token)).status).toBe(403);
      expect((await move(c.id, { parent: target.id }, outsider.token)).status).toBe(404);
      const unknownParent = await move(c.id, { parent: 'unknown' });
      expect(unknownParent.status).toBe(404);
      expect(unknownParent.body.error.message).toBe('Parent collection not found');
      expect((await move('unknown', { parent: null })).status).toBe(404);
      expect((await row(c.id))?.parent_id).toBeNull();
    });
  });

  describe('POST /v1/collections/{collectionId}/transfer (transferCollection)', () => {
    it('moves the collection, its sub-collections and their spaces; drops their grants', async () => {
      const from = await createOrganization(t);
      const to = await createOrganization(t, { admin: from.admin });
      const member = await createMember(t, from.id, 'read');
      const top = await create({}, from.admin.token, from.id);
      const sub = await create({ parent: top.id }, from.admin.token, from.id);
      const space = await insertSpace(from.id, sub.id);
      await grant('collection', top.id, 'user', member.id, 'admin', from.id);
      await grant('space', space, 'user', member.id, 'admin', from.id);
      const res = await t.request('POST', `${collectionUrl(top.id)}/transfer`, { token: from.admin.token, body: { organization: to.id } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: top.id, organization: to.id });
      expect(res.body.parent).toBeUndefined();
      expect((await row(sub.id))?.organization_id).toBe(to.id);
      expect((await t.db.selectFrom('spaces').select('organization_id').where('id', '=', space).executeTakeFirst())?.organization_id).toBe(to.id);
      expect(await t.db.selectFrom('content_permissions').selectAll().where('target_id', 'in', [top.id, space]).execute()).toEqual([]);
      expect((await t.request('GET', collectionUrl(top.id), { token: member.token })).status).toBe(404);
    });

    it('401, 400, 403 unless admin of both, 404 for unknown targets, 409 for the same organization', async () => {
      const from = await createOrganization(t);
      const c = await create({}, from.admin.token, from.id);
      const url = `${collectionUrl(c.id)}/transfer`;
      expect((await t.request('POST', url, { body: { organization: org.id } })).status).toBe(401);
      expect((await t.request('POST', url, { token: from.admin.token, body: {} })).status).toBe(400);
      expect((await t.request('POST', url, { token: from.admin.token, body: { organization: org.id } })).status).toBe(404);
      const readerThere = await createOrganization(t);
      await createMember(t, readerThere.id, 'read', { user: from.admin });
      expect((await t.request('POST', url, { token: from.admin.token, body: { organization: readerThere.id } })).status).toBe(403);
      const creatorHere = await createMember(t, from.id, 'create');
      expect((await t.request('POST', url, { token: creatorHere.token, body: { organization: readerThere.id } })).status).toBe(403);
      expect((await t.request('POST', url, { token: from.admin.token, body: { organization: from.id } })).status).toBe(409);
      expect((await t.request('POST', `${collectionUrl('unknown')}/transfer`, { token: from.admin.token, body: { organization: from.id } })).status).toBe(404);
      expect((await row(c.id))?.organization_id).toBe(from.id);
    });
  });
});
