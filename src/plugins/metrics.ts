import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { changeFeedOf, poolStats } from '../db/database.ts';
import { unauthorized } from '../errors.ts';
import type { TtlCache } from '../lib/ttl-cache.ts';

/** A value read at each scrape: one number, or one per label set. */
export type MetricReading = number | { labels: Record<string, string>; value: number }[];

/**
 * Prometheus metrics of one app (GET /metrics). Each app has its own registry, so tests
 * building several apps in one process do not mix their figures.
 */
export interface Metrics {
  registry: Registry;
  /**
   * A gauge read at each scrape: e.g. a job queue's depth
   * (`app.metrics.registerGauge('quire_jobs_queued', 'Jobs waiting', () => queue.depth())`).
   */
  registerGauge(name: string, help: string, read: () => MetricReading | Promise<MetricReading>, labelNames?: string[]): void;
  /** A counter read at each scrape from a running total kept elsewhere (e.g. failed jobs). */
  registerCounter(name: string, help: string, read: () => MetricReading, labelNames?: string[]): void;
  /** Reports a cache's hits, misses and entries under `cache="<name>"`. */
  registerCache(name: string, cache: TtlCache<unknown>): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

function apply(metric: Gauge | Counter, reading: MetricReading): void {
  metric.reset();
  if (typeof reading === 'number') {
    if (metric instanceof Gauge) metric.set(reading);
    else metric.inc(reading);
    return;
  }
  for (const { labels, value } of reading) {
    if (metric instanceof Gauge) metric.set(labels, value);
    else metric.inc(labels, value);
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Request durations by route and status, the PostgreSQL pool, cache hit rates, Node's
 * process metrics; GET /metrics in Prometheus' text format. With METRICS_TOKEN set the
 * endpoint wants `Authorization: Bearer <METRICS_TOKEN>`; without, it is open (keep it
 * off the public network, docs/operations.md).
 */
export function registerMetrics(app: FastifyInstance): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const caches = new Map<string, TtlCache<unknown>>();
  const metrics: Metrics = {
    registry,
    registerGauge(name, help, read, labelNames = []) {
      new Gauge({ name, help, labelNames, registers: [registry], async collect() { apply(this, await read()); } });
    },
    registerCounter(name, help, read, labelNames = []) {
      new Counter({ name, help, labelNames, registers: [registry], collect() { apply(this, read()); } });
    },
    registerCache(name, cache) {
      caches.set(name, cache);
    },
  };
  app.decorate('metrics', metrics);

  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending its response, by route and status',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern, not the URL: one series per route, whatever the ids.
    const route = request.routeOptions.url ?? 'unmatched';
    durations.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });

  const perCache = (pick: (cache: TtlCache<unknown>) => number) => () =>
    [...caches].map(([cache, c]) => ({ labels: { cache }, value: pick(c) }));
  metrics.registerCounter('quire_cache_hits_total', 'Cache lookups answered from memory', perCache((c) => c.hits), ['cache']);
  metrics.registerCounter('quire_cache_misses_total', 'Cache lookups that had to compute or read', perCache((c) => c.misses), ['cache']);
  metrics.registerGauge('quire_cache_entries', 'Entries held by a cache', perCache((c) => c.size), ['cache']);
  for (const [name, cache] of Object.entries(app.deps.caches)) metrics.registerCache(name, cache as TtlCache<unknown>);

  const { db } = app.deps;
  const feed = changeFeedOf(db);
  if (feed) {
    metrics.registerCounter('quire_change_feed_changes_total', 'Scope changes the cache change feed received', () => feed.changes);
    metrics.registerGauge('quire_change_feed_live', '1 while cached reads may be served (triggers installed; on PostgreSQL, the listener connected)', () =>
      feed.epoch() === undefined ? 0 : 1,
    );
  }
  if (poolStats(db)) {
    metrics.registerGauge(
      'quire_db_pool_connections',
      'PostgreSQL connections held by the pool, by state',
      () => {
        const s = poolStats(db)!;
        return [
          { labels: { state: 'idle' }, value: s.idle },
          { labels: { state: 'in_use' }, value: s.total - s.idle },
        ];
      },
      ['state'],
    );
    metrics.registerGauge('quire_db_pool_waiting', 'Queries waiting for a free PostgreSQL connection', () => poolStats(db)!.waiting);
    metrics.registerGauge('quire_db_pool_max', 'Most connections the PostgreSQL pool opens', () => poolStats(db)!.max);
  }

  const token = app.deps.config.metricsToken;
  const expected = token ? sha256(token) : undefined;
  app.get('/metrics', {
    config: { public: true, rateLimit: false },
    schema: { hide: true },
    handler: async (request, reply) => {
      if (expected) {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
        if (!match || !timingSafeEqual(sha256(match[1]), expected)) throw unauthorized('GET /metrics needs the METRICS_TOKEN as bearer token');
      }
      const text = await registry.metrics();
      return reply.type(registry.contentType).send(text);
    },
  });
}
