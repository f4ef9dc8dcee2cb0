/*
 * Shared by the tests of links written through the API (change-request batches, links to
 * groups): a request that must succeed, and the references a stored document holds.
 */
import { expect } from 'vitest';
import type { TestApp } from './app.ts';

type Query = Record<string, string | number | boolean>;

/** A request as `token`'s user that must answer 2xx (its body); the clock moves a second after it. `app` is read at each call (set in `beforeAll`). */
export function okRequests(app: () => TestApp, token: () => string) {
  return async (method: 'GET' | 'POST' | 'PATCH', url: string, options: { body?: unknown; query?: Query } = {}) => {
    const t = app();
    const res = await t.request(method, url, { token: token(), ...options });
    t.clock.advance(1000);
    expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
}

/** Every `{ kind, page?, anchor?, url?, file? }` reference of a document, in order. */
export function refsOf(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) value.forEach((v) => refsOf(v, out));
  else if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (typeof object.kind === 'string' && object.object === undefined && ['url', 'page', 'anchor', 'file'].includes(object.kind)) out.push(object);
    else Object.values(object).forEach((v) => refsOf(v, out));
  }
  return out;
}
