import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, createUser } from '../../../test/factories.ts';
import { revokeToken } from './users.tokens.ts';

describe('users', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ authCacheTtlMs: 0 });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET /v1/user', () => {
    it('returns the token owner', async () => {
      const user = await createUser(t, { displayName: 'Ada Lovelace', email: 'Ada@Example.com' });
      const res = await t.request('GET', '/v1/user', { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        object: 'user',
        id: user.id,
        displayName: 'Ada Lovelace',
        email: 'ada@example.com',
        urls: { location: `http://quire.test/v1/users/${user.id}` },
      });
    });

    it('401 without a token, with a malformed header, and with a revoked token', async () => {
      expect((await t.request('GET', '/v1/user')).status).toBe(401);
      const malformed = await t.request('GET', '/v1/user', { headers: { authorization: 'Basic abc' } });
      expect(malformed.status).toBe(401);
      expect(malformed.headers['www-authenticate']).toBe('Bearer');
      const user = await createUser(t);
      expect((await t.request('GET', '/v1/user', { token: user.token })).status).toBe(200);
      expect(await revokeToken(t.db, t.clock, user.tokenId)).toBe(true);
      const revoked = await t.request('GET', '/v1/user', { token: user.token });
      expect(revoked.status).toBe(401);
      expect(revoked.body.error.message).toMatch(/revoked/);
      expect(await revokeToken(t.db, t.clock, user.tokenId)).toBe(false);
    });

    it('stores tokens only as hashes', async () => {
      const user = await createUser(t);
      const rows = await t.db.selectFrom('api_tokens').select('token_hash').where('user_id', '=', user.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(rows[0].token_hash).not.toContain(user.token);
    });
  });

  describe('GET /v1/users/{userId}', () => {
    it('shows yourself and members of a shared organization', async () => {
      const org = await createOrganization(t);
      const colleague = await createMember(t, org.id, 'read', { displayName: 'Colleague' });
      const self = await t.request('GET', `/v1/users/${org.admin.id}`, { token: org.admin.token });
      expect(self.status).toBe(200);
      expect(self.body.id).toBe(org.admin.id);
      const other = await t.request('GET', `/v1/users/${colleague.id}`, { token: org.admin.token });
      expect(other.status).toBe(200);
      expect(other.body).toMatchObject({ object: 'user', id: colleague.id, displayName: 'Colleague' });
    });

    it('404 for strangers and unknown ids, 401 without a token', async () => {
      const a = await createUser(t);
      const b = await createUser(t);
      const res = await t.request('GET', `/v1/users/${b.id}`, { token: a.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'User not found' } });
      expect((await t.request('GET', '/v1/users/unknown', { token: a.token })).status).toBe(404);
      expect((await t.request('GET', `/v1/users/${b.id}`)).status).toBe(401);
    });

    it('validates the id length', async () => {
      const a = await createUser(t);
      const res = await t.request('GET', `/v1/users/${'x'.repeat(65)}`, { token: a.token });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('userId');
    });
  });
});
