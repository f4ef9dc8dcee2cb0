import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import { errorResponses } from '../schemas/common.ts';

/*
 * The shape every JSON operation of the API repeats, written once: its OpenAPI description,
 * its one success status (200, 201 or 204), the GitBook error bodies it may answer, and the
 * reply that goes with the status. Routes with another shape (several success statuses,
 * HTML, public files) stay plain Fastify routes.
 */

type Of<S> = S extends TSchema ? Static<S> : unknown;

/** The request of an operation, typed from its schemas as Fastify's TypeBox provider would. */
export type OperationRequest<P, Q, B> = FastifyRequest<{ Params: Of<P>; Querystring: Of<Q>; Body: Of<B> }>;

type Handler<P, Q, B, T> = (request: OperationRequest<P, Q, B>, reply: FastifyReply) => T | Promise<T>;

interface Described<P, Q, B> {
  operationId: string;
  summary: string;
  /** Instead of the group's tags. */
  tags?: string[];
  deprecated?: boolean;
  params?: P;
  querystring?: Q;
  body?: B;
  /** The error statuses it may answer; 400, 401, 403 and 404 unless said. */
  errors?: number[];
  /** GitBook lets the body out (its fields are all optional): no body reads as `{}`. */
  optionalBody?: boolean;
}

/** Answers 200 with what the handler returns. */
export interface Ok<P, Q, B, R> extends Described<P, Q, B> {
  ok: R;
  handler: Handler<P, Q, B, Of<R>>;
}

/** Answers 201 with what the handler returns. */
export interface Created<P, Q, B, R> extends Described<P, Q, B> {
  created: R;
  /** The `location` header is the created object's `urls.location`. */
  location?: Of<R> extends { urls: { location: string } } ? true : never;
  handler: Handler<P, Q, B, Of<R>>;
}

/** Answers 204 with no body once the handler is done; `noContent` describes the outcome. */
export interface NoContent<P, Q, B> extends Described<P, Q, B> {
  noContent: string | null;
  handler: Handler<P, Q, B, unknown>;
}

type Spec<P, Q, B, R> = Ok<P, Q, B, R> | Created<P, Q, B, R> | NoContent<P, Q, B>;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Define = <P extends TSchema | undefined = undefined, Q extends TSchema | undefined = undefined, B extends TSchema | undefined = undefined, R extends TSchema = TSchema>(
  url: string,
  spec: Spec<P, Q, B, R>,
) => void;

const DEFAULT_ERRORS = [400, 401, 403, 404];

async function emptyBody(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

/**
 * The operations of one group of routes (one OpenAPI tag unless an operation names its own):
 * `operations(app, ['teams']).get(url, { operationId, summary, params, ok, handler })`.
 */
export function operations(app: FastifyInstance<any, any, any, any, any>, tags: string[]): Record<'get' | 'post' | 'put' | 'patch' | 'delete', Define> {
  const define =
    (method: Method): Define =>
    (url, spec) => {
      const errors = errorResponses(...(spec.errors ?? DEFAULT_ERRORS));
      const schema: Record<string, unknown> = { operationId: spec.operationId, tags: spec.tags ?? tags, summary: spec.summary };
      if (spec.deprecated) schema.deprecated = true;
      for (const part of ['params', 'querystring', 'body'] as const) if (spec[part]) schema[part] = spec[part];
      let handler: (request: any, reply: FastifyReply) => unknown;
      if ('ok' in spec) {
        schema.response = { 200: spec.ok, ...errors };
        handler = spec.handler as typeof handler;
      } else if ('created' in spec) {
        schema.response = { 201: spec.created, ...errors };
        handler = async (request, reply) => {
          const created = await spec.handler(request, reply);
          if (spec.location) reply.header('location', (created as { urls: { location: string } }).urls.location);
          return reply.code(201).send(created);
        };
      } else {
        schema.response = { 204: spec.noContent === null ? Type.Null() : Type.Null({ description: spec.noContent }), ...errors };
        handler = async (request, reply) => {
          await spec.handler(request, reply);
          return reply.code(204).send(null);
        };
      }
      app.route({ method, url, schema, handler, ...(spec.optionalBody ? { preValidation: emptyBody } : {}) });
    };
  return { get: define('GET'), post: define('POST'), put: define('PUT'), patch: define('PATCH'), delete: define('DELETE') };
}
