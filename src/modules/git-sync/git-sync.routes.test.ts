import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAfterJobs, createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, createSpace, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { createRoleMatrix } from '../../../test/role-matrix.ts';
import { createRepository, git, gitBytes, type GitServer } from '../../../test/git-server.ts';
import { gitSyncTestApp } from '../../../test/git-sync-app.ts';
import { editSpaceContent } from '../content/content.service.ts';
import { presentRunLine } from './git-sync.presenter.ts';
import { listRuns } from './git-sync.service.ts';

/** The space's sync runs as `cli -- git-sync log` shows them, newest first. */
const runLog = async (db: Parameters<typeof listRuns>[0], spaceId: string) => (await listRuns(db, spaceId)).map(presentRunLine);

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

const GITBOOK_REPO = {
  '.gitbook.yaml': 'root: ./docs/\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n\nredirects:\n  old/page: guides/start.md\n',
  'docs/SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Welcome](README.md)',
    '* [Guides](guides/README.md)',
    '  * [Getting started](guides/start.md)',
    '  * [Advanced use](guides/advanced.md)',
    '* [Website](https://example.com)',
    '',
    '## Reference',
    '',
    '* [API](reference/api.md)',
    '',
  ].join('\n'),
  'docs/README.md': '# Welcome\n\nStart with the [getting started guide](guides/start.md).\n',
  'docs/guides/README.md': '---\ndescription: All the guides\nicon: book\n---\n\n# Guides\n\nSee [the API](../reference/api.md#auth).\n',
  'docs/guides/start.md': '---\nhidden: true\nlayout:\n  width: wide\n---\n\n# Getting started\n\n![A diagram](../.gitbook/assets/diagram.png)\n\nThen read [advanced](advanced.md).\n',
  // `owner` is not page metadata in Quire: it must survive an edit of the page.
  'docs/guides/advanced.md': '---\nowner: docs-team\n---\n\n# Advanced use\n\nSome *advanced* text.\n',
  'docs/reference/api.md': '# API\n\n## Auth\n\nUse a token.\n',
  'docs/.gitbook/assets/diagram.png': PNG,
  'LICENSE': 'MIT\n',
};

