import { createHmac, timingSafeEqual } from 'node:crypto';
import { parse as parseCookies } from 'cookie';
import type { Db } from '../db/database.ts';
import type { SessionsTable } from '../db/types.ts';
import { isoNow, type Clock } from '../lib/clock.ts';
import { hashToken } from '../lib/tokens.ts';
import { accessRepository } from './access.repository.ts';
import type { Actor } from './actor.ts';

/*
 * Who a browser is: its session cookie, the live session row behind it, the organization
 * that session may act on and its anti-CSRF token. The app area, the editor's API calls
 * and live editing all read the caller from here; starting and ending sessions and login
 * links are the sessions module's (sessions.service.ts).
 */

/** The cookie holding a session id. `__Host-` would forbid Path and Domain tricks but needs https. */
export const SESSION_COOKIE = 'quire_session';

/** A signed-in browser: the session row and the id from the cookie (never stored, never logged). */
export interface BrowserSession {
  id: string;
  row: SessionsTable;
}

/**
 * The organization a session may act on: a SAML session acts for the organization whose
 * identity provider vouched for the person, and for no other (docs/security.md, "Tenant
 * model"); a login-link session (made by the operator's CLI) is unscoped.
 */
export function sessionScope(row: Pick<SessionsTable, 'method' | 'organization_id'>): string | null {
  return row.method === 'saml' ? row.organization_id : null;
}

/** The caller a session acts as. */
export function sessionActor(session: BrowserSession): Actor {
  return { userId: session.row.user_id, tokenId: 'session', organizationId: sessionScope(session.row) };
}

/** The session id the request's cookie carries, if any. */
export function sessionIdOf(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  const value = parseCookies(cookieHeader)[SESSION_COOKIE];
  return value && /^[\w-]{20,100}$/.test(value) ? value : null;
}

/** The live session of a request, or null (no cookie, unknown, expired or revoked). */
export async function findSession(deps: { db: Db; clock: Clock }, cookieHeader: string | undefined): Promise<BrowserSession | null> {
  const id = sessionIdOf(cookieHeader);
  if (!id) return null;
  const row = await accessRepository.findActiveSession(deps.db, hashToken(id), isoNow(deps.clock));
  return row ? { id, row } : null;
}

/**
 * The anti-CSRF token of a session's forms: an HMAC of a fixed label under the session id.
 * Another site can neither read the HttpOnly cookie nor compute this, and nothing is stored.
 */
export function csrfToken(session: BrowserSession): string {
  return createHmac('sha256', session.id).update('quire-app-form').digest('base64url');
}

export function csrfTokenValid(session: BrowserSession, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(csrfToken(session));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
