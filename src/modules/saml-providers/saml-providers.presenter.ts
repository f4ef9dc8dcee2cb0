import type { Config } from '../../config.ts';
import { apiUrl } from '../../lib/urls.ts';
import type { SamlProvidersTable } from '../../db/types.ts';
import type { TeamWire } from '../teams/teams.schemas.ts';
import type { SamlProviderWire } from './saml-providers.schemas.ts';

/**
 * Quire's service-provider endpoints for one provider. The entity ID is also the address
 * of the metadata XML, so an administrator can paste one URL into the identity provider.
 */
export function serviceUrls(config: Pick<Config, 'publicUrl'>, providerId: string) {
  const base = `${config.publicUrl}/sso/saml/${encodeURIComponent(providerId)}`;
  return { entityID: base, acsURL: `${base}/acs`, startURL: `${base}/start` };
}

/** saml_providers row -> SAMLProvider wire object (`defaultTeam` when the team still exists). */
export function presentSamlProvider(
  config: Pick<Config, 'publicUrl'>,
  row: SamlProvidersTable,
  defaultTeam: TeamWire | undefined,
): SamlProviderWire {
  return {
    object: 'saml-provider',
    id: row.id,
    label: row.label,
    ssoURL: row.sso_url,
    entityID: row.entity_id,
    certificate: row.certificate,
    ...(defaultTeam ? { defaultTeam } : {}),
    defaultRole: row.default_role,
    createdAt: row.created_at,
    status: 'active',
    service: serviceUrls(config, row.id),
    urls: { location: apiUrl(config, `/orgs/${row.organization_id}/saml/${row.id}`) },
  };
}

/** The `GET {O}/sso` item of a provider. */
export function presentSsoLogin(config: Pick<Config, 'publicUrl'>, row: Pick<SamlProvidersTable, 'id' | 'label'>) {
  return { id: row.id, label: row.label, startURL: serviceUrls(config, row.id).startURL };
}
