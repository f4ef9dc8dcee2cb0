import type { Config } from '../../config.ts';
import type { Page } from '../../lib/pagination/index.ts';
import { publishedSiteUrl, sectionUrl } from '../../lib/urls.ts';
import { presentSpaceResult } from '../spaces/spaces.presenter.ts';
import type { ArrangedStructure, PlacedGroup, PlacedSection, PlacedSiteSpace } from './site-structure.ts';
import { presentSiteSpace } from './site-spaces.presenter.ts';
import type { SiteSpaceWire } from './site-spaces.schemas.ts';
import type { StructureItem } from './sites.model.ts';
import type { SiteRow } from './sites.repository.ts';
import type { SiteSectionGroupWire, SiteSectionWire, SiteStructureWire } from './site-sections.schemas.ts';

/*
 * The site structure as the API presents it, from the structure as the model arranges it
 * (SiteStructure.arrange: order and defaults, site spaces of deleted spaces left out).
 */

type Cfg = Pick<Config, 'publicUrl'>;

/** Published URL of the site, or null while unpublished. */
function siteUrlOf(config: Cfg, site: SiteRow): string | null {
  return site.published === 1 ? publishedSiteUrl(config, site) : null;
}

function siteSpaceWire(config: Cfg, siteUrl: string | null, placed: PlacedSiteSpace): SiteSpaceWire {
  return presentSiteSpace(placed.row, presentSpaceResult(config, placed.space), {
    siteUrl,
    section: placed.section ? { id: placed.section.id, path: placed.section.path } : null,
    isDefault: placed.isDefault,
  });
}

function sectionWire(config: Cfg, siteUrl: string | null, placed: PlacedSection): SiteSectionWire {
  const { row } = placed;
  return {
    object: 'site-section',
    id: row.id,
    title: row.title,
    ...(row.description !== null ? { description: row.description } : {}),
    default: placed.isDefault,
    draft: false,
    path: row.path,
    ...(row.condition !== null ? { condition: row.condition } : {}),
    ...(row.section_group_id !== null ? { sectionGroup: row.section_group_id } : {}),
    siteSpaces: placed.siteSpaces.map((s) => siteSpaceWire(config, siteUrl, s)),
    urls: siteUrl ? { published: sectionUrl(siteUrl, row) } : {},
    ...(row.icon !== null ? { icon: row.icon } : {}),
  };
}

function groupWire(config: Cfg, siteUrl: string | null, placed: PlacedGroup): SiteSectionGroupWire {
  const { row } = placed;
  const children = placed.children.map((child) => levelWire(config, siteUrl, child));
  return {
    object: 'site-section-group',
    id: row.id,
    title: row.title,
    draft: false,
    ...(row.parent_group_id !== null ? { sectionGroup: row.parent_group_id } : {}),
    ...(row.icon !== null ? { icon: row.icon } : {}),
    sections: children.filter((c): c is SiteSectionWire => c.object === 'site-section'),
    children,
  };
}

function levelWire(config: Cfg, siteUrl: string | null, placed: PlacedSection | PlacedGroup): SiteSectionWire | SiteSectionGroupWire {
  return placed.object === 'site-section' ? sectionWire(config, siteUrl, placed) : groupWire(config, siteUrl, placed);
}

/** One item of a site's structure -> its SiteSpace, SiteSection or SiteSectionGroup wire object. */
export function presentStructureItem(config: Cfg, site: SiteRow, placed: PlacedSiteSpace): SiteSpaceWire;
export function presentStructureItem(config: Cfg, site: SiteRow, placed: PlacedSection): SiteSectionWire;
export function presentStructureItem(config: Cfg, site: SiteRow, placed: PlacedGroup): SiteSectionGroupWire;
export function presentStructureItem(
  config: Cfg,
  site: SiteRow,
  placed: PlacedSiteSpace | PlacedSection | PlacedGroup,
): SiteSpaceWire | SiteSectionWire | SiteSectionGroupWire;
export function presentStructureItem(config: Cfg, site: SiteRow, placed: PlacedSiteSpace | PlacedSection | PlacedGroup) {
  const siteUrl = siteUrlOf(config, site);
  return placed.object === 'site-space' ? siteSpaceWire(config, siteUrl, placed) : levelWire(config, siteUrl, placed);
}

/** A page of a site's site spaces -> the SiteSpaceList wire object. */
export function presentSiteSpaces(config: Cfg, page: Page<PlacedSiteSpace> & { site: SiteRow }) {
  const { site, ...rest } = page;
  const siteUrl = siteUrlOf(config, site);
  return { ...rest, items: page.items.map((placed) => siteSpaceWire(config, siteUrl, placed)) };
}

/** A page of a site's sections -> the SiteSectionList wire object. */
export function presentSections(config: Cfg, page: Page<PlacedSection> & { site: SiteRow }) {
  const { site, ...rest } = page;
  const siteUrl = siteUrlOf(config, site);
  return { ...rest, items: page.items.map((placed) => sectionWire(config, siteUrl, placed)) };
}

/** A page of a site's section groups -> the SiteSectionGroupList wire object. */
export function presentGroups(config: Cfg, page: Page<PlacedGroup> & { site: SiteRow }) {
  const { site, ...rest } = page;
  const siteUrl = siteUrlOf(config, site);
  return { ...rest, items: page.items.map((placed) => groupWire(config, siteUrl, placed)) };
}

/** A site's structure -> SiteStructure wire object (sections and groups, or the root site spaces). */
export function presentStructure(config: Cfg, arranged: ArrangedStructure): SiteStructureWire {
  const siteUrl = siteUrlOf(config, arranged.site);
  const { top } = arranged;
  return top.type === 'sections'
    ? { type: 'sections', structure: top.items.map((item) => levelWire(config, siteUrl, item)) }
    : { type: 'siteSpaces', structure: top.items.map((item) => siteSpaceWire(config, siteUrl, item)) };
}

/** A structure item a change answers with -> its wire object. */
export function presentPlaced(config: Cfg, result: StructureItem<PlacedSiteSpace>): SiteSpaceWire;
export function presentPlaced(config: Cfg, result: StructureItem<PlacedSection>): SiteSectionWire;
export function presentPlaced(config: Cfg, result: StructureItem<PlacedGroup>): SiteSectionGroupWire;
export function presentPlaced(
  config: Cfg,
  result: StructureItem<PlacedSiteSpace | PlacedSection | PlacedGroup>,
): SiteSpaceWire | SiteSectionWire | SiteSectionGroupWire;
export function presentPlaced(config: Cfg, result: StructureItem<PlacedSiteSpace | PlacedSection | PlacedGroup>) {
  return presentStructureItem(config, result.site, result.item);
}
