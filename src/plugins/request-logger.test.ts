import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../app.ts';
import { requestLoggerFactory } from './request-logger.ts';

/** A Fastify app logging JSON lines into `lines`, with Quire's logger options and factory. */
function appLoggingTo(lines: Record<string, unknown>[], level: string) {
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      callback();
    },
  });
  const app = Fastify({ logger: { ...(loggerOptions(level) as object), stream }, childLoggerFactory: requestLoggerFactory });
  app.get('/quiet', async (request) => {
    request.log.info('not written at warn');
    request.log.debug({ token: 'x' }, 'not written either');
    return { ok: true };
  });
  app.get('/loud', async (request) => {
    request.log.warn({ detail: { token: 'SECRET' } }, 'written');
    request.log.child({ part: 'inner' }).error('from a child');
    return { level: request.log.level, infoEnabled: (request.log as unknown as { isLevelEnabled(l: string): boolean }).isLevelEnabled('info') };
  });
  return app;
}

describe('request logger (lazy pino child)', () => {
  it('writes nothing for levels below the threshold, and what it writes carries the request id and is redacted', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLoggingTo(lines, 'warn');
    try {
      expect((await app.inject({ url: '/quiet' })).statusCode).toBe(200);
      expect(lines).toEqual([]);
      const loud = await app.inject({ url: '/loud' });
      expect(loud.json()).toEqual({ level: 'warn', infoEnabled: false });
      expect(lines.map((l) => l.msg)).toEqual(['written', 'from a child']);
      expect(lines[0].reqId).toBe(lines[1].reqId);
      expect(lines[0].reqId).toEqual(expect.any(String));
      expect(lines[0].detail).toEqual({ token: '[redacted]' });
      expect(lines[1].part).toBe('inner');
    } finally {
      await app.close();
    }
  });

  it('at info, writes info lines with the request id', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLoggingTo(lines, 'info');
    try {
      await app.inject({ url: '/quiet' });
      // Fastify's own request lines go through the same logger.
      expect(lines.map((l) => l.msg)).toEqual(['incoming request', 'not written at warn', 'request completed']);
      expect(lines[0].reqId).toEqual(expect.any(String));
      expect(new Set(lines.map((l) => l.reqId)).size).toBe(1);
    } finally {
      await app.close();
    }
  });
});
