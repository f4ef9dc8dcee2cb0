import slugify from '@sindresorhus/slugify';
import { Ajv, type ValidateFunction } from 'ajv';
import { actorReaches, type Context } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { openSecret, sealSecret, serverSecret } from '../../db/secrets.ts';
import { createHmac } from 'node:crypto';
import dns from 'node:dns/promises';
import type { Page, PageRequest } from '../../db/keyset.ts';
import { claimPaths, parseCondition } from '../../content/conditions.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { usersRepository } from '../users/users.repository.ts';
import { assertWireShape } from '../../schemas/check.ts';
import { isoNow } from '../../lib/clock.ts';
import { decodePageCursor, encodePageCursor } from '../../lib/page-cursor.ts';
import { newId } from '../../lib/ids.ts';
import { organizationPolicy } from '../organizations/organizations.policy.ts';
import { organizationsRepository } from '../organizations/organizations.repository.ts';
import { memberAccess } from '../organizations/organizations.service.ts';
import { contentAccess } from '../permissions/permissions.service.ts';
import { spacePermissions } from '../spaces/spaces.policy.ts';
import { presentSpace } from '../spaces/spaces.presenter.ts';
import type { SpaceWire } from '../spaces/spaces.schemas.ts';
import { siteSectionsRepository, type GroupRow, type SectionRow } from '../site-sections/site-sections.repository.ts';
import {
  containerSiteSpaces,
  defaultOf,
  levelItems,
  orderedSections,
  presentStructure,
  type PresentedStructure,
} from '../site-sections/site-sections.presenter.ts';
import { siteSpacesRepository, type SiteSpaceRow } from '../site-spaces/site-spaces.repository.ts';
import { sitePermissions, sitePolicy, type SiteAccess } from './sites.policy.ts';
import { mergeCustomization, presentCustomization, presentShareLink, presentSite, siteUrl } from './sites.presenter.ts';
import { sitesRepository, type SiteRow, type SiteView } from './sites.repository.ts';
import {
  ADAPTIVE_SCHEMA_SHAPE,
  Customization,
  SiteSpaceCustomization,
  type CreateSiteInput,
  type CustomizationInputValue,
  type CustomizationWire,
  type ListSitesFilter,
  type SortStructureInput,
  type UpdateSiteInput,
} from './sites.schemas.ts';

/*
 * Docs sites: the site itself, its publishing, customization, adaptive schema, share
 * links and structure. The structure core (loading, ordering, moving, paths, conditions)
 * lives here too: the site-sections and site-spaces modules build on it.
 */

type Ctx = Pick<Context, 'db' | 'actor' | 'caches' | 'config' | 'clock'>;

// ---------------------------------------------------------------- access

/**
 * The site and the caller's standing towards it. Members with a role read every site;
 * guests get 403. In `visitor` mode (published profile, structure, section and
 * site-space lists) anyone signed in reads a published site its visibility opens to
 * them: public and unlisted sites, and share-link sites with an active `shareKey`.
 * Anyone else gets 404.
 */
export async function loadSite(
  ctx: Ctx,
  organizationId: string,
  siteId: string,
  mode: { visitor?: boolean; shareKey?: string } = {},
): Promise<{ site: SiteView; access: SiteAccess }> {
  const membership = actorReaches(ctx.actor, organizationId)
    ? await organizationsRepository.findActiveMembership(ctx.db, organizationId, ctx.actor.userId)
    : undefined;
  if (!membership && !mode.visitor) throw notFound('Organization');
  const site = await sitesRepository.find(ctx.db, organizationId, siteId);
  if (!site) throw notFound('Site');
  let visitor = false;
  if (mode.visitor && site.published === 1) {
    if (site.visibility === 'public' || site.visibility === 'unlisted') visitor = true;
    else if (site.visibility === 'share-link' && mode.shareKey) visitor = await sitesRepository.activeShareKey(ctx.db, site.id, mode.shareKey);
  }
  const access: SiteAccess = {
    organizationId,
    userId: ctx.actor.userId,
    role: membership?.role ?? null,
    creator: site.created_by === ctx.actor.userId,
    visitor,
  };
  if (!sitePolicy.can('view', access)) {
    if (!membership) throw notFound('Site');
    sitePolicy.authorize('view', access, 'Guests cannot see the sites of the organization');
  }
  return { site, access };
}

/** The site for a change: 403 unless the caller manages it. */
export async function loadSiteToManage(ctx: Ctx, organizationId: string, siteId: string) {
  const loaded = await loadSite(ctx, organizationId, siteId);
  sitePolicy.authorize('manage', loaded.access, 'Managing a site needs the admin role, or the create role on a site you created');
  return loaded;
}

export function presentSiteFor(ctx: Pick<Context, 'config'>, site: SiteView, access: SiteAccess) {
  return presentSite(ctx.config, site, sitePermissions(access));
}

/** Touches the site's updated_at (every change to its structure or settings). */
export async function touchSite(ctx: Pick<Context, 'clock'>, db: Db, siteId: string) {
  await sitesRepository.update(db, siteId, { updated_at: isoNow(ctx.clock) });
}

