import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import type { TSchema } from 'typebox';
import { badRequest } from '../errors.ts';
import { componentSchemas } from './registry.ts';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

let ajv: Ajv | undefined;
const validators = new WeakMap<TSchema, ValidateFunction>();

/**
 * Asserts that `value` has the wire shape `schema` (a response schema) before it is stored:
 * a value the response serializer would refuse must be refused as a 400 naming the field,
 * before the write commits, not as a 500 after it (and on every read after it). Ajv here
 * never changes the value (no defaults, no coercion, no removal).
 */
export function assertWireShape(schema: TSchema, value: unknown, at = 'body'): void {
  if (!ajv) {
    ajv = new Ajv({ strict: false, allErrors: false });
    addFormats(ajv);
    for (const component of componentSchemas()) ajv.addSchema(component);
  }
  let validate = validators.get(schema);
  if (!validate) {
    const id = (schema as { $id?: string }).$id;
    validate = id ? (ajv.getSchema(id) as ValidateFunction) : ajv.compile(schema);
    validators.set(schema, validate);
  }
  if (validate(value)) return;
  const error = validate.errors?.[0];
  throw badRequest(`${at}${error?.instancePath ?? ''} ${error?.message ?? 'is not valid'} (once the defaults are filled in)`);
}
