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