// ---------------------------------------------------------------- structure

/** The rows of a site's structure, and its spaces presented for the caller. */
export interface StructureData {
  groups: GroupRow[];
  sections: SectionRow[];
  /** Every site space row (those of deleted spaces too: they keep their place). */
  siteSpaces: SiteSpaceRow[];
  /** Live spaces by id, presented for the caller. */
  spaces: Map<string, SpaceWire>;
}

export async function loadStructure(ctx: Ctx, siteId: string): Promise<StructureData> {
  const groups = await siteSectionsRepository.groups(ctx.db, siteId);
  const sections = await siteSectionsRepository.sections(ctx.db, siteId);
  const siteSpaces = await siteSpacesRepository.list(ctx.db, siteId);
  const rows = await siteSpacesRepository.liveSpaces(ctx.db, [...new Set(siteSpaces.map((s) => s.space_id))]);
  const spaces = new Map<string, SpaceWire>();
  for (const row of rows) spaces.set(row.id, presentSpace(ctx.config, row, spacePermissions(await contentAccess(ctx, row, 'space'))));
  return { groups, sections, siteSpaces, spaces };
}

/** Every structure object presented (site spaces of deleted spaces left out). */
export function presentData(ctx: Pick<Context, 'config'>, site: SiteRow, data: StructureData): PresentedStructure {
  return presentStructure({
    siteUrl: site.published === 1 ? siteUrl(ctx.config, site) : null,
    defaultSectionId: site.default_site_section_id,
    defaultRootSiteSpaceId: site.default_site_space_id,
    groups: data.groups,
    sections: data.sections,
    siteSpaces: data.siteSpaces.filter((s) => data.spaces.has(s.space_id)).map((row) => ({ row, space: data.spaces.get(row.space_id) as SpaceWire })),
  });
}

/** The default section (the chosen one, else the first), or undefined without sections. */
export function defaultSection(site: SiteRow, data: StructureData): SectionRow | undefined {
  return defaultOf(orderedSections(data.groups, data.sections), site.default_site_section_id);
}

/** A URL path from a title: its slug (`docs` when the title has none), at most 100 characters. */
export function pathFrom(title: string): string {
  return slugify(title).slice(0, 100).replace(/-+$/, '') || 'docs';
}

