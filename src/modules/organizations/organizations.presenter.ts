import type { Config } from '../../config.ts';
import type { AgentInstructionsTable } from '../../db/types.ts';
import type { Page } from '../../lib/pagination/index.ts';
import { apiUrl, appUrl } from '../../lib/urls.ts';
import type { OrganizationResult, OrganizationsPage } from './organizations.model.ts';
import { organizationPolicy, type OrganizationAccess } from './organizations.policy.ts';
import type { OrganizationRow } from './organizations.repository.ts';
import type { OrganizationWire } from './organizations.schemas.ts';

const FREE = { monthly: 0, yearly: 0 };

/**
 * A self-hosted server bills nobody: every feature is on (plan enterprise_2024), prices are
 * zero, and no trial applies (docs/decisions.md).
 */
const SELF_HOSTED_BILLING: NonNullable<OrganizationWire['billing']> = {
  interval: 'yearly',
  endDate: null,
  hasPaymentFailed: false,
  canCheckout: false,
  isScheduledToCancel: false,
  pricing: { members: { plus_2024: FREE, pro_2024: FREE }, sites: { premium: FREE, ultimate: FREE } },
  usageAddons: {},
  canChangeInterval: false,
  canUseSAML: true,
  creditsBundle: null,
  aiCreditAlertThreshold: null,
};

/** organizations row -> Organization wire object, with the caller's permissions. */
export function presentOrganization(
  config: Pick<Config, 'publicUrl'>,
  row: OrganizationRow,
  access: OrganizationAccess | null,
): OrganizationWire {
  const permissions = access
    ? organizationPolicy.permissions(access)
    : {
        view: false,
        access: false,
        admin: false,
        ownTeam: false,
        createContent: false,
        createOpenAPISpec: false,
        ingestConversations: false,
        viewBilling: false,
        listMembers: false,
        listTeams: false,
        listIntegrations: false,
        listInstallations: false,
        installIntegration: false,
      };
  const org: OrganizationWire = {
    object: 'organization',
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    emailDomains: JSON.parse(row.email_domains) as string[],
    type: row.type,
    defaultRole: row.default_role,
    sso: row.sso === 1,
    ai: row.ai === 1,
    inviteLinks: row.invite_links === 1,
    auditLogs: false,
    plan: 'enterprise_2024',
    mergeRules: JSON.parse(row.merge_rules),
    urls: { location: apiUrl(config, `/orgs/${row.id}`), app: appUrl(config, `/o/${row.id}`) },
    trial: { status: 'notapplicable', count: 0 },
    permissions,
  };
  if (row.hostname) org.hostname = row.hostname;
  if (row.use_case) org.useCase = row.use_case;
  if (row.community_type) org.communityType = row.community_type;
  if (row.default_content) org.defaultContent = JSON.parse(row.default_content);
  if (row.logo_url) org.urls.logo = row.logo_url;
  if (row.custom_hostname) org.customHostname = row.custom_hostname;
  // Billing details are for members only, as on GitBook.
  if (access) org.billing = SELF_HOSTED_BILLING;
  return org;
}

export const presentOrganizationResult = (config: Pick<Config, 'publicUrl'>, result: OrganizationResult): OrganizationWire =>
  presentOrganization(config, result.organization, result.access);

export function presentOrganizationsPage(config: Pick<Config, 'publicUrl'>, page: OrganizationsPage): Page<OrganizationWire> {
  return { ...page, items: page.items.map((result) => presentOrganizationResult(config, result)) };
}

/** agent_instructions row -> AgentInstructions wire object. */
export function presentAgentInstructions(config: Pick<Config, 'publicUrl'>, row: AgentInstructionsTable) {
  return {
    object: 'agent-instructions' as const,
    instructions: JSON.parse(row.instructions),
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
    urls: { location: apiUrl(config, `/orgs/${row.organization_id}/agent-instructions`) },
  };
}
