import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toHttpError } from '../errors.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../db/errors.ts';

/** Renders GitBook's error body. */
export function errorBody(code: number, message: string) {
  return { error: { code, message } };
}

/** What the caller is told about an error: its status, a message safe to show, and headers. */
export interface Failure {
  status: number;
  message: string;
  headers?: Record<string, string>;
  /** The error itself, for a page that has its own words for one kind (SSO's refusals). */
  error: unknown;
}

/** Shows a failure as something other than GitBook's JSON body (the HTML pages of browser routes). */
export type ErrorPage = (failure: Failure, request: FastifyRequest, reply: FastifyReply) => FastifyReply;

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by showErrorsAs in the context of routes that answer browsers with pages. */
    errorPage?: ErrorPage;
  }
}

/**
 * The one mapping of errors to what the caller is told: service and domain errors keep
 * their status and message, validation errors name the field, constraint errors become
 * 409/400, and 5xx never leak stacks or SQL (they are logged instead).
 */
export function failureOf(error: unknown, request: FastifyRequest): Failure {
  // Service errors, and the lower layers' domain errors mapped to their statuses.
  const known = toHttpError(error);
  if (known) return { status: known.statusCode, message: known.message, headers: known.headers, error };
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return { status: 400, message: fastifyError.message, error };
  if (isUniqueViolation(error)) return { status: 409, message: 'A conflicting object already exists', error };
  if (isForeignKeyViolation(error)) return { status: 400, message: 'The request refers to an object that does not exist', error };
  const status = fastifyError.statusCode ?? 500;
  // Framework errors: malformed JSON (400), body too large (413), media type (415), 429.
  if (status >= 400 && status < 500) return { status, message: fastifyError.message, error };
  request.log.error({ err: error }, 'request failed');
  return { status: 500, message: 'Internal server error', error };
}

/**
 * Routes registered in `app` (an encapsulated context: a plugin not wrapped by
 * fastify-plugin) show their failures with `page`; the mapping stays failureOf's.
 */
export function showErrorsAs(app: FastifyInstance, page: ErrorPage): void {
  app.decorate('errorPage', page);
}

/** The one error handler: failureOf decides, the route's context chooses how it is shown. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    const failure = failureOf(error, request);
    // reply.server is the context the route was registered in, with its decorators.
    const page = reply.server.errorPage;
    if (page) return page(failure, request, reply);
    if (failure.headers) reply.headers(failure.headers);
    return reply.code(failure.status).send(errorBody(failure.status, failure.message));
  });

  app.setNotFoundHandler((request, reply) => {
    // The path is echoed only when short: a long one is noise, and may carry a capability.
    const path = request.url.split('?')[0];
    reply.code(404).send(errorBody(404, path.length <= 100 ? `No route for ${request.method} ${path}` : `No route for ${request.method} on this path`));
  });
}
