import { hash, randomBytes } from 'node:crypto';

const TOKEN_PREFIX = 'qr_';

/** A new API token: a prefix that secret scanners can match, then 256 random bits. */
export function newApiToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** The only form in which a token is stored or used as a key. */
export function hashToken(token: string): string {
  // One-shot hash: it runs on every request, and skips building a Hash object.
  return hash('sha256', token, 'hex');
}
