import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { createRoleMatrix } from '../../../test/role-matrix.ts';
import { clusterPendingIssues, processConversation } from './conversations.service.ts';
import { PROBLEMS } from './conversations.fixtures.ts';
import { drainJobs } from '../../jobs/worker.ts';

describe('conversations', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: TestUser;
  let creator: TestUser;
  let reader: TestUser;
  let guest: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    ({ org, admin, creator, reader, guest, outsider } = await createRoleMatrix(t, { title: 'Acme', roles: ['create', 'read', 'guest'] }));
  }, 300_000);
  afterAll(async () => {
    await t.runJobsUntilIdle();
    await t.close();
  }, 300_000);

  const O = (orgId = org.id) => `/v1/orgs/${orgId}`;
  const daysAgo = (days: number) => new Date(t.clock.now().getTime() - days * 86_400_000).toISOString();

  function message(body: string, role = 'user') {
    return { type: 'message', role, body };
  }

  async function ingest(orgId: string, body: Record<string, unknown>, token = admin.token) {
    return t.request('POST', `${O(orgId)}/conversations`, { token, body });
  }

  async function countConversations(orgId: string): Promise<number> {
    const row = await t.db.selectFrom('conversations').select((eb) => eb.fn.countAll<number>().as('n')).where('organization_id', '=', orgId).executeTakeFirst();
    return Number(row?.n);
  }

  describe('ingest and read', () => {
    it('ingests a conversation (204), processes it into an issue and a cluster, and reads them back', async () => {
      const res = await ingest(org.id, {
        id: 'zendesk-1',
        subject: 'Webhook signatures',
        metadata: { url: 'https://support.example.com/tickets/1', attributes: { source: 'zendesk', priority: 'high' }, createdAt: daysAgo(3) },
        parts: [message('How do I verify the webhook signature header? The docs never mention the signing secret.'), message('Let me check that for you.', 'assistant')],
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      await t.runJobsUntilIdle();

      const got = await t.request('GET', `${O()}/conversations/zendesk-1`, { token: reader.token });
      expect(got.status).toBe(200);
      expect(got.body.conversation).toMatchObject({
        object: 'conversation',
        id: 'zendesk-1',
        subject: 'Webhook signatures',
        createdAt: daysAgo(3),
        source: 'zendesk',
        urls: { location: `http://quire.test/v1/orgs/${org.id}/conversations/zendesk-1`, source: 'https://support.example.com/tickets/1' },
      });
      expect(got.body.conversation.processedAt).toBe(t.clock.now().toISOString());
      expect(got.body.parts).toEqual([
        message('How do I verify the webhook signature header? The docs never mention the signing secret.'),
        message('Let me check that for you.', 'assistant'),
      ]);
      expect(got.body.metadata).toEqual({ url: 'https://support.example.com/tickets/1', attributes: { source: 'zendesk', priority: 'high' }, createdAt: daysAgo(3) });

      const issues = await t.request('GET', `${O()}/conversations-issues`, { token: reader.token, query: { conversation: 'zendesk-1' } });
      expect(issues.status).toBe(200);
      expect(issues.body.count).toBe(1);
      const { issue, conversation } = issues.body.items[0];
      expect(conversation.id).toBe('zendesk-1');
      expect(issue).toMatchObject({
        object: 'conversation-issue',
        title: 'Webhook signatures',
        summary: 'How do I verify the webhook signature header? The docs never mention the signing secret.',
        createdAt: daysAgo(3),
        ingestedAt: t.clock.now().toISOString(),
        conversation: 'zendesk-1',
      });
      expect(typeof issue.cluster).toBe('string');
      expect(issue.urls.location).toBe(`http://quire.test/v1/orgs/${org.id}/conversations-issues/${issue.id}`);

      const one = await t.request('GET', `${O()}/conversations-issues/${issue.id}`, { token: reader.token });
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ issue, conversation });

      const clusters = await t.request('GET', `${O()}/conversations-clusters`, { token: reader.token });
      const cluster = clusters.body.items.find((c: any) => c.id === issue.cluster);
      expect(cluster).toMatchObject({ object: 'issues-cluster', stats: { issues: 1, conversations: 1 }, sources: { zendesk: 1 } });
      expect(cluster.label.toLowerCase()).toMatch(/webhook|signatur/);
      expect(cluster.weeklyPulse).toHaveLength(13);
      expect(cluster.weeklyPulse.reduce((a: number, b: number) => a + b, 0)).toBe(1);
      expect(cluster.urls.location).toBe(`http://quire.test/v1/orgs/${org.id}/conversations-issues?cluster=${cluster.id}`);
    });

    it('re-ingesting an id updates the conversation, never duplicates it, and keeps its issue id', async () => {
      const o = await createOrganization(t);
      const body = { id: 'c-1', subject: 'Export to PDF', parts: [message('How can I export a space to PDF?')] };
      expect((await ingest(o.id, body, o.admin.token)).status).toBe(204);
      expect((await ingest(o.id, body, o.admin.token)).status).toBe(204);
      // Both processing jobs are in the conversation's own lane: they never run at once (two
      // at once each found no issue and added one: seen on PostgreSQL under load).
      const lanes = await t.db.selectFrom('jobs').select('lane_key').where('kind', '=', 'conversations.process').where('payload', 'like', `%${o.id}%`).execute();
      expect(lanes).toHaveLength(2);
      expect(new Set(lanes.map((l) => l.lane_key))).toEqual(new Set([`conversations.process:${o.id}:c-1`]));
      await t.runJobsUntilIdle();
      expect(await countConversations(o.id)).toBe(1);
      const before = await t.request('GET', `${O(o.id)}/conversations-issues`, { token: o.admin.token });
      expect(before.body.count).toBe(1);

      const changed = { ...body, subject: 'PDF export of one page', parts: [message('Can I export a single page to PDF rather than the whole space?')] };
      expect((await ingest(o.id, changed, o.admin.token)).status).toBe(204);
      await t.runJobsUntilIdle();
      expect(await countConversations(o.id)).toBe(1);
      const conversation = await t.request('GET', `${O(o.id)}/conversations/c-1`, { token: o.admin.token });
      expect(conversation.body.conversation.subject).toBe('PDF export of one page');
      expect(conversation.body.parts[0].body).toBe('Can I export a single page to PDF rather than the whole space?');
      const after = await t.request('GET', `${O(o.id)}/conversations-issues`, { token: o.admin.token });
      expect(after.body.count).toBe(1);
      expect(after.body.items[0].issue.id).toBe(before.body.items[0].issue.id);
      expect(after.body.items[0].issue.title).toBe('PDF export of one page');
      const clusters = await t.request('GET', `${O(o.id)}/conversations-clusters`, { token: o.admin.token });
      expect(clusters.body.count).toBe(1);
      expect(clusters.body.items[0].stats).toEqual({ issues: 1, conversations: 1 });

      // Processing twice changes nothing.
      await processConversation(t.app.deps, o.id, 'c-1');
      expect(await clusterPendingIssues(t.app.deps, o.id)).toEqual({ placed: 0, created: 0 });
      const again = await t.request('GET', `${O(o.id)}/conversations-issues`, { token: o.admin.token });
      expect(again.body.items).toEqual(after.body.items);
    });

    it('400 naming the field for a bad body, with nothing stored', async () => {
      const o = await createOrganization(t);
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ id: 'x', parts: 'hello' }, /parts/],
        [{ id: 'x', parts: [{ type: 'message', role: 'user' }] }, /body/],
        [{ id: 'x', parts: [{ type: 'message', role: 'robot', body: 'hi' }] }, /role|parts/],
        [{ id: 'x', parts: [] }, /parts/],
        [{ parts: [message('hello')] }, /id/],
        [{ id: 'x', parts: [message('  ')] }, /parts/],
        [{ id: 'x', metadata: { createdAt: 'yesterday' }, parts: [message('hello')] }, /createdAt/],
      ];
      for (const [body, field] of cases) {
        const res = await ingest(o.id, body, o.admin.token);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.code).toBe(400);
        expect(res.body.error.message).toMatch(field);
      }
      expect(await countConversations(o.id)).toBe(0);
    });

    it('401 without a token, 403 without the ingestConversations permission or for guests reading, 404 outside', async () => {
      const body = { id: 'denied', parts: [message('hello there, where is the changelog?')] };
      expect((await t.request('POST', `${O()}/conversations`, { body })).status).toBe(401);
      expect((await t.request('GET', `${O()}/conversations`)).status).toBe(401);
      expect((await t.request('GET', `${O()}/conversations-clusters`)).status).toBe(401);
      const forbidden = await ingest(org.id, body, creator.token);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error.code).toBe(403);
      expect((await ingest(org.id, body, reader.token)).status).toBe(403);
      for (const path of ['/conversations', '/conversations-issues', '/conversations-clusters', '/conversations/zendesk-1']) {
        expect((await t.request('GET', `${O()}${path}`, { token: guest.token })).status).toBe(403);
        expect((await t.request('GET', `${O()}${path}`, { token: outsider.token })).status).toBe(404);
        expect((await t.request('GET', `${O('nope')}${path}`, { token: admin.token })).status).toBe(404);
      }
      expect((await ingest(org.id, body, outsider.token)).status).toBe(404);
      expect((await ingest('nope', body)).status).toBe(404);
      const row = await t.db.selectFrom('conversations').select('id').where('id', '=', 'denied').executeTakeFirst();
      expect(row).toBeUndefined();
    });

    it('404 for unknown conversations, issues, and cluster or conversation filters', async () => {
      const cases = [
        `${O()}/conversations/unknown`,
        `${O()}/conversations-issues/unknown`,
        `${O()}/conversations-issues?cluster=unknown`,
        `${O()}/conversations-issues?conversation=unknown`,
      ];
      for (const url of cases) {
        const res = await t.request('GET', url, { token: admin.token });
        expect(res.status, url).toBe(404);
        expect(res.body.error.code).toBe(404);
      }
    });
  });

  describe('lists', () => {
    let o: TestOrganization;
    beforeAll(async () => {
      o = await createOrganization(t);
      const sources = ['intercom', 'zendesk', 'intercom', 'api', 'intercom'];
      for (const [i, source] of sources.entries()) {
        const metadata = source === 'api' ? { createdAt: daysAgo(10 - i) } : { attributes: { source }, createdAt: daysAgo(10 - i) };
        const res = await ingest(o.id, { id: `conv-${i}`, subject: `Question ${i} about topic${i}`, metadata, parts: [message(`Where is topic${i} explained?`)] }, o.admin.token);
        expect(res.status).toBe(204);
      }
      await t.runJobsUntilIdle();
    });

    it('conversations: newest first, paged, filtered by source', async () => {
      const first = await t.request('GET', `${O(o.id)}/conversations`, { token: o.admin.token, query: { limit: 2 } });
      expect(first.status).toBe(200);
      expect(first.body.count).toBe(5);
      expect(first.body.items.map((c: any) => c.id)).toEqual(['conv-4', 'conv-3']);
      const second = await t.request('GET', `${O(o.id)}/conversations`, { token: o.admin.token, query: { limit: 2, page: first.body.next.page } });
      expect(second.body.items.map((c: any) => c.id)).toEqual(['conv-2', 'conv-1']);
      const third = await t.request('GET', `${O(o.id)}/conversations`, { token: o.admin.token, query: { limit: 2, page: second.body.next.page } });
      expect(third.body.items.map((c: any) => c.id)).toEqual(['conv-0']);
      expect(third.body.next).toBeUndefined();

      const intercom = await t.request('GET', `${O(o.id)}/conversations`, { token: o.admin.token, query: { source: 'intercom' } });
      expect(intercom.body.items.map((c: any) => c.id)).toEqual(['conv-4', 'conv-2', 'conv-0']);
      expect(intercom.body.count).toBe(3);
      const api = await t.request('GET', `${O(o.id)}/conversations`, { token: o.admin.token, query: { source: 'api' } });
      expect(api.body.items.map((c: any) => [c.id, c.source])).toEqual([['conv-3', 'api']]);
      const none = await t.request('GET', `${O(o.id)}/conversations`, { token: o.admin.token, query: { source: 'slack' } });
      expect(none.body).toEqual({ count: 0, items: [] });
      const bad = await t.request('GET', `${O(o.id)}/conversations`, { token: o.admin.token, query: { page: 'garbage' } });
      expect(bad.status).toBe(400);
      expect((await t.request('GET', `${O(o.id)}/conversations`, { token: o.admin.token, query: { limit: 0 } })).status).toBe(400);
    });

    it('issues: paged, filtered by conversation and by cluster', async () => {
      const first = await t.request('GET', `${O(o.id)}/conversations-issues`, { token: o.admin.token, query: { limit: 3 } });
      expect(first.body.count).toBe(5);
      expect(first.body.items.map((i: any) => i.conversation.id)).toEqual(['conv-4', 'conv-3', 'conv-2']);
      const second = await t.request('GET', `${O(o.id)}/conversations-issues`, { token: o.admin.token, query: { limit: 3, page: first.body.next.page } });
      expect(second.body.items.map((i: any) => i.conversation.id)).toEqual(['conv-1', 'conv-0']);

      const ofConversation = await t.request('GET', `${O(o.id)}/conversations-issues`, { token: o.admin.token, query: { conversation: 'conv-2' } });
      expect(ofConversation.body.items.map((i: any) => i.issue.conversation)).toEqual(['conv-2']);
      const cluster = ofConversation.body.items[0].issue.cluster;
      const ofCluster = await t.request('GET', `${O(o.id)}/conversations-issues`, { token: o.admin.token, query: { cluster } });
      expect(ofCluster.body.count).toBeGreaterThan(0);
      for (const item of ofCluster.body.items) expect(item.issue.cluster).toBe(cluster);
      const both = await t.request('GET', `${O(o.id)}/conversations-issues`, { token: o.admin.token, query: { cluster, conversation: 'conv-2' } });
      expect(both.body.count).toBe(1);
    });

    it('clusters: order and sort, paged', async () => {
      const all = await t.request('GET', `${O(o.id)}/conversations-clusters`, { token: o.admin.token });
      expect(all.status).toBe(200);
      const n = all.body.count;
      expect(n).toBeGreaterThan(0);
      expect(all.body.items.reduce((sum: number, c: any) => sum + c.stats.issues, 0)).toBe(5);
      const updated = all.body.items.map((c: any) => c.updatedAt);
      expect([...updated].sort().reverse()).toEqual(updated);
      const asc = await t.request('GET', `${O(o.id)}/conversations-clusters`, { token: o.admin.token, query: { order: 'asc', sort: 'updatedAt' } });
      expect(asc.body.items.map((c: any) => c.id)).toEqual([...all.body.items.map((c: any) => c.id)].reverse());
      const byCreation = await t.request('GET', `${O(o.id)}/conversations-clusters`, { token: o.admin.token, query: { sort: 'createdAt', limit: 1 } });
      expect(byCreation.body.items).toHaveLength(1);
      if (n > 1) expect(byCreation.body.next).toBeDefined();
      expect((await t.request('GET', `${O(o.id)}/conversations-clusters`, { token: o.admin.token, query: { sort: 'label' } })).status).toBe(400);
      expect((await t.request('GET', `${O(o.id)}/conversations-clusters`, { token: o.admin.token, query: { order: 'up' } })).status).toBe(400);
    });
  });

  describe('clustering without a model', () => {
    it('twelve conversations about three problems end up in three clusters named after them', async () => {
      const o = await createOrganization(t);
      let n = 0;
      for (const [problem, conversations] of Object.entries(PROBLEMS)) {
        for (const c of conversations) {
          n++;
          const res = await ingest(
            o.id,
            {
              id: `${problem}-${n}`,
              subject: c.subject,
              // Spread over the last weeks; two of each problem from the widget, two from email.
              metadata: { attributes: { source: n % 2 ? 'widget' : 'email' }, createdAt: daysAgo(n * 5) },
              parts: [message(c.body), message('Thanks for reaching out, we will look into it.', 'assistant')],
            },
            o.admin.token,
          );
          expect(res.status).toBe(204);
        }
      }
      await t.runJobsUntilIdle();

      const res = await t.request('GET', `${O(o.id)}/conversations-clusters`, { token: o.admin.token });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(3);
      const issues = await t.request('GET', `${O(o.id)}/conversations-issues`, { token: o.admin.token, query: { limit: 100 } });
      expect(issues.body.count).toBe(12);
      const clusterOf = new Map<string, string>(issues.body.items.map((i: any) => [i.conversation.id, i.issue.cluster]));
      const labels: Record<string, RegExp> = { password: /password|reset/i, rateLimit: /rate|limit|api|request/i, domain: /domain|dns|ssl/i };
      const used = new Set<string>();
      const majorityOf: Record<string, string> = {};
      for (const problem of Object.keys(PROBLEMS)) {
        const ids = [...clusterOf.entries()].filter(([conversation]) => conversation.startsWith(`${problem}-`)).map(([, cluster]) => cluster);
        const counts = new Map<string, number>();
        for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
        const [majority, size] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
        expect(size, problem).toBeGreaterThanOrEqual(3);
        expect(used.has(majority)).toBe(false);
        used.add(majority);
        majorityOf[problem] = majority;
        const cluster = res.body.items.find((c: any) => c.id === majority);
        expect(cluster.label, problem).toMatch(labels[problem]!);
        expect(cluster.summary.length).toBeGreaterThan(0);
        expect(typeof cluster.icon).toBe('string');
      }
      let totalIssues = 0;
      for (const cluster of res.body.items) {
        expect(cluster.weeklyPulse).toHaveLength(13);
        // Every conversation is within the last 13 weeks: the pulse counts every issue.
        expect(cluster.weeklyPulse.reduce((a: number, b: number) => a + b, 0)).toBe(cluster.stats.issues);
        expect(Object.values(cluster.sources).reduce((a: any, b: any) => a + b, 0)).toBe(cluster.stats.conversations);
        expect(cluster.stats.conversations).toBe(cluster.stats.issues);
        const members = await t.request('GET', `${O(o.id)}/conversations-issues`, { token: o.admin.token, query: { cluster: cluster.id } });
        expect(members.body.count).toBe(cluster.stats.issues);
        totalIssues += cluster.stats.issues;
      }
      expect(totalIssues).toBe(12);
      // Oldest first: the first conversation (60 days ago) sits in week 13 - 9 or so, the latest in a recent week.
      const pulse = res.body.items.flatMap((c: any) => c.weeklyPulse).length;
      expect(pulse).toBe(39);

      // Stable: one more password question joins the password cluster; no id changes.
      const before = res.body.items.map((c: any) => c.id).sort();
      const passwordCluster = majorityOf.password;
      t.clock.advance(60_000);
      await ingest(o.id, { id: 'password-13', subject: 'Reset password email', parts: [message('The password reset email is not in my inbox.')] }, o.admin.token);
      await t.runJobsUntilIdle();
      const after = await t.request('GET', `${O(o.id)}/conversations-clusters`, { token: o.admin.token });
      expect(after.body.items.map((c: any) => c.id).sort()).toEqual(before);
      const added = await t.request('GET', `${O(o.id)}/conversations-issues`, { token: o.admin.token, query: { conversation: 'password-13' } });
      expect(added.body.items[0].issue.cluster).toBe(passwordCluster);
      expect(after.body.items[0].id).toBe(passwordCluster); // most recently updated first
    });
  });

  describe('change requests against clusters', () => {
    it('a change request names a cluster on create and patch, and the list filter finds it', async () => {
      const o = await createOrganization(t);
      await ingest(o.id, { id: 'sso-1', subject: 'SAML setup', parts: [message('How do I configure SAML single sign-on with Okta?')] }, o.admin.token);
      await t.runJobsUntilIdle();
      const issue = (await t.request('GET', `${O(o.id)}/conversations-issues`, { token: o.admin.token })).body.items[0].issue;
      const cluster = issue.cluster as string;
      const space = await t.request('POST', `${O(o.id)}/spaces`, { token: o.admin.token, body: { title: 'Docs' } });
      expect(space.status).toBe(201);
      const spaceId = space.body.id;

      const created = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: o.admin.token, body: { subject: 'Document SAML', conversationsIssuesCluster: cluster } });
      expect(created.status).toBe(201);
      expect(created.body.conversationsIssuesCluster).toBe(cluster);
      const other = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: o.admin.token, body: { subject: 'Unrelated' } });
      expect(other.body.conversationsIssuesCluster).toBeUndefined();

      const listed = await t.request('GET', `/v1/spaces/${spaceId}/change-requests`, { token: o.admin.token, query: { conversationsIssuesCluster: cluster } });
      expect(listed.status).toBe(200);
      expect(listed.body.items.map((cr: any) => cr.id)).toEqual([created.body.id]);
      const orgListed = await t.request('GET', `${O(o.id)}/change-requests`, { token: o.admin.token, query: { conversationsIssuesCluster: cluster } });
      expect(orgListed.body.items.map((cr: any) => cr.id)).toEqual([created.body.id]);

      // The cluster's issues, read from the change request.
      const fromCr = await t.request('GET', `${O(o.id)}/conversations-issues`, { token: o.admin.token, query: { cluster: created.body.conversationsIssuesCluster } });
      expect(fromCr.body.items.map((i: any) => i.issue.id)).toEqual([issue.id]);

      const patched = await t.request('PATCH', `/v1/spaces/${spaceId}/change-requests/${other.body.id}`, { token: o.admin.token, body: { conversationsIssuesCluster: cluster } });
      expect(patched.status).toBe(200);
      expect(patched.body.conversationsIssuesCluster).toBe(cluster);
      const both = await t.request('GET', `/v1/spaces/${spaceId}/change-requests`, { token: o.admin.token, query: { conversationsIssuesCluster: cluster } });
      expect(both.body.count).toBe(2);
      const unlinked = await t.request('PATCH', `/v1/spaces/${spaceId}/change-requests/${other.body.id}`, { token: o.admin.token, body: { conversationsIssuesCluster: null } });
      expect(unlinked.body.conversationsIssuesCluster).toBeUndefined();

      const unknown = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: o.admin.token, body: { subject: 'x', conversationsIssuesCluster: 'nope' } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.message).toMatch(/conversationsIssuesCluster/);
      // Another organization's cluster is unknown here too.
      const o2 = await createOrganization(t);
      await ingest(o2.id, { id: 'sso-2', subject: 'SAML setup', parts: [message('How do I configure SAML with Azure?')] }, o2.admin.token);
      await t.runJobsUntilIdle();
      const foreign = (await t.request('GET', `${O(o2.id)}/conversations-clusters`, { token: o2.admin.token })).body.items[0].id;
      const elsewhere = await t.request('PATCH', `/v1/spaces/${spaceId}/change-requests/${other.body.id}`, {
        token: o.admin.token,
        body: { conversationsIssuesCluster: foreign },
      });
      expect(elsewhere.status).toBe(400);
      const count = await t.db.selectFrom('change_requests').select((eb) => eb.fn.countAll<number>().as('n')).where('space_id', '=', spaceId).executeTakeFirst();
      expect(Number(count?.n)).toBe(2);
    });
  });
});

