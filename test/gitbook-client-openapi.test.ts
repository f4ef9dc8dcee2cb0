import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDERS_30_YAML, startSpecServer, type SpecServer } from '../src/modules/openapi-specs/openapi-specs.fixtures.ts';
import { createTestApp, type TestApp } from './app.ts';
import { createMember, createOrganization, type TestOrganization } from './factories.ts';
import { gitbookComponentErrors, gitbookSchemaErrors } from './gitbook-schema.ts';

/*
 * OpenAPI specs through GitBook's official client, unchanged but for `endpoint`: create,
 * PUT, visibility, versions and their content. Every answer is also checked against
 * GitBook's response schema of its operation.
 */
describe("GitBook's official client: OpenAPI specs", () => {
  let t: TestApp;
  let server: SpecServer;
  let org: TestOrganization;
  let api: GitBookAPI;
  let readerApi: GitBookAPI;
  let base: string;

  beforeAll(async () => {
    server = await startSpecServer({ 'orders.yaml': ORDERS_30_YAML });
    t = await createTestApp({ outboundAllowPrivate: true });
    org = await createOrganization(t);
    const reader = await createMember(t, org.id, 'read');
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    api = new GitBookAPI({ endpoint: base, authToken: org.admin.token });
    readerApi = new GitBookAPI({ endpoint: base, authToken: reader.token });
  });
  afterAll(async () => {
    await t.runJobsUntilIdle();
    await t.close();
    await server.close();
  });

  const valid = (method: string, path: string, status: number, body: unknown) => expect(gitbookSchemaErrors(method, `/v1${path}`, status, body)).toBeNull();

  it('create → process → versions and content → PUT with new content → visibility → delete', async () => {
    const created = await api.orgs.createOpenApiSpec(org.id, { slug: 'orders', source: { url: `${server.url}/orders.yaml` } });
    expect(created.status).toBe(201);
    valid('POST', `/orgs/${org.id}/openapi`, 201, created.data);
    expect(created.data.processingState).toBe('pending');
    await t.runJobsUntilIdle();

    const got = await readerApi.orgs.getOpenApiSpecBySlug(org.id, 'orders');
    valid('GET', `/orgs/${org.id}/openapi/orders`, 200, got.data);
    expect(got.data.processingState).toBe('complete');
    const firstVersion = got.data.lastVersion!;

    const list = await readerApi.orgs.listOpenApiSpecs(org.id);
    valid('GET', `/orgs/${org.id}/openapi`, 200, list.data);
    expect(list.data.items.map((s) => s.slug)).toEqual(['orders']);

    const latest = await readerApi.orgs.getLatestOpenApiSpecVersion(org.id, 'orders');
    valid('GET', `/orgs/${org.id}/openapi/orders/versions/latest`, 200, latest.data);
    expect(latest.data.id).toBe(firstVersion);
    const content = await readerApi.orgs.getLatestOpenApiSpecVersionContent(org.id, 'orders');
    valid('GET', `/orgs/${org.id}/openapi/orders/versions/latest/content`, 200, content.data);
    expect(Object.keys(content.data.filesystem)).toEqual(['orders.yaml']);
    const raw = await readerApi.orgs.getLatestOpenApiSpecVersionContentRaw(org.id, 'orders');
    valid('GET', `/orgs/${org.id}/openapi/orders/versions/latest/content/raw`, 200, raw.data);
    expect(raw.data).toEqual({ text: ORDERS_30_YAML, format: 'yaml' });

    server.files.set('orders.yaml', ORDERS_30_YAML.replace('Update an order', 'Modify an order'));
    t.clock.advance(1000);
    const put = await api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'orders', { source: { url: `${server.url}/orders.yaml` } });
    expect(put.status).toBe(200);
    valid('PUT', `/orgs/${org.id}/openapi/orders`, 200, put.data);
    const putNew = await api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'uploaded', { source: { text: ORDERS_30_YAML } });
    expect(putNew.status).toBe(201);
    valid('PUT', `/orgs/${org.id}/openapi/uploaded`, 201, putNew.data);
    await t.runJobsUntilIdle();

    const versions = await readerApi.orgs.listOpenApiSpecVersions(org.id, 'orders');
    valid('GET', `/orgs/${org.id}/openapi/orders/versions`, 200, versions.data);
    expect(versions.data.count).toBe(2);
    const old = await readerApi.orgs.getOpenApiSpecVersionById(org.id, 'orders', firstVersion);
    valid('GET', `/orgs/${org.id}/openapi/orders/versions/${firstVersion}`, 200, old.data);
    const oldContent = await readerApi.orgs.getOpenApiSpecVersionContentById(org.id, 'orders', firstVersion);
    valid('GET', `/orgs/${org.id}/openapi/orders/versions/${firstVersion}/content`, 200, oldContent.data);
    expect((oldContent.data.filesystem as any)['orders.yaml'].paths['/orders/{orderId}'].patch.summary).toBe('Update an order');

    const patched = await api.orgs.updateOpenApiSpecBySlug(org.id, 'orders', { visibility: 'public' as any });
    valid('PATCH', `/orgs/${org.id}/openapi/orders`, 200, patched.data);
    expect(gitbookComponentErrors('OpenAPISpec', patched.data)).toBeNull();
    const published = await fetch(patched.data.urls.published!.replace('http://quire.test', base));
    expect(published.status).toBe(200);
    expect(((await published.json()) as any).paths['/orders/{orderId}'].patch.summary).toBe('Modify an order');

    await expect(readerApi.orgs.updateOpenApiSpecBySlug(org.id, 'orders', { visibility: 'private' as any })).rejects.toMatchObject({ code: 403 });
    const deleted = await api.orgs.deleteOpenApiSpecBySlug(org.id, 'orders');
    expect(deleted.status).toBe(204);
    const missing = await readerApi.orgs.getOpenApiSpecBySlug(org.id, 'orders').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(GitBookAPIError);
    expect((missing as GitBookAPIError).code).toBe(404);
  });
});
