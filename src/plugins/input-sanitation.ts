import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.ts';
import { holdsNul, nulPath } from '../lib/nul.ts';

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
