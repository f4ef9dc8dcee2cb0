import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loggerOptions } from '../../src/app.ts';
import { usersRepository } from '../../src/modules/users/users.repository.ts';
import { createTestApp, testDialect, type TestApp } from '../app.ts';
import { createOrganization, type TestOrganization } from '../factories.ts';

/*
 * Regressions of issue 13 (hardening), each with the reproducer, on SQLite and on
 * PostgreSQL (DATABASE_URL). The suites in this folder (fuzz, authz, crash) keep the
 * classes of bugs away; these pin the exact cases.
 */

const gitbookError = (body: any, code: number) => {
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
};

describe('issue 13 regressions', () => {
  let t: TestApp;
  let org: TestOrganization;
  let token: string;
  const O = () => `/v1/orgs/${org.id}`;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Acme' });
    token = org.admin.token;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('1. NUL bytes', () => {
    it('answer 400 with the GitBook body in paths, queries, cursors and bodies, and store nothing', async () => {
      const spacesBefore = await t.db.selectFrom('spaces').select('id').execute();
      const orgsBefore = await t.db.selectFrom('organizations').select('id').execute();
      const space = (await t.request('POST', `${O()}/spaces`, { token, body: { title: 'Guide' } })).body;
      const cases: Array<[string, string, unknown?]> = [
        ['GET', '/v1/spaces/%00'],
        ['GET', `/v1/spaces/${space.id}%00`],
        ['POST', '/v1/orgs', { title: 'a\u0000b' }],
        ['GET', `${O()}/spaces?search=%00`],
        ['GET', `${O()}/members?search=%00`],
        ['GET', `${O()}/spaces?page=${encodeURIComponent('abc\u0000')}`],
        ['POST', `${O()}/spaces`, { title: 'x\u0000' }],
        ['POST', `/v1/spaces/${space.id}/move`, { parent: 'c\u0000' }],
        ['POST', `${O()}/collections`, { title: 'ok', description: 'd\u0000' }],
        ['PATCH', `/v1/spaces/${space.id}`, { title: 'ok', emoji: '\u0000' }],
      ];
      for (const [method, url, body] of cases) {
        const res = await t.app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${token}` }, ...(body ? { payload: body as object } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(400);
        gitbookError(res.json(), 400);
        expect(res.json().error.message).toContain('NUL');
      }
      expect((await t.db.selectFrom('organizations').select('id').execute()).length).toBe(orgsBefore.length);
      expect((await t.db.selectFrom('spaces').select('id').execute()).length).toBe(spacesBefore.length + 1);
      expect((await t.request('GET', `/v1/spaces/${space.id}`, { token })).body.title).toBe('Guide');
    });

    it('names the field holding it', async () => {
      const res = await t.request('POST', '/v1/orgs', { token, body: { title: 'a\u0000b' } });
      expect(res.body.error.message).toBe('body/title must not contain a NUL character (U+0000)');
    });
  });

  describe('2. customization writes', () => {
    let SITE: string;
    let siteSpaceId: string;
    beforeAll(async () => {
      const spaceId = (await t.request('POST', `${O()}/spaces`, { token, body: { title: 'Docs' } })).body.id;
      const site = await t.request('POST', `${O()}/sites`, { token, body: { title: 'Docs', spaces: [spaceId] } });
      SITE = `${O()}/sites/${site.body.id}`;
      siteSpaceId = (await t.request('GET', `${SITE}/site-spaces`, { token })).body.items[0].id;
    });

    it('PUT {"announcement":{}} is a 400 naming the field, commits nothing, and reads keep working', async () => {
      const before = await t.db.selectFrom('sites').select(['customization', 'updated_at']).executeTakeFirstOrThrow();
      const res = await t.request('PUT', `${SITE}/customization`, { token, body: { announcement: {} } });
      expect(res.status).toBe(400);
      gitbookError(res.body, 400);
      expect(res.body.error.message).toContain('announcement');
      const after = await t.db.selectFrom('sites').select(['customization', 'updated_at']).executeTakeFirstOrThrow();
      expect(after).toEqual(before);
      expect((await t.request('GET', `${SITE}/customization`, { token })).status).toBe(200);
      expect((await t.request('GET', `${SITE}/published`, { token })).status).toBeLessThan(500);
    });

    it('a complete announcement is stored and reads back', async () => {
      const announcement = { enabled: true, message: 'Hello', style: 'info' };
      const res = await t.request('PUT', `${SITE}/customization`, { token, body: { announcement } });
      expect(res.status).toBe(200);
      expect(res.body.announcement).toMatchObject(announcement);
      expect((await t.request('GET', `${SITE}/customization`, { token })).body.announcement).toMatchObject(announcement);
    });

    it('PATCH of a site space customization never commits something unreadable', async () => {
      const row = () => t.db.selectFrom('site_spaces').select('customization').where('id', '=', siteSpaceId).executeTakeFirstOrThrow();
      await t.request('PUT', `${SITE}/customization`, { token, body: {} });
      for (const body of [{ announcement: {} }, { announcement: { message: 'x' } }, { announcement: { enabled: true } }, { header: {} }, { styling: {} }, { favicon: {} }]) {
        const before = await row();
        const res = await t.request('PATCH', `${SITE}/site-spaces/${siteSpaceId}/customization`, { token, body });
        expect(res.status, JSON.stringify(body)).toBeLessThan(500);
        if (res.status >= 400) {
          gitbookError(res.body, res.status);
          expect(await row()).toEqual(before);
        }
        expect((await t.request('GET', `${SITE}/site-spaces/${siteSpaceId}/customization`, { token })).status).toBe(200);
        expect((await t.request('GET', `${SITE}/customization`, { token })).status).toBe(200);
      }
    });
  });

  describe('7. smaller items', () => {
    it('FST_ERR_BAD_URL, long path parameters: GitBook bodies that do not echo the URL', async () => {
      const bad = await t.app.inject({ method: 'GET', url: '/v1/spaces/%C0%AE', headers: { authorization: `Bearer ${token}` } });
      expect(bad.statusCode).toBe(400);
      gitbookError(bad.json(), 400);
      const long = 'a'.repeat(120);
      for (const method of ['GET', 'PATCH', 'DELETE', 'POST'] as const) {
        const res = await t.app.inject({ method, url: `/v1/spaces/${long}`, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: '{}' });
        expect(res.statusCode, method).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, method).toBeLessThan(500);
        gitbookError(res.json(), res.statusCode);
        expect(res.body).not.toContain(long);
      }
    });

    it('431 on an oversized request line: GitBook body, over a real socket', async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const address = t.app.server.address() as { port: number };
        const res = await fetch(`http://127.0.0.1:${address.port}/v1/orgs/${org.id}/spaces?page=${'x'.repeat(20_000)}`, { headers: { authorization: `Bearer ${token}` } });
        expect(res.status).toBe(431);
        const body = await res.json();
        gitbookError(body, 431);
        expect(JSON.stringify(body)).not.toContain('xxxx');
      } finally {
        await t.app.close().catch(() => undefined);
      }
    });
  });
});

