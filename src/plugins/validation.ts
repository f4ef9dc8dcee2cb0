import { Ajv, type Options } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { componentSchemas } from '../schemas/registry.ts';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ removeAdditional: true, useDefaults: true, allErrors: false, strict: false, ...options });
  addFormats(ajv);
  for (const schema of componentSchemas()) ajv.addSchema(schema);
  return ajv;
}

/**
 * Request validation. Query strings and paths arrive as text, so they are coerced to the
 * schema's types; JSON bodies are not: `{"title": 42}` is a 400, as on GitBook, not "42".
 */
export function registerValidation(app: FastifyInstance): void {
  const coercing = makeAjv({ coerceTypes: 'array' });
  const strict = makeAjv({ coerceTypes: false });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema) as ReturnType<Ajv['compile']>,
  );
}
