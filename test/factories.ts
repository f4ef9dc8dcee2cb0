import type { RoleName } from '../src/db/types.ts';
import { newId } from '../src/lib/ids.ts';
import { buildUserRow, issueToken } from '../src/modules/users/users.service.ts';
import { usersRepository } from '../src/modules/users/users.repository.ts';
import { createOrganizationWithAdmin } from '../src/modules/organizations/organizations.service.ts';
import { membersRepository } from '../src/modules/members/members.repository.ts';
import type { TestApp } from './app.ts';

/*
 * Test data built straight through services and repositories, each with overrides.
 */

let sequence = 0;
const next = () => ++sequence;

export interface TestUser {
  id: string;
  email: string;
  displayName: string;
  token: string;
  tokenId: string;
}

export async function createUser(
  t: TestApp,
  overrides: { email?: string; displayName?: string; emailVerified?: boolean } = {},
): Promise<TestUser> {
  const n = next();
  const row = buildUserRow(t.clock, {
    email: overrides.email ?? `user${n}-${newId(6).toLowerCase()}@example.com`,
    displayName: overrides.displayName ?? `User ${n}`,
    emailVerified: overrides.emailVerified ?? true,
  });
  await usersRepository.insert(t.db, row);
  const { id: tokenId, token } = await issueToken(t.db, t.clock, row.id);
  return { id: row.id, email: row.email, displayName: row.display_name, token, tokenId };
}

export interface TestOrganization {
  id: string;
  admin: TestUser;
}

/** An organization with a fresh admin user (or the given one). */
export async function createOrganization(
  t: TestApp,
  overrides: { title?: string; emailDomains?: string[]; admin?: TestUser } = {},
): Promise<TestOrganization> {
  const admin = overrides.admin ?? (await createUser(t));
  const row = await createOrganizationWithAdmin(
    t.db,
    t.clock,
    { title: overrides.title ?? `Org ${next()}`, emailDomains: overrides.emailDomains },
    admin.id,
  );
  // Distinct creation and join times keep list orders deterministic.
  t.clock.advance(1000);
  return { id: row.id, admin };
}

/** A new user who is a member of the organization with `role` (null: guest). */
export async function createMember(
  t: TestApp,
  organizationId: string,
  role: RoleName | null,
  overrides: { user?: TestUser; disabled?: boolean; email?: string; displayName?: string } = {},
): Promise<TestUser> {
  const user = overrides.user ?? (await createUser(t, { email: overrides.email, displayName: overrides.displayName }));
  await membersRepository.insert(t.db, {
    organization_id: organizationId,
    user_id: user.id,
    role,
    disabled: overrides.disabled ? 1 : 0,
    sso: 0,
    joined_at: t.clock.now().toISOString(),
    last_seen_at: null,
  });
  // Distinct join times keep list orders deterministic.
  t.clock.advance(1000);
  return user;
}

/** A team inserted directly, with optional members (role member unless given). */
export async function createTeam(
  t: TestApp,
  organizationId: string,
  overrides: { title?: string; members?: { userId: string; role?: 'owner' | 'member' }[] } = {},
): Promise<{ id: string; title: string }> {
  const id = newId();
  const title = overrides.title ?? `Team ${next()}`;
  const now = t.clock.now().toISOString();
  await t.db.insertInto('teams').values({ id, organization_id: organizationId, title, created_at: now }).execute();
  for (const m of overrides.members ?? []) {
    await t.db
      .insertInto('team_members')
      .values({ team_id: id, organization_id: organizationId, user_id: m.userId, role: m.role ?? 'member', added_at: now })
      .execute();
  }
  t.clock.advance(1000);
  return { id, title };
}
