import type { SpaceWire } from '../spaces/spaces.schemas.ts';
import { sectionUrl } from '../sites/sites.presenter.ts';
import type { SiteSpaceRow } from '../site-spaces/site-spaces.repository.ts';
import { presentSiteSpace } from '../site-spaces/site-spaces.presenter.ts';
import type { SiteSpaceWire } from '../site-spaces/site-spaces.schemas.ts';
import type { GroupRow, SectionRow } from './site-sections.repository.ts';
import type { SiteSectionGroupWire, SiteSectionWire, SiteStructureWire } from './site-sections.schemas.ts';

/*
 * The site structure, built from its rows (pure). Order: at each level (the site root or
 * a group) sections and groups share one sequence of positions; site spaces are ordered
 * within their section (or the root). Ties break by id, so the order is always stable.
 */

export type LevelItem = { kind: 'section'; row: SectionRow } | { kind: 'group'; row: GroupRow };

const byPosition = (a: { position: number; id: string }, b: { position: number; id: string }) =>
  Number(a.position) - Number(b.position) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Sections and groups directly under a group (null: the site root), in order. */
export function levelItems(groups: GroupRow[], sections: SectionRow[], parentGroupId: string | null): LevelItem[] {
  const items: LevelItem[] = [
    ...groups.filter((g) => g.parent_group_id === parentGroupId).map((row) => ({ kind: 'group' as const, row })),
    ...sections.filter((s) => s.section_group_id === parentGroupId).map((row) => ({ kind: 'section' as const, row })),
  ];
  return items.sort((a, b) => byPosition(a.row, b.row));
}

/** Sections in the order visitors meet them (depth-first through groups). */
export function orderedSections(groups: GroupRow[], sections: SectionRow[]): SectionRow[] {
  const out: SectionRow[] = [];
  const walk = (parent: string | null, depth: number) => {
    if (depth > 32) return;
    for (const item of levelItems(groups, sections, parent)) {
      if (item.kind === 'section') out.push(item.row);
      else walk(item.row.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** Site spaces of a section (null: the site root), in order. */
export function containerSiteSpaces<T extends SiteSpaceRow>(siteSpaces: T[], sectionId: string | null): T[] {
  return siteSpaces.filter((s) => s.section_id === sectionId).sort(byPosition);
}

/** The default of a container: the stored one when it is there, else the first. */
export function defaultOf<T extends { id: string }>(items: T[], stored: string | null): T | undefined {
  return items.find((i) => i.id === stored) ?? items[0];
}

export interface StructureRows {
  /** Published URL of the site, or null while unpublished. */
  siteUrl: string | null;
  defaultSectionId: string | null;
  defaultRootSiteSpaceId: string | null;
  groups: GroupRow[];
  sections: SectionRow[];
  /** Site spaces whose space is live, with the space presented. */
  siteSpaces: { row: SiteSpaceRow; space: SpaceWire }[];
}

export interface PresentedStructure {
  structure: SiteStructureWire;
  sections: SiteSectionWire[];
  groups: SiteSectionGroupWire[];
  siteSpaces: SiteSpaceWire[];
}

/** Every structure object of a site, presented, in structure order. */
export function presentStructure(input: StructureRows): PresentedStructure {
  const spaceOf = new Map(input.siteSpaces.map((s) => [s.row.id, s.space]));
  const rows = input.siteSpaces.map((s) => s.row);
  const allSiteSpaces: SiteSpaceWire[] = [];

  const siteSpacesIn = (section: SectionRow | null): SiteSpaceWire[] => {
    const items = containerSiteSpaces(rows, section?.id ?? null);
    const fallback = defaultOf(items, section ? section.default_site_space_id : input.defaultRootSiteSpaceId);
    const wires = items.map((row) =>
      presentSiteSpace(row, spaceOf.get(row.id) as SpaceWire, {
        siteUrl: input.siteUrl,
        section: section ? { id: section.id, path: section.path } : null,
        isDefault: row.id === fallback?.id,
      }),
    );
    allSiteSpaces.push(...wires);
    return wires;
  };

  const ordered = orderedSections(input.groups, input.sections);
  const defaultSection = defaultOf(ordered, input.defaultSectionId);
  const sections: SiteSectionWire[] = [];
  const groups: SiteSectionGroupWire[] = [];

  const presentSection = (row: SectionRow): SiteSectionWire => {
    const wire: SiteSectionWire = {
      object: 'site-section',
      id: row.id,
      title: row.title,
      ...(row.description !== null ? { description: row.description } : {}),
      default: row.id === defaultSection?.id,
      draft: false,
      path: row.path,
      ...(row.condition !== null ? { condition: row.condition } : {}),
      ...(row.section_group_id !== null ? { sectionGroup: row.section_group_id } : {}),
      siteSpaces: siteSpacesIn(row),
      urls: input.siteUrl ? { published: sectionUrl(input.siteUrl, row) } : {},
      ...(row.icon !== null ? { icon: row.icon } : {}),
    };
    sections.push(wire);
    return wire;
  };

  const level = (parent: string | null, depth: number): (SiteSectionWire | SiteSectionGroupWire)[] =>
    depth > 32
      ? []
      : levelItems(input.groups, input.sections, parent).map((item) => {
          if (item.kind === 'section') return presentSection(item.row);
          const group: SiteSectionGroupWire = {
            object: 'site-section-group',
            id: item.row.id,
            title: item.row.title,
            draft: false,
            ...(item.row.parent_group_id !== null ? { sectionGroup: item.row.parent_group_id } : {}),
            ...(item.row.icon !== null ? { icon: item.row.icon } : {}),
            sections: [],
            children: [],
          };
          groups.push(group);
          group.children = level(item.row.id, depth + 1);
          group.sections = group.children.filter((c): c is SiteSectionWire => c.object === 'site-section');
          return group;
        });

  if (input.sections.length > 0) {
    const structure = level(null, 0);
    return { structure: { type: 'sections', structure }, sections, groups, siteSpaces: allSiteSpaces };
  }
  const root = siteSpacesIn(null);
  return { structure: { type: 'siteSpaces', structure: root }, sections, groups, siteSpaces: allSiteSpaces };
}
