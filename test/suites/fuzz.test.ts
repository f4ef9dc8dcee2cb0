import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprint, gitbookErrorProblem, resolveSchema as resolve, useSeededApp, type Schema, type Seed } from './seed.ts';

/*
 * Property-based requests generated from Quire's own /v1/openapi.json (issue 13): every
 * documented operation, with path parameters, queries and bodies drawn from its schemas and
 * from hostile values (wrong types, missing and unknown fields, NUL, lone surrogates, RTL,
 * overlong strings, huge and negative numbers, hostile ids and cursors, invalid JSON, wrong
 * content types). Asserts: no 5xx, every error body in GitBook's shape, and no state change
 * from any 4xx (a digest of every table before and after each write).
 *
 * `npm test` runs a short seeded form; `FUZZ_RUNS=10000 npm run test:fuzz` any number
 * (FUZZ_SEED picks another sequence). Runs on PostgreSQL when DATABASE_URL is set.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 250);
const SEED = Number(process.env.FUZZ_SEED ?? 13);

interface Operation {
  method: string;
  path: string;
  operationId: string;
  pathParams: string[];
  query: Array<{ name: string; schema: Schema }>;
  body: Schema | null;
}

const hostileStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202eevil\u202c',
  '\u200f\u0645\u0631\u062d\u0628\u0627',
  '😀'.repeat(50),
  'a'.repeat(5000),
  'ä'.repeat(300),
  '../../etc/passwd',
  '%00',
  '%C0%AE',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '{"$ne":null}',
  '\r\nX-Injected: 1',
  'null',
  '-1',
  '1e309',
  'NaN',
];
const hostileNumbers = [-1, 0, -2147483649, 2147483648, 2 ** 53 + 1, -(2 ** 53) - 1, 1e308, -1e308, 0.5, 1e-9];
const invalidJson = ['{', '{"a":', '[', '"', '{"a":1,}', 'nul', '\u0000', '{"__proto__":{"x":1}}', '[]', '"text"', '42', 'true'];
const contentTypes = ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/octet-stream'];

/** Encodes any string into a URL segment, lone surrogates included (as their WTF-8 bytes). */
function encodeSegment(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    else out += encodeURIComponent(ch);
  }
  return out;
}

const hostileString = fc.oneof(fc.constantFrom(...hostileStrings), fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 }));
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(...hostileNumbers),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('x', 'titel', '__proto__', 'constructor', '\u0000'), hostileString, { maxKeys: 2 }),
);

/** Values for a schema: mostly well-typed (with hostile strings and numbers), sometimes anything. */
function valueFor(doc: Schema, raw: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  if (depth > 3) return hostileValue;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((b: Schema) => valueFor(doc, b, depth + 1)), hostileValue);
  if (schema.allOf) return valueFor(doc, Object.assign({}, ...schema.allOf.map((b: Schema) => resolve(doc, b))), depth + 1);
  const typed = (() => {
    if (schema.enum) return fc.constantFrom(...schema.enum);
    if (schema.const !== undefined) return fc.constant(schema.const);
    switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
      case 'string':
        return fc.oneof(fc.string({ maxLength: 30 }), hostileString, ...(schema.format === 'uri' ? [fc.webUrl()] : []));
      case 'integer':
        return fc.oneof(fc.integer({ min: -5, max: 200 }), fc.constantFrom(...hostileNumbers));
      case 'number':
        return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(...hostileNumbers));
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.array(valueFor(doc, schema.items, depth + 1), { maxLength: 3 });
      case 'object':
      default: {
        const properties: Record<string, Schema> = schema.properties ?? {};
        const names = Object.keys(properties);
        if (names.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), hostileValue, { maxKeys: 2 });
        const record: Record<string, fc.Arbitrary<unknown>> = {};
        for (const name of names) record[name] = valueFor(doc, properties[name], depth + 1);
        return fc.tuple(fc.record(record, { requiredKeys: [] }), fc.option(fc.tuple(fc.constantFrom('x', 'titel', 'unknownField'), hostileValue), { freq: 4 })).map(([object, extra]) =>
          extra ? { ...object, [extra[0]]: extra[1] } : object,
        );
      }
    }
  })();
  return fc.oneof({ weight: 6, arbitrary: typed }, { weight: 1, arbitrary: hostileValue });
}

function operationsOf(doc: Schema): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      if (!op) continue;
      const params: Schema[] = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => resolve(doc, p));
      const content = resolve(doc, op.requestBody)?.content ?? {};
      ops.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? `${method} ${path}`,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: content['application/json']?.schema ?? null,
      });
    }
  }
  return ops;
}

