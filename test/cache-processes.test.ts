import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { freshEnvironment, runCli, startServer, type Environment, type RunningServer } from './process.ts';

/*
 * Cached reads across real server processes on one database: a change made through one
 * process is seen by the other's next read (PostgreSQL: the change feed's LISTEN/NOTIFY;
 * SQLite: data_version, read at most every 100 ms), a token revoked by the CLI is refused
 * at once everywhere, and the other process did answer from its cache before the change.
 */

const TOKEN = `qr_${'c'.repeat(43)}`;
const onPostgres = Boolean(process.env.DATABASE_URL);

describe('caches across processes', () => {
  let e: Environment;
  let servers: RunningServer[] = [];
  let organizationId: string;

  const call = async (server: RunningServer, method: string, path: string, options: { token?: string; body?: unknown } = {}) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${options.token ?? TOKEN}`, ...(options.body ? { 'content-type': 'application/json' } : {}) },
      body: options.body ? JSON.stringify(options.body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };
  const cacheHits = async (server: RunningServer) => {
    const text = (await call(server, 'GET', '/metrics')).body as string;
    const line = text.split('\n').find((l) => l.startsWith('quire_cache_hits_total{cache="listings"}'));
    return Number(line?.split(' ')[1] ?? 0);
  };
  // SQLite: another process's commit is seen within 100 ms (docs/operations.md).
  const settle = () => (onPostgres ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, 150)));

  beforeAll(async () => {
    e = await freshEnvironment();
    const env = { ...e.env, BOOTSTRAP_ADMIN_TOKEN: TOKEN, RATE_LIMIT_MAX: '0' };
    servers = await Promise.all([0, 1].map(() => startServer(env, { built: true, startTimeoutMs: 600_000 })));
    const orgs = await call(servers[0], 'GET', '/v1/orgs');
    expect(orgs.status).toBe(200);
    organizationId = orgs.body.items[0].id;
  }, 620_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await e?.cleanup();
  });

  beforeEach(() => {
    onTestFailed(() => {
      for (const s of servers) console.log(`server ${s.child.pid}:\n${s.lines.slice(-20).join('\n')}`);
    });
  });

  it('a space renamed through one process is read renamed by the other', async () => {
    const [one, two] = servers;
    const created = await call(one, 'POST', `/v1/orgs/${organizationId}/spaces`, { body: { title: 'Before' } });
    expect(created.status).toBe(201);
    const spaceId = created.body.id;
    await settle();
    expect((await call(two, 'GET', `/v1/spaces/${spaceId}`)).body.title).toBe('Before');
    const hits = await cacheHits(two);
    expect((await call(two, 'GET', `/v1/spaces/${spaceId}`)).body.title).toBe('Before');
    expect(await cacheHits(two)).toBeGreaterThan(hits);

    const renamed = await call(one, 'PATCH', `/v1/spaces/${spaceId}`, { body: { title: 'After' } });
    expect(renamed.status).toBe(200);
    await settle();
    expect((await call(two, 'GET', `/v1/spaces/${spaceId}`)).body.title).toBe('After');
    expect((await call(one, 'GET', `/v1/spaces/${spaceId}`)).body.title).toBe('After');
  });

  it('a token revoked by the CLI is refused by both processes at their next request', async () => {
    const issued = await runCli(e.env, ['tokens', 'create', '--email', 'admin@quire.local', '--json']);
    expect(issued.code, issued.stderr).toBe(0);
    const { token, id } = JSON.parse(issued.stdout);
    for (const server of servers) {
      expect((await call(server, 'GET', `/v1/orgs/${organizationId}`, { token })).status).toBe(200);
      expect((await call(server, 'GET', `/v1/orgs/${organizationId}`, { token })).status).toBe(200);
    }
    const revoked = await runCli(e.env, ['tokens', 'revoke', id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    await settle();
    for (const server of servers) expect((await call(server, 'GET', `/v1/orgs/${organizationId}`, { token })).status).toBe(401);
  });
});
