import type { Config } from '../../config.ts';
import { apiUrl, appUrl, publishedSiteUrl } from '../../lib/urls.ts';
import type { Page } from '../../lib/pagination/index.ts';
import { presentStructure } from './site-sections.presenter.ts';
import type { PublishedSiteResult, ShareLinkResult, ShareLinksPage, SiteResult } from './sites.model.ts';
import type { ShareLinkRow, SiteView } from './sites.repository.ts';
import type { ShareLinkWire, SitePermissionsWire, SiteWire } from './sites.schemas.ts';

type SiteAddress = { id: string; basename: string | null; hostname: string | null };

// ---- Site ----

/** Features every site has on a self-hosted server (nothing is sold, so nothing is locked). */
const FEATURES = [
  'sites-adaptive-content',
  'sites-advanced-customization',
  'sites-basic-customization',
  'sites-custom-domain',
  'sites-custom-subdirectory',
  'sites-multivariant-site',
  'sites-public-visibility',
  'sites-sections',
  'sites-share-links',
  'sites-unlisted-visibility',
  'sites-visitor-authentication',
] as const;

/** sites row (with its count) -> Site wire object, with the caller's permissions on it. */
export function presentSite(config: Pick<Config, 'publicUrl'>, row: SiteView, permissions: SitePermissionsWire): SiteWire {
  const customization = JSON.parse(row.customization) as { favicon?: SiteWire['icon'] };
  const favicon = customization.favicon as Record<string, unknown> | undefined;
  const internal = publishedSiteUrl(config, { ...row, hostname: null });
  return {
    object: 'site',
    id: row.id,
    type: row.type as SiteWire['type'],
    appliedType: row.type as SiteWire['type'],
    title: row.title,
    ...(favicon && ('icon' in favicon || 'emoji' in favicon) ? { icon: favicon as SiteWire['icon'] } : {}),
    // The hostname the owner set, proven or not yet (only a proven one is served).
    ...(row.pending_hostname || row.hostname ? { hostname: (row.pending_hostname ?? row.hostname) as string } : {}),
    ...(row.basename ? { basename: row.basename } : {}),
    ...(row.proxy ? { proxy: { origin: row.proxy, target: internal } } : {}),
    visibility: row.visibility,
    defaultLevel: 'inherit',
    permissions,
    published: row.published === 1,
    siteSpaces: Number(row.site_spaces),
    createdAt: row.created_at,
    adaptiveContent: { enabled: row.adaptive_content === 1 },
    ads: { status: 'pending', submittable: false },
    agentsContext: row.agents_context,
    features: FEATURES.map((id) => ({ id, plan: row.type as SiteWire['type'], frozen: false })),
    urls: {
      location: apiUrl(config, `/orgs/${row.organization_id}/sites/${row.id}`),
      app: appUrl(config, `/o/${row.organization_id}/sites/${row.id}`),
      preview: internal,
      ...(row.published === 1 ? { published: publishedSiteUrl(config, row) } : {}),
    },
  };
}

/** A site as the caller sees it -> Site wire object. */
export function presentSiteResult(config: Pick<Config, 'publicUrl'>, result: SiteResult): SiteWire {
  return presentSite(config, result.site, result.permissions);
}

/** A page of sites -> the SiteList wire object. */
export function presentSites(config: Pick<Config, 'publicUrl'>, page: Page<SiteResult>) {
  return { ...page, items: page.items.map((result) => presentSiteResult(config, result)) };
}

/** The published site profile -> PublishedContentSite wire object. */
export function presentPublishedSite(config: Pick<Config, 'publicUrl'>, result: PublishedSiteResult) {
  return {
    object: 'published-content-site' as const,
    site: presentSiteResult(config, result.site),
    structure: presentStructure(config, result.structure),
    customizations: result.customizations,
    scripts: [],
  };
}

// ---- Share links ----

/** site_share_links row -> ShareLink wire object. */
export function presentShareLink(config: Pick<Config, 'publicUrl'>, site: SiteAddress, row: ShareLinkRow): ShareLinkWire {
  return {
    object: 'share-link',
    id: row.id,
    createdAt: row.created_at,
    ...(row.name !== null ? { name: row.name } : {}),
    active: row.active === 1,
    key: row.key,
    urls: { published: `${publishedSiteUrl(config, site)}?shareKey=${encodeURIComponent(row.key)}` },
  };
}

/** A share link of a site -> ShareLink wire object. */
export function presentShareLinkResult(config: Pick<Config, 'publicUrl'>, result: ShareLinkResult): ShareLinkWire {
  return presentShareLink(config, result.site, result.link);
}

/** A page of a site's share links -> the ShareLinkList wire object. */
export function presentShareLinks(config: Pick<Config, 'publicUrl'>, page: ShareLinksPage) {
  const { site, ...rest } = page;
  return { ...rest, items: page.items.map((row) => presentShareLink(config, site, row)) };
}
