import type { Context } from '../../context.ts';
import { actorReaches, memberAccess, organizationAccess, organizationAccessOf as accessOf } from '../../access/index.ts';
import type { Db } from '../../db/database.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { isoNow, type Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { reuseUnlessChanged } from '../../db/read-cache.ts';
import type { AgentInstructionsTable } from '../../db/types.ts';
import type { PageRequest } from '../../lib/pagination/index.ts';
import { mayCreateOrganization, organizationPolicy } from './organizations.policy.ts';
import type { OrganizationResult, OrganizationsPage } from './organizations.model.ts';
import { organizationsRepository, type OrganizationRow } from './organizations.repository.ts';
import { usersRepository } from '../users/users.repository.ts';
import type { UpdateOrganizationInput } from './organizations.schemas.ts';
import { normalizeMergeRules } from './organizations.rules.ts';

const EMPTY_DOCUMENT = JSON.stringify({ object: 'document', data: {}, nodes: [] });

/** GET /v1/orgs */
export async function listOrganizations(ctx: Context, page: PageRequest): Promise<OrganizationsPage> {
  const result = await organizationsRepository.listForUser(ctx.db, ctx.actor.userId, page);
  // A scoped caller sees its own organization only (the count stays the page query's).
  const items = result.items.filter((row) => actorReaches(ctx.actor, row.id));
  return { ...result, items: items.map((row) => ({ organization: row, access: accessOf(row) })) };
}

/** GET /v1/orgs/{organizationId} */
export function getOrganization(ctx: Context, organizationId: string): OrganizationResult | Promise<OrganizationResult> {
  // Reused while the organization and its members are unchanged (the route presents and
  // serializes it once, presentReused); a hit answers synchronously.
  return reuseUnlessChanged(ctx.db, ctx.caches.listings, `org-get\u0000${organizationId}\u0000${ctx.actor.userId}`, async (depend) => {
    depend(`org:${organizationId}`);
    const { organization, access } = await organizationAccess(ctx, organizationId);
    return { organization, access };
  });
}

export interface NewOrganization {
  title: string;
  emailDomains?: string[];
  /** Chosen by the caller when it must be known before the row exists (bootstrap). */
  id?: string;
}

/**
 * Creates an organization with `adminUserId` as its first admin, and its (empty) agent
 * instructions, in one transaction. Used by POST /v1/orgs and the first-start bootstrap.
 */
export async function createOrganizationWithAdmin(db: Db, clock: Clock, input: NewOrganization, adminUserId: string) {
  const now = isoNow(clock);
  const row: OrganizationRow = {
    id: input.id ?? newId(),
    title: input.title.trim(),
    created_at: now,
    email_domains: JSON.stringify(normalizeDomains(input.emailDomains ?? [])),
    hostname: null,
    type: 'business',
    use_case: null,
    community_type: null,
    default_role: 'read',
    default_content: null,
    sso: 0,
    ai: 0,
    invite_links: 1,
    logo_url: null,
    merge_rules: JSON.stringify({ type: 'none' }),
    custom_hostname: null,
  };
  await organizationsRepository.insert(db, row);
  await organizationsRepository.insertFounder(db, row.id, adminUserId, now);
  await organizationsRepository.upsertAgentInstructions(db, {
    organization_id: row.id,
    instructions: EMPTY_DOCUMENT,
    updated_at: now,
    updated_by: adminUserId,
  });
  return row;
}

function normalizeDomains(domains: string[]): string[] {
  return [...new Set(domains.map((d) => d.trim().toLowerCase()))];
}

/** POST /v1/orgs: whoever ORG_CREATION allows founds an organization and becomes its admin. */
export async function createOrganization(ctx: Context, input: NewOrganization): Promise<OrganizationResult> {
  const caller = await usersRepository.findById(ctx.db, ctx.actor.userId);
  const standing = {
    installationAdmin: caller?.installation_admin === 1,
    emailVerified: caller?.email_verified === 1,
    scoped: ctx.actor.organizationId !== null,
  };
  if (!mayCreateOrganization(ctx.config.orgCreation, standing)) {
    throw forbidden(
      standing.scoped
        ? 'This credential acts for one organization only and cannot create organizations'
        : ctx.config.orgCreation === 'admins'
          ? 'Only installation administrators can create organizations on this installation'
          : 'Only users with a verified email address can create organizations on this installation',
    );
  }
  const row = await ctx.db
    .transaction()
    .execute((trx) => createOrganizationWithAdmin(trx, ctx.clock, input, ctx.actor.userId));
  return { organization: row, access: { organizationId: row.id, userId: ctx.actor.userId, role: 'admin' } };
}

