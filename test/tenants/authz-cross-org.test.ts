import { beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../src/modules/sessions/sessions.service.ts';
import { createMember, createUser, type TestUser } from '../factories.ts';
import { generateIdpKeys } from '../saml-idp.ts';
import { EXPECTED, expectedStatus, ROLES } from '../suites/authz.expected.ts';
import { gitbookErrorProblem, minimal, resolveSchema as resolve, seedObjects, tableDigests, useSeededApp, type Schema } from '../suites/seed.ts';

/*
 * Tenants cannot reach each other (issue 30). Organization A holds one of everything
 * (test/suites/seed.ts, plus a SAML provider, a review, a requested reviewer, a
 * conversation and a PDF export); organization B holds the same, made by its own admin.
 * Every operation of /v1/openapi.json, and every route it does not list (HIDDEN below),
 * is called:
 * 1. on A's objects, by each role of B (admin … guest) and by a user of no organization:
 *    the status is the one authz.expected.ts gives a member of another organization (404
 *    for almost everything), no 2xx shows anything of A, nothing changes (a digest of every
 *    table before and after);
 * 2. cross-wired, by B's admin and by a user who is admin of both: B's paths with one of A's
 *    ids in them, and B's paths with A's ids in the body or query (A's collection as a
 *    space's parent, A's user and team in B's grants, A's page in B's change request, A's
 *    space in B's site or translation ...): refused, nothing changed.
 * A route missing from both the document and HIDDEN fails the suite.
 */

const B_ROLES = [...ROLES].reverse();
type Outsider = `B ${(typeof ROLES)[number]}` | 'no organization';

/** Path parameters that are names or numbers, the same in both organizations: never swapped. */
const NOT_IDS = new Set(['emailDomain', 'specSlug', 'pagePath', 'changeRequestNumber']);

/**
 * Body and query fields that name an object, and the path parameter whose kind of id they
 * take (from the request schemas: `parent` of a space is a collection, `sectionId` a site
 * section ...).
 */
const ID_FIELDS: Record<string, string> = {
  parent: 'collectionId',
  collection: 'collectionId',
  space: 'spaceId',
  spaces: 'spaceId',
  spaceId: 'spaceId',
  users: 'userId',
  teams: 'teamId',
  defaultTeam: 'teamId',
  site: 'siteId',
  siteSpace: 'siteSpaceId',
  defaultSiteSpace: 'siteSpaceId',
  siteSection: 'siteSectionId',
  defaultSiteSection: 'siteSectionId',
  sectionId: 'siteSectionId',
  sections: 'siteSectionId',
  siteSectionGroupId: 'siteSectionGroupId',
  page: 'pageId',
  targetPage: 'pageId',
  revision: 'revisionId',
  files: 'fileId',
  file: 'fileId',
  changeRequestId: 'changeRequestId',
  organization: 'organizationId',
};

/**
 * Routes /v1/openapi.json does not list, each with where this suite reaches it. A new
 * route fails the suite until it is listed here or in the document.
 */
const HIDDEN: Record<string, string> = {
  'GET /': 'no tenant data (redirect)',
  'GET /metrics': 'no tenant data (process metrics)',
  'GET /healthz': 'no tenant data',
  'GET /robots.txt': 'no tenant data',
  'GET /v1/docs': 'Swagger UI of the public document',
  'GET /v1/docs/static/index.html': 'Swagger UI',
  'GET /v1/docs/static/swagger-initializer.js': 'Swagger UI',
  'GET /v1/docs*': 'Swagger UI',
  'GET /v1/docs/json': 'the public document',
  'GET /v1/docs/yaml': 'the public document',
  'GET /*': 'published sites on custom hostnames: "published sites"',
  'GET /sites/:site': 'published sites: "published sites"',
  'GET /sites/:site*': 'published sites: "published sites"',
  'GET /v1/spaces/:spaceId/revisions/:revisionId*': 'page by path (wildcard twin of .../path/:pagePath): "hidden routes"',
  'GET /v1/spaces/:spaceId/content*': 'page by path (wildcard twin): "hidden routes"',
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/content*': 'page by path (wildcard twin): "hidden routes"',
  'GET /downloads/blobs/:scope/:hash/:name': 'signed file download: "hidden routes"',
  'GET /v1/exports/pdf/:exportId': 'PDF export by unguessable id: "hidden routes"',
  'GET /openapi/:organizationId/:file': "an organization's public spec: \"hidden routes\"",
  'GET /sso/saml/:providerId': 'SAML metadata (public by design, no tenant content)',
  'GET /sso/saml/:providerId/start': 'SAML sign-in start (public by design)',
  'POST /sso/saml/:providerId/acs': "SAML assertions: the sso module's own suite (issue 30, SAML identity)",
  'GET /app': 'app area: "app area"',
  'GET /app/signin': 'app area sign-in form (no tenant data)',
  'GET /app/signin/:organization': "one organization's providers, named by its id or hostname; test/tenants/identity.test.ts",
  'GET /app/login': 'app area login link (no tenant data)',
  'POST /app/signout': "app area: the caller's own session",
  'GET /app/account': "app area: the caller's own account",
  'POST /app/account/tokens': "app area: the caller's own tokens",
  'POST /app/account/tokens/:tokenId/revoke': 'app area: "app area"',
  'GET /app/o/:organizationId': 'app area: "app area"',
  'GET /app/o/:organizationId/search': 'app area: "app area"',
  'GET /app/o/:organizationId/sites/:siteId': 'app area: "app area"',
  'GET /app/o/:organizationId/c/:collectionId': 'app area: "app area"',
  'GET /app/s/:spaceId': 'app area: "app area"',
  'GET /app/s/:spaceId/pages/:pageId': 'app area: "app area"',
  'GET /app/s/:spaceId/search': 'app area: "app area"',
  'GET /app/s/:spaceId/revisions/:revisionId': 'app area: "app area"',
  'GET /app/s/:spaceId/revisions/:revisionId/pages/:pageId': 'app area: "app area"',
  'GET /app/s/:spaceId/change-requests/:number': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/pages/:pageId/edit': 'app area: test/tenants/app-area.test.ts',
  'GET /app/s/:spaceId/change-requests': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/change-requests': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/change-requests/:number/pages': 'app area: test/tenants/app-area.test.ts',
  'GET /app/s/:spaceId/change-requests/:number/pages/:pageId': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/change-requests/:number/pages/:pageId': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/change-requests/:number/pages/:pageId/move': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/change-requests/:number/pages/:pageId/place': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/change-requests/:number/pages/:pageId/delete': 'app area: test/tenants/app-area.test.ts',
  'GET /app/s/:spaceId/change-requests/:number/pages/:pageId/edit': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/change-requests/:number/details': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/change-requests/:number/status': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/change-requests/:number/reviewers': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/change-requests/:number/reviews': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/change-requests/:number/merge': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/change-requests/:number/update': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/change-requests/:number/comments': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/change-requests/:number/comments/:commentId': 'app area: test/tenants/app-area.test.ts',
  'POST /app/s/:spaceId/change-requests/:number/comments/:commentId/replies': 'app area: test/tenants/app-area.test.ts',
  'GET /app/assets/:file': "the editor's bundle (no tenant data)",
  'POST /app/markdown': 'markdown to a document for paste (no tenant data; CSRF-checked, budgeted): app-area.editor.test.ts',
  'GET /sites/:site/robots.txt': 'published sites: "published sites"',
  'GET /sites/:site/sitemap.xml': 'published sites: "published sites"',
  'GET /sites/:site/llms.txt': 'published sites: "published sites"',
  'GET /sites/:site/llms-full.txt': 'published sites: "published sites"',
  'GET /sites/:site/~search': 'published sites: "published sites"',
  'GET /sitemap.xml': 'published sites: "published sites"',
  'GET /llms.txt': 'published sites: "published sites"',
  'GET /llms-full.txt': 'published sites: "published sites"',
  'GET /~search': 'published sites: "published sites"',
};

/** Every route the app serves, `METHOD /path` (HEAD left out), read from Fastify's route tree. */
function servedRoutes(tree: string): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)(?:[├└]── )?(\S+)(?: \(([^)]*)\))?\s*$/.exec(line);
    if (!m) continue;
    const depth = Math.floor([...m[1]].length / 4) + (line.includes('── ') ? 1 : 0);
    stack.length = depth;
    stack[depth] = m[2];
    const path = stack.join('');
    for (const method of (m[3] ?? '').split(',').map((s) => s.trim())) {
      if (method && method !== 'HEAD') routes.push(`${method} ${path.length > 1 ? path.replace(/\/$/, '') : path}`);
    }
  }
  return routes;
}

