import { SignJWT } from 'jose';
import type { Context } from '../../context.ts';
import type { Page, PageRequest } from '../../lib/pagination/index.ts';
import { serverSecret } from '../../db/secrets.ts';
import { badRequest, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { readUnlessChanged } from '../../db/read-cache.ts';
import { organizationPolicy } from '../organizations/organizations.policy.ts';
import { organizationsRepository } from '../organizations/organizations.repository.ts';
import { actorReaches, memberAccess } from '../../access/index.ts';
import { usersRepository } from '../users/users.repository.ts';
import { memberPolicy } from './members.policy.ts';
import { visibleMember } from './members.rules.ts';
import { membersRepository, type MemberView } from './members.repository.ts';
import type { ListMembersFilters, UpdateMemberInput } from './members.schemas.ts';

const VISITOR_CLAIMS_TTL_SECONDS = 60 * 60;

/** 400 unless `member` keeps an admin beside them; call with the organization locked. */
async function ensureAnotherAdmin(ctx: Pick<Context, 'db'>, organizationId: string, member: MemberView, action: string): Promise<void> {
  if (member.role !== 'admin') return;
  const others = await membersRepository.countOtherAdmins(ctx.db, organizationId, member.user_id);
  if (others === 0) {
    throw badRequest(`Cannot ${action} the last admin of the organization: make another member admin first`);
  }
}

/**
 * GET /v1/orgs/{organizationId}/members: members with a role only (guests may not list).
 * A page is reused while the organization's directory (memberships, team memberships) and
 * users are unchanged (the change feed); the route presents a reused page once (presentReused).
 */
export async function listMembers(ctx: Context, organizationId: string, query: ListMembersFilters, page: PageRequest): Promise<Page<MemberView>> {
  const access = await memberAccess(ctx, organizationId);
  organizationPolicy.authorize('listMembers', access, 'Guests cannot list the members of the organization');
  const filters = { role: query.role, search: query.search, sort: query.sort ?? 'joinedAt', order: query.order ?? 'desc' } as const;
  const key = JSON.stringify(['members', organizationId, filters, page.page ?? null, page.limit]);
  return readUnlessChanged(ctx.db, ctx.caches.listings, key, async (depend) => {
    depend(`directory:${organizationId}`, 'users');
    return membersRepository.list(ctx.db, organizationId, filters, page);
  });
}


/** GET /v1/orgs/{organizationId}/members/{userId} */
export async function getMember(ctx: Context, organizationId: string, userId: string): Promise<MemberView> {
  const access = await memberAccess(ctx, organizationId);
  return visibleMember(ctx, access, userId);
}

/** PATCH /v1/orgs/{organizationId}/members/{userId}: admins change roles; an organization keeps an admin. */
export async function updateMember(ctx: Context, organizationId: string, userId: string, input: UpdateMemberInput): Promise<MemberView> {
  const member = await ctx.transaction(async (tctx) => {
    const access = await memberAccess(tctx, organizationId);
    memberPolicy.authorize('updateRole', { access, userId }, 'Only organization admins can change member roles');
    await membersRepository.lockOrganization(tctx.db, organizationId);
    const member = await visibleMember(tctx, access, userId);
    if (input.role !== undefined && input.role !== member.role) {
      if (input.role !== 'admin') await ensureAnotherAdmin(tctx, organizationId, member, 'demote');
      await membersRepository.update(tctx.db, organizationId, userId, { role: input.role });
    }
    return { ...member, role: input.role === undefined ? member.role : input.role };
  });
  return member;
}

/**
 * DELETE /v1/orgs/{organizationId}/members/{userId}: admins remove anyone, members remove
 * themselves (leave). Nothing to remove is still a success; the last admin stays.
 */
export async function removeMember(ctx: Context, organizationId: string, userId: string): Promise<void> {
  await ctx.transaction(async (tctx) => {
    const access = await memberAccess(tctx, organizationId);
    memberPolicy.authorize('remove', { access, userId }, 'Only organization admins can remove other members');
    await membersRepository.lockOrganization(tctx.db, organizationId);
    const member = await membersRepository.find(tctx.db, organizationId, userId);
    if (!member) return;
    await ensureAnotherAdmin(tctx, organizationId, member, 'remove');
    await membersRepository.delete(tctx.db, organizationId, userId);
  });
}

/** POST /v1/orgs/{organizationId}/members/{userId}/sso: admins mark a member as signing in through SSO. */
export async function setMemberSSO(ctx: Context, organizationId: string, userId: string): Promise<MemberView> {
  return ctx.transaction(async (tctx) => {
    const access = await memberAccess(tctx, organizationId);
    memberPolicy.authorize('setSSO', { access, userId }, 'Only organization admins can set SSO members');
    const member = await visibleMember(tctx, access, userId);
    if (member.sso !== 1) await membersRepository.update(tctx.db, organizationId, userId, { sso: 1 });
    return { ...member, sso: 1 };
  });
}

/**
 * POST /v1/orgs/{organizationId}/ping: records that the caller is active and answers a
 * short-lived signed token of who they are in the organization.
 */
export async function ping(ctx: Context, organizationId: string) {
  const { access, email } = await ctx.transaction(async (tctx) => {
    const access = await memberAccess(tctx, organizationId);
    await membersRepository.update(tctx.db, organizationId, access.userId, { last_seen_at: isoNow(ctx.clock) });
    const user = await usersRepository.findById(tctx.db, access.userId);
    if (!user) throw notFound('User');
    return { access, email: user.email };
  });
  const issuedAt = Math.floor(ctx.clock.now().getTime() / 1000);
  // The secret is cached per database handle, so it is read through ctx.db, not the transaction.
  const secret = await serverSecret(ctx.db, 'visitor-claims');
  const token = await new SignJWT({ organization: organizationId, role: access.role, email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(access.userId)
    .setIssuer(ctx.config.publicUrl)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + VISITOR_CLAIMS_TTL_SECONDS)
    .sign(secret);
  return { serviceVisitorClaims: token, gitbookVisitorClaims: token };
}

/**
 * POST /v1/orgs/{organizationId}/join: a user whose verified email domain the
 * organization allows joins it with the organization's default role.
 */
export async function joinOrganization(ctx: Context, organizationId: string): Promise<void> {
  await ctx.transaction(async (tctx) => {
    // A caller scoped to another organization cannot join this one.
    const organization = actorReaches(ctx.actor, organizationId)
      ? await organizationsRepository.findWithMembership(tctx.db, organizationId, ctx.actor.userId)
      : undefined;
    if (!organization) throw notFound('Organization');
    // Already a member (even a disabled one): nothing to do; disabling is not undone by joining.
    if (organization.member_user_id !== null) return;
    const user = await usersRepository.findById(tctx.db, ctx.actor.userId);
    if (!user) throw notFound('User');
    const domain = user.email.slice(user.email.lastIndexOf('@') + 1).toLowerCase();
    const allowed = JSON.parse(organization.email_domains) as string[];
    if (!allowed.includes(domain)) {
      throw badRequest(`Email domain "${domain}" is not allowed to join this organization`);
    }
    if (user.email_verified !== 1) {
      throw badRequest(`Email address ${user.email} is not verified: verify it before joining by email domain`);
    }
    await membersRepository.insertIfAbsent(tctx.db, [
      {
        organization_id: organizationId,
        user_id: user.id,
        role: organization.default_role,
        disabled: 0,
        sso: 0,
        joined_at: isoNow(ctx.clock),
        last_seen_at: null,
      },
    ]);
  });
}
