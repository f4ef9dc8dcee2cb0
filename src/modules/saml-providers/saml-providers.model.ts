import type { TeamResult } from '../teams/teams.model.ts';
import type { SamlProviderRow } from './saml-providers.repository.ts';

/** A SAML provider with its default team as the caller sees it (undefined when the team is gone or unset). */
export interface SamlProviderResult {
  provider: SamlProviderRow;
  defaultTeam: TeamResult | undefined;
}
