import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, type TestOrganization } from '../../../test/factories.ts';
import { markdownToDocument } from '../../content/markdown/parse.ts';
import { editSpaceContent } from '../content/content.service.ts';
import { ORDERS_30_YAML, PETS_31_JSON, startSpecServer, USERS_SWAGGER_20_YAML, type SpecServer } from './openapi-specs.fixtures.ts';

/*
 * OpenAPI blocks on a published site: the operation as an API reference, schemas and
 * webhooks, a new spec version shown at once, and a missing spec shown as a note.
 */
describe('OpenAPI blocks on published sites', () => {
  let t: TestApp;
  let server: SpecServer;
  let org: TestOrganization;
  let spaceId: string;
  const O = () => `/v1/orgs/${org.id}`;
  const req = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown) => t.request(method, url, { token: org.admin.token, body });
  const page = async (path: string) => (await t.request('GET', `/sites/api-docs/${path}`)).text;

  beforeAll(async () => {
    server = await startSpecServer({ 'orders.yaml': ORDERS_30_YAML, 'pets.json': PETS_31_JSON, 'users.yaml': USERS_SWAGGER_20_YAML });
    t = await createTestApp({ outboundAllowPrivate: true });
    org = await createOrganization(t);
    for (const [slug, file] of [['orders', 'orders.yaml'], ['pets', 'pets.json'], ['users', 'users.yaml']]) {
      expect((await req('POST', `${O()}/openapi`, { slug, source: { url: `${server.url}/${file}` } })).status).toBe(201);
    }
    await t.runJobsUntilIdle();
    const space = (spaceId = (await req('POST', `${O()}/spaces`, { title: 'API' })).body.id);
    const schemasDoc = markdownToDocument('Models:\n');
    schemasDoc.nodes.push(
      { object: 'block', type: 'openapi-schemas', isVoid: true, data: { ref: { kind: 'openapi', spec: 'orders' }, schemas: ['Order'], grouped: true } } as any,
      { object: 'block', type: 'openapi-webhook', isVoid: true, data: { ref: { kind: 'openapi', spec: 'pets' }, name: 'newPet', method: 'post' } } as any,
    );
    await editSpaceContent(t.app.deps, space, org.admin.id, (e) => {
      e.insertPage({ title: 'Orders', markdown: 'Change orders.\n\n{% openapi-operation spec="orders" path="/orders/{orderId}" method="patch" %}\n{% endopenapi-operation %}\n' });
      e.insertPage({ title: 'Users', markdown: '{% openapi-operation spec="users" path="/users" method="post" %}\n{% endopenapi-operation %}\n' });
      e.insertPage({ title: 'Models', document: schemasDoc });
      e.insertPage({ title: 'Missing', markdown: '{% openapi-operation spec="ghost" path="/x" method="get" %}\n{% endopenapi-operation %}\n\n{% openapi-operation spec="orders" path="/nope" method="get" %}\n{% endopenapi-operation %}\n' });
    });
    const site = await req('POST', `${O()}/sites`, { title: 'API docs', spaces: [space] });
    await req('PATCH', `${O()}/sites/${site.body.id}`, { basename: 'api-docs' });
    await req('POST', `${O()}/sites/${site.body.id}/publish`);
  }, 120_000);
  afterAll(async () => {
    await t?.runJobsUntilIdle();
    await t?.close();
    await server?.close();
  });

  it('renders the operation: method, path, server, summary, parameters by location, nested body, responses, examples with copy buttons', async () => {
    const html = await page('orders');
    expect(html).toContain('<span class="oa-method oa-m-patch">PATCH</span><code class="oa-path">/orders/{orderId}</code>');
    expect(html).toContain('Server: <code>https://api.example.com/v1</code>');
    expect(html).toContain('<h3 class="oa-summary">Update an order</h3>');
    expect(html).toContain('<em>status</em>'); // the description's markdown
    expect(html).toContain('<code>bearer</code> Bearer token');
    for (const heading of ['Path parameters', 'Query parameters', 'Headers']) expect(html).toContain(`<h4>${heading}</h4>`);
    expect(html).toContain('Identifier of the order to change');
    expect(html).toContain('Whether to email the customer');
    expect(html).toContain('<code class="oa-name">orderId</code> <span class="oa-type">string</span> <span class="oa-required">required</span>');
    // The body's nested schema: shipping (an Address) with its own fields, the enum and its default.
    expect(html).toContain('<code class="oa-name">shipping</code> <span class="oa-type">object (Address)</span>');
    expect(html).toContain('Street and number');
    expect(html).toContain('Possible values: <code>open</code> <code>shipped</code> <code>cancelled</code>');
    expect(html).toContain('Default: <code>open</code>');
    // oneOf shown as alternatives.
    expect(html).toContain('<div class="oa-alt-label">One of</div>');
    expect(html).toMatch(/<div class="oa-alt-title">Card /);
    // Responses per status.
    expect(html).toContain('<span class="oa-status oa-s2">200</span> <span class="oa-response-desc">The updated order</span>');
    expect(html).toContain('<span class="oa-status oa-s4">404</span> <span class="oa-response-desc">No such order</span>');
    // Examples: curl and two more languages, and a response built from the schema's examples.
    expect(html).toContain("curl -X PATCH &#39;https://api.example.com/v1/orders/{orderId}&#39;");
    expect(html).toContain('Authorization: Bearer YOUR_TOKEN');
    expect(html).toContain('const response = await fetch(');
    expect(html).toContain('import requests');
    expect(html).toContain('&quot;id&quot;: &quot;ord_123&quot;');
    expect(html).toContain('<button type="button" class="copy-code" aria-label="Copy code">Copy</button>');
  });

  it('renders Swagger 2.0 body parameters as a request body', async () => {
    const html = await page('users');
    expect(html).toContain('<span class="oa-method oa-m-post">POST</span><code class="oa-path">/users</code>');
    expect(html).toContain('Server: <code>https://users.example.com/api</code>');
    expect(html).toContain('<h4>Body <span class="oa-content-type">application/json</span> <span class="oa-required">required</span></h4>');
    expect(html).toContain('<code class="oa-name">email</code> <span class="oa-type">string · email</span>');
    expect(html).toContain('<span class="oa-status oa-s2">201</span>');
  });

  it('renders openapi-schemas and openapi-webhook blocks', async () => {
    const html = await page('models');
    expect(html).toContain('<section class="openapi-schemas">');
    expect(html).toContain('<code class="oa-name">Order</code>');
    expect(html).toContain('The order&#39;s id');
    expect(html).toContain('<span class="oa-method oa-m-webhook">POST webhook</span><code class="oa-path">newPet</code>');
  });

  it('the pages’ markdown and llms-full.txt read OpenAPI blocks without failing', async () => {
    const md = await t.request('GET', '/sites/api-docs/models.md');
    expect(md.status).toBe(200);
    const orders = await t.request('GET', '/sites/api-docs/orders.md');
    expect(orders.text).toContain('{% openapi-operation spec="orders" path="/orders/{orderId}" method="patch" %}');
    expect((await t.request('GET', '/sites/api-docs/llms-full.txt')).status).toBe(200);
  });

  it('a missing spec or operation renders as a note, not an error', async () => {
    const html = await page('missing');
    expect(html).toContain('The OpenAPI spec &quot;ghost&quot; is not available.');
    expect(html).toContain('GET /nope is not in the OpenAPI spec &quot;orders&quot;.');
  });

  it('a new version of the spec shows at once, without a new revision of the space', async () => {
    expect(await page('orders')).toContain('Update an order');
    server.files.set('orders.yaml', ORDERS_30_YAML.replace('Update an order', 'Amend an order'));
    t.clock.advance(1000);
    await req('PUT', `${O()}/openapi/orders`, { source: { url: `${server.url}/orders.yaml` } });
    await t.runJobsUntilIdle();
    const html = await page('orders');
    expect(html).toContain('<h3 class="oa-summary">Amend an order</h3>');
    expect(html).not.toContain('Update an order');
  });

  it('the link report resolves { kind: openapi } references, and counts one to a deleted spec as broken', async () => {
    const statusOf = async () => {
      const res = await req('GET', `/v1/spaces/${spaceId}/links`);
      expect(res.status).toBe(200);
      return Object.fromEntries(
        res.body.items.filter((i: any) => i.targetReference.kind === 'openapi').map((i: any) => [i.targetReference.spec, i.status]),
      );
    };
    expect(await statusOf()).toEqual({ orders: 'ok', users: 'ok', pets: 'ok', ghost: 'broken' });
    expect((await req('DELETE' as any, `${O()}/openapi/users`)).status).toBe(204);
    expect(await statusOf()).toEqual({ orders: 'ok', users: 'broken', pets: 'ok', ghost: 'broken' });
    // The published page says so instead of failing.
    expect(await page('users')).toContain('The OpenAPI spec &quot;users&quot; is not available.');
  });

  it('PDF export prints the operation from the spec', async () => {
    const { execFileSync } = await import('node:child_process');
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const res = await req('GET', `/v1/spaces/${spaceId}/pdf`);
    expect(res.status).toBe(200);
    const pdf = await t.app.inject({ method: 'GET', url: res.body.url.replace('http://quire.test', '') });
    expect(pdf.statusCode).toBe(200);
    const file = path.join(os.tmpdir(), `quire-openapi-${Date.now()}.pdf`);
    fs.writeFileSync(file, pdf.rawPayload);
    try {
      const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
      expect(text).toContain('PATCH /orders/{orderId}');
      expect(text).toContain('Identifier of the order to change');
      expect(text).toContain('Street and number');
      expect(text).toContain('No such order');
      expect(text).toContain('curl -X PATCH');
      // The models page's openapi-schemas block and the webhook.
      expect(text).toContain("The order's id");
      expect(text).toContain('A pet was added');
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
