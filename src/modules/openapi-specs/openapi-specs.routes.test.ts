import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAfterJobs, createTestApp, type TestApp } from '../../../test/app.ts';
import type { TestOrganization, TestUser } from '../../../test/factories.ts';
import { createRoleMatrix } from '../../../test/role-matrix.ts';
import { MULTI_FILE, ORDERS_30_YAML, PETS_31_JSON, startSpecServer, UNPARSABLE, USERS_SWAGGER_20_YAML, type SpecServer } from './openapi-specs.fixtures.ts';

describe('OpenAPI specs', () => {
  let t: TestApp;
  let server: SpecServer;
  let org: TestOrganization;
  let admin: TestUser;
  let creator: TestUser;
  let reader: TestUser;
  let guest: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    server = await startSpecServer({
      'orders.yaml': ORDERS_30_YAML,
      'pets.json': PETS_31_JSON,
      'users.yaml': USERS_SWAGGER_20_YAML,
      'broken.yaml': UNPARSABLE,
      ...MULTI_FILE,
    });
    t = await createTestApp({ outboundAllowPrivate: true, openapiFetchTimeoutMs: 1500 });
    ({ org, admin, creator, reader, guest, outsider } = await createRoleMatrix(t, { roles: ['create', 'read', 'guest'] }));
  }, 120_000);
  afterAll(() => closeAfterJobs(t, server), 120_000);

  const O = (orgId = org.id) => `/v1/orgs/${orgId}/openapi`;
  const create = (slug: string, source: object, token = creator.token) => t.request('POST', O(), { token, body: { slug, source } });
  const get = (slug: string, token = reader.token) => t.request('GET', `${O()}/${slug}`, { token });

  async function processed(slug: string) {
    await t.runJobsUntilIdle();
    const res = await get(slug);
    expect(res.status).toBe(200);
    return res.body;
  }

  describe('create and process', () => {
    it('creates a spec from a 3.0 YAML URL: pending, then complete with a version whose content is the filesystem', async () => {
      const res = await create('orders', { url: `${server.url}/orders.yaml` });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        object: 'openapi-spec',
        slug: 'orders',
        sourceURL: `${server.url}/orders.yaml`,
        processingState: 'pending',
        visibility: 'private',
        lastProcessedErrorCount: 0,
        permissions: { view: true, edit: true },
        urls: { location: `http://quire.test/v1/orgs/${org.id}/openapi/orders`, app: `http://quire.test/app/orgs/${org.id}/openapi/orders` },
      });
      expect(res.body.lastVersion).toBeUndefined();

      const spec = await processed('orders');
      expect(spec.processingState).toBe('complete');
      expect(spec.lastVersion).toEqual(expect.any(String));
      expect(spec.lastProcessedAt).toBe(t.clock.now().toISOString());
      expect(spec.lastProcessErrorCode).toBeUndefined();
      // A read member sees it but may not edit it.
      expect(spec.permissions).toEqual({ view: true, edit: false });

      const latest = await t.request('GET', `${O()}/orders/versions/latest`, { token: reader.token });
      expect(latest.status).toBe(200);
      expect(latest.body).toEqual({
        object: 'openapi-spec-version',
        id: spec.lastVersion,
        createdAt: t.clock.now().toISOString(),
        url: `${server.url}/orders.yaml`,
        urls: { location: `http://quire.test/v1/orgs/${org.id}/openapi/orders/versions/${spec.lastVersion}` },
      });
      const content = await t.request('GET', `${O()}/orders/versions/latest/content`, { token: reader.token });
      expect(content.status).toBe(200);
      expect(Object.keys(content.body.filesystem)).toEqual(['orders.yaml']);
      expect(content.body.filesystem['orders.yaml'].paths['/orders/{orderId}'].patch.operationId).toBe('updateOrder');
      expect(content.body.url).toBe(`${server.url}/orders.yaml`);
      expect(content.body.urls).toEqual({ source: `${server.url}/orders.yaml`, public: null });
      const byId = await t.request('GET', `${O()}/orders/versions/${spec.lastVersion}/content`, { token: reader.token });
      expect(byId.body).toEqual(content.body);
      const raw = await t.request('GET', `${O()}/orders/versions/latest/content/raw`, { token: reader.token });
      expect(raw.status).toBe(200);
      expect(raw.body).toEqual({ text: ORDERS_30_YAML, format: 'yaml' });
    });

    it('processes a 3.1 JSON document and a Swagger 2.0 one', async () => {
      expect((await create('pets', { url: `${server.url}/pets.json` })).status).toBe(201);
      expect((await create('users', { url: `${server.url}/users.yaml` })).status).toBe(201);
      const pets = await processed('pets');
      const users = await processed('users');
      expect(pets).toMatchObject({ processingState: 'complete', lastProcessedErrorCount: 0 });
      expect(users).toMatchObject({ processingState: 'complete', lastProcessedErrorCount: 0 });
      const raw = await t.request('GET', `${O()}/pets/versions/latest/content/raw`, { token: reader.token });
      expect(raw.body.format).toBe('json');
      const content = await t.request('GET', `${O()}/users/versions/latest/content`, { token: reader.token });
      expect(content.body.filesystem['users.yaml'].swagger).toBe('2.0');
    });

    it('resolves relative $refs of a multi-file spec into the version’s filesystem', async () => {
      server.requests.length = 0;
      expect((await create('split', { url: `${server.url}/api/openapi.yaml` })).status).toBe(201);
      const spec = await processed('split');
      expect(spec).toMatchObject({ processingState: 'complete', lastProcessedErrorCount: 0 });
      const content = await t.request('GET', `${O()}/split/versions/latest/content`, { token: reader.token });
      expect(Object.keys(content.body.filesystem)).toEqual(['openapi.yaml', 'paths/items.yaml', 'schemas/item.yaml']);
      expect(content.body.filesystem['schemas/item.yaml'].Money.type).toBe('number');
      expect(server.requests).toEqual(['api/openapi.yaml', 'api/paths/items.yaml', 'api/schemas/item.yaml']);
    });

    it('creates a spec from an uploaded text (GitBook’s source.text)', async () => {
      const res = await create('uploaded', { text: PETS_31_JSON });
      expect(res.status).toBe(201);
      expect(res.body.sourceURL).toBeUndefined();
      const spec = await processed('uploaded');
      expect(spec).toMatchObject({ processingState: 'complete', lastProcessedErrorCount: 0 });
      const version = await t.request('GET', `${O()}/uploaded/versions/latest`, { token: reader.token });
      expect(version.body.url).toBe(`http://quire.test/v1/orgs/${org.id}/openapi/uploaded/versions/${spec.lastVersion}`);
      const raw = await t.request('GET', `${O()}/uploaded/versions/latest/content/raw`, { token: reader.token });
      expect(raw.body).toEqual({ text: PETS_31_JSON, format: 'json' });
    });
  });

  describe('processing failures', () => {
    it('a document that does not parse: PARSE_ERROR with the line of the problem', async () => {
      await create('broken', { url: `${server.url}/broken.yaml` });
      const spec = await processed('broken');
      expect(spec.processingState).toBe('complete');
      expect(spec.lastProcessErrorCode).toBe('PARSE_ERROR');
      expect(spec.lastVersion).toBeUndefined();
      expect(spec.lastProcessedErrorCount).toBe(1);
      expect(spec.lastProcessedErrors[0].message).toMatch(/^broken\.yaml \(line \d+, column \d+\): /);
      expect((await t.request('GET', `${O()}/broken/versions/latest`, { token: reader.token })).status).toBe(404);
    });

    it('a document that is YAML but not a valid OpenAPI document: PARSE_ERROR naming what is wrong', async () => {
      await create('invalid', { text: 'openapi: 3.0.3\ninfo: { title: t }\npaths: {}\n' });
      const spec = await processed('invalid');
      expect(spec.lastProcessErrorCode).toBe('PARSE_ERROR');
      // Placed in the user's own file (line and column) and by JSON pointer.
      expect(spec.lastProcessedErrors[0].message).toMatch(/^openapi\.yaml \(line 2, column \d+\) at \/info: must have required property 'version'/);
    });

    it('a source answering 404: FETCH_ERROR saying so', async () => {
      await create('missing', { url: `${server.url}/nothing-here.yaml` });
      const spec = await processed('missing');
      expect(spec.lastProcessErrorCode).toBe('FETCH_ERROR');
      expect(spec.lastProcessedErrors).toEqual([{ code: 'FETCH_ERROR', message: expect.stringContaining('HTTP 404') }]);
    });

    it('a source that never answers: FETCH_TIMEOUT', async () => {
      await create('silent', { url: `${server.url}/hang/spec.yaml` });
      const spec = await processed('silent');
      expect(spec.lastProcessErrorCode).toBe('FETCH_TIMEOUT');
      expect(spec.lastProcessedErrors[0].message).toContain('did not answer');
    });

    it('a reference carrying credentials is refused, and the secret is stored nowhere', async () => {
      server.files.set('leaky.yaml', MULTI_FILE['api/openapi.yaml'].replace('./paths/items.yaml', `http://user:hunter2@127.0.0.1:1/items.yaml`));
      await create('leaky', { url: `${server.url}/leaky.yaml` });
      const spec = await processed('leaky');
      expect(spec.lastProcessErrorCode).toBe('PARSE_ERROR');
      expect(spec.lastProcessedErrors[0].message).toContain('carries credentials');
      expect(JSON.stringify(spec)).not.toContain('hunter2');
    });

    it('a referenced file that is missing fails the whole version and keeps the last good one', async () => {
      server.files.set('refs.yaml', ORDERS_30_YAML);
      await create('refs', { url: `${server.url}/refs.yaml` });
      const good = await processed('refs');
      expect(good.lastVersion).toEqual(expect.any(String));
      server.files.set('refs.yaml', MULTI_FILE['api/openapi.yaml']); // refers to ./paths/items.yaml, absent at the root
      t.clock.advance(1000);
      expect((await t.request('PUT', `${O()}/refs`, { token: creator.token, body: { source: { url: `${server.url}/refs.yaml` } } })).status).toBe(200);
      const failed = await processed('refs');
      expect(failed.lastProcessErrorCode).toBe('FETCH_ERROR');
      expect(failed.lastProcessedErrors[0].message).toContain('./paths/items.yaml');
      expect(failed.lastVersion).toBe(good.lastVersion);
      const content = await t.request('GET', `${O()}/refs/versions/latest/content`, { token: reader.token });
      expect(content.body.filesystem['refs.yaml'].info.title).toBe('Orders API');
    });
  });

  describe('versions', () => {
    it('the same content makes no new version; new content makes one, and the old one stays readable', async () => {
      server.files.set('evolving.yaml', ORDERS_30_YAML);
      await create('evolving', { url: `${server.url}/evolving.yaml` });
      const first = await processed('evolving');
      t.clock.advance(1000);

      const same = await t.request('PUT', `${O()}/evolving`, { token: creator.token, body: { source: { url: `${server.url}/evolving.yaml` } } });
      expect(same.status).toBe(200);
      expect(same.body.processingState).toBe('pending');
      const after = await processed('evolving');
      expect(after.lastVersion).toBe(first.lastVersion);
      expect(after.lastProcessedAt).toBe(t.clock.now().toISOString());
      expect((await t.request('GET', `${O()}/evolving/versions`, { token: reader.token })).body.count).toBe(1);

      t.clock.advance(1000);
      server.files.set('evolving.yaml', ORDERS_30_YAML.replace('Update an order', 'Change an order'));
      await t.request('PUT', `${O()}/evolving`, { token: creator.token, body: { source: { url: `${server.url}/evolving.yaml` } } });
      const changed = await processed('evolving');
      expect(changed.lastVersion).not.toBe(first.lastVersion);

      const list = await t.request('GET', `${O()}/evolving/versions`, { token: reader.token });
      expect(list.status).toBe(200);
      expect(list.body.count).toBe(2);
      expect(list.body.items.map((v: any) => v.id)).toEqual([changed.lastVersion, first.lastVersion]);
      const paged = await t.request('GET', `${O()}/evolving/versions`, { token: reader.token, query: { limit: 1 } });
      expect(paged.body.items).toHaveLength(1);
      expect(paged.body.next.page).toEqual(expect.any(String));

      const old = await t.request('GET', `${O()}/evolving/versions/${first.lastVersion}/content`, { token: reader.token });
      expect(old.body.filesystem['evolving.yaml'].paths['/orders/{orderId}'].patch.summary).toBe('Update an order');
      const latest = await t.request('GET', `${O()}/evolving/versions/latest/content`, { token: reader.token });
      expect(latest.body.filesystem['evolving.yaml'].paths['/orders/{orderId}'].patch.summary).toBe('Change an order');
    });

    it('the refresh schedule fetches URL sources again', async () => {
      const { refreshSpecs } = await import('./openapi-specs.service.ts');
      server.files.set('scheduled.yaml', ORDERS_30_YAML);
      await create('scheduled', { url: `${server.url}/scheduled.yaml` });
      const first = await processed('scheduled');
      t.clock.advance(1000);
      server.files.set('scheduled.yaml', ORDERS_30_YAML.replace('Orders API', 'Orders API v2'));
      expect(await refreshSpecs(t.app.deps)).toBeGreaterThan(0);
      const after = await processed('scheduled');
      expect(after.lastVersion).not.toBe(first.lastVersion);
      expect(t.config.openapiRefreshIntervalMs).toBe(3_600_000);
    });

    it('404 for an unknown version, and for versions of an unknown spec', async () => {
      expect((await t.request('GET', `${O()}/orders/versions/nope`, { token: reader.token })).status).toBe(404);
      expect((await t.request('GET', `${O()}/orders/versions/nope/content`, { token: reader.token })).status).toBe(404);
      expect((await t.request('GET', `${O()}/ghost/versions`, { token: reader.token })).status).toBe(404);
      expect((await t.request('GET', `${O()}/ghost/versions/latest`, { token: reader.token })).status).toBe(404);
      expect((await t.request('GET', `${O()}/ghost/versions/latest/content/raw`, { token: reader.token })).status).toBe(404);
    });
  });

  describe('PUT, PATCH, DELETE, list', () => {
    it('PUT creates (201) when the slug is new', async () => {
      const res = await t.request('PUT', `${O()}/put-made`, { token: creator.token, body: { source: { url: `${server.url}/pets.json` } } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ slug: 'put-made', processingState: 'pending' });
      expect((await processed('put-made')).processingState).toBe('complete');
    });

    it('PATCH sets the visibility; a public spec downloads without a token as JSON and YAML, with an ETag', async () => {
      expect((await t.app.inject({ method: 'GET', url: `/openapi/${org.id}/orders.json` })).statusCode).toBe(404);
      const res = await t.request('PATCH', `${O()}/orders`, { token: creator.token, body: { visibility: 'public' } });
      expect(res.status).toBe(200);
      expect(res.body.visibility).toBe('public');
      expect(res.body.urls.published).toBe(`http://quire.test/openapi/${org.id}/orders.json`);
      expect((await get('orders')).body.visibility).toBe('public');
      const content = await t.request('GET', `${O()}/orders/versions/latest/content`, { token: reader.token });
      expect(content.body.urls.public).toBe(`http://quire.test/openapi/${org.id}/orders.json`);

      const json = await t.app.inject({ method: 'GET', url: `/openapi/${org.id}/orders.json` });
      expect(json.statusCode).toBe(200);
      expect(json.headers['content-type']).toContain('application/json');
      expect(JSON.parse(json.body).info.title).toBe('Orders API');
      const etag = String(json.headers.etag);
      expect(etag).toMatch(/^".+"$/);
      const again = await t.app.inject({ method: 'GET', url: `/openapi/${org.id}/orders.json`, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      const yaml = await t.app.inject({ method: 'GET', url: `/openapi/${org.id}/orders.yaml` });
      expect(yaml.statusCode).toBe(200);
      expect(yaml.headers['content-type']).toContain('yaml');
      expect(yaml.body).toContain('title: Orders API');
      expect(yaml.headers.etag).not.toBe(etag);

      // The multi-file spec downloads as one bundled document.
      await t.request('PATCH', `${O()}/split`, { token: creator.token, body: { visibility: 'public' } });
      const split = JSON.parse((await t.app.inject({ method: 'GET', url: `/openapi/${org.id}/split.json` })).body);
      expect(split.paths['/items'].get.responses['200'].content['application/json'].schema.properties.price.type).toBe('number');

      await t.request('PATCH', `${O()}/orders`, { token: creator.token, body: { visibility: 'private' } });
      expect((await t.app.inject({ method: 'GET', url: `/openapi/${org.id}/orders.json` })).statusCode).toBe(404);
    });

    it('lists the specs by slug, paginated', async () => {
      const res = await t.request('GET', O(), { token: reader.token });
      expect(res.status).toBe(200);
      const slugs = res.body.items.map((s: any) => s.slug);
      expect(slugs).toEqual([...slugs].sort());
      expect(slugs).toContain('orders');
      expect(res.body.count).toBe(slugs.length);
      const page = await t.request('GET', O(), { token: reader.token, query: { limit: 2 } });
      expect(page.body.items).toHaveLength(2);
      const next = await t.request('GET', O(), { token: reader.token, query: { limit: 2, page: page.body.next.page } });
      expect(next.body.items[0].slug).toBe(slugs[2]);
    });

    it('DELETE removes the spec and its versions; 204 again when absent', async () => {
      await create('doomed', { text: PETS_31_JSON });
      await processed('doomed');
      expect((await t.request('DELETE', `${O()}/doomed`, { token: creator.token })).status).toBe(204);
      expect((await get('doomed')).status).toBe(404);
      expect((await t.request('DELETE', `${O()}/doomed`, { token: creator.token })).status).toBe(204);
      const versions = await t.db.selectFrom('openapi_spec_versions').select('id').where('spec_id', 'not in', t.db.selectFrom('openapi_specs').select('id')).execute();
      expect(versions).toEqual([]);
    });
  });

  describe('validation', () => {
    it.each([
      ['a bad slug', { slug: 'Bad slug!', source: { url: 'https://example.com/a.yaml' } }],
      ['a slug ending with a dash', { slug: 'bad-', source: { url: 'https://example.com/a.yaml' } }],
      ['a slug over 100 characters', { slug: 'a'.repeat(101), source: { url: 'https://example.com/a.yaml' } }],
      ['no source', { slug: 'ok' }],
      ['no slug', { source: { url: 'https://example.com/a.yaml' } }],
      ['a source with url and text', { slug: 'ok', source: { url: 'https://example.com/a.yaml', text: 'x' } }],
      ['an unknown source field', { slug: 'ok', source: { file: 'a.yaml' } }],
      ['a URL that is not one', { slug: 'ok', source: { url: 'not a url' } }],
      ['a URL over 2048 characters', { slug: 'ok', source: { url: `https://example.com/${'a'.repeat(2048)}` } }],
      ['an ftp URL', { slug: 'ok', source: { url: 'ftp://example.com/a.yaml' } }],
      ['a URL with credentials', { slug: 'ok', source: { url: 'https://user:secret@example.com/a.yaml' } }],
      ['a URL with a token', { slug: 'ok', source: { url: 'https://example.com/a.yaml?token=abc' } }],
      ['an empty text', { slug: 'ok', source: { text: '' } }],
      ['an unknown field', { slug: 'ok', source: { url: 'https://example.com/a.yaml' }, extra: 1 }],
    ])('POST refuses %s (400) and creates nothing', async (_, body) => {
      const res = await t.request('POST', O(), { token: creator.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(400);
      expect(res.body.error.message).toEqual(expect.any(String));
      expect((await get('ok')).status).toBe(404);
    });

    it('the secret in a refused URL never appears in the answer', async () => {
      const res = await t.request('POST', O(), { token: creator.token, body: { slug: 'ok', source: { url: 'https://user:hunter2@example.com/a.yaml' } } });
      expect(res.text).not.toContain('hunter2');
    });

    it('POST refuses a slug already taken (400)', async () => {
      const res = await create('orders', { url: `${server.url}/orders.yaml` });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('already has a spec "orders"');
    });

    it('PUT and PATCH refuse bad bodies and slugs (400)', async () => {
      expect((await t.request('PUT', `${O()}/orders`, { token: creator.token, body: {} })).status).toBe(400);
      expect((await t.request('PUT', `${O()}/bad_slug`, { token: creator.token, body: { source: { url: 'https://example.com/a.yaml' } } })).status).toBe(400);
      expect((await t.request('PUT', `${O()}/orders`, { token: creator.token, body: { source: { url: 'https://example.com/a.yaml' }, slug: 'x' } })).status).toBe(400);
      expect((await t.request('PATCH', `${O()}/orders`, { token: creator.token, body: { visibility: 'everyone' } })).status).toBe(400);
      expect((await t.request('PATCH', `${O()}/orders`, { token: creator.token, body: {} })).status).toBe(400);
      expect((await get('orders')).body.sourceURL).toBe(`${server.url}/orders.yaml`);
    });

    it('limit above 1000 is refused', async () => {
      expect((await t.request('GET', O(), { token: reader.token, query: { limit: 1001 } })).status).toBe(400);
      expect((await t.request('GET', `${O()}/orders/versions`, { token: reader.token, query: { limit: 0 } })).status).toBe(400);
    });
  });

  describe('access', () => {
    it('401 without a token', async () => {
      expect((await t.request('GET', O())).status).toBe(401);
      expect((await t.request('POST', O(), { body: { slug: 'x', source: { text: 'x' } } })).status).toBe(401);
      expect((await t.request('GET', `${O()}/orders/versions/latest/content`)).status).toBe(401);
    });

    it('403 for a read member on every write, and nothing changes', async () => {
      expect((await create('by-reader', { url: `${server.url}/orders.yaml` }, reader.token)).status).toBe(403);
      expect((await t.request('PUT', `${O()}/orders`, { token: reader.token, body: { source: { url: `${server.url}/pets.json` } } })).status).toBe(403);
      expect((await t.request('PATCH', `${O()}/orders`, { token: reader.token, body: { visibility: 'public' } })).status).toBe(403);
      expect((await t.request('DELETE', `${O()}/orders`, { token: reader.token })).status).toBe(403);
      const spec = (await get('orders')).body;
      expect(spec.sourceURL).toBe(`${server.url}/orders.yaml`);
      expect(spec.visibility).toBe('private');
      expect((await get('by-reader')).status).toBe(404);
    });

    it('403 for a guest on reads; 404 for a non-member and an unknown organization', async () => {
      expect((await t.request('GET', O(), { token: guest.token })).status).toBe(403);
      expect((await get('orders', guest.token)).status).toBe(403);
      expect((await t.request('GET', O(), { token: outsider.token })).status).toBe(404);
      expect((await get('orders', outsider.token)).status).toBe(404);
      expect((await t.request('GET', O('nope'), { token: admin.token })).status).toBe(404);
      expect((await get('nope-spec', admin.token)).status).toBe(404);
      expect((await t.request('PATCH', `${O()}/nope-spec`, { token: admin.token, body: { visibility: 'public' } })).status).toBe(404);
    });
  });
});
