import { createHmac } from 'node:crypto';
import dns from 'node:dns/promises';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { serverSecret } from '../../db/secrets.ts';
import { conflict, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { usersRepository } from '../users/users.repository.ts';
import { sitesRepository, type SiteView } from './sites.repository.ts';
import { sealVisitorAuthKey, visitorAuthKey } from './site-visitor-key.ts';
import { loadSiteToManage } from '../../access/index.ts';

/* ------------------------------------------------------------------------------------
 * Visitor authentication (GitBook's site-publishing-auth): the key a site's owner signs
 * visitor JWTs with. Stored sealed (sealSecret); read and rotated by whoever manages the site.
 * ---------------------------------------------------------------------------------- */

const presentPublishingAuth = (privateKey: string) => ({ object: 'publishing-auth' as const, backend: 'custom' as const, privateKey });

/** GET {SITE}/publishing/auth: the signing key, to whoever manages the site. */
export async function getPublishingAuth(ctx: Context, organizationId: string, siteId: string) {
  const { site } = await loadSiteToManage(ctx, organizationId, siteId);
  return presentPublishingAuth(await visitorAuthKey(ctx.db, site.visitor_auth_key));
}

/** POST {SITE}/publishing/auth/regenerate: a new key; tokens signed with the old one stop working at once. */
export async function regeneratePublishingAuth(ctx: Context, organizationId: string, siteId: string) {
  return ctx.transaction(async (tctx) => {
    await loadSiteToManage(tctx, organizationId, siteId);
    const key = newId(48);
    await sitesRepository.update(tctx.db, siteId, { visitor_auth_key: await sealVisitorAuthKey(tctx.db, key), updated_at: isoNow(ctx.clock) });
    return presentPublishingAuth(key);
  });
}

/* ------------------------------------------------------------------------------------
 * Custom hostnames are claimed with a proof (docs/security.md): a DNS TXT record
 * `_quire-challenge.<hostname>` holding the site's challenge, or an installation admin.
 * ---------------------------------------------------------------------------------- */

/** The TXT record a site's owner publishes to prove a hostname: an HMAC, nothing stored. */
export async function hostnameChallenge(db: Db, siteId: string, hostname: string): Promise<{ name: string; value: string }> {
  const key = await serverSecret(db, 'custom-hostname-challenge');
  const value = createHmac('sha256', key).update(`${siteId}\u0000${hostname}`).digest('base64url').slice(0, 32);
  return { name: `_quire-challenge.${hostname}`, value: `quire-site-verification=${value}` };
}

/** The TXT strings of a name, on DNS_SERVER when set; none when the name has no TXT record. */
async function txtRecords(config: Context['config'], name: string): Promise<string[]> {
  const resolver = new dns.Resolver({ timeout: 3000, tries: 2 });
  if (config.dnsServer) resolver.setServers([config.dnsServer]);
  try {
    return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
  } catch {
    return [];
  }
}

/**
 * PATCH /v1/custom-hostnames/{hostname} (GitBook's dnsRevalidateCustomHostname): proves a
 * hostname a site of the caller's is pending on, and serves it from then on. The proof is
 * the TXT record of hostnameChallenge; an installation admin needs none. 409 naming the
 * record to publish when it is missing; 404 when no site the caller manages claims it.
 */
export async function verifyCustomHostname(ctx: Context, hostnameInput: string): Promise<void> {
  const hostname = hostnameInput.toLowerCase();
  const candidates = await sitesRepository.sitesPendingHostname(ctx.db, hostname);
  let managed: SiteView | undefined;
  for (const candidate of candidates) {
    try {
      managed = (await loadSiteToManage(ctx, candidate.organization_id, candidate.id)).site;
      break;
    } catch {
      // Not a site the caller manages: the next one, if any.
    }
  }
  if (!managed) throw notFound('Custom hostname');
  const caller = await usersRepository.findById(ctx.db, ctx.actor.userId);
  const byAdmin = caller?.installation_admin === 1 && ctx.actor.organizationId === null;
  if (!byAdmin) {
    const challenge = await hostnameChallenge(ctx.db, managed.id, hostname);
    if (!(await txtRecords(ctx.config, challenge.name)).includes(challenge.value)) {
      throw conflict(`Publish a DNS TXT record ${challenge.name} with the value "${challenge.value}", then ask again`);
    }
  }
  const siteId = managed.id;
  await ctx.transaction(async (tctx) => {
    if (await sitesRepository.addressTaken(tctx.db, siteId, 'hostname', hostname)) {
      throw conflict(`"${hostname}" is already served by another site`);
    }
    await sitesRepository.update(tctx.db, siteId, { hostname, pending_hostname: null, updated_at: isoNow(ctx.clock) });
  });
}
