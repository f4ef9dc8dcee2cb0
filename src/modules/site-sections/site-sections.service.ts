import type { Context } from '../../context.ts';
import type { PageRequest } from '../../db/keyset.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { SiteRow } from '../sites/sites.repository.ts';
import {
  conditionValue,
  loadSite,
  loadSiteToManage,
  loadStructure,
  moveIntoGroup,
  moveLevelItem,
  pageOf,
  pathFrom,
  presentData,
  touchSite,
  uniquePath,
  type StructureData,
} from '../sites/sites.service.ts';
import { siteSpacesRepository } from '../site-spaces/site-spaces.repository.ts';
import { containerSiteSpaces, levelItems } from './site-sections.presenter.ts';
import { siteSectionsRepository, type GroupRow, type SectionRow } from './site-sections.repository.ts';
import type {
  AddGroupInput,
  AddSectionInput,
  MoveGroupInput,
  MoveSectionInput,
  UpdateGroupInput,
  UpdateSectionInput,
} from './site-sections.schemas.ts';

function presentedSection(ctx: Pick<Context, 'config'>, site: SiteRow, data: StructureData, id: string) {
  const wire = presentData(ctx, site, data).sections.find((s) => s.id === id);
  if (!wire) throw notFound('Section');
  return wire;
}

function presentedGroup(ctx: Pick<Context, 'config'>, site: SiteRow, data: StructureData, id: string) {
  const wire = presentData(ctx, site, data).groups.find((g) => g.id === id);
  if (!wire) throw notFound('Section group');
  return wire;
}

function findSection(data: StructureData, id: string): SectionRow {
  const row = data.sections.find((s) => s.id === id);
  if (!row) throw notFound('Section');
  return row;
}

