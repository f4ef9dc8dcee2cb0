import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, createTeam, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { createRoleMatrix } from '../../../test/role-matrix.ts';
import type { DefaultLevel, RoleName } from '../../db/types.ts';
import { newId } from '../../lib/ids.ts';
import { sha256 } from '../../files/hashing.ts';
import { editSpaceContent } from '../content/content.service.ts';
import { purgeExpiredSpaces } from './spaces.service.ts';

const DAY = 24 * 3600 * 1000;
const RANK: Record<RoleName, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };

/** The Space `permissions` expected for an effective role (members; `locked` space; outsiders only view). */
function permissionsFor(role: RoleName | null, { member = true, locked = false } = {}) {
  const at = (min: RoleName) => role !== null && RANK[role] >= RANK[min];
  const m = (min: RoleName) => member && at(min);
  return {
    view: at('read'),
    access: m('read'),
    admin: m('admin'),
    viewInviteLinks: m('admin'),
    edit: m('edit') && !locked,
    triggerGitSync: m('edit'),
    comment: m('comment'),
    merge: m('review') && !locked,
    review: m('review'),
    installIntegration: m('admin'),
  };
}

describe('spaces', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: TestUser;
  let reader: TestUser;
  let editor: TestUser;
  let creator: TestUser;
  let guest: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    ({ org, admin, reader, editor, creator, guest, outsider } = await createRoleMatrix(t, { title: 'Acme', roles: ['read', 'edit', 'create', 'guest'] }));
  });
  afterAll(async () => {
    await t.close();
  });

  const orgSpacesUrl = (orgId = org.id) => `/v1/orgs/${orgId}/spaces`;
  const spaceUrl = (id: string) => `/v1/spaces/${id}`;

  async function newSpace(token = admin.token, body: Record<string, unknown> = {}, orgId = org.id) {
    const res = await t.request('POST', orgSpacesUrl(orgId), { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    t.clock.advance(1000);
    return res.body;
  }

  async function newCollection(orgId = org.id, options: { parent?: string | null; defaultLevel?: DefaultLevel } = {}) {
    const id = newId();
    const now = t.clock.now().toISOString();
    await t.db
      .insertInto('collections')
      .values({
        id,
        organization_id: orgId,
        title: `Collection ${id.slice(0, 4)}`,
        description: null,
        parent_id: options.parent ?? null,
        position: 0,
        default_level: options.defaultLevel ?? null,
        created_by: admin.id,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  async function grant(
    target: { type: 'space' | 'collection'; id: string },
    principal: { type: 'user' | 'team'; id: string },
    role: RoleName,
    orgId = org.id,
  ) {
    await t.db
      .insertInto('content_permissions')
      .values({
        target_type: target.type,
        target_id: target.id,
        organization_id: orgId,
        principal_type: principal.type,
        principal_id: principal.id,
        role,
        created_at: t.clock.now().toISOString(),
      })
      .execute();
  }

  const spaceRow = (id: string) => t.db.selectFrom('spaces').selectAll().where('id', '=', id).executeTakeFirst();

  async function count(table: 'revisions' | 'content_objects' | 'space_blobs' | 'content_permissions', column: 'space_id' | 'target_id', id: string) {
    const row = await t.db
      .selectFrom(table as 'revisions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(column as 'space_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Every id of a list, following next.page. */
  async function listAll(url: string, token: string, limit = 2): Promise<string[]> {
    const ids: string[] = [];
    let page: string | undefined;
    for (let i = 0; i < 100; i++) {
      const res = await t.request('GET', url, { token, query: { limit, ...(page ? { page } : {}) } });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(limit);
      ids.push(...res.body.items.map((s: { id: string }) => s.id));
      page = res.body.next?.page;
      if (!page) return ids;
    }
    throw new Error('list did not end');
  }

  describe('POST /v1/orgs/{organizationId}/spaces (createSpace)', () => {
    it('201 with the defaults, Location header, and a revision that {S}/content answers', async () => {
      const res = await t.request('POST', orgSpacesUrl(), { token: admin.token, body: { title: ' Handbook ', emoji: '1f4d8' } });
      expect(res.status).toBe(201);
      expect(res.headers.location).toBe(`http://quire.test/v1/spaces/${res.body.id}`);
      expect(res.body).toEqual({
        object: 'space',
        id: expect.any(String),
        title: 'Handbook',
        emoji: '1f4d8',
        visibility: 'private',
        createdAt: t.clock.now().toISOString(),
        updatedAt: t.clock.now().toISOString(),
        editMode: 'live',
        mergeRules: { type: 'inherit' },
        urls: { location: res.headers.location, app: `http://quire.test/app/s/${res.body.id}` },
        organization: org.id,
        revision: expect.any(String),
        defaultLevel: 'inherit',
        comments: 0,
        changeRequests: 0,
        changeRequestsOpen: 0,
        changeRequestsDraft: 0,
        permissions: permissionsFor('admin'),
      });
      expect(await spaceRow(res.body.id)).toMatchObject({ organization_id: org.id, title: 'Handbook', created_by: admin.id, revision_id: res.body.revision, deleted_at: null });
      const content = await t.request('GET', `${spaceUrl(res.body.id)}/content`, { token: admin.token });
      expect(content.status).toBe(200);
      expect(content.body).toMatchObject({ object: 'revision', id: res.body.revision, parents: [], pages: [], files: [] });
      const back = await t.request('GET', spaceUrl(res.body.id), { token: admin.token });
      expect(back.body).toEqual(res.body);
    });

    it('no body: an untitled space; given fields are kept', async () => {
      const res = await t.request('POST', orgSpacesUrl(), { token: creator.token });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ title: 'Untitled', emoji: '', visibility: 'private' });
      expect(res.body.permissions).toEqual(permissionsFor('create'));
      const full = await newSpace(admin.token, { title: 'x'.repeat(50), emoji: 'e'.repeat(50), language: 'fr', editMode: 'locked', visibility: 'unlisted' });
      expect(full).toMatchObject({ title: 'x'.repeat(50), emoji: 'e'.repeat(50), language: 'fr', editMode: 'locked', visibility: 'unlisted' });
      expect(full.permissions).toEqual(permissionsFor('admin', { locked: true }));
    });

    it('400 naming the field: title or emoji over 50, unknown visibility, language or editMode', async () => {
      const before = await t.db.selectFrom('spaces').select('id').execute();
      for (const [body, field] of [
        [{ title: 'x'.repeat(51) }, 'title'],
        [{ emoji: 'e'.repeat(51) }, 'emoji'],
        [{ visibility: 'secret' }, 'visibility'],
        [{ language: 'klingon' }, 'language'],
        [{ editMode: 'frozen' }, 'editMode'],
        [{ title: 5 }, 'title'],
      ] as const) {
        const res = await t.request('POST', orgSpacesUrl(), { token: admin.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.message).toContain(field);
      }
      const inCollection = await t.request('POST', orgSpacesUrl(), { token: admin.token, body: { visibility: 'in-collection' } });
      expect(inCollection.status).toBe(400);
      expect(inCollection.body.error.message).toContain('visibility');
      expect(await t.db.selectFrom('spaces').select('id').execute()).toHaveLength(before.length);
    });

    it('401 without a token; 404 for non-members and unknown organizations; 403 below the create role', async () => {
      expect((await t.request('POST', orgSpacesUrl(), { body: {} })).status).toBe(401);
      expect((await t.request('POST', orgSpacesUrl(), { token: 'qr_nope', body: {} })).status).toBe(401);
      const foreign = await t.request('POST', orgSpacesUrl(), { token: outsider.token, body: {} });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.message).toMatch(/Organization/);
      expect((await t.request('POST', orgSpacesUrl('no-such-org'), { token: admin.token, body: {} })).status).toBe(404);
      for (const caller of [reader, editor, guest]) {
        const res = await t.request('POST', orgSpacesUrl(), { token: caller.token, body: { title: 'Nope' } });
        expect(res.status).toBe(403);
      }
      expect(await t.db.selectFrom('spaces').select('id').where('title', '=', 'Nope').execute()).toEqual([]);
    });

    it('in a parent collection: needs create there (a guest granted create may; a reader may not); unknown collection 404', async () => {
      const collection = await newCollection();
      const denied = await t.request('POST', orgSpacesUrl(), { token: reader.token, body: { parent: collection } });
      expect(denied.status).toBe(403);
      // A guest sees nothing until granted; then the grant decides.
      expect((await t.request('POST', orgSpacesUrl(), { token: guest.token, body: { parent: collection } })).status).toBe(404);
      const g = await createMember(t, org.id, null);
      await grant({ type: 'collection', id: collection }, { type: 'user', id: g.id }, 'create');
      const created = await newSpace(g.token, { parent: collection, visibility: 'in-collection', title: 'Inside' });
      expect(created).toMatchObject({ parent: collection, visibility: 'in-collection' });
      expect(created.permissions).toEqual(permissionsFor('create'));
      const unknown = await t.request('POST', orgSpacesUrl(), { token: admin.token, body: { parent: 'no-such-collection' } });
      expect(unknown.status).toBe(404);
      // A collection of another organization is unknown here.
      const other = await createOrganization(t);
      const foreignCollection = await newCollection(other.id);
      expect((await t.request('POST', orgSpacesUrl(), { token: admin.token, body: { parent: foreignCollection } })).status).toBe(404);
    });
  });

  describe('GET /v1/orgs/{organizationId}/spaces and /v1/collections/{collectionId}/spaces', () => {
    let o: TestOrganization;
    let member: TestUser;
    let g: TestUser;
    let teamGuest: TestUser;
    let spaces: { id: string }[];
    let collection: string;
    let inner: string;
    let visible: string[];

    beforeAll(async () => {
      o = await createOrganization(t);
      member = await createMember(t, o.id, 'read');
      g = await createMember(t, o.id, null);
      teamGuest = await createMember(t, o.id, null);
      collection = await newCollection(o.id);
      inner = await newCollection(o.id, { parent: collection });
      spaces = [];
      for (let i = 0; i < 5; i++) spaces.push(await newSpace(o.admin.token, { title: `Root ${i}` }, o.id));
      spaces.push(await newSpace(o.admin.token, { title: 'In collection', parent: collection }, o.id)); // 5
      spaces.push(await newSpace(o.admin.token, { title: 'In inner', parent: inner }, o.id)); // 6
      spaces.push(await newSpace(o.admin.token, { title: 'Public', visibility: 'public' }, o.id)); // 7
      spaces.push(await newSpace(o.admin.token, { title: 'Unlisted', visibility: 'unlisted' }, o.id)); // 8
      spaces.push(await newSpace(o.admin.token, { title: 'Share link', visibility: 'share-link' }, o.id)); // 9
      await grant({ type: 'space', id: spaces[1].id }, { type: 'user', id: g.id }, 'read', o.id);
      await grant({ type: 'collection', id: inner }, { type: 'user', id: g.id }, 'comment', o.id);
      const team = await createTeam(t, o.id, { members: [{ userId: teamGuest.id }] });
      await grant({ type: 'space', id: spaces[3].id }, { type: 'team', id: team.id }, 'edit', o.id);
      visible = [spaces[1].id, spaces[6].id, spaces[7].id, spaces[8].id];
    });

    it('members with a role see every live space, oldest first, in pages of `limit`', async () => {
      const first = await t.request('GET', orgSpacesUrl(o.id), { token: member.token, query: { limit: 3 } });
      expect(first.status).toBe(200);
      expect(first.body.count).toBe(10);
      expect(first.body.items.map((s: { id: string }) => s.id)).toEqual(spaces.slice(0, 3).map((s) => s.id));
      expect(first.body.next.page).toEqual(expect.any(String));
      expect(first.body.items[0].permissions).toEqual(permissionsFor('read'));
      expect(await listAll(orgSpacesUrl(o.id), member.token, 3)).toEqual(spaces.map((s) => s.id));
      expect(await listAll(orgSpacesUrl(o.id), o.admin.token, 1000)).toEqual(spaces.map((s) => s.id));
      const bad = await t.request('GET', orgSpacesUrl(o.id), { token: member.token, query: { limit: 0 } });
      expect(bad.status).toBe(400);
    });

    it('guests see only what grants (direct, team, collection and below) and public/unlisted open, with their role', async () => {
      const res = await t.request('GET', orgSpacesUrl(o.id), { token: g.token });
      expect(res.status).toBe(200);
      expect(res.body.items.map((s: { id: string }) => s.id)).toEqual(visible);
      expect(res.body.count).toBe(visible.length);
      const byId = Object.fromEntries(res.body.items.map((s: { id: string; permissions: unknown }) => [s.id, s.permissions]));
      expect(byId[spaces[1].id]).toEqual(permissionsFor('read'));
      expect(byId[spaces[6].id]).toEqual(permissionsFor('comment'));
      expect(byId[spaces[7].id]).toEqual(permissionsFor('read'));
      expect(await listAll(orgSpacesUrl(o.id), g.token, 1)).toEqual(visible);

      const viaTeam = await t.request('GET', orgSpacesUrl(o.id), { token: teamGuest.token });
      expect(viaTeam.body.items.map((s: { id: string }) => s.id)).toEqual([spaces[3].id, spaces[7].id, spaces[8].id]);
      expect(viaTeam.body.items[0].permissions).toEqual(permissionsFor('edit'));
    });

    it('deleted spaces are not listed; 401; outsiders and unknown organizations 404', async () => {
      const doomed = await newSpace(o.admin.token, { title: 'Doomed' }, o.id);
      expect(await listAll(orgSpacesUrl(o.id), o.admin.token, 1000)).toContain(doomed.id);
      expect((await t.request('DELETE', spaceUrl(doomed.id), { token: o.admin.token })).status).toBe(204);
      expect(await listAll(orgSpacesUrl(o.id), o.admin.token, 1000)).not.toContain(doomed.id);
      expect((await t.request('GET', orgSpacesUrl(o.id))).status).toBe(401);
      expect((await t.request('GET', orgSpacesUrl(o.id), { token: outsider.token })).status).toBe(404);
      expect((await t.request('GET', orgSpacesUrl(o.id), { token: admin.token })).status).toBe(404);
      expect((await t.request('GET', orgSpacesUrl('nope'), { token: o.admin.token })).status).toBe(404);
    });

    it('a collection lists its own spaces (not those of subcollections); guests need access to the collection', async () => {
      const res = await t.request('GET', `/v1/collections/${collection}/spaces`, { token: member.token });
      expect(res.status).toBe(200);
      expect(res.body.items.map((s: { id: string }) => s.id)).toEqual([spaces[5].id]);
      const innerList = await t.request('GET', `/v1/collections/${inner}/spaces`, { token: g.token });
      expect(innerList.status).toBe(200);
      expect(innerList.body.items.map((s: { id: string }) => s.id)).toEqual([spaces[6].id]);
      expect((await t.request('GET', `/v1/collections/${collection}/spaces`, { token: g.token })).status).toBe(404);
      expect((await t.request('GET', `/v1/collections/${collection}/spaces`, { token: outsider.token })).status).toBe(404);
      expect((await t.request('GET', `/v1/collections/nope/spaces`, { token: o.admin.token })).status).toBe(404);
      expect((await t.request('GET', `/v1/collections/${collection}/spaces`)).status).toBe(401);
    });
  });

  describe('GET /v1/spaces/{spaceId} (getSpaceById) and visibility', () => {
    it('401; 404 for unknown spaces; org members with a role see private spaces; guests do not', async () => {
      const space = await newSpace();
      expect((await t.request('GET', spaceUrl(space.id))).status).toBe(401);
      const unknown = await t.request('GET', spaceUrl('no-such-space'), { token: admin.token });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: { code: 404, message: 'Space not found' } });
      const seen = await t.request('GET', spaceUrl(space.id), { token: reader.token });
      expect(seen.status).toBe(200);
      expect(seen.body.permissions).toEqual(permissionsFor('read'));
      expect((await t.request('GET', spaceUrl(space.id), { token: guest.token })).status).toBe(404);
      expect((await t.request('GET', spaceUrl(space.id), { token: outsider.token })).status).toBe(404);
    });

    it('each visibility: public and unlisted open reading to anyone signed in; share-link only with its key', async () => {
      const expectations: Record<string, boolean> = {
        public: true,
        unlisted: true,
        'share-link': false,
        'visitor-auth': false,
        'in-collection': false,
        private: false,
      };
      const collection = await newCollection();
      for (const [visibility, open] of Object.entries(expectations)) {
        const space = await newSpace(admin.token, { visibility, ...(visibility === 'in-collection' ? { parent: collection } : {}) });
        expect(space.visibility).toBe(visibility);
        for (const caller of [outsider, guest]) {
          const res = await t.request('GET', spaceUrl(space.id), { token: caller.token });
          expect(res.status, `${visibility} for ${caller === guest ? 'guest' : 'outsider'}`).toBe(open ? 200 : 404);
          if (open) expect(res.body.permissions).toEqual(permissionsFor('read', { member: caller === guest }));
        }
        // Members with an organization role see every visibility.
        expect((await t.request('GET', spaceUrl(space.id), { token: reader.token })).status).toBe(200);
      }
    });

    it('share-link: the right shareKey opens reading (space and content), a wrong one or none does not', async () => {
      const space = await newSpace(admin.token, { visibility: 'share-link' });
      const { share_key: shareKey } = (await spaceRow(space.id))!;
      expect((await t.request('GET', spaceUrl(space.id), { token: outsider.token })).status).toBe(404);
      expect((await t.request('GET', spaceUrl(space.id), { token: outsider.token, query: { shareKey: 'wrong' } })).status).toBe(404);
      const ok = await t.request('GET', spaceUrl(space.id), { token: outsider.token, query: { shareKey } });
      expect(ok.status).toBe(200);
      expect(ok.body.permissions).toEqual(permissionsFor('read', { member: false }));
      expect((await t.request('GET', `${spaceUrl(space.id)}/content`, { token: outsider.token, query: { shareKey } })).status).toBe(200);
      expect((await t.request('GET', `${spaceUrl(space.id)}/content`, { token: outsider.token })).status).toBe(404);
      // The key opens nothing once the space is private again.
      await t.request('PATCH', spaceUrl(space.id), { token: admin.token, body: { visibility: 'private' } });
      expect((await t.request('GET', spaceUrl(space.id), { token: outsider.token, query: { shareKey } })).status).toBe(404);
      // A share key does not let an outsider act.
      await t.request('PATCH', spaceUrl(space.id), { token: admin.token, body: { visibility: 'public' } });
      expect((await t.request('PATCH', spaceUrl(space.id), { token: outsider.token, body: { title: 'Mine' } })).status).toBe(403);
    });
  });

  describe('effective role: each way to gain one', () => {
    /** Checks `permissions` in GET {S} and what the role allows: rename (edit), settings (admin). */
    async function expectRole(spaceId: string, user: TestUser, role: RoleName | null) {
      const res = await t.request('GET', spaceUrl(spaceId), { token: user.token });
      if (role === null) {
        expect(res.status).toBe(404);
        return;
      }
      expect(res.status).toBe(200);
      expect(res.body.permissions).toEqual(permissionsFor(role));
      const rename = await t.request('PATCH', spaceUrl(spaceId), { token: user.token, body: { title: `By ${role}` } });
      expect(rename.status).toBe(RANK[role] >= RANK.edit ? 200 : 403);
      const settings = await t.request('PATCH', spaceUrl(spaceId), { token: user.token, body: { editMode: 'live' } });
      expect(settings.status).toBe(role === 'admin' ? 200 : 403);
    }

    it('the organization role', async () => {
      const space = await newSpace();
      await expectRole(space.id, reader, 'read');
      await expectRole(space.id, editor, 'edit');
      await expectRole(space.id, creator, 'create');
      await expectRole(space.id, admin, 'admin');
      await expectRole(space.id, guest, null);
    });

    it('a direct grant (the highest of grant and org role wins)', async () => {
      const space = await newSpace();
      const g = await createMember(t, org.id, null);
      await expectRole(space.id, g, null);
      await grant({ type: 'space', id: space.id }, { type: 'user', id: g.id }, 'edit');
      await expectRole(space.id, g, 'edit');
      const r = await createMember(t, org.id, 'read');
      await grant({ type: 'space', id: space.id }, { type: 'user', id: r.id }, 'admin');
      await expectRole(space.id, r, 'admin');
      const c = await createMember(t, org.id, 'create');
      await grant({ type: 'space', id: space.id }, { type: 'user', id: c.id }, 'read');
      await expectRole(space.id, c, 'create');
      // Grants to someone outside the organization open nothing.
      await grant({ type: 'space', id: space.id }, { type: 'user', id: outsider.id }, 'admin');
      await expectRole(space.id, outsider, null);
    });

    it('a grant to one of their teams', async () => {
      const space = await newSpace();
      const g = await createMember(t, org.id, null);
      const team = await createTeam(t, org.id, { members: [{ userId: g.id }] });
      await grant({ type: 'space', id: space.id }, { type: 'team', id: team.id }, 'admin');
      await expectRole(space.id, g, 'admin');
    });

    it('a grant on the parent collection and on a grandparent collection', async () => {
      const top = await newCollection();
      const mid = await newCollection(org.id, { parent: top });
      const space = await newSpace(admin.token, { parent: mid });
      const p = await createMember(t, org.id, null);
      const gp = await createMember(t, org.id, null);
      await grant({ type: 'collection', id: mid }, { type: 'user', id: p.id }, 'comment');
      await grant({ type: 'collection', id: top }, { type: 'user', id: gp.id }, 'review');
      await expectRole(space.id, p, 'comment');
      await expectRole(space.id, gp, 'review');
    });

    it('defaultLevel on the space applies to members with an org role, not to guests; null gives nothing', async () => {
      const space = await newSpace();
      const r = await createMember(t, org.id, 'read');
      const g = await createMember(t, org.id, null);
      const patched = await t.request('PATCH', spaceUrl(space.id), { token: admin.token, body: { defaultLevel: 'edit' } });
      expect(patched.status).toBe(200);
      expect(patched.body.defaultLevel).toBe('edit');
      await expectRole(space.id, r, 'edit');
      await expectRole(space.id, g, null);
      await t.request('PATCH', spaceUrl(space.id), { token: admin.token, body: { defaultLevel: null } });
      expect((await spaceRow(space.id))!.default_level).toBeNull();
      await expectRole(space.id, r, 'read');
    });

    it("defaultLevel 'inherit' takes the nearest collection's level, walking up through 'inherit'", async () => {
      const top = await newCollection(org.id, { defaultLevel: 'review' });
      const mid = await newCollection(org.id, { parent: top, defaultLevel: 'inherit' });
      const space = await newSpace(admin.token, { parent: mid });
      expect(space.defaultLevel).toBe('inherit');
      const r = await createMember(t, org.id, 'read');
      await expectRole(space.id, r, 'review');
      const near = await newCollection(org.id, { defaultLevel: 'comment' });
      const other = await newSpace(admin.token, { parent: near });
      await expectRole(other.id, r, 'comment');
      await expectRole(other.id, guest, null);
    });

    it('a locked space: edit and merge are off even for admins', async () => {
      const space = await newSpace(admin.token, { editMode: 'locked' });
      const res = await t.request('GET', spaceUrl(space.id), { token: editor.token });
      expect(res.body.permissions).toEqual(permissionsFor('edit', { locked: true }));
    });
  });

  describe('PATCH /v1/spaces/{spaceId} (updateSpaceById)', () => {
    it('each field, read back', async () => {
      const space = await newSpace(admin.token, { title: 'Before', emoji: 'x' });
      t.clock.advance(5000);
      const cases: [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>][] = [
        [{ title: '  After ' }, { title: 'After' }, { title: 'After' }],
        [{ emoji: '1f680' }, { emoji: '1f680' }, { emoji: '1f680' }],
        [{ emoji: null }, { emoji: '' }, { emoji: '' }],
        [{ language: 'de' }, { language: 'de' }, { language: 'de' }],
        [{ editMode: 'locked' }, { editMode: 'locked' }, { edit_mode: 'locked' }],
        [{ defaultLevel: 'comment' }, { defaultLevel: 'comment' }, { default_level: 'comment' }],
        [{ defaultLevel: 'inherit' }, { defaultLevel: 'inherit' }, { default_level: 'inherit' }],
        [{ visibility: 'unlisted' }, { visibility: 'unlisted' }, { visibility: 'unlisted' }],
        [{ mergeRules: { type: 'none' } }, { mergeRules: { type: 'none' } }, { merge_rules: '{"type":"none"}' }],
        [
          { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reader.id, reader.id] }] } },
          { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reader.id] }] } },
          {},
        ],
        [{ mergeRules: { type: 'inherit' } }, { mergeRules: { type: 'inherit' } }, { merge_rules: '{"type":"inherit"}' }],
      ];
      for (const [body, wire, row] of cases) {
        const res = await t.request('PATCH', spaceUrl(space.id), { token: admin.token, body });
        expect(res.status, JSON.stringify(body)).toBe(200);
        expect(res.body).toMatchObject(wire);
        expect(res.body.updatedAt).toBe(t.clock.now().toISOString());
        expect(await spaceRow(space.id)).toMatchObject(row);
        const back = await t.request('GET', spaceUrl(space.id), { token: admin.token });
        expect(back.body).toEqual(res.body);
      }
      expect(space.createdAt).not.toBe((await spaceRow(space.id))!.updated_at);
    });

    it('the edit role renames (title, emoji, language) but may not change editMode, defaultLevel, mergeRules or visibility', async () => {
      const space = await newSpace();
      const ok = await t.request('PATCH', spaceUrl(space.id), { token: editor.token, body: { title: 'Renamed', emoji: 'e', language: 'es' } });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ title: 'Renamed', emoji: 'e', language: 'es' });
      for (const body of [{ editMode: 'locked' }, { defaultLevel: 'admin' }, { mergeRules: { type: 'none' } }, { visibility: 'public' }, { title: 'x', visibility: 'public' }]) {
        const res = await t.request('PATCH', spaceUrl(space.id), { token: editor.token, body });
        expect(res.status, JSON.stringify(body)).toBe(403);
      }
      expect(await spaceRow(space.id)).toMatchObject({ title: 'Renamed', edit_mode: 'live', default_level: 'inherit', visibility: 'private', merge_rules: '{"type":"inherit"}' });
      expect((await t.request('PATCH', spaceUrl(space.id), { token: reader.token, body: { title: 'No' } })).status).toBe(403);
      expect((await t.request('PATCH', spaceUrl(space.id), { token: guest.token, body: { title: 'No' } })).status).toBe(404);
      expect((await t.request('PATCH', spaceUrl(space.id), { body: { title: 'No' } })).status).toBe(401);
      expect((await t.request('PATCH', spaceUrl('nope'), { token: admin.token, body: { title: 'No' } })).status).toBe(404);
    });

    it('400: title over 50, reviewers who are not members, in-collection on a root space, unknown values', async () => {
      const space = await newSpace();
      const cases: [Record<string, unknown>, string][] = [
        [{ title: 'x'.repeat(51) }, 'title'],
        [{ emoji: 'e'.repeat(51) }, 'emoji'],
        [{ mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [outsider.id, reader.id] }] } }, 'mergeRules'],
        [{ visibility: 'in-collection' }, 'visibility'],
        [{ defaultLevel: 'owner' }, 'defaultLevel'],
        [{ editMode: 'frozen' }, 'editMode'],
      ];
      for (const [body, field] of cases) {
        const res = await t.request('PATCH', spaceUrl(space.id), { token: admin.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.message).toContain(field);
      }
      const bad = await t.request('PATCH', spaceUrl(space.id), {
        token: admin.token,
        body: { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [outsider.id] }] } },
      });
      expect(bad.body.error.message).toContain(outsider.id);
      expect(await spaceRow(space.id)).toMatchObject({ title: space.title, visibility: 'private', merge_rules: '{"type":"inherit"}' });
      // In a collection, in-collection is accepted.
      const collection = await newCollection();
      const inside = await newSpace(admin.token, { parent: collection });
      const ok = await t.request('PATCH', spaceUrl(inside.id), { token: admin.token, body: { visibility: 'in-collection' } });
      expect(ok.status).toBe(200);
      expect(ok.body.visibility).toBe('in-collection');
    });
  });

  describe('urls.published', () => {
    it('points at the space’s site space on a published site, and is public only on a public site', async () => {
      const space = await newSpace();
      const site = await t.request('POST', `/v1/orgs/${org.id}/sites`, { token: admin.token, body: { title: 'Docs site', spaces: [space.id] } });
      expect(site.status).toBe(201);
      // Not published yet: no published URL.
      expect((await t.request('GET', `/v1/spaces/${space.id}`, { token: admin.token })).body.urls.published).toBeUndefined();
      expect((await t.request('POST', `/v1/orgs/${org.id}/sites/${site.body.id}/publish`, { token: admin.token })).status).toBe(200);
      const siteSpaces = await t.request('GET', `/v1/orgs/${org.id}/sites/${site.body.id}/site-spaces`, { token: admin.token });
      const expected = siteSpaces.body.items[0].urls.published;
      expect(expected).toMatch(/^http:\/\/quire\.test\/sites\//);
      const got = (await t.request('GET', `/v1/spaces/${space.id}`, { token: admin.token })).body.urls;
      expect(got.published).toBe(expected);
      expect(got.public).toBe(expected);
      // Lists show it too; an unlisted site gives a published URL but no public one.
      const listed = (await t.request('GET', `/v1/orgs/${org.id}/spaces`, { token: admin.token, query: { limit: 1000 } })).body.items.find(
        (s: { id: string }) => s.id === space.id,
      );
      expect(listed.urls.published).toBe(expected);
      await t.request('PATCH', `/v1/orgs/${org.id}/sites/${site.body.id}`, { token: admin.token, body: { visibility: 'unlisted' } });
      const unlisted = (await t.request('GET', `/v1/spaces/${space.id}`, { token: admin.token })).body.urls;
      expect(unlisted.published).toBe(expected);
      expect(unlisted.public).toBeUndefined();
    });
  });

  describe('DELETE, restore and purge', () => {
    it('204, also when absent or already deleted; hidden from GET and lists; deletedAt in the row', async () => {
      const space = await newSpace();
      expect((await t.request('DELETE', spaceUrl(space.id), { token: editor.token })).status).toBe(403);
      expect((await t.request('DELETE', spaceUrl(space.id), { token: guest.token })).status).toBe(404);
      expect((await t.request('DELETE', spaceUrl(space.id))).status).toBe(401);
      expect((await spaceRow(space.id))!.deleted_at).toBeNull();
      const res = await t.request('DELETE', spaceUrl(space.id), { token: admin.token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await spaceRow(space.id))!.deleted_at).toBe(t.clock.now().toISOString());
      expect((await t.request('DELETE', spaceUrl(space.id), { token: admin.token })).status).toBe(204);
      expect((await t.request('DELETE', spaceUrl('no-such-space'), { token: admin.token })).status).toBe(204);
      expect((await t.request('GET', spaceUrl(space.id), { token: admin.token })).status).toBe(404);
      expect((await t.request('GET', `${spaceUrl(space.id)}/content`, { token: admin.token })).status).toBe(404);
      expect((await t.request('PATCH', spaceUrl(space.id), { token: admin.token, body: { title: 'x' } })).status).toBe(404);
      expect(await listAll(orgSpacesUrl(), admin.token, 1000)).not.toContain(space.id);
    });

    it('restore within 7 days: 200 without deletedAt, back in lists; non-admins 403; after 8 days 404', async () => {
      const space = await newSpace(admin.token, { title: 'Comes back' });
      await t.request('DELETE', spaceUrl(space.id), { token: admin.token });
      t.clock.advance(6 * DAY);
      expect((await t.request('POST', `${spaceUrl(space.id)}/restore`, { token: editor.token })).status).toBe(403);
      expect((await t.request('POST', `${spaceUrl(space.id)}/restore`, { token: guest.token })).status).toBe(404);
      const res = await t.request('POST', `${spaceUrl(space.id)}/restore`, { token: admin.token });
      expect(res.status).toBe(200);
      expect(res.body.deletedAt).toBeUndefined();
      expect(res.body).toMatchObject({ id: space.id, title: 'Comes back', revision: space.revision });
      expect((await spaceRow(space.id))!.deleted_at).toBeNull();
      expect((await t.request('GET', spaceUrl(space.id), { token: admin.token })).status).toBe(200);
      expect(await listAll(orgSpacesUrl(), admin.token, 1000)).toContain(space.id);
      // Restoring a live space answers it as it is.
      expect((await t.request('POST', `${spaceUrl(space.id)}/restore`, { token: admin.token })).status).toBe(200);

      await t.request('DELETE', spaceUrl(space.id), { token: admin.token });
      t.clock.advance(8 * DAY);
      expect((await t.request('POST', `${spaceUrl(space.id)}/restore`, { token: admin.token })).status).toBe(404);
      expect((await spaceRow(space.id))!.deleted_at).not.toBeNull();
      expect((await t.request('POST', `${spaceUrl('nope')}/restore`, { token: admin.token })).status).toBe(404);
    });

    it('purge: removes the row, revisions, objects, blob references, grants, and blob files no other space holds', async () => {
      const shared = Buffer.from('shared bytes ' + newId());
      const own = Buffer.from('own bytes ' + newId());
      const space = await newSpace();
      const other = await newSpace();
      await editSpaceContent(t.app.deps, space.id, admin.id, (e) => {
        e.insertPage({ title: 'A', markdown: '# A\n' });
        e.addFile({ name: 'shared.txt', contentType: 'text/plain', bytes: shared });
        e.addFile({ name: 'own.txt', contentType: 'text/plain', bytes: own });
      });
      await editSpaceContent(t.app.deps, other.id, admin.id, (e) => {
        e.addFile({ name: 'same.txt', contentType: 'text/plain', bytes: shared });
      });
      const hashes = (await t.db.selectFrom('space_blobs').select('hash').where('space_id', '=', space.id).execute()).map((r) => r.hash);
      expect(hashes).toHaveLength(2);
      expect(hashes.sort()).toEqual([sha256(shared), sha256(own)].sort());
      // In the file store of the run (a folder on SQLite, the database on PostgreSQL).
      const blobStored = (bytes: Buffer) => t.app.deps.files.exists('blobs', sha256(bytes));
      expect(await blobStored(own)).toBe(true);
      await grant({ type: 'space', id: space.id }, { type: 'user', id: guest.id }, 'read');

      await t.request('DELETE', spaceUrl(space.id), { token: admin.token });
      // Not yet due: nothing is purged.
      t.clock.advance(6 * DAY);
      expect(await purgeExpiredSpaces(t.app.deps)).not.toContain(space.id);
      expect(await spaceRow(space.id)).toBeDefined();
      t.clock.advance(2 * DAY);
      expect(await purgeExpiredSpaces(t.app.deps)).toContain(space.id);
      expect(await spaceRow(space.id)).toBeUndefined();
      expect(await count('revisions', 'space_id', space.id)).toBe(0);
      expect(await count('content_objects', 'space_id', space.id)).toBe(0);
      expect(await count('space_blobs', 'space_id', space.id)).toBe(0);
      expect(await count('content_permissions', 'target_id', space.id)).toBe(0);
      expect(await blobStored(own)).toBe(false);
      expect(await blobStored(shared)).toBe(true);
      expect((await t.request('POST', `${spaceUrl(space.id)}/restore`, { token: admin.token })).status).toBe(404);
      // The other space is untouched.
      expect(await count('content_objects', 'space_id', other.id)).toBeGreaterThan(0);
      const files = await t.request('GET', `${spaceUrl(other.id)}/content/files`, { token: admin.token });
      expect(files.body.items).toHaveLength(1);
    });

    it('purge keeps a blob a duplicate still references, and removes it with the last holder', async () => {
      const bytes = Buffer.from('dup bytes ' + newId());
      const space = await newSpace();
      await editSpaceContent(t.app.deps, space.id, admin.id, (e) => {
        e.addFile({ name: 'f.bin', contentType: 'application/octet-stream', bytes });
      });
      const copy = await t.request('POST', `${spaceUrl(space.id)}/duplicate`, { token: admin.token });
      expect(copy.status).toBe(201);
      const [{ hash }] = await t.db.selectFrom('space_blobs').select('hash').where('space_id', '=', space.id).execute();
      await t.request('DELETE', spaceUrl(space.id), { token: admin.token });
      t.clock.advance(8 * DAY);
      await purgeExpiredSpaces(t.app.deps);
      expect(await spaceRow(space.id)).toBeUndefined();
      expect(await t.app.deps.files.exists('blobs', hash)).toBe(true);
      // The copy still serves the bytes.
      const files = await t.request('GET', `${spaceUrl(copy.body.id)}/content/files`, { token: admin.token });
      const download = await t.app.inject({ method: 'GET', url: files.body.items[0].downloadURL.replace('http://quire.test', '') });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(bytes)).toBe(true);

      await t.request('DELETE', spaceUrl(copy.body.id), { token: admin.token });
      t.clock.advance(8 * DAY);
      await purgeExpiredSpaces(t.app.deps);
      expect(await t.app.deps.files.exists('blobs', hash)).toBe(false);
    });
  });

  describe('POST /v1/spaces/{spaceId}/duplicate (duplicateSpace)', () => {
    it('201: same settings and content, its own history, title "<title> (copy)", grants copied', async () => {
      const space = await newSpace(admin.token, { title: 'Original', emoji: '1f600', language: 'fr', visibility: 'unlisted' });
      await t.request('PATCH', spaceUrl(space.id), { token: admin.token, body: { defaultLevel: 'comment', mergeRules: { type: 'none' } } });
      await editSpaceContent(t.app.deps, space.id, admin.id, (e) => {
        e.insertPage({ title: 'Page', markdown: '# Hello\n\nWorld\n', pages: [{ title: 'Sub' }] });
        e.setVariables({ name: 'Quire' });
        e.addFile({ name: 'a.txt', contentType: 'text/plain', bytes: Buffer.from('abc') });
      });
      const g = await createMember(t, org.id, null);
      await grant({ type: 'space', id: space.id }, { type: 'user', id: g.id }, 'edit');
      t.clock.advance(1000);

      const res = await t.request('POST', `${spaceUrl(space.id)}/duplicate`, { token: admin.token });
      expect(res.status).toBe(201);
      expect(res.headers.location).toBe(`http://quire.test/v1/spaces/${res.body.id}`);
      expect(res.body).toMatchObject({
        title: 'Original (copy)',
        emoji: '1f600',
        language: 'fr',
        visibility: 'unlisted',
        defaultLevel: 'comment',
        mergeRules: { type: 'none' },
        organization: org.id,
        createdAt: t.clock.now().toISOString(),
      });
      expect(res.body.id).not.toBe(space.id);
      expect(res.body.revision).not.toBe((await spaceRow(space.id))!.revision_id);

      const [orig, copy] = await Promise.all(
        [space.id, res.body.id].map((id) => t.request('GET', `${spaceUrl(id)}/content`, { token: admin.token, query: { metadata: false } })),
      );
      expect(copy.body.parents).toEqual([]);
      expect(copy.body.variables).toEqual({ name: 'Quire' });
      const strip = (pages: any[]): any[] => pages.map((p) => ({ id: p.id, title: p.title, path: p.path, document: p.document, pages: strip(p.pages ?? []) }));
      expect(strip(copy.body.pages)).toEqual(strip(orig.body.pages));
      expect(copy.body.files.map((f: any) => [f.id, f.name, f.size])).toEqual(orig.body.files.map((f: any) => [f.id, f.name, f.size]));
      const download = await t.app.inject({ method: 'GET', url: copy.body.files[0].downloadURL.replace('http://quire.test', '') });
      expect(download.body).toBe('abc');

      expect((await t.request('GET', spaceUrl(res.body.id), { token: g.token })).body.permissions).toEqual(permissionsFor('edit'));
      // Edits of the copy do not touch the original.
      await editSpaceContent(t.app.deps, res.body.id, admin.id, (e) => e.insertPage({ title: 'Only in copy' }));
      const after = await t.request('GET', `${spaceUrl(space.id)}/content/pages`, { token: admin.token });
      expect(after.body.pages.map((p: any) => p.title)).toEqual(['Page']);
    });

    it('a long title is cut to fit 50 characters; needs create where the copy goes; 404 for those who cannot see it', async () => {
      const space = await newSpace(admin.token, { title: 'y'.repeat(50) });
      const res = await t.request('POST', `${spaceUrl(space.id)}/duplicate`, { token: creator.token });
      expect(res.status).toBe(201);
      expect(res.body.title).toBe(`${'y'.repeat(43)} (copy)`);
      expect(res.body.title.length).toBe(50);
      expect((await t.request('POST', `${spaceUrl(space.id)}/duplicate`, { token: editor.token })).status).toBe(403);
      expect((await t.request('POST', `${spaceUrl(space.id)}/duplicate`, { token: guest.token })).status).toBe(404);
      expect((await t.request('POST', `${spaceUrl(space.id)}/duplicate`)).status).toBe(401);
      expect((await t.request('POST', `${spaceUrl('nope')}/duplicate`, { token: admin.token })).status).toBe(404);
    });
  });

  describe('POST /v1/spaces/{spaceId}/move (moveSpace)', () => {
    let o: TestOrganization;
    const position = async (id: string) => Number((await spaceRow(id))!.position);

    beforeAll(async () => {
      o = await createOrganization(t);
    });

    it('into a collection, back to the root with parent null, before/after a sibling', async () => {
      const a = await newSpace(o.admin.token, { title: 'A' }, o.id);
      const b = await newSpace(o.admin.token, { title: 'B' }, o.id);
      const c = await newSpace(o.admin.token, { title: 'C' }, o.id);
      expect([await position(a.id), await position(b.id), await position(c.id)]).toEqual([0, 1, 2]);

      const before = await t.request('POST', `${spaceUrl(c.id)}/move`, { token: o.admin.token, body: { position: { before: { type: 'space', space: a.id } } } });
      expect(before.status).toBe(200);
      expect([await position(c.id), await position(a.id), await position(b.id)]).toEqual([0, 1, 2]);
      const after = await t.request('POST', `${spaceUrl(c.id)}/move`, { token: o.admin.token, body: { position: { after: { type: 'space', space: b.id } } } });
      expect(after.status).toBe(200);
      expect([await position(a.id), await position(b.id), await position(c.id)]).toEqual([0, 1, 2]);

      const collection = await newCollection(o.id);
      const into = await t.request('POST', `${spaceUrl(b.id)}/move`, { token: o.admin.token, body: { parent: collection } });
      expect(into.status).toBe(200);
      expect(into.body.parent).toBe(collection);
      expect((await spaceRow(b.id))!.parent_id).toBe(collection);
      const listed = await t.request('GET', `/v1/collections/${collection}/spaces`, { token: o.admin.token });
      expect(listed.body.items.map((s: any) => s.id)).toEqual([b.id]);
      await t.request('PATCH', spaceUrl(b.id), { token: o.admin.token, body: { visibility: 'in-collection' } });

      const back = await t.request('POST', `${spaceUrl(b.id)}/move`, {
        token: o.admin.token,
        body: { parent: null, position: { after: { type: 'space', space: a.id } } },
      });
      expect(back.status).toBe(200);
      expect(back.body.parent).toBeUndefined();
      // in-collection makes no sense at the root: the space becomes private.
      expect(back.body.visibility).toBe('private');
      expect((await spaceRow(b.id))!.parent_id).toBeNull();
      const rootOrder = (await t.db.selectFrom('spaces').select(['id', 'position']).where('organization_id', '=', o.id).where('parent_id', 'is', null).execute())
        .sort((x, y) => Number(x.position) - Number(y.position))
        .map((r) => r.id);
      expect(rootOrder.slice(0, 3)).toEqual([a.id, b.id, c.id]);
      // A collection is a sibling too.
      const beforeCollection = await t.request('POST', `${spaceUrl(a.id)}/move`, {
        token: o.admin.token,
        body: { position: { after: { type: 'collection', collection } } },
      });
      expect(beforeCollection.status).toBe(200);
    });

    it('409 when nothing would change; 400 for a pointer that is not a sibling or both pointers; 404 unknown collection; 403 non-admin', async () => {
      const collection = await newCollection(o.id);
      const a = await newSpace(o.admin.token, { title: 'A' }, o.id);
      const inside = await newSpace(o.admin.token, { title: 'Inside', parent: collection }, o.id);
      for (const body of [{ parent: null }, {}]) {
        const res = await t.request('POST', `${spaceUrl(a.id)}/move`, { token: o.admin.token, body });
        expect(res.status, JSON.stringify(body)).toBe(Object.keys(body).length === 0 ? 400 : 409);
      }
      expect((await t.request('POST', `${spaceUrl(inside.id)}/move`, { token: o.admin.token, body: { parent: collection } })).status).toBe(409);
      const notSibling = await t.request('POST', `${spaceUrl(a.id)}/move`, { token: o.admin.token, body: { position: { before: { type: 'space', space: inside.id } } } });
      expect(notSibling.status).toBe(400);
      expect(notSibling.body.error.message).toContain(inside.id);
      const both = await t.request('POST', `${spaceUrl(a.id)}/move`, {
        token: o.admin.token,
        body: { position: { before: { type: 'collection', collection }, after: { type: 'collection', collection } } },
      });
      expect(both.status).toBe(400);
      expect((await t.request('POST', `${spaceUrl(a.id)}/move`, { token: o.admin.token, body: { parent: 'no-such-collection' } })).status).toBe(404);
      const member = await createMember(t, o.id, 'create');
      expect((await t.request('POST', `${spaceUrl(a.id)}/move`, { token: member.token, body: { parent: collection } })).status).toBe(403);
      expect((await t.request('POST', `${spaceUrl(a.id)}/move`, { token: outsider.token, body: { parent: collection } })).status).toBe(404);
      expect((await spaceRow(a.id))!.parent_id).toBeNull();
    });
  });

  describe('POST /v1/spaces/{spaceId}/transfer (transferSpace)', () => {
    it('admins of both: the space moves with its content, grants removed, listed in the target only', async () => {
      const source = await createOrganization(t);
      const target = await createOrganization(t, { admin: source.admin });
      const collection = await newCollection(source.id);
      const space = await newSpace(source.admin.token, { title: 'Moving', parent: collection, visibility: 'in-collection' }, source.id);
      await editSpaceContent(t.app.deps, space.id, source.admin.id, (e) => e.insertPage({ title: 'Kept' }));
      const g = await createMember(t, source.id, null);
      await grant({ type: 'space', id: space.id }, { type: 'user', id: g.id }, 'edit', source.id);

      const res = await t.request('POST', `${spaceUrl(space.id)}/transfer`, { token: source.admin.token, body: { organization: target.id } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: space.id, organization: target.id, visibility: 'private', mergeRules: { type: 'inherit' } });
      expect(res.body.parent).toBeUndefined();
      expect(await spaceRow(space.id)).toMatchObject({ organization_id: target.id, parent_id: null });
      expect(await count('content_permissions', 'target_id', space.id)).toBe(0);
      expect(await listAll(orgSpacesUrl(target.id), source.admin.token, 1000)).toContain(space.id);
      expect(await listAll(orgSpacesUrl(source.id), source.admin.token, 1000)).not.toContain(space.id);
      expect((await t.request('GET', spaceUrl(space.id), { token: g.token })).status).toBe(404);
      const pages = await t.request('GET', `${spaceUrl(space.id)}/content/pages`, { token: source.admin.token });
      expect(pages.body.pages.map((p: any) => p.title)).toEqual(['Kept']);
      expect((await t.request('POST', `${spaceUrl(space.id)}/transfer`, { token: source.admin.token, body: { organization: target.id } })).status).toBe(409);
    });

    it('403 when not admin of the target (or of the source), 404 when not a member of the target; 400 without organization', async () => {
      const source = await createOrganization(t);
      const target = await createOrganization(t);
      const space = await newSpace(source.admin.token, {}, source.id);
      const transfer = (token: string, organization: string) => t.request('POST', `${spaceUrl(space.id)}/transfer`, { token, body: { organization } });
      expect((await transfer(source.admin.token, target.id)).status).toBe(404);
      await createMember(t, target.id, 'create', { user: source.admin });
      expect((await transfer(source.admin.token, target.id)).status).toBe(403);
      // Admin of the target and admin of the space through a grant, but not of the source organization.
      const spaceAdmin = await createMember(t, source.id, 'read');
      await grant({ type: 'space', id: space.id }, { type: 'user', id: spaceAdmin.id }, 'admin', source.id);
      await createMember(t, target.id, 'admin', { user: spaceAdmin });
      expect((await transfer(spaceAdmin.token, target.id)).status).toBe(403);
      expect((await transfer(source.admin.token, 'no-such-org')).status).toBe(404);
      expect((await transfer(outsider.token, target.id)).status).toBe(404);
      const missing = await t.request('POST', `${spaceUrl(space.id)}/transfer`, { token: source.admin.token, body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toContain('organization');
      expect((await spaceRow(space.id))!.organization_id).toBe(source.id);
    });
  });
});

/*
 * A second app of its own, started once the suite above has closed its app: on PostgreSQL,
 * Kysely's migrator mistakes another live test schema's migration tables for its own.
 */
describe('space purge schedule', () => {
  it('purges expired deleted spaces on its own (spacePurgeIntervalMs)', async () => {
    const s = await createTestApp({ spacePurgeIntervalMs: 50 });
    try {
      const o = await createOrganization(s);
      const res = await s.request('POST', `/v1/orgs/${o.id}/spaces`, { token: o.admin.token, body: { title: 'Scheduled' } });
      expect(res.status).toBe(201);
      expect((await s.request('DELETE', `/v1/spaces/${res.body.id}`, { token: o.admin.token })).status).toBe(204);
      s.clock.advance(8 * DAY);
      const row = () => s.db.selectFrom('spaces').select('id').where('id', '=', res.body.id).executeTakeFirst();
      const deadline = Date.now() + 2000;
      while ((await row()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      expect(await row()).toBeUndefined();
      expect(await s.db.selectFrom('revisions').select('id').where('space_id', '=', res.body.id).execute()).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
