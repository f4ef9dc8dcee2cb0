import { Ajv, type ValidateFunction } from 'ajv';
import type { Context } from '../../context.ts';
import { badRequest, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { unsignedClaims } from './site-conditions.ts';
import { sitePolicy } from './sites.policy.ts';
import { sitesRepository } from './sites.repository.ts';
import { ADAPTIVE_SCHEMA_SHAPE } from './sites.schemas.ts';
import { loadSite, loadSiteToManage } from '../../access/index.ts';

/* A site's adaptive schema (spec 2.9): the claims visitors carry, and the template conditions made from them. */

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
  return ctx.transaction(async (tctx) => {
    await loadSiteToManage(tctx, organizationId, siteId);
    const now = isoNow(ctx.clock);
    await sitesRepository.update(tctx.db, siteId, { adaptive_schema: JSON.stringify(schema), adaptive_schema_updated_at: now, updated_at: now });
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