/** `base`, or `base-2`, `base-3`… : the first not in `taken` (generated paths never collide). */
export function uniquePath(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, 100 - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** Paths of the site spaces of a container, but `exceptId`. */
export function siteSpacePaths(data: StructureData, sectionId: string | null, exceptId?: string): string[] {
  return data.siteSpaces.filter((s) => s.section_id === sectionId && s.id !== exceptId).map((s) => s.path);
}

/**
 * Validates an adaptive-content condition (spec 2.10): it must parse, and when the site
 * has an adaptive schema, every `visitor.claims.unsigned.<name>` it reads must be declared.
 */
export function checkCondition(site: SiteRow, condition: string, field: string): void {
  const parsed = parseCondition(condition);
  if (!parsed.ok) throw badRequest(`body/${field}: the condition does not parse: ${parsed.error}`);
  if (!site.adaptive_schema) return;
  const declared = unsignedClaims(JSON.parse(site.adaptive_schema));
  for (const path of claimPaths(parsed.ast)) {
    if (path[0] === 'claims' && path[1] === 'unsigned' && path.length > 2 && !declared.has(path[2])) {
      throw badRequest(`body/${field}: the claim visitor.claims.unsigned.${path[2]} is not declared by the site's adaptive schema`);
    }
  }
}

/** A condition from a body: null or "" removes it; anything else must be valid. */
export function conditionValue(site: SiteRow, value: string | null, field: string): string | null {
  if (value === null || value.trim() === '') return null;
  checkCondition(site, value, field);
  return value;
}

function unsignedClaims(schema: { properties?: { unsigned?: { properties?: Record<string, unknown> } } }): Map<string, { description?: string }> {
  return new Map(Object.entries(schema.properties?.unsigned?.properties ?? {}) as [string, { description?: string }][]);
}

type Pointer = { kind: 'section' | 'group'; id: string };

/** Renumbers a level (site root or group) with `item` at `index` (default: the end) under `parent`. */
async function putInLevel(db: Db, siteId: string, data: StructureData, item: Pointer, parent: string | null, index?: number) {
  const siblings = levelItems(data.groups, data.sections, parent).filter((i) => !(i.kind === item.kind && i.row.id === item.id));
  const at = index ?? siblings.length;
  const ordered: Pointer[] = [...siblings.slice(0, at).map((i) => ({ kind: i.kind, id: i.row.id })), item, ...siblings.slice(at).map((i) => ({ kind: i.kind, id: i.row.id }))];
  for (const [position, entry] of ordered.entries()) {
    const isItem = entry.kind === item.kind && entry.id === item.id;
    if (entry.kind === 'section') {
      const row = data.sections.find((s) => s.id === entry.id) as SectionRow;
      if (!isItem && Number(row.position) === position) continue;
      const changes = isItem ? { position, section_group_id: parent } : { position };
      await siteSectionsRepository.updateSection(db, siteId, row.id, changes);
      Object.assign(row, changes);
    } else {
      const row = data.groups.find((g) => g.id === entry.id) as GroupRow;
      if (!isItem && Number(row.position) === position) continue;
      const changes = isItem ? { position, parent_group_id: parent } : { position };
      await siteSectionsRepository.updateGroup(db, siteId, row.id, changes);
      Object.assign(row, changes);
    }
  }
}

function findLevelRow(data: StructureData, pointer: Pointer) {
  return pointer.kind === 'section' ? data.sections.find((s) => s.id === pointer.id) : data.groups.find((g) => g.id === pointer.id);
}

const parentOf = (data: StructureData, pointer: Pointer): string | null => {
  const row = findLevelRow(data, pointer);
  if (!row) return null;
  return 'section_group_id' in row ? row.section_group_id : row.parent_group_id;
};

/** Whether group `ancestor` is `groupId` or holds it (directly or deeper). */
function groupWithin(data: StructureData, groupId: string | null, ancestor: string): boolean {
  for (let id = groupId, depth = 0; id && depth < 64; depth++) {
    if (id === ancestor) return true;
    id = data.groups.find((g) => g.id === id)?.parent_group_id ?? null;
  }
  return false;
}

const kindName = { section: 'section', group: 'section group' } as const;

/**
 * Moves a section or group next to another section or group (into that one's level), or
 * to the end of the site root without a position. 400 for a position that is not in the
 * site, is the item itself, names both sides, or would put a group inside itself.
 */
export async function moveLevelItem(
  db: Db,
  siteId: string,
  data: StructureData,
  item: Pointer,
  position: { before?: Pointer; after?: Pointer } | undefined,
  into?: { parent: string | null },
) {
  if (position?.before && position?.after) throw badRequest('body/position: give before or after, not both');
  const pointer = position?.before ?? position?.after;
  if (!pointer) return putInLevel(db, siteId, data, item, into ? into.parent : null);
  if (!findLevelRow(data, pointer)) throw badRequest(`body/position: ${kindName[pointer.kind]} "${pointer.id}" is not in this site`);
  if (pointer.kind === item.kind && pointer.id === item.id) throw badRequest('body/position: an item cannot be placed next to itself');
  const parent = parentOf(data, pointer);
  if (item.kind === 'group' && groupWithin(data, parent, item.id)) throw badRequest('body/position: a group cannot be placed inside itself');
  const siblings = levelItems(data.groups, data.sections, parent).filter((i) => !(i.kind === item.kind && i.row.id === item.id));
  const at = siblings.findIndex((i) => i.kind === pointer.kind && i.row.id === pointer.id);
  await putInLevel(db, siteId, data, item, parent, position?.before ? at : at + 1);
}

/** Puts a group's or section's parent: at the end of `parent` (a group of the site, or null for the root). */
export async function moveIntoGroup(db: Db, siteId: string, data: StructureData, item: Pointer, parent: string | null) {
  if (parent !== null && !data.groups.some((g) => g.id === parent)) throw badRequest(`body: section group "${parent}" is not in this site`);
  if (item.kind === 'group' && groupWithin(data, parent, item.id)) throw badRequest('body: a group cannot be placed inside itself');
  await putInLevel(db, siteId, data, item, parent);
}

/** Renumbers a container's site spaces with `siteSpaceId` at `index` (default: the end). */
export async function putSiteSpace(db: Db, siteId: string, data: StructureData, siteSpaceId: string, sectionId: string | null, index?: number) {
  const row = data.siteSpaces.find((s) => s.id === siteSpaceId) as SiteSpaceRow;
  const siblings = containerSiteSpaces(data.siteSpaces, sectionId).filter((s) => s.id !== siteSpaceId);
  const at = index ?? siblings.length;
  const ordered = [...siblings.slice(0, at), row, ...siblings.slice(at)];
  const moving = row.section_id !== sectionId;
  if (moving) {
    // The moved site space keeps its path unless its new section already uses it.
    const path = uniquePath(row.path, siteSpacePaths(data, sectionId, row.id));
    if (path !== row.path) {
      await siteSpacesRepository.update(db, siteId, row.id, { path });
      row.path = path;
    }
    await siteSectionsRepository.clearDefaultSiteSpace(db, siteId, row.id);
    for (const s of data.sections) if (s.default_site_space_id === row.id) s.default_site_space_id = null;
  }
  for (const [position, entry] of ordered.entries()) {
    if (entry.id !== siteSpaceId && Number(entry.position) === position) continue;
    const changes = entry.id === siteSpaceId ? { position, section_id: sectionId } : { position };
    await siteSpacesRepository.update(db, siteId, entry.id, changes);
    Object.assign(entry, changes);
  }
}

/**
 * Moves a site space next to another one (into that one's section), or to the end of
 * its section without a position. 400 for a position that is not a site space of the
 * site, is the item itself, or names both sides.
 */
export async function moveSiteSpaceNextTo(
  db: Db,
  siteId: string,
  data: StructureData,
  siteSpaceId: string,
  position: { before?: string; after?: string } | undefined,
) {
  if (position?.before && position?.after) throw badRequest('body/position: give before or after, not both');
  const row = data.siteSpaces.find((s) => s.id === siteSpaceId) as SiteSpaceRow;
  const pointerId = position?.before ?? position?.after;
  if (!pointerId) return putSiteSpace(db, siteId, data, siteSpaceId, row.section_id);
  const pointer = data.siteSpaces.find((s) => s.id === pointerId);
  if (!pointer) throw badRequest(`body/position: site space "${pointerId}" is not in this site`);
  if (pointer.id === siteSpaceId) throw badRequest('body/position: an item cannot be placed next to itself');
  const siblings = containerSiteSpaces(data.siteSpaces, pointer.section_id).filter((s) => s.id !== siteSpaceId);
  const at = siblings.findIndex((s) => s.id === pointer.id);
  await putSiteSpace(db, siteId, data, siteSpaceId, pointer.section_id, position?.before ? at : at + 1);
}

/** Lists made from the structure, paged in memory: `page` carries the last item's id and index. */
export function pageOf<T extends { id: string }>(items: T[], request: PageRequest): Page<T> {
  let start = 0;
  if (request.page) {
    const cursor = decodePageCursor(
      request.page,
      (c): c is { i: number; id: string } => Number.isSafeInteger(c.i) && c.i >= 0 && typeof c.id === 'string',
    );
    const found = items.findIndex((item) => item.id === cursor.id);
    start = found >= 0 ? found + 1 : cursor.i + 1;
  }
  const slice = items.slice(start, start + request.limit);
  const page: Page<T> = { items: slice, count: items.length };
  const last = slice[slice.length - 1];
  if (last && start + slice.length < items.length) {
    page.next = { page: encodePageCursor({ i: start + slice.length - 1, id: last.id }) };
  }
  return page;
}

// ---------------------------------------------------------------- sites

/** GET {O}/sites: members with a role; filters in SQL. */
export async function listSites(ctx: Context, organizationId: string, filter: ListSitesFilter, page: PageRequest) {
  const access = await memberAccess(ctx, organizationId);
  organizationPolicy.authorize('listTeams', access, 'Guests cannot see the sites of the organization');
  const result = await sitesRepository.list(ctx.db, organizationId, filter, page);
  return {
    ...result,
    items: result.items.map((site) =>
      presentSiteFor(ctx, site, { organizationId, userId: access.userId, role: access.role, creator: site.created_by === access.userId, visitor: false }),
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
export async function createSite(ctx: Context, organizationId: string, input: CreateSiteInput) {
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const access = await memberAccess(tctx, organizationId);
    organizationPolicy.authorize('createContent', access, 'Creating a site needs the create role in the organization');
    const spaceIds = [...new Set(input.spaces ?? [])];
    const spaces = [];
    const unknown = [];
    for (const id of spaceIds) {
      const space = await siteSpacesRepository.findLiveSpace(trx, organizationId, id);
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
    await sitesRepository.insert(trx, { ...row, visitor_auth_key: await sealSecret(trx, VISITOR_KEY_PURPOSE, row.visitor_auth_key) });
    const paths: string[] = [];
    for (const [position, space] of spaces.entries()) {
      const path = uniquePath(pathFrom(space.title), paths);
      paths.push(path);
      await siteSpacesRepository.insert(trx, {
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
    const site = (await sitesRepository.find(trx, organizationId, id)) as SiteView;
    return presentSiteFor(ctx, site, { organizationId, userId: access.userId, role: access.role, creator: true, visitor: false });
  });
}

/** GET {SITE} */
export async function getSite(ctx: Context, organizationId: string, siteId: string) {
  const { site, access } = await loadSite(ctx, organizationId, siteId);
  return presentSiteFor(ctx, site, access);
}

/** PATCH {SITE}: whoever manages the site. */
export async function updateSite(ctx: Context, organizationId: string, siteId: string, input: UpdateSiteInput) {
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const { site, access } = await loadSiteToManage(tctx, organizationId, siteId);
    const changes: Partial<SiteRow> = { updated_at: isoNow(ctx.clock) };
    if (input.title !== undefined) changes.title = input.title.trim().length >= 2 ? input.title.trim() : input.title;
    if (input.visibility !== undefined) changes.visibility = input.visibility;
    if (input.adaptiveContent !== undefined) changes.adaptive_content = input.adaptiveContent.enabled ? 1 : 0;
    if (input.agentsContext !== undefined) changes.agents_context = input.agentsContext;
    if (input.proxy !== undefined) changes.proxy = input.proxy;
    if (input.basename !== undefined) {
      if (input.basename !== null && (await sitesRepository.addressTaken(trx, siteId, 'basename', input.basename))) {
        throw conflict(`body/basename: "${input.basename}" is already used by another site`);
      }
      changes.basename = input.basename;
    }
    if (input.hostname !== undefined && input.hostname !== (site.pending_hostname ?? site.hostname)) {
      // A new hostname is pending until proven (verifyCustomHostname); until then it is not
      // served, and the proven one it replaces stops being served too.
      if (input.hostname !== null && (await sitesRepository.addressTaken(trx, siteId, 'hostname', input.hostname))) {
        throw conflict(`body/hostname: "${input.hostname}" is already used by another site`);
      }
      changes.hostname = null;
      changes.pending_hostname = input.hostname;
    }
    if (input.defaultSiteSection !== undefined || input.defaultSiteSpace !== undefined) {
      const data = await loadStructure(tctx, siteId);
      if (input.defaultSiteSection !== undefined) {
        if (!data.sections.some((s) => s.id === input.defaultSiteSection)) throw badRequest(`body/defaultSiteSection: section "${input.defaultSiteSection}" is not in this site`);
        changes.default_site_section_id = input.defaultSiteSection;
      }
      if (input.defaultSiteSpace !== undefined) {
        const section = defaultSection({ ...site, ...changes }, data);
        const candidates = data.siteSpaces.filter((s) => s.section_id === (section?.id ?? null));
        if (!candidates.some((s) => s.id === input.defaultSiteSpace)) {
          throw badRequest(`body/defaultSiteSpace: site space "${input.defaultSiteSpace}" is not in ${section ? 'the default section' : 'the site root'}`);
        }
        if (section) await siteSectionsRepository.updateSection(trx, siteId, section.id, { default_site_space_id: input.defaultSiteSpace });
        else changes.default_site_space_id = input.defaultSiteSpace;
      }
    }
    await sitesRepository.update(trx, siteId, changes);
    return presentSiteFor(ctx, { ...site, ...changes }, access);
  });
}

/** DELETE {SITE}: whoever manages the site; 204 also when absent. */
export async function deleteSite(ctx: Context, organizationId: string, siteId: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    await memberAccess(tctx, organizationId);
    const site = await sitesRepository.find(trx, organizationId, siteId);
    if (!site) return;
    await loadSiteToManage(tctx, organizationId, siteId);
    await sitesRepository.delete(trx, organizationId, siteId);
  });
}

/** POST {SITE}/publish and /unpublish. */
export async function setPublished(ctx: Context, organizationId: string, siteId: string, published: boolean) {
  return ctx.db.transaction().execute(async (trx) => {
    const { site, access } = await loadSiteToManage({ ...ctx, db: trx }, organizationId, siteId);
    const changes = { published: published ? 1 : 0, updated_at: isoNow(ctx.clock) };
    await sitesRepository.update(trx, siteId, changes);
    return presentSiteFor(ctx, { ...site, ...changes }, access);
  });
}

// ---------------------------------------------------------------- published profile, structure

/** GET {SITE}/published: members (also before publishing), and visitors of the published site. */
export async function getPublished(ctx: Context, organizationId: string, siteId: string, shareKey?: string) {
  const { site, access } = await loadSite(ctx, organizationId, siteId, { visitor: true, shareKey });
  const data = await loadStructure(ctx, siteId);
  const presented = presentData(ctx, site, data);
  const customization = presentCustomization(site.customization);
  const siteSpaces: Record<string, CustomizationWire> = {};
  for (const row of data.siteSpaces) {
    if (!data.spaces.has(row.space_id)) continue;
    siteSpaces[row.id] = mergeCustomization(customization as unknown as Record<string, unknown>, JSON.parse(row.customization)) as unknown as CustomizationWire;
  }
  return {
    object: 'published-content-site' as const,
    site: presentSiteFor(ctx, site, access),
    structure: presented.structure,
    customizations: { site: customization, siteSpaces },
    scripts: [],
  };
}

/** GET {SITE}/structure */
export async function getStructure(ctx: Context, organizationId: string, siteId: string, shareKey?: string) {
  const { site } = await loadSite(ctx, organizationId, siteId, { visitor: true, shareKey });
  return presentData(ctx, site, await loadStructure(ctx, siteId)).structure;
}

const POINTER_KIND = { 'site-section': 'section', 'site-section-group': 'group' } as const;

/**
 * PATCH {SITE}/structure/sort: moves a site space among site spaces, or a section or
 * group among sections and groups (spec 4.5: replaces the deprecated moves). Answers the
 * moved item.
 */
export async function sortStructure(ctx: Context, organizationId: string, siteId: string, input: SortStructureInput) {
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    const data = await loadStructure(tctx, siteId);
    const { item, position } = input;
    const pointers = [position?.before, position?.after].filter((p) => p !== undefined);
    if (item.type === 'site-external-link') throw notFound('External link');
    if (item.type === 'site-space') {
      if (!data.siteSpaces.some((s) => s.id === item.id)) throw notFound('Site space');
      if (pointers.some((p) => p.type !== 'site-space')) throw badRequest('body/position: a site space moves among site spaces');
      await moveSiteSpaceNextTo(trx, siteId, data, item.id, position && { before: position.before?.id, after: position.after?.id });
    } else {
      const kind = POINTER_KIND[item.type];
      if (!findLevelRow(data, { kind, id: item.id })) throw notFound(kind === 'section' ? 'Section' : 'Section group');
      if (pointers.some((p) => p.type !== 'site-section' && p.type !== 'site-section-group')) {
        throw badRequest('body/position: sections and groups move among sections and groups');
      }
      const toPointer = (p?: { type: string; id: string }): Pointer | undefined => (p ? { kind: POINTER_KIND[p.type as keyof typeof POINTER_KIND], id: p.id } : undefined);
      const current = parentOf(data, { kind, id: item.id });
      await moveLevelItem(trx, siteId, data, { kind, id: item.id }, position && { before: toPointer(position.before), after: toPointer(position.after) }, { parent: current });
    }
    await touchSite(ctx, trx, siteId);
    const presented = presentData(ctx, site, data);
    const moved = [...presented.siteSpaces, ...presented.sections, ...presented.groups].find((o) => o.id === item.id && o.object === item.type);
    if (!moved) throw notFound('Item');
    return moved;
  });
}

