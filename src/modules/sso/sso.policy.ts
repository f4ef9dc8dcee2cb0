import type { Config } from '../../config.ts';

/**
 * Where a browser may be sent after signing in: only Quire's own app pages (an open
 * redirect would let anyone bounce a freshly signed-in user to a phishing page).
 * Accepts a path under /app/ or the same as an absolute URL under PUBLIC_URL/app/;
 * returns the absolute target, or null.
 */
export function safeReturnTarget(config: Pick<Config, 'publicUrl'>, relayState: unknown): string | null {
  if (typeof relayState !== 'string' || relayState.length === 0 || relayState.length > 2000) return null;
  const base = new URL(config.publicUrl + '/');
  let target: URL;
  try {
    target = new URL(relayState, base);
  } catch {
    return null;
  }
  if (target.origin !== base.origin) return null;
  // A relative relay state must be a plain absolute path: no "//host", no backslashes.
  if (!/^https?:/i.test(relayState) && (!relayState.startsWith('/') || relayState.startsWith('//') || relayState.includes('\\'))) return null;
  const appRoot = new URL(`${config.publicUrl}/app`).pathname;
  if (target.pathname !== appRoot && !target.pathname.startsWith(`${appRoot}/`)) return null;
  return target.toString();
}

/**
 * Who an organization's identity provider may sign in (docs/security.md, "Tenant model"):
 * people the organization may vouch for, and no one else. Its active members sign in; a
 * person on an email domain the organization has verified is signed in and, when new,
 * made a member (and their account created); a disabled member is refused; anyone else
 * (another organization's people, an address on a domain it does not own) is refused.
 */
export function ssoVouches(input: { membership: { disabled: number } | undefined; domainVerifiedByOrganization: boolean }): 'member' | 'provision' | 'disabled' | 'stranger' {
  if (input.membership) return input.membership.disabled === 0 ? 'member' : 'disabled';
  return input.domainVerifiedByOrganization ? 'provision' : 'stranger';
}
