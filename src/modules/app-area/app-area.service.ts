import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, Context } from '../../context.ts';
import { forbidden, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { getOrganization } from '../organizations/organizations.service.ts';
import { listCollections } from '../collections/collections.service.ts';
import { getSpace, listSpaces } from '../spaces/spaces.service.ts';
import { getPage, listPages } from '../content/content.service.ts';
import { renderDocument } from '../../site/render-document.ts';
import { serviceUrls } from '../saml-providers/saml-providers.presenter.ts';
import { issueToken } from '../users/users.service.ts';
import type { BrowserSession } from '../sessions/sessions.service.ts';
import { sessionMayCreateTokens, sessionMaySee } from './app-area.policy.ts';
import { appAreaRepository } from './app-area.repository.ts';
import type { AccountView, TreePage } from './app-area.presenter.ts';

/**
 * The service context of a signed-in browser: the session's user as the actor, so every
 * read goes through the same services and permission rules as the API (and answers 404
 * where the API would).
 */
export function sessionContext(deps: AppDeps, session: BrowserSession, requestId: string, log: FastifyBaseLogger): Context {
  return { ...deps, actor: { userId: session.row.user_id, tokenId: `session` }, requestId, log };
}

/** The sign-in page's providers, grouped by organization. */
export async function signInProviders(deps: AppDeps) {
  const rows = await appAreaRepository.providersByOrganization(deps.db);
  const groups = new Map<string, { title: string; providers: { label: string; startURL: string }[] }>();
  for (const row of rows) {
    const group = groups.get(row.organization_id) ?? { title: row.organization_title, providers: [] };
    group.providers.push({ label: row.label, startURL: serviceUrls(deps.config, row.id).startURL });
    groups.set(row.organization_id, group);
  }
  return [...groups.values()];
}

export async function accountView(ctx: Context, session: BrowserSession, newToken?: string): Promise<AccountView> {
  const [user, memberships, tokens] = await Promise.all([
    appAreaRepository.user(ctx.db, session.row.user_id),
    appAreaRepository.memberships(ctx.db, session.row.user_id),
    appAreaRepository.activeTokens(ctx.db, session.row.user_id),
  ]);
  if (!user) throw notFound('User');
  return {
    user,
    memberships,
    tokens,
    newToken,
    mayCreateTokens: sessionMayCreateTokens(session.row, memberships),
    signedInWith: session.row.method === 'saml' ? 'single sign-on' : 'a one-time sign-in link',
  };
}

/** Creates a personal API token for the session's user; the token is returned once, only its hash is kept. */
export async function createToken(ctx: Context, session: BrowserSession, label: string | undefined): Promise<string> {
  const memberships = await appAreaRepository.memberships(ctx.db, session.row.user_id);
  if (!sessionMayCreateTokens(session.row, memberships)) {
    throw forbidden('An organization you belong to enforces SSO: sign in through its identity provider to create API tokens');
  }
  const { token } = await issueToken(ctx.db, ctx.clock, session.row.user_id, label?.trim() ? label.trim().slice(0, 100) : 'app');
  return token;
}

/** Revokes one of the user's own tokens; 404 for anyone else's. */
export async function revokeToken(ctx: Context, session: BrowserSession, tokenId: string): Promise<void> {
  if (!(await appAreaRepository.revokeOwnToken(ctx.db, session.row.user_id, tokenId, isoNow(ctx.clock)))) throw notFound('API token');
}

/** SSO enforcement: an organization with `sso` shows its content only to sessions of its own providers. */
async function enforceSso(ctx: Context, session: BrowserSession, organizationId: string): Promise<void> {
  const organization = await appAreaRepository.organizationSso(ctx.db, organizationId);
  if (organization && !sessionMaySee(session.row, organization)) {
    throw forbidden('This organization requires signing in through its identity provider');
  }
}

export async function organizationView(ctx: Context, session: BrowserSession, organizationId: string) {
  const organization = await getOrganization(ctx, organizationId);
  await enforceSso(ctx, session, organizationId);
  const [spaces, collections] = await Promise.all([
    listSpaces(ctx, organizationId, { limit: 1000 }),
    listCollections(ctx, organizationId, true, { limit: 1000 }),
  ]);
  return {
    organization: { title: organization.title },
    spaces: spaces.items.map((s) => ({ id: s.id, title: s.title, ...(s.emoji ? { emoji: s.emoji } : {}) })),
    collections: (collections.items as { id: string; title: string }[]).map((c) => ({ id: c.id, title: c.title })),
  };
}

function firstPage(pages: TreePage[]): TreePage | undefined {
  for (const page of pages) {
    const kind = page.kind ?? page.type;
    if (kind === 'sheet' || kind === 'document') return page;
    const inner = firstPage(page.pages ?? []);
    if (inner) return inner;
  }
  return undefined;
}

/** A space with its page tree and one page rendered (the first when none is named). */
export async function spaceView(ctx: Context, session: BrowserSession, spaceId: string, pageId?: string) {
  const space = await getSpace(ctx, spaceId);
  const owner = await appAreaRepository.spaceOrganization(ctx.db, spaceId);
  if (owner) await enforceSso(ctx, session, owner.organization_id);
  const { pages } = (await listPages(ctx, spaceId, {})) as { pages: TreePage[] };
  const id = pageId ?? firstPage(pages)?.id;
  if (!id) return { space: { id: space.id, title: space.title }, pages, page: null };
  const page = (await getPage(ctx, spaceId, id, { format: 'document' })) as {
    id: string;
    title: string;
    description?: string;
    document?: unknown;
  };
  const appBase = `${ctx.config.publicUrl}/app`;
  const rendered = renderDocument(page.document as never, {
    page: (target, targetSpace) => `${appBase}/s/${encodeURIComponent(targetSpace ?? spaceId)}/pages/${encodeURIComponent(target)}`,
    space: (target) => `${appBase}/s/${encodeURIComponent(target)}`,
    file: () => null,
  });
  return {
    space: { id: space.id, title: space.title },
    pages,
    page: { id: page.id, title: page.title, ...(page.description ? { description: page.description } : {}), html: rendered.html },
  };
}