/**
 * A body for `schema` that names objects wherever it can: the required fields (minimal
 * values, `ids` for the id fields) and every optional field of ID_FIELDS, at any depth.
 * Undefined when the schema has no such field.
 */
function idBody(doc: Schema, raw: Schema | undefined, ids: Record<string, string>, name = '', depth = 0): unknown {
  const schema = resolve(doc, raw);
  if (depth > 5) return undefined;
  const key = ID_FIELDS[name];
  if (key && ids[key]) {
    const branches = (schema.anyOf ?? schema.oneOf ?? [schema]).map((b: Schema) => resolve(doc, b));
    if (branches.some((b: Schema) => b.type === 'string')) return ids[key];
    if (branches.some((b: Schema) => b.type === 'array')) return [ids[key]];
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    for (const branch of branches) {
      const value = idBody(doc, branch, ids, name, depth + 1);
      if (value !== undefined) return value;
    }
    return undefined;
  }
  if (schema.type === 'array') {
    const item = idBody(doc, schema.items, ids, name, depth + 1);
    return item === undefined ? undefined : [item];
  }
  if (schema.type !== 'object' && !schema.properties) return undefined;
  let found = false;
  const out: Record<string, unknown> = {};
  for (const [field, sub] of Object.entries<Schema>(schema.properties ?? {})) {
    const value = idBody(doc, sub, ids, field, depth + 1);
    if (value !== undefined) {
      out[field] = value;
      found = true;
    }
  }
  if (!found) return undefined;
  // A position is before or after a sibling, not both.
  if (name === 'position') delete out.after;
  for (const field of schema.required ?? []) {
    if (!(field in out)) out[field] = minimal(doc, schema.properties?.[field], ids, field, depth + 1);
  }
  return out;
}

/** The tables whose digest differs (tableDigests leaves out the scheduler's own ticks). */
function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((table) => before[table] !== after[table]).sort();
}

interface Objects {
  ids: Record<string, string>;
  changeRequestIds: Record<string, string>;
}

