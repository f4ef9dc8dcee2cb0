import { atPointer, bundle, type Filesystem } from './filesystem.ts';

/*
 * A spec version as readers see it, free of HTTP and HTML: one bundled document, Swagger
 * 2.0 read as OpenAPI 3 (body parameters become request bodies, `definitions` schemas),
 * operations looked up by path and method, `$ref`s resolved with cycles cut, and example
 * requests and responses generated from schemas or their examples.
 */

type Json = Record<string, any>;

export interface SpecModel {
  document: Json;
  swagger2: boolean;
  title: string;
  servers: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export function specModel(filesystem: Filesystem): SpecModel {
  const entry = Object.keys(filesystem)[0];
  const document = (entry ? bundle(filesystem, entry) : {}) as Json;
  const swagger2 = typeof document.swagger === 'string';
  const servers = swagger2
    ? document.host
      ? [`${(document.schemes?.[0] as string) ?? 'https'}://${document.host}${document.basePath ?? ''}`]
      : []
    : ((document.servers ?? []) as Json[]).map((s) => serverUrl(s)).filter(Boolean);
  return { document, swagger2, title: String(document.info?.title ?? ''), servers };
}

/** A server URL with its variables replaced by their defaults. */
function serverUrl(server: Json): string {
  let url = String(server?.url ?? '');
  for (const [name, variable] of Object.entries((server?.variables ?? {}) as Json)) url = url.replaceAll(`{${name}}`, String(variable?.default ?? ''));
  return url;
}

/** Follows `#/...` references (a chain of them) to the value; undefined when dangling. */
export function deref(model: SpecModel, node: unknown, seen: Set<string> = new Set()): any {
  let value: any = node;
  while (value && typeof value === 'object' && typeof value.$ref === 'string') {
    const ref: string = value.$ref;
    if (!ref.startsWith('#') || seen.has(ref)) return undefined;
    seen.add(ref);
    value = atPointer(model.document, ref.slice(1));
  }
  return value;
}

/* ---------------------------------------------------------------- schemas */

export interface SchemaNode {
  name?: string;
  /** "string", "integer · int64", "object", "array of Order", "string | null"... */
  type: string;
  /** The referenced schema's name, when it came from a `$ref`. */
  refName?: string;
  title?: string;
  description?: string;
  required?: boolean;
  deprecated?: boolean;
  readOnly?: boolean;
  enum?: unknown[];
  default?: unknown;
  example?: unknown;
  pattern?: string;
  properties?: SchemaNode[];
  items?: SchemaNode;
  alternatives?: { kind: 'oneOf' | 'anyOf'; options: SchemaNode[] };
  /** Stopped here: shown above (a `$ref` already expanded in this view, a cycle), or too deep. */
  truncated?: boolean;
  /** Stopped here: the page's budget of schema nodes is spent. */
  omitted?: boolean;
}

const MAX_DEPTH = 8;

/**
 * What one page may expand of its OpenAPI blocks: schema nodes and example values, in
 * all. Each `$ref` is expanded once per view (an operation, a schemas block), so a view
 * is never larger than the spec; the budget bounds what many views of one spec make
 * together (a page of every operation).
 */
export interface ViewBudget {
  nodes: number;
}
export const MAX_PAGE_NODES = 20_000;
export const newViewBudget = (): ViewBudget => ({ nodes: MAX_PAGE_NODES });

/** One view's walk: the references it has expanded, and the page's budget. */
export interface Expansion {
  expanded: Set<string>;
  budget: ViewBudget;
}
const expansionOf = (budget: ViewBudget = newViewBudget()): Expansion => ({ expanded: new Set(), budget });
/** Values one generated example may hold: enough to show the shape, small enough to read. */
export const MAX_EXAMPLE_VALUES = 200;

/** A generated example within its own bound and what is left of the page's budget. */
function exampleWithin(model: SpecModel, schema: unknown, budget: ViewBudget): unknown {
  const own = { nodes: Math.min(MAX_EXAMPLE_VALUES, budget.nodes) };
  const start = own.nodes;
  const example = exampleOf(model, schema, 0, [], own);
  budget.nodes -= start - own.nodes;
  return example;
}

function refName(ref: unknown): string | undefined {
  return typeof ref === 'string' ? ref.split('/').pop() : undefined;
}

function typeText(schema: Json): string {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  let text = types.join(' | ') || (schema.properties ? 'object' : schema.items ? 'array' : schema.oneOf || schema.anyOf ? 'one of' : 'any');
  if (schema.nullable === true && !types.includes('null')) text += ' | null';
  if (schema.format) text += ` · ${schema.format}`;
  return text;
}

/**
 * A schema as a tree readers expand: properties with their flags, items, alternatives.
 * A `$ref` is expanded where the view first meets it; later (and in a cycle) it is a
 * truncated node that the page shows as "see above".
 */
export function schemaNode(model: SpecModel, schema: unknown, extra: { name?: string; required?: boolean } = {}, depth = 0, expansion: Expansion = expansionOf()): SchemaNode {
  const ref = schema && typeof schema === 'object' ? (schema as Json).$ref : undefined;
  const name = refName(ref);
  if (expansion.budget.nodes <= 0) return { ...extra, type: name ?? 'object', refName: name, omitted: true };
  expansion.budget.nodes--;
  if (typeof ref === 'string') {
    if (expansion.expanded.has(ref) || depth > MAX_DEPTH) return { ...extra, type: name ?? 'object', refName: name, truncated: true };
    expansion.expanded.add(ref);
  }
  const resolved = deref(model, schema) as Json | undefined;
  if (!resolved || typeof resolved !== 'object') return { ...extra, type: 'any' };
  const merged = mergeAllOf(model, resolved, new Set(), expansion.budget);
  const node: SchemaNode = { ...extra, type: typeText(merged) };
  if (name) node.refName = name;
  if (merged.title) node.title = String(merged.title);
  if (merged.description) node.description = String(merged.description);
  if (merged.deprecated) node.deprecated = true;
  if (merged.readOnly) node.readOnly = true;
  if (Array.isArray(merged.enum)) node.enum = merged.enum;
  if (merged.default !== undefined) node.default = merged.default;
  if (merged.example !== undefined) node.example = merged.example;
  else if (Array.isArray(merged.examples) && merged.examples.length > 0) node.example = merged.examples[0];
  if (merged.pattern) node.pattern = String(merged.pattern);
  if (depth >= MAX_DEPTH) return { ...node, truncated: Boolean(merged.properties || merged.items) };
  if (merged.properties && typeof merged.properties === 'object') {
    const required = new Set<string>(Array.isArray(merged.required) ? merged.required : []);
    node.properties = Object.entries(merged.properties as Json).map(([key, value]) => schemaNode(model, value, { name: key, required: required.has(key) }, depth + 1, expansion));
  }
  if (merged.items) {
    node.items = schemaNode(model, merged.items, {}, depth + 1, expansion);
    node.type = `array of ${node.items.refName ?? node.items.type}`;
  }
  for (const kind of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(merged[kind])) node.alternatives = { kind, options: merged[kind].map((option: unknown) => schemaNode(model, option, {}, depth + 1, expansion)) };
  }
  return node;
}

