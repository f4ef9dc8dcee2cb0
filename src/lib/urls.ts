import type { Config } from '../config.ts';

/** Absolute URL of an API resource, e.g. apiUrl(config, '/orgs/abc') -> PUBLIC_URL/v1/orgs/abc. */
export function apiUrl(config: Pick<Config, 'publicUrl'>, path: string): string {
  return `${config.publicUrl}/v1${path}`;
}

/**
 * Absolute URL of an object in Quire's web app. Quire has no editor UI of its own yet, so
 * these point at stable, documented locations under PUBLIC_URL/app (docs/decisions.md).
 */
export function appUrl(config: Pick<Config, 'publicUrl'>, path: string): string {
  return `${config.publicUrl}/app${path}`;
}

/**
 * Where a published site is served: its custom hostname when set (same scheme as
 * PUBLIC_URL), else PUBLIC_URL/sites/<basename or id>/.
 */
export function publishedSiteUrl(
  config: Pick<Config, 'publicUrl'>,
  site: { id: string; basename: string | null; hostname: string | null },
): string {
  if (site.hostname) return `${new URL(config.publicUrl).protocol}//${site.hostname}/`;
  return `${config.publicUrl}/sites/${encodeURIComponent(site.basename ?? site.id)}/`;
}
