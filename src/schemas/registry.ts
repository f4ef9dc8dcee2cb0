import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';
import type { FastifyInstance } from 'fastify';

/*
 * Named wire shapes. Each is added to Fastify once (so validation, serialization and the
 * OpenAPI document share it) and referenced by `$ref` wherever it is embedded, which makes
 * it a named component of /v1/openapi.json.
 */
const components = new Map<string, TSchema>();

/** Declares a named wire shape; `id` becomes its OpenAPI component name. */
export function component<T extends TSchema>(id: string, schema: T): T {
  if (components.has(id)) throw new Error(`Schema component ${id} is declared twice`);
  (schema as { $id?: string }).$id = id;
  components.set(id, schema);
  return schema;
}

/** A reference to a named wire shape, typed as the shape itself. */
export function ref<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  const id = (schema as { $id?: string }).$id;
  if (!id) throw new Error('ref() needs a schema declared with component()');
  return Type.Unsafe<Static<T>>({ $ref: `${id}#` });
}

/** Every declared component, for validators built outside Fastify's own. */
export function componentSchemas(): TSchema[] {
  return [...components.values()];
}

/** Adds every declared component to the app; call before routes are registered. */
export function registerComponents(app: FastifyInstance): void {
  for (const schema of components.values()) app.addSchema(schema);
}
