import type { AppDeps, Context } from '../../context.ts';
import { LruCache } from '../../content/store/snapshot.ts';
import { bundle } from '../../content/openapi/filesystem.ts';
import type { PageRequest } from '../../lib/pagination/index.ts';
import { badRequest, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { redactUrl } from '../../lib/outbound/index.ts';
import { loadOnUse } from '../../lib/load-on-use.ts';
import { memberAccess } from '../../access/index.ts';
import type { OrganizationAccess } from '../organizations/organizations.policy.ts';
import { requestSpecProcessing } from './openapi-specs.job-kinds.ts';
import { openapiSpecPolicy } from './openapi-specs.policy.ts';
import type { SpecResult, SpecsPage, VersionContentResult, VersionResult, VersionsPage } from './openapi-specs.model.ts';
import { loadSpec, type SpecSource } from './openapi-specs.process.ts';
import { openapiSpecsRepository as repo, type SpecRow } from './openapi-specs.repository.ts';
import type { SpecSourceInput } from './openapi-specs.schemas.ts';

/** YAML is parsed only by some requests: loaded on first use (lib/load-on-use.ts). */
const yaml = loadOnUse<typeof import('yaml')>('yaml');

/** What background processing logs to. */
export interface JobLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

async function readAccess(ctx: Context, organizationId: string): Promise<OrganizationAccess> {
  const access = await memberAccess(ctx, organizationId);
  openapiSpecPolicy.authorize('view', access, 'Guests cannot read the organization’s OpenAPI specs');
  return access;
}

async function editAccess(ctx: Context, organizationId: string): Promise<OrganizationAccess> {
  const access = await memberAccess(ctx, organizationId);
  openapiSpecPolicy.authorize('edit', access, 'Only members who can create content (create or admin) can change OpenAPI specs');
  return access;
}

/** A spec with the caller's permissions on it. */
const resultOf = (spec: SpecRow, access: OrganizationAccess): SpecResult => ({ spec, permissions: openapiSpecPolicy.permissions(access) });

/**
 * `source` is `{ url }` or `{ text }`, nothing else. A URL is fetched again on a schedule,
 * so it must not carry secrets Quire would have to store in clear: credentials and
 * capability parameters (token=, sig=, ...) are refused.
 */
function normalizeSource(source: SpecSourceInput): SpecSource {
  const keys = Object.keys(source);
  if (keys.length !== 1 || (keys[0] !== 'url' && keys[0] !== 'text')) throw badRequest('body/source must be either { url } or { text }');
  if ('text' in source) {
    if (typeof source.text !== 'string' || source.text.trim() === '') throw badRequest('body/source/text must not be empty');
    return { text: source.text };
  }
  let url: URL;
  try {
    url = new URL(source.url);
  } catch {
    throw badRequest('body/source/url must be a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('body/source/url must be an http or https URL');
  if (url.username || url.password) throw badRequest('body/source/url must not contain credentials: Quire stores and shows the source URL; serve the spec publicly or upload it as text');
  if (redactUrl(url) !== url.toString()) throw badRequest('body/source/url must not contain secret parameters (token, signature, key...): Quire stores and shows the source URL');
  return { url: url.toString() };
}

function sourceColumns(source: SpecSource) {
  return 'url' in source ? { source_url: source.url, source_text: null } : { source_url: null, source_text: source.text };
}

/** GET {O}/openapi */
export async function listSpecs(ctx: Context, organizationId: string, page: PageRequest): Promise<SpecsPage> {
  const access = await readAccess(ctx, organizationId);
  const result = await repo.list(ctx.db, organizationId, page);
  return { ...result, permissions: openapiSpecPolicy.permissions(access) };
}

async function specOf(ctx: Context, organizationId: string, slug: string): Promise<{ access: OrganizationAccess; spec: SpecRow }> {
  const access = await readAccess(ctx, organizationId);
  const spec = await repo.findBySlug(ctx.db, organizationId, slug);
  if (!spec) throw notFound('OpenAPI spec');
  return { access, spec };
}

/** GET {O}/openapi/{slug} */
export async function getSpec(ctx: Context, organizationId: string, slug: string): Promise<SpecResult> {
  const { access, spec } = await specOf(ctx, organizationId, slug);
  return resultOf(spec, access);
}

/** POST {O}/openapi: 400 when the slug is taken (PUT replaces). */
export async function createSpec(ctx: Context, organizationId: string, input: { slug: string; source: SpecSourceInput }): Promise<SpecResult> {
  const source = normalizeSource(input.source);
  return ctx.transaction(async (tctx) => {
    const access = await editAccess(tctx, organizationId);
    if (await repo.findBySlug(tctx.db, organizationId, input.slug)) throw badRequest(`body/slug: the organization already has a spec "${input.slug}"; PUT {O}/openapi/${input.slug} updates it`);
    const row = newSpecRow(ctx, organizationId, input.slug, source);
    await repo.insert(tctx.db, row);
    await requestSpecProcessing(tctx.db, row.id);
    return resultOf(row, access);
  });
}

function newSpecRow(ctx: Context, organizationId: string, slug: string, source: SpecSource): SpecRow {
  const now = isoNow(ctx.clock);
  return {
    id: newId(),
    organization_id: organizationId,
    slug,
    ...sourceColumns(source),
    visibility: 'private',
    processing_state: 'pending',
    last_version_id: null,
    last_processed_at: null,
    last_error_code: null,
    last_errors: null,
    last_error_count: 0,
    created_at: now,
    updated_at: now,
  };
}

/** PUT {O}/openapi/{slug}: creates (201) or replaces the source and processes it again (200). */
export async function putSpec(ctx: Context, organizationId: string, slug: string, input: { source: SpecSourceInput }): Promise<SpecResult & { created: boolean }> {
  const source = normalizeSource(input.source);
  return ctx.transaction(async (tctx) => {
    const access = await editAccess(tctx, organizationId);
    const existing = await repo.findBySlug(tctx.db, organizationId, slug);
    let row: SpecRow;
    if (existing) {
      const changes = { ...sourceColumns(source), processing_state: 'pending' as const, updated_at: isoNow(ctx.clock) };
      await repo.update(tctx.db, existing.id, changes);
      row = { ...existing, ...changes };
    } else {
      row = newSpecRow(ctx, organizationId, slug, source);
      await repo.insert(tctx.db, row);
    }
    await requestSpecProcessing(tctx.db, row.id);
    return { created: !existing, ...resultOf(row, access) };
  });
}

/** PATCH {O}/openapi/{slug}: visibility. */
export async function updateVisibility(ctx: Context, organizationId: string, slug: string, visibility: 'private' | 'public'): Promise<SpecResult> {
  return ctx.transaction(async (tctx) => {
    const access = await editAccess(tctx, organizationId);
    const spec = await repo.findBySlug(tctx.db, organizationId, slug);
    if (!spec) throw notFound('OpenAPI spec');
    const changes = { visibility, updated_at: isoNow(ctx.clock) };
    await repo.update(tctx.db, spec.id, changes);
    return resultOf({ ...spec, ...changes }, access);
  });
}

/** DELETE {O}/openapi/{slug}: 204, also when absent. */
export async function deleteSpec(ctx: Context, organizationId: string, slug: string): Promise<void> {
  await ctx.transaction(async (tctx) => {
    await editAccess(tctx, organizationId);
    const spec = await repo.findBySlug(tctx.db, organizationId, slug);
    if (spec) await repo.delete(tctx.db, spec.id);
  });
}

/** GET {O}/openapi/{slug}/versions */
export async function listVersions(ctx: Context, organizationId: string, slug: string, page: PageRequest): Promise<VersionsPage> {
  const { spec } = await specOf(ctx, organizationId, slug);
  return { ...(await repo.listVersions(ctx.db, spec.id, page)), spec };
}

async function versionOf(ctx: Context, organizationId: string, slug: string, versionId: string): Promise<VersionResult> {
  const { spec } = await specOf(ctx, organizationId, slug);
  const id = versionId === 'latest' ? spec.last_version_id : versionId;
  const version = id ? await repo.findVersionHead(ctx.db, spec.id, id) : undefined;
  if (!version) throw notFound(versionId === 'latest' ? 'OpenAPI spec version (none processed yet)' : 'OpenAPI spec version');
  return { spec, version };
}

/** GET {O}/openapi/{slug}/versions/{latest|id} */
export async function getVersion(ctx: Context, organizationId: string, slug: string, versionId: string): Promise<VersionResult> {
  return versionOf(ctx, organizationId, slug, versionId);
}

/** GET .../versions/{latest|id}/content */
export async function getVersionContent(ctx: Context, organizationId: string, slug: string, versionId: string): Promise<VersionContentResult> {
  const { spec, version } = await versionOf(ctx, organizationId, slug, versionId);
  const full = await repo.findVersion(ctx.db, spec.id, version.id);
  return { spec, version, filesystem: full!.filesystem };
}

/** GET .../versions/latest/content/raw: the entrypoint as fetched or uploaded. */
export async function getRawContent(ctx: Context, organizationId: string, slug: string, versionId: string) {
  const { spec, version } = await versionOf(ctx, organizationId, slug, versionId);
  const full = await repo.findVersion(ctx.db, spec.id, version.id);
  return { text: full!.raw, format: full!.format };
}

/** Public documents by version and format (a version never changes). */
const publicDocuments = new LruCache<{ body: string; etag: string }>(16);

/**
 * GET /openapi/{organizationId}/{slug}.{json|yaml} without a token: a public spec's latest
 * version, bundled into one document; 404 for private or unknown specs alike.
 */
export async function publicDocument(deps: Pick<AppDeps, 'db'>, organizationId: string, slug: string, format: 'json' | 'yaml') {
  const spec = await repo.findBySlug(deps.db, organizationId, slug);
  if (!spec || spec.visibility !== 'public' || !spec.last_version_id) throw notFound('OpenAPI spec');
  const key = `${spec.last_version_id}\u0000${format}`;
  const cached = publicDocuments.get(key);
  if (cached) return cached;
  const version = await repo.findVersion(deps.db, spec.id, spec.last_version_id);
  if (!version) throw notFound('OpenAPI spec');
  const filesystem = JSON.parse(version.filesystem) as Record<string, unknown>;
  const document = bundle(filesystem, Object.keys(filesystem)[0]!);
  const body = format === 'json' ? JSON.stringify(document, null, 2) : yaml().stringify(document, { aliasDuplicateObjects: false });
  const answer = { body, etag: `"${version.content_hash.slice(0, 32)}-${format}"` };
  publicDocuments.set(key, answer);
  return answer;
}

/* ---------------------------------------------------------------- processing */

/**
 * Processes a spec's current source: pending -> progress -> complete. A new version is
 * stored only when the content differs from the latest (content hash); a failure records
 * its code and errors and leaves the last good version served. Idempotent.
 */
export async function processSpec(deps: AppDeps, specId: string, log?: JobLogger): Promise<void> {
  const spec = await repo.findById(deps.db, specId);
  if (!spec) return;
  const source: SpecSource | undefined = spec.source_url ? { url: spec.source_url } : spec.source_text !== null ? { text: spec.source_text } : undefined;
  if (!source) {
    // An uploaded spec already stored as a version: nothing to fetch again.
    await repo.update(deps.db, spec.id, { processing_state: 'complete' });
    return;
  }
  await repo.update(deps.db, spec.id, { processing_state: 'progress' });
  const loaded = await loadSpec(deps.outbound, source, { timeoutMs: deps.config.openapiFetchTimeoutMs });
  await deps.db.transaction().execute(async (trx) => {
    const current = await repo.findById(trx, specId);
    // Replaced meanwhile (PUT): the job it queued processes the new source.
    if (!current || current.source_url !== spec.source_url || current.source_text !== spec.source_text) return;
    const now = isoNow(deps.clock);
    if (!loaded.ok) {
      log?.warn({ specId, code: loaded.code }, 'OpenAPI spec processing failed');
      await repo.update(trx, specId, {
        processing_state: 'complete',
        last_processed_at: now,
        last_error_code: loaded.code,
        last_errors: JSON.stringify(loaded.errors),
        last_error_count: loaded.errorCount,
      });
      return;
    }
    const latest = current.last_version_id ? await repo.findVersionHead(trx, specId, current.last_version_id) : undefined;
    let versionId = current.last_version_id;
    if (latest?.content_hash !== loaded.hash) {
      versionId = newId();
      await repo.insertVersion(trx, {
        id: versionId,
        spec_id: specId,
        created_at: now,
        content_hash: loaded.hash,
        source_url: spec.source_url,
        format: loaded.format,
        raw: loaded.raw,
        filesystem: JSON.stringify(loaded.filesystem),
      });
      log?.info({ specId, versionId }, 'OpenAPI spec: new version');
    }
    await repo.update(trx, specId, {
      processing_state: 'complete',
      last_version_id: versionId,
      last_processed_at: now,
      last_error_code: null,
      last_errors: null,
      last_error_count: 0,
      // The version holds the uploaded text now.
      source_text: null,
      updated_at: versionId !== current.last_version_id ? now : current.updated_at,
    });
  });
}

/** The refresh schedule: every spec with a source URL is processed again. */
export async function refreshSpecs(deps: AppDeps): Promise<number> {
  const specs = await repo.withSourceUrl(deps.db);
  for (const spec of specs) await requestSpecProcessing(deps.db, spec.id);
  return specs.length;
}

/* ---------------------------------------------------------------- rendering */

