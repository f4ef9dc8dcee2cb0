import type { FastifyError, FastifyInstance } from 'fastify';
import { toHttpError, type HttpError } from '../errors.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../db/errors.ts';

/** Renders GitBook's error body. */
export function errorBody(code: number, message: string) {
  return { error: { code, message } };
}

/**
 * The one error handler: service errors keep their status and message, validation errors
 * name the field, constraint errors become 409/400, and 5xx never leak stacks or SQL.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    // Service errors, and the content engine's domain errors mapped to their statuses.
    const known = toHttpError(error);
    if (known) {
      if (known.headers) reply.headers(known.headers);
      return reply.code(known.statusCode).send(errorBody(known.statusCode, known.message));
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      return reply.code(400).send(errorBody(400, fastifyError.message));
    }
    if (isUniqueViolation(error)) {
      return reply.code(409).send(errorBody(409, 'A conflicting object already exists'));
    }
    if (isForeignKeyViolation(error)) {
      return reply.code(400).send(errorBody(400, 'The request refers to an object that does not exist'));
    }
    const status = fastifyError.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Framework errors: malformed JSON (400), body too large (413), media type (415), 429.
      return reply.code(status).send(errorBody(status, fastifyError.message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody(500, 'Internal server error'));
  });

  app.setNotFoundHandler((request, reply) => {
    // The path is echoed only when short: a long one is noise, and may carry a capability.
    const path = request.url.split('?')[0];
    reply.code(404).send(errorBody(404, path.length <= 100 ? `No route for ${request.method} ${path}` : `No route for ${request.method} on this path`));
  });
}