/**
 * `allOf` parts folded into one schema (properties and required lists joined). A part
 * met twice in one fold is folded once (`folded`), and each part spends the budget.
 */
function mergeAllOf(model: SpecModel, schema: Json, folded: Set<string>, budget: ViewBudget): Json {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...rest } = schema;
  const out: Json = { ...rest, properties: { ...(rest.properties ?? {}) }, required: [...(rest.required ?? [])] };
  for (const part of allOf as unknown[]) {
    const ref = (part as Json)?.$ref;
    if (typeof ref === 'string') {
      if (folded.has(ref)) continue;
      folded.add(ref);
    }
    if (budget.nodes <= 0) break;
    budget.nodes--;
    const resolved = mergeAllOf(model, deref(model, part) ?? {}, folded, budget);
    Object.assign(out.properties, resolved.properties ?? {});
    out.required.push(...(resolved.required ?? []));
    for (const key of ['type', 'description', 'title', 'example'] as const) if (out[key] === undefined && resolved[key] !== undefined) out[key] = resolved[key];
  }
  if (Object.keys(out.properties).length === 0) delete out.properties;
  return out;
}

/**
 * An example value for a schema: its example, default or first enum value, else one made
 * from its type. Made values spend the budget: past it, objects and arrays stay empty.
 */
