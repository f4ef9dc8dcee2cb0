import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from '../app.ts';
import { createUser, type TestOrganization, type TestUser } from '../factories.ts';
import { createRoleMatrix } from '../role-matrix.ts';

/*
 * The objects the fuzz and authorization suites aim at: one organization holding one of
 * everything (collection, space with a page, change request, comment, site with a section
 * and a site space, team, invite), its members in every role, and a second organization.
 */

export interface Seed {
  org: TestOrganization;
  other: TestOrganization;
  users: Record<'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | 'guest' | 'otherOrg', TestUser>;
  /** Path parameter name -> an id of the first organization. */
  ids: Record<string, string>;
  /** The same for paths under a change request, where they differ (its comments). */
  changeRequestIds: Record<string, string>;
}

export async function seed(t: TestApp): Promise<Seed> {
  const cast = await createRoleMatrix(t, { title: 'Acme', emailDomains: ['acme.test'], outsiderOrganization: { title: 'Other' } });
  const { org, outsiderOrg: other } = cast;
  const users = {
    admin: cast.admin,
    create: cast.creator,
    review: cast.reviewer,
    edit: cast.editor,
    comment: cast.commenter,
    read: cast.reader,
    guest: cast.guest,
    otherOrg: other.admin,
  };
  const { ids, changeRequestIds } = await seedObjects(t, org.id, users.admin.token, { guestId: users.guest.id, userId: users.read.id });
  return { org, other, users, ids, changeRequestIds };
}

/**
 * One of everything in an organization, made by its admin (`token`): collection, space with
 * a page and a file, change requests, comments and replies, site with a section, a section
 * group, a site space and a share link, team, invite, translation, glossary entry, OpenAPI
 * spec. `members.guestId` is given read access to the space; `members.userId` is the user
 * the paths' `{userId}` names. Returns path parameter name -> id.
 */
