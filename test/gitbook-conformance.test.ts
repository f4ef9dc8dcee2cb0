import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedOperations, createTestApp, type TestApp, type TestResponse } from './app.ts';
import { createMember, createOrganization, createTeam, createUser } from './factories.ts';
import { gitbookOperation, gitbookOperationIds } from './gitbook-schema.ts';
import { generateIdpKeys } from './saml-idp.ts';
import { editSpaceContent } from '../src/modules/content/content.service.ts';
import { usersRepository } from '../src/modules/users/users.repository.ts';

/*
 * Wire compatibility with GitBook's OpenAPI document: every operation Quire serves that
 * GitBook documents lives at GitBook's method and path, and one call of each is made here
 * so its response is validated against GitBook's response schema (test/app.ts does the
 * validation on every 2xx). The last test fails when an operation was left out.
 */

const require = createRequire(import.meta.url);
const gitbook = require('@gitbook/api/spec/openapi.json') as {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>;
};

type Served = { method: string; path: string; operationId: string };

describe("conformance with GitBook's OpenAPI document", () => {
  let t: TestApp;
  let served: Served[];
  const noContent = new Set<string>();

  beforeAll(async () => {
    t = await createTestApp();
    const doc = (await t.request('GET', '/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    served = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, operationId: op.operationId })),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  /** A 2xx without body counts as checked when GitBook documents a bodiless success for it. */
  function expectSuccess(method: string, url: string, res: TestResponse, status: number) {
    expect(res.status, `${method} ${url}: ${res.text}`).toBe(status);
    if (res.body === undefined) {
      const op = gitbookOperation(method, url);
      expect(op, `${method} ${url} is not a GitBook operation`).toBeDefined();
      const documented = Object.keys(gitbook.paths[op!.path][method.toLowerCase()].responses ?? {});
      // Deletes answer 204 where GitBook says 205: the spec wins (DESIGN.md).
      expect(documented.some((code) => code === String(status) || (status === 204 && code === '205'))).toBe(true);
      noContent.add(op!.operationId);
    }
  }

  it('serves each GitBook operation at GitBook’s method and path', () => {
    const known = gitbookOperationIds();
    for (const route of served.filter((r) => known.has(r.operationId))) {
      const entry = Object.entries(gitbook.paths).find(([, methods]) =>
        Object.values(methods).some((op) => op?.operationId === route.operationId),
      )!;
      const [gitbookPath, methods] = entry;
      const gitbookMethod = Object.keys(methods).find((m) => methods[m]?.operationId === route.operationId)!;
      expect(`${route.method} ${route.path}`).toBe(`${gitbookMethod.toUpperCase()} /v1${gitbookPath === '/' ? '/' : gitbookPath}`);
    }
  });

  it('answers every foundation operation in GitBook’s response shapes', async () => {
    const org = await createOrganization(t, { title: 'Conformance', emailDomains: ['conform.test'] });
    const admin = org.admin.token;
    const editor = await createMember(t, org.id, 'edit');
    const joiner = await createUser(t, { email: 'joiner@conform.test' });
    const team = await createTeam(t, org.id, { members: [{ userId: editor.id, role: 'owner' }] });
    const O = `/v1/orgs/${org.id}`;
    const call = async (method: string, url: string, status: number, options: { token?: string; body?: unknown; query?: Record<string, string | number> } = {}) => {
      const res = await t.request(method as 'GET', url, { token: options.token ?? admin, body: options.body, query: options.query });
      expectSuccess(method, url, res, status);
      return res;
    };

    await call('GET', '/v1/', 200);
    await call('GET', '/v1/user', 200);
    await call('GET', `/v1/users/${editor.id}`, 200);
    await call('GET', '/v1/orgs', 200);
    const created = await call('POST', '/v1/orgs', 201, { body: { title: 'Second org' } });
    expect(created.body.id).toBeTruthy();
    await call('GET', O, 200);
    await call('PATCH', O, 200, { body: { title: 'Conformance Org' } });
    await call('GET', '/v1/email-domains/conform.test/orgs', 200);
    await call('GET', `${O}/agent-instructions`, 200);
    await call('PUT', `${O}/agent-instructions`, 200, {
      body: { instructions: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [] }] } },
    });
    await call('GET', `${O}/search`, 200, { query: { query: 'anything' } });

    await call('GET', `${O}/members`, 200, { query: { limit: 1 } });
    await call('GET', `${O}/members/${editor.id}`, 200);
    await call('PATCH', `${O}/members/${editor.id}`, 200, { body: { role: 'review' } });
    await call('POST', `${O}/members/${editor.id}/sso`, 200);
    await call('GET', `${O}/members/${editor.id}/spaces`, 200);
    await call('GET', `${O}/members/${editor.id}/teams`, 200);
    await call('POST', `${O}/ping`, 200);
    await call('POST', `${O}/join`, 204, { token: joiner.token });
    await call('DELETE', `${O}/members/${joiner.id}`, 204);

    await call('GET', `${O}/teams`, 200);
    const newTeam = await call('PUT', `${O}/teams`, 201, { body: { title: 'Editors', members: [editor.id] } });
    await call('GET', `${O}/teams/${team.id}`, 200);
    await call('PATCH', `${O}/teams/${team.id}`, 200, { body: { title: 'Owners' } });
    await call('GET', `${O}/teams/${team.id}/members`, 200);
    await call('PUT', `${O}/teams/${team.id}/members`, 204, { body: { add: [org.admin.id] } });
    await call('PUT', `${O}/teams/${team.id}/members/${org.admin.id}`, 204, { body: { role: 'owner' } });
    await call('DELETE', `${O}/teams/${team.id}/members/${org.admin.id}`, 204);
    await call('DELETE', `${O}/teams/${newTeam.body.id}`, 204);

    await call('POST', `${O}/invites`, 200, { body: { emails: ['invited@conform.test'] } });
    const link = await call('POST', `${O}/link-invites`, 201, { body: { role: 'read' } });
    await call('GET', `${O}/link-invites`, 200);
    await call('GET', `${O}/link-invites/${link.body.id}`, 200);
    await call('PATCH', `${O}/link-invites/${link.body.id}`, 200, { body: { role: 'comment' } });
    const outsider = await createUser(t);
    await call('POST', `${O}/invites/${link.body.id}`, 200, { token: outsider.token });
    await call('DELETE', `${O}/link-invites/${link.body.id}`, 204);
  });

  it('answers every spaces, content, collections and permissions operation in GitBook’s response shapes', async () => {
    const org = await createOrganization(t, { title: 'Spaces conformance' });
    const admin = org.admin.token;
    const editor = await createMember(t, org.id, 'edit');
    const team = await createTeam(t, org.id, { members: [{ userId: editor.id }] });
    const O = `/v1/orgs/${org.id}`;
    const call = async (method: string, url: string, status: number, options: { body?: unknown; query?: Record<string, string | number> } = {}) => {
      const res = await t.request(method as 'GET', url, { token: admin, body: options.body, query: options.query });
      expectSuccess(method, url, res, status);
      return res;
    };

    const C = (await call('POST', `${O}/collections`, 201, { body: { title: 'Docs', description: 'All docs' } })).body.id;
    const C2 = (await call('POST', `${O}/collections`, 201, { body: { title: 'Sub', parent: C } })).body.id;
    await call('GET', `${O}/collections`, 200, { query: { limit: 10 } });
    await call('GET', `/v1/collections/${C}`, 200);
    await call('PATCH', `/v1/collections/${C}`, 200, { body: { title: 'Docs 2', defaultLevel: 'read' } });
    await call('POST', `/v1/collections/${C2}/move`, 200, { body: { parent: null } });

    const space = (await call('POST', `${O}/spaces`, 201, { body: { title: 'Handbook', parent: C } })).body;
    const S = `/v1/spaces/${space.id}`;
    let pageId = '';
    let fileId = '';
    await editSpaceContent(t.app.deps, space.id, org.admin.id, (editor) => {
      pageId = editor.insertPage({ title: 'Welcome', markdown: '# Hello\n\nText.\n', pages: [{ title: 'Details', markdown: 'More.\n' }] });
      fileId = editor.addFile({ name: 'notes.txt', contentType: 'text/plain', bytes: Buffer.from('notes') }).id;
    });
    await call('GET', `${O}/spaces`, 200);
    await call('GET', `/v1/collections/${C}/spaces`, 200);
    await call('GET', S, 200);
    await call('PATCH', S, 200, { body: { title: 'Handbook 2', emoji: '📘' } });
    const revision = (await call('GET', `${S}/content`, 200)).body.id;
    await call('GET', `${S}/content/pages`, 200);
    await call('GET', `${S}/content/files`, 200);
    await call('GET', `${S}/content/files/${fileId}`, 200);
    await call('GET', `${S}/content/page/${pageId}`, 200, { query: { format: 'markdown' } });
    await call('GET', `${S}/content/path/welcome%2Fdetails`, 200);
    await call('GET', `${S}/revisions/${revision}`, 200);
    await call('GET', `${S}/revisions/${revision}/pages`, 200);
    await call('GET', `${S}/revisions/${revision}/files`, 200);
    await call('GET', `${S}/revisions/${revision}/files/${fileId}`, 200);
    await call('GET', `${S}/revisions/${revision}/page/${pageId}`, 200);
    await call('GET', `${S}/revisions/${revision}/path/welcome`, 200);
    await call('POST', `${S}/content/template`, 201, { body: { id: 'api-docs' } });

    await call('POST', `${S}/permissions`, 204, { body: { role: 'edit', users: [editor.id], teams: [team.id] } });
    await call('GET', `${S}/permissions/users`, 200);
    await call('GET', `${S}/permissions/teams`, 200);
    await call('GET', `${S}/permissions/aggregate`, 200, { query: { role: 'admin' } });
    await call('PATCH', `${S}/permissions/users/${editor.id}`, 204, { body: { role: 'comment' } });
    await call('PATCH', `${S}/permissions/teams/${team.id}`, 204, { body: { role: 'read' } });
    await call('DELETE', `${S}/permissions/users/${editor.id}`, 204);
    await call('DELETE', `${S}/permissions/teams/${team.id}`, 204);
    await call('POST', `/v1/collections/${C}/permissions`, 204, { body: { role: 'edit', users: [editor.id], teams: [team.id] } });
    await call('GET', `/v1/collections/${C}/permissions/users`, 200);
    await call('GET', `/v1/collections/${C}/permissions/teams`, 200);
    await call('GET', `/v1/collections/${C}/permissions/aggregate`, 200);
    await call('PATCH', `/v1/collections/${C}/permissions/users/${editor.id}`, 204, { body: { role: 'read' } });
    await call('PATCH', `/v1/collections/${C}/permissions/teams/${team.id}`, 204, { body: { role: 'read' } });
    await call('DELETE', `/v1/collections/${C}/permissions/users/${editor.id}`, 204);
    await call('DELETE', `/v1/collections/${C}/permissions/teams/${team.id}`, 204);

    const copy = (await call('POST', `${S}/duplicate`, 201)).body;
    await call('POST', `/v1/spaces/${copy.id}/move`, 200, { body: { parent: null } });
    const other = await createOrganization(t, { admin: org.admin });
    await call('POST', `/v1/spaces/${copy.id}/transfer`, 200, { body: { organization: other.id } });
    await call('DELETE', S, 204);
    await call('POST', `${S}/restore`, 200);
    const C3 = (await call('POST', `${O}/collections`, 201, { body: { title: 'Move me' } })).body.id;
    await call('POST', `/v1/collections/${C3}/transfer`, 200, { body: { organization: other.id } });
    await call('DELETE', `/v1/collections/${C2}`, 204);
  });

  it('answers every sites, sections and site spaces operation in GitBook’s response shapes', async () => {
    const org = await createOrganization(t, { title: 'Sites conformance' });
    const admin = org.admin.token;
    const O = `/v1/orgs/${org.id}`;
    const call = async (method: string, url: string, status: number, options: { body?: unknown; query?: Record<string, string | number> } = {}) => {
      const res = await t.request(method as 'GET', url, { token: admin, body: options.body, query: options.query });
      expectSuccess(method, url, res, status);
      return res;
    };
    const spaceA = (await call('POST', `${O}/spaces`, 201, { body: { title: 'Guides' } })).body.id;
    const spaceB = (await call('POST', `${O}/spaces`, 201, { body: { title: 'API' } })).body.id;
    const site = (await call('POST', `${O}/sites`, 201, { body: { title: 'Docs', spaces: [spaceA] } })).body;
    const SITE = `${O}/sites/${site.id}`;
    await call('GET', `${O}/sites`, 200, { query: { published: 'false' } });
    await call('GET', SITE, 200);
    await call('PATCH', SITE, 200, { body: { title: 'Docs 2', basename: 'docs-conformance', proxy: 'example.com/docs' } });
    await call('POST', `${SITE}/publish`, 200);
    await call('PUT', `${SITE}/adaptive-schema`, 200, {
      body: {
        jsonSchema: {
          type: 'object',
          properties: {
            unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: { beta: { type: 'boolean', description: 'Beta tester' } }, additionalProperties: false },
          },
          additionalProperties: false,
        },
      },
    });
    await call('GET', `${SITE}/adaptive-schema`, 200);
    await call('GET', `${SITE}/adaptive-schema/template-conditions`, 200);
    await call('GET', `${SITE}/customization`, 200);
    await call('PUT', `${SITE}/customization`, 200, { body: { title: 'Docs', styling: { theme: 'bold', corners: 'straight' } } });
    const rootSpace = (await call('GET', `${SITE}/site-spaces`, 200)).body.items[0];
    await call('GET', `${SITE}/site-spaces/${rootSpace.id}/customization`, 200);
    await call('PATCH', `${SITE}/site-spaces/${rootSpace.id}/customization`, 200, { body: { styling: { theme: 'muted' } } });
    await call('DELETE', `${SITE}/site-spaces/${rootSpace.id}/customization`, 204);
    const variant = (await call('POST', `${SITE}/site-spaces`, 201, { body: { spaceId: spaceB } })).body;
    await call('PATCH', `${SITE}/site-spaces/${variant.id}`, 200, { body: { path: 'api-v2', condition: 'visitor.claims.unsigned.beta == true' } });
    await call('POST', `${SITE}/site-spaces/${variant.id}/move`, 200, { body: { position: { before: { type: 'site-space', siteSpace: rootSpace.id } } } });
    await call('GET', `${SITE}/structure`, 200);
    const section = (await call('POST', `${SITE}/sections`, 201, { body: { spaceId: spaceB, title: 'Reference' } })).body;
    await call('GET', `${SITE}/sections`, 200);
    await call('PATCH', `${SITE}/sections/${section.id}`, 200, { body: { description: 'All endpoints', icon: 'code' } });
    const group = (await call('POST', `${SITE}/section-groups`, 201, { body: { title: 'Developers', sections: [section.id] } })).body;
    await call('GET', `${SITE}/section-groups`, 200);
    await call('PATCH', `${SITE}/section-groups/${group.id}`, 200, { body: { title: 'Devs' } });
    const sections = (await call('GET', `${SITE}/sections`, 200)).body.items;
    await call('POST', `${SITE}/section-groups/${group.id}/move`, 200, { body: { position: { before: { type: 'site-section', id: sections[0].id } } } });
    await call('POST', `${SITE}/sections/${sections[0].id}/move`, 200, { body: { position: { before: { type: 'site-section', siteSection: section.id } } } });
    await call('PATCH', `${SITE}/structure/sort`, 200, { body: { item: { type: 'site-section', id: sections[0].id }, position: { after: { type: 'site-section-group', id: group.id } } } });
    await call('GET', `${SITE}/structure`, 200);
    // Not GitBook operations (spec 4.5 only): called for the record, no GitBook schema to check.
    expect((await t.request('POST', `${SITE}/section-groups/${group.id}/sections`, { token: admin, body: { sectionId: sections[0].id } })).status).toBe(200);
    expect((await t.request('DELETE', `${SITE}/section-groups/${group.id}/sections/${sections[0].id}`, { token: admin })).status).toBe(204);
    const link = (await call('POST', `${SITE}/share-links`, 201, { body: { name: 'Partners' } })).body;
    await call('GET', `${SITE}/share-links`, 200);
    await call('PATCH', `${SITE}/share-links/${link.id}`, 200, { body: { active: false } });
    await call('GET', `${SITE}/published`, 200);
    await call('GET', `${SITE}/publishing/auth`, 200);
    await call('POST', `${SITE}/publishing/auth/regenerate`, 200);
    // A custom hostname is pending until proven; an installation admin proves it without DNS (docs/security.md).
    await call('PATCH', SITE, 200, { body: { hostname: 'docs.conformance.test' } });
    await usersRepository.setInstallationAdmin(t.db, org.admin.id, true);
    await call('PATCH', '/v1/custom-hostnames/docs.conformance.test', 204);
    await call('DELETE', `${SITE}/share-links/${link.id}`, 204);
    await call('DELETE', `${SITE}/site-spaces/${variant.id}`, 204);
    await call('DELETE', `${SITE}/section-groups/${group.id}`, 204);
    await call('DELETE', `${SITE}/sections/${section.id}`, 204);
    await call('POST', `${SITE}/unpublish`, 200);
    await call('DELETE', SITE, 204);
  });

  it('answers every change-request operation in GitBook’s response shapes', async () => {
    const org = await createOrganization(t, { title: 'Change requests conformance' });
    const admin = org.admin.token;
    const reviewer = await createMember(t, org.id, 'review');
    const call = async (method: string, url: string, status: number, options: { body?: unknown; query?: Record<string, string | number> } = {}) => {
      const res = await t.request(method as 'GET', url, { token: admin, body: options.body, query: options.query });
      expectSuccess(method, url, res, status);
      return res;
    };
    const space = (await call('POST', `/v1/orgs/${org.id}/spaces`, 201, { body: { title: 'Guide' } })).body;
    const S = `/v1/spaces/${space.id}`;
    const cr = (await call('POST', `${S}/change-requests`, 201, { body: { subject: 'Add pages' } })).body;
    const CR = `${S}/change-requests/${cr.id}`;
    await call('GET', `${S}/change-requests`, 200);
    await call('GET', `/v1/orgs/${org.id}/change-requests`, 200);
    await call('GET', CR, 200);
    await call('GET', `${S}/change-requests/${cr.number}`, 200);
    await call('PATCH', CR, 200, { body: { subject: 'Add two pages' } });
    const batch = await call('POST', `${CR}/content`, 200, {
      query: { compat: 'false' },
      body: {
        changes: [
          { operation: 'insert_page', ref: 'one', title: 'One', document: { markdown: 'First.\n' } },
          { operation: 'insert_files', files: [{ name: 'a.txt', contentType: 'text/plain', base64: Buffer.from('a').toString('base64') }] },
        ],
      },
    });
    const pageId = batch.body.changes[0].page.id;
    const fileId = batch.body.insertedFiles[0].id;
    await call('POST', `${CR}/content`, 200, { body: { changes: [{ operation: 'update_page', page: pageId, title: 'One!' }] } });
    await call('GET', `${CR}/content`, 200);
    await call('GET', `${CR}/content/pages`, 200);
    await call('GET', `${CR}/content/files`, 200);
    await call('GET', `${CR}/content/files/${fileId}`, 200);
    await call('GET', `${CR}/content/page/${pageId}`, 200, { query: { format: 'markdown' } });
    await call('GET', `${CR}/content/path/one`, 200);
    await call('GET', `${CR}/contributors`, 200);
    await call('POST', `${CR}/requested-reviewers`, 200, { body: { users: [reviewer.id] } });
    await call('GET', `${CR}/requested-reviewers`, 200);
    await call('DELETE', `${CR}/requested-reviewers/${reviewer.id}`, 204);
    const review = (await call('POST', `${CR}/reviews`, 201, { body: { status: 'approved' } })).body;
    await call('GET', `${CR}/reviews`, 200);
    await call('GET', `${CR}/reviews/${review.id}`, 200);
    await editSpaceContent(t.app.deps, space.id, org.admin.id, (editor) => editor.insertPage({ title: 'Main page', markdown: 'Main.\n' }));
    await call('POST', `${CR}/update`, 200);
    await call('POST', `${CR}/merge`, 200);
  });

  it('answers every comment operation in GitBook’s response shapes', async () => {
    const org = await createOrganization(t, { title: 'Comments conformance' });
    const admin = org.admin.token;
    const call = async (method: string, url: string, status: number, options: { body?: unknown; query?: Record<string, string | number> } = {}) => {
      const res = await t.request(method as 'GET', url, { token: admin, body: options.body, query: options.query });
      expectSuccess(method, url, res, status);
      return res;
    };
    const space = (await call('POST', `/v1/orgs/${org.id}/spaces`, 201, { body: { title: 'Discussed' } })).body;
    const S = `/v1/spaces/${space.id}`;
    const cr = (await call('POST', `${S}/change-requests`, 201, { body: { subject: 'Discuss' } })).body;
    for (const base of [S, `${S}/change-requests/${cr.id}`]) {
      const comment = (await call('POST', `${base}/comments`, 200, { body: { body: { markdown: 'A point.' } } })).body;
      const C = `${base}/comments/${comment.id}`;
      await call('GET', `${base}/comments`, 200, { query: { format: 'document' } });
      await call('GET', C, 200);
      await call('PUT', C, 200, { body: { resolved: true, addedReactions: ['👍'] } });
      const reply = (await call('POST', `${C}/replies`, 200, { body: { body: { markdown: 'Agreed.' } } })).body;
      await call('GET', `${C}/replies`, 200);
      await call('GET', `${C}/replies/${reply.id}`, 200, { query: { format: 'document' } });
      await call('PUT', `${C}/replies/${reply.id}`, 200, { body: { body: { markdown: 'Agreed!' }, addedReactions: ['🎉'] } });
      await call('GET', `${base}/commenters`, 200);
      await call('DELETE', `${C}/replies/${reply.id}`, 204);
      await call('DELETE', C, 204);
    }
  });

  it('answers every PDF export operation in GitBook’s response shapes', async () => {
    const org = await createOrganization(t, { title: 'PDF conformance' });
    const admin = org.admin.token;
    const call = async (url: string, query: Record<string, string> = {}) => {
      const res = await t.request('GET', url, { token: admin, query });
      expectSuccess('GET', url, res, 200);
      return res;
    };
    const space = (await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: admin, body: { title: 'Printed' } })).body;
    const S = `/v1/spaces/${space.id}`;
    let pageId = '';
    await editSpaceContent(t.app.deps, space.id, org.admin.id, (editor) => {
      pageId = editor.insertPage({ title: 'Print me', markdown: 'On paper.\n' });
    });
    const cr = (await t.request('POST', `${S}/change-requests`, { token: admin, body: { subject: 'Print draft' } })).body;
    await call(`${S}/pdf`, { page: pageId, only: 'true' });
    await call(`${S}/change-requests/${cr.id}/pdf`);
  });

  it('answers every search operation in GitBook’s response shapes', async () => {
    const org = await createOrganization(t, { title: 'Search conformance' });
    const admin = org.admin.token;
    const call = async (url: string, query: Record<string, string | number>) => {
      const res = await t.request('GET', url, { token: admin, query });
      expectSuccess('GET', url, res, 200);
      return res;
    };
    const space = (await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: admin, body: { title: 'Searchable' } })).body;
    await editSpaceContent(t.app.deps, space.id, org.admin.id, (editor) =>
      editor.insertPage({ title: 'Installation', markdown: '# Steps\n\nInstall the package.\n', pages: [{ title: 'Upgrading', markdown: 'Install again.\n' }] }),
    );
    const found = await call(`/v1/spaces/${space.id}/search`, { query: 'install' });
    expect(found.body.items.length).toBe(2);
    const orgFound = await call(`/v1/orgs/${org.id}/search`, { query: 'install' });
    expect(orgFound.body.items[0].pages.length).toBe(2);
  });

  it('answers every SAML provider and SSO operation in GitBook’s response shapes', async () => {
    const org = await createOrganization(t, { title: 'SSO conformance' });
    const admin = org.admin.token;
    const keys = await generateIdpKeys();
    const call = async (method: string, url: string, status: number, options: { token?: string | null; body?: unknown } = {}) => {
      const res = await t.request(method as 'GET', url, { token: options.token === undefined ? admin : options.token, body: options.body });
      expectSuccess(method, url, res, status);
      return res;
    };
    const O = `/v1/orgs/${org.id}`;
    const provider = (
      await call('POST', `${O}/saml`, 201, {
        body: { label: 'Okta', entityID: 'http://idp.test/entity', ssoURL: 'http://idp.test/sso', certificate: keys.certificate },
      })
    ).body;
    await call('GET', `${O}/saml`, 200);
    await call('GET', `${O}/saml/${provider.id}`, 200);
    await call('PATCH', `${O}/saml/${provider.id}`, 200, { body: { label: 'Okta EU' } });
    // Public: the sign-in page lists the providers before anyone is signed in.
    await call('GET', `${O}/sso`, 200, { token: null });
    await call('DELETE', `${O}/saml/${provider.id}`, 204);
  }, 120_000);

  it('answers every git sync operation in GitBook’s response shapes', async () => {
    const org = await createOrganization(t, { title: 'Git conformance' });
    const admin = org.admin.token;
    const call = async (method: string, url: string, status: number, body?: unknown) => {
      const res = await t.request(method as 'GET', url, { token: admin, body });
      expectSuccess(method, url, res, status);
      return res;
    };
    const space = (await call('POST', `/v1/orgs/${org.id}/spaces`, 201, { title: 'Git' })).body;
    const S = `/v1/spaces/${space.id}`;
    // The operations only start: their jobs fail later (the host does not resolve), which these checks do not need.
    await call('POST', `${S}/git/import`, 204, { url: 'https://git.invalid/repo.git', ref: 'refs/heads/main', gitInfo: { provider: 'gitlab', url: 'https://gitlab.com/acme/repo' } });
    await call('POST', `${S}/git/export`, 204, { url: 'https://git.invalid/repo.git', ref: 'refs/heads/main', commitMessage: 'Export' });
    await call('GET', `${S}/git/info`, 200);
  }, 120_000);

  it('answers every translation and glossary operation in GitBook’s response shapes', async () => {
    const org = await createOrganization(t, { title: 'Translation conformance' });
    const admin = org.admin.token;
    const call = async (method: string, url: string, status: number, options: { body?: unknown; query?: Record<string, string> } = {}) => {
      const res = await t.request(method as 'GET', url, { token: admin, body: options.body, query: options.query });
      expectSuccess(method, url, res, status);
      return res;
    };
    const O = `/v1/orgs/${org.id}`;
    const space = (await call('POST', `${O}/spaces`, 201, { body: { title: 'Source' } })).body;
    // No provider is configured here: the run fails, the translation is still served.
    const translation = (await call('POST', `${O}/translations`, 201, { body: { source: { space: space.id, language: 'en' }, language: 'fr' } })).body;
    await call('GET', `${O}/translations`, 200);
    await call('GET', `${O}/translations/${translation.id}`, 200);
    await call('PUT', `${O}/translations/${translation.id}`, 200, { body: { instructions: { object: 'document', data: {}, nodes: [] } } });
    await call('POST', `${O}/translations/${translation.id}/run`, 204);
    await t.runJobsUntilIdle();
    await call('DELETE', `${O}/translations/${translation.id}`, 204);
    await call('PUT', `${O}/translations-glossary`, 204, { body: { operations: [{ type: 'insert', translations: { en: 'Quire' } }] } });
    const entries = (await call('GET', `${O}/translations-glossary`, 200, { query: { orderBy: 'en' } })).body;
    await call('GET', `${O}/translations-glossary/${entries.items[0].id}`, 200);
  }, 120_000);

  it('answers every OpenAPI spec operation in GitBook’s response shapes', async () => {
    const org = await createOrganization(t, { title: 'OpenAPI conformance' });
    const admin = org.admin.token;
    const call = async (method: string, url: string, status: number, body?: unknown) => {
      const res = await t.request(method as 'GET', url, { token: admin, body });
      expectSuccess(method, url, res, status);
      return res;
    };
    const O = `/v1/orgs/${org.id}/openapi`;
    const text = 'openapi: 3.0.3\ninfo: { title: Pets, version: "1" }\npaths: {}\n';
    await call('POST', O, 201, { slug: 'pets', source: { text } });
    await call('PUT', `${O}/pets`, 200, { source: { text: text.replace('Pets', 'More pets') } });
    await call('PUT', `${O}/birds`, 201, { source: { text } });
    await t.runJobsUntilIdle();
    await call('GET', O, 200);
    await call('GET', `${O}/pets`, 200);
    await call('PATCH', `${O}/pets`, 200, { visibility: 'public' });
    await call('GET', `${O}/pets/versions`, 200);
    const latest = await call('GET', `${O}/pets/versions/latest`, 200);
    await call('GET', `${O}/pets/versions/latest/content`, 200);
    await call('GET', `${O}/pets/versions/latest/content/raw`, 200);
    await call('GET', `${O}/pets/versions/${latest.body.id}`, 200);
    await call('GET', `${O}/pets/versions/${latest.body.id}/content`, 200);
    await call('DELETE', `${O}/birds`, 204);
  });

  it('left no served GitBook operation unchecked', () => {
    const known = gitbookOperationIds();
    const unchecked = served
      .filter((r) => known.has(r.operationId))
      .map((r) => r.operationId)
      .filter((id) => !checkedOperations.has(id) && !noContent.has(id));
    expect(unchecked).toEqual([]);
  });
});
