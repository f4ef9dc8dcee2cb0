import type { Context } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { assertWireShape } from '../../schemas/check.ts';
import { isoNow } from '../../lib/clock.ts';
import { siteSpacesRepository, type SiteSpaceRow } from './site-spaces.repository.ts';
import { effectiveCustomization, mergeCustomization, parseCustomization, pruneEmptyOverrides } from './site-customization.ts';
import { sitePolicy } from './sites.policy.ts';
import { sitesRepository, type SiteRow } from './sites.repository.ts';
import { Customization, SiteSpaceCustomization, type CustomizationInputValue, type CustomizationWire } from './sites.schemas.ts';
import { loadSite, loadSiteToManage } from '../../access/index.ts';

/* A site's customization and its site spaces' overrides, as the API reads and writes them (the rule: site-customization.ts). */

type Ctx = Pick<Context, 'db' | 'actor' | 'caches' | 'config' | 'clock'>;

/** GET {SITE}/customization: members with a role. */
export async function getCustomization(ctx: Context, organizationId: string, siteId: string) {
  const { site, access } = await loadSite(ctx, organizationId, siteId);
  sitePolicy.authorize('access', access);
  return effectiveCustomization(site.customization);
}

/** PUT {SITE}/customization: replaces the customization (absent fields take their defaults). */
export async function updateCustomization(ctx: Context, organizationId: string, siteId: string, input: CustomizationInputValue) {
  return ctx.transaction(async (tctx) => {
    await loadSiteToManage(tctx, organizationId, siteId);
    const now = isoNow(ctx.clock);
    const stored = JSON.stringify({ ...input, updatedAt: now });
    const presented = effectiveCustomization(stored);
    // What is stored must read back: checked against the response shape before the write.
    assertWireShape(Customization, presented);
    await sitesRepository.update(tctx.db, siteId, { customization: stored, updated_at: now });
    return presented;
  });
}

async function loadSiteSpaceRow(ctx: Ctx, siteId: string, siteSpaceId: string) {
  const row = (await siteSpacesRepository.list(ctx.db, siteId)).find((s) => s.id === siteSpaceId);
  if (!row) throw notFound('Site space');
  return row;
}

/** The site space's effective customization (the API's and the reader's: site-customization.ts), and whether it overrides anything. */
function siteSpaceCustomization(site: SiteRow, row: SiteSpaceRow): CustomizationWire & { hasOverrides: boolean } {
  return { ...effectiveCustomization(site.customization, row.customization), hasOverrides: Object.keys(parseCustomization(row.customization)).length > 0 };
}

/** GET {SITE}/site-spaces/{id}/customization: the site's customization with the site space's overrides. */
export async function getSiteSpaceCustomization(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string) {
  const { site, access } = await loadSite(ctx, organizationId, siteId);
  sitePolicy.authorize('access', access);
  return siteSpaceCustomization(site, await loadSiteSpaceRow(ctx, siteId, siteSpaceId));
}

/** PATCH {SITE}/site-spaces/{id}/customization: merges overrides; null resets one. */
export async function overrideSiteSpaceCustomization(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string, input: CustomizationInputValue) {
  return ctx.transaction(async (tctx) => {
    const { site } = await loadSiteToManage(tctx, organizationId, siteId);
    const row = await loadSiteSpaceRow(tctx, siteId, siteSpaceId);
    const overrides = pruneEmptyOverrides(mergeCustomization(parseCustomization(row.customization), input));
    row.customization = JSON.stringify(overrides);
    const presented = siteSpaceCustomization(site, row);
    // What is stored must read back: checked against the response shape before the write.
    assertWireShape(SiteSpaceCustomization, presented);
    await siteSpacesRepository.update(tctx.db, siteId, siteSpaceId, { customization: row.customization });
    await sitesRepository.touch(tctx.db, siteId, isoNow(ctx.clock));
    return presented;
  });
}

/** DELETE {SITE}/site-spaces/{id}/customization: drops every override; 204 also when the site space is absent. */
export async function deleteSiteSpaceCustomization(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string) {
  await ctx.transaction(async (tctx) => {
    await loadSiteToManage(tctx, organizationId, siteId);
    await siteSpacesRepository.update(tctx.db, siteId, siteSpaceId, { customization: '{}' });
  });
}
