import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import { HttpError } from '../errors.ts';
import { hasVerifiedToken, requestTokenHash } from './auth.ts';

type Counted = { current: number; ttl: number };
type StoreCallback = (error: Error | null, result: Counted) => void;

/**
 * The limiter's counters (one store for every route), like the plugin's own LocalStore
 * (fixed windows, oldest key dropped first past `maxKeys`), plus `refund`: a request first
 * counted against its address is moved to its token once the token proves valid.
 */
class CounterStore {
  private readonly entries = new Map<string, { current: number; startMs: number }>();
  constructor(private readonly maxKeys = 10_000) {}

  private alive(key: string, timeWindow: number, now: number) {
    const entry = this.entries.get(key);
    if (entry && entry.startMs + timeWindow > now) return entry;
    if (entry) this.entries.delete(key);
    return undefined;
  }

  incr(key: string, cb: StoreCallback, timeWindow: number): void {
    const now = Date.now();
    let entry = this.alive(key, timeWindow, now);
    if (entry) {
      entry.current++;
      this.entries.delete(key);
    } else {
      entry = { current: 1, startMs: now };
      if (this.entries.size >= this.maxKeys) this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, entry);
    cb(null, { current: entry.current, ttl: timeWindow - (now - entry.startMs) });
  }

  read(key: string, cb: StoreCallback, timeWindow: number): void {
    const now = Date.now();
    const entry = this.alive(key, timeWindow, now);
    cb(null, entry ? { current: entry.current, ttl: timeWindow - (now - entry.startMs) } : { current: 0, ttl: 0 });
  }

  /** Takes back one request counted against `key` in its current window. */
  refund(key: string, timeWindow: number): void {
    const entry = this.alive(key, timeWindow, Date.now());
    if (entry && entry.current > 0) entry.current--;
  }

  child(): CounterStore {
    return this;
  }
}

/**
 * Per-token request budget with GitBook's X-RateLimit-* headers. It runs before a token is
 * looked up (plugins/auth.ts): a token verified in the last seconds is counted as itself,
 * every other request (no token, an unknown or invalid one) by its address, so 401s carry
 * the headers too and a flood of bad tokens is bounded. When an unknown token then proves
 * valid (the lookup in preParsing), its request is moved from the address to the token:
 * a valid token always spends its own budget only, and never the address's. Counters
 * live in each process (see docs/operations.md).
 */
export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  const { rateLimitMax: max, rateLimitWindowMs: timeWindow } = app.deps.config;
  if (max === 0) return;
  const store = new CounterStore();
  // Requests counted against their address while carrying a token not yet verified.
  const countedByAddress = new WeakSet<FastifyRequest>();
  const exceeded = (ttl: number) =>
    new HttpError(429, `Rate limit exceeded: ${max} requests per ${Math.round(timeWindow / 1000)} seconds; retry in ${Math.max(1, Math.ceil(ttl / 1000))} seconds`);
  const addressKey = (request: FastifyRequest) => `ip:${request.ip}`;

  await app.register(rateLimit, {
    global: true,
    max,
    timeWindow,
    // The plugin constructs its store from this class: handing it our instance.
    store: class {
      constructor() {
        return store;
      }
    } as never,
    keyGenerator: (request) => {
      if (hasVerifiedToken(request)) return `token:${requestTokenHash(request)}`;
      if (requestTokenHash(request)) countedByAddress.add(request);
      return addressKey(request);
    },
    addHeaders: {
      'x-ratelimit-limit': true,
      'x-ratelimit-remaining': true,
      'x-ratelimit-reset': true,
      'retry-after': true,
    },
    errorResponseBuilder: (_request, context) => exceeded(context.ttl),
  });
  // Route-level, so it runs after auth's app-wide preParsing hook has looked the token up.
  const moveToToken: preParsingHookHandler = (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    if (!countedByAddress.has(request) || !hasVerifiedToken(request)) return done(null, payload);
    countedByAddress.delete(request);
    store.refund(addressKey(request), timeWindow);
    store.incr(`token:${requestTokenHash(request)}`, (_error, { current, ttl }) => {
      const reset = Math.ceil(ttl / 1000);
      reply.header('x-ratelimit-limit', max);
      reply.header('x-ratelimit-remaining', Math.max(0, max - current));
      reply.header('x-ratelimit-reset', reset);
      if (current <= max) return done(null, payload);
      reply.header('retry-after', reset);
      done(exceeded(ttl));
    }, timeWindow);
  };
  app.addHook('onRoute', (routeOptions) => {
    if ((routeOptions.config as { rateLimit?: unknown } | undefined)?.rateLimit === false) return;
    const hooks = routeOptions.preParsing;
    routeOptions.preParsing = hooks === undefined ? [moveToToken] : Array.isArray(hooks) ? [...hooks, moveToToken] : [hooks, moveToToken];
  });
}
