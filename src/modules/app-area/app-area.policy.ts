import type { SessionRow } from '../sessions/sessions.repository.ts';

/*
 * SSO enforcement in the app (docs/decisions/sso.md). An organization with `sso: true`
 * is shown only to sessions that came through one of its own providers.
 */

/** May this session see the content of this organization? */
export function sessionMaySee(session: SessionRow, organization: { id: string; sso: number }): boolean {
  if (organization.sso !== 1) return true;
  return session.method === 'saml' && session.organization_id === organization.id;
}

/**
 * May this session create API tokens? A member of an organization that enforces SSO makes
 * tokens only from a session of one of those organizations' providers: otherwise a login
 * link (or another organization's IdP) would hand out API access SSO is meant to gate.
 */
export function sessionMayCreateTokens(session: SessionRow, memberships: { id: string; organization_sso: number }[]): boolean {
  const enforcing = memberships.filter((m) => m.organization_sso === 1);
  if (enforcing.length === 0) return true;
  return session.method === 'saml' && enforcing.some((m) => m.id === session.organization_id);
}