// Slow on a loaded machine: every test gets the long timeout.
describe('tenants: organization B against organization A', { timeout: 900_000 }, () => {
  const suite = useSeededApp();
  const state = {} as {
    b: Record<(typeof ROLES)[number], TestUser>;
    noOrg: TestUser;
    dual: TestUser;
    a: Objects;
    bObjects: Objects;
    aTexts: string[];
  };

  /** The SAML provider, review, requested reviewer, conversation and PDF export the seed does not make. */
  async function moreObjects(organizationId: string, objects: Objects, admin: string, reviewer: string) {
    const { t } = suite;
    const call = async (method: 'GET' | 'POST', url: string, body?: unknown, token = admin) => {
      const res = await t.request(method, url, { token, body, skipSchemaCheck: true });
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
      return res.body;
    };
    const { ids } = objects;
    const O = `/v1/orgs/${organizationId}`;
    const CR = `/v1/spaces/${ids.spaceId}/change-requests/${ids.changeRequestId}`;
    const keys = await generateIdpKeys();
    const saml = await call('POST', `${O}/saml`, { label: 'Okta', entityID: `http://idp.test/${organizationId}`, ssoURL: 'http://idp.test/sso', certificate: keys.certificate });
    await call('POST', `${CR}/requested-reviewers`, { users: [ids.userId] });
    const review = await call('POST', `${CR}/reviews`, { status: 'approved' }, reviewer);
    await call('POST', `${O}/conversations`, { id: `c-${organizationId}`, subject: 'Export', parts: [{ type: 'message', role: 'user', body: 'How can I export a space to PDF?' }] });
    await t.runJobsUntilIdle();
    const conversations = await call('GET', `${O}/conversations`);
    const issues = await call('GET', `${O}/conversations-issues`);
    const pdf = await call('GET', `/v1/spaces/${ids.spaceId}/pdf`);
    await t.runJobsUntilIdle();
    const more = {
      samlProviderId: saml.id,
      reviewId: review.id,
      conversationId: conversations.items?.[0]?.id ?? 'none',
      issueId: issues.items?.[0]?.id ?? 'none',
      exportId: String(pdf.url).split('/').pop()!,
    };
    Object.assign(objects.ids, more);
    Object.assign(objects.changeRequestIds, more);
  }

  beforeAll(async () => {
    const { t, seeded } = suite;
    const B = seeded.other;
    const b = { admin: B.admin } as Record<(typeof ROLES)[number], TestUser>;
    for (const role of ROLES) if (role !== 'admin') b[role] = await createMember(t, B.id, role === 'guest' ? null : role);
    state.b = b;
    state.noOrg = await createUser(t);
    state.dual = await createMember(t, seeded.org.id, 'admin');
    await createMember(t, B.id, 'admin', { user: state.dual });
    state.a = { ids: { ...seeded.ids }, changeRequestIds: { ...seeded.changeRequestIds } };
    state.bObjects = await seedObjects(t, B.id, b.admin.token, { guestId: b.guest.id, userId: b.read.id });
    await moreObjects(seeded.org.id, state.a, seeded.users.admin.token, seeded.users.review.token);
    await moreObjects(B.id, state.bObjects, b.admin.token, b.review.token);
    // What must never appear in an answer to B: A's ids (of objects, not names shared by both).
    const bValues = new Set(Object.values(state.bObjects.ids));
    state.aTexts = [...new Set([...Object.entries(state.a.ids), ...Object.entries(state.a.changeRequestIds)].filter(([k, v]) => !NOT_IDS.has(k) && v !== 'none' && !bValues.has(v)).map(([, v]) => v))];
  }, 600_000);

  /** The operations of the document: method, path template, operation id, body schema, path and query parameters. */
  function operations() {
    const ops: Array<{ method: string; path: string; id: string; body?: Schema; params: Schema[] }> = [];
    for (const [path, item] of Object.entries<Schema>(suite.doc.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const op = item[method];
        if (!op) continue;
        ops.push({
          method: method.toUpperCase(),
          path,
          id: op.operationId,
          body: resolve(suite.doc, op.requestBody)?.content?.['application/json']?.schema,
          params: [...(item.parameters ?? []), ...(op.parameters ?? [])],
        });
      }
    }
    // Reads, writes, then deletes: a hole that deletes would otherwise hide the rest.
    const rank = (m: string) => (m === 'GET' ? 0 : m === 'DELETE' ? 2 : 1);
    return ops.sort((x, y) => rank(x.method) - rank(y.method));
  }

  /** The URL of an operation with `ids` for its path parameters and its required query parameters. */
  function urlOf(op: ReturnType<typeof operations>[number], objects: Objects, pathIds?: Record<string, string>, extraQuery?: Record<string, string>) {
    const ids = pathIds ?? (op.path.includes('/change-requests/{') ? objects.changeRequestIds : objects.ids);
    const query = new URLSearchParams(extraQuery);
    for (const p of op.params) if (p.in === 'query' && p.required && !query.has(p.name)) query.set(p.name, String(minimal(suite.doc, p.schema, ids, p.name)));
    const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(ids[name] ?? 'unknown'));
    return path + (query.size > 0 ? `?${query}` : '');
  }

  async function send(method: string, url: string, token: string | null, body: unknown) {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return suite.t.app.inject({ method: method as 'GET', url, headers, ...(body !== undefined ? { payload: JSON.stringify(body) } : {}) });
  }

  /** A's ids in a response that the request did not carry itself. */
  function leakedIds(responseText: string, request: string) {
    return state.aTexts.filter((id) => responseText.includes(id) && !request.includes(id));
  }

  it('serves no route that neither the document nor HIDDEN lists', () => {
    const documented = new Set(
      Object.entries<Schema>(suite.doc.paths).flatMap(([p, item]) =>
        Object.keys(item)
          .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
          .map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1').replace(/(.)\/$/, '$1')}`),
      ),
    );
    const routes = servedRoutes(suite.t.app.printRoutes({ commonPrefix: false }));
    expect(routes.length).toBeGreaterThan(150);
    const uncovered = routes.filter((r) => !documented.has(r) && !HIDDEN[r]);
    expect(uncovered).toEqual([]);
    // And HIDDEN names only routes that exist.
    expect(Object.keys(HIDDEN).filter((r) => !routes.includes(r))).toEqual([]);
  });

  it("every operation on A's objects, by every role of B and by a user of no organization", async () => {
    const { t, doc } = suite;
    const callers: Array<[Outsider, string]> = [...B_ROLES.map((r) => [`B ${r}`, state.b[r].token] as [Outsider, string]), ['no organization', state.noOrg.token]];
    const problems: string[] = [];
    let calls = 0;
    const ops = operations();
    for (const op of ops) {
      const rule = EXPECTED[op.id];
      if (!rule) {
        problems.push(`${op.id}: no rule in authz.expected.ts`);
        continue;
      }
      // The caller's own things (their user, their organizations, a new organization), what
      // is public by design (an organization's sign-in providers), and an invite link: its id
      // is the permission to join, whoever holds it is a member from then on.
      const own = rule === 'public' || rule === 'signedIn';
      if (op.id === 'joinOrganizationWithInvite') continue;
      const url = urlOf(op, state.a);
      const body = op.body ? minimal(doc, op.body, { parent: state.a.ids.collectionId, ...state.a.ids }) : undefined;
      const write = op.method !== 'GET';
      if (write) await t.runJobsUntilIdle();
      const before = write ? await tableDigests(t) : {};
      for (const [caller, token] of callers) {
        calls++;
        const res = await send(op.method, url, token, body);
        const where = `${op.id} ${op.method} ${url} as ${caller}: ${res.statusCode} ${res.body.slice(0, 160)}`;
        const allowed = expectedStatus(rule, 'otherOrg');
        if (!allowed.some((a) => (a === '2xx' ? res.statusCode < 300 : a === res.statusCode))) problems.push(`expected ${allowed.join('/')}: ${where}`);
        if (res.statusCode < 300 && !own) problems.push(`reached: ${where}`);
        const leaked = leakedIds(res.body, url);
        if (res.statusCode < 300 && !own && leaked.length > 0) problems.push(`leaks ${leaked.join(',')}: ${where}`);
        if (res.statusCode >= 400) {
          const shape = gitbookErrorProblem(res.statusCode, res.body, String(res.headers['content-type'] ?? ''));
          if (shape) problems.push(`error body (${shape}): ${where}`);
        }
        if (write && !own) {
          await t.runJobsUntilIdle();
          const changed = changedTables(before, await tableDigests(t));
          if (changed.length > 0) {
            problems.push(`changed ${changed.join(',')}: ${where}`);
            break;
          }
        }
      }
    }
    console.log(`tenants (${t.dialect}): ${ops.length} operations × ${callers.length} callers, ${calls} calls, ${problems.length} problems`);
    expect(problems).toEqual([]);
  }, 900_000);

  /**
   * One cross-wired call: refused (4xx), nothing of A in the answer, nothing changed. A 2xx
   * that changed nothing and shows nothing of A (an idempotent removal of what is not there)
   * is no hole.
   */
  async function crossWired(problems: string[], label: string, method: string, url: string, token: string, body: unknown, options: { listing?: boolean } = {}) {
    const { t } = suite;
    const write = method !== 'GET';
    if (write) await t.runJobsUntilIdle();
    const before = write ? await tableDigests(t) : {};
    const res = await send(method, url, token, body);
    const request = url + JSON.stringify(body ?? '');
    const where = `${label} ${method} ${url} ${body === undefined ? '' : JSON.stringify(body)}: ${res.statusCode} ${res.body.slice(0, 200)}`;
    if (res.statusCode >= 500) problems.push(`5xx: ${where}`);
    if (res.statusCode >= 400) {
      const shape = gitbookErrorProblem(res.statusCode, res.body, String(res.headers['content-type'] ?? ''));
      if (shape) problems.push(`error body (${shape}): ${where}`);
    }
    const leaked = leakedIds(res.body, request);
    if (res.statusCode < 300 && leaked.length > 0) problems.push(`leaks ${leaked.join(',')}: ${where}`);
    if (!write && res.statusCode < 300 && !options.listing) problems.push(`read: ${where}`);
    if (write) {
      await t.runJobsUntilIdle();
      const changed = changedTables(before, await tableDigests(t));
      if (changed.length > 0) problems.push(`changed ${changed.join(',')}: ${where}`);
    }
    return res;
  }

  it("every read of B's objects, by a member of both organizations, shows nothing of A", async () => {
    // A query that forgets its organization (a member's spaces or teams, a search, a list
    // filtered by user) would answer this caller with A's objects too.
    const problems: string[] = [];
    let calls = 0;
    for (const op of operations()) {
      if (op.method !== 'GET') continue;
      const rule = EXPECTED[op.id];
      if (rule === 'public' || rule === 'signedIn') continue;
      const bIds = { ...(op.path.includes('/change-requests/{') ? state.bObjects.changeRequestIds : state.bObjects.ids), userId: state.dual.id };
      const url = urlOf(op, state.bObjects, bIds, op.id.startsWith('search') ? { query: 'Hello' } : undefined);
      calls++;
      const res = await send('GET', url, state.dual.token, undefined);
      if (res.statusCode >= 500) problems.push(`5xx: ${op.id} ${url}: ${res.body.slice(0, 200)}`);
      const leaked = leakedIds(res.body, url);
      if (leaked.length > 0) problems.push(`leaks ${leaked.join(',')}: ${op.id} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    console.log(`tenants (${suite.t.dialect}) reads of B by a member of both: ${calls} calls, ${problems.length} problems`);
    expect(calls).toBeGreaterThan(80);
    expect(problems).toEqual([]);
  }, 900_000);

  for (const who of ['B admin', 'admin of both'] as const) {
    it(`${who}: B's paths with one of A's ids in them`, async () => {
      const token = who === 'B admin' ? state.b.admin.token : state.dual.token;
      const problems: string[] = [];
      let calls = 0;
      for (const op of operations()) {
        const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((n) => !NOT_IDS.has(n));
        if (names.length < 2) continue;
        const aIds = op.path.includes('/change-requests/{') ? state.a.changeRequestIds : state.a.ids;
        const bIds = op.path.includes('/change-requests/{') ? state.bObjects.changeRequestIds : state.bObjects.ids;
        for (const name of names) {
          if (!aIds[name] || aIds[name] === 'none') continue;
          const url = urlOf(op, state.bObjects, { ...bIds, [name]: aIds[name] });
          const body = op.body ? minimal(suite.doc, op.body, { parent: state.bObjects.ids.collectionId, ...state.bObjects.ids }) : undefined;
          calls++;
          await crossWired(problems, `${op.id} (${name} of A)`, op.method, url, token, body);
        }
      }
      console.log(`tenants (${suite.t.dialect}) ${who}, ids in paths: ${calls} calls, ${problems.length} problems`);
      expect(problems).toEqual([]);
    }, 900_000);

    it(`${who}: B's paths with A's ids in the body or query`, async () => {
      const token = who === 'B admin' ? state.b.admin.token : state.dual.token;
      const problems: string[] = [];
      let calls = 0;
      for (const op of operations()) {
        // Transfers exist to move things to another organization: the admin of both may.
        if (who === 'admin of both' && /^transfer/.test(op.id)) continue;
        const body = op.body ? idBody(suite.doc, op.body, { ...state.bObjects.ids, ...Object.fromEntries(Object.entries(state.a.ids).filter(([k]) => !NOT_IDS.has(k))) }) : undefined;
        // `page` in a query is a list's cursor, not a page id.
        const query = Object.fromEntries(op.params.filter((p) => p.in === 'query' && p.name !== 'page' && ID_FIELDS[p.name]).map((p) => [p.name, state.a.ids[ID_FIELDS[p.name]]]));
        if (body === undefined && Object.keys(query).length === 0) continue;
        calls++;
        // A list filtered on A's object may answer 200 with nothing of A (crossWired checks the body).
        const res = await crossWired(problems, op.id, op.method, urlOf(op, state.bObjects, undefined, query), token, body, { listing: op.method === 'GET' });
        // The same request naming B's own objects: what the refusal is measured against.
        const ownBody = op.body ? idBody(suite.doc, op.body, state.bObjects.ids) : undefined;
        const ownQuery = Object.fromEntries(Object.keys(query).map((k) => [k, state.bObjects.ids[ID_FIELDS[k]]]));
        const control = await send(op.method, urlOf(op, state.bObjects, undefined, ownQuery), token, ownBody);
        if (process.env.TENANTS_LOG) console.log(`${op.id}: A's ids ${res.statusCode} ${res.body.slice(0, 100)} | B's ids ${control.statusCode} ${control.body.slice(0, 100)} ${String(JSON.stringify(body)).slice(0, 200)}`);
      }
      console.log(`tenants (${suite.t.dialect}) ${who}, ids in bodies: ${calls} calls, ${problems.length} problems`);
      expect(problems).toEqual([]);
    }, 900_000);
  }

  /**
   * Cross-wired requests the generic passes cannot build (a valid body around the id), each
   * with the same request naming B's own objects, which succeeds: so the refusal is the
   * tenant rule, not the request's shape. Made by the admin of both organizations (the
   * strongest caller: only the tenant rule stands between them and the write) and by B's admin.
   */
  it('cross-wired requests with a valid body: refused, while the same request on B succeeds', async () => {
    const { t } = suite;
    const A = state.a.ids;
    const B = state.bObjects.ids;
    const OA = `/v1/orgs/${suite.seeded.org.id}`;
    const OB = `/v1/orgs/${suite.seeded.other.id}`;
    const CRB = `/v1/spaces/${B.spaceId}/change-requests/${B.changeRequestId}`;
    const md = (text: string) => ({ markdown: text });
    const bSpace2 = (await t.request('POST', `${OB}/spaces`, { token: state.b.admin.token, body: { title: 'Second' } })).body.id as string;
    const bCollection2 = (await t.request('POST', `${OB}/collections`, { token: state.b.admin.token, body: { title: 'Second' } })).body.id as string;
    const aSpace2 = (await t.request('POST', `${OA}/spaces`, { token: suite.seeded.users.admin.token, body: { title: 'Second of A' } })).body.id as string;
    type Case = { name: string; method: string; url: string; body?: unknown; control?: { url?: string; body?: unknown } };
    const cases: Case[] = [
      // A's space under B's collection, and B's space under A's collection.
      { name: "A's space moved into B's collection", method: 'POST', url: `/v1/spaces/${aSpace2}/move`, body: { parent: B.collectionId }, control: { url: `/v1/spaces/${bSpace2}/move` } },
      { name: "B's space moved into A's collection", method: 'POST', url: `/v1/spaces/${bSpace2}/move`, body: { parent: A.collectionId }, control: { body: { parent: bCollection2 } } },
      { name: "B's space placed before A's space", method: 'POST', url: `/v1/spaces/${bSpace2}/move`, body: { position: { before: { type: 'space', space: A.spaceId } } }, control: { body: { parent: B.collectionId, position: { before: { type: 'space', space: B.spaceId } } } } },
      { name: "B's collection moved into A's collection", method: 'POST', url: `/v1/collections/${bCollection2}/move`, body: { parent: A.collectionId }, control: { body: { parent: B.collectionId } } },
      { name: "A's collection moved into B's collection", method: 'POST', url: `/v1/collections/${A.collectionId}/move`, body: { parent: bCollection2 } },
      { name: "B's space created in A's collection", method: 'POST', url: `${OB}/spaces`, body: { title: 'X', parent: A.collectionId }, control: { body: { title: 'X', parent: B.collectionId } } },
      // A's user and team in B's grants, teams, reviewers, merge rules.
      { name: "A's user granted B's space", method: 'POST', url: `/v1/spaces/${B.spaceId}/permissions`, body: { role: 'read', users: [A.userId] }, control: { body: { role: 'read', users: [B.userId] } } },
      { name: "A's team granted B's collection", method: 'POST', url: `/v1/collections/${B.collectionId}/permissions`, body: { role: 'read', teams: [A.teamId] }, control: { body: { role: 'read', teams: [B.teamId] } } },
      { name: "A's user added to B's team", method: 'PUT', url: `${OB}/teams/${B.teamId}/members`, body: { add: [A.userId] }, control: { body: { add: [B.userId] } } },
      { name: "A's user as reviewer of B's change request", method: 'POST', url: `${CRB}/requested-reviewers`, body: { users: [A.userId] }, control: { body: { users: [B.userId] } } },
      // A's pages, revisions and files named in B's change request.
      { name: "A's page updated through B's change request", method: 'POST', url: `${CRB}/content`, body: { changes: [{ operation: 'update_page', page: A.pageId, document: md('Taken') }] }, control: { body: { changes: [{ operation: 'update_page', page: B.pageId, document: md('Mine') }] } } },
      { name: "a page inserted under A's page in B's change request", method: 'POST', url: `${CRB}/content`, body: { changes: [{ operation: 'insert_page', title: 'Child', into: A.pageId, document: md('x') }] }, control: { body: { changes: [{ operation: 'insert_page', title: 'Child', into: B.pageId, document: md('x') }] } } },
      { name: "A's page reverted from A's revision into B's change request", method: 'POST', url: `${CRB}/content`, body: { changes: [{ operation: 'revert_page', page: A.pageId, revision: A.revisionId }] }, control: { body: { changes: [{ operation: 'revert_page', page: B.pageId, revision: B.revisionId }] } } },
      { name: "B's page reverted to A's revision", method: 'POST', url: `${CRB}/content`, body: { changes: [{ operation: 'revert_page', page: B.pageId, revision: A.revisionId }] } },
      { name: "a comment on A's page in B's space", method: 'POST', url: `/v1/spaces/${B.spaceId}/comments`, body: { page: A.pageId, body: md('Hi') }, control: { body: { page: B.pageId, body: md('Hi') } } },
      { name: "A's change request as B's template target", method: 'POST', url: `/v1/spaces/${B.spaceId}/content/template`, body: { changeRequestId: A.changeRequestId, id: 'builtin:blank' } },
      // A's space and site objects in B's sites and translations.
      { name: "B's site made of A's space", method: 'POST', url: `${OB}/sites`, body: { title: 'Site', spaces: [A.spaceId] }, control: { body: { title: 'Site', spaces: [B.spaceId] } } },
      { name: "a site space of B pointing at A's space", method: 'POST', url: `${OB}/sites/${B.siteId}/site-spaces`, body: { spaceId: A.spaceId }, control: { body: { spaceId: bSpace2 } } },
      { name: "B's site space switched to A's space", method: 'PATCH', url: `${OB}/sites/${B.siteId}/site-spaces/${B.siteSpaceId}`, body: { spaceId: A.spaceId } },
      { name: "a section of B on A's space", method: 'POST', url: `${OB}/sites/${B.siteId}/sections`, body: { spaceId: A.spaceId, title: 'Section A' }, control: { body: { spaceId: B.spaceId, title: 'Section B' } } },
      { name: "A's section in B's section group", method: 'POST', url: `${OB}/sites/${B.siteId}/section-groups/${B.siteSectionGroupId}/sections`, body: { sectionId: A.siteSectionId } },
      { name: "B's section group made of A's section", method: 'POST', url: `${OB}/sites/${B.siteId}/section-groups`, body: { title: 'Group', sections: [A.siteSectionId] } },
      { name: "B's site's default section and site space from A", method: 'PATCH', url: `${OB}/sites/${B.siteId}`, body: { defaultSiteSpace: A.siteSpaceId } },
      { name: "B's site section listing A's site space", method: 'PATCH', url: `${OB}/sites/${B.siteId}/sections/${B.siteSectionId}`, body: { defaultSiteSpace: A.siteSpaceId } },
      { name: "B's site space placed before A's site space", method: 'POST', url: `${OB}/sites/${B.siteId}/site-spaces/${B.siteSpaceId}/move`, body: { position: { before: { type: 'site-space', siteSpace: A.siteSpaceId } } } },
      { name: "B's section placed before A's section", method: 'POST', url: `${OB}/sites/${B.siteId}/sections/${B.siteSectionId}/move`, body: { position: { before: { type: 'site-section', siteSection: A.siteSectionId } } } },
      { name: "a translation of A's space into B", method: 'POST', url: `${OB}/translations`, body: { source: { space: A.spaceId, language: 'en' }, language: 'de' }, control: { body: { source: { space: B.spaceId, language: 'en' }, language: 'de' } } },
      // No default content is accepted yet (organizations.service.ts): no control.
      { name: "B's organization landing on A's space", method: 'PATCH', url: OB, body: { defaultContent: { type: 'space', space: A.spaceId } } },
      { name: "B's organization landing on A's collection", method: 'PATCH', url: OB, body: { defaultContent: { type: 'collection', collection: A.collectionId } } },
      { name: "B's organization landing on A's site", method: 'PATCH', url: OB, body: { defaultContent: { type: 'site', site: A.siteId } } },
      { name: "B's merge rules naming A's user", method: 'PATCH', url: OB, body: { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [A.userId] }] } } },
      { name: "B's SAML provider with A's team as default team", method: 'PATCH', url: `${OB}/saml/${B.samlProviderId}`, body: { defaultTeam: A.teamId }, control: { body: { defaultTeam: B.teamId } } },
      // A's ids in B's list filters.
      { name: "B's change requests filtered on A's space", method: 'GET', url: `${OB}/change-requests?space=${A.spaceId}` },
      { name: "B's sites filtered on A's space", method: 'GET', url: `${OB}/sites?space=${A.spaceId}` },
      { name: "B's comments on A's page", method: 'GET', url: `/v1/spaces/${B.spaceId}/comments?targetPage=${A.pageId}` },
    ];
    const problems: string[] = [];
    for (const who of ['admin of both', 'B admin'] as const) {
      const token = who === 'B admin' ? state.b.admin.token : state.dual.token;
      for (const c of cases) {
        // A list filtered on A's object may answer 200 with nothing of A (crossWired checks the body).
        const res = await crossWired(problems, `${who}: ${c.name}`, c.method, c.url, token, c.body, { listing: c.method === 'GET' });
        if (c.method !== 'GET' && res.statusCode < 400) problems.push(`accepted: ${who}: ${c.name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    for (const c of cases) {
      if (!c.control) continue;
      const res = await send(c.method, c.control.url ?? c.url, state.dual.token, c.control.body ?? c.body);
      if (res.statusCode >= 300) problems.push(`control refused (the case proves nothing): ${c.name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  }, 900_000);

  it("B's link listing says nothing of A's space: neither that it exists nor its organization", async () => {
    const { t } = suite;
    const A = state.a.ids;
    // A space of its own: the passes before may have given B's seeded space merge rules.
    const linking = await t.request('POST', `/v1/orgs/${suite.seeded.other.id}/spaces`, { token: state.b.admin.token, body: { title: 'Linking' } });
    const S = `/v1/spaces/${linking.body.id}`;
    const cr = await t.request('POST', `${S}/change-requests`, { token: state.b.admin.token, body: { subject: 'Links' } });
    const batch = await t.request('POST', `${S}/change-requests/${cr.body.id}/content`, {
      token: state.b.admin.token,
      body: { changes: [{ operation: 'insert_page', title: 'Links', document: { markdown: `[theirs](/spaces/${A.spaceId}) [nowhere](/spaces/NoSuchSpace000000001) [page](/spaces/${A.spaceId}/pages/${A.pageId})\n` } }] },
    });
    expect(batch.status, batch.text).toBe(200);
    expect((await t.request('POST', `${S}/change-requests/${cr.body.id}/merge`, { token: state.b.admin.token })).status).toBe(200);
    const listing = await t.request('GET', `${S}/links`, { token: state.b.admin.token });
    expect(listing.status, listing.text).toBe(200);
    const byTarget = Object.fromEntries(listing.body.items.map((i: any) => [`${i.targetReference.kind}:${i.targetReference.space}`, i]));
    const space = byTarget[`space:${A.spaceId}`];
    expect(space, listing.text).toBeDefined();
    // A space B cannot see is as broken as one that does not exist, and names no organization.
    expect(space.status).toBe(byTarget['space:NoSuchSpace000000001'].status);
    expect(space.targetReference.organization).toBeUndefined();
    expect(listing.text).not.toContain(suite.seeded.org.id);
  });


  it("a space transferred from A to B: its link listing names B and no longer resolves A's spaces", async () => {
    const { t, seeded } = suite;
    const A = state.a.ids;
    const token = state.dual.token;
    const space = (await t.request('POST', `/v1/orgs/${seeded.org.id}/spaces`, { token, body: { title: 'Moving' } })).body.id as string;
    const cr = (await t.request('POST', `/v1/spaces/${space}/change-requests`, { token, body: { subject: 'Link' } })).body.id as string;
    const batch = await t.request('POST', `/v1/spaces/${space}/change-requests/${cr}/content`, { token, body: { changes: [{ operation: 'insert_page', title: 'Links', document: { markdown: `[guide](/spaces/${A.spaceId})\n` } }] } });
    expect(batch.status, batch.text).toBe(200);
    expect((await t.request('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`, { token })).status).toBe(200);
    const before = await t.request('GET', `/v1/spaces/${space}/links`, { token });
    expect(before.body.items[0]).toMatchObject({ status: 'ok', targetReference: { kind: 'space', space: A.spaceId, organization: seeded.org.id } });
    const moved = await t.request('POST', `/v1/spaces/${space}/transfer`, { token, body: { organization: seeded.other.id } });
    expect(moved.status, moved.text).toBe(200);
    const after = await t.request('GET', `/v1/spaces/${space}/links`, { token });
    expect(after.status).toBe(200);
    expect(after.body.items[0].status).toBe('broken');
    expect(after.text).not.toContain(seeded.org.id);
  });

  it("a space transferred from A to B leaves nothing of A pointing at it: A's sites and translations", async () => {
    const { t, seeded } = suite;
    const token = state.dual.token;
    const OA = `/v1/orgs/${seeded.org.id}`;
    const space = (await t.request('POST', `${OA}/spaces`, { token, body: { title: 'Shared later' } })).body.id as string;
    const site = (await t.request('POST', `${OA}/sites`, { token, body: { title: 'Site of A', spaces: [space] } })).body.id as string;
    const translation = await t.request('POST', `${OA}/translations`, { token, body: { source: { space, language: 'en' }, language: 'fr' } });
    expect(translation.status, translation.text).toBe(201);
    await t.runJobsUntilIdle();
    const moved = await t.request('POST', `/v1/spaces/${space}/transfer`, { token, body: { organization: seeded.other.id } });
    if (moved.status === 200) {
      // Moved: then A's admin (no member of B) sees nothing of it through A's site or translation.
      const adminA = seeded.users.admin.token;
      const siteSpaces = await t.request('GET', `${OA}/sites/${site}/site-spaces`, { token: adminA });
      expect(siteSpaces.text).not.toContain(space);
      const run = await t.request('POST', `${OA}/translations/${translation.body.id}/run`, { token: adminA });
      expect(run.status).toBeGreaterThanOrEqual(400);
    } else {
      expect(moved.status, moved.text).toBe(409);
      expect((await t.request('GET', `/v1/spaces/${space}`, { token })).body.organization).toBe(seeded.org.id);
    }
    // The same through a collection that holds a space on A's site.
    const collection = (await t.request('POST', `${OA}/collections`, { token, body: { title: 'Moving shelf' } })).body.id as string;
    const inside = (await t.request('POST', `${OA}/spaces`, { token, body: { title: 'On the shelf', parent: collection } })).body.id as string;
    expect((await t.request('POST', `${OA}/sites/${site}/site-spaces`, { token, body: { spaceId: inside } })).status).toBe(201);
    const shelf = await t.request('POST', `/v1/collections/${collection}/transfer`, { token, body: { organization: seeded.other.id } });
    expect(shelf.status, shelf.text).toBe(409);
    expect((await t.request('GET', `/v1/spaces/${inside}`, { token })).body.organization).toBe(seeded.org.id);
  });

  it('hidden routes: page by path, signed downloads, PDF exports, public specs, app area', async () => {
    const { t, seeded } = suite;
    const A = state.a.ids;
    const problems: string[] = [];
    const B = seeded.other.id;
    const cookie = `quire_session=${await startSession(t.db, t.clock, t.config.sessionTtlMs, { userId: state.b.admin.id, method: 'link', organizationId: null })}`;
    const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
    const bearer = { authorization: `Bearer ${state.b.admin.token}` };
    const reads: Array<[string, Record<string, string>]> = [
      [`/v1/spaces/${A.spaceId}/content/${A.pagePath}`, bearer],
      [`/v1/spaces/${A.spaceId}/revisions/${A.revisionId}/${A.pagePath}`, bearer],
      [`/v1/spaces/${A.spaceId}/change-requests/${A.changeRequestId}/content/${A.pagePath}`, bearer],
      [`/openapi/${seeded.org.id}/pets.yaml`, {}],
      [`/openapi/${B}/pets.yaml`, {}],
      [`/app/o/${seeded.org.id}`, { cookie }],
      [`/app/o/${seeded.org.id}/search?q=Welcome`, { cookie }],
      [`/app/o/${B}/sites/${A.siteId}`, { cookie }],
      [`/app/o/${B}/c/${A.collectionId}`, { cookie }],
      [`/app/o/${seeded.org.id}/sites/${A.siteId}`, { cookie }],
      [`/app/o/${seeded.org.id}/c/${A.collectionId}`, { cookie }],
      [`/app/s/${A.spaceId}`, { cookie }],
      [`/app/s/${A.spaceId}/pages/${A.pageId}`, { cookie }],
      [`/app/s/${A.spaceId}/search?q=Welcome`, { cookie }],
      [`/app/s/${A.spaceId}/revisions/${A.revisionId}`, { cookie }],
      [`/app/s/${A.spaceId}/revisions/${A.revisionId}/pages/${A.pageId}`, { cookie }],
      [`/app/s/${A.spaceId}/change-requests/1`, { cookie }],
      [`/app/s/${state.bObjects.ids.spaceId}/revisions/${A.revisionId}`, { cookie }],
      [`/app/s/${state.bObjects.ids.spaceId}/pages/${A.pageId}`, { cookie }],
    ];
    for (const [url, headers] of reads) {
      const res = await get(url, headers);
      const leaked = leakedIds(res.body, url);
      // The public spec of A is public by design (an unpublished one answers 404): only B's must show nothing of A.
      if (url.startsWith(`/openapi/${seeded.org.id}`)) continue;
      if (res.statusCode < 300 && !url.startsWith(`/openapi/${B}`)) problems.push(`read ${url}: ${res.statusCode} ${res.body.slice(0, 160)}`);
      if (leaked.length > 0) problems.push(`leaks ${leaked.join(',')} ${url}: ${res.statusCode}`);
    }
    // A B token revoked through A's... the form revokes only the caller's own tokens.
    const revoke = await t.app.inject({ method: 'POST', url: `/app/account/tokens/${seeded.users.admin.tokenId}/revoke`, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'http://quire.test' }, payload: '' });
    const stillWorks = await t.request('GET', '/v1/user', { token: seeded.users.admin.token });
    if (stillWorks.status !== 200) problems.push(`B revoked A's token: ${revoke.statusCode}`);
    // A's PDF export is reachable by its unguessable URL only; B's export id is not A's.
    expect(state.a.ids.exportId).not.toBe(state.bObjects.ids.exportId);
    expect(problems).toEqual([]);
  });
});
