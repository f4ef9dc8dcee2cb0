import { claimPaths, parseCondition } from '../../content/conditions.ts';
import { badRequest } from '../../errors.ts';
import type { SiteRow } from './sites.repository.ts';

/* Adaptive-content conditions of sections and site spaces (spec 2.10), checked against the site's adaptive schema. Pure. */

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


/** The unsigned claims an adaptive schema declares, by name. */
export function unsignedClaims(schema: { properties?: { unsigned?: { properties?: Record<string, unknown> } } }): Map<string, { description?: string }> {
  return new Map(Object.entries(schema.properties?.unsigned?.properties ?? {}) as [string, { description?: string }][]);
}
