import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, type TestOrganization } from '../../../test/factories.ts';
import { ORDERS_30_YAML, startSpecServer, type SpecServer } from './openapi-specs.fixtures.ts';

/*
 * Computed pages (`computed: { type: builtin:openapi, ... }`): written through a change
 * request's content batch, read back as stored, expanded with `evaluated=true`, and shown
 * on the published site from the spec's latest version.
 */
describe('computed OpenAPI pages', () => {
  let t: TestApp;
  let server: SpecServer;
  let org: TestOrganization;
  let spaceId: string;
  let models: string;
  let orders: string;
  const req = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown, query?: Record<string, string | boolean>) => t.request(method, url, { token: org.admin.token, body, query });
  /*
   * Page reads of computed pages skip GitBook's response-schema check: its
   * RevisionPageDocument is a oneOf of `{ computed, computedSeed }` and `{ documentId? }`,
   * and the second branch requires nothing, so every computed page matches both branches
   * and no computed page can satisfy the oneOf. Everything else is checked.
   */
  const readPage = (pageId: string, query: Record<string, string | boolean> = {}) =>
    t.request('GET', `/v1/spaces/${spaceId}/content/page/${pageId}`, { token: org.admin.token, query, skipSchemaCheck: true });
  const computed = (props: object) => ({ type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'orders' } } }, props });

  beforeAll(async () => {
    server = await startSpecServer({ 'orders.yaml': ORDERS_30_YAML });
    t = await createTestApp({ outboundAllowPrivate: true });
    org = await createOrganization(t);
    await req('POST', `/v1/orgs/${org.id}/openapi`, { slug: 'orders', source: { url: `${server.url}/orders.yaml` } });
    await t.runJobsUntilIdle();
    spaceId = (await req('POST', `/v1/orgs/${org.id}/spaces`, { title: 'API' })).body.id;
    const cr = await req('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Reference' });
    const batch = await req('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      changes: [
        { operation: 'insert_page', ref: 'models', title: 'Models', computed: computed({ doc: 'models' }), document: { markdown: '' } },
        { operation: 'insert_page', ref: 'orders', title: 'Orders', computed: computed({ doc: 'operations', page: 'orders' }), document: { markdown: '' } },
      ],
    }, { compat: false });
    expect(batch.status, batch.text).toBe(200);
    const ids = Object.fromEntries(batch.body.changes.map((c: any) => [c.ref, typeof c.page === 'string' ? c.page : c.page.id]));
    models = ids.models;
    orders = ids.orders;
    expect((await req('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const site = await req('POST', `/v1/orgs/${org.id}/sites`, { title: 'API', spaces: [spaceId] });
    await req('PATCH', `/v1/orgs/${org.id}/sites/${site.body.id}`, { basename: 'computed-api' });
    await req('POST', `/v1/orgs/${org.id}/sites/${site.body.id}/publish`);
  }, 120_000);
  afterAll(async () => {
    await t?.runJobsUntilIdle();
    await t?.close();
    await server?.close();
  });

  it('the content API gives the page with computed as stored', async () => {
    const res = await readPage(models);
    expect(res.status).toBe(200);
    expect(res.body.computed).toEqual(computed({ doc: 'models' }));
    expect(res.body.computedSeed).toEqual(expect.any(String));
    expect(JSON.stringify(res.body.document)).not.toContain('openapi-schemas');
  });

  it('evaluated=true expands the computed content from the spec', async () => {
    const res = await readPage(models, { evaluated: true });
    expect(res.status).toBe(200);
    expect(res.body.document.nodes).toEqual([expect.objectContaining({ type: 'openapi-schemas', data: expect.objectContaining({ ref: { kind: 'openapi', spec: 'orders' } }) })]);
    const ops = await readPage(orders, { evaluated: true });
    expect(ops.body.document.nodes.map((n: any) => [n.type, n.data.method, n.data.path])).toEqual([
      ['openapi-operation', 'patch', '/orders/{orderId}'],
      // getOrder has no tag: not on the "orders" tag page.
    ]);
  });

  it('the published site renders computed pages: the models page lists the schemas', async () => {
    const html = (await t.request('GET', '/sites/computed-api/models')).text;
    expect(html).toContain('<section class="openapi-schemas">');
    expect(html).toContain('<code class="oa-name">Order</code>');
    expect(html).toContain('<code class="oa-name">Address</code>');
    const ops = (await t.request('GET', '/sites/computed-api/orders')).text;
    expect(ops).toContain('<span class="oa-method oa-m-patch">PATCH</span>');
  });

  it('a new version of the spec is what the next evaluated read shows (the cached page is not reused)', async () => {
    const before = await readPage(orders, { evaluated: true });
    expect(before.body.document.nodes.map((n: any) => n.data.path)).toEqual(['/orders/{orderId}']);
    const replaced = await req('PUT', `/v1/orgs/${org.id}/openapi/orders`, { source: { text: ORDERS_30_YAML.replace('/orders/{orderId}:', '/purchases/{orderId}:') } });
    expect(replaced.status, replaced.text).toBe(200);
    await t.runJobsUntilIdle();
    const after = await readPage(orders, { evaluated: true });
    expect(after.body.document.nodes.map((n: any) => n.data.path)).toEqual(['/purchases/{orderId}']);
    const back = await req('PUT', `/v1/orgs/${org.id}/openapi/orders`, { source: { url: `${server.url}/orders.yaml` } });
    expect(back.status, back.text).toBe(200);
    await t.runJobsUntilIdle();
  });

  it('update_page can change or remove computed; a bad computed source is refused', async () => {
    const cr = await req('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Change' });
    const bad = await req('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'update_page', page: models, computed: { type: 'builtin:other', dependencies: {}, props: {} } }],
    });
    expect(bad.status).toBe(400);
    const ok = await req('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, { changes: [{ operation: 'update_page', page: orders, computed: null }] });
    expect(ok.status, ok.text).toBe(200);
    expect((await req('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const res = await readPage(orders, { evaluated: true });
    expect(res.body.computed).toBeUndefined();
  });
});
