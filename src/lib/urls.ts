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

// ---- Published URLs: the one place they are built (sites, spaces and the published site) ----

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

/** A section's published URL: `<site URL><section path>/`. */
export function sectionUrl(baseUrl: string, section: { path: string }): string {
  return `${baseUrl}${section.path}/`;
}

/** A site space's published URL: `<site URL><section path>/<path>/`, or `<site URL><path>/` at the root. */
export function siteSpaceUrl(baseUrl: string, section: { path: string } | null, siteSpace: { path: string }): string {
  return section ? `${baseUrl}${section.path}/${siteSpace.path}/` : `${baseUrl}${siteSpace.path}/`;
}

/** The schemes a user-supplied link may have; anything else (`javascript:`, `data:`, …) is dropped. */
const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);
/** A base to resolve relative links against; only its host matters (see below). */
const RELATIVE_BASE = 'https://relative.quire.invalid/';

export interface ParsedLink {
  /** The link as it is emitted: what a browser's URL parser would read anyway (below). */
  url: string;
  /** "http:", "https:", "mailto:", "tel:", or "" for a link relative to this page or host. */
  scheme: string;
}

/**
 * The one check of every user-supplied link (documents, markdown, embeds, site
 * customization, OpenAPI descriptions, PDFs). It reads the link as browsers do, with the
 * WHATWG URL parser (`new URL`): that parser first drops leading and trailing C0 controls
 * and spaces and every tab, CR and LF anywhere, so `java\tscript:` and `\x01javascript:`
 * are `javascript:` links to a browser, whatever a pattern over the raw text says. The
 * link is emitted with those characters already dropped, so what was checked is what the
 * browser follows. Allowed: http(s), mailto, tel, and relative links on this host (a
 * fragment, a path, a query). A scheme-relative link (`//host`, `\\host`) is refused, as
 * before. Null when refused.
 */
export function parseLink(url: string | undefined | null): ParsedLink | null {
  if (typeof url !== 'string') return null;
  const cleaned = url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  if (cleaned === '') return null;
  let resolved: URL;
  try {
    resolved = new URL(cleaned, RELATIVE_BASE);
  } catch {
    return null;
  }
  if (!LINK_SCHEMES.has(resolved.protocol)) return null;
  if (URL.canParse(cleaned)) return { url: cleaned, scheme: resolved.protocol };
  // Relative: it must stay on this host (the base's), which "//evil.example" would leave.
  return resolved.origin === new URL(RELATIVE_BASE).origin ? { url: cleaned, scheme: '' } : null;
}