// ---------------------------------------------------------------- adaptive content

let shapeValidator: ValidateFunction | undefined;
const draft07 = new Ajv({ strict: false, allErrors: false });

/** GET {SITE}/adaptive-schema: members; 404 when none is set. */
export async function getAdaptiveSchema(ctx: Context, organizationId: string, siteId: string) {
  const { site, access } = await loadSite(ctx, organizationId, siteId);
  sitePolicy.authorize('viewAdaptiveSchema', access);
  if (!site.adaptive_schema) throw notFound('Adaptive schema');
  return { object: 'site-adaptive-schema' as const, jsonSchema: JSON.parse(site.adaptive_schema), updatedAt: site.adaptive_schema_updated_at ?? site.updated_at };
}

/** PUT {SITE}/adaptive-schema: a JSON Schema draft-07 of the shape of spec 2.9; 400 otherwise. */
export async function updateAdaptiveSchema(ctx: Context, organizationId: string, siteId: string, jsonSchema: Record<string, unknown>) {
  shapeValidator ??= new Ajv({ strict: false, allErrors: false }).compile(ADAPTIVE_SCHEMA_SHAPE);
  if (!shapeValidator(jsonSchema)) {
    const error = shapeValidator.errors?.[0];
    throw badRequest(`body/jsonSchema${error?.instancePath ?? ''} ${error?.message ?? 'is not an adaptive schema'}`);
  }
  const schema = structuredClone(jsonSchema) as { $schema?: string; properties: { unsigned?: { description?: string } } };
  schema.$schema = 'http://json-schema.org/draft-07/schema#';
  if (schema.properties.unsigned) schema.properties.unsigned.description = 'Unsigned claims of the site visitor.';
  try {
    draft07.compile(schema);
  } catch (error) {
    throw badRequest(`body/jsonSchema is not a valid JSON Schema: ${(error as Error).message}`);
  }
  return ctx.db.transaction().execute(async (trx) => {
    await loadSiteToManage({ ...ctx, db: trx }, organizationId, siteId);
    const now = isoNow(ctx.clock);
    await sitesRepository.update(trx, siteId, { adaptive_schema: JSON.stringify(schema), adaptive_schema_updated_at: now, updated_at: now });
    return { object: 'site-adaptive-schema' as const, jsonSchema: schema, updatedAt: now };
  });
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const claimRef = (base: string, name: string) => (IDENTIFIER.test(name) ? `${base}.${name}` : `${base}[${JSON.stringify(name)}]`);

/** GET {SITE}/adaptive-schema/template-conditions: one condition per declared boolean claim. */
export async function listTemplateConditions(ctx: Context, organizationId: string, siteId: string) {
  const { site, access } = await loadSite(ctx, organizationId, siteId);
  sitePolicy.authorize('viewAdaptiveSchema', access);
  if (!site.adaptive_schema) return { items: [] };
  const schema = JSON.parse(site.adaptive_schema) as { properties?: Record<string, { type?: string; description?: string }> };
  const items: { description: string; condition: string }[] = [];
  for (const [name, claim] of unsignedClaims(schema)) {
    items.push({ description: claim.description || `Visitors whose unsigned claim "${name}" is true`, condition: `${claimRef('visitor.claims.unsigned', name)} == true` });
  }
  for (const [name, claim] of Object.entries(schema.properties ?? {})) {
    if (name === 'unsigned' || claim.type !== 'boolean') continue;
    items.push({ description: claim.description || `Visitors whose claim "${name}" is true`, condition: `${claimRef('visitor.claims', name)} == true` });
  }
  return { items };
}

// ---------------------------------------------------------------- customization

/** GET {SITE}/customization: members with a role. */
export async function getCustomization(ctx: Context, organizationId: string, siteId: string) {
  const { site, access } = await loadSite(ctx, organizationId, siteId);
  sitePolicy.authorize('access', access);
  return presentCustomization(site.customization);
}

/** PUT {SITE}/customization: replaces the customization (absent fields take their defaults). */
export async function updateCustomization(ctx: Context, organizationId: string, siteId: string, input: CustomizationInputValue) {
  return ctx.db.transaction().execute(async (trx) => {
    await loadSiteToManage({ ...ctx, db: trx }, organizationId, siteId);
    const now = isoNow(ctx.clock);
    const stored = JSON.stringify({ ...input, updatedAt: now });
    const presented = presentCustomization(stored);
    // What is stored must read back: checked against the response shape before the write.
    assertWireShape(Customization, presented);
    await sitesRepository.update(trx, siteId, { customization: stored, updated_at: now });
    return presented;
  });
}

async function loadSiteSpaceRow(ctx: Ctx, siteId: string, siteSpaceId: string) {
  const row = (await siteSpacesRepository.list(ctx.db, siteId)).find((s) => s.id === siteSpaceId);
  if (!row) throw notFound('Site space');
  return row;
}

/** Drops overrides that became empty objects (a favicon of {} is a value: "no favicon"). */
function pruneEmpty(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && key !== 'favicon') {
      const inner = pruneEmpty(v as Record<string, unknown>);
      if (Object.keys(inner).length > 0) out[key] = inner;
    } else out[key] = v;
  }
  return out;
}

