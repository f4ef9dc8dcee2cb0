import { ChangeRequestStatus, GitBookAPI, GitBookAPIError, type ChangeRequestContentUpdate } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { createMember, createOrganization, type TestOrganization, type TestUser } from './factories.ts';

/*
 * The change-request story through GitBook's official client, unchanged but for
 * `endpoint`: create a space, open a change request, insert three pages in one batch,
 * read them back as markdown, merge, and read them from the space.
 */
describe("GitBook's official client: change requests", () => {
  let t: TestApp;
  let org: TestOrganization;
  let editor: TestUser;
  let api: GitBookAPI;
  let editorApi: GitBookAPI;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Story Org' });
    editor = await createMember(t, org.id, 'edit', { displayName: 'Eddie Editor' });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    api = new GitBookAPI({ endpoint: address, authToken: org.admin.token });
    editorApi = new GitBookAPI({ endpoint: address, authToken: editor.token });
  });
  afterAll(async () => {
    await t.close();
  });

  it('space → change request → three pages in one batch → markdown → merge → read from the space', async () => {
    const space = await api.orgs.createSpace(org.id, { title: 'Story' });
    expect(space.status).toBe(201);
    const spaceId = space.data.id;

    const opened = await editorApi.spaces.createChangeRequest(spaceId, { subject: 'Add the guide' });
    expect(opened.status).toBe(201);
    expect(opened.data).toMatchObject({ object: 'change-request', number: 1, status: 'open', subject: 'Add the guide' });
    const crId = opened.data.id;

    const batch = await editorApi.spaces.updateChangeRequestContent(
      spaceId,
      crId,
      {
        changes: [
          { operation: 'insert_page', ref: 'intro', document: { markdown: '# Introduction\n\nStart here, then read [Setup](./setup.md).\n' } },
          { operation: 'insert_page', ref: 'setup', document: { markdown: '---\ndescription: How to install\n---\n# Setup\n\nInstall it.\n' } },
          { operation: 'insert_page', ref: 'faq', title: 'FAQ', document: { markdown: 'Ask away.\n' } },
        ],
      },
      { compat: false },
    );
    expect(batch.status).toBe(200);
    const update = batch.data as ChangeRequestContentUpdate;
    expect(update.changeRequest.id).toBe(crId);
    expect(update.changes.map((c) => [c.object, 'ref' in c ? c.ref : undefined])).toEqual([
      ['created_page', 'intro'],
      ['created_page', 'setup'],
      ['created_page', 'faq'],
    ]);
    const ids = Object.fromEntries(update.changes.map((c) => ['ref' in c ? c.ref : '', typeof c.page === 'string' ? c.page : c.page.id]));

    const listed = await editorApi.spaces.listPagesInChangeRequest(spaceId, crId);
    expect(listed.data.pages.map((p) => [p.id, p.title])).toEqual([
      [ids.intro, 'Introduction'],
      [ids.setup, 'Setup'],
      [ids.faq, 'FAQ'],
    ]);
    const expected: Record<string, string> = {
      // format=markdown writes page references as relative paths from the page that holds them
      // (docs/decisions/markdown.md, "Links and assets between pages"), as GitBook does.
      intro: 'Start here, then read [Setup](setup.md).\n',
      setup: 'Install it.\n',
      faq: 'Ask away.\n',
    };
    for (const ref of ['intro', 'setup', 'faq']) {
      const page = await editorApi.spaces.getPageInChangeRequestById(spaceId, crId, ids[ref], { format: 'markdown' });
      expect(page.data).toMatchObject({ id: ids[ref], markdown: expected[ref] });
    }
    const setupByPath = await editorApi.spaces.getPageInChangeRequestByPath(spaceId, crId, 'setup', { format: 'markdown' });
    expect(setupByPath.data).toMatchObject({ id: ids.setup, description: 'How to install' });

    // Not in the space before the merge.
    expect((await api.spaces.listPages(spaceId)).data.pages).toEqual([]);
    const missing = await api.spaces.getPageById(spaceId, ids.intro).catch((e: GitBookAPIError) => e);
    expect(missing).toBeInstanceOf(GitBookAPIError);
    expect((missing as GitBookAPIError).code).toBe(404);

    // An editor proposes; a reviewer (here the admin) merges.
    const refused = await editorApi.spaces.mergeChangeRequest(spaceId, crId).catch((e: GitBookAPIError) => e);
    expect((refused as GitBookAPIError).code).toBe(403);
    const merged = await api.spaces.mergeChangeRequest(spaceId, crId);
    expect(merged.data).toEqual({ revision: expect.any(String), result: 'merge' });

    const after = await api.spaces.getChangeRequestById(spaceId, crId);
    expect(after.data).toMatchObject({ status: 'merged', revisionMerged: merged.data.revision });
    const spaceAfter = await api.spaces.getSpaceById(spaceId);
    expect(spaceAfter.data.revision).toBe(merged.data.revision);

    const pages = await api.spaces.listPages(spaceId);
    expect(pages.data.pages.map((p) => [p.id, p.title])).toEqual([
      [ids.intro, 'Introduction'],
      [ids.setup, 'Setup'],
      [ids.faq, 'FAQ'],
    ]);
    for (const ref of ['intro', 'setup', 'faq']) {
      const page = await api.spaces.getPageById(spaceId, ids[ref], { format: 'markdown' });
      expect(page.data).toMatchObject({ id: ids[ref], markdown: expected[ref] });
    }
    const byPath = await api.spaces.getPageByPath(spaceId, 'faq', { format: 'markdown' });
    expect(byPath.data).toMatchObject({ id: ids.faq, markdown: 'Ask away.\n' });

    const mergedList = await api.spaces.listChangeRequestsForSpace(spaceId, { status: ChangeRequestStatus.Merged });
    expect(mergedList.data.items.map((c) => c.id)).toEqual([crId]);
  });
});