export function exampleOf(model: SpecModel, schema: unknown, depth = 0, path: string[] = [], budget: ViewBudget = newViewBudget()): unknown {
  const ref = schema && typeof schema === 'object' ? (schema as Json).$ref : undefined;
  if (ref && path.includes(ref)) return {};
  const resolved = deref(model, schema) as Json | undefined;
  if (!resolved || typeof resolved !== 'object' || depth > MAX_DEPTH) return null;
  const s = mergeAllOf(model, resolved, new Set(ref ? [ref] : []), budget);
  const next = ref ? [...path, ref] : path;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (s.const !== undefined) return s.const;
  const alternatives = s.oneOf ?? s.anyOf;
  if (Array.isArray(alternatives) && alternatives.length > 0) return exampleOf(model, alternatives[0], depth + 1, next, budget);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  if (type === 'object' || (!type && s.properties)) {
    const out: Json = {};
    for (const [key, value] of Object.entries((s.properties ?? {}) as Json)) {
      if ((deref(model, value) as Json | undefined)?.writeOnly) continue;
      if (budget.nodes <= 0) break;
      budget.nodes--;
      out[key] = exampleOf(model, value, depth + 1, next, budget);
    }
    return out;
  }
  if (type === 'array') {
    if (!s.items || budget.nodes <= 0) return [];
    budget.nodes--;
    return [exampleOf(model, s.items, depth + 1, next, budget)];
  }
  if (type === 'integer' || type === 'number') return s.minimum ?? 0;
  if (type === 'boolean') return true;
  if (type === 'string') {
    const formats: Record<string, string> = { 'date-time': '2024-01-01T00:00:00Z', date: '2024-01-01', email: 'name@example.com', uuid: '123e4567-e89b-12d3-a456-426614174000', uri: 'https://example.com', url: 'https://example.com' };
    return formats[s.format] ?? 'text';
  }
  return null;
}

/** The example a schema states (example, default, first enum value), or undefined. */
function givenExample(model: SpecModel, schema: unknown): unknown {
  const s = deref(model, schema) as Json | undefined;
  if (!s) return undefined;
  return s.example ?? (Array.isArray(s.examples) ? s.examples[0] : undefined) ?? s.default ?? (Array.isArray(s.enum) ? s.enum[0] : undefined);
}

/* ---------------------------------------------------------------- operations */

export interface ParameterView {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  deprecated: boolean;
  description?: string;
  schema: SchemaNode;
  example: unknown;
}

export interface BodyView {
  contentType: string;
  required: boolean;
  description?: string;
  schema: SchemaNode;
  example: unknown;
}

export interface ResponseView {
  status: string;
  description: string;
  contentType?: string;
  schema?: SchemaNode;
  example?: unknown;
}

export interface OperationView {
  method: string;
  path: string;
  server: string;
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  tags: string[];
  security: { name: string; type: string; scopes: string[] }[];
  parameters: ParameterView[];
  body?: BodyView;
  responses: ResponseView[];
}

/** The operation at `path` and `method`, or null when the spec has none. */
export function operationView(model: SpecModel, path: string, method: string, budget: ViewBudget = newViewBudget()): OperationView | null {
  const item = deref(model, model.document.paths?.[path]) as Json | undefined;
  return item ? operationOf(model, item, path, method, budget) : null;
}

/** A webhook (OpenAPI 3.1 `webhooks`) shown like an operation; its "path" is its name. */
export function webhookView(model: SpecModel, name: string, method: string, budget: ViewBudget = newViewBudget()): OperationView | null {
  const item = deref(model, model.document.webhooks?.[name]) as Json | undefined;
  return item ? operationOf(model, item, name, method, budget) : null;
}

/** Every operation of the spec, in document order. */
export function listOperations(model: SpecModel): { path: string; method: string; summary?: string; tags: string[] }[] {
  const out: { path: string; method: string; summary?: string; tags: string[] }[] = [];
  for (const [path, raw] of Object.entries((model.document.paths ?? {}) as Json)) {
    const item = deref(model, raw) as Json | undefined;
    for (const method of METHODS) if (item?.[method]) out.push({ path, method, summary: item[method].summary, tags: item[method].tags ?? [] });
  }
  return out;
}

/** The names of the spec's schemas (components.schemas, or Swagger 2.0 definitions). */
export function schemaNames(model: SpecModel): string[] {
  return Object.keys((model.swagger2 ? model.document.definitions : model.document.components?.schemas) ?? {});
}

