import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import { keysetOf, paginate, type Page, type PageRequest } from '../../lib/pagination/index.ts';
import { lowerContains } from '../../db/like.ts';
import { preparedQuery } from '../../db/prepared.ts';
import type { Database, TeamMembersTable, TeamsTable } from '../../db/types.ts';
import { withMemberColumns, type MemberView } from '../members/members.repository.ts';

export type TeamRow = TeamsTable;

/** A team row with its counts, as every team query selects it. */
export interface TeamRowWithCounts {
  id: string;
  organization_id: string;
  title: string;
  created_at: string;
  members: number;
  spaces: number;
}
export type TeamRole = TeamMembersTable['role'];

/** A team with its counts and the caller's role in it (for its permissions). */
export type TeamView = TeamRowWithCounts & { caller_role: TeamRole | null };

/** A team a member belongs to, with the member's role in it. */
export type MemberTeamView = TeamView & { member_role: TeamRole };

/** A member of a team: the organization membership with user fields, and the team role. */
export type TeamMemberView = MemberView & { team_role: TeamRole; added_at: string };

/** An organization member found by user id or email. */
export interface MemberReference {
  user_id: string;
  email: string;
}

type TeamsEb = ExpressionBuilder<Database & { t: TeamsTable }, 't'>;

/** Selects a team with its member count and the caller's role, each one indexed lookup. */
/** Teams with their counts and the caller's role: the Team row every team query selects (grant lists too). */
export function selectTeams(db: Db, callerId: string) {
  return db
    .selectFrom('teams as t')
    .select(['t.id', 't.organization_id', 't.title', 't.created_at'])
    .select((eb) => [
      eb
        .selectFrom('team_members as c')
        .select((sub) => sub.fn.countAll<number>().as('n'))
        .whereRef('c.team_id', '=', 't.id')
        .as('members'),
      // Non-deleted spaces the team holds a grant on (index content_permissions_principal).
      eb
        .selectFrom('content_permissions as g')
        .innerJoin('spaces as s', 's.id', 'g.target_id')
        .select((sub) => sub.fn.countAll<number>().as('n'))
        .whereRef('g.principal_id', '=', 't.id')
        .where('g.target_type', '=', 'space')
        .where('g.principal_type', '=', 'team')
        .whereRef('s.organization_id', '=', 't.organization_id')
        .where('s.deleted_at', 'is', null)
        .as('spaces'),
      eb
        .selectFrom('team_members as me')
        .select('me.role')
        .whereRef('me.team_id', '=', 't.id')
        .where('me.user_id', '=', callerId)
        .as('caller_role'),
    ]);
}

/**
 * Teams `userId` can manage: all of them for an active admin, else those they own
 * (teamPolicy `admin`, in SQL so the list filters before it paginates). Guests and
 * disabled members manage none.
 */
function managedBy(eb: TeamsEb, userId: string) {
  return eb.exists(
    eb
      .selectFrom('members as om')
      .select(sql`1`.as('one'))
      .whereRef('om.organization_id', '=', 't.organization_id')
      .where('om.user_id', '=', userId)
      .where('om.disabled', '=', 0)
      .where((w) =>
        w.or([
          w('om.role', '=', 'admin'),
          w.and([
            w('om.role', 'is not', null),
            w.exists(
              w
                .selectFrom('team_members as ow')
                .select(sql`1`.as('one'))
                .whereRef('ow.team_id', '=', 't.id')
                .where('ow.user_id', '=', userId)
                .where('ow.role', '=', 'owner'),
            ),
          ]),
        ]),
      ),
  );
}

// The benchmarked hot path (GET team): compiled once, only its parameters bound per call.
const findTeam = preparedQuery((db: Db, p: { team: string; organization: string; caller: string }) =>
  selectTeams(db, p.caller).where('t.id', '=', p.team).where('t.organization_id', '=', p.organization),
);

