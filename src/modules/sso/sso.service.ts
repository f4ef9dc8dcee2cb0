import { randomBytes } from 'node:crypto';
import type { DOMParser as XmlParser } from '@xmldom/xmldom';
import type { CacheProvider, Profile, SAML } from '@node-saml/node-saml';
import type { AppDeps } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { HttpError, notFound } from '../../errors.ts';
import { appUrl } from '../../lib/urls.ts';
import { hashToken } from '../../lib/tokens.ts';
import { buildUserRow } from '../users/users.rules.ts';
import { usersRepository } from '../users/users.repository.ts';
import { serviceUrls } from '../saml-providers/saml-providers.urls.ts';
import { samlProvidersRepository, type SamlProviderRow } from '../saml-providers/saml-providers.repository.ts';
import { startSession } from '../sessions/sessions.service.ts';
import { safeReturnTarget, ssoVouches } from './sso.policy.ts';
import { emailDomainOf } from '../organizations/organizations.rules.ts';
import { organizationsRepository } from '../organizations/organizations.repository.ts';
import { ssoRepository } from './sso.repository.ts';
import { loadOnUse } from '../../lib/load-on-use.ts';

/** xmldom reads SAML assertions only: loaded at the first sign-in (lib/load-on-use.ts). */
const xmldom = loadOnUse<{ DOMParser: typeof XmlParser }>('@xmldom/xmldom');

/** A new sign-in nonce for a browser's cookie: 256 random bits; only its sha256 is stored. */
export function newSignInNonce(): string {
  return randomBytes(32).toString('base64url');
}

/** How long an AuthnRequest may be answered: a person signing in at their IdP, with MFA. */
export const REQUEST_TTL_MS = 10 * 60 * 1000;

/** A refused sign-in: status, a short title and what an administrator can do about it. */
export class SignInRefused extends HttpError {
  readonly title: string;
  /** Short machine word for logs (never SAML content). */
  readonly reason: string;
  constructor(statusCode: number, reason: string, title: string, explanation: string) {
    super(statusCode, explanation);
    this.title = title;
    this.reason = reason;
  }
}

const refused = (reason: string, title: string, explanation: string) => new SignInRefused(400, reason, title, explanation);

/**
 * node-saml's store of the AuthnRequest ids Quire sent, kept in the database so that a
 * response is accepted by whichever server process receives it, and only once. Each id is
 * bound to the browser that started the sign-in (the sha256 of its nonce cookie): a
 * response is found only when posted by that browser, so nobody can sign a victim's
 * browser into their own account with a response to a request they started (login CSRF).
 * Times here are the system clock's, as in every time check node-saml makes.
 */
function requestStore(db: Db, providerId: string, browserNonce: string | null): CacheProvider {
  const browserHash = browserNonce ? hashToken(browserNonce) : null;
  return {
    async saveAsync(key, value) {
      if (!browserHash) throw new Error('a sign-in is started by a browser with a nonce');
      const now = Date.now();
      await ssoRepository.insertRequest(db, {
        id: key,
        provider_id: providerId,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + REQUEST_TTL_MS).toISOString(),
        browser_hash: browserHash,
      });
      return { value, createdAt: now };
    },
    async getAsync(key) {
      if (!browserHash) return null;
      const row = await ssoRepository.findRequest(db, providerId, key, browserHash, new Date().toISOString());
      return row ? row.created_at : null;
    },
    async removeAsync(key) {
      // Only the browser that started it consumes a request (node-saml also removes on a refusal).
      if (key && browserHash) await ssoRepository.deleteRequest(db, providerId, key, browserHash);
      return key;
    },
  };
}

/**
 * node-saml configured for one provider: what Quire checks, in one place. The library
 * (with xml-crypto) is loaded on the first sign-in, not at start (idle RSS).
 */
