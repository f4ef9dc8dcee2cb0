import type { Context } from '../../context.ts';
import type { Page, PageRequest } from '../../lib/pagination/index.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { conditionValue } from './site-conditions.ts';
import { pageOf, pathFrom, SiteStructure, uniquePath, type PlacedGroup, type PlacedSection } from './site-structure.ts';
import type { StructureItem } from './sites.model.ts';
import { loadSite, loadSiteToManage } from '../../access/index.ts';
import type { SiteRow } from './sites.repository.ts';
import { siteSectionsRepository, type GroupRow, type SectionRow } from './site-sections.repository.ts';
import type {
  AddGroupInput,
  AddSectionInput,
  MoveGroupInput,
  MoveSectionInput,
  UpdateGroupInput,
  UpdateSectionInput,
} from './site-sections.schemas.ts';
import { siteSpacesRepository } from './site-spaces.repository.ts';

/* Sections and section groups of a site. Changes go through the site's SiteStructure. */

/** The section as the structure shows it, after a change (site-sections.presenter.ts makes the wire object). */
function placedSection(site: SiteRow, structure: SiteStructure, id: string): StructureItem<PlacedSection> {
  const item = structure.arrange(site).sections.find((s) => s.id === id);
  if (!item) throw notFound('Section');
  return { site, item };
}

/** The section group as the structure shows it, after a change. */
function placedGroup(site: SiteRow, structure: SiteStructure, id: string): StructureItem<PlacedGroup> {
  const item = structure.arrange(site).groups.find((g) => g.id === id);
  if (!item) throw notFound('Section group');
  return { site, item };
}

function findSection(structure: SiteStructure, id: string): SectionRow {
  const row = structure.section(id);
  if (!row) throw notFound('Section');
  return row;
}

function findGroup(structure: SiteStructure, id: string): GroupRow {
  const row = structure.group(id);
  if (!row) throw notFound('Section group');
  return row;
}

/** A section title: the given one, else the space's (2 to 128 characters). */
function sectionTitle(title: string): string {
  const trimmed = title.trim().slice(0, 128);
  return trimmed.length >= 2 ? trimmed : 'Untitled';
}

// ---------------------------------------------------------------- sections

/** GET {SITE}/sections: in structure order (depth-first through groups). */
export async function listSections(
  ctx: Context,
  organizationId: string,
  siteId: string,
  shareKey: string | undefined,
  page: PageRequest,
): Promise<Page<PlacedSection> & { site: SiteRow }> {
  const { site } = await loadSite(ctx, organizationId, siteId, { visitor: true, shareKey });
  return { ...pageOf((await SiteStructure.load(ctx, siteId)).arrange(site).sections, page), site };
}

/**
 * POST {SITE}/sections: a section holding one site space for `spaceId`, at the end of
 * the site root or of `siteSectionGroupId`. The first section of a site whose site
 * spaces sit at the root turns sections on: those site spaces move into a first section
 * (titled and pathed after the default one), then the new section follows.
 */
export async function addSection(ctx: Context, organizationId: string, siteId: string, input: AddSectionInput) {
  return ctx.transaction(async (tctx) => {
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    if (input.spaceId === null) throw badRequest('body/spaceId: creating a new space here is not supported; create the space, then add it');
    const space = await siteSpacesRepository.findLiveSpace(tctx.db, organizationId, input.spaceId);
    if (!space) throw badRequest(`body/spaceId: "${input.spaceId}" is not a space of this organization`);
    const structure = await SiteStructure.load(tctx, siteId);
    const group = input.siteSectionGroupId ?? null;
    if (group !== null && !structure.group(group)) throw badRequest(`body/siteSectionGroupId: section group "${group}" is not in this site`);
    const now = isoNow(ctx.clock);

    const root = structure.containerSiteSpaces(null);
    if (structure.sections.length === 0 && root.length > 0) {
      const first = root.find((s) => s.id === site.default_site_space_id) ?? root[0];
      const firstTitle = first.title ?? structure.spaces.get(first.space_id)?.space.title ?? site.title;
      const id = newId();
      structure.addSection({
        id,
        site_id: siteId,
        title: sectionTitle(firstTitle),
        description: null,
        icon: null,
        path: first.path,
        condition: null,
        section_group_id: null,
        position: 0,
        created_at: now,
        default_site_space_id: site.default_site_space_id,
      });
      structure.moveRootInto(id);
    }

    const title = sectionTitle(input.title ?? space.title);
    const section: SectionRow = {
      id: newId(),
      site_id: siteId,
      title,
      description: null,
      icon: input.icon ?? null,
      path: uniquePath(pathFrom(title), structure.sections.map((s) => s.path)),
      condition: null,
      section_group_id: group,
      position: structure.levelItems(group).length,
      created_at: now,
      default_site_space_id: null,
    };
    structure.addSection(section);
    await structure.addSiteSpace(tctx, {
      id: newId(),
      site_id: siteId,
      section_id: section.id,
      space_id: space.id,
      path: pathFrom(space.title),
      title: null,
      condition: null,
      customization: '{}',
      position: 0,
      created_at: now,
    });
    await structure.saveChange(tctx.db, isoNow(ctx.clock));
    return placedSection(site, structure, section.id);
  });
}

