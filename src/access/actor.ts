/*
 * Who is calling, and which organizations they may act on at all. Here rather than in
 * context.ts (which re-exports both) so the access layer depends on nothing of the app
 * around it: context.ts reaches the job worker and, through it, the modules.
 */

/** Who is calling: the owner of the bearer token. */
export interface Actor {
  userId: string;
  tokenId: string;
  /**
   * The one organization this caller may act on, when its credential came through that
   * organization's identity provider (a SAML session, or a token minted from one); null
   * for an unscoped credential. docs/security.md, "Tenant model".
   */
  organizationId: string | null;
}

/**
 * Whether the caller may act on an organization at all: a scoped caller reaches its own
 * organization only, and its memberships elsewhere count as if they did not exist. The one
 * place this rule lives; every membership read of the caller goes through it.
 */
export function actorReaches(actor: Pick<Actor, 'organizationId'>, organizationId: string): boolean {
  return actor.organizationId === null || actor.organizationId === organizationId;
}
