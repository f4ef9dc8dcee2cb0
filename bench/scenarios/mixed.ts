import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import type { Db } from '../../src/db/database.ts';
import { storedBody } from './comments.ts';
import { isoNow, ManualClock } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import { loadSnapshot } from '../../src/content/store/snapshot.ts';
import { membersRepository } from '../../src/modules/members/members.repository.ts';
import { indexSpace } from '../../src/modules/search/search.service.ts';
import { newSiteRow } from '../../src/modules/sites/sites.service.ts';
import { spacesRepository } from '../../src/modules/spaces/spaces.repository.ts';
import { usersRepository } from '../../src/modules/users/users.repository.ts';
import { buildUserRow } from '../../src/modules/users/users.service.ts';
import { median } from '../harness.ts';
import { seedAdmin, seedSpace } from './content.ts';
import { seededRandom } from '../../test/seeded-random.ts';

/*
 * The mixed workload (issue 21, item 4): many clients at once doing what a documentation
 * server is asked in a day, 90% reads and 10% writes, against one seeded Quire. It reports
 * throughput and p99 latency of the whole mix. There is no bare-server ratio: the bare
 * server answers one fixed response, and a mix of reads of different sizes and writes
 * that change what later reads see has no such yardstick. The figures are absolute, so
 * they depend on the machine and on its load (the runner records the load averages).
 *
 * Load is generated here, not with autocannon. Autocannon's `requests` array replays one
 * sequence per connection (every connection in step, unless `setupRequest` draws from
 * shared state), it keeps one latency histogram per run (not one per kind of request),
 * a non-2xx response is only counted (not which request, nor its body), and a change
 * request's later calls need the id the first one answered. Here an undici Pool keeps
 * exactly `connections` keep-alive connections and as many workers each send one
 * request, wait for the whole answer, and send the next (closed loop, as autocannon).
 * Every request's latency, from handing it to the pool to its body's last byte, is kept,
 * so p50 and p99 are exact percentiles of all of a run's requests (nearest rank), overall
 * and by kind.
 * Like any closed loop it does not count the time a request would have waited to be sent
 * while the server was slow (coordinated omission): p99 is what N clients that each wait
 * for their answer see.
 *
 * The mix is deterministic: operations are dealt from a deck shuffled by one seeded
 * generator, in order, to whichever worker is free, so every run (and every round) sends
 * the same sequence of requests; only how they interleave depends on timing.
 */

export const MIXED = {
  name: 'mixed',
  title: '90% reads / 10% writes: 1,000-page space (API, search, comments, change requests), 200-page published site',
  /** Seconds of each measured run unless --duration is given (the 10 s runs). */
  defaultDuration: 10,
};

const SPACE_PARENTS = 10; // 10 chapters of 99 topics: 1,000 pages
const SPACE_CHILDREN = 99;
const SITE_PARENTS = 20; // 20 chapters of 9 topics: 200 pages
const SITE_CHILDREN = 9;
const MEMBERS = 60;
const COMMENTS = 300;
const SEED = 21;


// Words of the generated pages. Drawn with a skew (the first ones much more often), so
// searches find from a handful of pages to nearly all of them.
const WORDS = [
  'cluster', 'token', 'deploy', 'cache', 'webhook', 'schema', 'replica', 'tenant', 'gateway', 'billing',
  'quota', 'pipeline', 'artifact', 'registry', 'rollback', 'snapshot', 'shard', 'latency', 'throttle', 'proxy',
  'certificate', 'encryption', 'ingress', 'namespace', 'volume', 'backup', 'restore', 'migration', 'partition', 'retention',
  'audit', 'session', 'password', 'scope', 'endpoint', 'payload', 'signature', 'retry', 'timeout', 'region',
  'metric', 'alert', 'sandbox', 'invoice', 'cursor', 'bucket', 'queue', 'worker', 'listener', 'fallback',
];
const VERBS = ['configures', 'rotates', 'validates', 'replicates', 'throttles', 'caches', 'encrypts', 'restores', 'exports', 'monitors'];

