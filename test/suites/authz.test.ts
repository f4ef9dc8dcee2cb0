import { describe, expect, it } from 'vitest';
import { EXPECTED, expectedStatus, ROLES, type Caller } from './authz.expected.ts';
import { fingerprint, gitbookErrorProblem, minimal, resolveSchema as resolve, useSeededApp, type Schema } from './seed.ts';

/*
 * The authorization matrix (issue 13): every operation of /v1/openapi.json × {no token, a
 * member of another organization, guest, read, comment, edit, review, create, admin}
 * against the objects of one organization, with real ids and a minimal well-formed request.
 * Asserts:
 * - each call's status is the one its operation's rule in authz.expected.ts gives that
 *   caller (from the modules' policies): 2xx from the lowest role allowed up, 403/404
 *   below it, 404 for a member of another organization, 401 without a token; a new
 *   operation without a rule fails the suite;
 * - a member of another organization never gets a 2xx on anything of this organization
 *   (no leak), and nothing changes without a token;
 * - reads are monotone in the role: what a role may read, every higher role may read;
 * - writes are tried from the lowest role up (stopping at the first allowed, which changed
 *   the object): every refusal is in GitBook's error shape and changed nothing (a digest
 *   of every table before and after).
 * `npm test` runs it on both databases; `npm run test:authz` alone. AUTHZ_RECORD=<file>
 * writes every observed status, to review when a rule has to change.
 */

/** Deleted after every other operation, in this order: what they delete holds what the others aim at. */
const LAST = [
  'deleteCommentInSpace',
  'deleteCommentInChangeRequest',
  'deleteSiteSectionGroupById',
  'deleteSiteSectionById',
  'deleteSiteSpaceById',
  'deleteSiteById',
  'removeTeamFromOrganizationById',
  'deleteSpaceById',
  'deleteCollectionById',
  // The `read` member leaves the organization: the rest would see them as an outsider.
  'removeMemberFromOrganizationById',
  // An invite link is the permission to join: whoever calls it is a member from then on.
  'joinOrganizationWithInvite',
];
const SKIP = new Set([
  // Would end the run for everyone after it: the organization, its admin's own token.
  'deleteOrganizationById',
  'deleteApiToken',
]);

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
        // Required query parameters get a minimal value too (a search's `query`).
        const query = new URLSearchParams();
        for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
          if (p.in === 'query' && p.required) query.set(p.name, String(minimal(doc, p.schema, seeded.ids, p.name)));
        }
        const url =
          path.replace(/\{(\w+)\}/g, (_m, name: string) =>
            encodeURIComponent((path.includes('/change-requests/{') ? seeded.changeRequestIds : seeded.ids)[name] ?? 'unknown'),
          ) + (query.size > 0 ? `?${query}` : '');
        const bodySchema = resolve(doc, op.requestBody)?.content?.['application/json']?.schema;
        operations.push({
          method: method.toUpperCase(),
          url,
          id: op.operationId,
          // A move's `parent`: the seeded collection (the space's own: a move in place).
          body: bodySchema ? minimal(doc, bodySchema, { parent: seeded.ids.collectionId!, ...seeded.ids }) : undefined,
          public: Array.isArray(op.security) && op.security.length === 0,
        });
      }
    }
    expect(operations.length).toBeGreaterThan(100);
    // Reads first (nothing changes), then writes; deletes last so the objects stay for the
    // rest, and of those, the containers after what they contain.
    const order = (op: { method: string; id: string }) =>
      LAST.includes(op.id) ? 3 + LAST.indexOf(op.id) / LAST.length : op.method === 'GET' ? 0 : op.method === 'DELETE' ? 2 : 1;
    operations.sort((a, b) => order(a) - order(b));

    let leaks = 0;
    let reached = 0;
    const unlisted = operations.filter((op) => !EXPECTED[op.id]).map((op) => op.id);
    const observed: Record<string, Record<string, number>> = {};
    for (const op of operations) {
      const seen: Record<string, number> = (observed[op.id] = {});
      const where = (caller: Caller, status: number, text: string) => `${op.id} ${op.method} ${op.url} as ${caller}: ${status} ${text.slice(0, 200)}`;
      const write = op.method !== 'GET';
      const rule = EXPECTED[op.id] ?? 'unknown';
      if (!/^\d/.test(rule)) reached++;
      /** The status is the one the rule gives this caller. */
      const expectStatus = (caller: Caller, status: number, text: string) => {
        if (rule === 'unknown') return;
        const allowed = expectedStatus(rule, caller);
        if (!allowed.some((a) => (a === '2xx' ? status >= 200 && status < 300 : a === status))) {
          problems.push(`expected ${allowed.join('/')} (${rule}): ${where(caller, status, text)}`);
        }
      };
      // Background jobs a previous operation enqueued (e.g. ingestConversation's) run in the
      // app's worker: let them finish so their writes are not taken for this operation's.
      if (write) await t.runJobsUntilIdle();
      // The digest of the database as the next call finds it: taken once per operation, then
      // the digest after each call is the one before the next (half the digests to compute).
      let current = write ? await fingerprint(t) : '';
      const changedSince = async () => {
        if (!write) return false;
        const after = await fingerprint(t);
        const changed = after !== current;
        current = after;
        return changed;
      };
      // Outsiders: no token, a member of another organization.
      for (const caller of ['none', 'otherOrg'] as const) {
        const res = await send(op.method, op.url, caller, op.body);
        seen[caller] = res.statusCode;
        expectStatus(caller, res.statusCode, res.body);
        const changed = await changedSince();
        if (write && res.statusCode < 300) {
          // Its jobs may write after it: the next call starts from their outcome.
          await t.runJobsUntilIdle();
          current = await fingerprint(t);
        }
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
        const res = await send(op.method, op.url, role, op.body);
        seen[role] = res.statusCode;
        expectStatus(role, res.statusCode, res.body);
        if (res.statusCode >= 500) problems.push(`5xx ${where(role, res.statusCode, res.body)}`);
        if (res.statusCode < 300) {
          allowedFrom ??= role;
          if (write) break; // The object changed: higher roles would act on another state.
          continue;
        }
        const shape = gitbookErrorProblem(res.statusCode, res.body, String(res.headers['content-type'] ?? ''));
        if (shape) problems.push(`error body (${shape}): ${where(role, res.statusCode, res.body)}`);
        if (await changedSince()) problems.push(`changed while refused: ${where(role, res.statusCode, res.body)}`);
        // A read refused to a role after a lower one was allowed breaks the role order.
        if (!write && allowedFrom && allowedFrom !== 'guest' && [401, 403, 404].includes(res.statusCode)) {
          problems.push(`not monotone (allowed from ${allowedFrom}): ${where(role, res.statusCode, res.body)}`);
        }
      }
    }
    if (process.env.AUTHZ_RECORD) (await import('node:fs')).writeFileSync(process.env.AUTHZ_RECORD, JSON.stringify({ operations: operations.map((o) => [o.id, o.method, o.url]), observed }, null, 1));
    console.log(
      `authz (${t.dialect}): ${operations.length} operations (${reached} reach their policy), ${calls} calls, ${leaks} leaks, ${problems.length} problems`,
    );
    expect(unlisted, 'operations without a rule in authz.expected.ts').toEqual([]);
    expect(problems).toEqual([]);
  }, 900_000);
});