describe('7. write bodies: null, empty, unknown fields', () => {
  let t: TestApp;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Acme' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('null and unknown fields are 400s naming the problem; nothing is created', async () => {
    const count = async () => (await t.db.selectFrom('spaces').select('id').execute()).length;
    const before = await count();
    const post = (payload: string) =>
      t.app.inject({ method: 'POST', url: `/v1/orgs/${org.id}/spaces`, headers: { authorization: `Bearer ${org.admin.token}`, 'content-type': 'application/json' }, payload });
    const nul = await post('null');
    expect(nul.statusCode).toBe(400);
    gitbookError(nul.json(), 400);
    const typo = await post('{"titel":"x"}');
    expect(typo.statusCode).toBe(400);
    expect(typo.json().error.message).toBe('body/titel is not a known field');
    const x = await t.app.inject({ method: 'POST', url: '/v1/orgs', headers: { authorization: `Bearer ${org.admin.token}`, 'content-type': 'application/json' }, payload: '{"x":1,"title":"T"}' });
    expect(x.statusCode).toBe(400);
    expect(x.json().error.message).toContain('body/x');
    expect(await count()).toBe(before);
    // GitBook documents this body as optional: an empty one still creates an untitled space.
    expect((await post('')).statusCode).toBe(201);
  });

  it('change-request create keeps GitBook’s open body: unknown fields are accepted', async () => {
    const space = (await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'S' } })).body;
    const res = await t.request('POST', `/v1/spaces/${space.id}/change-requests`, { token: org.admin.token, body: { subject: 'Fix', somethingElse: 1 } });
    expect(res.status).toBe(201);
  });

  it('deleting an absent section or site space leaves the site’s updatedAt alone', async () => {
    const spaceId = (await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Docs' } })).body.id;
    const site = (await t.request('POST', `/v1/orgs/${org.id}/sites`, { token: org.admin.token, body: { title: 'Docs', spaces: [spaceId] } })).body;
    const SITE = `/v1/orgs/${org.id}/sites/${site.id}`;
    const updatedAt = async () => (await t.db.selectFrom('sites').select('updated_at').where('id', '=', site.id).executeTakeFirstOrThrow()).updated_at;
    const before = await updatedAt();
    t.clock.advance(60_000);
    expect((await t.request('DELETE', `${SITE}/sections/sitesc_absent`, { token: org.admin.token })).status).toBe(204);
    expect((await t.request('DELETE', `${SITE}/site-spaces/sitesp_absent`, { token: org.admin.token })).status).toBe(204);
    expect(await updatedAt()).toBe(before);
    const siteSpaceId = (await t.request('GET', `${SITE}/site-spaces`, { token: org.admin.token })).body.items[0].id;
    expect((await t.request('DELETE', `${SITE}/site-spaces/${siteSpaceId}`, { token: org.admin.token })).status).toBe(204);
    expect(await updatedAt()).not.toBe(before);
  });

  it.runIf(testDialect === 'sqlite')('the SQLite database (holding server_secrets) is mode 0600', async () => {
    const file = path.join(t.dataDir, 'quire.sqlite');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    for (const companion of [`${file}-wal`, `${file}-shm`]) if (fs.existsSync(companion)) expect(fs.statSync(companion).mode & 0o077).toBe(0);
  });
});

