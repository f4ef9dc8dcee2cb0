import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { componentSchemas } from '../schemas/registry.ts';
import { compileOnFirstUse } from './lazy-compilers.ts';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ removeAdditional: true, useDefaults: true, allErrors: false, strict: false, ...options });
  addFormats(ajv);
  // Not checked against the JSON Schema meta-schema here: TypeBox builds them, and the check
  // (twice, one per instance) was a tenth of the start-up time.
  for (const schema of componentSchemas()) ajv.addSchema(schema, undefined, undefined, false);
  return ajv;
}

/**
 * Write bodies whose top level GitBook's document declares open (`additionalProperties: true`):
 * unknown fields there are kept as they are, as on GitBook. Keyed `METHOD route-url`.
 */
const openBodies = new Set(['POST /v1/spaces/:spaceId/change-requests']);

type JsonSchema = Record<string, unknown>;

/**
 * The field names a body schema knows at its top level, or null when it is open (takes any
 * field). Unions know the names of all their branches; `$ref`s are followed.
 */
export function knownTopLevelFields(schema: JsonSchema, byId: Map<string, JsonSchema>, depth = 0): Set<string> | null {
  if (depth > 8) return null;
  if (typeof schema.$ref === 'string') {
    const target = byId.get(schema.$ref.replace(/#$/, ''));
    return target ? knownTopLevelFields(target, byId, depth + 1) : null;
  }
  const branches = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as JsonSchema[] | undefined;
  if (branches) {
    const names = new Set<string>();
    for (const branch of branches) {
      if (branch.type === 'null' || (branch.type !== undefined && branch.type !== 'object' && !branch.properties && !branch.$ref)) continue;
      const known = knownTopLevelFields(branch, byId, depth + 1);
      if (known === null) return null;
      for (const name of known) names.add(name);
    }
    return names;
  }
  if (schema.type !== 'object' && !schema.properties) return null;
  if (schema.patternProperties || (schema.additionalProperties !== undefined && schema.additionalProperties !== false)) return null;
  return new Set(Object.keys((schema.properties as object | undefined) ?? {}));
}

/**
 * Request validation. Query strings and paths arrive as text, so they are coerced to the
 * schema's types; JSON bodies are not: `{"title": 42}` is a 400, as on GitBook, not "42".
 * A write body naming a field its schema does not know is a 400 naming that field (a
 * misspelt `titel` must not silently create an "Untitled" space), unless GitBook's
 * document leaves that body open.
 */
export function registerValidation(app: FastifyInstance): void {
  const coercing = makeAjv({ coerceTypes: 'array' });
  const strict = makeAjv({ coerceTypes: false });
  const byId = new Map<string, JsonSchema>(componentSchemas().map((s) => [String((s as { $id?: string }).$id), s as JsonSchema]));
  // Compiled on first use (lazy-compilers.ts): start-up does not pay for unused routes.
  app.setValidatorCompiler(({ schema, httpPart, method, url }) => {
    if (httpPart !== 'body') return compileOnFirstUse(() => coercing.compile(schema)) as ReturnType<Ajv['compile']>;
    return compileOnFirstUse(() => {
      const compiled = strict.compile(schema);
      const known = openBodies.has(`${method} ${url}`) ? null : knownTopLevelFields(schema as JsonSchema, byId);
      if (known === null) return compiled;
      // Checked before Ajv runs: Ajv's removeAdditional would drop the very fields to name.
      const validate = ((data: unknown) => {
        if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
          const unknown = Object.keys(data).find((name) => !known.has(name));
          if (unknown !== undefined) {
            validate.errors = [
              { instancePath: `/${unknown}`, schemaPath: '#/additionalProperties', keyword: 'additionalProperties', params: { additionalProperty: unknown }, message: 'is not a known field' },
            ];
            return false;
          }
        }
        const valid = compiled(data);
        validate.errors = compiled.errors;
        return valid;
      }) as ValidateFunction;
      return validate;
    }) as ReturnType<Ajv['compile']>;
  });
}
