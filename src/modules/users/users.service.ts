import type { Actor, Context } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { badRequest, notFound } from '../../errors.ts';
import { isoNow, type Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { hashToken, newApiToken } from '../../lib/tokens.ts';
import { userPolicy } from './users.policy.ts';
import { presentUser } from './users.presenter.ts';
import { usersRepository, type UserRow } from './users.repository.ts';

/** Resolves a token hash to its owner, or undefined when unknown or revoked. */
export async function authenticateTokenHash(db: Db, hash: string): Promise<Actor | undefined> {
  const token = await usersRepository.findActiveTokenByHash(db, hash);
  return token ? { userId: token.user_id, tokenId: token.id, organizationId: token.organization_id ?? null } : undefined;
}

/** GET /v1/user */
export async function getAuthenticatedUser(ctx: Context) {
  const user = await usersRepository.findById(ctx.db, ctx.actor.userId);
  if (!user) throw notFound('User');
  return presentUser(ctx.config, user);
}

/** GET /v1/users/{userId}: visible to the user and to members of a shared organization. */
export async function getUserById(ctx: Context, userId: string) {
  const user = await usersRepository.findById(ctx.db, userId);
  if (!user) throw notFound('User');
  const isSelf = userId === ctx.actor.userId;
  const sharesOrganization = !isSelf && (await usersRepository.shareAnOrganization(ctx.db, ctx.actor.userId, userId));
  if (!userPolicy.can('view', { isSelf, sharesOrganization })) throw notFound('User');
  return presentUser(ctx.config, user);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface NewUser {
  email: string;
  displayName: string;
  emailVerified: boolean;
}

/** Validates and normalizes a new user's fields (emails are compared lower-cased). */
export function buildUserRow(clock: Clock, input: NewUser): Omit<UserRow, 'installation_admin'> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw badRequest(`email "${input.email}" is not a valid email address`);
  const displayName = input.displayName.trim();
  if (displayName.length === 0 || displayName.length > 255) {
    throw badRequest('name must be 1 to 255 characters');
  }
  return {
    id: newId(),
    display_name: displayName,
    email,
    email_verified: input.emailVerified ? 1 : 0,
    photo_url: null,
    created_at: isoNow(clock),
  };
}

/**
 * Issues a new API token for a user; returns the token once, storing only its hash. A
 * token minted by a scoped caller (`organizationId`) is scoped the same way.
 */
export function issueToken(db: Db, clock: Clock, userId: string, label: string | null = null, organizationId: string | null = null) {
  return issueGivenToken(db, clock, userId, newApiToken(), label, organizationId);
}

/** Issues a token whose value is given (BOOTSTRAP_ADMIN_TOKEN); only its hash is stored. */
export async function issueGivenToken(db: Db, clock: Clock, userId: string, token: string, label: string | null, organizationId: string | null = null) {
  const id = newId();
  await usersRepository.insertToken(db, {
    id,
    user_id: userId,
    token_hash: hashToken(token),
    label,
    created_at: isoNow(clock),
    organization_id: organizationId,
  });
  return { id, token };
}

/** Revokes a token by id; false when there was no active token with that id. */
export function revokeToken(db: Db, clock: Clock, tokenId: string): Promise<boolean> {
  return usersRepository.revokeToken(db, tokenId, isoNow(clock));
}
