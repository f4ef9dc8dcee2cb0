import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { keysetOf, paginate, type Page, type PageRequest } from '../lib/pagination/index.ts';
import { preparedQuery } from '../db/prepared.ts';
import type { ChangeRequestsTable, CollectionsTable, ContentPermissionsTable, Database, DefaultLevel, OrganizationsTable, RoleName, SessionsTable, SitesTable, SpacesTable } from '../db/types.ts';
import { ROLE_RANK, ROLES } from '../policies/index.ts';
import type { AccessTarget } from './effective-role.ts';

/*
 * The queries that decide access: the caller's membership, the grants they hold, the
 * collections above a piece of content, and the rows a loader checks (an organization, a
 * live space, a change request, a docs site, a browser session). Modules' repositories reuse these rather than write
 * their own (spaces.repository.findActive, change-requests.repository.find).
 */

/** An organization with the caller's membership in it (null fields when not a member). */
export type OrganizationWithAccess = Selectable<OrganizationsTable> & {
  member_role: RoleName | null;
  member_user_id: string | null;
  member_disabled: number | null;
  /** 1 when the caller owns at least one team of the organization. */
  owns_team: number;
};

/** The caller's membership columns, from a join of `members as m`. */
export const CALLER_MEMBERSHIP = ['m.role as member_role', 'm.user_id as member_user_id', 'm.disabled as member_disabled'] as const;

/** 1 when `userId` owns a team of the organization `o`, else 0 (for the ownTeam permission). */
export function ownsTeam(eb: ExpressionBuilder<any, any>, userId: string) {
  return eb
    .case()
    .when(
      eb.exists(
        eb
          .selectFrom('team_members as owned')
          .select('owned.team_id')
          .whereRef('owned.organization_id', '=', 'o.id')
          .where('owned.user_id', '=', userId)
          .where('owned.role', '=', 'owner'),
      ),
    )
    .then(1)
    .else(0)
    .end()
    .as('owns_team');
}

// The reads in front of every org-scoped and space-scoped request: compiled once, only
// their parameters bound per call.
const findWithMembership = preparedQuery((db: Db, p: { organizationId: string; userId: string }) =>
  db
    .selectFrom('organizations as o')
    .leftJoin('members as m', (join) => join.onRef('m.organization_id', '=', 'o.id').on('m.user_id', '=', p.userId))
    .selectAll('o')
    .select(CALLER_MEMBERSHIP)
    .select((eb) => ownsTeam(eb, p.userId))
    .where('o.id', '=', p.organizationId),
);

const findActiveMembership = preparedQuery((db: Db, p: { organizationId: string; userId: string }) =>
  db.selectFrom('members').select('role').where('organization_id', '=', p.organizationId).where('user_id', '=', p.userId).where('disabled', '=', 0),
);

const findLiveSpace = preparedQuery((db: Db, p: { id: string }) => db.selectFrom('spaces').selectAll().where('id', '=', p.id).where('deleted_at', 'is', null));

/** Grants `g` held by the user: given to them, or to a team of theirs in the organization. */
function heldBy(eb: ExpressionBuilder<Database & { g: ContentPermissionsTable }, 'g'>, organizationId: string, userId: string) {
  return eb.or([
    eb.and([eb('g.principal_type', '=', 'user'), eb('g.principal_id', '=', userId)]),
    eb.and([
      eb('g.principal_type', '=', 'team'),
      eb('g.principal_id', 'in', eb.selectFrom('team_members as tm').select('tm.team_id').where('tm.user_id', '=', userId).where('tm.organization_id', '=', organizationId)),
    ]),
  ]);
}

/** Role name -> rank (ROLE_RANK), in SQL; 0 for anything else, null included. */
function rankOf(column: string) {
  const cases = ROLES.map((role) => sql`when ${sql.lit(role)} then ${sql.lit(ROLE_RANK[role])}`);
  return sql<number>`(case ${sql.ref(column)} ${sql.join(cases, sql` `)} else 0 end)`;
}

// Open comments of the change request, counted per row by the database (index comments_change_request).
export const openComments = (eb: ExpressionBuilder<Database & { cr: ChangeRequestsTable }, 'cr'>) =>
  eb
    .selectFrom('comments as oc')
    .select((sub) => sub.fn.countAll<number>().as('n'))
    .whereRef('oc.change_request_id', '=', 'cr.id')
    .where('oc.status', '=', 'open')
    .as('comments');

/** A change request with what its wire object needs from other tables. */
export type ChangeRequestView = ChangeRequestsTable & { space_revision_id: string | null; organization_id: string; comments?: number | string | null };

/** One collection on the way from a space (or collection) up to the organization root. */
export interface CollectionLink {
  id: string;
  parent_id: string | null;
  default_level: DefaultLevel;
  depth: number;
}

/** A member who can access a target, with their effective role as a rank (1 read .. 6 admin). */
export interface AccessView {
  user_id: string;
  joined_at: string;
  display_name: string;
  email: string;
  photo_url: string | null;
  rank: number;
}

