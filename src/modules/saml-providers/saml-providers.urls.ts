import type { Config } from '../../config.ts';

/**
 * Quire's service-provider endpoints for one provider. The entity ID is also the address
 * of the metadata XML, so an administrator can paste one URL into the identity provider.
 * (The SAML sign-in, the app's sign-in page and the SAMLProvider wire object all use them.)
 */
export function serviceUrls(config: Pick<Config, 'publicUrl'>, providerId: string) {
  const base = `${config.publicUrl}/sso/saml/${encodeURIComponent(providerId)}`;
  return { entityID: base, acsURL: `${base}/acs`, startURL: `${base}/start` };
}
