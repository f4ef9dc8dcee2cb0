import type { Page } from '../../lib/pagination/index.ts';
import type { ShareLinkRow, SiteRow, SiteView } from './sites.repository.ts';
import type { ArrangedStructure } from './site-structure.ts';
import type { CustomizationWire, SitePermissionsWire } from './sites.schemas.ts';

/** A site as the caller sees it: its row (with its count) and the caller's permissions on it. */
export interface SiteResult {
  site: SiteView;
  permissions: SitePermissionsWire;
}

/** A share link of a site (its published URL is the site's). */
export interface ShareLinkResult {
  site: SiteView;
  link: ShareLinkRow;
}

/** A page of a site's share links. */
export interface ShareLinksPage extends Page<ShareLinkRow> {
  site: SiteView;
}

/** One item of a site's structure (a site space, section or group) as the structure shows it, with its site. */
export interface StructureItem<T> {
  site: SiteRow;
  item: T;
}

/** The published site profile: the site, its structure, the customizations in effect. */
export interface PublishedSiteResult {
  site: SiteResult;
  structure: ArrangedStructure;
  customizations: { site: CustomizationWire; siteSpaces: Record<string, CustomizationWire> };
}