const schemaPointer = (model: SpecModel, name: string) => `${model.swagger2 ? '#/definitions/' : '#/components/schemas/'}${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * The walk of a schemas block: every schema it lists is shown at its own place, so inside
 * another one it is "see above" rather than expanded again.
 */
export function schemasExpansion(model: SpecModel, names: string[], budget: ViewBudget = newViewBudget()): Expansion {
  return { expanded: new Set(names.map((name) => schemaPointer(model, name))), budget };
}

export function namedSchema(model: SpecModel, name: string, expansion: Expansion = expansionOf()): SchemaNode | null {
  const pointer = schemaPointer(model, name);
  if (deref(model, { $ref: pointer }) === undefined) return null;
  expansion.expanded.delete(pointer);
  return schemaNode(model, { $ref: pointer }, { name }, 0, expansion);
}

function operationOf(model: SpecModel, item: Json, path: string, method: string, budget: ViewBudget): OperationView | null {
  const expansion = expansionOf(budget);
  const m = method.toLowerCase();
  const op = item[m] as Json | undefined;
  if (!op || typeof op !== 'object') return null;
  const params = new Map<string, Json>();
  for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
    const p = deref(model, raw) as Json | undefined;
    if (p?.name && p.in) params.set(`${p.in}:${p.name}`, p);
  }
  let body: BodyView | undefined;
  const parameters: ParameterView[] = [];
  const formFields: Json = {};
  const formRequired: string[] = [];
  for (const p of params.values()) {
    if (p.in === 'body') {
      const contentType = (op.consumes ?? model.document.consumes ?? ['application/json'])[0];
      body = { contentType, required: Boolean(p.required), description: p.description, schema: schemaNode(model, p.schema, {}, 0, expansion), example: exampleWithin(model, p.schema, budget) };
      continue;
    }
    // Swagger 2.0 keeps the schema's keywords on the parameter itself.
    const schema = p.schema ?? { type: p.type, format: p.format, enum: p.enum, items: p.items, default: p.default };
    if (p.in === 'formData') {
      formFields[p.name] = { ...schema, description: p.description };
      if (p.required) formRequired.push(p.name);
      continue;
    }
    parameters.push({
      name: String(p.name),
      in: p.in,
      required: Boolean(p.required) || p.in === 'path',
      deprecated: Boolean(p.deprecated),
      description: p.description,
      schema: schemaNode(model, schema, {}, 0, expansion),
      example: p.example ?? givenExample(model, schema),
    });
  }
  if (Object.keys(formFields).length > 0) {
    const schema = { type: 'object', properties: formFields, required: formRequired };
    body = { contentType: (op.consumes ?? ['application/x-www-form-urlencoded'])[0], required: formRequired.length > 0, schema: schemaNode(model, schema, {}, 0, expansion), example: exampleWithin(model, schema, budget) };
  }
  const requestBody = deref(model, op.requestBody) as Json | undefined;
  if (requestBody?.content) {
    const [contentType, media] = preferredMedia(requestBody.content);
    if (contentType) {
      body = {
        contentType,
        required: Boolean(requestBody.required),
        description: requestBody.description,
        schema: schemaNode(model, media?.schema, {}, 0, expansion),
        example: mediaExample(model, media, budget),
      };
    }
  }
  const responses: ResponseView[] = [];
  for (const [status, raw] of Object.entries((op.responses ?? {}) as Json)) {
    const r = deref(model, raw) as Json | undefined;
    if (!r) continue;
    const view: ResponseView = { status, description: String(r.description ?? '') };
    if (model.swagger2 && r.schema) {
      view.contentType = (op.produces ?? model.document.produces ?? ['application/json'])[0];
      view.schema = schemaNode(model, r.schema, {}, 0, expansion);
      view.example = r.examples?.[view.contentType!] ?? exampleWithin(model, r.schema, budget);
    } else if (r.content) {
      const [contentType, media] = preferredMedia(r.content);
      if (contentType) {
        view.contentType = contentType;
        if (media?.schema) view.schema = schemaNode(model, media.schema, {}, 0, expansion);
        view.example = mediaExample(model, media, budget);
      }
    }
    responses.push(view);
  }
  const schemes = (model.swagger2 ? model.document.securityDefinitions : model.document.components?.securitySchemes) ?? {};
  const security: OperationView['security'] = [];
  for (const requirement of (op.security ?? model.document.security ?? []) as Json[]) {
    for (const [name, scopes] of Object.entries(requirement)) {
      const scheme = deref(model, schemes[name]) as Json | undefined;
      security.push({ name, type: scheme ? schemeText(scheme) : name, scopes: Array.isArray(scopes) ? scopes : [] });
    }
  }
  const servers = (op.servers ?? item.servers) as Json[] | undefined;
  return {
    method: m,
    path,
    server: servers?.[0] ? serverUrl(servers[0]) : (model.servers[0] ?? ''),
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    deprecated: Boolean(op.deprecated),
    tags: op.tags ?? [],
    security,
    parameters,
    body,
    responses,
  };
}

function schemeText(scheme: Json): string {
  if (scheme.type === 'http') return scheme.scheme === 'bearer' ? 'Bearer token' : `HTTP ${scheme.scheme ?? ''}`.trim();
  if (scheme.type === 'apiKey') return `API key in ${scheme.in} "${scheme.name}"`;
  if (scheme.type === 'basic') return 'HTTP basic';
  if (scheme.type === 'oauth2') return 'OAuth 2.0';
  if (scheme.type === 'openIdConnect') return 'OpenID Connect';
  return String(scheme.type ?? '');
}

function preferredMedia(content: Json): [string | undefined, Json | undefined] {
  const types = Object.keys(content);
  const type = types.find((t) => /json/.test(t)) ?? types[0];
  return [type, type ? content[type] : undefined];
}

function mediaExample(model: SpecModel, media: Json | undefined, budget: ViewBudget): unknown {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = media.examples ? (deref(model, Object.values(media.examples)[0]) as Json | undefined) : undefined;
  if (first?.value !== undefined) return first.value;
  return media.schema ? exampleWithin(model, media.schema, budget) : undefined;
}

/* ---------------------------------------------------------------- code samples */

function exampleUrl(op: OperationView): string {
  let path = op.path;
  // Path parameters without an example stay `{name}`: the reader sees what to fill in.
  for (const p of op.parameters.filter((p) => p.in === 'path' && p.example !== undefined)) path = path.replace(`{${p.name}}`, encodeURIComponent(String(p.example)));
  const query = op.parameters.filter((p) => p.in === 'query' && p.required).map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.example ?? `{${p.name}}`))}`);
  return `${op.server.replace(/\/$/, '')}${path}${query.length ? `?${query.join('&')}` : ''}`;
}