function siteSpaceCustomization(site: SiteRow, row: SiteSpaceRow) {
  const overrides = JSON.parse(row.customization) as Record<string, unknown>;
  const merged = mergeCustomization(presentCustomization(site.customization) as unknown as Record<string, unknown>, overrides);
  return { ...merged, hasOverrides: Object.keys(overrides).length > 0 } as ReturnType<typeof presentCustomization> & { hasOverrides: boolean };
}

/** GET {SITE}/site-spaces/{id}/customization: the site's customization with the site space's overrides. */
export async function getSiteSpaceCustomization(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string) {
  const { site, access } = await loadSite(ctx, organizationId, siteId);
  sitePolicy.authorize('access', access);
  return siteSpaceCustomization(site, await loadSiteSpaceRow(ctx, siteId, siteSpaceId));
}

/** PATCH {SITE}/site-spaces/{id}/customization: merges overrides; null resets one. */
export async function overrideSiteSpaceCustomization(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string, input: CustomizationInputValue) {
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    const row = await loadSiteSpaceRow(tctx, siteId, siteSpaceId);
    const overrides = pruneEmpty(mergeCustomization(JSON.parse(row.customization), input));
    row.customization = JSON.stringify(overrides);
    const presented = siteSpaceCustomization(site, row);
    // What is stored must read back: checked against the response shape before the write.
    assertWireShape(SiteSpaceCustomization, presented);
    await siteSpacesRepository.update(trx, siteId, siteSpaceId, { customization: row.customization });
    await touchSite(ctx, trx, siteId);
    return presented;
  });
}

