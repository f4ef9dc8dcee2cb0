import type { AppDeps, Context } from '../../context.ts';
import { forbidden, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { actorReaches, loadSite, memberAccess, organizationAccess, reachableCollections, requireAccess } from '../../access/index.ts';
import { collectionsRepository } from '../collections/collections.repository.ts';
import { getSpace, listSpaces } from '../spaces/spaces.service.ts';
import { getPage, listPages } from '../content/content.service.ts';
import { outlineOf, pageOf } from '../content/content.model.ts';
import { publishedSiteUrl } from '../../lib/urls.ts';
import { searchOrganization, searchSpace } from '../search/search.service.ts';
import { pageDiff, type PageDiff } from './app-area.diff.ts';
import { renderDocument } from '../../site/render-document.ts';
import { loadSnapshot } from '../../content/store/snapshot.ts';
import type { PageNode } from '../../content/store/types.ts';
import { serviceUrls } from '../saml-providers/saml-providers.urls.ts';
import { issueToken } from '../users/users.tokens.ts';
import { sessionScope, type BrowserSession } from '../../access/index.ts';
import { sessionMayCreateTokens, sessionMaySee } from './app-area.policy.ts';
import { appAreaRepository } from './app-area.repository.ts';
import type { AccountView, SearchView, TreePage } from './app-area.views.ts';

/** An organization's sign-in page: its title and providers; 404 for an unknown organization. */
export async function organizationSignIn(deps: AppDeps, organizationKey: string) {
  const organization = await appAreaRepository.organizationByIdOrHostname(deps.db, organizationKey);
  if (!organization) throw notFound('Organization');
  const providers = await appAreaRepository.providersOf(deps.db, organization.id);
  return { id: organization.id, title: organization.title, providers: providers.map((p) => ({ label: p.label, startURL: serviceUrls(deps.config, p.id).startURL })) };
}

export async function accountView(ctx: Context, session: BrowserSession, newToken?: string): Promise<AccountView> {
  // A scoped session sees the account as its organization knows it: that membership and
  // the tokens minted for it, nothing of the person's other organizations.
  const scope = sessionScope(session.row);
  const [user, memberships, tokens] = await Promise.all([
    appAreaRepository.user(ctx.db, session.row.user_id),
    appAreaRepository.memberships(ctx.db, session.row.user_id),
    appAreaRepository.activeTokens(ctx.db, session.row.user_id, scope),
  ]);
  if (!user) throw notFound('User');
  return {
    user,
    memberships: memberships.filter((m) => actorReaches(ctx.actor, m.id)),
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
  // A token is scoped as the session it came from: an SSO session's token acts on that organization only.
  const { token } = await issueToken(ctx.db, ctx.clock, session.row.user_id, label?.trim() ? label.trim().slice(0, 100) : 'app', sessionScope(session.row));
  return token;
}

/** Revokes one of the user's own tokens; 404 for anyone else's. */
export async function revokeToken(ctx: Context, session: BrowserSession, tokenId: string): Promise<void> {
  if (!(await appAreaRepository.revokeOwnToken(ctx.db, session.row.user_id, tokenId, isoNow(ctx.clock), sessionScope(session.row)))) throw notFound('API token');
}

/** SSO enforcement: an organization with `sso` shows its content only to sessions of its own providers. */
async function enforceSso(ctx: Context, session: BrowserSession, organizationId: string): Promise<void> {
  const organization = await appAreaRepository.organizationSso(ctx.db, organizationId);
  if (organization && !sessionMaySee(session.row, organization)) {
    throw forbidden('This organization requires signing in through its identity provider');
  }
}

export async function organizationView(ctx: Context, session: BrowserSession, organizationId: string) {
  // Who may see an organization is the access layer's (404 for non-members), as for the API.
  const { organization } = await organizationAccess(ctx, organizationId);
  await enforceSso(ctx, session, organizationId);
  const [spaces, collections] = await Promise.all([listSpaces(ctx, organizationId, { limit: 1000 }), visibleCollections(ctx, organizationId)]);
  return {
    organization: { title: organization.title },
    spaces: spaces.items.map(({ space: s }) => ({ id: s.id, title: s.title, ...(s.emoji ? { emoji: s.emoji } : {}) })),
    collections: collections.items.map((c) => ({ id: c.id, title: c.title })),
  };
}

/** The organization's collections the member sees (GET {O}/collections?nested=true's rows, first 1000). */
async function visibleCollections(ctx: Context, organizationId: string) {
  const access = await memberAccess(ctx, organizationId);
  const visible = await reachableCollections(ctx, organizationId, access.role);
  return collectionsRepository.list(ctx.db, organizationId, { visible, nested: true }, { limit: 1000 });
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

/** Refuses a session the space's organization requires SSO of; answers that organization's id. */
export async function enforceSpaceSso(ctx: Context, session: BrowserSession, spaceId: string): Promise<string | undefined> {
  const owner = await appAreaRepository.spaceOrganization(ctx.db, spaceId);
  if (owner) await enforceSso(ctx, session, owner.organization_id);
  return owner?.organization_id;
}

/**
 * A space with its page tree and one page rendered (the first when none is named), at its
 * current revision or at `revisionId` (the `urls.app` of a revision).
 */
export async function spaceView(ctx: Context, session: BrowserSession, spaceId: string, pageId?: string, revisionId?: string) {
  const { space } = await getSpace(ctx, spaceId);
  await enforceSpaceSso(ctx, session, spaceId);
  const at = revisionId ? { revisionId } : {};
  const pages: TreePage[] = outlineOf((await listPages(ctx, spaceId, at)).pages);
  const id = pageId ?? firstPage(pages)?.id;
  const spaceOf = { id: space.id, title: space.title, ...(revisionId ? { revisionId } : {}) };
  if (!id) return { space: spaceOf, pages, page: null };
  const page = pageOf(await getPage(ctx, spaceId, id, { ...at, format: 'document' })) as {
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
    space: spaceOf,
    pages,
    page: { id: page.id, title: page.title, ...(page.description ? { description: page.description } : {}), html: rendered.html },
  };
}

/** At most this many changed pages are diffed on a change request's page (the rest are listed). */
const DIFFED_PAGES = 50;

async function pageMarkdown(ctx: Context, spaceId: string, revisionId: string, node: PageNode | undefined): Promise<string> {
  if (node?.entry.type !== 'document') return '';
  const read = pageOf(await getPage(ctx, spaceId, node.entry.id, { revisionId, format: 'markdown' }));
  return read.markdown ?? '';
}

/**
 * What a change request changes: each page added, removed, renamed or edited between the
 * revision it last took from the space (`revision_merged_ancestor`) and its head, as a
 * line diff of the page's GitBook markdown. The caller has checked access to the change
 * request, whose revisions these are.
 */
export async function changedPages(ctx: Context, spaceId: string, fromRevision: string, toRevision: string): Promise<PageDiff[]> {
  const [before, after] = await Promise.all([loadSnapshot(ctx.db, spaceId, fromRevision), loadSnapshot(ctx.db, spaceId, toRevision)]);
  const ids = [...new Set([...after.byId.keys(), ...before.byId.keys()])];
  const diffs: PageDiff[] = [];
  let diffed = 0;
  for (const id of ids) {
    const [old, now] = [before.byId.get(id)?.entry, after.byId.get(id)?.entry];
    if (diffed >= DIFFED_PAGES) {
      if (!old || !now || old.title !== now.title) diffs.push(pageDiff(old, now, undefined, undefined));
      continue;
    }
    const [oldText, newText] = await Promise.all([
      pageMarkdown(ctx, spaceId, fromRevision, before.byId.get(id)),
      pageMarkdown(ctx, spaceId, toRevision, after.byId.get(id)),
    ]);
    if (old && now && old.title === now.title && oldText === newText) continue;
    diffs.push(pageDiff(old, now, oldText, newText));
    diffed++;
  }
  return diffs;
}

/** A collection (its `urls.app`): the spaces in it the member can see. */
export async function collectionView(ctx: Context, session: BrowserSession, organizationId: string, collectionId: string) {
  // Who may read a collection is the access layer's (requireAccess: 404 otherwise), as for the API.
  const { row: collection } = (await requireAccess(ctx, { permission: 'collection.read', ids: [collectionId], what: 'Collection' })).get(collectionId)!;
  if (collection.organization_id !== organizationId) throw notFound('Collection');
  await enforceSso(ctx, session, organizationId);
  const spaces = await listSpaces(ctx, organizationId, { limit: 1000 }, collectionId);
  return {
    organization: { id: organizationId },
    collection: { id: collection.id, title: collection.title },
    spaces: spaces.items.map(({ space: s }) => ({ id: s.id, title: s.title, ...(s.emoji ? { emoji: s.emoji } : {}) })),
  };
}

/** A docs site (its `urls.app`): title, visibility and where it is published. */
export async function siteView(ctx: Context, session: BrowserSession, organizationId: string, siteId: string) {
  // Who may see a site is the access layer's (loadSite: 404 otherwise), as for the API.
  const { site } = await loadSite(ctx, organizationId, siteId);
  await enforceSso(ctx, session, organizationId);
  const published = site.published === 1 ? publishedSiteUrl(ctx.config, site) : undefined;
  return { organization: { id: organizationId }, site: { id: site.id, title: site.title, visibility: site.visibility, published } };
}

/** Search of one space in the app: the API's search, as the member. */
export async function searchSpaceView(ctx: Context, session: BrowserSession, spaceId: string, text: string): Promise<SearchView> {
  const query = text.trim();
  const { space } = await getSpace(ctx, spaceId);
  await enforceSpaceSso(ctx, session, spaceId);
  const found = query ? { kind: 'space' as const, result: await searchSpace(ctx, spaceId, query, { limit: 50 }) } : undefined;
  return { query, scope: { kind: 'space', id: space.id, title: space.title }, found };
}

/** Search of an organization in the app (every space the member sees), grouped by space. */
export async function searchOrganizationView(ctx: Context, session: BrowserSession, organizationId: string, text: string): Promise<SearchView> {
  const query = text.trim();
  const { organization } = await organizationAccess(ctx, organizationId);
  await enforceSso(ctx, session, organizationId);
  const found = query ? { kind: 'organization' as const, result: await searchOrganization(ctx, organizationId, query, { limit: 20 }) } : undefined;
  return { query, scope: { kind: 'organization', id: organizationId, title: organization.title }, found };
}
