import type { Context } from '../../context.ts';
import type { Page, PageRequest } from '../../lib/pagination/index.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { conditionValue } from './site-conditions.ts';
import { pageOf, pathFrom, SiteStructure, uniquePath, type PlacedSiteSpace } from './site-structure.ts';
import type { StructureItem } from './sites.model.ts';
import { loadSite, loadSiteToManage } from '../../access/index.ts';
import type { SiteRow } from './sites.repository.ts';
import { siteSpacesRepository, type SiteSpaceRow } from './site-spaces.repository.ts';
import type { AddSiteSpaceInput, MoveSiteSpaceInput, UpdateSiteSpaceInput } from './site-spaces.schemas.ts';

/* Site spaces: a space shown on a site, in a section or at its root. Changes go through the site's SiteStructure. */

/** The site space as the structure shows it, after a change (site-sections.presenter.ts makes the wire object). */
function placed(site: SiteRow, structure: SiteStructure, siteSpaceId: string): StructureItem<PlacedSiteSpace> {
  const item = structure.arrange(site).siteSpaces.find((s) => s.id === siteSpaceId);
  if (!item) throw notFound('Site space');
  return { site, item };
}

/** A site space whose space is live; 404 otherwise. */
function findRow(structure: SiteStructure, siteSpaceId: string): SiteSpaceRow {
  const row = structure.liveSiteSpace(siteSpaceId);
  if (!row) throw notFound('Site space');
  return row;
}

/** GET {SITE}/site-spaces: in structure order; `default` keeps only (or leaves out) the defaults. */
export async function listSiteSpaces(
  ctx: Context,
  organizationId: string,
  siteId: string,
  query: { shareKey?: string; default?: boolean },
  page: PageRequest,
): Promise<Page<PlacedSiteSpace> & { site: SiteRow }> {
  const { site } = await loadSite(ctx, organizationId, siteId, { visitor: true, shareKey: query.shareKey });
  let items = (await SiteStructure.load(ctx, siteId)).arrange(site).siteSpaces;
  if (query.default !== undefined) items = items.filter((s) => s.isDefault === query.default);
  return { ...pageOf(items, page), site };
}

/**
 * POST {SITE}/site-spaces: into `sectionId`, else the default section, else the site
 * root (a site without sections). The path comes from the title, suffixed when taken.
 */
export async function addSiteSpace(ctx: Context, organizationId: string, siteId: string, input: AddSiteSpaceInput) {
  return ctx.transaction(async (tctx) => {
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    if (input.spaceId === null) throw badRequest('body/spaceId: creating a new space here is not supported; create the space, then add it');
    const space = await siteSpacesRepository.findLiveSpace(tctx.db, organizationId, input.spaceId);
    if (!space) throw badRequest(`body/spaceId: "${input.spaceId}" is not a space of this organization`);
    const structure = await SiteStructure.load(tctx, siteId);
    let sectionId: string | null = null;
    if (input.sectionId !== undefined) {
      if (!structure.section(input.sectionId)) throw badRequest(`body/sectionId: section "${input.sectionId}" is not in this site`);
      sectionId = input.sectionId;
    } else sectionId = structure.defaultSection(site)?.id ?? null;
    const title = input.title?.trim() || null;
    const row: SiteSpaceRow = {
      id: newId(),
      site_id: siteId,
      section_id: sectionId,
      space_id: space.id,
      path: uniquePath(pathFrom(title ?? space.title), structure.siteSpacePaths(sectionId)),
      title,
      condition: null,
      customization: '{}',
      position: structure.containerSiteSpaces(sectionId).length,
      created_at: isoNow(ctx.clock),
    };
    await structure.addSiteSpace(tctx, row);
    await structure.saveChange(tctx.db, isoNow(ctx.clock));
    return placed(site, structure, row.id);
  });
}

/** PATCH {SITE}/site-spaces/{id}: path (409 when taken in its section), condition, space. */
export async function updateSiteSpace(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string, input: UpdateSiteSpaceInput) {
  return ctx.transaction(async (tctx) => {
    const { site, structure } = await SiteStructure.loadToManage(tctx, organizationId, siteId);
    const row = findRow(structure, siteSpaceId);
    const changes: Parameters<SiteStructure['updateSiteSpace']>[2] = {};
    if (input.path !== undefined && input.path !== row.path) {
      if (structure.siteSpacePaths(row.section_id, row.id).includes(input.path)) {
        throw conflict(`body/path: another site space of this ${row.section_id ? 'section' : 'site'} has the path "${input.path}"`);
      }
      changes.path = input.path;
    }
    if (input.condition !== undefined) changes.condition = conditionValue(site, input.condition, 'condition');
    if (input.spaceId !== undefined && input.spaceId !== row.space_id) {
      const space = await siteSpacesRepository.findLiveSpace(tctx.db, organizationId, input.spaceId);
      if (!space) throw badRequest(`body/spaceId: "${input.spaceId}" is not a space of this organization`);
      changes.space_id = space.id;
    }
    if (Object.keys(changes).length > 0) {
      await structure.updateSiteSpace(tctx, siteSpaceId, changes);
      await structure.saveChange(tctx.db, isoNow(ctx.clock));
    }
    return placed(site, structure, siteSpaceId);
  });
}

/** DELETE {SITE}/site-spaces/{id}: 204 also when absent. */
export async function deleteSiteSpace(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string) {
  await ctx.transaction(async (tctx) => {
    const { site, structure } = await SiteStructure.loadToManage(tctx, organizationId, siteId);
    // An absent site space changes nothing: the site keeps its updatedAt.
    if (!structure.removeSiteSpace(siteSpaceId)) return;
    await structure.saveChange(tctx.db, isoNow(ctx.clock));
    if (site.default_site_space_id === siteSpaceId) await siteSpacesRepository.clearSiteDefault(tctx.db, siteId);
  });
}

/** POST {SITE}/site-spaces/{id}/move (deprecated): next to another site space, or to the end of its section. */
export async function moveSiteSpace(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string, input: MoveSiteSpaceInput) {
  return ctx.transaction(async (tctx) => {
    const { site, structure } = await SiteStructure.loadToManage(tctx, organizationId, siteId);
    findRow(structure, siteSpaceId);
    const position = input.position && { before: input.position.before?.siteSpace, after: input.position.after?.siteSpace };
    structure.moveSiteSpaceNextTo(siteSpaceId, position);
    await structure.saveChange(tctx.db, isoNow(ctx.clock));
    return placed(site, structure, siteSpaceId);
  });
}
