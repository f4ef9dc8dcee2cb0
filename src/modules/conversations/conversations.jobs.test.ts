import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, type TestOrganization } from '../../../test/factories.ts';

/*
 * The race of requestClustering (conversations.job-kinds.ts): a clustering request joins the
 * run it finds under the organization's dedupe key. When that run finishes between the
 * enqueue (which found it running) and the read of its state, the request must still queue
 * a follow-up run, or the issue it wrote stays unclustered. The interleaving is forced by
 * finishing the run inside the read. SQLite and PostgreSQL (DATABASE_URL).
 */

const interleave = vi.hoisted(() => ({ before: undefined as undefined | ((id: number) => Promise<void>) }));

vi.mock('../../jobs/queue.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../jobs/queue.ts')>();
  return {
    ...real,
    findJob: async (db: Parameters<typeof real.findJob>[0], id: number) => {
      const before = interleave.before;
      interleave.before = undefined;
      if (before) await before(id);
      return real.findJob(db, id);
    },
  };
});

const { clusterIssuesJob } = await import('./conversations.job-kinds.ts');

// The interleaving is forced by mocking a module (vi.mock), which reaches the sources only:
// against the build, Node loads dist/ itself. .ci/run runs this file against the sources
// on both databases (docs/decisions/build.md).
const againstBuild = process.env.QUIRE_TEST_TARGET === 'dist';

describe.skipIf(againstBuild)('requestClustering: a run that finishes while the request reads it', () => {
  let t: TestApp;
  let org: TestOrganization;
  const ingest = (id: string, body: string) =>
    t.request('POST', `/v1/orgs/${org.id}/conversations`, { token: org.admin.token, body: { id, parts: [{ type: 'message', role: 'user', body }] } });
  const issueOf = async (conversation: string) =>
    (await t.request('GET', `/v1/orgs/${org.id}/conversations-issues?conversation=${conversation}`, { token: org.admin.token })).body.items[0]?.issue;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('queues a follow-up run, so the issue written meanwhile is clustered', async () => {
    expect((await ingest('first', 'How do I reset my password? The reset email never arrives.')).status).toBe(204);
    await t.runJobsUntilIdle();
    expect((await issueOf('first')).cluster).toBeTruthy();

    // A clustering run of the organization under way (it read the issues already).
    const lane = `conversations.cluster:${org.id}`;
    const now = new Date().toISOString();
    const running = await t.db
      .insertInto('jobs')
      .values({
        kind: clusterIssuesJob.kind,
        payload: JSON.stringify({ organizationId: org.id }),
        state: 'running',
        lane_key: lane,
        dedupe_key: lane,
        attempts: 1,
        max_attempts: 3,
        run_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // It finishes right when the request reads its state.
    interleave.before = async (id) => {
      expect(id).toBe(Number(running.id));
      await t.db.updateTable('jobs').set({ state: 'done', updated_at: new Date().toISOString() }).where('id', '=', running.id).execute();
    };

    expect((await ingest('second', 'Our custom domain shows a DNS error after we added the CNAME record.')).status).toBe(204);
    await t.runJobsUntilIdle();
    expect(interleave.before).toBeUndefined(); // the read happened
    const issue = await issueOf('second');
    expect(issue).toBeTruthy();
    expect(issue.cluster).toBeTruthy();
  });
});
