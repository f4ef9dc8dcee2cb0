import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createMember, createOrganization, createUser, type TestOrganization, type TestUser } from '../../../test/factories.ts';

describe('POST /v1/spaces/{spaceId}/content/template', () => {
  let t: TestApp;
  let org: TestOrganization;
  let reader: TestUser;
  let spaceId: string;
  const url = () => `/v1/spaces/${spaceId}/content/template`;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t);
    reader = await createMember(t, org.id, 'read');
    spaceId = (await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'T' } })).body.id;
  });
  afterAll(async () => {
    await t.close();
  });

  const titles = async () =>
    ((await t.request('GET', `/v1/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages as { title: string; pages: { title: string }[] }[]).map(
      (p) => [p.title, p.pages.map((c) => c.title)],
    );

  it('adds the template’s pages after the space’s own, as a new revision', async () => {
    const before = (await t.request('GET', `/v1/spaces/${spaceId}`, { token: org.admin.token })).body.revision;
    const res = await t.request('POST', url(), { token: org.admin.token, body: { id: 'product-docs' } });
    expect(res.status).toBe(201);
    expect(res.text).toBe('');
    expect(await titles()).toEqual([
      ['Overview', []],
      ['Getting started', ['Quickstart']],
      ['Guides', []],
      ['FAQ', []],
    ]);
    const after = (await t.request('GET', `/v1/spaces/${spaceId}/content`, { token: org.admin.token })).body;
    expect(after.id).not.toBe(before);
    expect(after.parents).toEqual([before]);
    // Applying again appends; slugs stay unique among siblings.
    expect((await t.request('POST', url(), { token: org.admin.token, body: { id: 'blank' } })).status).toBe(201);
    const pages = (await t.request('GET', `/v1/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages;
    expect(pages.map((p: { slug: string }) => p.slug)).toEqual(['overview', 'getting-started', 'guides', 'faq', 'untitled']);
  });

  it('refuses bad input and changes nothing', async () => {
    const revision = (await t.request('GET', `/v1/spaces/${spaceId}`, { token: org.admin.token })).body.revision;
    const unknown = await t.request('POST', url(), { token: org.admin.token, body: { id: 'nope' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('unknown template "nope"');
    expect((await t.request('POST', url(), { token: org.admin.token, body: {} })).status).toBe(400);
    expect((await t.request('POST', url(), { token: org.admin.token, body: { id: 'x'.repeat(65) } })).status).toBe(400);
    const cr = await t.request('POST', url(), { token: org.admin.token, body: { id: 'blank', changeRequestId: 'cr1' } });
    expect(cr.status).toBe(404);
    expect((await t.request('GET', `/v1/spaces/${spaceId}`, { token: org.admin.token })).body.revision).toBe(revision);
  });

  it('answers 401, 403 and 404', async () => {
    expect((await t.request('POST', url(), { body: { id: 'blank' } })).status).toBe(401);
    expect((await t.request('POST', url(), { token: reader.token, body: { id: 'blank' } })).status).toBe(403);
    const outsider = await createUser(t);
    expect((await t.request('POST', url(), { token: outsider.token, body: { id: 'blank' } })).status).toBe(404);
    expect((await t.request('POST', '/v1/spaces/missing/content/template', { token: org.admin.token, body: { id: 'blank' } })).status).toBe(404);
    // Locked spaces refuse edits.
    await t.request('PATCH', `/v1/spaces/${spaceId}`, { token: org.admin.token, body: { editMode: 'locked' } });
    expect((await t.request('POST', url(), { token: org.admin.token, body: { id: 'blank' } })).status).toBe(403);
  });
});
