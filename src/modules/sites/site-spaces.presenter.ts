import type { SpaceWire } from '../spaces/spaces.schemas.ts';
import { siteSpaceUrl } from '../../lib/urls.ts';
import type { SiteSpaceRow } from './site-spaces.repository.ts';
import type { SiteSpaceWire } from './site-spaces.schemas.ts';

/** Where a site space sits, as its wire object shows it. */
export interface SiteSpacePlace {
  /** The site's published URL, or null while the site is not published. */
  siteUrl: string | null;
  section: { id: string; path: string } | null;
  isDefault: boolean;
}

/** site_spaces row (with its space presented) -> SiteSpace wire object. */
export function presentSiteSpace(row: SiteSpaceRow, space: SpaceWire, place: SiteSpacePlace): SiteSpaceWire {
  return {
    object: 'site-space',
    id: row.id,
    path: row.path,
    ...(place.section ? { section: place.section.id } : {}),
    space,
    title: row.title ?? space.title,
    default: place.isDefault,
    ...(row.condition !== null ? { condition: row.condition } : {}),
    draft: false,
    hidden: false,
    hasAdvancedCustomizationFeature: true,
    urls: place.siteUrl ? { published: siteSpaceUrl(place.siteUrl, place.section, row) } : {},
  };
}
