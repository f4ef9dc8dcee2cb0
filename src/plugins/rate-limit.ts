import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../errors.ts';
import { requestTokenHash } from './auth.ts';

/**
 * Per-token request budget with GitBook's X-RateLimit-* headers; anonymous callers are
 * counted by address. Counters live in each process (see docs/operations.md).
 */
export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  const { rateLimitMax, rateLimitWindowMs } = app.deps.config;
  if (rateLimitMax === 0) return;
  await app.register(rateLimit, {
    global: true,
    max: rateLimitMax,
    timeWindow: rateLimitWindowMs,
    keyGenerator: (request) => {
      const hash = requestTokenHash(request);
      return hash ? `token:${hash}` : `ip:${request.ip}`;
    },
    addHeaders: {
      'x-ratelimit-limit': true,
      'x-ratelimit-remaining': true,
      'x-ratelimit-reset': true,
      'retry-after': true,
    },
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `Rate limit exceeded: ${context.max} requests per ${context.after}; retry later`),
  });
}
