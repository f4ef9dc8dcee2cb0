import type { Context } from '../../context.ts';
import { readUnlessChanged, type Depend } from '../../db/read-cache.ts';
import { pageOfItems, type PageRequest } from '../../lib/pagination/index.ts';
import { notFound } from '../../errors.ts';
import { loadRevisionLinks, type LinkOccurrence, type RevisionLinks } from '../../content/links/report.ts';
import { loadSnapshot } from '../../content/store/snapshot.ts';
import { loadChangeRequest, loadSpace } from '../../access/index.ts';
import { existingSpecSlugs } from '../openapi-specs/openapi-specs.references.ts';
import type { BacklinksResult, LinkListingResult, LocationScope, VersionContext } from './links.model.ts';
import { linksRepository } from './links.repository.ts';
import type { LinkStatusName } from './links.schemas.ts';

/*
 * Link listings and backlinks (spec 2.5, 4.1 to 4.3). The links of a revision are found
 * and classified once (src/content/links/report.ts, cached by revision id); a listing
 * groups them by target, resolves links into other spaces (do they still exist?) and
 * pages through the result.
 */

/** The revision a read is about, and how its locations are presented. */
interface Reading {
  organizationId: string;
  spaceId: string;
  revisionId: string;
  versionContext: VersionContext;
  /** Change requests: the main revision they were last based on. */
  baseRevisionId?: string;
}

async function spaceReading(ctx: Context, spaceId: string): Promise<Reading> {
  const { space } = await loadSpace(ctx, spaceId);
  if (!space.revision_id) throw notFound('Revision');
  return { organizationId: space.organization_id, spaceId, revisionId: space.revision_id, versionContext: { type: 'revision', revision: space.revision_id } };
}

async function changeRequestReading(ctx: Context, spaceId: string, idOrNumber: string): Promise<Reading> {
  const { space, cr } = await loadChangeRequest(ctx, spaceId, idOrNumber);
  return {
    organizationId: space.organization_id,
    spaceId,
    revisionId: cr.revision_id,
    versionContext: { type: 'changeRequest', changeRequest: cr.id },
    baseRevisionId: cr.revision_merged_ancestor,
  };
}

interface Target {
  key: string;
  status: LinkStatusName;
  occurrences: LinkOccurrence[];
}

/** Occurrences grouped by target (first occurrence order), with the final status. */
function targetsOf(occurrences: LinkOccurrence[], live: Map<string, unknown>, specs: Set<string> = new Set()): Target[] {
  const targets = new Map<string, Target>();
  for (const o of occurrences) {
    let target = targets.get(o.targetKey);
    if (!target) {
      let status: LinkStatusName = o.status === 'foreign' ? (live.has(o.foreignSpace!) ? 'ok' : 'broken') : o.status;
      // An OpenAPI reference resolves while the organization has the spec.
      if (o.ref.kind === 'openapi' && !specs.has(o.ref.spec)) status = 'broken';
      target = { key: o.targetKey, status, occurrences: [] };
      targets.set(o.targetKey, target);
    }
    target.occurrences.push(o);
  }
  return [...targets.values()];
}

const foreignSpaces = (occurrences: LinkOccurrence[]) => occurrences.flatMap((o) => (o.foreignSpace ? [o.foreignSpace] : []));
const specSlugs = (occurrences: LinkOccurrence[]) => occurrences.flatMap((o) => (o.ref.kind === 'openapi' ? [o.ref.spec] : []));

/** A link listing over some occurrences of a revision (the whole revision or one page). */
async function listing(
  ctx: Context,
  reading: Reading,
  scope: string,
  select: (links: RevisionLinks) => LinkOccurrence[],
  status: LinkStatusName | undefined,
  page: PageRequest,
): Promise<LinkListingResult> {
  // A listing depends on immutable revisions and on which other spaces still exist: on
  // it is reused (the route presents and serializes it once, presentReused) while those
  // spaces and the organization's specs are unchanged.
  const key = `links\u0000${reading.revisionId}\u0000${reading.baseRevisionId ?? ''}\u0000${JSON.stringify(reading.versionContext)}\u0000${scope}\u0000${status ?? ''}\u0000${page.page ?? ''}\u0000${page.limit}`;
  return readUnlessChanged(ctx.db, ctx.caches.listings, key, (depend) => computeListing(ctx, reading, select, status, page, depend));
}

