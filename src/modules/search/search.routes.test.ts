import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createSpace, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { createRoleMatrix } from '../../../test/role-matrix.ts';
import { editSpaceContent } from '../content/content.service.ts';
import { indexRuns } from './search.service.ts';

/*
 * Search over HTTP: ranking (title matches first), stemming, prefixes, limits, sections,
 * access (the organization search never shows a space the caller cannot see), and the
 * index following merges and edits by re-indexing only the pages that changed. Runs on
 * SQLite (FTS5), and on PostgreSQL (tsvector) when DATABASE_URL is set.
 */

describe('search', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let spaceId: string;
  let secretId: string;
  const ids: Record<string, string> = {};

  const S = (id: string) => `/v1/spaces/${id}`;
  const search = (id: string, query: string, token = admin.token, extra: Record<string, string | number> = {}) =>
    t.request('GET', `${S(id)}/search`, { token, query: { query, ...extra } });


  beforeAll(async () => {
    t = await createTestApp();
    ({ org, admin, editor, guest: reader, outsider } = await createRoleMatrix(t, { title: 'Search', roles: ['edit', 'guest'] }));
    spaceId = (await createSpace(t, { organization: org, title: 'Handbook' })).id;
    await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => {
      ids.intro = e.insertPage({ title: 'Introduction', markdown: 'Welcome. Read the installation page to start.\n' });
      ids.install = e.insertPage({
        title: 'Installation',
        markdown: '# Requirements\n\nNode 20 or later.\n\n# Steps\n\nDownload the package and start it.\n',
        pages: [{ title: 'Troubleshooting', markdown: '# Runs slowly\n\nWhen the server runs slowly, check the disk.\n' }],
      });
      ids.deploy = e.insertPage({ title: 'Deploy', markdown: 'We run the server behind a proxy.\n' });
    });
    // The reader is a guest given read on the handbook only: the secret space is not theirs to see.
    const grant = await t.request('POST', `${S(spaceId)}/permissions`, { token: admin.token, body: { role: 'read', users: [reader.id] } });
    expect(grant.status, grant.text).toBe(204);
    secretId = (await createSpace(t, { organization: org, title: 'Secret' })).id;
    await editSpaceContent(t.app.deps, secretId, admin.id, (e) => {
      ids.secret = e.insertPage({ title: 'Installation secrets', markdown: 'The secret installation key.\n' });
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds pages with GitBook’s result shape, title matches first', async () => {
    const res = await search(spaceId, 'installation');
    expect(res.status, res.text).toBe(200);
    const titles = res.body.items.map((i: any) => i.title);
    expect(titles[0]).toBe('Installation');
    expect(titles).toContain('Introduction');
    expect(res.body.count).toBe(titles.length);
    const first = res.body.items[0];
    expect(first).toMatchObject({ id: ids.install, path: 'installation', rank: 1, ancestors: [], description: '', resultType: 'page' });
    expect(first.urls.app).toBe(`http://quire.test/app/s/${spaceId}/pages/${ids.install}`);
    expect(first.score).toBeGreaterThan(res.body.items[1].score);
    const intro = res.body.items.find((i: any) => i.title === 'Introduction');
    expect(intro.sections[0]).toMatchObject({ id: ids.intro, title: 'Introduction', path: 'introduction' });
    expect(intro.sections[0].body).toContain('installation');
  });

  it('answers sections per heading, with ancestors', async () => {
    const res = await search(spaceId, 'disk');
    expect(res.body.items).toHaveLength(1);
    const page = res.body.items[0];
    expect(page).toMatchObject({ title: 'Troubleshooting', path: 'installation/troubleshooting', ancestors: [{ title: 'Installation' }], resultType: 'section' });
    expect(page.sections).toEqual([
      expect.objectContaining({ id: 'runs-slowly', title: 'Runs slowly', path: 'installation/troubleshooting#runs-slowly', body: 'When the server runs slowly, check the disk.' }),
    ]);
    expect(page.sections[0].urls.app).toMatch(/#runs-slowly$/);
  });

  it('stems English words and matches the last word as a prefix', async () => {
    const running = await search(spaceId, 'running');
    expect(running.body.items.map((i: any) => i.title).sort()).toEqual(['Deploy', 'Troubleshooting']);
    expect((await search(spaceId, 'instal')).body.items[0].title).toBe('Installation');
    expect((await search(spaceId, 'installa')).body.items[0].title).toBe('Installation');
    expect((await search(spaceId, 'server prox')).body.items.map((i: any) => i.title)).toEqual(['Deploy']);
    // Only the last word is a prefix.
    expect((await search(spaceId, 'prox server')).body.items).toEqual([]);
    expect((await search(spaceId, 'zzzz')).body).toEqual({ count: 0, items: [] });
    // Punctuation only: nothing to search for.
    expect((await search(spaceId, '"*:()')).body).toEqual({ count: 0, items: [] });
  });

  it('shows the sections holding a searched word, best first, with the text around the match', async () => {
    const space = (await createSpace(t, { organization: org, title: 'Sections' })).id;
    const filler = 'Plain words about nothing in particular. '.repeat(15);
    let pageId = '';
    await editSpaceContent(t.app.deps, space, admin.id, (e) => {
      pageId = e.insertPage({
        title: 'Marsupials',
        markdown: `# Alpha\n\nNothing here.\n\n# Beta\n\n${filler}A kangaroo hops by.\n\n# Gamma\n\nOne kangaroo, then another kangaroo.\n`,
      });
      // Text holding the characters the database marks matches with: they are not indexed.
      e.insertPage({ title: 'Odd', markdown: 'Odd \u0001text\u0002 about wombats.\n' });
    });
    const res = await search(space, 'kangaroo');
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((i: any) => i.id)).toEqual([pageId]);
    const [page] = res.body.items;
    expect(page.resultType).toBe('section');
    // Alpha holds no match; Gamma holds two, Beta one.
    expect(page.sections.map((s: any) => s.id)).toEqual(['gamma', 'beta']);
    expect(page.sections[0]).toMatchObject({ title: 'Gamma', path: 'marsupials#gamma', body: 'One kangaroo, then another kangaroo.' });
    expect(page.sections[0].score).toBeGreaterThan(page.sections[1].score);
    // Beta's text is long: the excerpt is cut around the match, not from the start.
    const beta = page.sections[1].body as string;
    expect(beta.startsWith('…')).toBe(true);
    expect(beta).toContain('A kangaroo hops by.');
    expect(beta.length).toBeLessThanOrEqual(242);
    // Words found in different sections: each section holding one of them is shown.
    const both = await search(space, 'alpha kangaroo');
    expect(both.body.items.map((i: any) => i.id)).toEqual([pageId]);
    expect(both.body.items[0].sections.map((s: any) => s.id).sort()).toEqual(['alpha', 'beta', 'gamma']);
    // Stemmed: "hopping" finds "hops".
    expect((await search(space, 'hopping')).body.items[0].sections.map((s: any) => s.id)).toEqual(['beta']);

    // Control characters are the page's own text (no database marks matches in it): shown as written.
    const odd = await search(space, 'wombats');
    expect(odd.body.items[0].sections[0].body).toBe('Odd \u0001text\u0002 about wombats.');
  });

  it('searches one space only, however many matching pages other spaces hold', async () => {
    const big = (await createSpace(t, { organization: org, title: 'Many lemurs' })).id;
    const small = (await createSpace(t, { organization: org, title: 'Few lemurs' })).id;
    const bigIds: string[] = [];
    const smallIds: string[] = [];
    await editSpaceContent(t.app.deps, big, admin.id, (e) => {
      for (let i = 0; i < 30; i++) bigIds.push(e.insertPage({ title: `Lemur ${i}`, markdown: `Lemur number ${i} climbs.\n` }));
    });
    await editSpaceContent(t.app.deps, small, admin.id, (e) => {
      smallIds.push(e.insertPage({ title: 'Habitat', markdown: 'Where a lemur lives.\n' }));
      smallIds.push(e.insertPage({ title: 'Diet', markdown: 'What lemurs eat.\n' }));
    });
    expect((await search(big, 'lemur', admin.token, { limit: 5 })).body.count).toBe(30);
    const few = await search(small, 'lemur');
    expect(few.body.count).toBe(2);
    expect(few.body.items.map((i: any) => i.id).sort()).toEqual([...smallIds].sort());
    const many = await search(big, 'lemur', admin.token, { limit: 5 });
    expect(many.body.items).toHaveLength(5);
    expect(many.body.items.every((i: any) => bigIds.includes(i.id))).toBe(true);
  });

  it('ranks title matches first across pages of results', async () => {
    const space = (await createSpace(t, { organization: org, title: 'Otters' })).id;
    const titled: string[] = [];
    const untitled: string[] = [];
    await editSpaceContent(t.app.deps, space, admin.id, (e) => {
      for (let i = 0; i < 3; i++) titled.push(e.insertPage({ title: `Otter ${i}`, markdown: 'About this animal.\n' }));
      for (let i = 0; i < 5; i++) untitled.push(e.insertPage({ title: `River ${i}`, markdown: `An otter swims in river ${i}.\n` }));
    });
    const seen: any[] = [];
    let page: string | undefined;
    do {
      const res = await search(space, 'otter', admin.token, { limit: 2, ...(page ? { page } : {}) });
      expect(res.status, res.text).toBe(200);
      expect(res.body.count).toBe(8);
      seen.push(...res.body.items);
      page = res.body.next?.page;
    } while (page);
    expect(seen.map((i) => i.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(new Set(seen.slice(0, 3).map((i) => i.id))).toEqual(new Set(titled));
    expect(new Set(seen.slice(3).map((i) => i.id))).toEqual(new Set(untitled));
    expect(seen.slice(0, 3).every((i) => i.resultType === 'page' && i.score > 1)).toBe(true);
    expect(seen.slice(3).every((i) => i.resultType === 'section' && i.score < 1)).toBe(true);
  });

  it('shows a page\'s five best sections (most matches, then document order), however they were read', async () => {
    const space = (await createSpace(t, { organization: org, title: 'Moths' })).id;
    // Seven sections holding the word: the last two twice, the others once.
    const names = ['One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven'];
    const markdown = names.map((n) => `# ${n}\n\nA moth${n === 'Six' || n === 'Seven' ? ' and another moth' : ''} near lamp ${n.toLowerCase()}.\n`).join('\n');
    let pageId = '';
    await editSpaceContent(t.app.deps, space, admin.id, (e) => {
      pageId = e.insertPage({ title: 'Night', markdown });
    });
    const best = ['six', 'seven', 'one', 'two', 'three'];
    // Read with the ranking (a first page of results).
    const res = await search(space, 'moth');
    expect(res.status, res.text).toBe(200);
    expect(res.body.items[0].sections.map((s: any) => s.id)).toEqual(best);
    // Read after it (the organization search reads the sections of the spaces it shows).
    const across = await t.request('GET', `/v1/orgs/${org.id}/search`, { token: admin.token, query: { query: 'moth' } });
    expect(across.status, across.text).toBe(200);
    const pages = across.body.items.find((i: any) => i.id === space).pages;
    expect(pages.map((p: any) => p.id)).toEqual([pageId]);
    expect(pages[0].sections.map((s: any) => s.id)).toEqual(best);
    expect(pages[0].sections).toEqual(res.body.items[0].sections.map((s: any) => ({ ...s })));
  });

  it('shows the sections of the pages on a later page of results, and of each space in the organization search', async () => {
    const space = (await createSpace(t, { organization: org, title: 'Beetles' })).id;
    const pageIds: string[] = [];
    await editSpaceContent(t.app.deps, space, admin.id, (e) => {
      for (let i = 0; i < 4; i++) pageIds.push(e.insertPage({ title: `Note ${i}`, markdown: `# Field ${i}\n\nA beetle seen in field ${i}.\n` }));
    });
    const seen: any[] = [];
    let page: string | undefined;
    do {
      const res = await search(space, 'beetle', admin.token, { limit: 1, ...(page ? { page } : {}) });
      expect(res.status, res.text).toBe(200);
      seen.push(...res.body.items);
      page = res.body.next?.page;
    } while (page);
    expect(seen.map((i) => i.id).sort()).toEqual([...pageIds].sort());
    for (const item of seen) {
      const n = item.title.slice('Note '.length);
      expect(item.sections).toEqual([expect.objectContaining({ id: `field-${n}`, title: `Field ${n}`, body: `A beetle seen in field ${n}.` })]);
    }
    // The same pages again, one space per page of the organization search.
    const other = (await createSpace(t, { organization: org, title: 'More beetles' })).id;
    await editSpaceContent(t.app.deps, other, admin.id, (e) => e.insertPage({ title: 'Stag', markdown: 'A stag beetle.\n' }));
    const spaces: any[] = [];
    page = undefined;
    do {
      const res = await t.request('GET', `/v1/orgs/${org.id}/search`, { token: admin.token, query: { query: 'beetle', limit: 1, ...(page ? { page } : {}) } });
      expect(res.status, res.text).toBe(200);
      spaces.push(...res.body.items);
      page = res.body.next?.page;
    } while (page);
    expect(spaces.map((s) => s.id).sort()).toEqual([space, other].sort());
    const pagesOf = (id: string) => spaces.find((s) => s.id === id).pages;
    expect(pagesOf(space)).toHaveLength(4);
    expect(pagesOf(space).every((p: any) => p.sections.length === 1 && p.sections[0].body.includes('beetle'))).toBe(true);
    expect(pagesOf(other)[0].sections).toEqual([expect.objectContaining({ body: 'A stag beetle.' })]);
  });

  it('matches the word being typed by its shorter forms that pages hold as words', async () => {
    const space = (await createSpace(t, { organization: org, title: 'Shorthand' })).id;
    let inst = '';
    await editSpaceContent(t.app.deps, space, admin.id, (e) => {
      inst = e.insertPage({ title: 'Abbreviations', markdown: 'Write inst for short.\n' });
      e.insertPage({ title: 'Other', markdown: 'Another instance of nothing.\n' });
    });
    // "instq" is still being typed: no word starts with it, but "inst", one of its own
    // prefixes, is a word of one page (as a whole word only: "instance" does not match).
    expect((await search(space, 'instq')).body.items.map((i: any) => i.id)).toEqual([inst]);
    expect((await search(space, 'write instq')).body.items.map((i: any) => i.id)).toEqual([inst]);
    expect((await search(space, 'another instq')).body).toEqual({ count: 0, items: [] });
  });

  it('limits the query to 512 characters and pages through results', async () => {
    expect((await search(spaceId, 'x'.repeat(512))).status).toBe(200);
    expect((await search(spaceId, 'x'.repeat(513))).status).toBe(400);
    expect((await t.request('GET', `${S(spaceId)}/search`, { token: admin.token })).status).toBe(400);
    const first = await search(spaceId, 'server', admin.token, { limit: 1 });
    expect(first.body.items).toHaveLength(1);
    expect(first.body.count).toBeGreaterThan(1);
    const second = await search(spaceId, 'server', admin.token, { limit: 1, page: first.body.next.page });
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
    expect(second.body.items[0].rank).toBe(2);
  });

  it('searches the organization: only spaces the caller can see', async () => {
    const asAdmin = await t.request('GET', `/v1/orgs/${org.id}/search`, { token: admin.token, query: { query: 'installation' } });
    expect(asAdmin.status, asAdmin.text).toBe(200);
    expect(asAdmin.body.items.map((i: any) => i.id).sort()).toEqual([spaceId, secretId].sort());
    const handbook = asAdmin.body.items.find((i: any) => i.id === spaceId);
    expect(handbook).toMatchObject({ type: 'space', title: 'Handbook' });
    expect(handbook.pages[0].title).toBe('Installation');

    const asReader = await t.request('GET', `/v1/orgs/${org.id}/search`, { token: reader.token, query: { query: 'installation' } });
    expect(asReader.body.items.map((i: any) => i.id)).toEqual([spaceId]);
    const secret = await t.request('GET', `/v1/orgs/${org.id}/search`, { token: reader.token, query: { query: 'secret' } });
    expect(secret.body).toEqual({ count: 0, items: [] });
    expect((await search(secretId, 'secret', reader.token)).status).toBe(404);
    expect((await t.request('GET', `/v1/orgs/${org.id}/search`, { token: outsider.token, query: { query: 'installation' } })).status).toBe(404);
    expect((await search(spaceId, 'installation', outsider.token)).status).toBe(404);
  });

  it('follows merges and edits, re-indexing only the pages that changed', async () => {
    const space = (await createSpace(t, { organization: org, title: 'Merges' })).id;
    await editSpaceContent(t.app.deps, space, admin.id, (e) => {
      ids.a = e.insertPage({ title: 'Alpha', markdown: 'First page.\n' });
      ids.b = e.insertPage({ title: 'Beta', markdown: 'Second page, soon gone.\n' });
      for (let i = 0; i < 8; i++) e.insertPage({ title: `Filler ${i}`, markdown: `Filler text ${i}.\n` });
    });
    expect((await search(space, 'alpha')).body.items).toHaveLength(1);
    const full = indexRuns.at(-1)!;
    expect(full).toMatchObject({ spaceId: space, from: null, indexed: 10, removed: 0 });

    const cr = (await t.request('POST', `${S(space)}/change-requests`, { token: editor.token, body: { subject: 'Zebra' } })).body;
    const CR = `${S(space)}/change-requests/${cr.id}`;
    const batch = await t.request('POST', `${CR}/content`, {
      token: editor.token,
      body: {
        changes: [
          { operation: 'insert_page', title: 'Zebra crossing', document: { markdown: 'Stripes everywhere.\n' } },
          { operation: 'update_page', page: ids.a, document: { markdown: 'First page, now about giraffes.\n' } },
          { operation: 'delete_page', page: ids.b },
        ],
      },
    });
    expect(batch.status, batch.text).toBe(200);
    // Not merged yet: the space's index still shows main.
    expect((await search(space, 'zebra')).body.items).toEqual([]);
    const merged = await t.request('POST', `${CR}/merge`, { token: admin.token });
    expect(merged.status, merged.text).toBe(200);

    expect((await search(space, 'zebra')).body.items.map((i: any) => i.title)).toEqual(['Zebra crossing']);
    expect((await search(space, 'giraffes')).body.items.map((i: any) => i.id)).toEqual([ids.a]);
    expect((await search(space, 'gone')).body.items).toEqual([]);
    const run = indexRuns.at(-1)!;
    expect(run).toMatchObject({ spaceId: space, from: full.to, to: merged.body.revision, indexed: 2, removed: 1 });
    // The index table tells the same: only the two written pages carry the merge revision
    // (a row per section on PostgreSQL, per page on SQLite: these pages have one section each).
    const rows = await t.db.selectFrom(t.dialect === 'postgres' ? 'search_sections' : 'search_pages').select(['page_id', 'revision_id']).where('space_id', '=', space).execute();
    expect(rows).toHaveLength(10);
    expect(rows.filter((r) => r.revision_id === merged.body.revision)).toHaveLength(2);
    expect(rows.some((r) => r.page_id === ids.b)).toBe(false);
    const state = await t.db.selectFrom('search_index_state').selectAll().where('space_id', '=', space).executeTakeFirst();
    expect(state?.revision_id).toBe(merged.body.revision);

    // A direct edit (a title change) moves the index again, one page.
    await editSpaceContent(t.app.deps, space, admin.id, (e) => e.updatePage(ids.a, { title: 'Aardvark' }));
    expect((await search(space, 'aardvark')).body.items.map((i: any) => i.id)).toEqual([ids.a]);
    expect(indexRuns.at(-1)).toMatchObject({ spaceId: space, indexed: 1, removed: 0 });
    // Nothing moved: nothing is re-indexed.
    const count = indexRuns.length;
    await search(space, 'aardvark');
    expect(indexRuns.length).toBe(count);
  });
});