async function samlFor(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>, provider: SamlProviderRow, browserNonce: string | null = null): Promise<SAML> {
  const { SAML, ValidateInResponseTo } = await import('@node-saml/node-saml');
  const service = serviceUrls(deps.config, provider.id);
  return new SAML({
    entryPoint: provider.sso_url,
    issuer: service.entityID,
    callbackUrl: service.acsURL,
    audience: service.entityID,
    idpCert: provider.certificate,
    idpIssuer: provider.entity_id,
    // The response or the assertion must carry a valid signature (node-saml checks the
    // assertion's whenever the response's is absent or invalid).
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: deps.config.samlClockSkewMs,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: requestStore(deps.db, provider.id, browserNonce),
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
  });
}

async function loadProvider(db: Db, providerId: string): Promise<SamlProviderRow> {
  const provider = await samlProvidersRepository.findById(db, providerId);
  if (!provider) throw notFound('SAML provider');
  return provider;
}

/** GET service.entityID: Quire's service-provider metadata for this provider. */
export async function serviceMetadata(deps: AppDeps, providerId: string): Promise<string> {
  const provider = await loadProvider(deps.db, providerId);
  return (await samlFor(deps, provider)).generateServiceProviderMetadata(null, null);
}

/**
 * GET service.startURL: records a new AuthnRequest and answers where to send the browser
 * (the IdP's SSO URL with SAMLRequest and RelayState, HTTP-Redirect binding).
 */
export async function startSignIn(deps: AppDeps, providerId: string, returnTo: string | undefined, browserNonce: string): Promise<string> {
  const provider = await loadProvider(deps.db, providerId);
  // Expired requests and assertions go on the way; both tables stay small.
  await ssoRepository.sweep(deps.db, new Date().toISOString());
  const relayState = safeReturnTarget(deps.config, returnTo) ?? '';
  return (await samlFor(deps, provider, browserNonce)).getAuthorizeUrlAsync(relayState, undefined, {});
}

/** Turns node-saml's error into what an administrator can act on. */
function explain(error: unknown, provider: SamlProviderRow, deps: Pick<AppDeps, 'config'>): SignInRefused {
  if (error instanceof SignInRefused) return error;
  const message = error instanceof Error ? error.message : String(error);
  const service = serviceUrls(deps.config, provider.id);
  const skew = Math.round(deps.config.samlClockSkewMs / 1000);
  if (/InResponseTo/i.test(message)) {
    return refused(
      'in-response-to',
      'Sign-in not started here',
      'The identity provider answered a sign-in request Quire did not make, one this browser did not start, one already answered, or one older than 10 minutes. ' +
        'Start again from the Quire sign-in page in this browser; IdP-initiated sign-in is not accepted.',
    );
  }
  if (/issuer/i.test(message)) {
    return refused(
      'issuer',
      'Response from another identity provider',
      `The response was not issued by "${provider.entity_id}", the entity ID configured for the provider "${provider.label}". ` +
        "Check the provider's entity ID in Quire against the identity provider's issuer.",
    );
  }
  if (/audience/i.test(message)) {
    return refused(
      'audience',
      'Response meant for another service',
      `The assertion's audience is not Quire. Set the audience (SP entity ID) in the identity provider to ${service.entityID}.`,
    );
  }
  if (/signature|signed|cert/i.test(message)) {
    return refused(
      'signature',
      'Signature not valid',
      `The response is unsigned, was changed after signing, or is signed with a key other than the certificate configured for "${provider.label}". ` +
        "Check that the certificate in Quire is the identity provider's current signing certificate.",
    );
  }
  if (/expired|NotBefore|NotOnOrAfter|not yet valid|too old|subject confirmation/i.test(message)) {
    return refused(
      'time',
      'Response expired or not yet valid',
      `The assertion is outside its validity period. Sign in again; if it keeps happening, check the clocks of the identity provider and of Quire (tolerated difference: ${skew} s).`,
    );
  }
  if (/status/i.test(message)) {
    return refused('status', 'The identity provider refused the sign-in', 'The identity provider answered with an error status. Its own logs say why.');
  }
  return refused('malformed', 'Response not readable', 'What was posted is not a SAML 2.0 response Quire can read.');
}

