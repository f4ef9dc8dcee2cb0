import type { Db } from '../../db/database.ts';
import { specModel, type SpecModel } from '../../content/openapi/view.ts';
import { LruCache } from '../../content/store/snapshot.ts';
import { openapiSpecsRepository as repo } from './openapi-specs.repository.ts';

/*
 * What content's references to OpenAPI specs resolve to: the models a page renders
 * (content reads, published sites, PDF) and which slugs exist (broken-link checks).
 * Reads only, with no access check: the caller has already loaded the space.
 */

/** Spec models by version id: a version never changes, so an entry is never stale. */
const models = new LruCache<SpecModel>(64);

export interface SpecsForPage {
  /** `slug=versionId;...`: part of the rendered page's cache key, so a new version shows at once. */
  key: string;
  /** The model of each slug's latest version; null when the spec is missing or never processed. */
  model(slug: string): SpecModel | null;
}

/**
 * The latest versions of the specs a page names, for rendering (published sites, PDF).
 * One query for the version ids; the models are parsed once per version.
 */
export async function specsForPage(db: Db, spaceId: string, slugs: string[]): Promise<SpecsForPage> {
  const wanted = [...new Set(slugs)].sort();
  if (wanted.length === 0) return { key: '', model: () => null };
  const rows = await repo.latestVersionsForSpace(db, spaceId, wanted);
  const versionOf = new Map(rows.map((r) => [r.slug, r.version_id]));
  const loaded = new Map<string, SpecModel>();
  for (const [slug, versionId] of versionOf) {
    if (!versionId) continue;
    let model = models.get(versionId);
    if (!model) {
      const row = await repo.versionFilesystem(db, versionId);
      if (!row) continue;
      model = specModel(JSON.parse(row.filesystem));
      models.set(versionId, model);
    }
    loaded.set(slug, model);
  }
  return { key: wanted.map((slug) => `${slug}=${versionOf.get(slug) ?? ''}`).join(';'), model: (slug) => loaded.get(slug) ?? null };
}

/** Which of `slugs` the organization has (a reference to any other is broken). */
export async function existingSpecSlugs(db: Db, organizationId: string, slugs: string[]): Promise<Set<string>> {
  if (slugs.length === 0) return new Set();
  return new Set((await repo.existingSlugs(db, organizationId, [...new Set(slugs)])).map((r) => r.slug));
}
