import type { Db } from '../../db/database.ts';
import { badRequest } from '../../errors.ts';
import { organizationsRepository } from './organizations.repository.ts';
import type { UpdateOrganizationInput } from './organizations.schemas.ts';

/*
 * Organization rules other modules apply too: merge rules (an organization's, and a
 * space's own) and the email domain a verified-domain check reads.
 */

/** Keeps only the known fields of merge rules; every named reviewer must be a member (organizations and spaces). */
export async function normalizeMergeRules(db: Db, organizationId: string, rules: NonNullable<UpdateOrganizationInput['mergeRules']>) {
  if (rules.type === 'none') return { type: 'none' as const };
  const normalized = rules.rules.map((r) => ({ rule: r.rule, users: [...new Set(r.users)] }));
  const named = [...new Set(normalized.flatMap((r) => r.users))];
  const known = new Set(await organizationsRepository.memberUserIds(db, organizationId, named));
  const unknown = named.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw badRequest(`body/mergeRules: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a member' : 'are not members'} of this organization`);
  }
  return { type: 'rules' as const, rules: normalized };
}

/** The domain part of an email address, lower-cased. */
export function emailDomainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}
