import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import { paginate, type KeysetColumn, type Page, type PageRequest } from '../../lib/pagination/index.ts';
import { lowerContains } from '../../db/like.ts';
import type { Database, MembersTable, RoleName } from '../../db/types.ts';

export type MemberRow = MembersTable;

/** A membership with its user and the counts of the member's teams and directly granted spaces in the organization. */
export type MemberView = Omit<MemberRow, 'organization_id'> & {
  display_name: string;
  email: string;
  photo_url: string | null;
  teams: number;
  spaces: number;
};

export interface MemberListFilters {
  /** A role, or 'guest' for members without one. */
  role?: RoleName | 'guest';
  search?: string;
  sort: 'joinedAt' | 'lastSeenAt' | 'name';
  order: 'asc' | 'desc';
}

// Counted per row by the database (index team_members_member), never in a JS loop.
const teamCount = (eb: ExpressionBuilder<Database, 'members'>) =>
  eb
    .selectFrom('team_members as counted')
    .select((sub) => sub.fn.countAll<number>().as('n'))
    .whereRef('counted.organization_id', '=', 'members.organization_id')
    .whereRef('counted.user_id', '=', 'members.user_id')
    .as('teams');

// Non-deleted spaces of the organization the member holds a direct user grant on (index
// content_permissions_principal); team grants are not direct access.
const spaceCount = (eb: ExpressionBuilder<Database, 'members'>) =>
  eb
    .selectFrom('content_permissions as granted')
    .innerJoin('spaces as gs', 'gs.id', 'granted.target_id')
    .select((sub) => sub.fn.countAll<number>().as('n'))
    .whereRef('granted.principal_id', '=', 'members.user_id')
    .where('granted.target_type', '=', 'space')
    .where('granted.principal_type', '=', 'user')
    .whereRef('gs.organization_id', '=', 'members.organization_id')
    .where('gs.deleted_at', 'is', null)
    .as('spaces');

// Every column the Member object needs and no other: each value selected costs time to
// materialize, and a page has up to 1001 rows.
const MEMBER_COLUMNS = [
  'members.user_id',
  'members.role',
  'members.disabled',
  'members.sso',
  'members.joined_at',
  'members.last_seen_at',
] as const;

/**
 * Memberships (already filtered, possibly joined with more) with their user and team
 * count: the Member row. Shared with the team members list, which joins team_members.
 */
export function withMemberColumns<TB extends 'members', O>(memberships: SelectQueryBuilder<Database, TB, O>) {
  // The extra joined tables stay usable in SQL; typing sees only `members`.
  const query = memberships as unknown as SelectQueryBuilder<Database, 'members', O>;
  return query
    .innerJoin('users as u', 'u.id', 'members.user_id')
    .select(MEMBER_COLUMNS)
    .select(['u.display_name', 'u.email', 'u.photo_url', teamCount, spaceCount]);
}

// Every sort ends on the user id, unique within an organization, so pages never overlap.
const SORT_COLUMNS: Record<MemberListFilters['sort'], [string, string]> = {
  joinedAt: ['members.joined_at', 'joined_at'],
  lastSeenAt: ['members.last_seen_at', 'last_seen_at'],
  name: ['u.display_name', 'display_name'],
};

/** Queries on organization memberships. */
export const membersRepository = {
  async insert(db: Db, row: MemberRow): Promise<void> {
    await db.insertInto('members').values(row).execute();
  },

  /**
   * Inserts the memberships users do not have yet; existing ones stay as they are, also
   * under concurrent inserts. Returns the user ids actually added.
   */
  async insertIfAbsent(db: Db, rows: MemberRow[]): Promise<string[]> {
    if (rows.length === 0) return [];
    const inserted = await db
      .insertInto('members')
      .values(rows)
      .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
      .returning('user_id')
      .execute();
    return inserted.map((r) => r.user_id);
  },

  /** One member with user and team count, or undefined when the user is not a member. */
  find(db: Db, organizationId: string, userId: string): Promise<MemberView | undefined> {
    return withMemberColumns(
      db.selectFrom('members').where('members.organization_id', '=', organizationId).where('members.user_id', '=', userId),
    ).executeTakeFirst() as Promise<MemberView | undefined>;
  },

  /** A page of the organization's members, filtered and sorted in SQL. */
  list(db: Db, organizationId: string, filters: MemberListFilters, page: PageRequest) {
    let memberships = db.selectFrom('members').where('members.organization_id', '=', organizationId);
    if (filters.role === 'guest') memberships = memberships.where('members.role', 'is', null);
    else if (filters.role) memberships = memberships.where('members.role', '=', filters.role);
    if (filters.sort === 'lastSeenAt') memberships = memberships.where('members.last_seen_at', 'is not', null);
    let query = withMemberColumns(memberships);
    if (filters.search) {
      const search = filters.search;
      query = query.where((eb) => eb.or([lowerContains(eb, 'u.display_name', search), lowerContains(eb, 'u.email', search)]));
    }
    const [ref, field] = SORT_COLUMNS[filters.sort];
    const columns: KeysetColumn[] = [
      { ref, field, dir: filters.order },
      { ref: 'members.user_id', field: 'user_id', dir: filters.order },
    ];
    // Only a search needs the users table to count; otherwise the members index alone answers.
    return paginate(query, columns, page, filters.search ? undefined : memberships) as Promise<Page<MemberView>>;
  },

  /**
   * Takes the organization's row lock until the transaction ends, so concurrent role
   * changes and removals of one organization run one after another and cannot together
   * remove its last admin. (A no-op UPDATE locks on both dialects without dialect SQL.)
   */
  async lockOrganization(db: Db, organizationId: string): Promise<void> {
    await db
      .updateTable('organizations')
      .set((eb) => ({ title: eb.ref('title') }))
      .where('id', '=', organizationId)
      .execute();
  },

  /** Active admins of the organization other than `exceptUserId`. */
  async countOtherAdmins(db: Db, organizationId: string, exceptUserId: string): Promise<number> {
    const row = await db
      .selectFrom('members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', organizationId)
      .where('user_id', '!=', exceptUserId)
      .where('role', '=', 'admin')
      .where('disabled', '=', 0)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },

  async update(db: Db, organizationId: string, userId: string, changes: Partial<Pick<MemberRow, 'role' | 'sso' | 'last_seen_at'>>): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await db
      .updateTable('members')
      .set(changes)
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .execute();
  },

  /** Removes the membership; team memberships go with it (foreign key cascade). */
  async delete(db: Db, organizationId: string, userId: string): Promise<void> {
    await db.deleteFrom('members').where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
  },
};
