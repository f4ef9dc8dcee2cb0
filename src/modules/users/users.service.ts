import type { Context } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { userPolicy } from './users.policy.ts';
import { usersRepository, type UserRow } from './users.repository.ts';

// The CLI and bootstrap make accounts with the same rule as invites and SSO.
export { buildUserRow, type NewUser } from './users.rules.ts';

/** GET /v1/user */
export async function getAuthenticatedUser(ctx: Context): Promise<UserRow> {
  const user = await usersRepository.findById(ctx.db, ctx.actor.userId);
  if (!user) throw notFound('User');
  return user;
}

/** GET /v1/users/{userId}: visible to the user and to members of a shared organization. */
export async function getUserById(ctx: Context, userId: string): Promise<UserRow> {
  const user = await usersRepository.findById(ctx.db, userId);
  if (!user) throw notFound('User');
  const isSelf = userId === ctx.actor.userId;
  const sharesOrganization = !isSelf && (await usersRepository.shareAnOrganization(ctx.db, ctx.actor.userId, userId));
  if (!userPolicy.can('view', { isSelf, sharesOrganization })) throw notFound('User');
  return user;
}