/**
 * The SQL side of a list filter (access.ts contentScope) short of everything: what
 * effectiveRole gives a guest, spaces granted to them or inside a collection they reach,
 * and what visibility gives anyone (public, unlisted).
 */
export function spaceInScope(eb: ExpressionBuilder<Database, 'spaces'>, scope: { spaceIds: string[]; collectionIds: string[] }) {
  return eb.or([
    eb('visibility', 'in', ['public', 'unlisted']),
    ...(scope.spaceIds.length > 0 ? [eb('id', 'in', scope.spaceIds)] : []),
    ...(scope.collectionIds.length > 0 ? [eb('parent_id', 'in', scope.collectionIds)] : []),
  ]);
}

/** A site with the count of its site spaces (those whose space is live). */
export type SiteView = SitesTable & { site_spaces: number };

/** Sites `s` with their count of live site spaces (sites.repository lists with it too). */
export function selectSites(db: Db) {
  return db
    .selectFrom('sites as s')
    .selectAll('s')
    .select((eb) =>
      eb
        .selectFrom('site_spaces as c')
        .innerJoin('spaces as sp', 'sp.id', 'c.space_id')
        .select((sub) => sub.fn.countAll<number>().as('n'))
        .whereRef('c.site_id', '=', 's.id')
        .where('sp.deleted_at', 'is', null)
        .as('site_spaces'),
    );
}

/** The count arrives as text on PostgreSQL. */
export const normalizeSiteView = (row: SiteView): SiteView => ({ ...row, site_spaces: Number(row.site_spaces ?? 0) });

