/*
 * A site's structure from its rows: the one model the management API (GET {SITE}/published,
 * /structure, sections, site spaces) and the published HTML site both read, so they cannot
 * disagree on order or defaults (issue 20). Pure: rows in, ordered structure out.
 *
 * Order: at each level (the site root or a group) sections and groups share one sequence
 * of positions; site spaces are ordered within their section (or the root). Ties break by
 * id, so the order never depends on how the database returned the rows.
 * Defaults: the stored default when it names an item of the container, else the first.
 */

export interface GroupLike {
  id: string;
  parent_group_id: string | null;
  position: number;
}

export interface SectionLike {
  id: string;
  section_group_id: string | null;
  position: number;
  default_site_space_id: string | null;
}

export interface SiteSpaceLike {
  id: string;
  section_id: string | null;
  position: number;
}

export type LevelItem<G, S> = { kind: 'section'; row: S } | { kind: 'group'; row: G };

const byPosition = (a: { position: number; id: string }, b: { position: number; id: string }) =>
  Number(a.position) - Number(b.position) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Sections and groups directly under a group (null: the site root), in order. */
export function levelItems<G extends GroupLike, S extends SectionLike>(groups: G[], sections: S[], parentGroupId: string | null): LevelItem<G, S>[] {
  const items: LevelItem<G, S>[] = [
    ...groups.filter((g) => g.parent_group_id === parentGroupId).map((row) => ({ kind: 'group' as const, row })),
    ...sections.filter((s) => s.section_group_id === parentGroupId).map((row) => ({ kind: 'section' as const, row })),
  ];
  return items.sort((a, b) => byPosition(a.row, b.row));
}

/** Groups nest at most this deep (deeper ones are cycles or garbage, and are not walked). */
const MAX_DEPTH = 32;

/** Sections in the order visitors meet them (depth-first through groups). */
export function orderedSections<G extends GroupLike, S extends SectionLike>(groups: G[], sections: S[]): S[] {
  const out: S[] = [];
  const walk = (parent: string | null, depth: number) => {
    if (depth > MAX_DEPTH) return;
    for (const item of levelItems(groups, sections, parent)) {
      if (item.kind === 'section') out.push(item.row);
      else walk(item.row.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** Site spaces of a section (null: the site root), in order. */
export function containerSiteSpaces<T extends SiteSpaceLike>(siteSpaces: T[], sectionId: string | null): T[] {
  return siteSpaces.filter((s) => s.section_id === sectionId).sort(byPosition);
}

/** The default of a container: the stored one when it is there, else the first. */
export function defaultOf<T extends { id: string }>(items: T[], stored: string | null): T | undefined {
  return items.find((i) => i.id === stored) ?? items[0];
}

export interface StructureInput<G extends GroupLike, S extends SectionLike, SS extends SiteSpaceLike> {
  defaultSectionId: string | null;
  defaultRootSiteSpaceId: string | null;
  groups: G[];
  sections: S[];
  /** Site spaces that are served (those of deleted spaces left out by the caller). */
  siteSpaces: SS[];
}

export interface PlacedRow<S, SS> {
  row: SS;
  /** Its section (null at the site root). */
  section: S | null;
  /** The default of its container (its path may be left out of URLs). */
  isDefault: boolean;
}

export interface SiteStructure<G, S, SS> {
  /** A site with sections serves only site spaces in sections; without, those at the root. */
  hasSections: boolean;
  /** The site's default section (undefined without sections). */
  defaultSection: S | undefined;
  /** Sections in visiting order, each with its site spaces in order and its default. */
  sections: Array<{ row: S; groups: G[]; siteSpaces: SS[]; defaultSiteSpace: SS | undefined }>;
  /** Root site spaces in order and the root default (served only without sections). */
  rootSiteSpaces: SS[];
  defaultRootSiteSpace: SS | undefined;
  /** Every served site space, in visiting order (section order, then within the section). */
  placed: PlacedRow<S, SS>[];
  /** The level tree (sections and groups), for presenting it. */
  level(parentGroupId: string | null): LevelItem<G, S>[];
}

/** The ordered structure of a site, with its defaults. */
export function siteStructure<G extends GroupLike, S extends SectionLike, SS extends SiteSpaceLike>(input: StructureInput<G, S, SS>): SiteStructure<G, S, SS> {
  const groupById = new Map(input.groups.map((g) => [g.id, g]));
  const ancestors = (groupId: string | null): G[] => {
    const chain: G[] = [];
    for (let g = groupId ? groupById.get(groupId) : undefined; g && chain.length <= MAX_DEPTH; g = g.parent_group_id ? groupById.get(g.parent_group_id) : undefined) chain.unshift(g);
    return chain;
  };
  const ordered = orderedSections(input.groups, input.sections);
  const sections = ordered.map((row) => {
    const siteSpaces = containerSiteSpaces(input.siteSpaces, row.id);
    return { row, groups: ancestors(row.section_group_id), siteSpaces, defaultSiteSpace: defaultOf(siteSpaces, row.default_site_space_id) };
  });
  const rootSiteSpaces = containerSiteSpaces(input.siteSpaces, null);
  const defaultRootSiteSpace = defaultOf(rootSiteSpaces, input.defaultRootSiteSpaceId);
  const hasSections = input.sections.length > 0;
  const placed: PlacedRow<S, SS>[] = [];
  if (hasSections) {
    for (const s of sections) for (const row of s.siteSpaces) placed.push({ row, section: s.row, isDefault: row.id === s.defaultSiteSpace?.id });
  } else {
    for (const row of rootSiteSpaces) placed.push({ row, section: null, isDefault: row.id === defaultRootSiteSpace?.id });
  }
  return {
    hasSections,
    defaultSection: defaultOf(ordered, input.defaultSectionId),
    sections,
    rootSiteSpaces,
    defaultRootSiteSpace,
    placed,
    level: (parent) => levelItems(input.groups, input.sections, parent),
  };
}