/**
 * A page body of about 3 KB: paragraphs, a list, bash and YAML code, a table, a quote.
 * Page `n` always gets the same text; `feature-n` and `Topic p.c` make single pages findable.
 */
export function mixedPageMarkdown(n: number, revision = 0): string {
  const rng = seededRandom(n * 7919 + 1);
  const word = () => WORDS[Math.floor(rng() * rng() * WORDS.length)];
  const verb = () => VERBS[Math.floor(rng() * VERBS.length)];
  const sentence = () => {
    const forms = [
      () => `The ${word()} ${verb()} every ${word()} before the ${word()} is ready.`,
      () => `When the ${word()} fails, Acme ${verb()} the ${word()} and keeps the ${word()} for ${1 + Math.floor(rng() * 30)} days.`,
      () => `Each ${word()} has its own ${word()}, so one ${word()} never blocks another.`,
      () => `Use the ${word()} setting to choose how the ${word()} ${verb()} requests from the ${word()}.`,
    ];
    return forms[Math.floor(rng() * forms.length)]();
  };
  const paragraph = (sentences: number) => Array.from({ length: sentences }, sentence).join(' ');
  const [a, b, c] = [word(), word(), word()];
  return [
    `This page describes feature-${n}: how the ${a} works with the ${b}. ${paragraph(4)}`,
    '',
    '## Overview',
    '',
    paragraph(5),
    '',
    `- Create a ${a} in the dashboard`,
    `- Attach the ${b} to it`,
    `- Set a ${c} for production`,
    `- Check the ${word()} metrics`,
    `- Review the ${word()} logs weekly`,
    '',
    '## Install',
    '',
    '```bash',
    'curl -fsSL https://acme.example.com/install.sh | bash',
    'acme login --token "$ACME_TOKEN"',
    `acme ${a} create --name ${a}-${n} --region eu-west-1`,
    `acme ${b} attach ${a}-${n} --wait`,
    '```',
    '',
    '## Configuration',
    '',
    '```yaml',
    'service:',
    `  name: ${a}-${n}`,
    `  replicas: ${1 + (n % 5)}`,
    `  ${b}:`,
    '    enabled: true',
    `    timeout: ${10 + (n % 50)}s`,
    '  regions:',
    '    - eu-west-1',
    '    - us-east-2',
    '```',
    '',
    '| Option | Default | Description |',
    '| --- | --- | --- |',
    `| \`${a}.size\` | ${n % 100} | How many ${a} units to keep |`,
    `| \`${b}.retry\` | 3 | Attempts before the ${b} gives up |`,
    `| \`${c}.ttl\` | 1h | How long a ${c} stays valid |`,
    '',
    `> ${sentence()} ${sentence()}`,
    '',
    '## Troubleshooting',
    '',
    paragraph(6),
    '',
    paragraph(4),
    '',
    '## Limits',
    '',
    paragraph(6),
    ...(revision > 0 ? ['', `Revised ${revision}: ${sentence()}`] : []),
    '',
  ].join('\n');
}

/** Varied searches: common and rare words, two words, prefixes, a title, single pages, nothing. */
const QUERIES = [
  'cluster', 'token', 'deploy', 'webhook signature', 'rollback snapshot', 'certificate', 'encryption', 'quota',
  'retention', 'partition', 'install', 'configuration', 'timeout', 'region', 'replica', 'audit', 'encryp', 'names',
  'troubleshooting', 'ingress proxy', 'backup restore', 'sandbox tenant', 'invoice', 'listener fallback',
  'feature-42', 'feature-917', 'topic 3.14', 'chapter', 'dashboard metrics', 'zyzzyva',
];

export interface MixedSeed {
  organizationId: string;
  spaceId: string;
  token: string;
  /** The 1,000 pages of the space, by id, with their number (page n's body is mixedPageMarkdown(n)). */
  pages: { id: string; n: number }[];
  /** The published pages' URL paths, under /sites/{basename}/. */
  sitePaths: string[];
}