/** DELETE {SITE}/site-spaces/{id}/customization: drops every override; 204 also when the site space is absent. */
export async function deleteSiteSpaceCustomization(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string) {
  await ctx.db.transaction().execute(async (trx) => {
    await loadSiteToManage({ ...ctx, db: trx }, organizationId, siteId);
    await siteSpacesRepository.update(trx, siteId, siteSpaceId, { customization: '{}' });
  });
}

// ---------------------------------------------------------------- share links

/** GET {SITE}/share-links: whoever manages the site (the keys are secrets). */
export async function listShareLinks(ctx: Context, organizationId: string, siteId: string, search: string | undefined, page: PageRequest) {
  const { site } = await loadSiteToManage(ctx, organizationId, siteId);
  const result = await sitesRepository.listShareLinks(ctx.db, siteId, search, page);
  return { ...result, items: result.items.map((row) => presentShareLink(ctx.config, site, row)) };
}

/** POST {SITE}/share-links: a new active link with a random key. */
export async function createShareLink(ctx: Context, organizationId: string, siteId: string, name: string) {
  return ctx.db.transaction().execute(async (trx) => {
    const { site } = await loadSiteToManage({ ...ctx, db: trx }, organizationId, siteId);
    const row = { id: newId(), site_id: siteId, name, key: newId(32), active: 1, created_at: isoNow(ctx.clock) };
    await sitesRepository.insertShareLink(trx, row);
    return presentShareLink(ctx.config, site, row);
  });
}

