import { describe, expect, it } from 'vitest';
import { fingerprint, gitbookErrorProblem, resolveSchema as resolve, useSeededApp, type Schema } from './seed.ts';

/*
 * The authorization matrix (issue 13): every operation of /v1/openapi.json × {no token, a
 * member of another organization, guest, read, comment, edit, review, create, admin}
 * against the objects of one organization, with real ids and a minimal well-formed body.
 * Asserts, from the policy rules:
 * - no token: 401 on every operation that is not public; a member of another organization
 *   never gets a 2xx on anything of this organization (no leak); neither changes anything;
 * - reads are monotone in the role: what a role may read, every higher role may read;
 * - writes are tried from the lowest role up: every refusal below the first role allowed
 *   is a 403/404 (or a 400/409 about the input) in GitBook's shape that changed nothing.
 * `npm test` runs it on both databases; `npm run test:authz` alone.
 */

const ROLES = ['guest', 'read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
type Caller = 'none' | 'otherOrg' | (typeof ROLES)[number];
const SKIP = new Set([
  // Would end the run for everyone after it: the organization, its admin's own token.
  'deleteOrganizationById',
  'deleteApiToken',
]);

/** A minimal value of a schema: required fields only, simple values. */
function minimal(doc: Schema, raw: Schema | undefined, ids: Record<string, string>, name = '', depth = 0): unknown {
  const schema = resolve(doc, raw);
  if (depth > 6) return undefined;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return minimal(doc, branches.find((b: Schema) => resolve(doc, b).type !== 'null') ?? branches[0], ids, name, depth + 1);
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'string':
      if (ids[name]) return ids[name];
      if (schema.format === 'email') return 'someone@acme.test';
      if (schema.format === 'uri') return 'https://example.com/x';
      if (schema.format === 'date-time') return '2030-01-01T00:00:00.000Z';
      return 'Authz';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return schema.minItems ? [minimal(doc, schema.items, ids, name, depth + 1)] : [];
    default: {
      const out: Record<string, unknown> = {};
      for (const field of schema.required ?? []) out[field] = minimal(doc, schema.properties?.[field], ids, field, depth + 1);
      return out;
    }
  }
}

describe('authz: every operation × every kind of caller', () => {
  const suite = useSeededApp();

  it('no leak, no change where refused, reads monotone in the role', async () => {
    const { t, seeded, doc } = suite;
    const tokens: Record<Caller, string | null> = {
      none: null,
      otherOrg: seeded.users.otherOrg.token,
      ...Object.fromEntries(ROLES.map((r) => [r, seeded.users[r].token])),
    } as Record<Caller, string | null>;
    const problems: string[] = [];
    let calls = 0;
    const send = async (method: string, url: string, caller: Caller, body: unknown) => {
      calls++;
      const headers: Record<string, string> = {};
      if (tokens[caller]) headers.authorization = `Bearer ${tokens[caller]}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      return t.app.inject({ method: method as 'GET', url, headers, ...(body !== undefined ? { payload: JSON.stringify(body) } : {}) });
    };

    const operations: Array<{ method: string; url: string; id: string; body: unknown; public: boolean }> = [];
    for (const [path, item] of Object.entries<Schema>(doc.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const op = item[method];
        if (!op || SKIP.has(op.operationId)) continue;
        const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(seeded.ids[name] ?? 'unknown'));
        const bodySchema = resolve(doc, op.requestBody)?.content?.['application/json']?.schema;
        operations.push({
          method: method.toUpperCase(),
          url,
          id: op.operationId,
          body: bodySchema ? minimal(doc, bodySchema, seeded.ids) : undefined,
          public: Array.isArray(op.security) && op.security.length === 0,
        });
      }
    }
    expect(operations.length).toBeGreaterThan(100);
    // Reads first (nothing changes), then writes; deletes last so the objects stay for the rest.
    const order = (m: string) => (m === 'GET' ? 0 : m === 'DELETE' ? 2 : 1);
    operations.sort((a, b) => order(a.method) - order(b.method));

    let leaks = 0;
    for (const op of operations) {
      const where = (caller: Caller, status: number, text: string) => `${op.id} ${op.method} ${op.url} as ${caller}: ${status} ${text.slice(0, 200)}`;
      const write = op.method !== 'GET';
      // Background jobs a previous operation enqueued (e.g. ingestConversation's) run in the
      // app's worker: let them finish so their writes are not taken for this operation's.
      if (write) await t.runJobsUntilIdle();
      // Outsiders: no token, a member of another organization.
      for (const caller of ['none', 'otherOrg'] as const) {
        const before = write ? await fingerprint(t) : '';
        const res = await send(op.method, op.url, caller, op.body);
        const changed = write && (await fingerprint(t)) !== before;
        if (res.statusCode >= 500) problems.push(`5xx ${where(caller, res.statusCode, res.body)}`);
        if (caller === 'none' && !op.public && res.statusCode !== 401) problems.push(`expected 401: ${where(caller, res.statusCode, res.body)}`);
        const orgScoped = /\/(orgs|spaces|collections|sites)\//.test(op.url);
        // A read of this organization's objects, or a write that changed anything (an
        // idempotent 204 for an object already gone changes nothing and tells nothing).
        // A public read (`security: []`, e.g. GET {O}/sso, the sign-in page's providers) is
        // meant for anyone, so an outsider's 2xx on it is no leak.
        const exposes = op.url.includes('email-domains')
          ? res.body.includes(seeded.org.id)
          : orgScoped && (write ? changed : !op.public);
        if (caller === 'otherOrg' && exposes && res.statusCode < 300) {
          leaks++;
          problems.push(`leak: ${where(caller, res.statusCode, res.body)}`);
        }
        if (res.statusCode >= 400) {
          const shape = gitbookErrorProblem(res.statusCode, res.body, String(res.headers['content-type'] ?? ''));
          if (shape) problems.push(`error body (${shape}): ${where(caller, res.statusCode, res.body)}`);
          if (changed) problems.push(`changed while refused: ${where(caller, res.statusCode, res.body)}`);
        }
        if (caller === 'none' && res.statusCode < 300 && changed) problems.push(`changed without a token: ${where(caller, res.statusCode, res.body)}`);
      }
      // Members, from the lowest role up.
      let allowedFrom: string | null = null;
      for (const role of ROLES) {
        const before = write ? await fingerprint(t) : '';
        const res = await send(op.method, op.url, role, op.body);
        if (res.statusCode >= 500) problems.push(`5xx ${where(role, res.statusCode, res.body)}`);
        if (res.statusCode < 300) {
          allowedFrom ??= role;
          if (write) break; // The object changed: higher roles would act on another state.
          continue;
        }
        const shape = gitbookErrorProblem(res.statusCode, res.body, String(res.headers['content-type'] ?? ''));
        if (shape) problems.push(`error body (${shape}): ${where(role, res.statusCode, res.body)}`);
        if (write && (await fingerprint(t)) !== before) problems.push(`changed while refused: ${where(role, res.statusCode, res.body)}`);
        // A read refused to a role after a lower one was allowed breaks the role order.
        if (!write && allowedFrom && allowedFrom !== 'guest' && [401, 403, 404].includes(res.statusCode)) {
          problems.push(`not monotone (allowed from ${allowedFrom}): ${where(role, res.statusCode, res.body)}`);
        }
      }
    }
    console.log(`authz (${t.dialect}): ${operations.length} operations, ${calls} calls, ${leaks} leaks, ${problems.length} problems`);
    expect(problems).toEqual([]);
  }, 900_000);
});
