import type { Context } from '../../context.ts';
import type { PageRequest } from '../../db/keyset.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { siteSectionsRepository } from '../site-sections/site-sections.repository.ts';
import {
  conditionValue,
  defaultSection,
  loadSite,
  loadSiteToManage,
  loadStructure,
  moveSiteSpaceNextTo,
  pageOf,
  pathFrom,
  presentData,
  putSiteSpace,
  siteSpacePaths,
  touchSite,
  type StructureData,
} from '../sites/sites.service.ts';
import type { SiteRow } from '../sites/sites.repository.ts';
import { siteSpacesRepository, type SiteSpaceRow } from './site-spaces.repository.ts';
import type { AddSiteSpaceInput, MoveSiteSpaceInput, UpdateSiteSpaceInput } from './site-spaces.schemas.ts';
import { uniquePath } from '../sites/sites.service.ts';

/** The presented site space, after a change. */
function presented(ctx: Pick<Context, 'config'>, site: SiteRow, data: StructureData, siteSpaceId: string) {
  const wire = presentData(ctx, site, data).siteSpaces.find((s) => s.id === siteSpaceId);
  if (!wire) throw notFound('Site space');
  return wire;
}

function findRow(data: StructureData, siteSpaceId: string): SiteSpaceRow {
  const row = data.siteSpaces.find((s) => s.id === siteSpaceId);
  if (!row || !data.spaces.has(row.space_id)) throw notFound('Site space');
  return row;
}

/** GET {SITE}/site-spaces: in structure order; `default` keeps only (or leaves out) the defaults. */
export async function listSiteSpaces(ctx: Context, organizationId: string, siteId: string, query: { shareKey?: string; default?: boolean }, page: PageRequest) {
  const { site } = await loadSite(ctx, organizationId, siteId, { visitor: true, shareKey: query.shareKey });
  let items = presentData(ctx, site, await loadStructure(ctx, siteId)).siteSpaces;
  if (query.default !== undefined) items = items.filter((s) => s.default === query.default);
  return pageOf(items, page);
}

/**
 * POST {SITE}/site-spaces: into `sectionId`, else the default section, else the site
 * root (a site without sections). The path comes from the title, suffixed when taken.
 */
export async function addSiteSpace(ctx: Context, organizationId: string, siteId: string, input: AddSiteSpaceInput) {
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    if (input.spaceId === null) throw badRequest('body/spaceId: creating a new space here is not supported; create the space, then add it');
    const space = await siteSpacesRepository.findLiveSpace(trx, organizationId, input.spaceId);
    if (!space) throw badRequest(`body/spaceId: "${input.spaceId}" is not a space of this organization`);
    const data = await loadStructure(tctx, siteId);
    let sectionId: string | null = null;
    if (input.sectionId !== undefined) {
      if (!data.sections.some((s) => s.id === input.sectionId)) throw badRequest(`body/sectionId: section "${input.sectionId}" is not in this site`);
      sectionId = input.sectionId;
    } else sectionId = defaultSection(site, data)?.id ?? null;
    const title = input.title?.trim() || null;
    const row: SiteSpaceRow = {
      id: newId(),
      site_id: siteId,
      section_id: sectionId,
      space_id: space.id,
      path: uniquePath(pathFrom(title ?? space.title), siteSpacePaths(data, sectionId)),
      title,
      condition: null,
      customization: '{}',
      position: data.siteSpaces.filter((s) => s.section_id === sectionId).length,
      created_at: isoNow(ctx.clock),
    };
    await siteSpacesRepository.insert(trx, row);
    data.siteSpaces.push(row);
    await putSiteSpace(trx, siteId, data, row.id, sectionId);
    if (!data.spaces.has(space.id)) data.spaces = (await loadStructure(tctx, siteId)).spaces;
    await touchSite(ctx, trx, siteId);
    return presented(ctx, site, data, row.id);
  });
}

/** PATCH {SITE}/site-spaces/{id}: path (409 when taken in its section), condition, space. */
export async function updateSiteSpace(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string, input: UpdateSiteSpaceInput) {
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    let data = await loadStructure(tctx, siteId);
    const row = findRow(data, siteSpaceId);
    const changes: Partial<SiteSpaceRow> = {};
    if (input.path !== undefined && input.path !== row.path) {
      if (siteSpacePaths(data, row.section_id, row.id).includes(input.path)) {
        throw conflict(`body/path: another site space of this ${row.section_id ? 'section' : 'site'} has the path "${input.path}"`);
      }
      changes.path = input.path;
    }
    if (input.condition !== undefined) changes.condition = conditionValue(site, input.condition, 'condition');
    if (input.spaceId !== undefined && input.spaceId !== row.space_id) {
      const space = await siteSpacesRepository.findLiveSpace(trx, organizationId, input.spaceId);
      if (!space) throw badRequest(`body/spaceId: "${input.spaceId}" is not a space of this organization`);
      changes.space_id = space.id;
    }
    if (Object.keys(changes).length > 0) {
      await siteSpacesRepository.update(trx, siteId, siteSpaceId, changes);
      await touchSite(ctx, trx, siteId);
      if (changes.space_id) data = await loadStructure(tctx, siteId);
      else Object.assign(row, changes);
    }
    return presented(ctx, site, data, siteSpaceId);
  });
}

/** DELETE {SITE}/site-spaces/{id}: 204 also when absent. */
export async function deleteSiteSpace(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const { site } = await loadSiteToManage({ ...ctx, db: trx }, organizationId, siteId);
    // An absent site space changes nothing: the site keeps its updatedAt.
    if (!(await siteSpacesRepository.delete(trx, siteId, siteSpaceId))) return;
    await siteSectionsRepository.clearDefaultSiteSpace(trx, siteId, siteSpaceId);
    if (site.default_site_space_id === siteSpaceId) await siteSpacesRepository.clearSiteDefault(trx, siteId);
    await touchSite(ctx, trx, siteId);
  });
}

/** POST {SITE}/site-spaces/{id}/move (deprecated): next to another site space, or to the end of its section. */
export async function moveSiteSpace(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string, input: MoveSiteSpaceInput) {
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    const data = await loadStructure(tctx, siteId);
    findRow(data, siteSpaceId);
    const position = input.position && { before: input.position.before?.siteSpace, after: input.position.after?.siteSpace };
    await moveSiteSpaceNextTo(trx, siteId, data, siteSpaceId, position);
    await touchSite(ctx, trx, siteId);
    return presented(ctx, site, data, siteSpaceId);
  });
}
