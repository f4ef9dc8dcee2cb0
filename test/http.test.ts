import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { createOrganization, createUser } from './factories.ts';

describe('what every endpoint shares', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ bodyLimitBytes: 1024, rateLimitMax: 5, rateLimitWindowMs: 60_000 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('GET /v1/ answers API information without a token', async () => {
    const res = await t.request('GET', '/v1/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: expect.any(String), build: expect.any(String) });
    expect(new Date(res.body.build).toISOString()).toBe(res.body.build);
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('serves its OpenAPI document without a token, declaring every route with named components', async () => {
    const res = await t.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const operationIds = Object.values(res.body.paths as Record<string, Record<string, { operationId?: string }>>)
      .flatMap((methods) => Object.values(methods).map((m) => m.operationId));
    expect(operationIds.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(operationIds).size).toBe(operationIds.length);
    expect(operationIds).toEqual(expect.arrayContaining(['getApiInformation', 'getOrganizationById', 'getAuthenticatedUser']));
    expect(Object.keys(res.body.components.schemas)).toEqual(expect.arrayContaining(['Organization', 'User', 'Error']));
    expect(res.body.paths['/v1/orgs/{organizationId}'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Organization',
    });
  });

  it('answers 404 in the error body for unknown routes, with or without a token', async () => {
    const res = await t.request('GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 404, message: 'No route for GET /v1/nothing-here' } });
  });

  it('refuses a compressed request body with 415, creating nothing', async () => {
    const user = await createUser(t);
    const { gzipSync } = await import('node:zlib');
    const before = await t.request('GET', '/v1/orgs', { token: user.token });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/orgs',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ title: 'Zipped' })),
    });
    expect(res.statusCode).toBe(415);
    expect(JSON.parse(res.body)).toEqual({ error: { code: 415, message: expect.stringContaining('Content-Encoding: gzip') } });
    const after = await t.request('GET', '/v1/orgs', { token: user.token });
    expect(after.body).toEqual(before.body);
    // `identity` is no encoding at all.
    const plain = await t.app.inject({
      method: 'POST',
      url: '/v1/orgs',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', 'content-encoding': 'identity' },
      payload: JSON.stringify({ title: 'Plain' }),
    });
    expect(plain.statusCode).toBe(201);
  });

  it('answers 400 for malformed JSON and 413 for an oversized body', async () => {
    const user = await createUser(t);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/v1/orgs',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      payload: '{"title": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(JSON.parse(malformed.body)).toEqual({ error: { code: 400, message: expect.stringContaining('JSON') } });
    const big = await t.app.inject({
      method: 'POST',
      url: '/v1/orgs',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'x'.repeat(2000) }),
    });
    expect(big.statusCode).toBe(413);
    expect(JSON.parse(big.body).error.code).toBe(413);
  });

  it('names the field in validation errors', async () => {
    const user = await createUser(t);
    const res = await t.request('POST', '/v1/orgs', { token: user.token, body: { title: 42 } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/body\/title/);
  });

  it('rate limits per token with GitBook headers and a 429 error body', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    // Token-less requests count against the address; a valid token's never do, not even
    // its first (counted by address before the lookup, then moved to the token).
    const remainingOfAddress = async () => Number((await t.request('GET', '/v1/user')).headers['x-ratelimit-remaining']);
    const before = await remainingOfAddress();
    for (let i = 0; i < 5; i++) {
      const res = await t.request('GET', '/v1/user', { token: a.token });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(4 - i));
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    }
    expect(await remainingOfAddress()).toBe(before - 1);
    const limited = await t.request('GET', '/v1/user', { token: a.token });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: { code: 429, message: expect.stringContaining('Rate limit') } });
    expect(limited.headers['retry-after']).toBeDefined();
    // Another token has its own budget; the readiness probe is never limited.
    expect((await t.request('GET', '/v1/user', { token: b.token })).status).toBe(200);
    for (let i = 0; i < 7; i++) expect((await t.request('GET', '/v1/')).status).toBe(200);
  });
});

describe('internal errors', () => {
  it('answer 500 without stack or SQL', async () => {
    const t = await createTestApp();
    const org = await createOrganization(t);
    // Break the database under the app: the next query fails inside the driver.
    await t.db.schema.dropTable('agent_instructions').execute();
    const res = await t.request('GET', `/v1/orgs/${org.id}/agent-instructions`, { token: org.admin.token });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: { code: 500, message: 'Internal server error' } });
    expect(res.text).not.toMatch(/agent_instructions|select|stack|at /i);
    await t.close();
  });
});

describe('bodies', () => {
  it('treat an empty JSON body as no body', async () => {
    const t = await createTestApp();
    const org = await createOrganization(t);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${org.id}/ping`,
      headers: { authorization: `Bearer ${org.admin.token}`, 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
    await t.close();
  });
});