/**
 * Seeds the mix's data: the bootstrap organization and its admin (whose token every
 * request uses), 60 more members, a private space of 1,000 pages with 300 comments and its
 * search index built, and a public site over a second space of 200 pages.
 */
export async function seedMixed(db: Db): Promise<MixedSeed> {
  const clock = new ManualClock('2026-01-05T09:00:00.000Z');
  const seed = await db.transaction().execute(async (trx) => {
    const admin = await seedAdmin(trx, clock);
    const users = [admin.userId];
    for (let i = 1; i < MEMBERS; i++) {
      const user = buildUserRow(clock, { email: `member${i}@bench.quire.test`, displayName: `Member ${i}`, emailVerified: true });
      await usersRepository.insert(trx, user);
      await membersRepository.insert(trx, { organization_id: admin.organizationId, user_id: user.id, role: i % 3 === 0 ? 'edit' : 'comment', disabled: 0, sso: 0, joined_at: isoNow(clock), last_seen_at: null });
      users.push(user.id);
    }

    const space = await seedSpace(trx, admin.organizationId, admin.userId, clock, SPACE_PARENTS, SPACE_CHILDREN, (n) => mixedPageMarkdown(n));
    const revisionId = (await spacesRepository.findActive(trx, space.spaceId))?.revision_id as string;
    const snapshot = await loadSnapshot(trx, space.spaceId, revisionId);
    const pages: { id: string; n: number }[] = [];
    const walk = (nodes: typeof snapshot.pages) => {
      for (const node of nodes) {
        pages.push({ id: node.entry.id, n: pages.length });
        walk(node.children);
      }
    };
    walk(snapshot.pages);

    const comments = [];
    for (let n = 0; n < COMMENTS; n++) {
      clock.advance(1000);
      comments.push({
        id: newId(),
        space_id: space.spaceId,
        change_request_id: null,
        revision_id: revisionId,
        page_id: pages[(n * 37) % pages.length].id,
        node_id: null,
        table_record: null,
        table_definition: null,
        ...storedBody(`Comment ${n}: should the **${WORDS[n % WORDS.length]}** section link to the [reference](https://example.com/${n})?`),
        posted_by: users[n % users.length],
        posted_at: isoNow(clock),
        edited_at: null,
        status: 'open' as const,
        resolved_at: null,
        resolved_by: null,
      });
    }
    for (let i = 0; i < comments.length; i += 100) await trx.insertInto('comments').values(comments.slice(i, i + 100)).execute();

    const published = await seedSpace(trx, admin.organizationId, admin.userId, clock, SITE_PARENTS, SITE_CHILDREN, (n) => mixedPageMarkdown(10_000 + n));
    const now = isoNow(clock);
    const site = {
      ...newSiteRow({ organizationId: admin.organizationId, type: 'basic', title: 'Acme Docs', visibility: 'public', createdBy: admin.userId, now }),
      published: 1,
      basename: 'acme-docs',
    };
    await trx.insertInto('sites').values(site).execute();
    const sectionId = newId();
    await trx
      .insertInto('site_sections')
      .values({ id: sectionId, site_id: site.id, title: 'Guides', description: null, icon: null, path: 'guides', condition: null, section_group_id: null, position: 1, created_at: now })
      .execute();
    await trx
      .insertInto('site_spaces')
      .values({ id: newId(), site_id: site.id, section_id: sectionId, space_id: published.spaceId, path: 'latest', title: null, condition: null, customization: '{}', position: 2, created_at: now })
      .execute();
    const siteRevision = (await spacesRepository.findActive(trx, published.spaceId))?.revision_id as string;
    const siteSnapshot = await loadSnapshot(trx, published.spaceId, siteRevision);
    const sitePaths = [...siteSnapshot.byId.values()].map((node) => `/sites/${site.basename}/${node.path}`);

    return { organizationId: admin.organizationId, spaceId: space.spaceId, token: admin.token, pages, sitePaths, revisionId };
  });
  // Built now rather than by the first search of the run (search indexes lazily).
  await indexSpace({ db, clock }, seed.spaceId, null, seed.revisionId);
  const { revisionId: _, ...rest } = seed;
  return rest;
}

