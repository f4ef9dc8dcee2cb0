import { randomBytes } from 'node:crypto';
import type { BrowserSession } from '../../access/index.ts';
import type { AppDeps } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { isoNow, type Clock } from '../../lib/clock.ts';
import { hashToken } from '../../lib/tokens.ts';
import { sessionsRepository, type SessionRow } from './sessions.repository.ts';

/*
 * Starting and ending browser sessions, and one-time login links. Who a request's session
 * is (the cookie, the live row, its scope, the CSRF token) is the access layer's
 * (src/access/session.ts).
 */

export interface NewSession {
  userId: string;
  method: SessionRow['method'];
  providerId?: string | null;
  organizationId?: string | null;
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

/** Ends a session everywhere: the row is marked revoked, so every process refuses it. */
export async function endSession(deps: Pick<AppDeps, 'db' | 'clock'>, session: BrowserSession): Promise<void> {
  await sessionsRepository.revoke(deps.db, session.row.id_hash, isoNow(deps.clock));
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
