import { X509Certificate } from 'node:crypto';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import type { Page, PageRequest } from '../../lib/pagination/index.ts';
import { badRequest, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { OrganizationAccess } from '../organizations/organizations.policy.ts';
import { memberAccess } from '../../access/index.ts';
import { teamPermissions } from '../teams/teams.policy.ts';
import { samlProviderPolicy } from './saml-providers.policy.ts';
import type { SamlProviderResult } from './saml-providers.model.ts';
import { samlProvidersRepository, type SamlProviderRow } from './saml-providers.repository.ts';
import type { CreateProviderInput, UpdateProviderInput } from './saml-providers.schemas.ts';

const MANAGE_MESSAGE = 'Only organization admins can manage SAML providers';

/**
 * The certificate as a normalized PEM, or 400. Identity providers hand out either a PEM
 * or just its base64 body (metadata XML); both are accepted, anything X509Certificate
 * cannot parse is refused before it is stored.
 */
export function normalizeCertificate(input: string): string {
  const text = input.trim();
  const pem = text.includes('-----BEGIN')
    ? text
    : `-----BEGIN CERTIFICATE-----\n${(text.replace(/\s+/g, '').match(/.{1,64}/g) ?? []).join('\n')}\n-----END CERTIFICATE-----`;
  try {
    return new X509Certificate(pem).toString().trim();
  } catch {
    throw badRequest('body/certificate is not an X.509 certificate in PEM form');
  }
}

async function checkTeam(db: Db, organizationId: string, teamId: string | null | undefined, callerId: string): Promise<void> {
  if (!teamId) return;
  const [team] = await samlProvidersRepository.teams(db, organizationId, [teamId], callerId);
  if (!team) throw badRequest(`body/defaultTeam: "${teamId}" is not a team of this organization`);
}

/** Rows -> results, each with its default team as the caller sees it (one query for all of them). */
async function withTeams(db: Db, access: OrganizationAccess, rows: SamlProviderRow[]): Promise<SamlProviderResult[]> {
  const teams = await samlProvidersRepository.teams(db, access.organizationId, rows.map((r) => r.default_team_id), access.userId);
  const byId = new Map(teams.map((team) => [team.id, team]));
  return rows.map((row) => {
    const team = row.default_team_id ? byId.get(row.default_team_id) : undefined;
    const defaultTeam = team ? { team, permissions: teamPermissions({ ...access, teamRole: team.caller_role }) } : undefined;
    return { provider: row, defaultTeam };
  });
}

async function adminAccess(ctx: Context, db: Db, organizationId: string): Promise<OrganizationAccess> {
  const access = await memberAccess({ ...ctx, db }, organizationId);
  samlProviderPolicy.authorize('manage', access, MANAGE_MESSAGE);
  return access;
}

/** GET /v1/orgs/{organizationId}/saml: admins. */
export async function listProviders(ctx: Context, organizationId: string, page: PageRequest): Promise<Page<SamlProviderResult>> {
  const access = await adminAccess(ctx, ctx.db, organizationId);
  const result = await samlProvidersRepository.list(ctx.db, organizationId, page);
  return { ...result, items: await withTeams(ctx.db, access, result.items) };
}

/** POST /v1/orgs/{organizationId}/saml: admins; every field checked before anything is stored. */
export async function createProvider(ctx: Context, organizationId: string, input: CreateProviderInput): Promise<SamlProviderResult> {
  return ctx.transaction(async (tctx) => {
    const access = await adminAccess(ctx, tctx.db, organizationId);
    const certificate = normalizeCertificate(input.certificate);
    await checkTeam(tctx.db, organizationId, input.defaultTeam, access.userId);
    const row: SamlProviderRow = {
      id: newId(),
      organization_id: organizationId,
      label: input.label.trim(),
      entity_id: input.entityID.trim(),
      sso_url: input.ssoURL,
      certificate,
      default_team_id: input.defaultTeam ?? null,
      // Members who join through SSO read by default; an admin can choose otherwise.
      default_role: input.defaultRole === undefined ? 'read' : input.defaultRole,
      created_at: isoNow(ctx.clock),
    };
    await samlProvidersRepository.insert(tctx.db, row);
    const [result] = await withTeams(tctx.db, access, [row]);
    return result;
  });
}

/** GET /v1/orgs/{organizationId}/saml/{samlProviderId}: admins. */
export async function getProvider(ctx: Context, organizationId: string, providerId: string): Promise<SamlProviderResult> {
  const access = await adminAccess(ctx, ctx.db, organizationId);
  const row = await samlProvidersRepository.find(ctx.db, organizationId, providerId);
  if (!row) throw notFound('SAML provider');
  const [result] = await withTeams(ctx.db, access, [row]);
  return result;
}

/** PATCH /v1/orgs/{organizationId}/saml/{samlProviderId}: admins; only the fields sent change. */
export async function updateProvider(ctx: Context, organizationId: string, providerId: string, input: UpdateProviderInput): Promise<SamlProviderResult> {
  return ctx.transaction(async (tctx) => {
    const access = await adminAccess(ctx, tctx.db, organizationId);
    const row = await samlProvidersRepository.find(tctx.db, organizationId, providerId);
    if (!row) throw notFound('SAML provider');
    const changes: Partial<SamlProviderRow> = {};
    if (input.label !== undefined) changes.label = input.label.trim();
    if (input.entityID !== undefined) changes.entity_id = input.entityID.trim();
    if (input.ssoURL !== undefined) changes.sso_url = input.ssoURL;
    if (input.certificate !== undefined) changes.certificate = normalizeCertificate(input.certificate);
    if (input.defaultTeam !== undefined) {
      await checkTeam(tctx.db, organizationId, input.defaultTeam, access.userId);
      changes.default_team_id = input.defaultTeam;
    }
    if (input.defaultRole !== undefined) changes.default_role = input.defaultRole;
    await samlProvidersRepository.update(tctx.db, organizationId, providerId, changes);
    const [result] = await withTeams(tctx.db, access, [{ ...row, ...changes }]);
    return result;
  });
}

/** DELETE /v1/orgs/{organizationId}/saml/{samlProviderId}: admins; done also when absent. */
export async function deleteProvider(ctx: Context, organizationId: string, providerId: string) {
  await ctx.transaction(async (tctx) => {
    await adminAccess(ctx, tctx.db, organizationId);
    await samlProvidersRepository.delete(tctx.db, organizationId, providerId);
  });
}

/** GET /v1/orgs/{organizationId}/sso: public (the sign-in page); 404 for an unknown organization. */
export async function listSsoLogins(ctx: Pick<Context, 'db'>, organizationId: string): Promise<Pick<SamlProviderRow, 'id' | 'label'>[]> {
  if (!(await samlProvidersRepository.organizationExists(ctx.db, organizationId))) throw notFound('Organization');
  return samlProvidersRepository.listAll(ctx.db, organizationId);
}