/** What one request of the mix is, for the per-kind figures. */
export type MixedKind =
  | 'page'
  | 'page.markdown'
  | 'published.page'
  | 'members.list'
  | 'comments.list'
  | 'pages.list'
  | 'search'
  | 'comment.post'
  | 'ping'
  | 'cr.create'
  | 'cr.content'
  | 'cr.merge';

const WRITES = new Set<MixedKind>(['comment.post', 'ping', 'cr.create', 'cr.content', 'cr.merge']);

/*
 * Operations per 986 drawn. A change request is three requests (create, one-page batch
 * edit, merge), so per 1,000 requests: 900 reads, 45 comments, 34 pings, 21 change-request
 * calls, i.e. 10% writes.
 */
const OPERATIONS: [Exclude<MixedKind, 'cr.content' | 'cr.merge' | 'cr.create'> | 'change-request', number][] = [
  ['page', 320],
  ['page.markdown', 150],
  ['published.page', 200],
  ['search', 100],
  ['members.list', 50],
  ['comments.list', 70],
  // The whole page tree with every page's document: 11 MB for these 1,000 pages, an
  // export-like read rather than one per visit.
  ['pages.list', 10],
  ['comment.post', 45],
  ['ping', 34],
  ['change-request', 7],
];

interface Step {
  kind: MixedKind;
  method: 'GET' | 'POST';
  /** The path, or how to make it from the change request the first step created. */
  path: string | ((changeRequestId: string) => string);
  headers: Record<string, string>;
  body?: string;
}

