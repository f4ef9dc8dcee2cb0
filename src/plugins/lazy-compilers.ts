import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

/*
 * Fastify compiles every route's validators and response serializers when the app gets
 * ready: with Quire's ~150 routes and their GitBook-sized response schemas that was 14 s of
 * a 16 s start, for routes most processes never serve. These wrappers compile a schema on
 * its first use instead, once, with the very same compiler, so behaviour is unchanged and
 * the cost is spread over the first request of each route (tens of milliseconds).
 */

type Serialize = (data: unknown) => string;
type SerializerBuilder = (externalSchemas: unknown, options: unknown) => (route: unknown) => Serialize;

const eagerSerializers = SerializerSelector() as unknown as SerializerBuilder;

/** fast-json-stringify serializers (Fastify's own default), compiled on first use. */
const lazySerializers: SerializerBuilder = (externalSchemas, options) => {
  const compile = eagerSerializers(externalSchemas, options);
  return (route) => {
    let serialize: Serialize | undefined;
    return (data) => (serialize ??= compile(route))(data);
  };
};

/** Fastify options that make response serializers lazy (see above). */
export const lazySchemaController = {
  compilersFactory: { buildSerializer: lazySerializers },
} as unknown as NonNullable<FastifyServerOptions['schemaController']>;

/** An Ajv-style validate function: called with data (and Ajv's parent context), errors after. */
export interface ValidateFunction {
  (data: unknown, context?: any): unknown;
  errors?: unknown;
  schemaEnv?: unknown;
}

/**
 * Wraps a validator compilation so it happens on the first validation. Fastify reads
 * `errors` after a failed call and `schemaEnv` to pass Ajv its parent data (so a root
 * value can be coerced): both are forwarded to the compiled function.
 */
export function compileOnFirstUse(compile: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const get = () => (compiled ??= compile());
  const validate = ((data: unknown, context?: unknown) =>
    context === undefined ? get()(data) : get()(data, context)) as ValidateFunction;
  Object.defineProperties(validate, {
    errors: { get: () => compiled?.errors },
    schemaEnv: { get: () => get().schemaEnv },
  });
  return validate;
}
