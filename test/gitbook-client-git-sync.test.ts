import { Writable } from 'node:stream';
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAfterJobs, createTestApp, type TestApp } from './app.ts';
import { createOrganization, type TestOrganization } from './factories.ts';
import { gitbookSchemaErrors } from './gitbook-schema.ts';
import { createRepository, git, startGitServer, type GitServer } from './git-server.ts';

/*
 * GitBook's official client drives git sync (importGitRepository, exportToGitRepository,
 * getSpaceGitInfo) against a listening Quire and a git server on 127.0.0.1; GitBook's
 * schemas validate what comes back, and the server's log never holds the credentials.
 */
describe("GitBook's official client: git sync", () => {
  let t: TestApp;
  let org: TestOrganization;
  let api: GitBookAPI;
  let server: GitServer;
  const credentials = { user: 'client', password: 'cl1ent-Secret' };
  const logged: string[] = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        logged.push(String(chunk));
        done();
      },
    });
    t = await createTestApp({ outboundAllowPrivate: true }, { logger: { level: 'trace', stream } });
    server = await startGitServer(credentials);
    org = await createOrganization(t, { title: 'Git Client Org' });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    api = new GitBookAPI({ endpoint: address, authToken: org.admin.token });
  }, 120_000);
  afterAll(() => closeAfterJobs(t, server), 120_000);

  it('imports, reads git info, exports; responses match GitBook’s schemas; no credentials in the log', async () => {
    const repo = createRepository(server, 'client', {
      'README.md': '# Intro\n\nSee [the guide](guide.md).\n',
      'guide.md': '---\ndescription: The guide\n---\n\n# Guide\n\nText.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Intro](README.md)\n* [Guide](guide.md)\n',
    });
    const space = (await api.orgs.createSpace(org.id, { title: 'Synced' })).data;
    const url = server.url('client', credentials);
    const started = await api.spaces.importGitRepository(space.id, { url, ref: 'refs/heads/main', repoCommitURL: 'https://github.com/acme/client/commit/', gitInfo: { provider: 'github', url: 'https://github.com/acme/client' } });
    expect(started.status).toBe(204);
    await t.runJobsUntilIdle();

    const info = await api.spaces.getSpaceGitInfo(space.id);
    expect(gitbookSchemaErrors('GET', `/v1/spaces/${space.id}/git/info`, 200, info.data)).toBeNull();
    expect(info.data).toMatchObject({ repoName: 'acme/client', installationProvider: 'github', url: 'https://github.com/acme/client' });

    const revision = await api.spaces.getCurrentRevision(space.id);
    expect(gitbookSchemaErrors('GET', `/v1/spaces/${space.id}/content`, 200, revision.data)).toBeNull();
    const head = git(repo.bare, 'rev-parse', 'main').trim();
    expect(revision.data.git).toMatchObject({ oid: head, createdByGitBook: false, url: `https://github.com/acme/client/commit/${head}` });
    expect(revision.data.pages.map((p) => p.title)).toEqual(['Intro', 'Guide']);
    const guide = revision.data.pages[1] as { git?: { path: string }; description?: string };
    expect(guide.git?.path).toBe('guide.md');
    expect(guide.description).toBe('The guide');

    const exported = await api.spaces.exportToGitRepository(space.id, { url, ref: 'refs/heads/published', commitMessage: 'Publish' });
    expect(exported.status).toBe(204);
    await t.runJobsUntilIdle();
    expect(git(repo.bare, 'rev-parse', 'published^{tree}').trim()).toBe(git(repo.bare, 'rev-parse', 'main^{tree}').trim());

    const spaceRead = await api.spaces.getSpaceById(space.id);
    expect(gitbookSchemaErrors('GET', `/v1/spaces/${space.id}`, 200, spaceRead.data)).toBeNull();
    expect(spaceRead.data.gitSync).toEqual(info.data);

    const log = logged.join('');
    expect(log).not.toContain(credentials.password);
    expect(log).not.toContain(Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64'));
  });
});
