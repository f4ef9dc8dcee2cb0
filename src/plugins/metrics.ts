import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import type { Counter, Gauge, Metric, Registry } from 'prom-client';
import { changeFeedOf, poolStats } from '../db/database.ts';
import { unauthorized } from '../errors.ts';
import { loadOnUse } from '../lib/load-on-use.ts';
import type { TtlCache } from '../lib/ttl-cache.ts';
import { hooksOf } from './route-hooks.ts';

/** A value read at each scrape: one number, or one per label set. */
export type MetricReading = number | { labels: Record<string, string>; value: number }[];

/**
 * Prometheus metrics of one app (GET /metrics). Each app has its own registry, so tests
 * building several apps in one process do not mix their figures.
 */
export interface Metrics {
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

type PromClient = typeof import('prom-client');

/**
 * prom-client is loaded at the first scrape, not at start: it and its dependencies cost
 * about 45 ms of a cold start (docs/performance.md, "Start"), and nothing reads them before
 * Prometheus asks. Request durations are plain counters (below) from the first request.
 */
const loadPromClient = loadOnUse<PromClient>('prom-client');

function apply(metric: Gauge | Counter, reading: MetricReading): void {
  metric.reset();
  const set = (value: number, labels?: Record<string, string>) => {
    if ('set' in metric) labels ? metric.set(labels, value) : metric.set(value);
    else labels ? metric.inc(labels, value) : metric.inc(value);
  };
  if (typeof reading === 'number') return set(reading);
  for (const { labels, value } of reading) set(value, labels);
}

const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Records one response of a route: its status and the time it took, in ms. */
type DurationObserver = (status: number, ms: number) => void;

interface DurationSeries {
  labels: { method: string; route: string; status_code: string };
  /** Observations per bucket, not cumulative; the last one is above every bound. */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * `http_request_duration_seconds`, a Prometheus histogram by method, route and status,
 * kept as plain counters and exported through prom-client's registry at each scrape.
 * prom-client's own Histogram checks and hashes the label set on every observation
 * (0.5 µs, a few percent of a cached read); here a route's observer holds its series.
 */
class RequestDurations {
  private readonly series: DurationSeries[] = [];
  private readonly name = 'http_request_duration_seconds';

  /** prom-client reads the histogram through this metric object, registered at the first scrape. */
  metric(): Metric {
    const help = 'Time from receiving a request to sending its response, by route and status';
    // prom-client reads a metric through get() (name, help, type, values): the shape its
    // own Histogram gives, so its text format and content negotiation stay prom-client's.
    const metric = {
      name: this.name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      get: async () => ({ name: this.name, help, type: 'histogram', aggregator: 'sum', values: this.values() }),
      reset: () => {
        for (const s of this.series) {
          s.counts.fill(0);
          s.sum = 0;
          s.count = 0;
        }
      },
    };
    return metric as unknown as Metric;
  }

  /**
   * The observers of a route answering several methods (or of requests no route matched),
   * by the request's method: each made at its method's first request.
   */
  routeByMethod(route: string): (method: string) => DurationObserver {
    const byMethod = new Map<string, DurationObserver>();
    return (method) => {
      let observe = byMethod.get(method);
      if (!observe) byMethod.set(method, (observe = this.route(method, route)));
      return observe;
    };
  }

  /** The observer of one route: (status, elapsed ms). */
  route(method: string, route: string): DurationObserver {
    const byStatus = new Map<number, DurationSeries>();
    return (status, ms) => {
      let series = byStatus.get(status);
      if (!series) {
        series = { labels: { method, route, status_code: String(status) }, counts: new Array(DURATION_BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
        byStatus.set(status, series);
        this.series.push(series);
      }
      const seconds = ms / 1000;
      let bucket = 0;
      while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]) bucket++;
      series.counts[bucket]++;
      series.sum += seconds;
      series.count++;
    };
  }

  private values() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const { labels, counts, sum, count } of this.series) {
      let cumulative = 0;
      DURATION_BUCKETS.forEach((le, i) => {
        cumulative += counts[i];
        values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return values;
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
  // Metrics are declared at start and made into prom-client objects at the first scrape.
  const declared: ((prom: PromClient, registry: Registry) => void)[] = [];
  let registry: Registry | undefined;
  const registryNow = (): Registry => {
    if (registry) return registry;
    const prom = loadPromClient();
    const made = new prom.Registry();
    prom.collectDefaultMetrics({ register: made });
    made.registerMetric(durations.metric());
    for (const declare of declared) declare(prom, made);
    return (registry = made);
  };
  const declare = (make: (prom: PromClient, registry: Registry) => void) => {
    declared.push(make);
    if (registry) make(loadPromClient(), registry);
  };

  const caches = new Map<string, TtlCache<unknown>>();
  const metrics: Metrics = {
    registerGauge(name, help, read, labelNames = []) {
      declare((prom, registers) => new prom.Gauge({ name, help, labelNames, registers: [registers], async collect() { apply(this, await read()); } }));
    },
    registerCounter(name, help, read, labelNames = []) {
      declare((prom, registers) => new prom.Counter({ name, help, labelNames, registers: [registers], collect() { apply(this, read()); } }));
    },
    registerCache(name, cache) {
      caches.set(name, cache);
    },
  };
  app.decorate('metrics', metrics);

  const durations = new RequestDurations();
  // One series per route pattern and status, whatever the ids. Each route observes through
  // its own hook (its pattern known when it is added), so a request pays no lookup of it.
  app.addHook('onRoute', (route) => {
    let hook: onResponseHookHandler;
    if (Array.isArray(route.method)) {
      const observerOf = durations.routeByMethod(route.url);
      hook = (request, reply, done) => {
        observerOf(request.method)(reply.statusCode, reply.elapsedTime);
        done();
      };
    } else {
      const observe = durations.route(route.method, route.url);
      hook = (_request, reply, done) => {
        observe(reply.statusCode, reply.elapsedTime);
        done();
      };
    }
    route.onResponse = [...hooksOf(route.onResponse), hook];
  });
  // Requests no route matched (404s, URLs the router refused) under route="unmatched".
  const unmatched = durations.routeByMethod('unmatched');
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) unmatched(request.method)(reply.statusCode, reply.elapsedTime);
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
      const scraped = registryNow();
      const text = await scraped.metrics();
      return reply.type(scraped.contentType).send(text);
    },
  });
}
