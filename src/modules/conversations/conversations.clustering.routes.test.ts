import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, type TestOrganization } from '../../../test/factories.ts';

/*
 * Issue 29 item 6, through the API: one problem asked in different words (SAML, Okta, SSO,
 * single sign-on with Azure AD) is one cluster; unrelated problems are clusters of their
 * own. Offline (no model endpoint), SQLite and PostgreSQL (DATABASE_URL).
 */

const SSO = [
  'SAML login fails with an invalid signature error',
  'Our Okta SAML integration redirects to the wrong URL',
  'Users cannot sign in with SSO after the certificate changed',
  'Set up SAML single sign-on with Azure AD',
];
const OTHERS: Record<string, string[]> = {
  pdf: ['Exporting our space to PDF produces an empty file', 'The printable version of the guide is missing its images'],
  billing: ['We were charged twice for our subscription this month', 'Where do I download last month’s invoice?'],
  webhooks: ['Our webhook endpoint never receives events when a page changes', 'Do you retry a callback when our server answers 500?'],
};

describe('conversation clusters group one problem asked in different words', () => {
  let t: TestApp;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('four SSO questions in one cluster, three unrelated problems in three others', async () => {
    const ids: Record<string, string[]> = { sso: [] };
    let n = 0;
    const ingest = async (problem: string, body: string) => {
      const id = `${problem}-${++n}`;
      (ids[problem] ??= []).push(id);
      const res = await t.request('POST', `/v1/orgs/${org.id}/conversations`, {
        token: org.admin.token,
        body: { id, parts: [{ type: 'message', role: 'user', body }] },
      });
      expect(res.status).toBe(204);
    };
    for (const body of SSO) await ingest('sso', body);
    for (const [problem, bodies] of Object.entries(OTHERS)) for (const body of bodies) await ingest(problem, body);
    await t.runJobsUntilIdle();
    // Idle means every conversation was processed and clustered: no job left or failed.
    const unfinished = await t.db.selectFrom('jobs').select(['kind', 'state', 'last_error']).where('state', '!=', 'done').execute();
    expect(unfinished).toEqual([]);

    const clusters = await t.request('GET', `/v1/orgs/${org.id}/conversations-clusters`, { token: org.admin.token });
    expect(clusters.status).toBe(200);
    expect(clusters.body.count).toBe(4);
    const issues = await t.request('GET', `/v1/orgs/${org.id}/conversations-issues`, { token: org.admin.token, query: { limit: 100 } });
    const clusterOf = new Map<string, string>(issues.body.items.map((i: any) => [i.conversation.id, i.issue.cluster]));
    const clustersOf = (problem: string) => new Set(ids[problem]!.map((id) => clusterOf.get(id)));
    for (const problem of Object.keys(ids)) expect(clustersOf(problem).size, problem).toBe(1);
    expect(new Set(Object.keys(ids).map((problem) => [...clustersOf(problem)][0])).size).toBe(4);

    const sso = clusters.body.items.find((c: any) => c.id === [...clustersOf('sso')][0]);
    expect(sso.stats.issues).toBe(4);
    expect(sso.icon).toBe('lock');
  });
});
