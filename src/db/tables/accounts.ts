/*
 * Row types of organizations and who acts in them: users, tokens, members, teams, invite links,
 * browser sessions, sign-in links, proven email domains, SAML.
 * Conventions and the table map: ../types.ts.
 */

import type { Generated } from 'kysely';

export type RoleName = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';

export interface OrganizationsTable {
  id: string;
  title: string;
  created_at: string;
  email_domains: string; // JSON string[]
  hostname: string | null;
  type: string;
  use_case: string | null;
  community_type: string | null;
  default_role: RoleName | null;
  default_content: string | null; // JSON { type, site|space|collection }
  sso: number;
  ai: number;
  invite_links: number;
  logo_url: string | null;
  merge_rules: string; // JSON
  custom_hostname: string | null;
  /** Moves (by trigger) whenever what member listings show changes; see migration 0002. */
}

export interface UsersTable {
  id: string;
  display_name: string;
  email: string; // lower-cased
  email_verified: number;
  photo_url: string | null;
  created_at: string;
  /** 1 for the installation's operators (bootstrap admin, `cli users admin`); 0 by default, so rows written without it also fit a database not yet past migration 0023. */
  installation_admin: Generated<number>;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  /** sha256 of the token; the token itself is never stored. */
  token_hash: string;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
  /** The one organization the token may act on (minted from a scoped session); null: unscoped. */
  organization_id: string | null;
}

export interface MembersTable {
  organization_id: string;
  user_id: string;
  role: RoleName | null;
  disabled: number;
  sso: number;
  joined_at: string;
  last_seen_at: string | null;
}

export interface TeamsTable {
  id: string;
  organization_id: string;
  title: string;
  created_at: string;
}

export interface TeamMembersTable {
  team_id: string;
  organization_id: string;
  user_id: string;
  role: 'owner' | 'member';
  added_at: string;
}

export interface InviteLinksTable {
  id: string;
  organization_id: string;
  role: RoleName | null;
  created_by: string;
  created_at: string;
}

export interface AgentInstructionsTable {
  organization_id: string;
  instructions: string; // JSON rich-text document
  updated_at: string;
  updated_by: string;
}

export interface BootstrapTable {
  id: number;
  organization_id: string;
  user_id: string;
  created_at: string;
}


export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/** An organization's SAML identity provider (migration 0016). */
export interface SamlProvidersTable {
  id: string;
  organization_id: string;
  label: string;
  entity_id: string;
  sso_url: string;
  certificate: string;
  default_team_id: string | null;
  default_role: RoleName | null;
  created_at: string;
}

/** An AuthnRequest Quire sent and not yet seen answered. */
export interface SamlRequestsTable {
  id: string;
  provider_id: string;
  created_at: string;
  expires_at: string;
  /** sha256 of the nonce cookie of the browser that started the sign-in. */
  browser_hash: string | null;
}

/** An email domain an organization has proven it owns (docs/security.md, "Tenant model"). */
export interface VerifiedDomainsTable {
  domain: string;
  organization_id: string;
  verified_at: string;
  verified_by: string | null;
}

/** An assertion already accepted (replay refusal). */
export interface SamlAssertionsTable {
  provider_id: string;
  assertion_id: string;
  accepted_at: string;
  expires_at: string;
}

/** A browser session of the app; only the hash of its id is stored. */
export interface SessionsTable {
  id_hash: string;
  user_id: string;
  method: 'saml' | 'link';
  provider_id: string | null;
  organization_id: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** A one-time sign-in link made by the CLI; only the hash of its secret is stored. */
export interface LoginLinksTable {
  secret_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
