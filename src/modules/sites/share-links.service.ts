import type { Context } from '../../context.ts';
import type { PageRequest } from '../../lib/pagination/index.ts';
import { notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { ShareLinkResult, ShareLinksPage } from './sites.model.ts';
import { sitesRepository } from './sites.repository.ts';
import { loadSiteToManage } from '../../access/index.ts';

/* Share links of a site: keys that open a `share-link` site to visitors. */

/** GET {SITE}/share-links: whoever manages the site (the keys are secrets). */
export async function listShareLinks(ctx: Context, organizationId: string, siteId: string, search: string | undefined, page: PageRequest): Promise<ShareLinksPage> {
  const { site } = await loadSiteToManage(ctx, organizationId, siteId);
  const result = await sitesRepository.listShareLinks(ctx.db, siteId, search, page);
  return { ...result, site };
}

/** POST {SITE}/share-links: a new active link with a random key. */
export async function createShareLink(ctx: Context, organizationId: string, siteId: string, name: string): Promise<ShareLinkResult> {
  return ctx.transaction(async (tctx) => {
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    const row = { id: newId(), site_id: siteId, name, key: newId(32), active: 1, created_at: isoNow(ctx.clock) };
    await sitesRepository.insertShareLink(tctx.db, row);
    return { site, link: row };
  });
}

/** PATCH {SITE}/share-links/{id}: rename, turn on or off. */
export async function updateShareLink(
  ctx: Context,
  organizationId: string,
  siteId: string,
  shareLinkId: string,
  input: { name?: string; active?: boolean },
): Promise<ShareLinkResult> {
  return ctx.transaction(async (tctx) => {
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    const row = await sitesRepository.findShareLink(tctx.db, siteId, shareLinkId);
    if (!row) throw notFound('Share link');
    const changes: Partial<typeof row> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.active !== undefined) changes.active = input.active ? 1 : 0;
    if (Object.keys(changes).length > 0) await sitesRepository.updateShareLink(tctx.db, siteId, shareLinkId, changes);
    return { site, link: { ...row, ...changes } };
  });
}

/** DELETE {SITE}/share-links/{id}: 204 also when absent. */
export async function deleteShareLink(ctx: Context, organizationId: string, siteId: string, shareLinkId: string) {
  await ctx.transaction(async (tctx) => {
    await loadSiteToManage(tctx, organizationId, siteId);
    await sitesRepository.deleteShareLink(tctx.db, siteId, shareLinkId);
  });
}
