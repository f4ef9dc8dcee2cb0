import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshEnvironment, runCli, startServer, type Environment, type RunningServer } from './process.ts';
import { ensureBuilt } from '../scripts/build.mjs';

async function get(server: RunningServer, url: string, token?: string) {
  const res = await fetch(server.url + url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: (await res.json()) as any };
}

// Each case starts server processes: allowed as long as a loaded machine needs (see test/process.ts).
describe('the server process', { timeout: 240_000 }, () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function environment(): Promise<Environment> {
    const e = await freshEnvironment();
    cleanups.push(() => e.cleanup());
    return e;
  }
  async function start(env: Record<string, string>, options: { built?: boolean } = {}): Promise<RunningServer> {
    const server = await startServer(env, options);
    cleanups.push(() => server.stop('SIGKILL'));
    return server;
  }

  it('bootstraps one organization and admin on first start, writing the token 0600 and never logging it', async () => {
    const e = await environment();
    const server = await start(e.env);
    const tokenFile = path.join(e.dataDir, 'admin-token');
    expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
    const token = fs.readFileSync(tokenFile, 'utf8').trim();
    expect(server.lines.some((l) => l.includes(tokenFile))).toBe(true);

    const ready = await get(server, '/v1/');
    expect(ready.status).toBe(200);
    const orgs = await get(server, '/v1/orgs', token);
    expect(orgs.status).toBe(200);
    expect(orgs.body.count).toBe(1);
    expect(orgs.body.items[0].permissions.admin).toBe(true);
    const me = await get(server, '/v1/user', token);
    expect(me.body.email).toBe('admin@quire.local');

    expect(await server.stop()).toBe(0);
    const log = server.lines.join('\n');
    expect(log).not.toContain(token);
    // JSON lines; every request line carries its request id.
    const entries = server.lines.map((l) => JSON.parse(l));
    const requestLines = entries.filter((l) => l.req || l.res);
    expect(requestLines.length).toBeGreaterThan(0);
    expect(requestLines.every((l) => typeof l.reqId === 'string')).toBe(true);

    // A second start on the same database creates nothing and leaves the token alone.
    const again = await start(e.env);
    const orgsAgain = await get(again, '/v1/orgs', token);
    expect(orgsAgain.body.count).toBe(1);
    expect(fs.readFileSync(tokenFile, 'utf8').trim()).toBe(token);
  });

  it('uses BOOTSTRAP_ADMIN_TOKEN as the admin token when given', async () => {
    const e = await environment();
    const server = await start({ ...e.env, BOOTSTRAP_ADMIN_TOKEN: 'qr_bootstrap_secret_value_123' });
    expect(fs.existsSync(path.join(e.dataDir, 'admin-token'))).toBe(false);
    const orgs = await get(server, '/v1/orgs', 'qr_bootstrap_secret_value_123');
    expect(orgs.status).toBe(200);
    expect(orgs.body.count).toBe(1);
    expect(server.lines.join('\n')).not.toContain('qr_bootstrap_secret_value_123');
  });

  it('migrates once and creates exactly one organization when three processes start at once', async () => {
    const e = await environment();
    // The built server (built here first, once): three tsx processes transpiling at once
    // on a loaded 2-core machine took longer than a start may.
    await ensureBuilt('server', () => {});
    const servers = await Promise.all([start(e.env, { built: true }), start(e.env, { built: true }), start(e.env, { built: true })]);
    const token = fs.readFileSync(path.join(e.dataDir, 'admin-token'), 'utf8').trim();
    for (const server of servers) expect((await get(server, '/v1/orgs', token)).body.count).toBe(1);
    const cli = await runCli(e.env, ['orgs', 'list', '--json']);
    expect(JSON.parse(cli.stdout).items).toHaveLength(1);
  });

  /** The pids of the server processes that said they listen on 127.0.0.1, in order. */
  const listeningPids = (server: RunningServer) =>
    server.lines.flatMap((line) => (line.includes('Server listening at http://127.0.0.1') ? [JSON.parse(line).pid as number] : []));
  async function until(what: string, done: () => boolean, timeoutMs = 120_000) {
    for (const start = Date.now(); !done(); await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    }
  }
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it.runIf(process.env.DATABASE_URL)('runs QUIRE_PROCESSES servers on one port, starts another when one dies, stops them all on SIGTERM', async () => {
    const e = await environment();
    const server = await start({ ...e.env, QUIRE_PROCESSES: '2' });
    await until('two server processes', () => new Set(listeningPids(server)).size === 2);
    const [first, second] = listeningPids(server);
    expect(server.child.pid).not.toBe(first);
    const token = fs.readFileSync(path.join(e.dataDir, 'admin-token'), 'utf8').trim();
    // One bootstrap between them, and each answers (connections go to each in turn).
    const answeredBy = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${server.url}/v1/orgs`, { headers: { authorization: `Bearer ${token}`, connection: 'close' } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).count).toBe(1);
    }
    await until('request logs', () => server.lines.filter((l) => l.includes('"request completed"')).length >= 12);
    for (const line of server.lines.filter((l) => l.includes('"request completed"'))) answeredBy.add(JSON.parse(line).pid);
    expect([...answeredBy].sort()).toEqual([first, second].sort());

    process.kill(first, 'SIGKILL');
    await until('a replacement', () => listeningPids(server).length === 3);
    const replacement = listeningPids(server)[2];
    expect([first, second]).not.toContain(replacement);
    expect(server.lines.some((l) => l.includes('a server process exited: starting another'))).toBe(true);
    expect((await get(server, '/v1/')).status).toBe(200);

    expect(await server.stop()).toBe(0);
    expect(alive(second) || alive(replacement)).toBe(false);
    expect(server.lines.filter((l) => l.includes('"msg":"closed"'))).toHaveLength(2);
    for (const line of server.lines.filter((l) => l.trim() !== '')) expect(() => JSON.parse(line)).not.toThrow();
  });

  it.runIf(process.env.DATABASE_URL)('stops every server process and exits 1 when they cannot start (port taken)', async () => {
    const e = await environment();
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => taken.close(resolve)));
    const port = String((taken.address() as net.AddressInfo).port);
    await expect(startServer({ ...e.env, PORT: port, QUIRE_PROCESSES: '2' })).rejects.toThrow(/exited \(1\) before listening[\s\S]*a server process failed to start/);
  });

  it.runIf(!process.env.DATABASE_URL)('refuses QUIRE_PROCESSES above 1 on SQLite, and values out of range', async () => {
    const e = await environment();
    await expect(startServer({ ...e.env, QUIRE_PROCESSES: '2' })).rejects.toThrow(/QUIRE_PROCESSES above 1 needs PostgreSQL/);
    await expect(startServer({ ...e.env, QUIRE_PROCESSES: '0' })).rejects.toThrow(/QUIRE_PROCESSES must be between 1 and 64/);
  });

  it('lets the CLI create users and revoke tokens while the server runs', async () => {
    const e = await environment();
    const server = await start({ ...e.env, AUTH_CACHE_TTL_MS: '300' });
    const token = fs.readFileSync(path.join(e.dataDir, 'admin-token'), 'utf8').trim();
    const orgId = (await get(server, '/v1/orgs', token)).body.items[0].id;

    const created = await runCli(e.env, ['users', 'create', '--org', orgId, '--email', 'Writer@Example.com', '--name', 'Writer', '--role', 'edit', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const output = JSON.parse(created.stdout);
    expect(output).toMatchObject({ user: { object: 'user', email: 'writer@example.com', displayName: 'Writer' }, token: expect.any(String) });
    const me = await get(server, '/v1/user', output.token);
    expect(me.body.id).toBe(output.user.id);
    const org = await get(server, `/v1/orgs/${orgId}`, output.token);
    expect(org.body.permissions).toMatchObject({ admin: false, createContent: false });

    const second = await runCli(e.env, ['tokens', 'create', '--email', 'writer@example.com', '--json']);
    expect(second.code, second.stderr).toBe(0);
    const { token: secondToken, id: secondId } = JSON.parse(second.stdout);
    expect((await get(server, '/v1/user', secondToken)).status).toBe(200);

    const revoked = await runCli(e.env, ['tokens', 'revoke', secondId]);
    expect(revoked.code).toBe(0);
    await new Promise((r) => setTimeout(r, 400));
    expect((await get(server, '/v1/user', secondToken)).status).toBe(401);
    expect((await get(server, '/v1/user', output.token)).status).toBe(200);

    const duplicate = await runCli(e.env, ['users', 'create', '--org', orgId, '--email', 'writer@example.com', '--name', 'W', '--role', 'edit']);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('already exists');
    const badRole = await runCli(e.env, ['users', 'create', '--org', orgId, '--email', 'x@example.com', '--name', 'X', '--role', 'owner']);
    expect(badRole.code).toBe(2);
    const badOrg = await runCli(e.env, ['users', 'create', '--org', 'nope', '--email', 'y@example.com', '--name', 'Y', '--role', 'read']);
    expect(badOrg.code).toBe(1);
    expect((await runCli(e.env, ['tokens', 'revoke', 'nope'])).code).toBe(1);
    expect((await runCli(e.env, ['migrate'])).stdout).toContain('up to date');
  });

  it('keeps every acknowledged write across a crash (SIGKILL)', async () => {
    const e = await environment();
    const server = await start(e.env);
    const token = fs.readFileSync(path.join(e.dataDir, 'admin-token'), 'utf8').trim();
    const titles = ['Crash one', 'Crash two', 'Crash three'];
    for (const title of titles) {
      const res = await fetch(server.url + '/v1/orgs', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
      expect(res.status).toBe(201);
    }
    await server.stop('SIGKILL');
    const again = await start(e.env);
    const orgs = await get(again, '/v1/orgs', token);
    expect(orgs.body.items.map((o: { title: string }) => o.title)).toEqual(expect.arrayContaining(titles));
  });

  it('finishes in-flight requests on SIGTERM, then exits 0', async () => {
    const e = await environment();
    const server = await start(e.env);
    const token = fs.readFileSync(path.join(e.dataDir, 'admin-token'), 'utf8').trim();
    const { port } = new URL(server.url);
    const body = JSON.stringify({ title: 'Started before shutdown' });
    // Send the headers and half the body, signal, then the rest: the request must complete.
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    let response = '';
    socket.on('data', (c) => (response += c));
    socket.write(
      `POST /v1/orgs HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n` +
        body.slice(0, 10),
    );
    await new Promise((r) => setTimeout(r, 200));
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    socket.write(body.slice(10));
    await new Promise((r) => socket.once('close', r));
    expect(response).toMatch(/^HTTP\/1\.1 201/);
    expect(response).toContain('Started before shutdown');
    expect(await server.exited).toBe(0);
    expect(server.lines.some((l) => l.includes('"closed"'))).toBe(true);
  });

  it('through npm itself: stops gracefully when a supervisor signals npm (the start script execs node), and prints only JSON lines on standard output', async () => {
    const e = await environment();
    const server = await startServer(e.env, { throughNpm: true });
    cleanups.push(() => server.stop('SIGKILL'));
    expect((await get(server, '/v1/')).status).toBe(200);
    // The signal goes to npm's process only, as Docker sends it to PID 1.
    expect(await server.stop('SIGTERM')).not.toBeNull();
    expect(server.lines.some((l) => l.includes('"signal":"SIGTERM"'))).toBe(true);
    expect(server.lines.some((l) => l.includes('"closed"'))).toBe(true);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    // The log stream (standard output) is JSON lines only: the project's .npmrc (json=true)
    // sends npm's "> quire@… start" banner to standard error.
    const out = server.stdout().split('\n').filter((l) => l.trim() !== '');
    expect(out.length).toBeGreaterThan(3);
    for (const line of out) expect(() => JSON.parse(line), line).not.toThrow();
  });

  it('runs the built server through `npm start` (scripts/start.mjs), logging nothing but JSON lines', async () => {
    const e = await environment();
    // Builds dist/ first when it is missing or older than the sources.
    const server = await start(e.env, { built: true });
    const ready = await get(server, '/v1/');
    expect(ready.status).toBe(200);
    // A built server reports its build time, not its start time.
    expect(Date.parse(ready.body.build)).toBeLessThanOrEqual(Date.now());
    const token = fs.readFileSync(path.join(e.dataDir, 'admin-token'), 'utf8').trim();
    // Serializers and validators compile on first use: a listing and a rejected body still answer as before.
    const orgs = await get(server, '/v1/orgs', token);
    expect(orgs.status).toBe(200);
    expect(orgs.body.items).toHaveLength(1);
    const bad = await fetch(`${server.url}/v1/orgs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 42 }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.code).toBe(400);
    expect(await server.stop()).toBe(0);
    expect(fs.existsSync(path.join(path.dirname(import.meta.dirname), 'dist', 'server.js'))).toBe(true);
    for (const line of server.lines.filter((l) => l.trim() !== '')) expect(() => JSON.parse(line)).not.toThrow();

    // The second start on a migrated database runs no migration.
    const again = await start(e.env, { built: true });
    expect((await get(again, '/v1/')).status).toBe(200);
    expect(again.lines.some((l) => l.includes('applied migrations'))).toBe(false);
  });
});
