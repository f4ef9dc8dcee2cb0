import type { RoleName } from '../src/db/types.ts';
import { newId } from '../src/lib/ids.ts';
import { buildUserRow } from '../src/modules/users/users.service.ts';
import { issueToken } from '../src/modules/users/users.tokens.ts';
import { usersRepository } from '../src/modules/users/users.repository.ts';
import { createOrganizationWithAdmin } from '../src/modules/organizations/organizations.service.ts';
import { membersRepository } from '../src/modules/members/members.repository.ts';
import type { NewPage } from '../src/content/store/editor.ts';
import { editSpaceContent } from '../src/modules/content/content.service.ts';
import type { TestApp } from './app.ts';

/*
 * Test data built straight through services and repositories (people, organizations,
 * teams) or through the API and the content service (content, sites), each with overrides.
 */

let sequence = 0;
const next = () => ++sequence;

export interface TestUser {
  id: string;
  email: string;
  displayName: string;
  token: string;
  tokenId: string;
}

export async function createUser(
  t: TestApp,
  overrides: { email?: string; displayName?: string; emailVerified?: boolean } = {},
): Promise<TestUser> {
  const n = next();
  const row = buildUserRow(t.clock, {
    email: overrides.email ?? `user${n}-${newId(6).toLowerCase()}@example.com`,
    displayName: overrides.displayName ?? `User ${n}`,
    emailVerified: overrides.emailVerified ?? true,
  });
  await usersRepository.insert(t.db, row);
  const { id: tokenId, token } = await issueToken(t.db, t.clock, row.id);
  return { id: row.id, email: row.email, displayName: row.display_name, token, tokenId };
}

export interface TestOrganization {
  id: string;
  admin: TestUser;
}

/** An organization with a fresh admin user (or the given one). */
export async function createOrganization(
  t: TestApp,
  overrides: { title?: string; emailDomains?: string[]; admin?: TestUser } = {},
): Promise<TestOrganization> {
  const admin = overrides.admin ?? (await createUser(t));
  const row = await createOrganizationWithAdmin(
    t.db,
    t.clock,
    { title: overrides.title ?? `Org ${next()}`, emailDomains: overrides.emailDomains },
    admin.id,
  );
  // Distinct creation and join times keep list orders deterministic.
  t.clock.advance(1000);
  return { id: row.id, admin };
}

/** A new user who is a member of the organization with `role` (null: guest). */
export async function createMember(
  t: TestApp,
  organizationId: string,
  role: RoleName | null,
  overrides: { user?: TestUser; disabled?: boolean; email?: string; displayName?: string } = {},
): Promise<TestUser> {
  const user = overrides.user ?? (await createUser(t, { email: overrides.email, displayName: overrides.displayName }));
  await membersRepository.insert(t.db, {
    organization_id: organizationId,
    user_id: user.id,
    role,
    disabled: overrides.disabled ? 1 : 0,
    sso: 0,
    joined_at: t.clock.now().toISOString(),
    last_seen_at: null,
  });
  // Distinct join times keep list orders deterministic.
  t.clock.advance(1000);
  return user;
}

/** A team inserted directly, with optional members (role member unless given). */
export async function createTeam(
  t: TestApp,
  organizationId: string,
  overrides: { title?: string; members?: { userId: string; role?: 'owner' | 'member' }[] } = {},
): Promise<{ id: string; title: string }> {
  const id = newId();
  const title = overrides.title ?? `Team ${next()}`;
  const now = t.clock.now().toISOString();
  await t.db.insertInto('teams').values({ id, organization_id: organizationId, title, created_at: now }).execute();
  for (const m of overrides.members ?? []) {
    await t.db
      .insertInto('team_members')
      .values({ team_id: id, organization_id: organizationId, user_id: m.userId, role: m.role ?? 'member', added_at: now })
      .execute();
  }
  t.clock.advance(1000);
  return { id, title };
}

/*
 * Content and site factories. Each goes through the API (`t.request`, the way a client
 * makes the object) or, for pages, through the content service (the way the app writes
 * content), so every row is real. Given no parent, each builds one: `createPage(t)` makes
 * an organization, its admin and a space. Each advances the clock a second afterwards so
 * creation times are distinct and list orders deterministic.
 */

/** A request that must succeed (2xx); otherwise the factory fails with the response. */
async function created(t: TestApp, what: string, method: 'POST' | 'PUT', url: string, token: string, body: unknown): Promise<any> {
  const res = await t.request(method, url, { token, body });
  if (res.status < 200 || res.status >= 300) throw new Error(`factory: creating ${what} answered ${res.status}: ${res.text}`);
  t.clock.advance(1000);
  return res.body;
}

/** The organization given, or a new one with its admin. */
const organizationOf = async (t: TestApp, organization: TestOrganization | undefined) => organization ?? (await createOrganization(t));

export interface TestSpace {
  id: string;
  /** Head revision when the space was made. */
  revision: string;
  organization: TestOrganization;
  /** The Space wire object the API answered. */
  body: any;
}

