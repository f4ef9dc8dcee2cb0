import type { Context } from '../../context.ts';
import { notFound } from '../../errors.ts';
import type { OrganizationAccess } from '../organizations/organizations.policy.ts';
import { memberPolicy } from './members.policy.ts';
import { membersRepository, type MemberView } from './members.repository.ts';

/**
 * The member `userId` of the organization, after checking the caller may see them: every
 * read of one member applies it (the members module's, and the spaces and teams modules'
 * lists of a member's spaces and teams).
 */
export async function visibleMember(ctx: Pick<Context, 'db'>, access: OrganizationAccess, userId: string): Promise<MemberView> {
  memberPolicy.authorize('view', { access, userId }, 'Guests can only see their own membership');
  const member = await membersRepository.find(ctx.db, access.organizationId, userId);
  if (!member) throw notFound('Member');
  return member;
}