function findGroup(data: StructureData, id: string): GroupRow {
  const row = data.groups.find((g) => g.id === id);
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
export async function listSections(ctx: Context, organizationId: string, siteId: string, shareKey: string | undefined, page: PageRequest) {
  const { site } = await loadSite(ctx, organizationId, siteId, { visitor: true, shareKey });
  return pageOf(presentData(ctx, site, await loadStructure(ctx, siteId)).sections, page);
}

/**
 * POST {SITE}/sections: a section holding one site space for `spaceId`, at the end of
 * the site root or of `siteSectionGroupId`. The first section of a site whose site
 * spaces sit at the root turns sections on: those site spaces move into a first section
 * (titled and pathed after the default one), then the new section follows.
 */
export async function addSection(ctx: Context, organizationId: string, siteId: string, input: AddSectionInput) {
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    if (input.spaceId === null) throw badRequest('body/spaceId: creating a new space here is not supported; create the space, then add it');
    const space = await siteSpacesRepository.findLiveSpace(trx, organizationId, input.spaceId);
    if (!space) throw badRequest(`body/spaceId: "${input.spaceId}" is not a space of this organization`);
    let data = await loadStructure(tctx, siteId);
    const group = input.siteSectionGroupId ?? null;
    if (group !== null && !data.groups.some((g) => g.id === group)) throw badRequest(`body/siteSectionGroupId: section group "${group}" is not in this site`);
    const now = isoNow(ctx.clock);

    const root = containerSiteSpaces(data.siteSpaces, null);
    if (data.sections.length === 0 && root.length > 0) {
      const first = root.find((s) => s.id === site.default_site_space_id) ?? root[0];
      const firstTitle = first.title ?? data.spaces.get(first.space_id)?.title ?? site.title;
      const id = newId();
      await siteSectionsRepository.insertSection(trx, {
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
      await siteSpacesRepository.moveRootInto(trx, siteId, id);
      data = await loadStructure(tctx, siteId);
    }

    const title = sectionTitle(input.title ?? space.title);
    const section: SectionRow = {
      id: newId(),
      site_id: siteId,
      title,
      description: null,
      icon: input.icon ?? null,
      path: uniquePath(pathFrom(title), data.sections.map((s) => s.path)),
      condition: null,
      section_group_id: group,
      position: levelItems(data.groups, data.sections, group).length,
      created_at: now,
      default_site_space_id: null,
    };
    await siteSectionsRepository.insertSection(trx, section);
    await siteSpacesRepository.insert(trx, {
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
    await touchSite(ctx, trx, siteId);
    return presentedSection(ctx, site, await loadStructure(tctx, siteId), section.id);
  });
}

/** PATCH {SITE}/sections/{id}: title, path (409 when another section has it), default site space, condition, icon, description, group. */
export async function updateSection(ctx: Context, organizationId: string, siteId: string, sectionId: string, input: UpdateSectionInput) {
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    const data = await loadStructure(tctx, siteId);
    const row = findSection(data, sectionId);
    const changes: Partial<SectionRow> = {};
    if (input.title !== undefined) changes.title = input.title.trim().length >= 2 ? input.title.trim() : input.title;
    if (input.path !== undefined && input.path !== row.path) {
      if (data.sections.some((s) => s.id !== sectionId && s.path === input.path)) {
        throw conflict(`body/path: another section of this site has the path "${input.path}"`);
      }
      changes.path = input.path;
    }
    if (input.defaultSiteSpace !== undefined) {
      if (!data.siteSpaces.some((s) => s.id === input.defaultSiteSpace && s.section_id === sectionId)) {
        throw badRequest(`body/defaultSiteSpace: site space "${input.defaultSiteSpace}" is not in this section`);
      }
      changes.default_site_space_id = input.defaultSiteSpace;
    }
    if (input.condition !== undefined) changes.condition = conditionValue(site, input.condition, 'condition');
    if (input.icon !== undefined) changes.icon = input.icon;
    if (input.description !== undefined) changes.description = input.description;
    if (Object.keys(changes).length > 0) {
      await siteSectionsRepository.updateSection(trx, siteId, sectionId, changes);
      Object.assign(row, changes);
    }
    if (input.siteSectionGroupId !== undefined && input.siteSectionGroupId !== row.section_group_id) {
      await moveIntoGroup(trx, siteId, data, { kind: 'section', id: sectionId }, input.siteSectionGroupId);
    }
    await touchSite(ctx, trx, siteId);
    return presentedSection(ctx, site, data, sectionId);
  });
}

/** DELETE {SITE}/sections/{id}: the section and its site spaces; 204 also when absent. */
export async function deleteSection(ctx: Context, organizationId: string, siteId: string, sectionId: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const { site } = await loadSiteToManage({ ...ctx, db: trx }, organizationId, siteId);
    await siteSpacesRepository.deleteInSection(trx, siteId, sectionId);
    // An absent section (no site spaces either) changes nothing: the site keeps its updatedAt.
    if (!(await siteSectionsRepository.deleteSection(trx, siteId, sectionId))) return;
    if (site.default_site_section_id === sectionId) await siteSectionsRepository.clearSiteDefaultSection(trx, siteId);
    await touchSite(ctx, trx, siteId);
  });
}

/** POST {SITE}/sections/{id}/move (deprecated; sortSiteStructure replaces it). */
export async function moveSection(ctx: Context, organizationId: string, siteId: string, sectionId: string, input: MoveSectionInput) {
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    const data = await loadStructure(tctx, siteId);
    findSection(data, sectionId);
    const pointer = (p?: { siteSection: string }) => (p ? { kind: 'section' as const, id: p.siteSection } : undefined);
    await moveLevelItem(trx, siteId, data, { kind: 'section', id: sectionId }, input.position && { before: pointer(input.position.before), after: pointer(input.position.after) });
    await touchSite(ctx, trx, siteId);
    return presentedSection(ctx, site, data, sectionId);
  });
}

// ---------------------------------------------------------------- section groups

/** GET {SITE}/section-groups: in structure order. */
export async function listGroups(ctx: Context, organizationId: string, siteId: string, page: PageRequest) {
  const { site } = await loadSite(ctx, organizationId, siteId);
  return pageOf(presentData(ctx, site, await loadStructure(ctx, siteId)).groups, page);
}

