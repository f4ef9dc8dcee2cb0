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

/** Refuses, before validation and before any query, every input string holding a NUL. */
export function registerInputSanitation(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const found = nulPath(request.params, 'params') ?? nulPath(request.query, 'query') ?? nulPath(request.body, 'body');
    if (found) return done(badRequest(`${found} must not contain a NUL character (U+0000)`));
    done();
  });
}
