import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.ts';

/**
 * The path (`body/title`, `params/spaceId`, `query/cursor`) of the first string or object
 * key holding a NUL character, or null. PostgreSQL cannot store U+0000 in text or JSON
 * ("invalid byte sequence for encoding UTF8: 0x00") while SQLite can: refusing it here,
 * once for every input, gives both databases the same answer and no query ever sees it.
 */
export function nulPath(value: unknown, at: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? at : null;
  if (value === null || typeof value !== 'object' || depth > 64 || Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${at}/${i}`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return `${at} (a field name)`;
    const found = nulPath(item, `${at}/${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Whether a string or object key anywhere in `value` holds a NUL; allocates nothing. */
export function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 64 || Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsNul(item, depth + 1)) return true;
    return false;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (key.includes('\u0000') || holdsNul((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

/** Refuses, before validation and before any query, every input string holding a NUL. */
export function registerInputSanitation(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    // In a URL a NUL can only arrive as `%00` (Node's parser refuses a raw one), so the
    // decoded path parameters and query need a look only when the URL holds that.
    const inUrl = request.url.includes('%00');
    if (!inUrl && (request.body === undefined || !holdsNul(request.body))) return done();
    const found = (inUrl ? (nulPath(request.params, 'params') ?? nulPath(request.query, 'query')) : null) ?? nulPath(request.body, 'body');
    if (found) return done(badRequest(`${found} must not contain a NUL character (U+0000)`));
    done();
  });
}
