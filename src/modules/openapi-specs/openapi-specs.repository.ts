import type { Db } from '../../db/database.ts';
import { keysetOf, paginate, type Page, type PageRequest } from '../../lib/pagination/index.ts';
import type { OpenAPISpecsTable, OpenAPISpecVersionsTable } from '../../db/types.ts';

export type SpecRow = OpenAPISpecsTable;
export type VersionRow = OpenAPISpecVersionsTable;
/** A version without its (large) documents, as listings show it. */
export type VersionHead = Pick<VersionRow, 'id' | 'spec_id' | 'created_at' | 'content_hash' | 'source_url' | 'format'>;
const HEAD_COLUMNS = ['id', 'spec_id', 'created_at', 'content_hash', 'source_url', 'format'] as const;

/** Queries on OpenAPI specs and their versions. */
export const openapiSpecsRepository = {
  findBySlug(db: Db, organizationId: string, slug: string): Promise<SpecRow | undefined> {
    return db.selectFrom('openapi_specs').selectAll().where('organization_id', '=', organizationId).where('slug', '=', slug).executeTakeFirst();
  },

  findById(db: Db, id: string): Promise<SpecRow | undefined> {
    return db.selectFrom('openapi_specs').selectAll().where('id', '=', id).executeTakeFirst();
  },

  list(db: Db, organizationId: string, page: PageRequest): Promise<Page<SpecRow>> {
    return paginate(
      db.selectFrom('openapi_specs').selectAll().where('organization_id', '=', organizationId),
      keysetOf('asc', 'slug', 'id'),
      page,
    ) as Promise<Page<SpecRow>>;
  },

  async insert(db: Db, row: SpecRow): Promise<void> {
    await db.insertInto('openapi_specs').values(row).execute();
  },

  async update(db: Db, id: string, changes: Partial<SpecRow>): Promise<void> {
    await db.updateTable('openapi_specs').set(changes).where('id', '=', id).execute();
  },

  async delete(db: Db, id: string): Promise<void> {
    await db.deleteFrom('openapi_spec_versions').where('spec_id', '=', id).execute();
    await db.deleteFrom('openapi_specs').where('id', '=', id).execute();
  },

  /** Specs fetched from a URL: the refresh schedule's work. */
  withSourceUrl(db: Db): Promise<Pick<SpecRow, 'id'>[]> {
    return db.selectFrom('openapi_specs').select('id').where('source_url', 'is not', null).orderBy('id').execute();
  },

  listVersions(db: Db, specId: string, page: PageRequest): Promise<Page<VersionHead>> {
    return paginate(
      db.selectFrom('openapi_spec_versions').select(HEAD_COLUMNS).where('spec_id', '=', specId),
      keysetOf('desc', 'created_at', 'id'),
      page,
    ) as Promise<Page<VersionHead>>;
  },

  findVersionHead(db: Db, specId: string, versionId: string): Promise<VersionHead | undefined> {
    return db.selectFrom('openapi_spec_versions').select(HEAD_COLUMNS).where('spec_id', '=', specId).where('id', '=', versionId).executeTakeFirst();
  },

  findVersion(db: Db, specId: string, versionId: string): Promise<VersionRow | undefined> {
    return db.selectFrom('openapi_spec_versions').selectAll().where('spec_id', '=', specId).where('id', '=', versionId).executeTakeFirst();
  },

  async insertVersion(db: Db, row: VersionRow): Promise<void> {
    await db.insertInto('openapi_spec_versions').values(row).execute();
  },

  /** The latest version id of each named spec of the space's organization (specs never processed are left out). */
  latestVersionsForSpace(db: Db, spaceId: string, slugs: string[]): Promise<{ slug: string; version_id: string | null }[]> {
    return db
      .selectFrom('openapi_specs as o')
      .innerJoin('spaces as s', 's.organization_id', 'o.organization_id')
      .select(['o.slug', 'o.last_version_id as version_id'])
      .where('s.id', '=', spaceId)
      .where('o.slug', 'in', slugs)
      .execute();
  },

  /** Whether the organization has each slug (the link report). */
  existingSlugs(db: Db, organizationId: string, slugs: string[]): Promise<{ slug: string }[]> {
    return db.selectFrom('openapi_specs').select('slug').where('organization_id', '=', organizationId).where('slug', 'in', slugs).execute();
  },

  versionFilesystem(db: Db, versionId: string): Promise<{ filesystem: string } | undefined> {
    return db.selectFrom('openapi_spec_versions').select('filesystem').where('id', '=', versionId).executeTakeFirst();
  },
};