/** PATCH {SITE}/share-links/{id}: rename, turn on or off. */
export async function updateShareLink(ctx: Context, organizationId: string, siteId: string, shareLinkId: string, input: { name?: string; active?: boolean }) {
  return ctx.db.transaction().execute(async (trx) => {
    const { site } = await loadSiteToManage({ ...ctx, db: trx }, organizationId, siteId);
    const row = await sitesRepository.findShareLink(trx, siteId, shareLinkId);
    if (!row) throw notFound('Share link');
    const changes: Partial<typeof row> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.active !== undefined) changes.active = input.active ? 1 : 0;
    if (Object.keys(changes).length > 0) await sitesRepository.updateShareLink(trx, siteId, shareLinkId, changes);
    return presentShareLink(ctx.config, site, { ...row, ...changes });
  });
}

/** DELETE {SITE}/share-links/{id}: 204 also when absent. */
export async function deleteShareLink(ctx: Context, organizationId: string, siteId: string, shareLinkId: string) {
  await ctx.db.transaction().execute(async (trx) => {
    await loadSiteToManage({ ...ctx, db: trx }, organizationId, siteId);
    await sitesRepository.deleteShareLink(trx, siteId, shareLinkId);
  });
}

/* ------------------------------------------------------------------------------------
 * Visitor authentication (GitBook's site-publishing-auth): the key a site's owner signs
 * visitor JWTs with. Stored sealed (sealSecret); read and rotated by whoever manages the site.
 * ---------------------------------------------------------------------------------- */

