import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { contains } from '../../db/like.ts';
import { accessRepository, CALLER_MEMBERSHIP, ownsTeam, type OrganizationWithAccess } from '../../access/access.repository.ts';
import { keysetOf, paginate, type PageRequest } from '../../lib/pagination/index.ts';
import type { AgentInstructionsTable, BootstrapTable, OrganizationsTable, VerifiedDomainsTable } from '../../db/types.ts';

export type OrganizationRow = Selectable<OrganizationsTable>;

export type { OrganizationWithAccess };

/** Queries on organizations and their agent instructions. */
export const organizationsRepository = {
  /** The organization and the caller's membership (the access layer's query). */
  findWithMembership: accessRepository.findWithMembership,

  /** The user's role when they are an active member of the organization (the access layer's query). */
  findActiveMembership: accessRepository.findActiveMembership,

  findById(db: Db, organizationId: string): Promise<OrganizationRow | undefined> {
    return db.selectFrom('organizations').selectAll().where('id', '=', organizationId).executeTakeFirst();
  },

  async insert(db: Db, row: OrganizationRow): Promise<void> {
    await db.insertInto('organizations').values(row).execute();
  },

  /** The founder's membership, made with the organization: an admin, not SSO, never seen yet. */
  async insertFounder(db: Db, organizationId: string, userId: string, joinedAt: string): Promise<void> {
    await db
      .insertInto('members')
      .values({ organization_id: organizationId, user_id: userId, role: 'admin', disabled: 0, sso: 0, joined_at: joinedAt, last_seen_at: null })
      .execute();
  },

  async update(db: Db, organizationId: string, changes: Partial<OrganizationRow>): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await db.updateTable('organizations').set(changes).where('id', '=', organizationId).execute();
  },

  /** Organizations the user is an active member of, oldest membership first. */
  listForUser(db: Db, userId: string, page: PageRequest) {
    const query = db
      .selectFrom('organizations as o')
      .innerJoin('members as m', 'm.organization_id', 'o.id')
      .selectAll('o')
      .select([...CALLER_MEMBERSHIP, 'm.joined_at'])
      .select((eb) => ownsTeam(eb, userId))
      .where('m.user_id', '=', userId)
      .where('m.disabled', '=', 0);
    return paginate(
      query,
      keysetOf('asc', 'm.joined_at', 'o.id'),
      page,
    );
  },

  /** Organizations listing `domain` among their email domains (stored as a JSON array). */
  listByEmailDomain(db: Db, domain: string, userId: string): Promise<OrganizationWithAccess[]> {
    return db
      .selectFrom('organizations as o')
      .leftJoin('members as m', (join) => join.onRef('m.organization_id', '=', 'o.id').on('m.user_id', '=', userId))
      .selectAll('o')
      .select(CALLER_MEMBERSHIP)
      .select((eb) => ownsTeam(eb, userId))
      .where(contains(sql.ref('o.email_domains'), JSON.stringify(domain)))
      .orderBy('o.created_at')
      .orderBy('o.id')
      .limit(100)
      .execute();
  },


  /** Whether another organization already uses this hostname. */
  async hostnameTaken(db: Db, hostname: string, exceptOrganizationId: string): Promise<boolean> {
    const row = await db
      .selectFrom('organizations')
      .select('id')
      .where('hostname', '=', hostname)
      .where('id', '!=', exceptOrganizationId)
      .executeTakeFirst();
    return row !== undefined;
  },

  findAgentInstructions(db: Db, organizationId: string): Promise<AgentInstructionsTable | undefined> {
    return db.selectFrom('agent_instructions').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();
  },

  /** Insert or replace the organization's agent instructions. */
  async upsertAgentInstructions(db: Db, row: AgentInstructionsTable): Promise<void> {
    await db
      .insertInto('agent_instructions')
      .values(row)
      .onConflict((oc) =>
        oc.column('organization_id').doUpdateSet({
          instructions: row.instructions,
          updated_at: row.updated_at,
          updated_by: row.updated_by,
        }),
      )
      .execute();
  },

  findBootstrap(db: Db): Promise<BootstrapTable | undefined> {
    return db.selectFrom('bootstrap').selectAll().where('id', '=', 1).executeTakeFirst();
  },

  /** Records the first-start bootstrap; false when another process already did. */
  async claimBootstrap(db: Db, row: BootstrapTable): Promise<boolean> {
    const inserted = await db
      .insertInto('bootstrap')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  },

  /** Every organization, oldest first (CLI). */
  listAll(db: Db): Promise<OrganizationRow[]> {
    return db.selectFrom('organizations').selectAll().orderBy('created_at').orderBy('id').execute();
  },

  /** Which of these users are members of the organization. */
  async memberUserIds(db: Db, organizationId: string, userIds: string[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    const rows = await db
      .selectFrom('members')
      .select('user_id')
      .where('organization_id', '=', organizationId)
      .where('user_id', 'in', userIds)
      .execute();
    return rows.map((r) => r.user_id);
  },

  /** The organization that verified an email domain, if any (one per domain). */
  verifiedDomain(db: Db, domain: string): Promise<VerifiedDomainsTable | undefined> {
    return db.selectFrom('verified_domains').selectAll().where('domain', '=', domain).executeTakeFirst();
  },

  /** Records a verified domain; a unique violation when another organization holds it. */
  async insertVerifiedDomain(db: Db, row: VerifiedDomainsTable): Promise<void> {
    await db.insertInto('verified_domains').values(row).execute();
  },

  listVerifiedDomains(db: Db, organizationId: string): Promise<VerifiedDomainsTable[]> {
    return db.selectFrom('verified_domains').selectAll().where('organization_id', '=', organizationId).orderBy('domain').execute();
  },
};
