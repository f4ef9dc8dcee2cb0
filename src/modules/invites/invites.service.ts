import type { Context } from '../../context.ts';
import type { PageRequest } from '../../lib/pagination/index.ts';
import type { MembersTable, RoleName } from '../../db/types.ts';
import { badRequest, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { actorReaches, memberAccess, organizationAccess } from '../../access/index.ts';
import { organizationsRepository } from '../organizations/organizations.repository.ts';
import { usersRepository } from '../users/users.repository.ts';
import { buildUserRow } from '../users/users.rules.ts';
import { invitesPolicy } from './invites.policy.ts';
import type { InviteLinkResult, InviteLinksPage } from './invites.model.ts';
import { invitesRepository } from './invites.repository.ts';
import { membersRepository } from '../members/members.repository.ts';
import type { InviteLinkInput, InviteUsersInput, InvitedUsersWire } from './invites.schemas.ts';

// The "email" format GitBook's schema names (ajv-formats' full mode), with DNS's 63-character
// labels, which also bounds the regex's backtracking.
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

const MANAGE_MESSAGE = 'Only organization admins can invite people and manage invite links';

/**
 * The role each invited address gets, keyed by lower-cased address in the order given.
 * An address named twice must ask for the same role both times: picking one silently
 * could hand someone more (or less) access than the admin meant.
 */
function rolesByEmail(emails: InviteUsersInput['emails'], defaultRole: RoleName | null): Map<string, RoleName | null> {
  const roles = new Map<string, RoleName | null>();
  emails.forEach((item, index) => {
    const given = typeof item === 'string' ? item : item.email;
    const role = typeof item === 'string' || item.role === undefined ? defaultRole : item.role;
    const email = given.trim().toLowerCase();
    if (!EMAIL.test(email)) throw badRequest(`body/emails/${index}: "${given}" is not a valid email address`);
    if (roles.has(email) && roles.get(email) !== role) {
      throw badRequest(`body/emails/${index}: "${given}" is listed twice with different roles`);
    }
    roles.set(email, role);
  });
  return roles;
}

/**
 * POST /v1/orgs/{organizationId}/invites (admins). A self-hosted server sends no email,
 * so invited people become members at once: known addresses join with their account,
 * unknown ones get a new, unverified account named after the part before @. Existing
 * members are left as they are. One transaction: a bad address adds nobody.
 */
export async function inviteUsers(ctx: Context, organizationId: string, input: InviteUsersInput): Promise<InvitedUsersWire> {
  return ctx.transaction(async (tctx) => {
    const { organization, access } = await organizationAccess(tctx, organizationId);
    invitesPolicy.authorize('manage', access, MANAGE_MESSAGE);

    const defaultRole = input.role !== undefined ? input.role : organization.default_role;
    const roles = rolesByEmail(input.emails, defaultRole);
    const emails = [...roles.keys()];

    const userIds = new Map((await usersRepository.findManyByEmails(tctx.db, emails)).map((u) => [u.email, u.id]));
    for (const email of emails) {
      if (userIds.has(email)) continue;
      const user = buildUserRow(ctx.clock, { email, displayName: email.slice(0, email.indexOf('@')), emailVerified: false });
      await usersRepository.insert(tctx.db, user);
      userIds.set(email, user.id);
    }

    const now = isoNow(ctx.clock);
    const memberships: MembersTable[] = emails.map((email) => ({
      organization_id: organizationId,
      user_id: userIds.get(email) as string,
      role: roles.get(email) as RoleName | null,
      disabled: 0,
      sso: input.sso ? 1 : 0,
      joined_at: now,
      last_seen_at: null,
    }));
    const added = new Set(await membersRepository.insertIfAbsent(tctx.db, memberships));
    const users = memberships.map((m) => m.user_id).filter((id) => added.has(id));

    const result: InvitedUsersWire = { users, invited: users.length };
    // No other organization can claim a user's SSO here, so no address ever fails.
    if (input.sso) result.failedSSOEmails = [];
    return result;
  });
}

/** GET /v1/orgs/{organizationId}/link-invites (admins). */
export async function listInviteLinks(ctx: Context, organizationId: string, page: PageRequest): Promise<InviteLinksPage> {
  const access = await memberAccess(ctx, organizationId);
  invitesPolicy.authorize('manage', access, MANAGE_MESSAGE);
  const result = await invitesRepository.list(ctx.db, organizationId, page);
  return { ...result, callerRole: access.role };
}

/** POST /v1/orgs/{organizationId}/link-invites (admins); refused while invite links are turned off. */
export async function createInviteLink(ctx: Context, organizationId: string, input: InviteLinkInput): Promise<InviteLinkResult> {
  return ctx.transaction(async (tctx) => {
    const { organization, access } = await organizationAccess(tctx, organizationId);
    invitesPolicy.authorize('manage', access, MANAGE_MESSAGE);
    if (organization.invite_links !== 1) {
      throw badRequest('Invite links are turned off in this organization (inviteLinks is false)');
    }
    const row = {
      id: newId(),
      organization_id: organizationId,
      role: input.role,
      created_by: ctx.actor.userId,
      created_at: isoNow(ctx.clock),
    };
    await invitesRepository.insert(tctx.db, row);
    return { invite: row, callerRole: access.role };
  });
}

/** GET /v1/orgs/{organizationId}/link-invites/{inviteId} (admins). */
export async function getInviteLink(ctx: Context, organizationId: string, inviteId: string): Promise<InviteLinkResult> {
  const access = await memberAccess(ctx, organizationId);
  invitesPolicy.authorize('manage', access, MANAGE_MESSAGE);
  const row = await invitesRepository.find(ctx.db, organizationId, inviteId);
  if (!row) throw notFound('Invite');
  return { invite: row, callerRole: access.role };
}

/** PATCH /v1/orgs/{organizationId}/link-invites/{inviteId} (admins): changes the role it gives. */
export async function updateInviteLink(ctx: Context, organizationId: string, inviteId: string, input: InviteLinkInput): Promise<InviteLinkResult> {
  return ctx.transaction(async (tctx) => {
    const access = await memberAccess(tctx, organizationId);
    invitesPolicy.authorize('manage', access, MANAGE_MESSAGE);
    const row = await invitesRepository.find(tctx.db, organizationId, inviteId);
    if (!row) throw notFound('Invite');
    await invitesRepository.updateRole(tctx.db, organizationId, inviteId, input.role);
    return { invite: { ...row, role: input.role }, callerRole: access.role };
  });
}

/** DELETE /v1/orgs/{organizationId}/link-invites/{inviteId} (admins); also when absent. */
export async function deleteInviteLink(ctx: Context, organizationId: string, inviteId: string): Promise<void> {
  await ctx.transaction(async (tctx) => {
    const access = await memberAccess(tctx, organizationId);
    invitesPolicy.authorize('manage', access, MANAGE_MESSAGE);
    await invitesRepository.delete(tctx.db, organizationId, inviteId);
  });
}

/**
 * POST /v1/orgs/{organizationId}/invites/{inviteId}: the caller joins with the link's role.
 * The caller is usually not a member yet, so there is no organizationAccess here. An
 * unknown organization, an unknown link and turned-off links all answer the same 404, so
 * the endpoint tells nothing about which organizations exist. A membership the caller
 * already has (even a disabled one) is left as it is: a link never lowers a role and
 * never undoes an admin's decision.
 */
export async function joinWithInvite(ctx: Context, organizationId: string, inviteId: string) {
  return ctx.transaction(async (tctx) => {
    // A caller scoped to another organization cannot join this one.
    const organization = actorReaches(ctx.actor, organizationId)
      ? await organizationsRepository.findWithMembership(tctx.db, organizationId, ctx.actor.userId)
      : undefined;
    if (!organization || organization.invite_links !== 1) throw notFound('Invite');
    const invite = await invitesRepository.find(tctx.db, organizationId, inviteId);
    if (!invite) throw notFound('Invite');
    if (organization.member_user_id === null) {
      await membersRepository.insertIfAbsent(tctx.db, [
        {
          organization_id: organizationId,
          user_id: ctx.actor.userId,
          role: invite.role,
          disabled: 0,
          sso: 0,
          joined_at: isoNow(ctx.clock),
          last_seen_at: null,
        },
      ]);
    }
    return {};
  });
}
