import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, createSite, createSpace, type TestOrganization } from '../../../test/factories.ts';
import { editSpaceContent } from '../content/content.service.ts';
import { okRequests, refsOf } from '../../../test/link-checks.ts';

/*
 * Links written through the API (a change request's markdown) to a group's path. A group (a
 * SUMMARY.md `## Heading`) has a slug path but no content: the batch binds a link naming
 * it to the group, and the published page links its first page, as GitBook resolves a
 * group (reader-links.ts landingPage), never the group's own address. A group with no page
 * is no link at all: its text, no href (its address is a 404). Verbatim HTML alike.
 */

describe('published links to a group', () => {
  let t: TestApp;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Groupers' });
  });
  afterAll(async () => {
    await t.close();
  });

  const ok = okRequests(() => t, () => org.admin.token);

  it('links a group path to the group’s first page, and an empty group to nothing', async () => {
    const space = await createSpace(t, { organization: org, title: 'Fleet' });
    let home = '';
    let guides = '';
    let boats = '';
    let empty = '';
    await editSpaceContent(t.app.deps, space.id, org.admin.id, (e) => {
      home = e.insertPage({ title: 'Home', markdown: 'Welcome.\n' });
      guides = e.insertPage({ title: 'Guides', type: 'group' });
      e.insertPage({ title: 'Hidden', hidden: true, markdown: 'Not first.\n' }, { parent: guides });
      boats = e.insertPage({ title: 'Boats', markdown: 'Boats.\n' }, { parent: guides });
      empty = e.insertPage({ title: 'Empty', type: 'group' });
    });
    t.clock.advance(1000);
    const S = `/v1/spaces/${space.id}`;
    const cr = await ok('POST', `${S}/change-requests`, { body: { subject: 'Group links' } });
    const CR = `${S}/change-requests/${cr.id}`;
    const markdown = [
      '[g1](guides) [g2](guides/) [g3](guides/README.md#top) [g4](/pages/guides) [g5](guides/nothing.md) [g6](guides/boats.md) [e1](empty) [e2](empty/README.md)',
      '',
      '<pre><code>The <a href="guides/">guides</a> and <a href="empty/">the empty group</a>.',
      '</code></pre>',
      '',
    ].join('\n');
    await ok('POST', `${CR}/content`, { body: { changes: [{ operation: 'update_page', page: home, document: { markdown } }] } });
    const stored = (await ok('GET', `${CR}/content/page/${home}`, { query: { format: 'document' } })).document;
    expect(refsOf(stored)).toEqual([
      { kind: 'page', page: guides },
      { kind: 'page', page: guides },
      { kind: 'anchor', page: guides, anchor: 'top' },
      { kind: 'page', page: guides },
      { kind: 'url', url: 'guides/nothing.md' },
      { kind: 'page', page: boats },
      { kind: 'page', page: empty },
      { kind: 'page', page: empty },
    ]);
    await ok('POST', `${CR}/merge`);

    const site = await createSite(t, { organization: org, spaces: [space.id] });
    await ok('PATCH', site.url, { body: { basename: 'fleet' } });
    await ok('POST', `${site.url}/publish`);
    const res = await t.app.inject({ method: 'GET', url: '/sites/fleet/' });
    expect(res.statusCode).toBe(200);
    const article = /<article>([\s\S]*?)<\/article>/.exec(res.body)?.[1] ?? '';
    const boatsUrl = '/sites/fleet/guides/boats';
    expect(article).toContain(
      `<p><a href="${boatsUrl}">g1</a> <a href="${boatsUrl}">g2</a> <a href="${boatsUrl}#top">g3</a> <a href="${boatsUrl}">g4</a> ` +
        '<span data-unresolved-link="guides/nothing.md" title="Not a page of this site: guides/nothing.md">g5</span> ' +
        `<a href="${boatsUrl}">g6</a> e1 e2</p>`,
    );
    expect(article).toContain(`The <a href="${boatsUrl}">guides</a> and <a data-unresolved-link="empty/" title="Not a page of this site: empty.md">the empty group</a>.`);
    expect((await t.app.inject({ method: 'GET', url: boatsUrl })).statusCode).toBe(200);
    // The group's own addresses: the one with a page redirects to it, the empty one is a 404.
    const group = await t.app.inject({ method: 'GET', url: '/sites/fleet/guides' });
    expect([group.statusCode, group.headers.location]).toEqual([302, boatsUrl]);
    expect((await t.app.inject({ method: 'GET', url: '/sites/fleet/empty' })).statusCode).toBe(404);
  });
});
