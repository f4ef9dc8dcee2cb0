import type { AppDeps } from '../../context.ts';
import { visibleTo, type Claims } from './published.policy.ts';
import { siteStructure } from '../../site/structure.ts';
import {
  publishedRepository,
  type PublishedGroupRow,
  type PublishedSectionRow,
  type PublishedSiteRow,
  type PublishedSiteSpaceRow,
} from './published.repository.ts';

/*
 * A published site as one visitor sees it: its sections and site spaces whose conditions
 * hold for the visitor, placed at their URLs, in the API's order (src/site/structure.ts),
 * and the resolution of a URL path to a site space and a page path. Rows are read on
 * every visit (they change).
 */

type Deps = Pick<AppDeps, 'db' | 'config' | 'clock' | 'caches' | 'files'>;

/** How the site was reached: under PUBLIC_URL/sites/<key>/ or at its own hostname. */
/** The site's search page: a path no slug can take (slugs hold no `~`). */
export const SEARCH_PATH = '~search';

/** How the site was reached: under PUBLIC_URL/sites/<key>/ or at its own hostname. */
export type Mount = { kind: 'path'; key: string } | { kind: 'host'; hostname: string };

/** A site space as navigation sees it: where it is, and whether this visitor sees it. */
export interface PlacedSiteSpace {
  row: PublishedSiteSpaceRow;
  section: PublishedSectionRow | null;
  /** Published base URL (path) of the site space, with a trailing slash. */
  base: string;
  title: string;
}

/** The base path of a site as reached: /sites/<key>/ (under PUBLIC_URL's path) or /. */
export function siteBase(deps: Deps, mount: Mount): string {
  if (mount.kind === 'host') return '/';
  const prefix = new URL(deps.config.publicUrl).pathname.replace(/\/+$/, '');
  return `${prefix}/sites/${encodeURIComponent(mount.key)}/`;
}

/** Scheme and host of a site as reached (for canonical URLs, sitemaps, social cards). */
export function siteOrigin(deps: Deps, mount: Mount): string {
  const publicUrl = new URL(deps.config.publicUrl);
  return mount.kind === 'host' ? `${publicUrl.protocol}//${mount.hostname}` : publicUrl.origin;
}

export interface Structure {
  base: string;
  hasSections: boolean;
  /** Sections this visitor sees, in order. */
  sections: PublishedSectionRow[];
  /** The top-level group of each grouped section (its menu in the header). */
  topGroupOf: Map<string, PublishedGroupRow>;
  /** The section whose path may be omitted (the site's default, else the first). */
  defaultSectionId: string | null;
  /** Site spaces this visitor sees, placed, in order. */
  siteSpaces: PlacedSiteSpace[];
  /** Default site space id of each section ('' for the site root). */
  defaultSiteSpaceOf: Map<string, string>;
  /** Identifies the link layout: part of the rendered-HTML cache key. */
  layoutKey: string;
}

export async function loadStructure(deps: Deps, site: PublishedSiteRow, base: string, claims: Claims): Promise<Structure> {
  const [allSections, allSiteSpaces] = await Promise.all([
    publishedRepository.sections(deps.db, site.id),
    publishedRepository.siteSpaces(deps.db, site.id),
  ]);
  // Groups only order sections inside them: a site without grouped sections needs no read.
  const groups = allSections.some((s) => s.section_group_id) ? await publishedRepository.groups(deps.db, site.id) : [];
  // The API's model (order, defaults): canonical, the same for every visitor.
  const model = siteStructure({
    defaultSectionId: site.default_site_section_id,
    defaultRootSiteSpaceId: site.default_site_space_id,
    groups,
    sections: allSections,
    siteSpaces: allSiteSpaces,
  });
  const defaultSection = model.defaultSection ?? null;
  const defaultSiteSpaceOf = new Map<string, string>();
  for (const s of model.sections) if (s.defaultSiteSpace) defaultSiteSpaceOf.set(s.row.id, s.defaultSiteSpace.id);
  if (model.defaultRootSiteSpace) defaultSiteSpaceOf.set('', model.defaultRootSiteSpace.id);

  // What this visitor sees: sections and site spaces whose condition holds.
  const sections = model.sections.filter((s) => visibleTo(s.row.condition, claims));
  const topGroupOf = new Map<string, PublishedGroupRow>();
  for (const s of sections) if (s.groups.length > 0) topGroupOf.set(s.row.id, s.groups[0]);
  const seen = new Set(sections.map((s) => s.row.id));
  const siteSpaces: PlacedSiteSpace[] = [];
  for (const { row, section, isDefault } of model.placed) {
    if (section && !seen.has(section.id)) continue;
    if (!visibleTo(row.condition, claims)) continue;
    let spaceBase = base;
    if (section && section.id !== defaultSection?.id) spaceBase += `${encodeURIComponent(section.path)}/`;
    if (!isDefault) spaceBase += `${encodeURIComponent(row.path)}/`;
    siteSpaces.push({ row, section, base: spaceBase, title: row.title || row.space_title });
  }
  const layoutKey = siteSpaces.map((s) => `${s.row.space_id}=${s.base}`).join('\n');
  return {
    base,
    hasSections: model.hasSections,
    sections: sections.map((s) => s.row),
    topGroupOf,
    defaultSectionId: defaultSection?.id ?? null,
    siteSpaces,
    defaultSiteSpaceOf,
    layoutKey,
  };
}