async function computeListing(
  ctx: Context,
  reading: Reading,
  select: (links: RevisionLinks) => LinkOccurrence[],
  status: LinkStatusName | undefined,
  page: PageRequest,
  depend: Depend,
): Promise<LinkListingResult> {
  const links = await loadRevisionLinks(ctx.db, reading.spaceId, reading.revisionId, ctx.config.publicUrl);
  const occurrences = select(links);
  let base: LinkOccurrence[] = [];
  if (reading.baseRevisionId && reading.baseRevisionId !== reading.revisionId) {
    base = select(await loadRevisionLinks(ctx.db, reading.spaceId, reading.baseRevisionId, ctx.config.publicUrl));
  }
  // Which other spaces of the organization still exist, and which specs it has; the space's
  // own row says which organization that is (a transfer changes it, not the revision).
  depend(`space:${reading.spaceId}`, ...[...foreignSpaces(occurrences), ...foreignSpaces(base)].map((id) => `space:${id}`), `openapi:${reading.organizationId}`);
  const foreign = await linksRepository.liveSpaces(ctx.db, reading.organizationId, [...foreignSpaces(occurrences), ...foreignSpaces(base)]);
  const specs = await existingSpecSlugs(ctx.db, reading.organizationId, [...specSlugs(occurrences), ...specSlugs(base)]);
  const targets = targetsOf(occurrences, foreign, specs);
  const brokenInBase = new Set(targetsOf(base, foreign, specs).filter((t) => t.status === 'broken').map((t) => t.key));
  const broken = targets.filter((t) => t.status === 'broken');
  const shown = status ? targets.filter((t) => t.status === status) : targets;
  const { items: slice, next } = pageOfItems(shown, page);
  const scope: LocationScope = {
    organizationId: reading.organizationId,
    spaceId: reading.spaceId,
    snapshot: await loadSnapshot(ctx.db, reading.spaceId, reading.revisionId),
    versionContext: reading.versionContext,
    foreign,
  };
  return {
    ...(next ? { next } : {}),
    count: shown.length,
    stats: {
      total: targets.length,
      broken: { total: broken.length, changeRequest: reading.baseRevisionId ? broken.filter((t) => !brokenInBase.has(t.key)).length : 0 },
    },
    scope,
    items: slice.map((t) => ({ status: t.status, occurrences: t.occurrences })),
  };
}

/** Backlinks: the pages linking to a target (itself excluded), one item per page, in tree order. */
async function backlinks(
  ctx: Context,
  reading: Reading,
  select: (links: RevisionLinks) => LinkOccurrence[] | undefined,
  exclude: string | null,
  page: PageRequest,
): Promise<BacklinksResult> {
  const links = await loadRevisionLinks(ctx.db, reading.spaceId, reading.revisionId, ctx.config.publicUrl);
  const seen = new Set<string>();
  const sources = (select(links) ?? []).filter((o) => o.pageId !== exclude && !seen.has(o.pageId) && seen.add(o.pageId));
  const { items: slice, next } = pageOfItems(sources, page);
  const scope: LocationScope = {
    organizationId: reading.organizationId,
    spaceId: reading.spaceId,
    snapshot: await loadSnapshot(ctx.db, reading.spaceId, reading.revisionId),
    versionContext: reading.versionContext,
    foreign: new Map(),
  };
  return { ...(next ? { next } : {}), count: sources.length, scope, items: slice };
}

async function requirePage(ctx: Context, reading: Reading, pageId: string) {
  const snapshot = await loadSnapshot(ctx.db, reading.spaceId, reading.revisionId);
  if (!snapshot.byId.has(pageId)) throw notFound('Page');
}

async function requireFile(ctx: Context, reading: Reading, fileId: string) {
  const snapshot = await loadSnapshot(ctx.db, reading.spaceId, reading.revisionId);
  if (!snapshot.filesById.has(fileId)) throw notFound('File');
}

/** GET {S}/links */
export async function listSpaceLinks(ctx: Context, spaceId: string, status: LinkStatusName | undefined, page: PageRequest) {
  return listing(ctx, await spaceReading(ctx, spaceId), 'all', (l) => l.occurrences, status, page);
}

/** GET {S}/content/page/{pageId}/links */
export async function listPageLinks(ctx: Context, spaceId: string, pageId: string, status: LinkStatusName | undefined, page: PageRequest) {
  const reading = await spaceReading(ctx, spaceId);
  await requirePage(ctx, reading, pageId);
  return listing(ctx, reading, `page:${pageId}`, (l) => l.byPage.get(pageId) ?? [], status, page);
}

/** GET {CR}/content/page/{pageId}/links: with the broken links the change request introduced on the page. */
export async function listChangeRequestPageLinks(ctx: Context, spaceId: string, idOrNumber: string, pageId: string, status: LinkStatusName | undefined, page: PageRequest) {
  const reading = await changeRequestReading(ctx, spaceId, idOrNumber);
  await requirePage(ctx, reading, pageId);
  return listing(ctx, reading, `page:${pageId}`, (l) => l.byPage.get(pageId) ?? [], status, page);
}

/** GET {CR}/content/page/{pageId}/backlinks */
export async function listChangeRequestPageBacklinks(ctx: Context, spaceId: string, idOrNumber: string, pageId: string, page: PageRequest) {
  const reading = await changeRequestReading(ctx, spaceId, idOrNumber);
  await requirePage(ctx, reading, pageId);
  return backlinks(ctx, reading, (l) => l.toPage.get(pageId), pageId, page);
}

/** GET {S}/content/files/{fileId}/backlinks */
export async function listFileBacklinks(ctx: Context, spaceId: string, fileId: string, page: PageRequest) {
  const reading = await spaceReading(ctx, spaceId);
  await requireFile(ctx, reading, fileId);
  return backlinks(ctx, reading, (l) => l.toFile.get(fileId), null, page);
}

/** GET {CR}/content/files/{fileId}/backlinks */
export async function listChangeRequestFileBacklinks(ctx: Context, spaceId: string, idOrNumber: string, fileId: string, page: PageRequest) {
  const reading = await changeRequestReading(ctx, spaceId, idOrNumber);
  await requireFile(ctx, reading, fileId);
  return backlinks(ctx, reading, (l) => l.toFile.get(fileId), null, page);
}
