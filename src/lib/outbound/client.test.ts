import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient, OutboundError, redactUrl, refusalOf } from './index.ts';

/*
 * A guard listener on 127.0.0.1 (and ::1 where the machine has it) counts every
 * connection: no refused URL may reach it. The one "allowed" host is a second listener
 * on 127.0.0.1, let through by the test-only allowPrivate hook for its port alone.
 */

let guardConnections = 0;
let guardPort = 0;
const guards: net.Server[] = [];
let allowed: http.Server;
let allowedPort = 0;
let lastAuthorization: string | undefined;

function listen(server: net.Server, host: string, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

beforeAll(async () => {
  const guard = net.createServer((socket) => {
    guardConnections++;
    socket.destroy();
  });
  guards.push(guard);
  guardPort = await listen(guard, '127.0.0.1');
  const guard6 = net.createServer((socket) => {
    guardConnections++;
    socket.destroy();
  });
  try {
    await listen(guard6, '::1', guardPort);
    guards.push(guard6);
  } catch {
    // No IPv6 loopback here: nothing can reach ::1 either.
  }
  allowed = http.createServer((req, res) => {
    lastAuthorization = req.headers.authorization;
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/ok') return res.end('hello');
    if (url.pathname === '/to') {
      res.writeHead(302, { location: url.searchParams.get('target')! });
      return res.end();
    }
    if (url.pathname === '/loop') {
      res.writeHead(302, { location: '/loop' });
      return res.end();
    }
    if (url.pathname === '/big') {
      // Chunked: no Content-Length to refuse it by.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      let sent = 0;
      const pump = () => {
        while (sent < 4 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        res.end();
      };
      return pump();
    }
    if (url.pathname === '/slow-body') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('start');
      return; // never ends
    }
    if (url.pathname === '/slow-headers') return; // never answers
    res.statusCode = 404;
    res.end();
  });
  allowedPort = await listen(allowed, '127.0.0.1');
});

afterAll(async () => {
  allowed.closeAllConnections();
  await new Promise((r) => allowed.close(r));
  for (const guard of guards) await new Promise((r) => guard.close(r));
});

const client = () =>
  createOutboundClient({
    allowPrivate: (address, port) => address === '127.0.0.1' && port === allowedPort,
    totalTimeoutMs: 2_000,
    maxBytes: 1024 * 1024,
  });

async function refusal(url: string, options?: Parameters<ReturnType<typeof client>['fetchBytes']>[1]): Promise<OutboundError> {
  const c = client();
  try {
    await c.fetchBytes(url, options);
  } catch (error) {
    return error as OutboundError;
  } finally {
    await c.close();
  }
  throw new Error(`${url} was fetched`);
}

describe('outbound client', () => {
  it('fetches from the allowed test host', async () => {
    const c = client();
    const got = await c.fetchBytes(`http://127.0.0.1:${allowedPort}/ok`);
    expect(got.status).toBe(200);
    expect(got.bytes.toString()).toBe('hello');
    await c.close();
  });

  const encodings = [
    '127.1', '2130706433', '0x7f000001', '017700000001', '127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]',
    '0.0.0.0', '0', 'localhost', '[::127.0.0.1]', '[64:ff9b::127.0.0.1]', '[2002:7f00:1::]', '[::]', '127.000.000.001',
  ];
  for (const host of encodings) {
    it(`refuses ${host} without connecting`, async () => {
      const error = await refusal(`http://${host}:${guardPort}/`);
      expect(error).toBeInstanceOf(OutboundError);
      expect(['refused-address', 'invalid-url']).toContain(error.kind);
      expect(guardConnections).toBe(0);
    });
  }

  it('refuses private ranges, embedded IPv4 forms and allows public unicast', () => {
    for (const address of ['10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', 'fc00::1', 'fe80::1', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::', '::8.8.8.8', '224.0.0.1', '255.255.255.255']) {
      expect(refusalOf(address), address).toBeDefined();
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) expect(refusalOf(address), address).toBeUndefined();
  });

  it('refuses a name that resolves to a loopback address (checked at connect time)', async () => {
    const c = createOutboundClient({ resolve: async () => ['8.8.8.8', '127.0.0.1'] });
    await expect(c.fetchBytes(`http://rebind.test:${guardPort}/`)).rejects.toMatchObject({ kind: 'refused-address' });
    await c.close();
    expect(guardConnections).toBe(0);
  });

  it('refuses a redirect from the allowed host to a refused one', async () => {
    for (const target of [`http://127.0.0.1:${guardPort}/`, `http://localhost:${guardPort}/x`, `http://[::1]:${guardPort}/`, `http://2130706433:${guardPort}/`]) {
      const error = await refusal(`http://127.0.0.1:${allowedPort}/to?target=${encodeURIComponent(target)}`);
      expect(error.kind).toBe('refused-address');
    }
    const scheme = await refusal(`http://127.0.0.1:${allowedPort}/to?target=${encodeURIComponent('file:///etc/passwd')}`);
    expect(scheme.kind).toBe('invalid-url');
    expect(guardConnections).toBe(0);
  });

  it('follows a bounded number of redirects', async () => {
    expect((await refusal(`http://127.0.0.1:${allowedPort}/loop`)).kind).toBe('too-many-redirects');
    const c = client();
    const got = await c.fetchBytes(`http://127.0.0.1:${allowedPort}/to?target=/ok`);
    expect(got.bytes.toString()).toBe('hello');
    await c.close();
  });

  it('stops an oversized body without Content-Length while it streams', async () => {
    const error = await refusal(`http://127.0.0.1:${allowedPort}/big`);
    expect(error.kind).toBe('too-large');
  });

  it('gives up on a slow server after the total timeout', async () => {
    // Neither server ever finishes; the call's own 300 ms budget must end each one, well
    // before the client's 30 s default or undici's 300 s (a loaded machine may add seconds).
    for (const path of ['/slow-body', '/slow-headers']) {
      const started = Date.now();
      expect((await refusal(`http://127.0.0.1:${allowedPort}${path}`, { totalTimeoutMs: 300 })).kind).toBe('timeout');
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(10_000);
    }
  });

  it('sends URL credentials as Basic auth, and never shows them', async () => {
    const c = client();
    const got = await c.fetchBytes(`http://al%40ice:s3cr%3Aet@127.0.0.1:${allowedPort}/ok`);
    expect(lastAuthorization).toBe(`Basic ${Buffer.from('al@ice:s3cr:et').toString('base64')}`);
    expect(got.url).not.toContain('s3cr');
    // Not passed on to another origin by a redirect.
    await c.fetchBytes(`http://u:pw@127.0.0.1:${allowedPort}/to?target=${encodeURIComponent(`http://localhost:${allowedPort}/ok`)}`).catch(() => undefined);
    await c.close();
    const refused = await refusal(`http://u:topsecret@127.0.0.1:${guardPort}/`);
    expect(refused.message).not.toContain('topsecret');
    expect(redactUrl('https://u:topsecret@example.com/a?sig=abc&x=1')).toBe('https://redacted@example.com/a?sig=redacted&x=1');
    expect(guardConnections).toBe(0);
  });
});
