import type { Context } from '../../context.ts';
import { badRequest, notFound } from '../../errors.ts';
import { effectiveCustomization } from './site-customization.ts';
import { SiteStructure, type ArrangedStructure, type LevelPointer, type PlacedGroup, type PlacedSection, type PlacedSiteSpace } from './site-structure.ts';
import type { CustomizationWire, SortStructureInput } from './sites.schemas.ts';
import { loadSite } from '../../access/index.ts';
import { isoNow } from '../../lib/clock.ts';
import type { PublishedSiteResult, StructureItem } from './sites.model.ts';
import { siteResult } from './sites.service.ts';

/* A site's structure and published profile as the API reads them, and sortSiteStructure (the model: site-structure.ts). */


/** GET {SITE}/published: members (also before publishing), and visitors of the published site. */
export async function getPublished(ctx: Context, organizationId: string, siteId: string, shareKey?: string): Promise<PublishedSiteResult> {
  const { site, access } = await loadSite(ctx, organizationId, siteId, { visitor: true, shareKey });
  const structure = await SiteStructure.load(ctx, siteId);
  const customization = effectiveCustomization(site.customization);
  const siteSpaces: Record<string, CustomizationWire> = {};
  for (const row of structure.siteSpaces) {
    if (!structure.spaces.has(row.space_id)) continue;
    siteSpaces[row.id] = effectiveCustomization(site.customization, row.customization);
  }
  return { site: siteResult(site, access), structure: structure.arrange(site), customizations: { site: customization, siteSpaces } };
}

/** GET {SITE}/structure */
export async function getStructure(ctx: Context, organizationId: string, siteId: string, shareKey?: string): Promise<ArrangedStructure> {
  const { site } = await loadSite(ctx, organizationId, siteId, { visitor: true, shareKey });
  return (await SiteStructure.load(ctx, siteId)).arrange(site);
}

const POINTER_KIND = { 'site-section': 'section', 'site-section-group': 'group' } as const;

/**
 * PATCH {SITE}/structure/sort: moves a site space among site spaces, or a section or
 * group among sections and groups (spec 4.5: replaces the deprecated moves). Answers the
 * moved item.
 */
export async function sortStructure(
  ctx: Context,
  organizationId: string,
  siteId: string,
  input: SortStructureInput,
): Promise<StructureItem<PlacedSiteSpace | PlacedSection | PlacedGroup>> {
  return ctx.transaction(async (tctx) => {
    const { site, structure } = await SiteStructure.loadToManage(tctx, organizationId, siteId);
    const { item, position } = input;
    const pointers = [position?.before, position?.after].filter((p) => p !== undefined);
    if (item.type === 'site-external-link') throw notFound('External link');
    if (item.type === 'site-space') {
      if (!structure.siteSpace(item.id)) throw notFound('Site space');
      if (pointers.some((p) => p.type !== 'site-space')) throw badRequest('body/position: a site space moves among site spaces');
      structure.moveSiteSpaceNextTo(item.id, position && { before: position.before?.id, after: position.after?.id });
    } else {
      const kind = POINTER_KIND[item.type];
      if (!(kind === 'section' ? structure.section(item.id) : structure.group(item.id))) throw notFound(kind === 'section' ? 'Section' : 'Section group');
      if (pointers.some((p) => p.type !== 'site-section' && p.type !== 'site-section-group')) {
        throw badRequest('body/position: sections and groups move among sections and groups');
      }
      const toPointer = (p?: { type: string; id: string }): LevelPointer | undefined => (p ? { kind: POINTER_KIND[p.type as keyof typeof POINTER_KIND], id: p.id } : undefined);
      const current = structure.parentOf({ kind, id: item.id });
      structure.moveLevelItem({ kind, id: item.id }, position && { before: toPointer(position.before), after: toPointer(position.after) }, { parent: current });
    }
    await structure.saveChange(tctx.db, isoNow(ctx.clock));
    const arranged = structure.arrange(site);
    const moved = [...arranged.siteSpaces, ...arranged.sections, ...arranged.groups].find((o) => o.id === item.id && o.object === item.type);
    if (!moved) throw notFound('Item');
    return { site, item: moved };
  });
}