/** One way of reading a URL path: the site space it names and the page path left. */
export interface PathReading {
  current: PlacedSiteSpace;
  pagePath: string;
}

/**
 * `<section path>/<site space path>/<page path>`: the section's path may be left out for
 * the default section, the site space's for its section's default; a section or site
 * space the visitor does not see does not match (its path is read as a page path).
 *
 * A first segment can be both a prefix and a page's first slug (a space "Kites" whose
 * site space path is `kites` holds a page `kites`), so every reading is returned, in the
 * order the reader tries them; it serves the first whose page exists, else `canonical`
 * (rule 5's: each prefix stripped where it names something; null when what it names shows
 * nothing), where redirects and 404s are looked up. Order:
 * 1. a prefix that may be left out (the default section's or site space's) read as the
 *    first slug of a page path in that same default: the page wins, the address stays
 *    the space's for every path its pages do not take;
 * 2. the canonical reading;
 * 3. a prefix that may not be left out (another section or site space) read as a page
 *    path of the default: that section's or space's address stays its own, only what it
 *    does not hold falls through to the default's pages.
 * A path ending in `/` that names a section or site space and nothing more (its API
 * `urls.published`, `<base>kites/`) is read as that prefix first: its landing page, never
 * a page of the same slug (docs/decisions/published-sites.md rule 5).
 */
export function resolvePath(structure: Structure, path: string): { readings: PathReading[]; canonical: PathReading | null } {
  const segments = path.split('/').filter((s) => s !== '');
  const ranked: Array<{ reading: PathReading; rank: number }> = [];
  let canonical: PathReading | null = null;
  for (const section of sectionReadings(structure, segments)) {
    const candidates = structure.siteSpaces.filter((s) => (s.row.section_id ?? '') === section.value);
    if (candidates.length === 0) continue;
    const named = section.rest.length > 0 ? candidates.find((s) => s.row.path === section.rest[0]) : undefined;
    const preferred = candidates.find((s) => s.row.id === structure.defaultSiteSpaceOf.get(section.value)) ?? candidates[0];
    for (const space of prefixReadings(section.rest, named, preferred)) {
      const reading = { current: space.value, pagePath: space.rest.join('/') };
      if (section.kind === 'read' && space.kind === 'read') canonical = reading;
      ranked.push({ reading, rank: rankOf(section.kind, space.kind) });
    }
  }
  ranked.sort((a, b) => a.rank - b.rank);
  const readings = ranked.map((r) => r.reading);
  const named = canonical && path.endsWith('/') && canonical.pagePath === '' ? readings.indexOf(canonical) : -1;
  if (named > 0) readings.unshift(...readings.splice(named, 1));
  return { readings, canonical };
}

/**
 * How a level read its first segment: `read` as rule 5 does (stripped when it names
 * something, else nothing to strip); `page-over-default`: kept as a page slug though it
 * names the default; `page-over-other`: kept as a page slug though it names another one.
 */
type PrefixKind = 'read' | 'page-over-default' | 'page-over-other';

function rankOf(section: PrefixKind, space: PrefixKind): number {
  if (section === 'page-over-other' || space === 'page-over-other') return 3;
  // The section's path kept, then taken by the site space level as a site space path:
  // a prefix either way, never a page path.
  if (section === 'page-over-default' && space === 'read') return 3;
  return section === 'page-over-default' || space === 'page-over-default' ? 1 : 2;
}

/** The section readings of a path: the site root ('') on a site without sections. */
function sectionReadings(structure: Structure, segments: string[]): Array<PrefixReading<string>> {
  if (!structure.hasSections) return [{ value: '', rest: segments, kind: 'read' }];
  const named = segments.length > 0 ? structure.sections.find((s) => s.path === segments[0]) : undefined;
  const fallback = structure.sections.find((s) => s.id === structure.defaultSectionId && hasSpaces(structure, s.id)) ?? structure.sections.find((s) => hasSpaces(structure, s.id));
  return prefixReadings(segments, named?.id, fallback?.id);
}

interface PrefixReading<T> {
  value: T;
  rest: string[];
  kind: PrefixKind;
}

/** One level's readings: `named` (what the first segment names) with it stripped; `fallback` (what applies with no prefix) with every segment kept. */
function prefixReadings<T>(segments: string[], named: T | undefined, fallback: T | undefined): Array<PrefixReading<T>> {
  const readings: Array<PrefixReading<T>> = [];
  if (named !== undefined) readings.push({ value: named, rest: segments.slice(1), kind: 'read' });
  if (fallback !== undefined) {
    const kind = named === undefined ? 'read' : named === fallback ? 'page-over-default' : 'page-over-other';
    readings.push({ value: fallback, rest: segments, kind });
  }
  return readings;
}

function hasSpaces(structure: Structure, sectionId: string): boolean {
  return structure.siteSpaces.some((s) => s.row.section_id === sectionId);
}
