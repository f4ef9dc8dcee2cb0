import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import { paginate, type KeysetColumn, type PageRequest } from '../../db/keyset.ts';
import type { Database, MembersTable, RoleName } from '../../db/types.ts';
import type { TeamRowWithCounts } from '../teams/teams.presenter.ts';

export type MemberRow = MembersTable;

/** A membership with its user and the count of the member's teams in the organization. */
export type MemberView = MemberRow & {
  display_name: string;
  email: string;
  photo_url: string | null;
  teams: number;
};

/** A team the member belongs to, with the member's role and the caller's role in it. */
export type MemberTeamRow = TeamRowWithCounts & {
  member_role: 'owner' | 'member';
  caller_role: 'owner' | 'member' | null;
};

export interface MemberListFilters {
  /** A role, or 'guest' for members without one. */
  role?: RoleName | 'guest';
  search?: string;
  sort: 'joinedAt' | 'lastSeenAt' | 'name';
  order: 'asc' | 'desc';
}

/** `value` as a LIKE pattern matching it anywhere, with LIKE's wildcards taken literally. */
function containsPattern(value: string): string {
  return `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `lower(column) LIKE pattern`; ESCAPE is explicit because SQLite has no default escape. */
function lowerLike(eb: ExpressionBuilder<any, any>, column: string, pattern: string) {
  return sql<boolean>`lower(${eb.ref(column)}) like ${pattern} escape '\\'`;
}

// Counted per row by the database (index team_members_member), never in a JS loop.
const teamCount = (eb: ExpressionBuilder<Database, 'members'>) =>
  eb
    .selectFrom('team_members as tm')
    .select((sub) => sub.fn.countAll<number>().as('n'))
    .whereRef('tm.organization_id', '=', 'members.organization_id')
    .whereRef('tm.user_id', '=', 'members.user_id')
    .as('teams');

function selectMembers(db: Db) {
  return db
    .selectFrom('members')
    .innerJoin('users as u', 'u.id', 'members.user_id')
    .selectAll('members')
    .select(['u.display_name', 'u.email', 'u.photo_url', teamCount]);
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

  /** Inserts the membership unless the user already has one; true when inserted. */
  async insertIfAbsent(db: Db, row: MemberRow): Promise<boolean> {
    const inserted = await db
      .insertInto('members')
      .values(row)
      .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    return inserted !== undefined;
  },

  /** One member with user and team count, or undefined when the user is not a member. */
  find(db: Db, organizationId: string, userId: string): Promise<MemberView | undefined> {
    return selectMembers(db)
      .where('members.organization_id', '=', organizationId)
      .where('members.user_id', '=', userId)
      .executeTakeFirst() as Promise<MemberView | undefined>;
  },

  /** A page of the organization's members, filtered and sorted in SQL. */
  list(db: Db, organizationId: string, filters: MemberListFilters, page: PageRequest) {
    let query = selectMembers(db).where('members.organization_id', '=', organizationId);
    if (filters.role === 'guest') query = query.where('members.role', 'is', null);
    else if (filters.role) query = query.where('members.role', '=', filters.role);
    if (filters.sort === 'lastSeenAt') query = query.where('members.last_seen_at', 'is not', null);
    if (filters.search) {
      const pattern = containsPattern(filters.search);
      query = query.where((eb) => eb.or([lowerLike(eb, 'u.display_name', pattern), lowerLike(eb, 'u.email', pattern)]));
    }
    const [ref, field] = SORT_COLUMNS[filters.sort];
    const columns: KeysetColumn[] = [
      { ref, field, dir: filters.order },
      { ref: 'members.user_id', field: 'user_id', dir: filters.order },
    ];
    return paginate(query, columns, page) as Promise<Awaited<ReturnType<typeof paginate>> & { items: MemberView[] }>;
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

  /**
   * A page of the teams `userId` belongs to in the organization, by title then id, with
   * each team's member count and the caller's own role in it (for its permissions).
   */
  listTeams(db: Db, organizationId: string, userId: string, callerId: string, title: string | undefined, page: PageRequest) {
    let query = db
      .selectFrom('team_members as tm')
      .innerJoin('teams as t', 't.id', 'tm.team_id')
      .select(['t.id', 't.organization_id', 't.title', 't.created_at', 'tm.role as member_role'])
      .select((eb) => [
        eb
          .selectFrom('team_members as c')
          .select((sub) => sub.fn.countAll<number>().as('n'))
          .whereRef('c.team_id', '=', 't.id')
          .as('members'),
        // Spaces arrive with a later module; until then no team has access to any.
        sql<number>`0`.as('spaces'),
        eb
          .selectFrom('team_members as me')
          .select('me.role')
          .whereRef('me.team_id', '=', 't.id')
          .where('me.user_id', '=', callerId)
          .as('caller_role'),
      ])
      .where('tm.organization_id', '=', organizationId)
      .where('tm.user_id', '=', userId);
    if (title) {
      const pattern = containsPattern(title);
      query = query.where((eb) => lowerLike(eb, 't.title', pattern));
    }
    return paginate(
      query,
      [
        { ref: 't.title', field: 'title', dir: 'asc' },
        { ref: 't.id', field: 'id', dir: 'asc' },
      ],
      page,
    ) as Promise<Awaited<ReturnType<typeof paginate>> & { items: MemberTeamRow[] }>;
  },
};
