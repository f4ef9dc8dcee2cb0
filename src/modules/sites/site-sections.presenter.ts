import type { SpaceWire } from '../spaces/spaces.schemas.ts';
import { sectionUrl } from '../../lib/urls.ts';
import type { SiteSpaceRow } from './site-spaces.repository.ts';
import { presentSiteSpace } from './site-spaces.presenter.ts';
import type { SiteSpaceWire } from './site-spaces.schemas.ts';
import type { GroupRow, SectionRow } from './site-sections.repository.ts';
import { siteStructure } from '../../site/structure.ts';
import type { SiteSectionGroupWire, SiteSectionWire, SiteStructureWire } from './site-sections.schemas.ts';

/*
 * The site structure as the API presents it. Order and defaults come from siteStructure
 * (src/site/structure.ts), the model the published site reads too.
 */

export { containerSiteSpaces, defaultOf, levelItems, orderedSections } from '../../site/structure.ts';

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
  const model = siteStructure({
    defaultSectionId: input.defaultSectionId,
    defaultRootSiteSpaceId: input.defaultRootSiteSpaceId,
    groups: input.groups,
    sections: input.sections,
    siteSpaces: input.siteSpaces.map((s) => s.row),
  });
  const allSiteSpaces: SiteSpaceWire[] = [];

  const present = (items: SiteSpaceRow[], section: SectionRow | null, fallback: SiteSpaceRow | undefined): SiteSpaceWire[] => {
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

  const sectionModel = new Map(model.sections.map((s) => [s.row.id, s]));
  const sections: SiteSectionWire[] = [];
  const groups: SiteSectionGroupWire[] = [];

  const presentSection = (row: SectionRow): SiteSectionWire => {
    const placed = sectionModel.get(row.id);
    const wire: SiteSectionWire = {
      object: 'site-section',
      id: row.id,
      title: row.title,
      ...(row.description !== null ? { description: row.description } : {}),
      default: row.id === model.defaultSection?.id,
      draft: false,
      path: row.path,
      ...(row.condition !== null ? { condition: row.condition } : {}),
      ...(row.section_group_id !== null ? { sectionGroup: row.section_group_id } : {}),
      siteSpaces: present(placed?.siteSpaces ?? [], row, placed?.defaultSiteSpace),
      urls: input.siteUrl ? { published: sectionUrl(input.siteUrl, row) } : {},
      ...(row.icon !== null ? { icon: row.icon } : {}),
    };
    sections.push(wire);
    return wire;
  };

  const level = (parent: string | null, depth: number): (SiteSectionWire | SiteSectionGroupWire)[] =>
    depth > 32
      ? []
      : model.level(parent).map((item) => {
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

  if (model.hasSections) {
    const structure = level(null, 0);
    return { structure: { type: 'sections', structure }, sections, groups, siteSpaces: allSiteSpaces };
  }
  const root = present(model.rootSiteSpaces, null, model.defaultRootSiteSpace);
  return { structure: { type: 'siteSpaces', structure: root }, sections, groups, siteSpaces: allSiteSpaces };
}
