import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from './app.ts';
import { createUser } from './factories.ts';
import { Type } from 'typebox';
import { defineJob } from '../src/jobs/queue.ts';

const noopJob = defineJob('metrics.test.noop', { payload: Type.Object({}) });

/** The value of one sample line of a Prometheus text exposition, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('operations: metrics, liveness, API reference', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { jobs: [noopJob.handledBy(() => undefined)] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('GET /metrics reports the job queue by state (its depth and failures)', async () => {
    await noopJob.enqueue(t.db, {});
    await noopJob.enqueue(t.db, {});
    // The app's own recurring jobs may be enqueued meanwhile: the scrape lies between two counts.
    const jobs = async () => Number((await t.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()).count);
    const before = await jobs();
    const res = await t.request('GET', '/metrics');
    expect(res.status).toBe(200);
    const after = await jobs();
    // Whatever state the worker has moved them to, every job is counted once under its state.
    const states = ['queued', 'running', 'done', 'failed', 'cancelled'];
    const counted = states.reduce((sum, state) => sum + (sample(res.text, `quire_jobs{state="${state}"}`) ?? 0), 0);
    expect(counted).toBeGreaterThanOrEqual(before);
    expect(counted).toBeLessThanOrEqual(after);
    expect(counted).toBeGreaterThanOrEqual(2);
  });

  it('GET /healthz answers without a token and without the database', async () => {
    const res = await t.request('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    // Readiness stays GET /v1/, which asks the database.
    expect((await t.request('GET', '/v1/')).status).toBe(200);
  });

  it('GET /metrics reports request durations by route and status, cache hits and (on PostgreSQL) the pool', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 3; i++) expect((await t.request('GET', '/v1/user', { token: user.token })).status).toBe(200);
    expect((await t.request('GET', '/v1/user', { token: 'qr_not_a_token' })).status).toBe(401);

    const res = await t.request('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/v1/user",status_code="200"}')).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/v1/user",status_code="401"}')).toBe(1);
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/v1/user",status_code="200"}');
    // Buckets are cumulative and end at +Inf with the count; the sum is in seconds.
    const buckets = [...text.matchAll(/^http_request_duration_seconds_bucket\{le="([^"]+)",method="GET",route="\/v1\/user",status_code="200"\} (\S+)$/gm)].map((m) => [m[1], Number(m[2])] as const);
    expect(buckets.at(-1)).toEqual(['+Inf', 3]);
    expect(buckets.map(([, n]) => n)).toEqual([...buckets.map(([, n]) => n)].sort((a, b) => a - b));
    const sum = sample(text, 'http_request_duration_seconds_sum{method="GET",route="/v1/user",status_code="200"}');
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(30);
    // The token was verified once, then answered from memory twice.
    expect(sample(text, 'quire_cache_hits_total{cache="tokens"}')).toBe(2);
    expect(sample(text, 'quire_cache_misses_total{cache="tokens"}')).toBe(2);
    expect(sample(text, 'quire_cache_entries{cache="tokens"}')).toBe(1);
    expect(text).toContain('quire_cache_hits_total{cache="listings"}');
    expect(text).toContain('process_resident_memory_bytes');
    if (testDialect === 'postgres') {
      expect(sample(text, 'quire_db_pool_max')).toBe(10);
      expect(sample(text, 'quire_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(1);
    } else {
      expect(text).not.toContain('quire_db_pool');
    }
    // Unmatched URLs are one series, not one per URL.
    await t.request('GET', '/v1/nothing-here/1');
    await t.request('GET', '/v1/nothing-here/2');
    const after = (await t.request('GET', '/metrics')).text;
    expect(sample(after, 'http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}')).toBe(2);
    expect(after).not.toContain('nothing-here');
    // A HEAD of a GET route is its own series.
    expect((await t.app.inject({ method: 'HEAD', url: '/v1/user', headers: { authorization: `Bearer ${user.token}` } })).statusCode).toBe(200);
    const head = (await t.request('GET', '/metrics')).text;
    expect(sample(head, 'http_request_duration_seconds_count{method="HEAD",route="/v1/user",status_code="200"}')).toBe(1);
    expect(sample(head, 'http_request_duration_seconds_count{method="GET",route="/v1/user",status_code="200"}')).toBe(3);
  });

  it('lets other parts of the app add gauges and counters read at each scrape', async () => {
    let depth = 4;
    t.app.metrics.registerGauge('quire_test_queue_depth', 'Jobs waiting (test)', () => depth);
    t.app.metrics.registerCounter('quire_test_failures_total', 'Failed jobs (test)', () => [{ labels: { kind: 'pdf' }, value: 2 }], ['kind']);
    expect(sample((await t.request('GET', '/metrics')).text, 'quire_test_queue_depth')).toBe(4);
    depth = 1;
    const text = (await t.request('GET', '/metrics')).text;
    expect(sample(text, 'quire_test_queue_depth')).toBe(1);
    expect(sample(text, 'quire_test_failures_total{kind="pdf"}')).toBe(2);
  });

  it('serves a browsable API reference at /v1/docs from the package, without a token or a CDN', async () => {
    for (const url of ['/v1/docs', '/v1/docs/']) await checkPage(url);
    const spec0 = await t.request('GET', '/v1/docs/static/index.html');
    expect(spec0.status).toBe(302);
    // The reference reads Quire's own OpenAPI document.
    const spec = await t.request('GET', '/v1/docs/json');
    expect(spec.status).toBe(200);
    expect(spec.body.info.title).toBe('Quire API');
    expect(Object.keys(spec.body.paths)).toEqual(expect.arrayContaining(['/healthz', '/v1/orgs']));
    expect(spec.body.paths['/metrics']).toBeUndefined();
  });

  async function checkPage(url: string) {
    const page = await t.request('GET', url);
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toContain('text/html');
    expect(page.text).toContain('swagger-ui');
    // Every script and style is a relative URL served by Quire.
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((s) => /^(https?:)?\/\//.test(s))).toEqual([]);
    for (const source of sources) {
      // Resolved as a browser does, against the page's own URL.
      const asset = await t.request('GET', new URL(source, `http://x${url}`).pathname, { skipSchemaCheck: true });
      expect(asset.status, `${url} -> ${source}`).toBe(200);
    }
  }
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ metricsToken: 'metrics-secret-123' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('wants the token as bearer token, and answers 401 in GitBook error form otherwise', async () => {
    const none = await t.request('GET', '/metrics');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: { code: 401, message: expect.stringContaining('METRICS_TOKEN') } });
    expect((await t.request('GET', '/metrics', { token: 'wrong' })).status).toBe(401);
    const ok = await t.request('GET', '/metrics', { token: 'metrics-secret-123' });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('http_request_duration_seconds');
    expect(ok.text).not.toContain('metrics-secret-123');
  });
});