const elementsNS = (node: Document | Element, localName: string) =>
  Array.from(node.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', localName));

/** Facts of the verified assertion that node-saml leaves to its caller. */
function assertionFacts(assertionXml: string) {
  const doc = new (xmldom().DOMParser)().parseFromString(assertionXml, 'text/xml');
  const assertion = elementsNS(doc, 'Assertion')[0];
  const confirmations = elementsNS(doc, 'SubjectConfirmationData');
  const conditions = elementsNS(doc, 'Conditions')[0];
  const expiries = [conditions?.getAttribute('NotOnOrAfter'), ...confirmations.map((c) => c.getAttribute('NotOnOrAfter'))]
    .filter((v): v is string => !!v)
    .map((v) => Date.parse(v))
    .filter((v) => Number.isFinite(v));
  const issuer = assertion ? Array.from(assertion.childNodes).find((n) => (n as Element).localName === 'Issuer') : undefined;
  return {
    id: assertion?.getAttribute('ID') ?? null,
    issuer: issuer?.textContent?.trim() ?? null,
    recipients: confirmations.map((c) => c.getAttribute('Recipient')),
    expiresAt: expiries.length ? Math.max(...expiries) : null,
  };
}

/** The Response element's Destination and Issuer (outside the assertion, possibly unsigned). */
function responseEnvelope(samlResponse: string): { destination: string | null; issuer: string | null } {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  const root = new (xmldom().DOMParser)().parseFromString(xml, 'text/xml').documentElement;
  const issuer = root ? Array.from(root.childNodes).find((n) => (n as Element).localName === 'Issuer') : undefined;
  return { destination: root?.getAttribute('Destination') || null, issuer: issuer?.textContent?.trim() ?? null };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function firstString(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (Array.isArray(value)) return firstString(value[0]);
  return null;
}

/** The email and display name the IdP vouches for. */
function identityOf(profile: Profile): { email: string; displayName: string } {
  const candidates = [profile.email, profile.mail, profile['urn:oid:0.9.2342.19200300.100.1.3'], profile.nameID].map(firstString);
  const email = candidates.find((c): c is string => c !== null && EMAIL.test(c));
  if (!email) {
    throw refused(
      'no-email',
      'No email address in the response',
      'Quire matches people by email: configure the identity provider to send the NameID as an email address, or an "email" attribute.',
    );
  }
  const given = firstString(profile.givenName) ?? firstString(profile['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname']);
  const family = firstString(profile.surname) ?? firstString(profile.sn);
  const displayName =
    firstString(profile.displayName) ??
    firstString(profile['http://schemas.microsoft.com/identity/claims/displayname']) ??
    firstString(profile.name) ??
    (given ? [given, family].filter(Boolean).join(' ') : null) ??
    email.split('@')[0];
  return { email: email.toLowerCase(), displayName: displayName.slice(0, 255) };
}

export interface SignedIn {
  sessionId: string;
  userId: string;
  /** Absolute URL to send the browser to (303). */
  target: string;
}

/**
 * POST service.acsURL: verifies the response (node-saml: signature against the provider's
 * certificate, issuer, audience, time conditions with SAML_CLOCK_SKEW_MS, InResponseTo of
 * a request Quire recorded; here: destination, recipient, replay), then in one transaction
 * records the assertion id, checks the organization may vouch for the person (ssoVouches),
 * creates the account and membership for a verified domain, and starts a session scoped
 * to the organization. Any refusal throws SignInRefused before anything is written.
 */
export async function completeSignIn(
  deps: AppDeps,
  providerId: string,
  input: { SAMLResponse: string; RelayState?: string },
  browserNonce: string | null,
): Promise<SignedIn> {
  const provider = await loadProvider(deps.db, providerId);
  const service = serviceUrls(deps.config, provider.id);
  let profile: Profile;
  try {
    const result = await (await samlFor(deps, provider, browserNonce)).validatePostResponseAsync({ SAMLResponse: input.SAMLResponse });
    if (!result.profile) throw new Error('no assertion');
    profile = result.profile;
  } catch (error) {
    throw explain(error, provider, deps);
  }

  const envelope = responseEnvelope(input.SAMLResponse);
  const facts = assertionFacts(profile.getAssertionXml?.() ?? '');
  // node-saml leaves the issuer of a login response unchecked: the signed assertion's
  // Issuer must be the provider's entity ID, and so must the response's when it names one.
  if (facts.issuer !== provider.entity_id || (envelope.issuer !== null && envelope.issuer !== provider.entity_id)) {
    throw explain(new Error('issuer'), provider, deps);
  }
  const destination = envelope.destination;
  if ((destination !== null && destination !== service.acsURL) || facts.recipients.some((r) => r !== service.acsURL)) {
    throw refused(
      'destination',
      'Response sent for another address',
      `The response's destination or recipient is not this provider's ACS URL. Set the ACS URL in the identity provider to ${service.acsURL}.`,
    );
  }
  if (!facts.id) throw refused('malformed', 'Response not readable', 'The assertion has no ID.');
  const identity = identityOf(profile);

  const now = deps.clock.now();
  const at = now.toISOString();
  // Kept until the assertion could no longer pass the time checks anyway (plus the skew).
  const keepUntil = new Date(Math.max(facts.expiresAt ?? 0, Date.now() + 24 * 3600_000) + deps.config.samlClockSkewMs);
  const result = await deps.db.transaction().execute(async (trx) => {
    try {
      await ssoRepository.insertAssertion(trx, {
        provider_id: provider.id,
        assertion_id: facts.id as string,
        accepted_at: at,
        expires_at: keepUntil.toISOString(),
      });
    } catch (error) {
      // The primary key is the replay check: it holds across every server process.
      if (isUniqueViolation(error)) {
        throw refused('replay', 'Response already used', 'This response was already used to sign in; a response works once. Start the sign-in again.');
      }
      throw error;
    }
    let user = await usersRepository.findByEmail(trx, identity.email);
    const membership = user ? await ssoRepository.findMembership(trx, provider.organization_id, user.id) : undefined;
    const verified = await organizationsRepository.verifiedDomain(trx, emailDomainOf(identity.email));
    const standing = ssoVouches({ membership, domainVerifiedByOrganization: verified?.organization_id === provider.organization_id });
    if (standing === 'disabled') {
      throw new SignInRefused(
        403,
        'disabled',
        'Membership disabled',
        `${identity.email} is a disabled member of this organization. An administrator can enable the membership again.`,
      );
    }
    if (standing === 'stranger') {
      // The IdP is the organization's: it speaks for its members and its own domains only.
      throw new SignInRefused(
        403,
        'not-vouched',
        'Not a member of this organization',
        `${identity.email} is not a member of this organization, and its domain is not one the organization has verified. ` +
          'An administrator can invite this person, or have the domain verified by the installation administrator.',
      );
    }
    if (standing === 'provision') {
      if (!user) {
        // Not marked verified: an address an IdP asserts proves nothing outside its organization.
        const row = buildUserRow(deps.clock, { email: identity.email, displayName: identity.displayName, emailVerified: false });
        await usersRepository.insert(trx, row);
        user = { ...row, installation_admin: 0 };
      }
      await ssoRepository.insertMember(trx, provider.organization_id, user.id, provider.default_role, at);
      if (provider.default_team_id && (await ssoRepository.teamExists(trx, provider.organization_id, provider.default_team_id))) {
        await ssoRepository.addToTeam(trx, provider.organization_id, provider.default_team_id, user.id, at);
      }
    } else {
      await ssoRepository.markSso(trx, provider.organization_id, (user as NonNullable<typeof user>).id, at);
    }
    const signedInUser = user as NonNullable<typeof user>;
    const sessionId = await startSession(trx, deps.clock, deps.config.sessionTtlMs, {
      userId: signedInUser.id,
      method: 'saml',
      providerId: provider.id,
      organizationId: provider.organization_id,
    });
    return { sessionId, userId: signedInUser.id };
  });
  return { ...result, target: safeReturnTarget(deps.config, input.RelayState) ?? appUrl(deps.config, '/account') };
}