/** The server secret visitor-auth keys are sealed under. */
export const VISITOR_KEY_PURPOSE = 'site-visitor-auth';

/** A site's visitor-auth signing key in clear, from its stored (sealed) form. */
export function visitorAuthKey(db: Db, stored: string): Promise<string> {
  return openSecret(db, VISITOR_KEY_PURPOSE, stored);
}

const presentPublishingAuth = (privateKey: string) => ({ object: 'publishing-auth' as const, backend: 'custom' as const, privateKey });

/** GET {SITE}/publishing/auth: the signing key, to whoever manages the site. */
export async function getPublishingAuth(ctx: Context, organizationId: string, siteId: string) {
  const { site } = await loadSiteToManage(ctx, organizationId, siteId);
  return presentPublishingAuth(await visitorAuthKey(ctx.db, site.visitor_auth_key));
}

/** POST {SITE}/publishing/auth/regenerate: a new key; tokens signed with the old one stop working at once. */
export async function regeneratePublishingAuth(ctx: Context, organizationId: string, siteId: string) {
  return ctx.db.transaction().execute(async (trx) => {
    await loadSiteToManage({ ...ctx, db: trx }, organizationId, siteId);
    const key = newId(48);
    await sitesRepository.update(trx, siteId, { visitor_auth_key: await sealSecret(trx, VISITOR_KEY_PURPOSE, key), updated_at: isoNow(ctx.clock) });
    return presentPublishingAuth(key);
  });
}

/* ------------------------------------------------------------------------------------
 * Custom hostnames are claimed with a proof (docs/security.md): a DNS TXT record
 * `_quire-challenge.<hostname>` holding the site's challenge, or an installation admin.
 * ---------------------------------------------------------------------------------- */

/** The TXT record a site's owner publishes to prove a hostname: an HMAC, nothing stored. */
export async function hostnameChallenge(db: Db, siteId: string, hostname: string): Promise<{ name: string; value: string }> {
  const key = await serverSecret(db, 'custom-hostname-challenge');
  const value = createHmac('sha256', key).update(`${siteId}\u0000${hostname}`).digest('base64url').slice(0, 32);
  return { name: `_quire-challenge.${hostname}`, value: `quire-site-verification=${value}` };
}

/** The TXT strings of a name, on DNS_SERVER when set; none when the name has no TXT record. */
async function txtRecords(config: Context['config'], name: string): Promise<string[]> {
  const resolver = new dns.Resolver({ timeout: 3000, tries: 2 });
  if (config.dnsServer) resolver.setServers([config.dnsServer]);
  try {
    return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
  } catch {
    return [];
  }
}

/**
 * PATCH /v1/custom-hostnames/{hostname} (GitBook's dnsRevalidateCustomHostname): proves a
 * hostname a site of the caller's is pending on, and serves it from then on. The proof is
 * the TXT record of hostnameChallenge; an installation admin needs none. 409 naming the
 * record to publish when it is missing; 404 when no site the caller manages claims it.
 */
export async function verifyCustomHostname(ctx: Context, hostnameInput: string): Promise<void> {
  const hostname = hostnameInput.toLowerCase();
  const candidates = await sitesRepository.sitesPendingHostname(ctx.db, hostname);
  let managed: SiteView | undefined;
  for (const candidate of candidates) {
    try {
      managed = (await loadSiteToManage(ctx, candidate.organization_id, candidate.id)).site;
      break;
    } catch {
      // Not a site the caller manages: the next one, if any.
    }
  }
  if (!managed) throw notFound('Custom hostname');
  const caller = await usersRepository.findById(ctx.db, ctx.actor.userId);
  const byAdmin = caller?.installation_admin === 1 && ctx.actor.organizationId === null;
  if (!byAdmin) {
    const challenge = await hostnameChallenge(ctx.db, managed.id, hostname);
    if (!(await txtRecords(ctx.config, challenge.name)).includes(challenge.value)) {
      throw conflict(`Publish a DNS TXT record ${challenge.name} with the value "${challenge.value}", then ask again`);
    }
  }
  const siteId = managed.id;
  await ctx.db.transaction().execute(async (trx) => {
    if (await sitesRepository.addressTaken(trx, siteId, 'hostname', hostname)) {
      throw conflict(`"${hostname}" is already served by another site`);
    }
    await sitesRepository.update(trx, siteId, { hostname, pending_hostname: null, updated_at: isoNow(ctx.clock) });
  });
}
