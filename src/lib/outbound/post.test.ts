import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient } from './index.ts';

/* POST through the outbound client (translation providers): the body, and what redirects do to it. */

describe('outbound POST', () => {
  let server: http.Server;
  let base: string;
  const seen: { method: string; path: string; body: string }[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method!, path: req.url!, body: Buffer.concat(chunks).toString() });
        if (req.url === '/307') {
          res.writeHead(307, { location: '/echo' });
          return res.end();
        }
        if (req.url === '/303') {
          res.writeHead(303, { location: '/echo' });
          return res.end();
        }
        res.end(`${req.method} ${Buffer.concat(chunks).toString()}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = () => createOutboundClient({ allowPrivate: (address, port) => address === '127.0.0.1' && port === Number(new URL(base).port) });

  it('sends the body and headers', async () => {
    const c = client();
    const answer = await c.fetchBytes(`${base}/echo`, { method: 'POST', body: '{"q":1}', headers: { 'content-type': 'application/json' } });
    await c.close();
    expect(answer.bytes.toString()).toBe('POST {"q":1}');
  });

  it('repeats the POST on 307, continues with a GET on 303', async () => {
    const c = client();
    seen.length = 0;
    expect((await c.fetchBytes(`${base}/307`, { method: 'POST', body: 'x' })).bytes.toString()).toBe('POST x');
    expect((await c.fetchBytes(`${base}/303`, { method: 'POST', body: 'y' })).bytes.toString()).toBe('GET ');
    await c.close();
    expect(seen.map((s) => `${s.method} ${s.path} ${s.body}`)).toEqual(['POST /307 x', 'POST /echo x', 'POST /303 y', 'GET /echo ']);
  });
});
