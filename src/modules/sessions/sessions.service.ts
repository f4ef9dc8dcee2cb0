import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parse as parseCookies } from 'cookie';
import type { AppDeps } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { isoNow, type Clock } from '../../lib/clock.ts';
import { hashToken } from '../../lib/tokens.ts';
import { SESSION_COOKIE } from './sessions.presenter.ts';
import { sessionsRepository, type SessionRow } from './sessions.repository.ts';

/** A signed-in browser: the session row and the id from the cookie (never stored, never logged). */
export interface BrowserSession {
  id: string;
  row: SessionRow;
}

export interface NewSession {
  userId: string;
  method: SessionRow['method'];
  providerId?: string | null;
  organizationId?: string | null;
}

/**
 * The organization a session may act on: a SAML session acts for the organization whose
 * identity provider vouched for the person, and for no other (docs/security.md, "Tenant
 * model"); a login-link session (made by the operator's CLI) is unscoped.
 */
export function sessionScope(row: Pick<SessionRow, 'method' | 'organization_id'>): string | null {
  return row.method === 'saml' ? row.organization_id : null;
}

/**
 * Starts a session: 256 random bits in the cookie, only their sha256 in the database,
 * so a copy of the database opens no session. Returns the id for the cookie.
 */
export async function startSession(db: Db, clock: Clock, ttlMs: number, input: NewSession): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  const now = clock.now();
  await sessionsRepository.insert(db, {
    id_hash: hashToken(id),
    user_id: input.userId,
    method: input.method,
    provider_id: input.providerId ?? null,
    organization_id: input.organizationId ?? null,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + ttlMs).toISOString(),
    revoked_at: null,
  });
  return id;
}

/** The session id the request's cookie carries, if any. */
export function sessionIdOf(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  const value = parseCookies(cookieHeader)[SESSION_COOKIE];
  return value && /^[\w-]{20,100}$/.test(value) ? value : null;
}

/** The live session of a request, or null (no cookie, unknown, expired or revoked). */
export async function findSession(deps: Pick<AppDeps, 'db' | 'clock'>, cookieHeader: string | undefined): Promise<BrowserSession | null> {
  const id = sessionIdOf(cookieHeader);
  if (!id) return null;
  const row = await sessionsRepository.findActive(deps.db, hashToken(id), isoNow(deps.clock));
  return row ? { id, row } : null;
}

/** Ends a session everywhere: the row is marked revoked, so every process refuses it. */
export async function endSession(deps: Pick<AppDeps, 'db' | 'clock'>, session: BrowserSession): Promise<void> {
  await sessionsRepository.revoke(deps.db, session.row.id_hash, isoNow(deps.clock));
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

/** Makes a one-time sign-in link's secret; only its hash is stored. */
export async function createLoginLink(db: Db, clock: Clock, userId: string, ttlMs: number): Promise<string> {
  const secret = randomBytes(32).toString('base64url');
  const now = clock.now();
  await sessionsRepository.insertLoginLink(db, {
    secret_hash: hashToken(secret),
    user_id: userId,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + ttlMs).toISOString(),
    used_at: null,
  });
  return secret;
}

/** The user of a login link, consuming it; undefined when unknown, used or expired. */
export async function consumeLoginLink(db: Db, clock: Clock, secret: string): Promise<string | undefined> {
  return sessionsRepository.consumeLoginLink(db, hashToken(secret), isoNow(clock));
}