/** A space (POST /v1/orgs/{id}/spaces) made by `token` (default: the organization's admin). */
export async function createSpace(
  t: TestApp,
  overrides: { organization?: TestOrganization; token?: string; title?: string; body?: Record<string, unknown> } = {},
): Promise<TestSpace> {
  const organization = await organizationOf(t, overrides.organization);
  const body = await created(t, 'a space', 'POST', `/v1/orgs/${organization.id}/spaces`, overrides.token ?? organization.admin.token, {
    title: overrides.title ?? `Space ${next()}`,
    ...overrides.body,
  });
  return { id: body.id, revision: body.revision, organization, body };
}

export interface TestPage {
  id: string;
  /** The space's head revision after the page was added. */
  revision: string;
  space: TestSpace;
}

/** A page written into the space's main content by the content service (editSpaceContent). */
export async function createPage(
  t: TestApp,
  overrides: { space?: TestSpace; title?: string; markdown?: string; parent?: string; pages?: NewPage[]; userId?: string } = {},
): Promise<TestPage> {
  const space = overrides.space ?? (await createSpace(t));
  let id = '';
  const revision = await editSpaceContent(t.app.deps, space.id, overrides.userId ?? space.organization.admin.id, (e) => {
    const title = overrides.title ?? `Page ${next()}`;
    id = e.insertPage({ title, markdown: overrides.markdown ?? `${title} body.\n`, pages: overrides.pages }, { parent: overrides.parent ?? null });
  });
  t.clock.advance(1000);
  return { id, revision, space };
}

export interface TestChangeRequest {
  id: string;
  number: number;
  space: TestSpace;
  body: any;
}

/** A change request opened on the space by `token` (default: the organization's admin). */
export async function createChangeRequest(
  t: TestApp,
  overrides: { space?: TestSpace; token?: string; subject?: string } = {},
): Promise<TestChangeRequest> {
  const space = overrides.space ?? (await createSpace(t));
  const body = await created(t, 'a change request', 'POST', `/v1/spaces/${space.id}/change-requests`, overrides.token ?? space.organization.admin.token, {
    subject: overrides.subject ?? `Change ${next()}`,
  });
  return { id: body.id, number: body.number, space, body };
}

export interface TestComment {
  id: string;
  space: TestSpace;
  changeRequest?: TestChangeRequest;
  /** The comments URL it was posted to: replies go under `${url}/${id}/replies`. */
  url: string;
  body: any;
}

/** A comment on the space, or on the change request when one is given. */
export async function createComment(
  t: TestApp,
  overrides: { space?: TestSpace; changeRequest?: TestChangeRequest; token?: string; markdown?: string; page?: string } = {},
): Promise<TestComment> {
  const space = overrides.changeRequest?.space ?? overrides.space ?? (await createSpace(t));
  const url = overrides.changeRequest
    ? `/v1/spaces/${space.id}/change-requests/${overrides.changeRequest.id}/comments`
    : `/v1/spaces/${space.id}/comments`;
  const body = await created(t, 'a comment', 'POST', url, overrides.token ?? space.organization.admin.token, {
    body: { markdown: overrides.markdown ?? `Comment ${next()}` },
    ...(overrides.page ? { page: overrides.page } : {}),
  });
  return { id: body.id, space, changeRequest: overrides.changeRequest, url, body };
}

/** A reply to the comment (a new comment on a new space when none is given). */
export async function createCommentReply(
  t: TestApp,
  overrides: { comment?: TestComment; token?: string; markdown?: string } = {},
): Promise<{ id: string; comment: TestComment; body: any }> {
  const comment = overrides.comment ?? (await createComment(t));
  const body = await created(t, 'a reply', 'POST', `${comment.url}/${comment.id}/replies`, overrides.token ?? comment.space.organization.admin.token, {
    body: { markdown: overrides.markdown ?? `Reply ${next()}` },
  });
  return { id: body.id, comment, body };
}

export interface TestSite {
  id: string;
  organization: TestOrganization;
  /** `/v1/orgs/{org}/sites/{site}`: the prefix of the site's own routes. */
  url: string;
  body: any;
}

/** A site (POST /v1/orgs/{id}/sites), with the given spaces attached. */
export async function createSite(
  t: TestApp,
  overrides: { organization?: TestOrganization; token?: string; title?: string; spaces?: string[]; body?: Record<string, unknown> } = {},
): Promise<TestSite> {
  const organization = await organizationOf(t, overrides.organization);
  const body = await created(t, 'a site', 'POST', `/v1/orgs/${organization.id}/sites`, overrides.token ?? organization.admin.token, {
    title: overrides.title ?? `Site ${next()}`,
    ...(overrides.spaces ? { spaces: overrides.spaces } : {}),
    ...overrides.body,
  });
  return { id: body.id, organization, url: `/v1/orgs/${organization.id}/sites/${body.id}`, body };
}

