import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { loadRevisionLinks } from '../../src/content/links/report.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { indexSpace } from '../../src/modules/search/search.service.ts';
import { spacesRepository } from '../../src/modules/spaces/spaces.repository.ts';
import { defineSuite, dialectOf } from '../harness.ts';
import { CHILDREN, PARENTS, seedAdminSpace, type ContentSeed } from './content.ts';

/*
 * Search and links in a 10,000-page space (the content suite's seed). Measured in process
 * while seeding (printed on stderr): the full index build, search latency per query
 * (median and p99 of sequential requests through the app with the result cache off,
 * target p99 < 20 ms on SQLite and on PostgreSQL; then repeated with the cache on; the
 * load average beside each, the machine being shared),
 * and the link report of the revision computed cold. Then over HTTP against the bare
 * server like every suite: a search, and the link listing served warm.
 */

const QUERIES = ['feature 4242', 'topic 42', 'remember sav', 'configure', 'instal'];
// 1,000 sequential requests per query: with 200, p99 is the second-worst sample, which one scheduler hiccup of this shared machine decides.
const RUNS = 1000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const report = (line: string) => process.stderr.write(`search bench: ${line}\n`);

export const searchSuite = defineSuite<ContentSeed>({
  name: 'search',
  description: `1 space of ${PARENTS * (CHILDREN + 1)} pages, full-text index and link report`,
  seed: async (db) => {
    const clock = new ManualClock('2026-01-05T09:00:00.000Z');
    const seed = await seedAdminSpace(db, PARENTS, CHILDREN);
    const revision = (await spacesRepository.findActive(db, seed.spaceId))!.revision_id as string;

    let started = performance.now();
    const run = await indexSpace({ db, clock }, seed.spaceId, null, revision);
    report(`index build: ${run?.indexed} pages in ${(performance.now() - started).toFixed(0)} ms`);

    const config = loadConfig({ DATA_DIR: '/nonexistent-bench-data' });
    started = performance.now();
    const links = await loadRevisionLinks(db, seed.spaceId, revision, config.publicUrl);
    report(`link report, cold: ${links.occurrences.length} links of ${PARENTS * (CHILDREN + 1)} pages in ${(performance.now() - started).toFixed(0)} ms`);
    started = performance.now();
    await loadRevisionLinks(db, seed.spaceId, revision, config.publicUrl);
    report(`link report, cached: ${(performance.now() - started).toFixed(3)} ms`);

    // Cold: the result cache off, so every request ranks (the target's figure). Repeated:
    // the default cache, as a repeated search or an earlier page of it is served.
    const measure = async (searchCacheTtlMs: number) => {
      const app = await buildApp({ config: { ...config, rateLimitMax: 0, searchCacheTtlMs }, db, dialect: dialectOf(db), clock, logger: false });
      const figures = new Map<string, { count: number; median: number; p99: number; load: number }>();
      try {
        for (const query of QUERIES) {
          const url = `/v1/spaces/${seed.spaceId}/search?query=${encodeURIComponent(query)}`;
          const headers = { authorization: `Bearer ${seed.token}` };
          const first = await app.inject({ method: 'GET', url, headers });
          if (first.statusCode !== 200) throw new Error(`search ${query}: ${first.statusCode} ${first.body}`);
          const times: number[] = [];
          for (let i = 0; i < RUNS; i++) {
            const t0 = performance.now();
            await app.inject({ method: 'GET', url, headers });
            times.push(performance.now() - t0);
          }
          times.sort((a, b) => a - b);
          figures.set(query, { count: JSON.parse(first.body).count, median: percentile(times, 50), p99: percentile(times, 99), load: os.loadavg()[0] });
        }
      } finally {
        await app.close();
      }
      return figures;
    };
    const cold = await measure(0);
    const repeated = await measure(config.searchCacheTtlMs);
    for (const [query, { count, median, p99, load }] of cold) {
      const again = repeated.get(query)!;
      report(
        `"${query}" (${count} pages): median ${median.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms ${p99 < 20 ? '✓' : '✗'} (target p99 < 20 ms; load average ${load.toFixed(1)}); repeated (result cache): median ${again.median.toFixed(2)} ms, p99 ${again.p99.toFixed(2)} ms`,
      );
    }
    return seed;
  },
  scenarios: [
    {
      name: 'search.space',
      title: 'GET {S}/search?query=feature 4242 (10,000-page space)',
      request: (seed) => ({ path: `/v1/spaces/${seed.spaceId}/search?query=feature%204242`, headers: { authorization: `Bearer ${seed.token}` } }),
    },
    {
      name: 'links.space',
      title: 'GET {S}/links?limit=100 (10,000-page space, warm)',
      request: (seed) => ({ path: `/v1/spaces/${seed.spaceId}/links?limit=100`, headers: { authorization: `Bearer ${seed.token}` } }),
    },
  ],
});