describe('conversations with an OpenAI-compatible model', () => {
  let t: TestApp;
  let server: http.Server;
  const seen: { path: string; body: any; authorization?: string }[] = [];

  /** Embeddings: one axis per topic, so the stand-in decides the clusters. */
  const topicOf = (text: string) => (/invoice|billing/i.test(text) ? 0 : /theme|color/i.test(text) ? 1 : 2);

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => {
        const body = JSON.parse(raw);
        seen.push({ path: req.url ?? '', body, authorization: req.headers.authorization });
        res.setHeader('content-type', 'application/json');
        if (req.url === '/v1/embeddings') {
          const data = (body.input as string[]).map((text, index) => {
            const vector = [0, 0, 0];
            vector[topicOf(text)] = 1;
            return { object: 'embedding', index, embedding: vector };
          });
          res.end(JSON.stringify({ object: 'list', data }));
          return;
        }
        const system = body.messages[0].content as string;
        const user = body.messages[1].content as string;
        const content = system.includes('"issues"')
          ? { issues: [{ title: `Model title: ${topicOf(user) === 0 ? 'billing invoices' : 'theme colors'}`, summary: 'Model summary of the problem.' }] }
          : { label: `Model label: ${topicOf(user) === 0 ? 'Invoices' : 'Themes'}`, summary: 'Model cluster summary.' };
        res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(content) } }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    t = await createTestApp({
      conversationsLlmUrl: base,
      conversationsEmbeddingsUrl: base,
      conversationsModelApiKey: 'sk-test-key',
      conversationsModelTimeoutMs: 5000,
    });
  }, 300_000);
  afterAll(async () => {
    await t.runJobsUntilIdle();
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  }, 300_000);

  it('uses the model’s titles, summaries, labels and embeddings', async () => {
    const o = await createOrganization(t);
    const texts = [
      'Where do I download my invoice?',
      'Billing page does not show past invoices',
      'How do I change the theme color of my site?',
      'Custom color for the theme is ignored',
    ];
    for (const [i, text] of texts.entries()) {
      const res = await t.request('POST', `/v1/orgs/${o.id}/conversations`, { token: o.admin.token, body: { id: `m-${i}`, parts: [{ type: 'message', role: 'user', body: text }] } });
      expect(res.status).toBe(204);
    }
    await t.runJobsUntilIdle();

    const issues = await t.request('GET', `/v1/orgs/${o.id}/conversations-issues`, { token: o.admin.token });
    expect(issues.body.count).toBe(4);
    for (const { issue, conversation } of issues.body.items) {
      const billing = Number(conversation.id.slice(2)) < 2;
      expect(issue.title).toBe(billing ? 'Model title: billing invoices' : 'Model title: theme colors');
      expect(issue.summary).toBe('Model summary of the problem.');
    }
    const rows = await t.db.selectFrom('conversation_issues').select(['embedding']).where('organization_id', '=', o.id).execute();
    for (const row of rows) expect(JSON.parse(row.embedding!)).toHaveLength(3);

    const clusters = await t.request('GET', `/v1/orgs/${o.id}/conversations-clusters`, { token: o.admin.token });
    expect(clusters.body.count).toBe(2);
    expect(clusters.body.items.map((c: any) => c.label).sort()).toEqual(['Model label: Invoices', 'Model label: Themes']);
    for (const c of clusters.body.items) {
      expect(c.summary).toBe('Model cluster summary.');
      expect(c.stats).toEqual({ issues: 2, conversations: 2 });
    }
    expect(seen.some((s) => s.path === '/v1/embeddings')).toBe(true);
    expect(seen.some((s) => s.path === '/v1/chat/completions')).toBe(true);
    expect(seen.every((s) => s.authorization === 'Bearer sk-test-key')).toBe(true);
  });
});

