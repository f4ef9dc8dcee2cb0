import type { Db } from '../../db/database.ts';
import { keysetOf, paginate, type Page, type PageRequest } from '../../lib/pagination/index.ts';
import type { SamlProvidersTable } from '../../db/types.ts';
import { selectTeams, type TeamView } from '../teams/teams.repository.ts';

export type SamlProviderRow = SamlProvidersTable;

/** Queries of SAML providers (and the default teams they name). */
export const samlProvidersRepository = {
  async list(db: Db, organizationId: string, page: PageRequest): Promise<Page<SamlProviderRow>> {
    const query = db.selectFrom('saml_providers as p').selectAll('p').where('p.organization_id', '=', organizationId);
    return paginate(
      query,
      keysetOf('asc', 'p.created_at', 'p.id'),
      page,
    ) as Promise<Page<SamlProviderRow>>;
  },

  /** Every provider of the organization (the sign-in listing), oldest first. */
  async listAll(db: Db, organizationId: string): Promise<SamlProviderRow[]> {
    return db
      .selectFrom('saml_providers')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },

  async find(db: Db, organizationId: string, providerId: string): Promise<SamlProviderRow | undefined> {
    return db
      .selectFrom('saml_providers')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', providerId)
      .executeTakeFirst();
  },

  /** A provider by id alone (the sign-in endpoints know no organization). */
  async findById(db: Db, providerId: string): Promise<SamlProviderRow | undefined> {
    return db.selectFrom('saml_providers').selectAll().where('id', '=', providerId).executeTakeFirst();
  },

  async insert(db: Db, row: SamlProviderRow): Promise<void> {
    await db.insertInto('saml_providers').values(row).execute();
  },

  async update(
    db: Db,
    organizationId: string,
    providerId: string,
    changes: Partial<Omit<SamlProviderRow, 'id' | 'organization_id' | 'created_at'>>,
  ): Promise<void> {
    await db
      .updateTable('saml_providers')
      .set(changes)
      .where('organization_id', '=', organizationId)
      .where('id', '=', providerId)
      .execute();
  },

  async delete(db: Db, organizationId: string, providerId: string): Promise<void> {
    await db.deleteFrom('saml_providers').where('organization_id', '=', organizationId).where('id', '=', providerId).execute();
  },

  /** The organization's teams among these ids, with counts and the caller's role. */
  async teams(db: Db, organizationId: string, teamIds: (string | null)[], callerId: string): Promise<TeamView[]> {
    const ids = [...new Set(teamIds.filter((id): id is string => id !== null))];
    if (ids.length === 0) return [];
    return (await selectTeams(db, callerId).where('t.organization_id', '=', organizationId).where('t.id', 'in', ids).execute()) as TeamView[];
  },

  async organizationExists(db: Db, organizationId: string): Promise<boolean> {
    return (await db.selectFrom('organizations').select('id').where('id', '=', organizationId).executeTakeFirst()) !== undefined;
  },
};
