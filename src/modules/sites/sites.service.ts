import type { Context } from '../../context.ts';
import type { Page, PageRequest } from '../../lib/pagination/index.ts';
import { badRequest, conflict } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { organizationPolicy } from '../organizations/organizations.policy.ts';
import { loadSite, loadSiteToManage, memberAccess } from '../../access/index.ts';
import { siteSpacesRepository } from './site-spaces.repository.ts';
import { sealVisitorAuthKey } from './site-visitor-key.ts';
import { pathFrom, SiteStructure, uniquePath } from './site-structure.ts';
import { sitePermissions, type SiteAccess } from './sites.policy.ts';
import type { SiteResult } from './sites.model.ts';
import { sitesRepository, type SiteRow, type SiteView } from './sites.repository.ts';
import type { CreateSiteInput, ListSitesFilter, UpdateSiteInput } from './sites.schemas.ts';

/*
 * Docs sites (who sees and manages one is the access layer's loadSite, loadSiteToManage): the site
 * itself (list, create, read, settings, publish, delete). Beside it, by concern:
 * site-structure.ts (the structure model) and site-structure.service.ts, site-conditions.ts,
 * site-adaptive.service.ts, site-customization.ts (the merge rule) and
 * site-customization.service.ts, share-links.service.ts, site-publishing.service.ts
 * (visitor-auth keys, custom hostnames). site-sections and site-spaces build on the model.
 */

/** A site with the caller's permissions on it (sites.presenter.ts makes the wire object). */
export function siteResult(site: SiteView, access: SiteAccess): SiteResult {
  return { site, permissions: sitePermissions(access) };
}


// ---------------------------------------------------------------- sites

/** GET {O}/sites: members with a role; filters in SQL. */
export async function listSites(ctx: Context, organizationId: string, filter: ListSitesFilter, page: PageRequest): Promise<Page<SiteResult>> {
  const access = await memberAccess(ctx, organizationId);
  organizationPolicy.authorize('listTeams', access, 'Guests cannot see the sites of the organization');
  const result = await sitesRepository.list(ctx.db, organizationId, filter, page);
  return {
    ...result,
    items: result.items.map((site) =>
      siteResult(site, { organizationId, userId: access.userId, role: access.role, creator: site.created_by === access.userId, visitor: false }),
    ),
  };
}

/** A site as created: unpublished, no basename or hostname, default customization. */
export function newSiteRow(fields: {
  organizationId: string;
  type: SiteRow['type'];
  title: string;
  visibility: SiteRow['visibility'];
  createdBy: string;
  now: string;
}): SiteRow {
  return {
    id: newId(),
    organization_id: fields.organizationId,
    type: fields.type,
    title: fields.title,
    visibility: fields.visibility,
    published: 0,
    basename: null,
    hostname: null,
    pending_hostname: null,
    proxy: null,
    adaptive_content: 0,
    agents_context: 'included',
    default_site_space_id: null,
    default_site_section_id: null,
    customization: '{}',
    adaptive_schema: null,
    adaptive_schema_updated_at: null,
    visitor_auth_key: newId(48),
    created_by: fields.createdBy,
    created_at: fields.now,
    updated_at: fields.now,
  };
}

/** POST {O}/sites: the create role; the listed spaces become site spaces at the root. */
export async function createSite(ctx: Context, organizationId: string, input: CreateSiteInput): Promise<SiteResult> {
  return ctx.transaction(async (tctx) => {
    const access = await memberAccess(tctx, organizationId);
    organizationPolicy.authorize('createContent', access, 'Creating a site needs the create role in the organization');
    const spaceIds = [...new Set(input.spaces ?? [])];
    const spaces = [];
    const unknown = [];
    for (const id of spaceIds) {
      const space = await siteSpacesRepository.findLiveSpace(tctx.db, organizationId, id);
      if (space) spaces.push(space);
      else unknown.push(id);
    }
    if (unknown.length > 0) throw badRequest(`body/spaces: ${unknown.map((id) => `"${id}"`).join(', ')} ${unknown.length === 1 ? 'is not a space' : 'are not spaces'} of this organization`);
    const now = isoNow(ctx.clock);
    const row = newSiteRow({
      organizationId,
      type: input.type ?? 'basic',
      title: input.title?.trim() || 'Untitled site',
      visibility: input.visibility ?? 'public',
      createdBy: ctx.actor.userId,
      now,
    });
    const id = row.id;
    await sitesRepository.insert(tctx.db, { ...row, visitor_auth_key: await sealVisitorAuthKey(tctx.db, row.visitor_auth_key) });
    const paths: string[] = [];
    for (const [position, space] of spaces.entries()) {
      const path = uniquePath(pathFrom(space.title), paths);
      paths.push(path);
      await siteSpacesRepository.insert(tctx.db, {
        id: newId(),
        site_id: id,
        section_id: null,
        space_id: space.id,
        path,
        title: null,
        condition: null,
        customization: '{}',
        position,
        created_at: now,
      });
    }
    const site = (await sitesRepository.find(tctx.db, organizationId, id)) as SiteView;
    return siteResult(site, { organizationId, userId: access.userId, role: access.role, creator: true, visitor: false });
  });
}