interface Case {
  op: Operation;
  path: Record<string, string>;
  query: Record<string, unknown>;
  body: { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string };
  contentType: string;
  caller: 'admin' | 'read' | 'outsider' | 'none' | 'invalid';
}

function caseFor(doc: Schema, op: Operation, seeded: Seed): fc.Arbitrary<Case> {
  const pathArb: Record<string, fc.Arbitrary<string>> = {};
  for (const name of op.pathParams) {
    const real = seeded.ids[name];
    pathArb[name] = fc.oneof(
      { weight: 5, arbitrary: real ? fc.constant(real) : fc.string({ minLength: 1, maxLength: 12 }) },
      { weight: 2, arbitrary: hostileString.filter((s) => s.length > 0) },
      { weight: 1, arbitrary: fc.constantFrom('a'.repeat(101), 'x'.repeat(300), 'y'.repeat(2049), '..', '.', '%2e%2e', seeded.other.id) },
    );
  }
  const queryArb: Record<string, fc.Arbitrary<unknown>> = {};
  for (const q of op.query) queryArb[q.name] = q.name === 'page' ? fc.oneof(hostileString, fc.base64String({ maxLength: 60 })) : valueFor(doc, q.schema);
  const bodyArb = op.body
    ? fc.oneof(
        { weight: 6, arbitrary: valueFor(doc, op.body).map((value) => ({ kind: 'json' as const, value })) },
        { weight: 1, arbitrary: fc.constantFrom(...invalidJson).map((text) => ({ kind: 'raw' as const, text })) },
        { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
      )
    : fc.oneof({ weight: 5, arbitrary: fc.constant({ kind: 'none' as const }) }, { weight: 1, arbitrary: hostileValue.map((value) => ({ kind: 'json' as const, value })) });
  return fc.record({
    op: fc.constant(op),
    path: fc.record(pathArb),
    query: fc.record(queryArb, { requiredKeys: [] }),
    body: bodyArb,
    contentType: fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom(...contentTypes) }),
    caller: fc.oneof({ weight: 8, arbitrary: fc.constant('admin' as const) }, { weight: 1, arbitrary: fc.constantFrom('read' as const, 'outsider' as const, 'none' as const, 'invalid' as const) }),
  });
}

function queryString(query: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) parts.push(`${encodeSegment(name)}=${encodeSegment(typeof v === 'string' ? v : JSON.stringify(v) ?? '')}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

describe('fuzz: requests generated from /v1/openapi.json', () => {
  const suite = useSeededApp();

  it(`${RUNS} seeded requests: no 5xx, GitBook error bodies, no state change from a 4xx`, async () => {
    const { t, seeded, doc } = suite;
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThan(100);
    const tokens: Record<Case['caller'], string | null> = {
      admin: seeded.users.admin.token,
      read: seeded.users.read.token,
      outsider: seeded.users.otherOrg.token,
      none: null,
      invalid: 'gb_api_not-a-valid-token',
    };
    const statuses = new Map<number, number>();
    let sent = 0;
    const arbitrary = fc.constantFrom(...ops).chain((op) => caseFor(doc, op, seeded));
    await fc.assert(
      fc.asyncProperty(arbitrary, async (c) => {
        let url = c.op.path;
        for (const [name, value] of Object.entries(c.path)) url = url.replace(`{${name}}`, encodeSegment(value));
        url += queryString(c.query);
        const headers: Record<string, string> = {};
        const token = tokens[c.caller];
        if (token) headers.authorization = `Bearer ${token}`;
        let payload: string | undefined;
        if (c.body.kind === 'json') payload = JSON.stringify(c.body.value) ?? 'null';
        if (c.body.kind === 'raw') payload = c.body.text;
        if (payload !== undefined) headers['content-type'] = c.contentType;
        const write = c.op.method !== 'GET';
        // Jobs an earlier 2xx enqueued (a translation run) write in the app's worker: let
        // them finish so their writes are not taken for this request's.
        if (write) await t.runJobsUntilIdle();
        const before = write ? await fingerprint(t) : '';
        const res = await t.app.inject({ method: c.op.method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) });
        sent++;
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const where = `${c.op.method} ${url.slice(0, 300)} body=${(payload ?? '').slice(0, 300)} -> ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, where).toBeLessThan(500);
        if (res.statusCode >= 400) {
          expect(gitbookErrorProblem(res.statusCode, res.body, String(res.headers['content-type'] ?? '')), where).toBeNull();
          if (write) expect(await fingerprint(t), `state changed by a ${res.statusCode}: ${where}`).toBe(before);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    console.log(`fuzz (${t.dialect}): ${sent} requests over ${ops.length} operations; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
  }, Math.max(300_000, RUNS * 1_500));
});
