import type { Config } from '../../config.ts';
import { apiUrl, appUrl } from '../../lib/urls.ts';
import type { SpecResult, SpecsPage, VersionContentResult, VersionResult, VersionsPage } from './openapi-specs.model.ts';
import type { SpecRow, VersionHead } from './openapi-specs.repository.ts';

type Urls = Pick<Config, 'publicUrl'>;
const specPath = (row: Pick<SpecRow, 'organization_id' | 'slug'>) => `/orgs/${encodeURIComponent(row.organization_id)}/openapi/${row.slug}`;

/** Where a public spec's latest document is downloadable without a token (`.json` or `.yaml`). */
export function publishedSpecUrl(config: Urls, row: Pick<SpecRow, 'organization_id' | 'slug'>, format: 'json' | 'yaml' = 'json'): string {
  return `${config.publicUrl}/openapi/${encodeURIComponent(row.organization_id)}/${row.slug}.${format}`;
}

/** openapi_specs row -> OpenAPISpec wire object. */
export function presentSpec(config: Urls, row: SpecRow, permissions: { view: boolean; edit: boolean }) {
  return {
    object: 'openapi-spec' as const,
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    slug: row.slug,
    ...(row.source_url ? { sourceURL: row.source_url } : {}),
    processingState: row.processing_state,
    visibility: row.visibility,
    ...(row.last_version_id ? { lastVersion: row.last_version_id } : {}),
    ...(row.last_processed_at ? { lastProcessedAt: row.last_processed_at } : {}),
    ...(row.last_error_code ? { lastProcessErrorCode: row.last_error_code as 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR' } : {}),
    ...(row.last_errors ? { lastProcessedErrors: JSON.parse(row.last_errors) as { message: string; code?: string }[] } : {}),
    lastProcessedErrorCount: row.last_error_count,
    permissions,
    urls: {
      location: apiUrl(config, specPath(row)),
      app: appUrl(config, specPath(row)),
      ...(row.visibility === 'public' ? { published: publishedSpecUrl(config, row) } : {}),
    },
  };
}

/** The URL a version "is at": its source URL, else the API location of its raw document. */
function versionUrl(config: Urls, spec: SpecRow, version: VersionHead): string {
  return version.source_url ?? apiUrl(config, `${specPath(spec)}/versions/${version.id}`);
}

export function presentVersion(config: Urls, spec: SpecRow, version: VersionHead) {
  return {
    object: 'openapi-spec-version' as const,
    id: version.id,
    createdAt: version.created_at,
    url: versionUrl(config, spec, version),
    urls: { location: apiUrl(config, `${specPath(spec)}/versions/${version.id}`) },
  };
}

/** `{ filesystem, url, urls }`: the version's files, where it came from, and its public URL. */
export function presentContent(config: Urls, spec: SpecRow, version: VersionHead, filesystem: string) {
  const url = versionUrl(config, spec, version);
  return {
    filesystem: JSON.parse(filesystem) as Record<string, unknown>,
    url,
    urls: { source: url, public: spec.visibility === 'public' ? publishedSpecUrl(config, spec) : null },
  };
}

export const presentSpecResult = (config: Urls, result: SpecResult) => presentSpec(config, result.spec, result.permissions);

export function presentSpecsPage(config: Urls, page: SpecsPage) {
  const { permissions, ...rest } = page;
  return { ...rest, items: page.items.map((row) => presentSpec(config, row, permissions)) };
}

export const presentVersionResult = (config: Urls, result: VersionResult) => presentVersion(config, result.spec, result.version);

export function presentVersionsPage(config: Urls, page: VersionsPage) {
  const { spec, ...rest } = page;
  return { ...rest, items: page.items.map((version) => presentVersion(config, spec, version)) };
}

export const presentContentResult = (config: Urls, result: VersionContentResult) => presentContent(config, result.spec, result.version, result.filesystem);
