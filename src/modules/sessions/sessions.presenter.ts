import { serialize } from 'cookie';
import { SESSION_COOKIE } from '../../access/index.ts';
import type { Config } from '../../config.ts';

/**
 * Set-Cookie of a new session: HttpOnly (no script reads it), SameSite=Lax (not sent on
 * cross-site POSTs, so forms cannot be forged from another site), Secure under https.
 */
export function sessionCookie(config: Pick<Config, 'publicUrl'>, id: string, maxAgeMs: number): string {
  return serialize(SESSION_COOKIE, id, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicUrl.startsWith('https:'),
    path: '/',
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

/** Set-Cookie that removes the session cookie (sign-out). */
export function clearedSessionCookie(config: Pick<Config, 'publicUrl'>): string {
  return serialize(SESSION_COOKIE, '', {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicUrl.startsWith('https:'),
    path: '/',
    maxAge: 0,
  });
}