describe('4. rate limit before authentication', () => {
  let t: TestApp;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await createTestApp({ rateLimitMax: 5, rateLimitWindowMs: 60_000 });
    org = await createOrganization(t, { title: 'Acme' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('401s carry X-RateLimit-*, invalid tokens are counted by address and looked up once, 429 tells the seconds left', async () => {
    const lookups = vi.spyOn(usersRepository, 'findActiveTokenByHash');
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/orgs/${org.id}`, headers: { authorization: 'Bearer not-a-real-token' }, remoteAddress: '10.9.9.9' } as any);
      statuses.push(res.statusCode);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      gitbookError(res.json(), res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json().error.message).toMatch(/per 60 seconds; retry in \d+ seconds/);
        expect(Number(/retry in (\d+)/.exec(res.json().error.message)![1])).toBeLessThanOrEqual(60);
      }
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // The negative cache: one query for the bad token, however often it comes back.
    expect(lookups.mock.calls.length).toBe(1);
    lookups.mockRestore();
    // A token-less caller from the same address shares that budget.
    expect((await t.app.inject({ method: 'GET', url: `/v1/orgs/${org.id}`, remoteAddress: '10.9.9.9' } as any)).statusCode).toBe(429);
    // A valid token from another address is untouched, and a 403 carries the headers too.
    const ok = await t.app.inject({ method: 'GET', url: `/v1/orgs/${org.id}`, headers: { authorization: `Bearer ${org.admin.token}` }, remoteAddress: '10.8.8.8' } as any);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-ratelimit-remaining']).toBeDefined();
  });
});

describe('5. concurrent placements at one parent', () => {
  let t: TestApp;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Acme' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('60 concurrent creates, duplicates and moves at one parent: no 5xx, positions stay distinct', async () => {
    const token = org.admin.token;
    const post = (url: string, body?: unknown) =>
      t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { payload: JSON.stringify(body) } : {}) });
    const collection = (await post(`/v1/orgs/${org.id}/collections`, { title: 'Parent' })).json();
    const seedSpaces: string[] = [];
    for (let i = 0; i < 4; i++) seedSpaces.push((await post(`/v1/orgs/${org.id}/spaces`, { title: `Seed ${i}`, parent: collection.id })).json().id);
    const requests = Array.from({ length: 60 }, (_, i) => {
      if (i % 3 === 0) return post(`/v1/orgs/${org.id}/spaces`, { title: `New ${i}`, parent: collection.id });
      if (i % 3 === 1) return post(`/v1/spaces/${seedSpaces[i % 4]}/duplicate`);
      return post(`/v1/spaces/${seedSpaces[i % 4]}/move`, { position: { before: { type: 'space', space: seedSpaces[(i + 1) % 4] } } });
    });
    const responses = await Promise.all(requests);
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s >= 500), JSON.stringify(responses.filter((r) => r.statusCode >= 500).map((r) => r.body))).toEqual([]);
    expect(statuses.filter((s) => s === 201 || s === 200).length).toBeGreaterThan(40);
    const positions = (await t.db.selectFrom('spaces').select('position').where('parent_id', '=', collection.id).where('deleted_at', 'is', null).execute()).map((r) => Number(r.position));
    expect(new Set(positions).size).toBe(positions.length);
  }, 240_000);
});

describe('6. capability secrets in logs', () => {
  it('request URLs are logged with share keys, signatures, JWTs, tokens and PDF export ids redacted', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        callback();
      },
    });
    const base = await createTestApp({}, { logger: { ...(loggerOptions('info') as object), stream } as any });
    const app = base.app;
    try {
      const secrets = ['SHAREKEY123', 'SHAREPARAM456', 'SIGVALUE789', 'JWTVALUE000', 'TOKENVALUE111', 'EXPORTID222', 'BLOBNAME333'];
      const urls = [
        `/v1/spaces/abc?shareKey=${secrets[0]}`,
        `/sites/docs/page?share=${secrets[1]}`,
        `/v1/spaces/abc/blobs/hash/${secrets[6]}?type=image/png&sig=${secrets[2]}`,
        `/sites/docs/?jwt_token=${secrets[3]}&page=2`,
        `/v1/orgs?token=${secrets[4]}`,
        `/v1/exports/pdf/${secrets[5]}`,
      ];
      for (const url of urls) await app.inject({ method: 'GET', url, headers: { authorization: 'Bearer SECRETBEARER' } });
      const text = lines.join('\n');
      expect(text).toContain('"url"');
      for (const secret of [...secrets, 'SECRETBEARER']) expect(text, secret).not.toContain(secret);
      expect(text).toContain('page=2');
      expect(text).toContain('[redacted]');
    } finally {
      await base.close();
    }
  }, 300_000);
});
