import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

/*
 * Validates Quire's responses against the response schemas of GitBook's own OpenAPI
 * document (from the @gitbook/api package), so GitBook's client and types accept them.
 */

const require = createRequire(import.meta.url);
const document = require('@gitbook/api/spec/openapi.json') as {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, any> }>>;
};

interface Operation {
  method: string;
  operationId: string;
  pattern: RegExp;
  path: string;
  params: number;
}

const operations: Operation[] = [];
for (const [path, methods] of Object.entries(document.paths)) {
  for (const [method, op] of Object.entries(methods)) {
    if (!op || typeof op !== 'object' || !op.operationId) continue;
    const source = ('/v1' + path).replace(/\/$/, '').replace(/\{[^}]+\}/g, '[^/]+');
    operations.push({
      method: method.toUpperCase(),
      operationId: op.operationId,
      path,
      pattern: new RegExp(`^${source}/?$`),
      params: (path.match(/\{/g) ?? []).length,
    });
  }
}
// Literal segments beat parameters: /versions/latest before /versions/{id}.
operations.sort((a, b) => a.params - b.params);

function gitbookAjv(allErrors: boolean): Ajv2020 {
  const instance = new Ajv2020({ strict: false, allErrors, validateFormats: true });
  addFormats.default(instance);
  for (const format of ['emoji', 'icon', 'int32', 'int64', 'float', 'double', 'binary', 'byte', 'password', 'url']) {
    if (!instance.formats[format]) instance.addFormat(format, true);
  }
  instance.addSchema(document as object, 'gitbook');
  return instance;
}

// Responses: every error, for readable failures. Components (documents validated by the
// thousand): first error only, since allErrors makes GitBook's deep oneOf trees very slow.
const ajv = gitbookAjv(true);
let componentAjv: Ajv2020 | undefined;

const compiled = new Map<string, ValidateFunction | null>();

function pointer(...segments: string[]): string {
  return segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/** The GitBook operation a request maps to, if GitBook has it. */
export function gitbookOperation(method: string, url: string): Operation | undefined {
  const path = url.split('?')[0];
  return operations.find((op) => op.method === method.toUpperCase() && op.pattern.test(path));
}

/** Errors of `body` against GitBook's schema for that response, or null when it conforms (or GitBook has none). */
export function gitbookSchemaErrors(method: string, url: string, status: number, body: unknown): string | null {
  const op = gitbookOperation(method, url);
  if (!op) return null;
  const key = `${op.operationId} ${status}`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    const response = document.paths[op.path][op.method.toLowerCase()].responses?.[String(status)];
    const hasJson = response && response.content && response.content['application/json']?.schema;
    validate = hasJson
      ? ajv.compile({
          $ref: `gitbook#/${pointer('paths', op.path, op.method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`,
        })
      : null;
    compiled.set(key, validate ?? null);
  }
  if (!validate) return null;
  if (validate(body)) return null;
  return `${op.operationId} ${status}: ${ajv.errorsText(validate.errors, { separator: '\n  ' })}`;
}

/** Operation ids that GitBook documents, for coverage checks. */
export function gitbookOperationIds(): Set<string> {
  return new Set(operations.map((o) => o.operationId));
}

const componentValidators = new Map<string, ValidateFunction>();

/** Errors of `value` against one of GitBook's named component schemas, or null when it conforms. */
export function gitbookComponentErrors(name: string, value: unknown): string | null {
  let validate = componentValidators.get(name);
  if (!validate) {
    componentAjv ??= gitbookAjv(false);
    validate = componentAjv.compile({ $ref: `gitbook#/components/schemas/${name}` });
    componentValidators.set(name, validate);
  }
  if (validate(value)) return null;
  return `${name}: ${componentAjv!.errorsText(validate.errors, { separator: '\n  ' })}`;
}
