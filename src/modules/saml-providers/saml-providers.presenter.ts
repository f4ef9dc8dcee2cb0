import type { Config } from '../../config.ts';
import { apiUrl } from '../../lib/urls.ts';
import type { SamlProvidersTable } from '../../db/types.ts';
import type { Page } from '../../lib/pagination/index.ts';
import { presentTeamResult } from '../teams/teams.presenter.ts';
import type { TeamWire } from '../teams/teams.schemas.ts';
import type { SamlProviderResult } from './saml-providers.model.ts';
import type { SamlProviderWire } from './saml-providers.schemas.ts';
import { serviceUrls } from './saml-providers.urls.ts';

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

/** A provider with its default team -> SAMLProvider wire object. */
export function presentSamlProviderResult(config: Pick<Config, 'publicUrl'>, result: SamlProviderResult): SamlProviderWire {
  return presentSamlProvider(config, result.provider, result.defaultTeam ? presentTeamResult(config, result.defaultTeam) : undefined);
}

/** A page of providers -> the SAMLProviderList wire object. */
export function presentSamlProviders(config: Pick<Config, 'publicUrl'>, page: Page<SamlProviderResult>) {
  return { ...page, items: page.items.map((result) => presentSamlProviderResult(config, result)) };
}

/** An organization's providers -> the `GET {O}/sso` list. */
export function presentSsoLogins(config: Pick<Config, 'publicUrl'>, rows: Pick<SamlProvidersTable, 'id' | 'label'>[]) {
  return { items: rows.map((row) => presentSsoLogin(config, row)) };
}
