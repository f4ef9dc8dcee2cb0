import { describe, expect, it } from 'vitest';
import { bundle, contentHash, externalRefs, filenameOf, parseSpecText, refTarget, SpecParseError } from './filesystem.ts';
import { computedDocument } from './computed.ts';
import { curlExample, exampleOf, listOperations, namedSchema, operationView, pythonExample, schemaNames, specModel, webhookView } from './view.ts';

const model = (document: object) => specModel({ 'openapi.json': document });

describe('OpenAPI files', () => {
  it('parses YAML and JSON, and locates what does not parse', () => {
    expect(parseSpecText('{"openapi":"3.1.0"}', 'a.json')).toEqual({ openapi: '3.1.0' });
    expect(parseSpecText('openapi: 3.0.0\n', 'a.yaml')).toEqual({ openapi: '3.0.0' });
    expect(() => parseSpecText('a: [\n', 'a.yaml')).toThrow(SpecParseError);
    expect(() => parseSpecText('just text', 'a.yaml')).toThrow(/not an object/);
  });

  it('names files relative to the entrypoint, resolves refs between them, and bundles', () => {
    expect(filenameOf('http://h/api/paths/a.yaml', 'http://h/api/openapi.yaml')).toBe('paths/a.yaml');
    expect(filenameOf('http://other/x.yaml', 'http://h/api/openapi.yaml')).toBe('http://other/x.yaml');
    expect(refTarget('paths/a.yaml', '../schemas/b.yaml')).toBe('schemas/b.yaml');
    // Above the entrypoint's folder: kept as a path (fetched from the source's host), never a made-up host.
    expect(refTarget('openapi.yaml', '../common/x.yaml')).toBe('../common/x.yaml');
    expect(refTarget('http://h/a/b.yaml', '../x.yaml')).toBe('http://h/x.yaml');
    expect(() => refTarget('http://h/a/b.yaml', '../../x.yaml')).toThrow(/climbs above the root of http:\/\/h/);
    expect(() => refTarget('openapi.yaml', '/x.yaml')).toThrow(/relative to the file/);
    expect(externalRefs({ a: { $ref: 'b.yaml#/X' }, c: [{ $ref: '#/local' }] })).toEqual(['b.yaml']);
    const fs = {
      'openapi.yaml': { paths: { '/x': { $ref: 'p.yaml' } }, components: { schemas: { L: { type: 'string' } } } },
      'p.yaml': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: 's.yaml#/A' } } } } } } },
      's.yaml': { A: { type: 'object', properties: { b: { $ref: '#/B' }, self: { $ref: '#/A' } } }, B: { type: 'integer' } },
    };
    const bundled = bundle(fs, 'openapi.yaml') as any;
    const schema = bundled.paths['/x'].get.responses[200].content['application/json'].schema;
    expect(schema.properties.b).toEqual({ type: 'integer' });
    // A target is inlined once; the cycle back to it is a reference to where it was inlined.
    expect(schema.properties.self).toEqual({ $ref: '#/paths/~1x/get/responses/200/content/application~1json/schema' });
    expect(() => bundle({ 'o.yaml': { a: { $ref: 'o2.yaml#/nope' } }, 'o2.yaml': {} }, 'o.yaml')).toThrow(/points at nothing/);
  });

  it('hashes content by names and texts, whatever the order', () => {
    const a = contentHash([{ name: 'a', text: '1' }, { name: 'b', text: '2' }]);
    expect(contentHash([{ name: 'b', text: '2' }, { name: 'a', text: '1' }])).toBe(a);
    expect(contentHash([{ name: 'a', text: '1' }, { name: 'b', text: '3' }])).not.toBe(a);
  });
});

describe('OpenAPI view model', () => {
  const doc = {
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    servers: [{ url: 'https://{region}.example.com', variables: { region: { default: 'eu' } } }],
    paths: {
      '/nodes/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', example: 'n1' } }],
          responses: { 200: { description: 'A node', content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } } },
        },
      },
    },
    components: {
      schemas: {
        Base: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } },
        Node: { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } }, kind: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } }] },
      },
    },
  };

  it('folds allOf, cuts cycles, keeps anyOf as alternatives, and fills server variables', () => {
    const m = model(doc);
    const op = operationView(m, '/nodes/{id}', 'GET')!;
    expect(op.server).toBe('https://eu.example.com');
    const node = op.responses[0]!.schema!;
    expect(node.refName).toBe('Node');
    expect(node.properties!.map((p) => [p.name, p.type, p.required])).toEqual([
      ['id', 'string · uuid', true],
      ['children', 'array of Node', false],
      ['kind', 'one of', false],
    ]);
    expect(node.properties![1]!.items!.truncated).toBe(true);
    expect(node.properties![2]!.alternatives!.kind).toBe('anyOf');
    expect(exampleOf(m, { $ref: '#/components/schemas/Node' })).toEqual({ id: '123e4567-e89b-12d3-a456-426614174000', children: [{}], kind: 'text' });
    expect(curlExample(op)).toBe("curl -X GET 'https://eu.example.com/nodes/n1'");
    expect(pythonExample(op)).toContain('requests.get("https://eu.example.com/nodes/n1")');
    expect(schemaNames(m)).toEqual(['Base', 'Node']);
    expect(namedSchema(m, 'Nope')).toBeNull();
    expect(operationView(m, '/nodes/{id}', 'delete')).toBeNull();
  });

  it('reads Swagger 2.0 formData as a form body, and 3.1 webhooks', () => {
    const swagger = specModel({
      'swagger.yaml': {
        swagger: '2.0',
        info: { title: 'S', version: '1' },
        host: 'api.test',
        paths: { '/upload': { post: { consumes: ['multipart/form-data'], parameters: [{ name: 'name', in: 'formData', type: 'string', required: true }], responses: { 204: { description: 'Done' } } } } },
      },
    });
    const op = operationView(swagger, '/upload', 'post')!;
    expect(op.server).toBe('https://api.test');
    expect(op.body!.contentType).toBe('multipart/form-data');
    expect(op.body!.schema.properties![0]).toMatchObject({ name: 'name', type: 'string', required: true });
    const hooks = model({ openapi: '3.1.0', info: { title: 'H', version: '1' }, webhooks: { ping: { post: { responses: { 200: { description: 'ok' } } } } } });
    expect(webhookView(hooks, 'ping', 'post')!.path).toBe('ping');
    expect(listOperations(hooks)).toEqual([]);
  });

  it('computed documents: models, operations of a tag, one operation; a missing spec says so', () => {
    const m = model({ ...doc, paths: { '/a': { get: { tags: ['x'], responses: {} }, post: { responses: {} } } } });
    expect(computedDocument(m, 's', { doc: 'models' }).nodes.map((n) => n.type)).toEqual(['openapi-schemas']);
    expect(computedDocument(m, 's', { doc: 'operations', page: 'x' }).nodes.map((n: any) => n.data.method)).toEqual(['get']);
    expect(computedDocument(m, 's', { doc: 'operation', page: '/a', method: 'post' }).nodes.map((n: any) => n.data.method)).toEqual(['post']);
    expect(JSON.stringify(computedDocument(null, 's', { doc: 'models' }))).toContain('is not available');
  });
});