/** PATCH {SITE}/sections/{id}: title, path (409 when another section has it), default site space, condition, icon, description, group. */
export async function updateSection(ctx: Context, organizationId: string, siteId: string, sectionId: string, input: UpdateSectionInput) {
  return ctx.transaction(async (tctx) => {
    const { site, structure } = await SiteStructure.loadToManage(tctx, organizationId, siteId);
    const row = findSection(structure, sectionId);
    const changes: Parameters<SiteStructure['updateSection']>[1] = {};
    if (input.title !== undefined) changes.title = input.title.trim().length >= 2 ? input.title.trim() : input.title;
    if (input.path !== undefined && input.path !== row.path) {
      if (structure.sections.some((s) => s.id !== sectionId && s.path === input.path)) {
        throw conflict(`body/path: another section of this site has the path "${input.path}"`);
      }
      changes.path = input.path;
    }
    if (input.defaultSiteSpace !== undefined) {
      if (!structure.containerSiteSpaces(sectionId).some((s) => s.id === input.defaultSiteSpace)) {
        throw badRequest(`body/defaultSiteSpace: site space "${input.defaultSiteSpace}" is not in this section`);
      }
      changes.default_site_space_id = input.defaultSiteSpace;
    }
    if (input.condition !== undefined) changes.condition = conditionValue(site, input.condition, 'condition');
    if (input.icon !== undefined) changes.icon = input.icon;
    if (input.description !== undefined) changes.description = input.description;
    structure.updateSection(sectionId, changes);
    if (input.siteSectionGroupId !== undefined && input.siteSectionGroupId !== row.section_group_id) {
      structure.moveIntoGroup({ kind: 'section', id: sectionId }, input.siteSectionGroupId);
    }
    await structure.saveChange(tctx.db, isoNow(ctx.clock));
    return placedSection(site, structure, sectionId);
  });
}

/** DELETE {SITE}/sections/{id}: the section and its site spaces; 204 also when absent. */
export async function deleteSection(ctx: Context, organizationId: string, siteId: string, sectionId: string) {
  await ctx.transaction(async (tctx) => {
    const { site, structure } = await SiteStructure.loadToManage(tctx, organizationId, siteId);
    // An absent section (no site spaces either) changes nothing: the site keeps its updatedAt.
    if (!structure.removeSection(sectionId)) return;
    await structure.saveChange(tctx.db, isoNow(ctx.clock));
    if (site.default_site_section_id === sectionId) await siteSectionsRepository.clearSiteDefaultSection(tctx.db, siteId);
  });
}

/** POST {SITE}/sections/{id}/move (deprecated; sortSiteStructure replaces it). */
export async function moveSection(ctx: Context, organizationId: string, siteId: string, sectionId: string, input: MoveSectionInput) {
  return ctx.transaction(async (tctx) => {
    const { site, structure } = await SiteStructure.loadToManage(tctx, organizationId, siteId);
    findSection(structure, sectionId);
    const pointer = (p?: { siteSection: string }) => (p ? { kind: 'section' as const, id: p.siteSection } : undefined);
    structure.moveLevelItem({ kind: 'section', id: sectionId }, input.position && { before: pointer(input.position.before), after: pointer(input.position.after) });
    await structure.saveChange(tctx.db, isoNow(ctx.clock));
    return placedSection(site, structure, sectionId);
  });
}

// ---------------------------------------------------------------- section groups

/** GET {SITE}/section-groups: in structure order. */
export async function listGroups(ctx: Context, organizationId: string, siteId: string, page: PageRequest): Promise<Page<PlacedGroup> & { site: SiteRow }> {
  const { site } = await loadSite(ctx, organizationId, siteId);
  return { ...pageOf((await SiteStructure.load(ctx, siteId)).arrange(site).groups, page), site };
}

