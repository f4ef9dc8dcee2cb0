import { jwtVerify } from 'jose';
import { visitorAuthKey } from '../sites/site-visitor-key.ts';
import { conditionHolds } from '../../content/conditions.ts';
import type { Db } from '../../db/database.ts';
import { publishedRepository, type PublishedSiteRow } from './published.repository.ts';

/*
 * Who may see a published site (docs/decisions/published-sites.md, "Visibility"):
 * - unpublished: nobody (404);
 * - public, unlisted: anyone (unlisted pages say noindex);
 * - share-link: a visitor with an active share link key, given as `?share=<key>` once and
 *   then kept in an HttpOnly cookie; without one, 404 (the site's existence is not told);
 * - visitor-auth: a visitor with a JWT signed HS256 with the site's visitor_auth_key,
 *   given as `?jwt_token=<jwt>` once and then kept in an HttpOnly cookie; without one, 401.
 * Visitor-auth visitors' claims are the JWT payload; everyone else has no claims.
 */

export const SHARE_COOKIE = 'quire_site_share';
export const VISITOR_COOKIE = 'quire_site_visitor';

export type Claims = Record<string, unknown>;

/** What the visitor presented: query parameters of this request and cookies. */
export interface Credentials {
  shareQuery?: string;
  jwtQuery?: string;
  shareCookie?: string;
  visitorCookie?: string;
}

export interface CookieToSet {
  name: string;
  value: string;
  /** Seconds; 0 clears; undefined: until the browser closes. */
  maxAge?: number;
}

export type AccessDecision =
  | {
      allowed: true;
      claims: Claims;
      /** Credentials arrived in the query: remember them and redirect to the clean URL. */
      remember?: CookieToSet;
      /** Pages must say noindex. */
      noindex: boolean;
    }
  | { allowed: false; status: 401 | 404; clear?: CookieToSet };

const MAX_CREDENTIAL_LENGTH = 8192;

/** Whether the visitor may see the site, and with which claims. */
export async function decideAccess(db: Db, site: PublishedSiteRow, given: Credentials): Promise<AccessDecision> {
  if (!site.published) return { allowed: false, status: 404 };
  switch (site.visibility) {
    case 'public':
      return { allowed: true, claims: {}, noindex: false };
    case 'unlisted':
      return { allowed: true, claims: {}, noindex: true };
    case 'share-link': {
      const fromQuery = given.shareQuery !== undefined;
      const key = fromQuery ? given.shareQuery : given.shareCookie;
      if (key && key.length <= 128 && (await publishedRepository.shareLinkIsActive(db, site.id, key))) {
        return { allowed: true, claims: {}, noindex: true, remember: fromQuery ? { name: SHARE_COOKIE, value: key } : undefined };
      }
      return { allowed: false, status: 404, clear: given.shareCookie ? { name: SHARE_COOKIE, value: '', maxAge: 0 } : undefined };
    }
    case 'visitor-auth': {
      const fromQuery = given.jwtQuery !== undefined;
      const token = fromQuery ? given.jwtQuery : given.visitorCookie;
      const claims = token ? await verifyVisitorToken(await visitorAuthKey(db, site.visitor_auth_key), token) : null;
      if (claims) {
        const exp = typeof claims.exp === 'number' ? claims.exp : undefined;
        const maxAge = exp === undefined ? undefined : Math.max(1, Math.floor(exp - Date.now() / 1000));
        return {
          allowed: true,
          claims,
          noindex: true,
          remember: fromQuery ? { name: VISITOR_COOKIE, value: token as string, maxAge } : undefined,
        };
      }
      return { allowed: false, status: 401, clear: given.visitorCookie ? { name: VISITOR_COOKIE, value: '', maxAge: 0 } : undefined };
    }
    default:
      return { allowed: false, status: 404 };
  }
}

/**
 * The JWT's payload when it is signed HS256 with the site's key, carries `exp` and has not
 * expired; else null. A token without `exp` would open the site for ever.
 */
export async function verifyVisitorToken(key: string, token: string): Promise<Claims | null> {
  if (token.length > MAX_CREDENTIAL_LENGTH) return null;
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(key), { algorithms: ['HS256'], requiredClaims: ['exp'] });
    return payload as Claims;
  } catch {
    // Bad signature, expired, malformed, wrong algorithm: all mean "not signed in".
    return null;
  }
}

/** Whether a visitor with these claims sees a section or site space guarded by `condition`. */
export function visibleTo(condition: string | null, claims: Claims): boolean {
  return conditionHolds(condition, claims);
}