export async function seedObjects(
  t: TestApp,
  organizationId: string,
  token: string,
  members: { guestId: string; userId: string },
): Promise<{ ids: Record<string, string>; changeRequestIds: Record<string, string> }> {
  const call = async (method: 'POST' | 'PUT' | 'GET', url: string, body?: unknown) => {
    const res = await t.request(method, url, { token, body, skipSchemaCheck: true });
    if (res.status >= 300) throw new Error(`seed ${method} ${url}: ${res.status} ${res.text}`);
    return res.body;
  };
  const O = `/v1/orgs/${organizationId}`;
  const collection = await call('POST', `${O}/collections`, { title: 'Handbook' });
  const space = await call('POST', `${O}/spaces`, { title: 'Guide', parent: collection.id });
  // A page and a file, merged before the draft is opened, so the draft holds them too.
  const first = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'First page' });
  await call('POST', `/v1/spaces/${space.id}/change-requests/${first.id}/content`, {
    changes: [
      { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello' } },
      { operation: 'insert_files', files: [{ name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('notes').toString('base64') }] },
    ],
  }).catch(() => undefined);
  await call('POST', `/v1/spaces/${space.id}/change-requests/${first.id}/merge`).catch(() => undefined);
  const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Draft' });
  const comment = await call('POST', `/v1/spaces/${space.id}/comments`, { body: { markdown: 'Hello' } }).catch(() => undefined);
  const crComment = await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`, { body: { markdown: 'On the draft' } }).catch(() => undefined);
  const crReply = crComment
    ? await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments/${crComment.id}/replies`, { body: { markdown: 'Agreed' } }).catch(() => undefined)
    : undefined;
  const reply = comment
    ? await call('POST', `/v1/spaces/${space.id}/comments/${comment.id}/replies`, { body: { markdown: 'Hi' } }).catch(() => undefined)
    : undefined;
  const site = await call('POST', `${O}/sites`, { title: 'Docs', spaces: [space.id] });
  const siteSpaces = await call('GET', `${O}/sites/${site.id}/site-spaces`);
  const section = await call('POST', `${O}/sites/${site.id}/sections`, { spaceId: space.id, title: 'Reference' }).catch(() => undefined);
  const team = await call('PUT', `${O}/teams`, { title: 'Writers' }).catch(() => undefined);
  const shareLink = await call('POST', `${O}/sites/${site.id}/share-links`, { name: 'Reviewers' }).catch(() => undefined);
  const group = await call('POST', `${O}/sites/${site.id}/section-groups`, { title: 'Guides' }).catch(() => undefined);
  const invite = await call('POST', `${O}/link-invites`, { role: 'read' }).catch(() => undefined);
  const pages = await call('GET', `/v1/spaces/${space.id}/content`).catch(() => undefined);
  const files = await call('GET', `/v1/spaces/${space.id}/content/files`).catch(() => undefined);
  const translation = await call('POST', `${O}/translations`, { source: { space: space.id, language: 'en' }, language: 'fr' }).catch(() => undefined);
  await call('PUT', `${O}/translations-glossary`, { operations: [{ type: 'insert', translations: { en: 'Guide' } }] }).catch(() => undefined);
  const glossary = await call('GET', `${O}/translations-glossary`).catch(() => undefined);
  // An OpenAPI spec from text (no fetch); its first version is processed by the jobs below.
  await call('POST', `${O}/openapi`, { slug: 'pets', source: { text: 'openapi: 3.0.3\ninfo: { title: Pets, version: "1" }\npaths: {}\n' } }).catch(() => undefined);
  // The translation's first run (a job) writes to it: done before the suites take their digests.
  await t.runJobsUntilIdle();
  const specVersion = await call('GET', `${O}/openapi/pets/versions/latest`).catch(() => undefined);
  await t.request('POST', `/v1/spaces/${space.id}/permissions`, { token, body: { role: 'read', users: [members.guestId] }, skipSchemaCheck: true });
  const ids: Record<string, string> = {
    organizationId: organizationId,
    collectionId: collection.id,
    spaceId: space.id,
    changeRequestId: cr.id,
    changeRequestNumber: String(cr.number ?? 1),
    commentId: comment?.id ?? 'none',
    siteId: site.id,
    siteSpaceId: siteSpaces?.items?.[0]?.id ?? 'none',
    siteSectionId: section?.id ?? 'none',
    teamId: team?.id ?? 'none',
    userId: members.userId,
    pageId: pages?.pages?.[0]?.id ?? 'none',
    pagePath: pages?.pages?.[0]?.path ?? 'none',
    revisionId: pages?.id ?? 'none',
    fileId: files?.items?.[0]?.id ?? 'none',
    commentReplyId: reply?.id ?? 'none',
    shareLinkId: shareLink?.id ?? 'none',
    siteSectionGroupId: group?.id ?? 'none',
    inviteId: invite?.id ?? 'none',
    emailDomain: 'acme.test',
    translationId: translation?.id ?? 'none',
    glossaryEntryId: glossary?.items?.[0]?.id ?? 'none',
    specSlug: 'pets',
    versionId: specVersion?.id ?? 'none',
  };
  const changeRequestIds: Record<string, string> = {
    ...ids,
    commentId: crComment?.id ?? 'none',
    commentReplyId: crReply?.id ?? 'none',
  };
  return { ids, changeRequestIds };
}

/**
 * A digest of every row of every table: equal before and after means nothing changed.
 * Columns that record reads rather than writes (last seen, last used) are left out, and so is
 * the job scheduler's own clock: a recurring job's period (`job_periods`, and its `recurring:`
 * run in `jobs`) starts when the wall clock crosses it (the PDF sweep every 10 minutes), by the
 * app's worker on its timer, whatever request is being made then; no request writes them.
 */
let pgTables: string[] | undefined;
export async function fingerprint(t: TestApp): Promise<string> {
  const digests = await tableDigests(t);
  return createHash('sha256').update(Object.entries(digests).map(([name, digest]) => `${name}:${digest}`).sort().join('\n')).digest('hex');
}

