import type { Db } from '../../db/database.ts';
import { openSecret, sealSecret } from '../../db/secrets.ts';

/*
 * A site's visitor-auth key (GitBook's site-publishing-auth): the key its owner signs
 * visitor JWTs with, stored sealed under a server secret. Read by the published site's
 * access decision; made by createSite, rotated by site-publishing.service.
 */

/** The server secret visitor-auth keys are sealed under. */
const VISITOR_KEY_PURPOSE = 'site-visitor-auth';

/** A site's visitor-auth signing key in clear, from its stored (sealed) form. */
export function visitorAuthKey(db: Db, stored: string): Promise<string> {
  return openSecret(db, VISITOR_KEY_PURPOSE, stored);
}

/** The stored (sealed) form of a visitor-auth key. */
export function sealVisitorAuthKey(db: Db, key: string): Promise<string> {
  return sealSecret(db, VISITOR_KEY_PURPOSE, key);
}