function exampleHeaders(op: OperationView): [string, string][] {
  const headers: [string, string][] = [];
  for (const s of op.security) {
    if (/Bearer|OAuth|OpenID/.test(s.type)) headers.push(['Authorization', 'Bearer YOUR_TOKEN']);
    else if (s.type === 'HTTP basic') headers.push(['Authorization', 'Basic BASE64_CREDENTIALS']);
    else {
      const header = /^API key in header "(.+)"$/.exec(s.type);
      if (header) headers.push([header[1]!, 'YOUR_API_KEY']);
    }
  }
  for (const p of op.parameters.filter((p) => p.in === 'header' && p.required)) headers.push([p.name, String(p.example ?? `{${p.name}}`)]);
  if (op.body) headers.push(['Content-Type', op.body.contentType]);
  return headers.filter(([name], i, all) => all.findIndex(([other]) => other.toLowerCase() === name.toLowerCase()) === i);
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlExample(op: OperationView): string {
  const lines = [`curl -X ${op.method.toUpperCase()} ${shellQuote(exampleUrl(op))}`];
  for (const [name, value] of exampleHeaders(op)) lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
  if (op.body && op.body.example !== undefined) lines.push(`  -d ${shellQuote(JSON.stringify(op.body.example, null, 2))}`);
  return lines.join(' \\\n');
}

export function javascriptExample(op: OperationView): string {
  const options: string[] = [`  method: ${JSON.stringify(op.method.toUpperCase())},`];
  const headers = exampleHeaders(op);
  if (headers.length) options.push(`  headers: {\n${headers.map(([n, v]) => `    ${JSON.stringify(n)}: ${JSON.stringify(v)},`).join('\n')}\n  },`);
  if (op.body && op.body.example !== undefined) options.push(`  body: JSON.stringify(${JSON.stringify(op.body.example, null, 2).replace(/\n/g, '\n  ')}),`);
  return `const response = await fetch(${JSON.stringify(exampleUrl(op))}, {\n${options.join('\n')}\n});\nconst data = await response.json();`;
}

export function pythonExample(op: OperationView): string {
  const args = [JSON.stringify(exampleUrl(op))];
  const headers = exampleHeaders(op);
  if (headers.length) args.push(`headers={${headers.map(([n, v]) => `${JSON.stringify(n)}: ${JSON.stringify(v)}`).join(', ')}}`);
  if (op.body && op.body.example !== undefined) args.push(`json=${JSON.stringify(op.body.example).replace(/\btrue\b/g, 'True').replace(/\bfalse\b/g, 'False').replace(/\bnull\b/g, 'None')}`);
  return `import requests\n\nresponse = requests.${op.method.toLowerCase()}(${args.join(', ')})\ndata = response.json()`;
}
