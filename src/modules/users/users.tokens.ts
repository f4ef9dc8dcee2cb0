import type { Actor } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { isoNow, type Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { hashToken, newApiToken } from '../../lib/tokens.ts';
import { usersRepository } from './users.repository.ts';

/*
 * API tokens: who a token is (the auth plugin, given it by app.ts), minting and revoking.
 * Not the users API's service: the CLI, bootstrap and the app's account page mint tokens
 * too, without a caller to authorize (they hold the database handle, not a Context).
 */

/** Resolves a token hash to its owner, or undefined when unknown or revoked. */
export async function authenticateTokenHash(db: Db, hash: string): Promise<Actor | undefined> {
  const token = await usersRepository.findActiveTokenByHash(db, hash);
  return token ? { userId: token.user_id, tokenId: token.id, organizationId: token.organization_id ?? null } : undefined;
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