/** The next operation of the deterministic sequence each time it is called. */
export function operations(seed: MixedSeed, round: number): () => Step[] {
  const rng = seededRandom(SEED);
  const pick = <T>(list: T[]) => list[Math.floor(rng() * list.length)];
  const auth = { authorization: `Bearer ${seed.token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const S = `/v1/spaces/${seed.spaceId}`;
  let changeRequests = 0;
  let comments = 0;
  // A deck of the 986 operations, shuffled anew (seeded) each time it runs out: every
  // 1,000 requests or so hold exactly the mix, so a short run has it too.
  const deck = OPERATIONS.flatMap(([kind, weight]) => Array.from({ length: weight }, () => kind));
  let drawn = deck.length;
  return () => {
    if (drawn === deck.length) {
      for (let i = deck.length - 1; i > 0; i--) {
        const j = Math.floor(rng() * (i + 1));
        [deck[i], deck[j]] = [deck[j], deck[i]];
      }
      drawn = 0;
    }
    const kind = deck[drawn++];
    switch (kind) {
      case 'page':
        return [{ kind, method: 'GET', path: `${S}/content/page/${pick(seed.pages).id}`, headers: auth }];
      case 'page.markdown':
        return [{ kind, method: 'GET', path: `${S}/content/page/${pick(seed.pages).id}?format=markdown`, headers: auth }];
      case 'published.page':
        // As browsers ask (compressed), like the published.page scenario.
        return [{ kind, method: 'GET', path: pick(seed.sitePaths), headers: { 'accept-encoding': 'gzip, deflate, br' } }];
      case 'members.list':
        return [{ kind, method: 'GET', path: `/v1/orgs/${seed.organizationId}/members?limit=50`, headers: auth }];
      case 'comments.list':
        return [{ kind, method: 'GET', path: `${S}/comments?limit=50`, headers: auth }];
      case 'pages.list':
        return [{ kind, method: 'GET', path: `${S}/content/pages`, headers: auth }];
      case 'search':
        return [{ kind, method: 'GET', path: `${S}/search?query=${encodeURIComponent(pick(QUERIES))}`, headers: auth }];
      case 'comment.post': {
        const n = comments++;
        const body = JSON.stringify({ page: pick(seed.pages).id, body: { markdown: `Round ${round}, comment ${n}: is the **${pick(WORDS)}** step still needed?` } });
        return [{ kind, method: 'POST', path: `${S}/comments`, headers: json, body }];
      }
      case 'ping':
        return [{ kind, method: 'POST', path: `/v1/orgs/${seed.organizationId}/ping`, headers: auth }];
      case 'change-request': {
        // Consecutive change requests edit pages 1 in 7 apart, all different over 1,000
        // of them, so two running at once never edit the same page (no merge conflict).
        const k = changeRequests++;
        const page = seed.pages[(k * 7 + round * 3) % seed.pages.length];
        const edit = JSON.stringify({ changes: [{ operation: 'update_page', page: page.id, document: { markdown: mixedPageMarkdown(page.n, round * 1000 + k + 1) } }] });
        return [
          { kind: 'cr.create', method: 'POST', path: `${S}/change-requests`, headers: json, body: JSON.stringify({ subject: `Revise page ${page.n} (round ${round}, ${k})` }) },
          { kind: 'cr.content', method: 'POST', path: (cr) => `${S}/change-requests/${cr}/content`, headers: json, body: edit },
          { kind: 'cr.merge', method: 'POST', path: (cr) => `${S}/change-requests/${cr}/merge`, headers: auth },
        ];
      }
    }
  };
}

/** Latency figures of a set of requests, in ms. */
export interface Latencies {
  requests: number;
  p50: number;
  p99: number;
  max: number;
}

export interface MixedRun {
  seconds: number;
  requests: number;
  writes: number;
  /** Requests completed ÷ seconds from the first request sent to the last answer. */
  rps: number;
  p50: number;
  p99: number;
  byKind: Partial<Record<MixedKind, Latencies>>;
}

export interface MixedResult {
  database: string;
  connections: number;
  duration: number;
  warmup: number;
  seed: number;
  loadAverageAtStart: number[];
  loadAverageAtEnd: number[];
  rounds: MixedRun[];
  summary: {
    /** Medians over rounds. */
    rps: number;
    p50: number;
    p99: number;
    writeShare: number;
    /** Every round's requests of a kind together. */
    byKind: Partial<Record<MixedKind, Latencies>>;
  };
}

/** Nearest-rank percentile of an ascending list. */
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

function latencies(samples: number[]): Latencies {
  const sorted = Float64Array.from(samples).sort();
  const list = Array.from(sorted);
  return { requests: list.length, p50: percentile(list, 50), p99: percentile(list, 99), max: list[list.length - 1] ?? 0 };
}

interface Failure {
  kind: MixedKind;
  request: string;
  status: number | string;
  body: string;
}

/**
 * Runs the mix for `seconds` with `connections` workers on one pool, and throws when any
 * request failed or answered other than 2xx (after the run, naming each failed kind, its
 * status and an excerpt of its answer).
 */
async function runMix(url: string, seed: MixedSeed, round: number, seconds: number, connections: number): Promise<{ run: MixedRun; samples: Map<MixedKind, number[]> }> {
  const pool = new Pool(url, { connections, pipelining: 1 });
  const next = operations(seed, round);
  const samples = new Map<MixedKind, number[]>();
  const failures: Failure[] = [];
  const tally = new Map<string, number>();
  let failed = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;

  const send = async (step: Step, changeRequestId: string): Promise<string | undefined> => {
    const path = typeof step.path === 'string' ? step.path : step.path(changeRequestId);
    const t0 = performance.now();
    let status: number | string;
    let text: string;
    try {
      const response = await pool.request({ path, method: step.method, headers: step.headers, body: step.body });
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      status = (error as { code?: string }).code ?? 'error';
      text = error instanceof Error ? error.message : String(error);
    }
    const elapsed = performance.now() - t0;
    if (typeof status !== 'number' || status < 200 || status > 299) {
      failed++;
      tally.set(`${step.kind} ${status}`, (tally.get(`${step.kind} ${status}`) ?? 0) + 1);
      if (failures.length < 20) failures.push({ kind: step.kind, request: `${step.method} ${path}`, status, body: text.slice(0, 300) });
      return undefined;
    }
    let list = samples.get(step.kind);
    if (!list) samples.set(step.kind, (list = []));
    list.push(elapsed);
    return step.kind === 'cr.create' ? (JSON.parse(text) as { id: string }).id : '';
  };

  const worker = async () => {
    // Stops at the deadline, or soon after a failure (the run is void anyway).
    while (performance.now() < deadline && failed < 100) {
      let changeRequestId = '';
      for (const step of next()) {
        const answer = await send(step, changeRequestId);
        if (answer === undefined) break;
        if (step.kind === 'cr.create') changeRequestId = answer;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    await pool.close();
  }
  const elapsed = (performance.now() - started) / 1000;

  if (failed > 0) {
    const lines = failures.map((f) => `  ${f.kind}: ${f.request} answered ${f.status}: ${f.body}`);
    const counts = [...tally].map(([what, n]) => `${what} × ${n}`).join(', ');
    throw new Error(`mixed round ${round}: ${failed} requests failed or answered other than 2xx (${counts}); the first ${failures.length}:\n${lines.join('\n')}`);
  }
  const all = [...samples.values()].flat();
  const overall = latencies(all);
  let writes = 0;
  const byKind: Partial<Record<MixedKind, Latencies>> = {};
  for (const [kind, list] of samples) {
    byKind[kind] = latencies(list);
    if (WRITES.has(kind)) writes += list.length;
  }
  return {
    run: { seconds: elapsed, requests: all.length, writes, rps: all.length / elapsed, p50: overall.p50, p99: overall.p99, byKind },
    samples,
  };
}

/**
 * Measures the mix against a Quire seeded by `seedMixed`: an unrecorded warm-up, then
 * `rounds` runs of `duration` seconds, each sending the same sequence from its start.
 */
export async function measureMixed(
  url: string,
  seed: MixedSeed,
  options: { duration: number; warmup: number; rounds: number; connections: number; database: string },
  loadAverage: () => number[],
  progress: (line: string) => void,
): Promise<MixedResult> {
  const loadAverageAtStart = loadAverage();
  if (options.warmup > 0) await runMix(url, seed, 0, options.warmup, options.connections);
  const rounds: MixedRun[] = [];
  const pooled = new Map<MixedKind, number[]>();
  for (let i = 1; i <= options.rounds; i++) {
    const { run, samples } = await runMix(url, seed, i, options.duration, options.connections);
    rounds.push(run);
    for (const [kind, list] of samples) pooled.set(kind, [...(pooled.get(kind) ?? []), ...list]);
    progress(
      `mixed round ${i}/${options.rounds}: ${run.rps.toFixed(0)} req/s, p50 ${run.p50.toFixed(1)} ms, p99 ${run.p99.toFixed(1)} ms, ` +
        `${run.requests} requests (${((100 * run.writes) / run.requests).toFixed(1)}% writes), load average ${loadAverage()[0].toFixed(1)}`,
    );
  }
  const byKind: Partial<Record<MixedKind, Latencies>> = {};
  for (const [kind, list] of pooled) byKind[kind] = latencies(list);
  const requests = rounds.reduce((sum, r) => sum + r.requests, 0);
  return {
    database: options.database,
    connections: options.connections,
    duration: options.duration,
    warmup: options.warmup,
    seed: SEED,
    loadAverageAtStart,
    loadAverageAtEnd: loadAverage(),
    rounds,
    summary: {
      rps: median(rounds.map((r) => r.rps)),
      p50: median(rounds.map((r) => r.p50)),
      p99: median(rounds.map((r) => r.p99)),
      writeShare: rounds.reduce((sum, r) => sum + r.writes, 0) / requests,
      byKind,
    },
  };
}