/** POST {SITE}/section-groups: at the end of `parent` (or the site root), holding `sections` in that order. */
export async function addGroup(ctx: Context, organizationId: string, siteId: string, input: AddGroupInput) {
  return ctx.transaction(async (tctx) => {
    const { site, structure } = await SiteStructure.loadToManage(tctx, organizationId, siteId);
    const parent = input.parent ?? null;
    if (parent !== null && !structure.group(parent)) throw badRequest(`body/parent: section group "${parent}" is not in this site`);
    const sections = [...new Set(input.sections ?? [])];
    const unknown = sections.filter((id) => !structure.section(id));
    if (unknown.length > 0) throw badRequest(`body/sections: ${unknown.map((id) => `"${id}"`).join(', ')} ${unknown.length === 1 ? 'is not a section' : 'are not sections'} of this site`);
    const row: GroupRow = {
      id: newId(),
      site_id: siteId,
      title: input.title.trim() || input.title,
      icon: input.icon ?? null,
      parent_group_id: parent,
      position: structure.levelItems(parent).length,
      created_at: isoNow(ctx.clock),
    };
    structure.addGroup(row);
    for (const id of sections) structure.moveIntoGroup({ kind: 'section', id }, row.id);
    await structure.saveChange(tctx.db, isoNow(ctx.clock));
    return placedGroup(site, structure, row.id);
  });
}

/** PATCH {SITE}/section-groups/{id}: title, icon. */
export async function updateGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, input: UpdateGroupInput) {
  return ctx.transaction(async (tctx) => {
    const { site, structure } = await SiteStructure.loadToManage(tctx, organizationId, siteId);
    findGroup(structure, groupId);
    const changes: Partial<GroupRow> = {};
    if (input.title !== undefined) changes.title = input.title.trim() || input.title;
    if (input.icon !== undefined) changes.icon = input.icon;
    if (Object.keys(changes).length > 0) {
      structure.updateGroup(groupId, changes);
      await structure.saveChange(tctx.db, isoNow(ctx.clock));
    }
    return placedGroup(site, structure, groupId);
  });
}

/** DELETE {SITE}/section-groups/{id}: what it holds moves up to its place; 204 also when absent. */
export async function deleteGroup(ctx: Context, organizationId: string, siteId: string, groupId: string) {
  await ctx.transaction(async (tctx) => {
    const { structure } = await SiteStructure.loadToManage(tctx, organizationId, siteId);
    if (!structure.removeGroup(groupId)) return;
    await structure.saveChange(tctx.db, isoNow(ctx.clock));
  });
}

/** POST {SITE}/section-groups/{id}/sections: puts a section at the end of the group. */
export async function addSectionToGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, sectionId: string) {
  return ctx.transaction(async (tctx) => {
    const { site, structure } = await SiteStructure.loadToManage(tctx, organizationId, siteId);
    findGroup(structure, groupId);
    if (!structure.section(sectionId)) throw badRequest(`body/sectionId: section "${sectionId}" is not in this site`);
    structure.moveIntoGroup({ kind: 'section', id: sectionId }, groupId);
    await structure.saveChange(tctx.db, isoNow(ctx.clock));
    return placedGroup(site, structure, groupId);
  });
}

/** DELETE {SITE}/section-groups/{id}/sections/{sectionId}: the section goes right after the group; 204 also when it was not in it. */
export async function removeSectionFromGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, sectionId: string) {
  await ctx.transaction(async (tctx) => {
    const { structure } = await SiteStructure.loadToManage(tctx, organizationId, siteId);
    const section = structure.section(sectionId);
    if (!section || section.section_group_id !== groupId) return;
    structure.moveLevelItem({ kind: 'section', id: sectionId }, { after: { kind: 'group', id: groupId } });
    await structure.saveChange(tctx.db, isoNow(ctx.clock));
  });
}

/** POST {SITE}/section-groups/{id}/move (deprecated): next to a section or group; 404 unknown group, 400 bad position. */
export async function moveGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, input: MoveGroupInput) {
  return ctx.transaction(async (tctx) => {
    const { site, structure } = await SiteStructure.loadToManage(tctx, organizationId, siteId);
    findGroup(structure, groupId);
    const pointer = (p?: { type: 'site-section' | 'site-section-group'; id: string }) =>
      p ? { kind: p.type === 'site-section' ? ('section' as const) : ('group' as const), id: p.id } : undefined;
    structure.moveLevelItem({ kind: 'group', id: groupId }, input.position && { before: pointer(input.position.before), after: pointer(input.position.after) });
    await structure.saveChange(tctx.db, isoNow(ctx.clock));
    return placedGroup(site, structure, groupId);
  });
}
