import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { createSpace } from '../../test/factories.ts';
import { createRoleMatrix, type RoleMatrix } from '../../test/role-matrix.ts';
import type { Context } from '../context.ts';
import { HttpError } from '../errors.ts';
import { accessFrom, contentAccess, contentFacts, contentScope, requireAccess } from './index.ts';

/*
 * The access layer against a real database: requireAccess answers sets of ids with one
 * access each (and 404 for any it cannot), the list filter reaches what the effective role
 * reaches, and accessFrom over loaded facts equals a fresh load.
 */
describe('access layer', () => {
  let t: TestApp;
  let m: RoleMatrix;
  let outer: string;
  let inner: string;
  let granted: string;
  let inInner: string;
  let hidden: string;

  const ctxOf = (userId: string, organizationId: string | null = null) =>
    ({ db: t.db, actor: { userId, tokenId: 'test', organizationId } }) as Pick<Context, 'db' | 'actor'>;

  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t, { roles: ['read', 'guest'] });
    const token = m.admin.token;
    const post = async (url: string, body: unknown) => (await t.request('POST', url, { token, body, skipSchemaCheck: true })).body;
    outer = (await post(`/v1/orgs/${m.org.id}/collections`, { title: 'Outer' })).id;
    inner = (await post(`/v1/orgs/${m.org.id}/collections`, { title: 'Inner', parent: outer })).id;
    inInner = (await createSpace(t, { organization: m.org, body: { parent: inner } })).id;
    granted = (await createSpace(t, { organization: m.org })).id;
    hidden = (await createSpace(t, { organization: m.org })).id;
    // The guest: `edit` on the outer collection (so on everything inside it), `read` on one root space.
    await post(`/v1/collections/${outer}/permissions`, { role: 'edit', users: [m.guest.id] });
    await post(`/v1/spaces/${granted}/permissions`, { role: 'read', users: [m.guest.id] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('requireAccess returns every id with its effective role, in a fixed number of queries', async () => {
    const rows = await requireAccess(ctxOf(m.guest.id), { permission: 'space.read', ids: [inInner, granted, inInner] });
    expect([...rows.keys()].sort()).toEqual([granted, inInner].sort());
    expect(rows.get(inInner)?.access.role).toBe('edit');
    expect(rows.get(granted)?.access.role).toBe('read');
    expect(rows.get(inInner)?.row.parent_id).toBe(inner);
    // One id takes the indexed one-target path: the same answer.
    const one = await requireAccess(ctxOf(m.guest.id), { permission: 'space.read', ids: [inInner] });
    expect(one.get(inInner)?.access).toEqual(rows.get(inInner)?.access);
    const collections = await requireAccess(ctxOf(m.guest.id), { permission: 'collection.read', ids: [outer, inner] });
    expect(collections.get(inner)?.access).toMatchObject({ member: true, orgRole: null, role: 'edit' });
  });

  it('requireAccess is a 404 naming the first id missing or out of sight, for one id a 404 like loadSpace', async () => {
    const many = await requireAccess(ctxOf(m.guest.id), { permission: 'space.read', ids: [granted, hidden] }).catch((e) => e);
    expect(many).toBeInstanceOf(HttpError);
    expect(many).toMatchObject({ statusCode: 404, message: expect.stringContaining(`"${hidden}"`) });
    const one = await requireAccess(ctxOf(m.guest.id), { permission: 'space.read', ids: ['nope'] }).catch((e) => e);
    expect(one).toMatchObject({ statusCode: 404 });
    // An outsider, and a caller scoped to another organization, see none of it.
    await expect(requireAccess(ctxOf(m.outsider.id), { permission: 'space.read', ids: [granted] })).rejects.toMatchObject({ statusCode: 404 });
    await expect(requireAccess(ctxOf(m.reader.id, 'elsewhere'), { permission: 'space.read', ids: [granted] })).rejects.toMatchObject({ statusCode: 404 });
    // The reader (organization role read) sees them all.
    const reader = await requireAccess(ctxOf(m.reader.id), { permission: 'space.read', ids: [granted, hidden, inInner] });
    expect([...reader.values()].map((r) => r.access.role)).toEqual(['read', 'read', 'read']);
  });

  it('the list filter reaches what the effective role reaches', async () => {
    const scope = await contentScope(t, m.org.id, m.guest.id, null);
    if (scope.all) throw new Error('a guest does not reach everything');
    expect(scope.collectionIds.sort()).toEqual([inner, outer].sort());
    expect(scope.spaceIds).toEqual([granted]);
    expect(await contentScope(t, m.org.id, m.reader.id, 'read')).toEqual({ all: true });
    // Every id the scope names is one requireAccess lets the guest see.
    await expect(requireAccess(ctxOf(m.guest.id), { permission: 'collection.read', ids: scope.collectionIds })).resolves.toHaveProperty('size', 2);
  });

  it('accessFrom over loaded facts equals a fresh load after a change to the space itself', async () => {
    const ctx = ctxOf(m.reader.id);
    const space = (await requireAccess(ctx, { permission: 'space.read', ids: [hidden] })).get(hidden)!.row;
    const facts = await contentFacts(ctx, space, 'space');
    for (const change of [{ default_level: 'edit' as const }, { edit_mode: 'locked' as const }, { visibility: 'public' as const }]) {
      const changed = { ...space, ...change };
      expect(accessFrom(facts, changed)).toEqual(await contentAccess(ctx, changed, 'space'));
    }
  });
});