/** A digest per table (what fingerprint() combines): comparing two says which tables changed. */
export async function tableDigests(t: TestApp): Promise<Record<string, string>> {
  if (t.dialect === 'postgres') {
    // One round trip: a digest per table, computed by the server.
    pgTables ??= (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%' and table_name <> 'job_periods' order by table_name`.execute(t.db)).rows.map((r) => r.name);
    const parts = pgTables.map(
      (table) =>
        sql`select ${table}::text as name, (select md5(coalesce(string_agg((to_jsonb(x) - 'last_seen_at' - 'last_used_at')::text, '|' order by (to_jsonb(x) - 'last_seen_at' - 'last_used_at')::text), '')) from ${sql.table(table)} x ${table === 'jobs' ? sql`where x.kind not like 'recurring:%'` : sql``}) as digest`,
    );
    const rows = (await sql<{ name: string; digest: string }>`${sql.join(parts, sql` union all `)}`.execute(t.db)).rows;
    return Object.fromEntries(rows.map((r) => [r.name, r.digest]));
  }
  const tables = (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' and name <> 'job_periods' order by name`.execute(t.db)).rows.map((r) => r.name);
  const digests: Record<string, string> = {};
  for (const table of tables) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)} ${table === 'jobs' ? sql`where kind not like 'recurring:%'` : sql``}`.execute(t.db)).rows;
    const lines = rows
      .map((row) => {
        const { last_seen_at: _seen, last_used_at: _used, ...rest } = row;
        return JSON.stringify(rest, (_key, value) => (Buffer.isBuffer(value) ? value.toString('base64') : typeof value === 'bigint' ? String(value) : value));
      })
      .sort();
    digests[table] = createHash('sha256').update(lines.join('\n')).digest('hex');
  }
  return digests;
}

/** A response is in GitBook's error shape: exactly `{"error":{"code":status,"message":string}}`. */
export function gitbookErrorProblem(status: number, text: string, contentType: string): string | null {
  if (!contentType.includes('json')) return `content-type ${contentType}`;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (!body || typeof body !== 'object' || Object.keys(body).join() !== 'error') return `keys ${Object.keys(body ?? {})}`;
  if (body.error.code !== status) return `code ${body.error.code} != ${status}`;
  if (typeof body.error.message !== 'string' || body.error.message === '') return 'no message';
  return null;
}

export { createUser };

/** A JSON schema of Quire's OpenAPI document, read loosely. */
export type Schema = Record<string, any>;

/** The schema a `$ref` names in the document's components (followed at most 20 times). */
export function resolveSchema(doc: Schema, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; s.$ref && i < 20; i++) s = doc.components?.schemas?.[String(s.$ref).replace('#/components/schemas/', '')] ?? {};
  return s;
}

/**
 * The suites' shared setup: one app, its seeded organization and callers, and Quire's own
 * OpenAPI document, made before the suite's tests and closed after them.
 */
export function useSeededApp(): { t: TestApp; seeded: Seed; doc: Schema } {
  const state = {} as { t: TestApp; seeded: Seed; doc: Schema };
  beforeAll(async () => {
    state.t = await createTestApp();
    state.seeded = await seed(state.t);
    state.doc = (await state.t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
  }, 600_000);
  afterAll(async () => {
    await state.t?.close();
  });
  return state;
}

/** A minimal value of a schema: required fields only, simple values. */
export function minimal(doc: Schema, raw: Schema | undefined, ids: Record<string, string>, name = '', depth = 0): unknown {
  const schema = resolveSchema(doc, raw);
  if (depth > 6) return undefined;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return minimal(doc, branches.find((b: Schema) => resolveSchema(doc, b).type !== 'null') ?? branches[0], ids, name, depth + 1);
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
      const fields = [...(schema.required ?? [])];
      // `minProperties: 1` with nothing required (a move, a partial update): its first field.
      if (fields.length < (schema.minProperties ?? 0)) fields.push(...Object.keys(schema.properties ?? {}).filter((f) => !fields.includes(f)).slice(0, schema.minProperties - fields.length));
      for (const field of fields) out[field] = minimal(doc, schema.properties?.[field], ids, field, depth + 1);
      return out;
    }
  }
}