/** A site space: the space (a new one when none is given) attached to the site. */
export async function createSiteSpace(
  t: TestApp,
  overrides: { site?: TestSite; spaceId?: string; sectionId?: string; title?: string; token?: string } = {},
): Promise<{ id: string; site: TestSite; spaceId: string; body: any }> {
  const site = overrides.site ?? (await createSite(t));
  const spaceId = overrides.spaceId ?? (await createSpace(t, { organization: site.organization })).id;
  const body = await created(t, 'a site space', 'POST', `${site.url}/site-spaces`, overrides.token ?? site.organization.admin.token, {
    spaceId,
    ...(overrides.sectionId ? { sectionId: overrides.sectionId } : {}),
    ...(overrides.title ? { title: overrides.title } : {}),
  });
  return { id: body.id, site, spaceId, body };
}

/** A site section showing the space (a new one when none is given). */
export async function createSiteSection(
  t: TestApp,
  overrides: { site?: TestSite; spaceId?: string; title?: string; token?: string; body?: Record<string, unknown> } = {},
): Promise<{ id: string; site: TestSite; spaceId: string; body: any }> {
  const site = overrides.site ?? (await createSite(t));
  const spaceId = overrides.spaceId ?? (await createSpace(t, { organization: site.organization })).id;
  const body = await created(t, 'a site section', 'POST', `${site.url}/sections`, overrides.token ?? site.organization.admin.token, {
    spaceId,
    title: overrides.title ?? `Section ${next()}`,
    ...overrides.body,
  });
  return { id: body.id, site, spaceId, body };
}

/** A small valid OpenAPI 3.0 document, as text. */
export const MINIMAL_OPENAPI_YAML = `openapi: 3.0.3
info:
  title: Test API
  version: "1.0"
paths:
  /things:
    get:
      summary: List things
      responses:
        "200":
          description: The things
`;

/** An OpenAPI spec from a text (POST /v1/orgs/{id}/openapi), processed by the jobs unless `process: false`. */
export async function createOpenAPISpec(
  t: TestApp,
  overrides: { organization?: TestOrganization; token?: string; slug?: string; text?: string; process?: boolean } = {},
): Promise<{ id: string; slug: string; organization: TestOrganization; body: any }> {
  const organization = await organizationOf(t, overrides.organization);
  const slug = overrides.slug ?? `spec-${next()}`;
  const body = await created(t, 'an OpenAPI spec', 'POST', `/v1/orgs/${organization.id}/openapi`, overrides.token ?? organization.admin.token, {
    slug,
    source: { text: overrides.text ?? MINIMAL_OPENAPI_YAML },
  });
  if (overrides.process !== false) await t.runJobsUntilIdle();
  return { id: body.id, slug, organization, body };
}

/** A translation of the space (a new one when none is given) into `language` (default fr); not run. */
export async function createTranslation(
  t: TestApp,
  overrides: { space?: TestSpace; token?: string; sourceLanguage?: string; language?: string } = {},
): Promise<{ id: string; space: TestSpace; body: any }> {
  const space = overrides.space ?? (await createSpace(t));
  const body = await created(t, 'a translation', 'POST', `/v1/orgs/${space.organization.id}/translations`, overrides.token ?? space.organization.admin.token, {
    source: { space: space.id, language: overrides.sourceLanguage ?? 'en' },
    language: overrides.language ?? 'fr',
  });
  return { id: body.id, space, body };
}

/** A support conversation ingested into the organization (POST /v1/orgs/{id}/conversations). */
export async function createConversation(
  t: TestApp,
  overrides: { organization?: TestOrganization; token?: string; id?: string; subject?: string; messages?: string[] } = {},
): Promise<{ id: string; organization: TestOrganization }> {
  const organization = await organizationOf(t, overrides.organization);
  // The API answers 204: a conversation is named by the id its source gave it.
  const id = overrides.id ?? `conversation-${next()}`;
  await created(t, 'a conversation', 'POST', `/v1/orgs/${organization.id}/conversations`, overrides.token ?? organization.admin.token, {
    id,
    ...(overrides.subject ? { subject: overrides.subject } : {}),
    parts: (overrides.messages ?? ['How do I reset my password?']).map((text) => ({ type: 'message', role: 'user', body: text })),
  });
  return { id, organization };
}

/** A collection (POST /v1/orgs/{id}/collections). */
export async function createCollection(
  t: TestApp,
  overrides: { organization?: TestOrganization; token?: string; title?: string; body?: Record<string, unknown> } = {},
): Promise<{ id: string; organization: TestOrganization; body: any }> {
  const organization = await organizationOf(t, overrides.organization);
  const body = await created(t, 'a collection', 'POST', `/v1/orgs/${organization.id}/collections`, overrides.token ?? organization.admin.token, {
    title: overrides.title ?? `Collection ${next()}`,
    ...overrides.body,
  });
  return { id: body.id, organization, body };
}