/** GET {SITE} */
export async function getSite(ctx: Context, organizationId: string, siteId: string): Promise<SiteResult> {
  const { site, access } = await loadSite(ctx, organizationId, siteId);
  return siteResult(site, access);
}

/** PATCH {SITE}: whoever manages the site. */
export async function updateSite(ctx: Context, organizationId: string, siteId: string, input: UpdateSiteInput): Promise<SiteResult> {
  return ctx.transaction(async (tctx) => {
    const { site, access } = await loadSiteToManage(tctx, organizationId, siteId);
    const changes: Partial<SiteRow> = { updated_at: isoNow(ctx.clock) };
    if (input.title !== undefined) changes.title = input.title.trim().length >= 2 ? input.title.trim() : input.title;
    if (input.visibility !== undefined) changes.visibility = input.visibility;
    if (input.adaptiveContent !== undefined) changes.adaptive_content = input.adaptiveContent.enabled ? 1 : 0;
    if (input.agentsContext !== undefined) changes.agents_context = input.agentsContext;
    if (input.proxy !== undefined) changes.proxy = input.proxy;
    if (input.basename !== undefined) {
      if (input.basename !== null && (await sitesRepository.addressTaken(tctx.db, siteId, 'basename', input.basename))) {
        throw conflict(`body/basename: "${input.basename}" is already used by another site`);
      }
      changes.basename = input.basename;
    }
    if (input.hostname !== undefined && input.hostname !== (site.pending_hostname ?? site.hostname)) {
      // A new hostname is pending until proven (verifyCustomHostname); until then it is not
      // served, and the proven one it replaces stops being served too.
      if (input.hostname !== null && (await sitesRepository.addressTaken(tctx.db, siteId, 'hostname', input.hostname))) {
        throw conflict(`body/hostname: "${input.hostname}" is already used by another site`);
      }
      changes.hostname = null;
      changes.pending_hostname = input.hostname;
    }
    if (input.defaultSiteSection !== undefined || input.defaultSiteSpace !== undefined) {
      const structure = await SiteStructure.load(tctx, siteId);
      if (input.defaultSiteSection !== undefined) {
        if (!structure.section(input.defaultSiteSection)) throw badRequest(`body/defaultSiteSection: section "${input.defaultSiteSection}" is not in this site`);
        changes.default_site_section_id = input.defaultSiteSection;
      }
      if (input.defaultSiteSpace !== undefined) {
        const section = structure.defaultSection({ ...site, ...changes });
        if (!structure.containerSiteSpaces(section?.id ?? null).some((s) => s.id === input.defaultSiteSpace)) {
          throw badRequest(`body/defaultSiteSpace: site space "${input.defaultSiteSpace}" is not in ${section ? 'the default section' : 'the site root'}`);
        }
        if (section) structure.updateSection(section.id, { default_site_space_id: input.defaultSiteSpace });
        else changes.default_site_space_id = input.defaultSiteSpace;
      }
      await structure.save(tctx.db);
    }
    await sitesRepository.update(tctx.db, siteId, changes);
    return siteResult({ ...site, ...changes }, access);
  });
}

/** DELETE {SITE}: whoever manages the site; 204 also when absent. */
export async function deleteSite(ctx: Context, organizationId: string, siteId: string) {
  await ctx.transaction(async (tctx) => {
    await memberAccess(tctx, organizationId);
    const site = await sitesRepository.find(tctx.db, organizationId, siteId);
    if (!site) return;
    await loadSiteToManage(tctx, organizationId, siteId);
    await sitesRepository.delete(tctx.db, organizationId, siteId);
  });
}

/** POST {SITE}/publish and /unpublish. */
export async function setPublished(ctx: Context, organizationId: string, siteId: string, published: boolean): Promise<SiteResult> {
  return ctx.transaction(async (tctx) => {
    const { site, access } = await loadSiteToManage(tctx, organizationId, siteId);
    const changes = { published: published ? 1 : 0, updated_at: isoNow(ctx.clock) };
    await sitesRepository.update(tctx.db, siteId, changes);
    return siteResult({ ...site, ...changes }, access);
  });
}