/** POST {SITE}/section-groups: at the end of `parent` (or the site root), holding `sections` in that order. */
export async function addGroup(ctx: Context, organizationId: string, siteId: string, input: AddGroupInput) {
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    const data = await loadStructure(tctx, siteId);
    const parent = input.parent ?? null;
    if (parent !== null && !data.groups.some((g) => g.id === parent)) throw badRequest(`body/parent: section group "${parent}" is not in this site`);
    const sections = [...new Set(input.sections ?? [])];
    const unknown = sections.filter((id) => !data.sections.some((s) => s.id === id));
    if (unknown.length > 0) throw badRequest(`body/sections: ${unknown.map((id) => `"${id}"`).join(', ')} ${unknown.length === 1 ? 'is not a section' : 'are not sections'} of this site`);
    const row: GroupRow = {
      id: newId(),
      site_id: siteId,
      title: input.title.trim() || input.title,
      icon: input.icon ?? null,
      parent_group_id: parent,
      position: levelItems(data.groups, data.sections, parent).length,
      created_at: isoNow(ctx.clock),
    };
    await siteSectionsRepository.insertGroup(trx, row);
    data.groups.push(row);
    for (const id of sections) await moveIntoGroup(trx, siteId, data, { kind: 'section', id }, row.id);
    await touchSite(ctx, trx, siteId);
    return presentedGroup(ctx, site, data, row.id);
  });
}

/** PATCH {SITE}/section-groups/{id}: title, icon. */
export async function updateGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, input: UpdateGroupInput) {
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    const data = await loadStructure(tctx, siteId);
    const row = findGroup(data, groupId);
    const changes: Partial<GroupRow> = {};
    if (input.title !== undefined) changes.title = input.title.trim() || input.title;
    if (input.icon !== undefined) changes.icon = input.icon;
    if (Object.keys(changes).length > 0) {
      await siteSectionsRepository.updateGroup(trx, siteId, groupId, changes);
      Object.assign(row, changes);
      await touchSite(ctx, trx, siteId);
    }
    return presentedGroup(ctx, site, data, groupId);
  });
}

/** DELETE {SITE}/section-groups/{id}: what it holds moves up to its place; 204 also when absent. */
export async function deleteGroup(ctx: Context, organizationId: string, siteId: string, groupId: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    await loadSiteToManage(tctx, organizationId, siteId);
    const data = await loadStructure(tctx, siteId);
    const group = data.groups.find((g) => g.id === groupId);
    if (!group) return;
    const children = levelItems(data.groups, data.sections, groupId);
    // Each child takes the group's place, in order, in the group's parent level.
    let after: { kind: 'section' | 'group'; id: string } = { kind: 'group', id: groupId };
    for (const child of children) {
      const item = { kind: child.kind, id: child.row.id };
      await moveLevelItem(trx, siteId, data, item, { after });
      after = item;
    }
    await siteSectionsRepository.deleteGroup(trx, siteId, groupId);
    await touchSite(ctx, trx, siteId);
  });
}

/** POST {SITE}/section-groups/{id}/sections: puts a section at the end of the group. */
export async function addSectionToGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, sectionId: string) {
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    const data = await loadStructure(tctx, siteId);
    findGroup(data, groupId);
    if (!data.sections.some((s) => s.id === sectionId)) throw badRequest(`body/sectionId: section "${sectionId}" is not in this site`);
    await moveIntoGroup(trx, siteId, data, { kind: 'section', id: sectionId }, groupId);
    await touchSite(ctx, trx, siteId);
    return presentedGroup(ctx, site, data, groupId);
  });
}

/** DELETE {SITE}/section-groups/{id}/sections/{sectionId}: the section goes right after the group; 204 also when it was not in it. */
export async function removeSectionFromGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, sectionId: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    await loadSiteToManage(tctx, organizationId, siteId);
    const data = await loadStructure(tctx, siteId);
    const section = data.sections.find((s) => s.id === sectionId);
    if (!section || section.section_group_id !== groupId) return;
    await moveLevelItem(trx, siteId, data, { kind: 'section', id: sectionId }, { after: { kind: 'group', id: groupId } });
    await touchSite(ctx, trx, siteId);
  });
}

/** POST {SITE}/section-groups/{id}/move (deprecated): next to a section or group; 404 unknown group, 400 bad position. */
export async function moveGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, input: MoveGroupInput) {
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    const data = await loadStructure(tctx, siteId);
    findGroup(data, groupId);
    const pointer = (p?: { type: 'site-section' | 'site-section-group'; id: string }) =>
      p ? { kind: p.type === 'site-section' ? ('section' as const) : ('group' as const), id: p.id } : undefined;
    await moveLevelItem(trx, siteId, data, { kind: 'group', id: groupId }, input.position && { before: pointer(input.position.before), after: pointer(input.position.after) });
    await touchSite(ctx, trx, siteId);
    return presentedGroup(ctx, site, data, groupId);
  });
}