describe('git sync', () => {
  let t: TestApp;
  let server: GitServer;
  let org: TestOrganization;
  let admin: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  const credentials = { user: 'bot', password: 's3cret-pa55' };

  beforeAll(async () => {
    ({ t, server } = await gitSyncTestApp({}, credentials));
    ({ org, admin, reader, outsider } = await createRoleMatrix(t, { title: 'Acme', roles: ['read'] }));
  }, 120_000);
  afterAll(() => closeAfterJobs(t, server), 120_000);

  async function importRepo(spaceId: string, body: Record<string, unknown>) {
    const res = await t.request('POST', `/v1/spaces/${spaceId}/git/import`, { token: admin.token, body });
    expect(res.status, res.text).toBe(204);
    await t.runJobsUntilIdle();
  }

  async function exportRepo(spaceId: string, body: Record<string, unknown>) {
    const res = await t.request('POST', `/v1/spaces/${spaceId}/git/export`, { token: admin.token, body });
    expect(res.status, res.text).toBe(204);
    await t.runJobsUntilIdle();
  }

  async function content(spaceId: string) {
    const res = await t.request('GET', `/v1/spaces/${spaceId}/content`, { token: admin.token });
    expect(res.status).toBe(200);
    return res.body;
  }

  const flat = (pages: any[]): any[] => pages.flatMap((p) => [p, ...flat(p.pages ?? [])]);

  it('imports a GitBook-layout repository: SUMMARY tree, groups, nested and link pages, front matter, assets, links', async () => {
    const repo = createRepository(server, 'layout', GITBOOK_REPO);
    const spaceId = (await createSpace(t, { organization: org, title: 'Docs' })).id;
    const head = git(repo.bare, 'rev-parse', 'main').trim();
    expect((await t.request('GET', `/v1/spaces/${spaceId}/git/info`, { token: admin.token })).status).toBe(404);
    await importRepo(spaceId, {
      url: server.url('layout', credentials),
      ref: 'refs/heads/main',
      repoCommitURL: 'https://github.com/acme/docs/commit/',
      repoTreeURL: 'https://github.com/acme/docs/tree/main',
      gitInfo: { provider: 'github', url: 'https://github.com/acme/docs' },
      timestamp: '2026-01-01T00:00:00.000Z',
    });
    const revision = await content(spaceId);
    expect(revision.git).toMatchObject({ oid: head, message: 'Initial', ref: 'refs/heads/main', createdByGitBook: false, url: `https://github.com/acme/docs/commit/${head}` });
    const top = revision.pages;
    expect(top.map((p: any) => [p.type, p.title])).toEqual([
      ['document', 'Welcome'],
      ['document', 'Guides'],
      ['link', 'Website'],
      ['group', 'Reference'],
    ]);
    const guides = top[1];
    expect(guides.description).toBe('All the guides');
    expect(guides.icon).toBe('book');
    expect(guides.git).toEqual({ oid: git(repo.bare, 'rev-parse', 'main:docs/guides/README.md').trim(), path: 'docs/guides/README.md' });
    expect(guides.pages.map((p: any) => p.title)).toEqual(['Getting started', 'Advanced use']);
    const start = guides.pages[0];
    expect(start.hidden).toBe(true);
    expect(start.layout.width).toBe('wide');
    expect(top[2].target).toEqual({ kind: 'url', url: 'https://example.com' });
    expect(top[3].pages.map((p: any) => p.title)).toEqual(['API']);
    expect(revision.files).toHaveLength(1);
    expect(revision.files[0]).toMatchObject({ name: 'diagram.png', contentType: 'image/png', git: { path: 'docs/.gitbook/assets/diagram.png' } });
    expect(revision.files[0].dimensions).toEqual({ width: 1, height: 1 });

    // Relative links became references to pages, anchors and files.
    const startDoc = JSON.stringify(start.document);
    expect(startDoc).toContain(`"file":"${revision.files[0].id}"`);
    expect(startDoc).toContain(`"page":"${guides.pages[1].id}"`);
    expect(JSON.stringify(guides.document)).toContain(`"anchor":"auth"`);
    expect(JSON.stringify(guides.document)).toContain(`"page":"${top[3].pages[0].id}"`);

    // Git info, the space's gitSync, and credentials nowhere.
    const info = await t.request('GET', `/v1/spaces/${spaceId}/git/info`, { token: reader.token });
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ repoName: 'acme/docs', installationProvider: 'github', url: 'https://github.com/acme/docs' });
    const space = await t.request('GET', `/v1/spaces/${spaceId}`, { token: admin.token });
    expect(space.body.gitSync).toEqual(info.body);
    expect(server.authorizations.length).toBeGreaterThan(0);
    await expectNoSecret(credentials.password);
    expect((await runLog(t.db, spaceId)).join('\n')).toContain('success');

    // metadata=false leaves out the mutable git metadata of pages and files (GitBook's revisionMetadata).
    const lean = await t.request('GET', `/v1/spaces/${spaceId}/content`, { token: admin.token, query: { metadata: 'false' } });
    expect(JSON.stringify(lean.body)).not.toContain('"git"');
    const leanPage = await t.request('GET', `/v1/spaces/${spaceId}/content/page/${guides.id}`, { token: admin.token, query: { metadata: 'false' } });
    expect(leanPage.body.git).toBeUndefined();
    expect((await t.request('GET', `/v1/spaces/${spaceId}/content/page/${guides.id}`, { token: admin.token })).body.git).toMatchObject({ path: 'docs/guides/README.md' });
    const leanFile = await t.request('GET', `/v1/spaces/${spaceId}/content/files/${revision.files[0].id}`, { token: admin.token, query: { metadata: 'false' } });
    expect(leanFile.body.git).toBeUndefined();
    expect((await t.request('GET', `/v1/spaces/${spaceId}/content/files/${revision.files[0].id}`, { token: admin.token })).body.git).toBeDefined();

    // `.gitbook.yaml` redirects: the old address of a published page leads to the page.
    const site = await t.request('POST', `/v1/orgs/${org.id}/sites`, { token: admin.token, body: { title: 'Docs site', spaces: [spaceId] } });
    await t.request('PATCH', `/v1/orgs/${org.id}/sites/${site.body.id}`, { token: admin.token, body: { basename: 'git-docs' } });
    expect((await t.request('POST', `/v1/orgs/${org.id}/sites/${site.body.id}/publish`, { token: admin.token })).status).toBeLessThan(300);
    expect(start.title).toBe('Getting started');
    const old = await t.app.inject({ method: 'GET', url: '/sites/git-docs/old/page' });
    expect(old.statusCode).toBe(302);
    expect(old.headers.location).toBe(`/sites/git-docs/${start.path}`);
    expect((await t.app.inject({ method: 'GET', url: old.headers.location as string })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/sites/git-docs/old/other' })).statusCode).toBe(404);
  });

  async function expectNoSecret(secret: string) {
    for (const table of ['jobs', 'git_syncs', 'git_sync_runs', 'spaces', 'revisions'] as const) {
      const rows = await t.db.selectFrom(table).selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(secret);
      expect(JSON.stringify(rows)).not.toContain(Buffer.from(`${credentials.user}:${secret}`).toString('base64'));
    }
  }

  it('exports back byte for byte: no commit when nothing changed, one page file after an edit, SUMMARY only when the tree changed', async () => {
    const repo = createRepository(server, 'roundtrip', GITBOOK_REPO);
    const spaceId = (await createSpace(t, { organization: org, title: 'Docs' })).id;
    const url = server.url('roundtrip', credentials);
    await importRepo(spaceId, { url, ref: 'refs/heads/main' });
    const first = git(repo.bare, 'rev-parse', 'main').trim();

    await exportRepo(spaceId, { url, ref: 'refs/heads/main', commitMessage: 'No change' });
    expect(git(repo.bare, 'rev-parse', 'main').trim()).toBe(first);

    // A new branch from the synced commit: every file identical.
    await exportRepo(spaceId, { url, ref: 'refs/heads/copy', commitMessage: 'Copy' });
    expect(git(repo.bare, 'rev-parse', 'copy^{tree}').trim()).toBe(git(repo.bare, 'rev-parse', 'main^{tree}').trim());

    // Edit one page through the content service; export writes only its file.
    const revision = await content(spaceId);
    const advanced = revision.pages[1].pages[1];
    await editSpaceContent(t.app.deps, spaceId, admin.id, (editor) => editor.updatePage(advanced.id, { markdown: 'Rewritten *text*.\n' }));
    await exportRepo(spaceId, { url, ref: 'refs/heads/main', commitMessage: 'Edit advanced' });
    const second = git(repo.bare, 'rev-parse', 'main').trim();
    expect(second).not.toBe(first);
    expect(git(repo.bare, 'log', '-1', '--format=%s', 'main').trim()).toBe('Edit advanced');
    expect(git(repo.bare, 'diff', '--name-only', first, second).trim().split('\n')).toEqual(['docs/guides/advanced.md']);
    expect(git(repo.bare, 'show', 'main:docs/guides/advanced.md')).toBe('---\nowner: docs-team\n---\n\n# Advanced use\n\nRewritten _text_.\n');
    const after = await content(spaceId);
    expect(after.pages[1].pages[1].git).toEqual({ oid: git(repo.bare, 'rev-parse', 'main:docs/guides/advanced.md').trim(), path: 'docs/guides/advanced.md' });

    // Nothing changed since: no commit.
    await exportRepo(spaceId, { url, ref: 'refs/heads/main', commitMessage: 'Again' });
    expect(git(repo.bare, 'rev-parse', 'main').trim()).toBe(second);

    // A new page changes the tree: its file and SUMMARY.md.
    await editSpaceContent(t.app.deps, spaceId, admin.id, (editor) => editor.insertPage({ title: 'FAQ', markdown: 'Questions.\n' }));
    await exportRepo(spaceId, { url, ref: 'refs/heads/main', commitMessage: 'Add FAQ' });
    const third = git(repo.bare, 'rev-parse', 'main').trim();
    expect(git(repo.bare, 'diff', '--name-only', second, third).trim().split('\n').sort()).toEqual(['docs/SUMMARY.md', 'docs/faq.md']);
    expect(git(repo.bare, 'show', 'main:docs/SUMMARY.md')).toContain('* [FAQ](faq.md)');
    expect(gitBytes(repo.bare, 'show', 'main:docs/.gitbook/assets/diagram.png').equals(PNG)).toBe(true);
    expect((await runLog(t.db, spaceId)).length).toBeGreaterThanOrEqual(5);
  });

  it('exports a space never synced into an empty repository, then removes a deleted page and its SUMMARY entry', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const bare = path.join(server.root, 'empty.git');
    fs.mkdirSync(bare);
    git(bare, 'init', '--bare', '--quiet', '-b', 'main');
    const spaceId = (await createSpace(t, { organization: org, title: 'Fresh' })).id;
    let keepId = '';
    let dropId = '';
    await editSpaceContent(t.app.deps, spaceId, admin.id, (editor) => {
      keepId = editor.insertPage({ title: 'Overview', markdown: 'The overview, with a [link](https://example.com).\n', description: 'What it is' });
      const parent = editor.insertPage({ title: 'Guides', markdown: 'All guides.\n' });
      dropId = editor.insertPage({ title: 'First steps', markdown: 'Do this.\n' }, { parent });
    });
    const url = server.url('empty', credentials);
    await exportRepo(spaceId, { url, ref: 'refs/heads/main', commitMessage: 'First export', force: true });
    expect(git(bare, 'ls-tree', '-r', '--name-only', 'main').trim().split('\n').sort()).toEqual(['README.md', 'SUMMARY.md', 'guides/README.md', 'guides/first-steps.md']);
    expect(git(bare, 'show', 'main:SUMMARY.md')).toBe('# Table of contents\n\n* [Overview](README.md)\n* [Guides](guides/README.md)\n  * [First steps](guides/first-steps.md)\n');
    expect(git(bare, 'show', 'main:README.md')).toBe('---\ndescription: What it is\n---\n\n# Overview\n\nThe overview, with a [link](https://example.com).\n');
    const first = git(bare, 'rev-parse', 'main').trim();
    const exported = await content(spaceId);
    expect(exported.git).toMatchObject({ oid: first, createdByGitBook: true });
    expect(exported.pages[0].git).toEqual({ oid: git(bare, 'rev-parse', 'main:README.md').trim(), path: 'README.md' });

    await editSpaceContent(t.app.deps, spaceId, admin.id, (editor) => editor.deletePage(dropId));
    await exportRepo(spaceId, { url, ref: 'refs/heads/main', commitMessage: 'Drop a page' });
    const second = git(bare, 'rev-parse', 'main').trim();
    expect(git(bare, 'diff', '--name-status', first, second).trim().split('\n').sort()).toEqual(['D\tguides/first-steps.md', 'M\tSUMMARY.md']);

    // Importing the commit it just exported changes nothing; forced, it reads it again and keeps the ids.
    await importRepo(spaceId, { url, ref: 'refs/heads/main' });
    expect((await runLog(t.db, spaceId))[0]).toContain('unchanged');
    await importRepo(spaceId, { url, ref: 'refs/heads/main', force: true });
    const back = await content(spaceId);
    expect(back.pages.map((p: any) => [p.id, p.title])).toEqual([
      [keepId, 'Overview'],
      [exported.pages[1].id, 'Guides'],
    ]);
    expect(back.pages[0].description).toBe('What it is');
    expect((await runLog(t.db, spaceId))[0]).toMatch(/import\s+success/);
  });

  it('keeps page ids across imports when files are renamed, and reads a folder tree without SUMMARY.md', async () => {
    const repo = createRepository(server, 'folders', {
      'README.md': '# Home\n\nHello.\n',
      'setup.md': '# Setup\n\nInstall it with the package manager of your choice, then run the command.\n',
      'api/README.md': '# API\n\nThe API.\n',
      'api/tokens.md': '# Tokens\n\nSee [setup](../setup.md).\n',
    });
    const spaceId = (await createSpace(t, { organization: org, title: 'Docs' })).id;
    const url = server.url('folders', credentials);
    await importRepo(spaceId, { url, ref: 'refs/heads/main' });
    const before = await content(spaceId);
    expect(before.pages.map((p: any) => p.title)).toEqual(['Home', 'Setup', 'API']);
    expect(before.pages[2].pages.map((p: any) => p.title)).toEqual(['Tokens']);
    const setupId = before.pages[1].id;
    expect(JSON.stringify(before.pages[2].pages[0].document)).toContain(`"page":"${setupId}"`);

    t.clock.advance(60_000);
    repo.commit({ 'setup.md': null, 'installation.md': '# Setup\n\nInstall it with the package manager of your choice, then run the command.\n', 'api/tokens.md': '# Tokens\n\nSee [setup](../installation.md).\n' }, 'Rename setup');
    await importRepo(spaceId, { url, ref: 'refs/heads/main' });
    const after = await content(spaceId);
    const renamed = flat(after.pages).find((p) => p.title === 'Setup');
    expect(renamed.id).toBe(setupId);
    expect(renamed.git.path).toBe('installation.md');
    expect(flat(after.pages).find((p) => p.title === 'Tokens').id).toBe(before.pages[2].pages[0].id);
    // Pages read again as they were keep their dates; the moved one was updated.
    expect(after.pages[0]).toMatchObject({ createdAt: before.pages[0].createdAt, updatedAt: before.pages[0].updatedAt });
    expect(renamed.createdAt).toBe(before.pages[1].createdAt);
    expect(renamed.updatedAt > before.pages[1].updatedAt).toBe(true);
  });

  it('reads the folders when SUMMARY.md gives no table of contents, and exports the untouched space back byte for byte, that SUMMARY.md included', async () => {
    const repo = createRepository(server, 'overwritten-summary', {
      // A tool overwrote SUMMARY.md with JSON: no item, no group.
      'SUMMARY.md': '{\n  "anchor": "* [Home](README.md)",\n  "line": "* [Setup](setup.md)"\n}\n',
      'README.md': '# Home\n\nSee [setup](setup.md).\n',
      'setup.md': '# Setup\n\nRun it.\n',
    });
    const spaceId = (await createSpace(t, { organization: org, title: 'Docs' })).id;
    const url = server.url('overwritten-summary', credentials);
    await importRepo(spaceId, { url, ref: 'refs/heads/main' });
    const pages = (await content(spaceId)).pages;
    expect(pages.map((p: any) => p.title)).toEqual(['Home', 'Setup']);
    expect(JSON.stringify(pages[0].document)).toContain(`"page":"${pages[1].id}"`);
    await exportRepo(spaceId, { url, ref: 'refs/heads/copy', commitMessage: 'Copy' });
    expect(git(repo.bare, 'rev-parse', 'copy^{tree}').trim()).toBe(git(repo.bare, 'rev-parse', 'main^{tree}').trim());
  });

  it('keeps the id of a page renamed and rewritten beyond rename detection when it keeps its place in SUMMARY.md', async () => {
    const repo = createRepository(server, 'places', {
      'SUMMARY.md': '* [Home](README.md)\n* [Old name](old.md)\n* [Other](other.md)\n',
      'README.md': '# Home\n',
      'old.md': '# Old name\n\nFirst text.\n',
      'other.md': '# Other\n',
    });
    const spaceId = (await createSpace(t, { organization: org, title: 'Docs' })).id;
    const url = server.url('places', credentials);
    await importRepo(spaceId, { url, ref: 'refs/heads/main' });
    const before = await content(spaceId);
    repo.commit({ 'old.md': null, 'new.md': '# New name\n\nCompletely different words now, nothing alike.\n', 'SUMMARY.md': '* [Home](README.md)\n* [New name](new.md)\n* [Other](other.md)\n' });
    await importRepo(spaceId, { url, ref: 'refs/heads/main' });
    const after = await content(spaceId);
    expect(after.pages.map((p: any) => p.id)).toEqual(before.pages.map((p: any) => p.id));
    expect(after.pages[1]).toMatchObject({ title: 'New name', git: { path: 'new.md' } });
  });

  it('orders operations by timestamp unless forced; standalone imports leave the head; failures leave the space unchanged', async () => {
    const repo = createRepository(server, 'ordering', { 'README.md': '# One\n' });
    const spaceId = (await createSpace(t, { organization: org, title: 'Docs' })).id;
    const url = server.url('ordering', credentials);
    await importRepo(spaceId, { url, ref: 'refs/heads/main', timestamp: '2026-02-01T00:00:00.000Z' });
    const head = (await content(spaceId)).id;

    repo.commit({ 'README.md': '# Two\n' });
    await importRepo(spaceId, { url, ref: 'refs/heads/main', timestamp: '2026-01-01T00:00:00.000Z' });
    expect((await content(spaceId)).id).toBe(head);
    expect((await runLog(t.db, spaceId))[0]).toContain('skipped');

    await importRepo(spaceId, { url, ref: 'refs/heads/main', repoCacheID: 'cache-1', standalone: true });
    const standalone = (await runLog(t.db, spaceId))[0];
    expect(standalone).toContain('success');
    expect((await content(spaceId)).id).toBe(head);
    const runs = await t.db.selectFrom('git_sync_runs').selectAll().where('space_id', '=', spaceId).orderBy('started_at', 'desc').execute();
    const standaloneRevision = runs.find((r) => r.revision_id)!.revision_id!;
    const read = await t.request('GET', `/v1/spaces/${spaceId}/revisions/${standaloneRevision}`, { token: admin.token });
    expect(read.status).toBe(200);
    expect(read.body.pages[0].title).toBe('Two');

    await importRepo(spaceId, { url, ref: 'refs/heads/main', timestamp: '2026-01-01T00:00:00.000Z', force: true });
    expect((await content(spaceId)).pages[0].title).toBe('Two');
    const moved = (await content(spaceId)).id;

    // Wrong password, missing repository, missing branch: recorded, nothing changed, no secret in the log.
    await importRepo(spaceId, { url: server.url('ordering', { user: 'bot', password: 'wrong-pass' }), ref: 'refs/heads/main', force: true });
    await importRepo(spaceId, { url: server.url('nothing-here', credentials), ref: 'refs/heads/main', force: true });
    await importRepo(spaceId, { url, ref: 'refs/heads/absent', force: true });
    const log = await runLog(t.db, spaceId);
    expect(log.slice(0, 3).every((line) => line.includes('failure'))).toBe(true);
    expect(log.join('\n')).not.toContain('wrong-pass');
    expect(log.join('\n')).not.toContain(credentials.password);
    expect((await content(spaceId)).id).toBe(moved);
  });

  it('refuses private addresses unless OUTBOUND_ALLOW_PRIVATE', async () => {
    const guarded = await createTestApp({ outboundAllowPrivate: false });
    try {
      const o = await createOrganization(guarded, { title: 'Guarded' });
      const created = await guarded.request('POST', `/v1/orgs/${o.id}/spaces`, { token: o.admin.token, body: { title: 'X' } });
      createRepository(server, 'guarded', { 'README.md': '# Guarded\n' });
      const res = await guarded.request('POST', `/v1/spaces/${created.body.id}/git/import`, { token: o.admin.token, body: { url: server.url('guarded', credentials), ref: 'refs/heads/main' } });
      expect(res.status).toBe(204);
      await guarded.runJobsUntilIdle();
      const log = await runLog(guarded.db, created.body.id);
      expect(log[0]).toContain('failure');
      expect(log[0]).toContain('not reachable');
    } finally {
      await guarded.close();
    }
  });

  it('opens a change request when both the space and the repository changed since the last sync', async () => {
    const repo = createRepository(server, 'divergent', { 'README.md': '# Home\n\nFirst line.\n', 'other.md': '# Other\n\nText.\n' });
    const spaceId = (await createSpace(t, { organization: org, title: 'Docs' })).id;
    const url = server.url('divergent', credentials);
    await importRepo(spaceId, { url, ref: 'refs/heads/main' });
    const revision = await content(spaceId);
    await editSpaceContent(t.app.deps, spaceId, admin.id, (editor) => editor.updatePage(revision.pages[0].id, { markdown: 'Edited in Quire.\n' }));
    const edited = (await content(spaceId)).id;
    repo.commit({ 'other.md': '# Other\n\nChanged in git.\n' });
    await importRepo(spaceId, { url, ref: 'refs/heads/main' });
    expect((await content(spaceId)).id).toBe(edited);
    const crs = await t.request('GET', `/v1/spaces/${spaceId}/change-requests`, { token: admin.token });
    expect(crs.status).toBe(200);
    expect(crs.body.items).toHaveLength(1);
    expect((await runLog(t.db, spaceId))[0]).toContain('change-request');
    const merged = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${crs.body.items[0].id}/merge`, { token: admin.token });
    expect(merged.status, merged.text).toBeLessThan(300);
    const final = await content(spaceId);
    expect(JSON.stringify(final.pages)).toContain('Changed in git.');
    expect(JSON.stringify(final.pages)).toContain('Edited in Quire.');
  });

  it('reports conflicts on the change request when both sides changed the same page', async () => {
    const repo = createRepository(server, 'conflict', { 'README.md': '# Home\n\nThe same line.\n' });
    const spaceId = (await createSpace(t, { organization: org, title: 'Docs' })).id;
    const url = server.url('conflict', credentials);
    await importRepo(spaceId, { url, ref: 'refs/heads/main' });
    const home = (await content(spaceId)).pages[0];
    await editSpaceContent(t.app.deps, spaceId, admin.id, (editor) => editor.updatePage(home.id, { markdown: 'The line, as Quire says it.\n' }));
    repo.commit({ 'README.md': '# Home\n\nThe line, as git says it.\n' });
    await importRepo(spaceId, { url, ref: 'refs/heads/main' });
    const crs = await t.request('GET', `/v1/spaces/${spaceId}/change-requests`, { token: admin.token });
    expect(crs.body.items).toHaveLength(1);
    const merged = await t.request('POST', `/v1/spaces/${spaceId}/change-requests/${crs.body.items[0].id}/merge`, { token: admin.token });
    expect(merged.status).toBe(409);
    expect(JSON.stringify((await content(spaceId)).pages[0].document)).toContain('as Quire says it');
  });

  describe('requests', () => {
    let spaceId: string;
    beforeAll(async () => {
      spaceId = (await createSpace(t, { organization: org, title: 'Requests' })).id;
    });
    const body = { url: 'https://example.com/repo.git', ref: 'refs/heads/main' };

    it('validates the body (400), needs a token (401), the edit role (403) and a visible space (404)', async () => {
      const post = (b: unknown, token: string | null = admin.token, id = spaceId) => t.request('POST', `/v1/spaces/${id}/git/import`, { token, body: b });
      expect((await post({ ...body, ref: 'main' })).status).toBe(400);
      expect((await post({ ...body, url: 'ftp://example.com/x' })).status).toBe(400);
      expect((await post({ ...body, url: 'not a url' })).status).toBe(400);
      expect((await post({ ...body, extra: 1 })).status).toBe(400);
      expect((await post({ ...body, repoProjectDirectory: '../up' })).status).toBe(400);
      expect((await post({ ...body, timestamp: 'yesterday' })).status).toBe(400);
      expect((await post({ ref: 'refs/heads/main' })).status).toBe(400);
      expect((await t.request('POST', `/v1/spaces/${spaceId}/git/export`, { token: admin.token, body })).status).toBe(400); // commitMessage required
      expect((await post(body, null)).status).toBe(401);
      expect((await post(body, reader.token)).status).toBe(403);
      expect((await post(body, outsider.token)).status).toBe(404);
      expect((await post(body, admin.token, 'nope')).status).toBe(404);
      expect((await t.request('GET', `/v1/spaces/${spaceId}/git/info`, { token: admin.token })).status).toBe(404);
      expect((await t.request('GET', `/v1/spaces/${spaceId}/git/info`, { token: null })).status).toBe(401);
      expect((await t.request('GET', `/v1/spaces/${spaceId}/git/info`, { token: outsider.token })).status).toBe(404);
      const jobs = await t.db.selectFrom('jobs').selectAll().where('kind', 'like', 'git-sync.%').execute();
      expect(jobs.filter((j) => j.payload.includes(spaceId))).toHaveLength(0);
    });

    it('sets the sync up at the request (git info 200) even when the run then fails; a duplicate is not synced', async () => {
      const res = await t.request('POST', `/v1/spaces/${spaceId}/git/import`, { token: admin.token, body: { url: 'https://user:pw-unresolvable@git.invalid/repo.git', ref: 'refs/heads/main', gitInfo: { provider: 'gitlab', url: 'https://gitlab.com/acme/repo' } } });
      expect(res.status).toBe(204);
      await t.runJobsUntilIdle();
      const info = await t.request('GET', `/v1/spaces/${spaceId}/git/info`, { token: reader.token });
      expect(info.status).toBe(200);
      expect(info.body).toMatchObject({ repoName: 'acme/repo', installationProvider: 'gitlab', url: 'https://gitlab.com/acme/repo' });
      expect((await runLog(t.db, spaceId))[0]).toMatch(/failure .*does not resolve/);
      await expectNoSecret('pw-unresolvable');
      const copy = await t.request('POST', `/v1/spaces/${spaceId}/duplicate`, { token: admin.token });
      expect(copy.status).toBe(201);
      expect(copy.body.gitSync).toBeUndefined();
      expect((await t.request('GET', `/v1/spaces/${copy.body.id}/git/info`, { token: admin.token })).status).toBe(404);
    });

    it('DELETE legacy-installation answers 204 (also when there is none), 403 for readers', async () => {
      expect((await t.request('DELETE', `/v1/spaces/${spaceId}/git/legacy-installation`, { token: admin.token })).status).toBe(204);
      expect((await t.request('DELETE', `/v1/spaces/${spaceId}/git/legacy-installation`, { token: admin.token })).status).toBe(204);
      expect((await t.request('DELETE', `/v1/spaces/${spaceId}/git/legacy-installation`, { token: reader.token })).status).toBe(403);
      expect((await t.request('DELETE', `/v1/spaces/${spaceId}/git/legacy-installation`, { token: null })).status).toBe(401);
    });
  });
});