describe('conversations clustering runs, batched', () => {
  let t: TestApp;
  const delayMs = 5_000;
  beforeAll(async () => {
    // Workers off: the drains below are the only ones claiming jobs.
    t = await createTestApp({ conversationsClusterDelayMs: delayMs, workers: 0 });
  }, 300_000);
  afterAll(() => t.close());

  it('the conversations processed within the delay are clustered by one run, not one run each', async () => {
    const o = await createOrganization(t);
    let n = 0;
    for (const [problem, conversations] of Object.entries(PROBLEMS)) {
      for (const c of conversations) {
        const res = await t.request('POST', `/v1/orgs/${o.id}/conversations`, {
          token: o.admin.token,
          body: { id: `${problem}-${++n}`, subject: c.subject, parts: [{ type: 'message', role: 'user', body: c.body }] },
        });
        expect(res.status).toBe(204);
      }
    }
    const clusterRuns = () => t.db.selectFrom('jobs').select(['state', 'run_at', 'created_at']).where('kind', '=', 'conversations.cluster').execute();
    // What is due now: the twelve processing jobs. Each asks for clustering; the first
    // request makes a run due `delayMs` later and the eleven others join it.
    await drainJobs(t.app.deps, t.app.jobRegistry, t.app.log);
    const waiting = await clusterRuns();
    expect(waiting.map((r) => r.state)).toEqual(['queued']);
    expect(Date.parse(waiting[0]!.run_at) - Date.parse(waiting[0]!.created_at)).toBeGreaterThanOrEqual(delayMs);
    expect((await t.request('GET', `/v1/orgs/${o.id}/conversations-clusters`, { token: o.admin.token })).body.count).toBe(0);

    await drainJobs(t.app.deps, t.app.jobRegistry, t.app.log, { waitForDueWithinMs: 2 * delayMs });
    expect((await clusterRuns()).map((r) => r.state)).toEqual(['done']);
    const clusters = await t.request('GET', `/v1/orgs/${o.id}/conversations-clusters`, { token: o.admin.token });
    expect(clusters.body.count).toBe(3);
    const issues = await t.request('GET', `/v1/orgs/${o.id}/conversations-issues`, { token: o.admin.token, query: { limit: 100 } });
    expect(issues.body.count).toBe(12);
    expect(issues.body.items.every((i: any) => typeof i.issue.cluster === 'string')).toBe(true);
  }, 60_000);
});
