import type { Db } from '../../src/db/database.ts';
import { isoNow, ManualClock } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import type { RoleName } from '../../src/db/types.ts';
import { membersRepository } from '../../src/modules/members/members.repository.ts';
import { organizationsRepository } from '../../src/modules/organizations/organizations.repository.ts';
import { createOrganizationWithAdmin } from '../../src/modules/organizations/organizations.service.ts';
import { usersRepository } from '../../src/modules/users/users.repository.ts';
import { buildUserRow } from '../../src/modules/users/users.service.ts';
import { issueToken } from '../../src/modules/users/users.tokens.ts';
import { defineSuite } from '../harness.ts';

export const MEMBERS = 500;
export const TEAMS = 50;
export const MEMBERS_PER_TEAM = 5;

// Most members of a real organization read; a few write or administer.
const ROLES: RoleName[] = ['read', 'read', 'read', 'comment', 'edit', 'edit', 'review', 'create', 'read', 'admin'];

interface OrganizationSeed {
  organizationId: string;
  teamId: string;
  token: string;
}

/**
 * Seeds the organization as a fresh install would have it (the admin is the bootstrap
 * admin, so the server creates no second organization), with the app's own code for
 * users, memberships and the token; teams are inserted directly.
 */
async function seedOrganization(db: Db): Promise<OrganizationSeed> {
  // A clock that ticks one second per row gives distinct, ordered timestamps.
  const clock = new ManualClock('2026-01-05T09:00:00.000Z');
  const tick = () => {
    clock.advance(1000);
    return clock;
  };
  return db.transaction().execute(async (trx) => {
    const admin = buildUserRow(tick(), { email: 'admin@bench.quire.test', displayName: 'Bench Admin', emailVerified: true });
    await usersRepository.insert(trx, admin);
    const organization = await createOrganizationWithAdmin(trx, tick(), { title: 'Bench Organization' }, admin.id);
    await organizationsRepository.claimBootstrap(trx, {
      id: 1,
      organization_id: organization.id,
      user_id: admin.id,
      created_at: isoNow(clock),
    });
    const { token } = await issueToken(trx, tick(), admin.id, 'bench');

    const userIds = [admin.id];
    for (let i = 1; i < MEMBERS; i++) {
      const user = buildUserRow(tick(), {
        email: `member${String(i).padStart(3, '0')}@bench.quire.test`,
        displayName: `Member ${String(i).padStart(3, '0')}`,
        emailVerified: true,
      });
      await usersRepository.insert(trx, user);
      await membersRepository.insert(trx, {
        organization_id: organization.id,
        user_id: user.id,
        role: ROLES[i % ROLES.length],
        disabled: 0,
        sso: 0,
        joined_at: isoNow(clock),
        last_seen_at: i % 3 === 0 ? null : isoNow(clock),
      });
      userIds.push(user.id);
    }

    const teamIds: string[] = [];
    for (let t = 0; t < TEAMS; t++) {
      const teamId = newId();
      const createdAt = isoNow(tick());
      await trx
        .insertInto('teams')
        .values({ id: teamId, organization_id: organization.id, title: `Team ${String(t + 1).padStart(2, '0')}`, created_at: createdAt })
        .execute();
      // Each team gets its own slice of members; the first is its owner.
      const members = userIds.slice(t * MEMBERS_PER_TEAM, (t + 1) * MEMBERS_PER_TEAM);
      await trx
        .insertInto('team_members')
        .values(
          members.map((userId, k) => ({
            team_id: teamId,
            organization_id: organization.id,
            user_id: userId,
            role: k === 0 ? ('owner' as const) : ('member' as const),
            added_at: createdAt,
          })),
        )
        .execute();
      teamIds.push(teamId);
    }
    return { organizationId: organization.id, teamId: teamIds[0], token };
  });
}

const auth = (seed: OrganizationSeed) => ({ authorization: `Bearer ${seed.token}` });

/** 1 organization, 500 members, 50 teams of 5; read by its admin. */
export const organizationSuite = defineSuite<OrganizationSeed>({
  name: 'organization',
  description: `1 organization, ${MEMBERS} members, ${TEAMS} teams of ${MEMBERS_PER_TEAM} members`,
  seed: seedOrganization,
  scenarios: [
    {
      name: 'members.list',
      title: 'GET /v1/orgs/{O}/members?limit=50',
      target: 0.3,
      request: (seed) => ({ path: `/v1/orgs/${seed.organizationId}/members?limit=50`, headers: auth(seed) }),
    },
    {
      name: 'teams.get',
      title: 'GET /v1/orgs/{O}/teams/{teamId}',
      target: 0.5,
      request: (seed) => ({ path: `/v1/orgs/${seed.organizationId}/teams/${seed.teamId}`, headers: auth(seed) }),
    },
    {
      // Issue 21's "organization read"; also the smallest authenticated read.
      name: 'orgs.get',
      title: 'GET /v1/orgs/{O}',
      target: 0.5,
      request: (seed) => ({ path: `/v1/orgs/${seed.organizationId}`, headers: auth(seed) }),
    },
    {
      // Reference: the framework's floor (public route, one `select 1`, no token).
      name: 'api.info',
      title: 'GET /v1/',
      request: () => ({ path: '/v1/', headers: {} }),
    },
  ],
});
