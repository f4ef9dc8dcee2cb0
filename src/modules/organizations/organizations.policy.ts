import type { OrganizationAccess } from '../../access/access.ts';
import { atLeast, definePolicy } from '../../policies/index.ts';

/** The caller's standing in one organization, as the access layer loads it (src/access); non-members never get this far (404). */
export type { OrganizationAccess };

const member = (a: OrganizationAccess) => a.role !== null;

/**
 * Organization rules (docs/permissions.md). Guests see the organization but not its
 * directory; admins manage it; `create` and above make content.
 */
export const organizationPolicy = definePolicy<
  OrganizationAccess,
  | 'view'
  | 'access'
  | 'admin'
  | 'ownTeam'
  | 'createContent'
  | 'createOpenAPISpec'
  | 'ingestConversations'
  | 'viewBilling'
  | 'listMembers'
  | 'listTeams'
  | 'listIntegrations'
  | 'listInstallations'
  | 'installIntegration'
  | 'readAgentInstructions'
>({
  view: () => true,
  access: () => true,
  admin: (a) => atLeast(a.role, 'admin'),
  ownTeam: (a) => a.ownsTeam === true,
  createContent: (a) => atLeast(a.role, 'create'),
  createOpenAPISpec: (a) => atLeast(a.role, 'create'),
  ingestConversations: (a) => atLeast(a.role, 'admin'),
  viewBilling: (a) => atLeast(a.role, 'admin'),
  listMembers: member,
  listTeams: member,
  listIntegrations: member,
  listInstallations: (a) => atLeast(a.role, 'admin'),
  installIntegration: (a) => atLeast(a.role, 'admin'),
  // Organization-wide: guests (invited to some content only) do not read them.
  readAgentInstructions: member,
});

/** The caller's standing on the installation, for what is not inside one organization. */
export interface InstallationStanding {
  installationAdmin: boolean;
  emailVerified: boolean;
  /** The caller acts for one organization only (an SSO session or its tokens). */
  scoped: boolean;
}

/**
 * Who may create an organization, by ORG_CREATION (docs/security.md): a caller scoped to one
 * organization never (its credential speaks for that organization only); installation
 * admins always; `verified` adds users whose email address is verified; `anyone` adds all.
 */
export function mayCreateOrganization(setting: 'anyone' | 'verified' | 'admins', who: InstallationStanding): boolean {
  if (who.scoped) return false;
  if (who.installationAdmin) return true;
  if (setting === 'anyone') return true;
  return setting === 'verified' && who.emailVerified;
}