export const accessRepository = {
  /** Ids of the organization's live spaces in a list filter (contentScope). */
  async spaceIds(db: Db, organizationId: string, scope: { all: true } | { all: false; spaceIds: string[]; collectionIds: string[] }): Promise<string[]> {
    let query = db.selectFrom('spaces').select('id').where('organization_id', '=', organizationId).where('deleted_at', 'is', null);
    if (!scope.all) query = query.where((eb) => spaceInScope(eb, scope));
    return (await query.execute()).map((r) => r.id);
  },

  /** One query: the organization and the caller's membership, for every org-scoped request that needs the row. */
  /** One site of the organization, with its site space count (loadSite). */
  async findSite(db: Db, organizationId: string, siteId: string): Promise<SiteView | undefined> {
    const row = await selectSites(db).where('s.id', '=', siteId).where('s.organization_id', '=', organizationId).executeTakeFirst();
    return row ? normalizeSiteView(row as SiteView) : undefined;
  },

  /** Whether the site has an active share link with this key (a share-link site's visitors). */
  async activeShareKey(db: Db, siteId: string, key: string): Promise<boolean> {
    const row = await db
      .selectFrom('site_share_links')
      .select('id')
      .where('site_id', '=', siteId)
      .where('key', '=', key)
      .where('active', '=', 1)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** The browser session with this id hash when neither revoked nor expired at `now`. */
  async findActiveSession(db: Db, idHash: string, now: string): Promise<SessionsTable | undefined> {
    return db
      .selectFrom('sessions')
      .selectAll()
      .where('id_hash', '=', idHash)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  },

  async findWithMembership(db: Db, organizationId: string, userId: string): Promise<OrganizationWithAccess | undefined> {
    const [row] = await findWithMembership(db, { organizationId, userId });
    return row;
  },

  /** The user's role when they are an active member of the organization (one primary-key read). */
  async findActiveMembership(db: Db, organizationId: string, userId: string): Promise<{ role: RoleName | null } | undefined> {
    const [row] = await findActiveMembership(db, { organizationId, userId });
    return row;
  },

  /** A space that is not deleted. */
  async findLiveSpace(db: Db, spaceId: string): Promise<SpacesTable | undefined> {
    const [row] = await findLiveSpace(db, { id: spaceId });
    return row;
  },

  /** Live spaces, or collections, by id (those that exist), with every column. */
  async findTargets(db: Db, kind: 'space' | 'collection', ids: string[]): Promise<(SpacesTable | CollectionsTable)[]> {
    if (ids.length === 0) return [];
    if (kind === 'space') return db.selectFrom('spaces').selectAll().where('id', 'in', ids).where('deleted_at', 'is', null).execute();
    return db.selectFrom('collections').selectAll().where('id', 'in', ids).execute();
  },

  /** A space that is not deleted, or a collection, with the fields that decide access. */
  async findTarget(db: Db, kind: 'space' | 'collection', id: string): Promise<AccessTarget | undefined> {
    if (kind === 'space') {
      return db
        .selectFrom('spaces')
        .select(['id', 'organization_id', 'parent_id', 'default_level', 'visibility', 'share_key', 'edit_mode'])
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    }
    return db.selectFrom('collections').select(['id', 'organization_id', 'parent_id', 'default_level']).where('id', '=', id).executeTakeFirst();
  },

  /** A change request of the space by id or number, with its space's revision and organization. */
  findChangeRequest(db: Db, spaceId: string, idOrNumber: string): Promise<ChangeRequestView | undefined> {
    let query = db
      .selectFrom('change_requests as cr')
      .innerJoin('spaces as s', 's.id', 'cr.space_id')
      .selectAll('cr')
      .select(['s.revision_id as space_revision_id', 's.organization_id', openComments])
      .where('cr.space_id', '=', spaceId);
    query = /^\d{1,9}$/.test(idOrNumber)
      ? query.where((eb) => eb.or([eb('cr.number', '=', Number(idOrNumber)), eb('cr.id', '=', idOrNumber)]))
      : query.where('cr.id', '=', idOrNumber);
    return query.executeTakeFirst();
  },

  /**
   * The collection `collectionId` and its ancestors, nearest first (depth 0 is the
   * collection itself). One recursive query; both dialects support WITH RECURSIVE.
   */
  async collectionChain(db: Db, collectionId: string | null): Promise<CollectionLink[]> {
    if (!collectionId) return [];
    const result = await sql<CollectionLink>`
      with recursive chain(id, parent_id, default_level, depth) as (
        select id, parent_id, default_level, 0 from collections where id = ${collectionId}
        union all
        select c.id, c.parent_id, c.default_level, chain.depth + 1
          from collections c join chain on c.id = chain.parent_id
          where chain.depth < 64
      )
      select id, parent_id, default_level, depth from chain order by depth`.execute(db);
    return result.rows.map((r) => ({ ...r, depth: Number(r.depth) }));
  },

  /** Roles given to the user, directly or through their teams, on any of these targets. */
  async rolesOn(db: Db, organizationId: string, userId: string, targetIds: string[]): Promise<{ target_id: string; role: RoleName }[]> {
    if (targetIds.length === 0) return [];
    return db
      .selectFrom('content_permissions as g')
      .select(['g.target_id', 'g.role'])
      .where('g.organization_id', '=', organizationId)
      .where('g.target_id', 'in', targetIds)
      .where((eb) => heldBy(eb, organizationId, userId))
      .execute();
  },

  /** Roles granted to the user (directly or through a team) on every space and collection of the organization. */
  rolesInOrganization(db: Db, organizationId: string, userId: string): Promise<{ target_id: string; role: RoleName }[]> {
    return db
      .selectFrom('content_permissions as g')
      .select(['g.target_id', 'g.role'])
      .where('g.organization_id', '=', organizationId)
      .where((eb) => heldBy(eb, organizationId, userId))
      .execute();
  },

  /** Every collection of the organization, as parent links (for walking trees in memory). */
  orgCollections(db: Db, organizationId: string): Promise<{ id: string; parent_id: string | null; default_level: DefaultLevel }[]> {
    return db.selectFrom('collections').select(['id', 'parent_id', 'default_level']).where('organization_id', '=', organizationId).execute();
  },

  /**
   * A page of the organization's active members who can access a target, with their
   * effective role as a rank: effectiveRole (effective-role.ts) written in SQL so the
   * `role` filter applies before paging: the highest of their organization role and the
   * target's effective defaultLevel (members with a role only), and every grant to them or
   * their teams on `grantTargets` (the target and the collections above it). Ranks come
   * from ROLE_RANK. Oldest member first.
   */
  listAccess(db: Db, organizationId: string, grantTargets: string[], defaultRank: number, onlyRank: number | undefined, page: PageRequest): Promise<Page<AccessView>> {
    const orgRank = rankOf('m.role');
    const inner = db
      .selectFrom('members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'm.joined_at', 'u.display_name', 'u.email', 'u.photo_url'])
      .select(sql<number>`(case when m.role is null then 0 when ${orgRank} > ${sql.lit(defaultRank)} then ${orgRank} else ${sql.lit(defaultRank)} end)`.as('org_rank'))
      .select((eb) =>
        eb
          .selectFrom('content_permissions as g')
          .select(sql<number>`max(${rankOf('g.role')})`.as('r'))
          .where('g.organization_id', '=', organizationId)
          .where('g.target_id', 'in', grantTargets)
          .where((w) =>
            w.or([
              w.and([w('g.principal_type', '=', 'user'), w('g.principal_id', '=', w.ref('m.user_id'))]),
              w.and([
                w('g.principal_type', '=', 'team'),
                w('g.principal_id', 'in', w.selectFrom('team_members as tm').select('tm.team_id').whereRef('tm.user_id', '=', 'm.user_id').where('tm.organization_id', '=', organizationId)),
              ]),
            ]),
          )
          .as('grant_rank'),
      )
      .where('m.organization_id', '=', organizationId)
      .where('m.disabled', '=', 0);
    const rank = sql<number>`(case when coalesce(a.grant_rank, 0) > a.org_rank then coalesce(a.grant_rank, 0) else a.org_rank end)`;
    let query = db.selectFrom(inner.as('a')).select(['a.user_id', 'a.joined_at', 'a.display_name', 'a.email', 'a.photo_url']).select(rank.as('rank')).where(rank, '>', 0);
    if (onlyRank !== undefined) query = query.where(rank, '=', onlyRank);
    return paginate(
      query,
      keysetOf('asc', 'a.joined_at', 'a.user_id'),
      page,
    ) as Promise<Page<AccessView>>;
  },
};
