import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import {
  createChangeRequest,
  createCollection,
  createComment,
  createCommentReply,
  createConversation,
  createOpenAPISpec,
  createPage,
  createSite,
  createSiteSection,
  createSiteSpace,
  createSpace,
  createTranslation,
} from './factories.ts';
import { createRoleMatrix, MATRIX_ROLES } from './role-matrix.ts';

/* The factories and the role matrix make real objects: what they made reads back through the API. */
describe('test factories', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('createPage with no space makes an organization, its admin and a space, and the page reads back', async () => {
    const page = await createPage(t, { title: 'Getting started', markdown: 'Hello.\n' });
    const token = page.space.organization.admin.token;
    const res = await t.request('GET', `/v1/spaces/${page.space.id}/content/page/${page.id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('Getting started');
    expect((await t.request('GET', `/v1/spaces/${page.space.id}`, { token })).body.revision).toBe(page.revision);
  });

  it('change requests, comments and replies build their parents and read back', async () => {
    const reply = await createCommentReply(t);
    const { comment } = reply;
    const token = comment.space.organization.admin.token;
    expect((await t.request('GET', `/v1/spaces/${comment.space.id}/comments/${comment.id}/replies/${reply.id}`, { token })).status).toBe(200);

    const cr = await createChangeRequest(t, { space: comment.space, subject: 'Fix typos' });
    expect((await t.request('GET', `/v1/spaces/${cr.space.id}/change-requests/${cr.id}`, { token })).body.subject).toBe('Fix typos');
    const onCr = await createComment(t, { changeRequest: cr });
    expect((await t.request('GET', `${onCr.url}/${onCr.id}`, { token })).status).toBe(200);
  });

  it('sites, site spaces and sections build their parents and read back', async () => {
    const section = await createSiteSection(t, { title: 'Guides' });
    const token = section.site.organization.admin.token;
    const sections = await t.request('GET', `${section.site.url}/sections`, { token });
    expect(sections.body.items.map((s: any) => [s.id, s.title])).toEqual([[section.id, 'Guides']]);
    const siteSpace = await createSiteSpace(t, { site: await createSite(t) });
    const listed = await t.request('GET', `${siteSpace.site.url}/site-spaces`, { token: siteSpace.site.organization.admin.token });
    expect(listed.body.items.map((s: any) => s.id)).toEqual([siteSpace.id]);
  });

  it('OpenAPI specs, translations, conversations and collections read back', async () => {
    const spec = await createOpenAPISpec(t);
    const org = spec.organization;
    expect((await t.request('GET', `/v1/orgs/${org.id}/openapi/${spec.slug}`, { token: org.admin.token })).status).toBe(200);
    const space = await createSpace(t, { organization: org });
    const translation = await createTranslation(t, { space });
    expect((await t.request('GET', `/v1/orgs/${org.id}/translations/${translation.id}`, { token: org.admin.token })).body.language).toBe('fr');
    const conversation = await createConversation(t, { organization: org });
    expect((await t.request('GET', `/v1/orgs/${org.id}/conversations/${conversation.id}`, { token: org.admin.token })).status).toBe(200);
    const collection = await createCollection(t, { organization: org, title: 'Guides' });
    expect((await t.request('GET', `/v1/collections/${collection.id}`, { token: org.admin.token })).body.title).toBe('Guides');
  });

  it('the role matrix: one member per role with that role, an outsider, and no member it was not asked for', async () => {
    const m = await createRoleMatrix(t);
    const members = await t.request('GET', `/v1/orgs/${m.org.id}/members`, { token: m.admin.token, query: { limit: 100 } });
    const roleOf = new Map(members.body.items.map((i: any) => [i.user.id, i.role]));
    expect(roleOf.get(m.admin.id)).toBe('admin');
    for (const role of MATRIX_ROLES) {
      const user = { create: m.creator, review: m.reviewer, edit: m.editor, comment: m.commenter, read: m.reader, guest: m.guest }[role];
      expect(roleOf.get(user.id)).toBe(role === 'guest' ? null : role);
      expect(m.tokens[role]).toBe(user.token);
    }
    expect(roleOf.has(m.outsider.id)).toBe(false);
    expect((await t.request('GET', `/v1/orgs/${m.org.id}`, { token: m.outsider.token })).status).toBe(404);
    const some = await createRoleMatrix(t, { roles: ['read'] });
    expect(some.reader.id).toBeTruthy();
    expect(() => some.editor).toThrow(/no edit member/);
    expect(() => some.outsiderOrg).toThrow(/no outsider organization/);
  });

  it('the role matrix with an outsider organization: another tenant, whose admin is no member of the first', async () => {
    const m = await createRoleMatrix(t, { title: 'Home', emailDomains: ['home.test'], roles: ['edit'], outsiderOrganization: { title: 'Elsewhere' } });
    const other = await t.request('GET', `/v1/orgs/${m.outsiderOrg.id}`, { token: m.outsiderOrg.admin.token });
    expect(other.body.title).toBe('Elsewhere');
    expect((await t.request('GET', `/v1/orgs/${m.org.id}`, { token: m.outsiderOrg.admin.token })).status).toBe(404);
    expect((await t.request('GET', `/v1/orgs/${m.outsiderOrg.id}`, { token: m.editor.token })).status).toBe(404);
    const home = await t.request('GET', `/v1/orgs/${m.org.id}`, { token: m.admin.token });
    expect([home.body.title, home.body.emailDomains]).toEqual(['Home', ['home.test']]);
  });
});