/** Queries on teams and their memberships. */
export const teamsRepository = {
  /** One team of the organization, by primary key, with counts and the caller's role. */
  async find(db: Db, organizationId: string, teamId: string, callerId: string): Promise<TeamView | undefined> {
    const [team] = await findTeam(db, { team: teamId, organization: organizationId, caller: callerId });
    return team as TeamView | undefined;
  },


  /** A page of the organization's teams, oldest first, filtered in SQL. */
  list(
    db: Db,
    organizationId: string,
    callerId: string,
    filters: { owner?: string; title?: string },
    page: PageRequest,
  ): Promise<Page<TeamView>> {
    let query = selectTeams(db, callerId).where('t.organization_id', '=', organizationId);
    if (filters.title) {
      const title = filters.title;
      query = query.where((eb) => lowerContains(eb, 't.title', title));
    }
    if (filters.owner) {
      const owner = filters.owner;
      query = query.where((eb) => managedBy(eb as unknown as TeamsEb, owner));
    }
    return paginate(
      query,
      keysetOf('asc', 't.created_at', 't.id'),
      page,
    ) as Promise<Page<TeamView>>;
  },

  async insert(db: Db, row: TeamRow): Promise<void> {
    await db.insertInto('teams').values(row).execute();
  },

  async updateTitle(db: Db, organizationId: string, teamId: string, title: string): Promise<void> {
    await db.updateTable('teams').set({ title }).where('id', '=', teamId).where('organization_id', '=', organizationId).execute();
  },

  /** Deletes the team; its memberships go with it (foreign key cascade). */
  async delete(db: Db, organizationId: string, teamId: string): Promise<void> {
    await db.deleteFrom('teams').where('id', '=', teamId).where('organization_id', '=', organizationId).execute();
  },

  /** Members of the organization among these user ids and (lower-cased) emails. */
  findMembers(db: Db, organizationId: string, userIds: string[], emails: string[]): Promise<MemberReference[]> {
    if (userIds.length === 0 && emails.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'u.email'])
      .where('m.organization_id', '=', organizationId)
      .where((eb) => {
        const matches = [];
        if (userIds.length > 0) matches.push(eb('m.user_id', 'in', userIds));
        if (emails.length > 0) matches.push(eb('u.email', 'in', emails));
        return eb.or(matches);
      })
      .execute();
  },

  /** Puts users in the team with `role`; users already in it keep their role. */
  async addMembers(db: Db, organizationId: string, teamId: string, userIds: string[], role: TeamRole, at: string): Promise<void> {
    if (userIds.length === 0) return;
    await db
      .insertInto('team_members')
      .values(userIds.map((user_id) => ({ team_id: teamId, organization_id: organizationId, user_id, role, added_at: at })))
      .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
      .execute();
  },

  /** Puts a user in the team with `role`, or changes their role when already in it. */
  async upsertMember(db: Db, organizationId: string, teamId: string, userId: string, role: TeamRole, at: string): Promise<void> {
    await db
      .insertInto('team_members')
      .values({ team_id: teamId, organization_id: organizationId, user_id: userId, role, added_at: at })
      .onConflict((oc) => oc.columns(['team_id', 'user_id']).doUpdateSet({ role }))
      .execute();
  },

  async removeMembers(db: Db, teamId: string, userIds: string[]): Promise<void> {
    if (userIds.length === 0) return;
    await db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', 'in', userIds).execute();
  },

  /** A page of the team's members in the order they were added, with user fields and team counts. */
  listMembers(db: Db, teamId: string, page: PageRequest): Promise<Page<TeamMemberView>> {
    const query = withMemberColumns(
      db
        .selectFrom('members')
        .innerJoin('team_members as tm', (join) =>
          join.onRef('tm.organization_id', '=', 'members.organization_id').onRef('tm.user_id', '=', 'members.user_id'),
        )
        .select(['tm.role as team_role', 'tm.added_at'])
        .where('tm.team_id', '=', teamId),
    );
    return paginate(
      query,
      keysetOf('asc', 'tm.added_at', 'tm.user_id'),
      page,
    ) as Promise<Page<TeamMemberView>>;
  },

  /** A page of the teams `userId` belongs to, by title then id, with counts and the caller's role. */
  listForMember(
    db: Db,
    organizationId: string,
    userId: string,
    callerId: string,
    title: string | undefined,
    page: PageRequest,
  ): Promise<Page<MemberTeamView>> {
    let query = selectTeams(db, callerId)
      .innerJoin('team_members as tm', 'tm.team_id', 't.id')
      .select('tm.role as member_role')
      .where('tm.organization_id', '=', organizationId)
      .where('tm.user_id', '=', userId);
    if (title) query = query.where((eb) => lowerContains(eb, 't.title', title));
    return paginate(
      query,
      keysetOf('asc', 't.title', 't.id'),
      page,
    ) as Promise<Page<MemberTeamView>>;
  },
};
