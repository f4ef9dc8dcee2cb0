import { badRequest } from '../../errors.ts';
import { isoNow, type Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { UserRow } from './users.repository.ts';

/*
 * The rule on a new user's fields, shared by everything that makes accounts: the CLI,
 * bootstrap, invites and SSO's just-in-time accounts.
 */

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