/** PATCH /v1/orgs/{organizationId}: admins only. */
export async function updateOrganization(ctx: Context, organizationId: string, input: UpdateOrganizationInput): Promise<OrganizationResult> {
  return ctx.transaction(async (tctx) => {
    const access = await memberAccess(tctx, organizationId);
    organizationPolicy.authorize('admin', access, 'Only organization admins can change its settings');

    const changes: Partial<OrganizationRow> = {};
    if (input.title !== undefined) changes.title = input.title.trim();
    if (input.emailDomains !== undefined) changes.email_domains = JSON.stringify(normalizeDomains(input.emailDomains));
    if (input.hostname !== undefined) {
      if (await organizationsRepository.hostnameTaken(tctx.db, input.hostname, organizationId)) {
        throw conflict(`hostname "${input.hostname}" is already used by another organization`);
      }
      changes.hostname = input.hostname;
    }
    if (input.defaultRole !== undefined) changes.default_role = input.defaultRole;
    if (input.defaultContent !== undefined) {
      if (input.defaultContent !== null) {
        // Sites, spaces and collections arrive with later modules; until then none can exist.
        const target = input.defaultContent;
        const id = 'site' in target ? target.site : 'space' in target ? target.space : target.collection;
        throw badRequest(`body/defaultContent: ${target.type} "${id}" does not exist in this organization`);
      }
      changes.default_content = null;
    }
    if (input.logo !== undefined) changes.logo_url = input.logo;
    if (input.sso !== undefined) changes.sso = input.sso ? 1 : 0;
    if (input.ai !== undefined) changes.ai = input.ai ? 1 : 0;
    if (input.inviteLinks !== undefined) changes.invite_links = input.inviteLinks ? 1 : 0;
    if (input.mergeRules !== undefined) {
      changes.merge_rules = JSON.stringify(await normalizeMergeRules(tctx.db, organizationId, input.mergeRules));
    }

    await organizationsRepository.update(tctx.db, organizationId, changes);
    const updated = (await organizationsRepository.findById(tctx.db, organizationId)) as OrganizationRow;
    return { organization: updated, access };
  });
}

/** GET /v1/email-domains/{emailDomain}/orgs: organizations a user of that domain may join. */
export async function listOrganizationsForEmailDomain(ctx: Context, emailDomain: string): Promise<OrganizationResult[]> {
  const domain = emailDomain.trim().toLowerCase();
  // Only users of that domain (a verified address) learn which organizations take it;
  // anyone else sees just the ones they already belong to. Otherwise any signed-in user
  // could read any organization's title, domains and settings by guessing its domain.
  const caller = await usersRepository.findById(ctx.db, ctx.actor.userId);
  const callersDomain = caller && caller.email_verified === 1 ? caller.email.slice(caller.email.lastIndexOf('@') + 1).toLowerCase() : null;
  const rows = await organizationsRepository.listByEmailDomain(ctx.db, domain, ctx.actor.userId);
  const visible = (callersDomain === domain ? rows : rows.filter((row) => accessOf(row) !== null)).filter((row) => actorReaches(ctx.actor, row.id));
  return visible.map((row) => ({ organization: row, access: accessOf(row) }));
}

/** GET /v1/orgs/{organizationId}/agent-instructions */
export async function getAgentInstructions(ctx: Context, organizationId: string): Promise<AgentInstructionsTable> {
  const { organization, access } = await organizationAccess(ctx, organizationId);
  organizationPolicy.authorize('readAgentInstructions', access, 'Guests cannot read the organization agent instructions');
  const row = await organizationsRepository.findAgentInstructions(ctx.db, organizationId);
  return row ?? { organization_id: organizationId, instructions: EMPTY_DOCUMENT, updated_at: organization.created_at, updated_by: '' };
}

/** PUT /v1/orgs/{organizationId}/agent-instructions: admins only. */
export async function updateAgentInstructions(ctx: Context, organizationId: string, instructions: unknown): Promise<AgentInstructionsTable> {
  return ctx.transaction(async (tctx) => {
    const access = await memberAccess(tctx, organizationId);
    organizationPolicy.authorize('admin', access, 'Only organization admins can change the agent instructions');
    const row = {
      organization_id: organizationId,
      instructions: JSON.stringify(instructions),
      updated_at: isoNow(ctx.clock),
      updated_by: ctx.actor.userId,
    };
    await organizationsRepository.upsertAgentInstructions(tctx.db, row);
    return row;
  });
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * Marks an email domain as verified by an organization: its identity providers may then
 * create accounts on that domain and sign in anyone there (docs/security.md, "Tenant model").
 * Done by an installation admin (the CLI, `orgs verify-domain`), who has checked the proof
 * out of band. One organization per domain: 409 when another holds it.
 */
export async function verifyDomain(db: Db, clock: Clock, organizationId: string, domainInput: string, verifiedBy: string | null) {
  const domain = domainInput.trim().toLowerCase();
  if (!DOMAIN.test(domain)) throw badRequest(`"${domainInput}" is not a domain name`);
  if (!(await organizationsRepository.findById(db, organizationId))) throw notFound('Organization');
  const held = await organizationsRepository.verifiedDomain(db, domain);
  if (held) {
    if (held.organization_id === organizationId) return held;
    throw conflict(`the domain "${domain}" is verified by another organization`);
  }
  const row = { domain, organization_id: organizationId, verified_at: isoNow(clock), verified_by: verifiedBy };
  try {
    await organizationsRepository.insertVerifiedDomain(db, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`the domain "${domain}" is verified by another organization`);
    throw error;
  }
  return row;
}
