import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { serviceContext, type Context } from '../../src/context.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { PostgresAdapter } from 'kysely';
import { createDeps } from '../../src/app.ts';
import { drainJobs } from '../../src/jobs/worker.ts';
import { appJobs } from '../../src/composition.ts';
import { JobRegistry } from '../../src/jobs/registry.ts';
import { ingestConversation } from '../../src/modules/conversations/conversations.service.ts';
import { defineSuite } from '../harness.ts';
import { seedAdmin } from './content.ts';

export interface ConversationsSeed {
  organizationId: string;
  token: string;
}

/** 10,000 by default; BENCH_CONVERSATIONS sets another count (a short form for a quick look). */
export const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 10_000);

/** 25 documentation problems, each asked in several ways. */
const TOPICS: [string, string[]][] = [
  ['password reset', ['reset my password', 'forgot password email', 'password recovery link']],
  ['api rate limit', ['api returns 429', 'rate limited requests', 'throttling limit per minute']],
  ['custom domain', ['custom domain cname', 'dns record for domain', 'ssl certificate domain']],
  ['saml sso', ['configure saml sso', 'okta single sign-on', 'azure ad saml']],
  ['billing invoice', ['download invoice', 'billing address on invoice', 'vat number invoice']],
  ['pdf export', ['export space to pdf', 'pdf export missing images', 'print pdf of page']],
  ['git sync', ['github sync fails', 'git sync conflict', 'gitlab repository sync']],
  ['search results', ['search does not find page', 'search index outdated', 'search ranking wrong']],
  ['webhook signature', ['verify webhook signature', 'webhook secret header', 'webhook retries']],
  ['user roles', ['difference between roles', 'editor cannot publish', 'reviewer permission']],
];
const EXTRA = ['deploy', 'mobile', 'locale', 'translation', 'analytics', 'embed', 'snippet', 'table', 'diagram', 'openapi', 'versioning', 'redirect', 'sitemap', 'theme', 'font', 'logo', 'feedback', 'comment', 'archive', 'template', 'variable', 'changelog', 'navigation', 'sidebar', 'cookie', 'privacy', 'audit', 'backup', 'import', 'markdown'];
// 15 more problems, each on two words no other problem uses.
for (let i = 0; i + 1 < EXTRA.length; i += 2) {
  const [a, b] = [EXTRA[i]!, EXTRA[i + 1]!];
  TOPICS.push([`${a} ${b}`, [`${a} ${b} setup`, `${a} not working with ${b}`, `configure ${a} for ${b}`]]);
}
const FILLER = ['please', 'advise', 'our team', 'yesterday', 'customers', 'the docs', 'the page', 'cannot find', 'where is', 'explained', 'steps', 'example'];

/** mulberry32: a seeded generator, so every run ingests the same conversations. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const silentLog = { warn() {}, error() {}, info() {}, debug() {}, trace() {}, fatal() {}, child() { return silentLog; }, level: 'silent' } as unknown as FastifyBaseLogger;

/**
 * 10,000 support conversations on 40 problems, ingested through the service (as
 * POST {O}/conversations does) and processed and clustered by the job queue's handlers (drained here); the
 * time per conversation is printed. The scenario then lists the clusters over HTTP.
 */
export const conversationsSuite = defineSuite<ConversationsSeed>({
  name: 'conversations',
  description: `${CONVERSATIONS} conversations on ${TOPICS.length} problems, ingested, processed and clustered offline, SQLite`,
  seed: async (db) => {
    const clock = new ManualClock('2026-03-30T09:00:00.000Z');
    const admin = await db.transaction().execute((trx) => seedAdmin(trx, clock));
    const dialect = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
    const deps = createDeps({ config: loadConfig({ DATA_DIR: '/tmp' }), db, dialect, clock });
    const ctx: Context = serviceContext(deps, { userId: admin.userId, tokenId: 'bench', organizationId: null }, 'bench', silentLog);
    const next = random(19);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
    const started = performance.now();
    for (let n = 0; n < CONVERSATIONS; n++) {
      const [name, phrasings] = pick(TOPICS);
      await ingestConversation(ctx, admin.organizationId, {
        id: `bench-${n}`,
        subject: n % 3 === 0 ? '' : pick(phrasings),
        metadata: { attributes: { source: pick(['intercom', 'zendesk', 'widget']) }, createdAt: new Date(clock.now().getTime() - Math.floor(next() * 90) * 86_400_000).toISOString() },
        parts: [
          { type: 'message', role: 'user', body: `${pick(FILLER)} ${pick(phrasings)}, ${pick(FILLER)} ${name} ${pick(FILLER)}?` },
          { type: 'message', role: 'assistant', body: 'Thanks, we are looking into it.' },
        ],
      });
    }
    const ingested = performance.now();
    // The clustering run waits CONVERSATIONS_CLUSTER_DELAY_MS for company: wait for it too.
    await drainJobs(deps, new JobRegistry(appJobs), silentLog, { waitForDueWithinMs: 60_000 });
    await deps.outbound.close();
    await deps.files.close();
    const done = performance.now();
    const clusters = Number((await db.selectFrom('conversation_clusters').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const unplaced = Number((await db.selectFrom('conversation_issues').select((eb) => eb.fn.countAll().as('n')).where('cluster_id', 'is', null).executeTakeFirstOrThrow()).n);
    process.stderr.write(
      `conversations.ingest-cluster: ${CONVERSATIONS} conversations ingested in ${((ingested - started) / 1000).toFixed(1)} s, ` +
        `processed and clustered by ${((done - started) / 1000).toFixed(1)} s: ${((done - started) / CONVERSATIONS).toFixed(2)} ms per conversation; ` +
        `${clusters} clusters for ${TOPICS.length} problems, ${unplaced} issues unplaced\n`,
    );
    return { organizationId: admin.organizationId, token: admin.token };
  },
  scenarios: [
    {
      name: 'conversations.clusters',
      title: `GET {O}/conversations-clusters?limit=50 (${CONVERSATIONS} conversations)`,
      target: 0.3,
      request: (seed) => ({ path: `/v1/orgs/${seed.organizationId}/conversations-clusters?limit=50`, headers: { authorization: `Bearer ${seed.token}` } }),
    },
  ],
});
