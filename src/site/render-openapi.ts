import { markdownToDocument } from '../content/markdown/parse.ts';
import {
  curlExample,
  javascriptExample,
  namedSchema,
  operationView,
  pythonExample,
  schemaNames,
  schemasExpansion,
  webhookView,
  type OperationView,
  type SchemaNode,
  type SpecModel,
  type ViewBudget,
} from '../content/openapi/view.ts';
import { escapeHtml } from './html.ts';
import { renderDocument } from './render-document.ts';

/*
 * OpenAPI blocks on published sites: an operation (or webhook) as an API reference, and a
 * spec's schemas. The view model comes from src/content/openapi; this is only HTML. Tabs
 * and copy buttons reuse the page's own markup (.tabs, .code), so they work without more
 * script, and the themes' CSS variables color everything.
 */

export interface OpenAPIRenderOptions {
  /** Makes tab group names unique within a page. */
  uid: string;
  /** Omit the title and description (the page shows them). */
  headless?: boolean;
  /** The page's budget, shared by its OpenAPI blocks (a fresh one when absent). */
  budget?: ViewBudget;
}

const LOCATIONS: [ParameterIn, string][] = [
  ['path', 'Path parameters'],
  ['query', 'Query parameters'],
  ['header', 'Headers'],
  ['cookie', 'Cookies'],
];
type ParameterIn = 'path' | 'query' | 'header' | 'cookie';

function markdown(text: string | undefined): string {
  if (!text) return '';
  return renderDocument(markdownToDocument(text)).html;
}

const value = (v: unknown) => escapeHtml(typeof v === 'string' ? v : JSON.stringify(v));

function schemaMeta(node: SchemaNode): string {
  const parts: string[] = [];
  parts.push(`<span class="oa-type">${escapeHtml(node.refName && !node.type.includes(node.refName) ? `${node.type} (${node.refName})` : node.type)}</span>`);
  if (node.required) parts.push('<span class="oa-required">required</span>');
  if (node.deprecated) parts.push('<span class="oa-deprecated">deprecated</span>');
  if (node.readOnly) parts.push('<span class="oa-flag">read-only</span>');
  return parts.join(' ');
}

function schemaDetails(node: SchemaNode): string {
  let out = node.description ? `<div class="oa-desc">${markdown(node.description)}</div>` : '';
  if (node.enum) out += `<div class="oa-enum">Possible values: ${node.enum.map((v) => `<code>${value(v)}</code>`).join(' ')}</div>`;
  if (node.default !== undefined) out += `<div class="oa-default">Default: <code>${value(node.default)}</code></div>`;
  if (node.pattern) out += `<div class="oa-default">Pattern: <code>${escapeHtml(node.pattern)}</code></div>`;
  if (node.example !== undefined && typeof node.example !== 'object') out += `<div class="oa-default">Example: <code>${value(node.example)}</code></div>`;
  return out;
}

/** The children of a schema: properties, array items' properties, or alternatives. */
function schemaChildren(node: SchemaNode): string {
  const target = node.items && !node.properties ? node.items : node;
  let out = '';
  if (target.properties?.length) out += `<ul class="oa-props">${target.properties.map(property).join('')}</ul>`;
  const alternatives = target.alternatives ?? node.alternatives;
  if (alternatives) {
    out += `<div class="oa-alternatives"><div class="oa-alt-label">${alternatives.kind === 'oneOf' ? 'One of' : 'Any of'}</div><ol>`;
    out += alternatives.options
      .map((option, i) => `<li><div class="oa-alt-title">${escapeHtml(option.title ?? option.refName ?? `Option ${i + 1}`)} ${schemaMeta(option)}</div>${schemaDetails(option)}${schemaChildren(option)}</li>`)
      .join('');
    out += '</ol></div>';
  }
  if (target.truncated) out += `<div class="oa-truncated">${escapeHtml(target.refName ?? 'object')} (see above)</div>`;
  if (target.omitted) out += `<div class="oa-truncated">${escapeHtml(target.refName ?? 'object')} (not shown: this page's API reference is too large)</div>`;
  return out;
}

function property(node: SchemaNode): string {
  const head = `<code class="oa-name">${escapeHtml(node.name ?? '')}</code> ${schemaMeta(node)}`;
  const children = schemaChildren(node);
  if (!children) return `<li class="oa-prop"><div class="oa-prop-head">${head}</div>${schemaDetails(node)}</li>`;
  return `<li class="oa-prop"><details class="oa-nested"><summary class="oa-prop-head">${head}</summary>${schemaDetails(node)}${children}</details></li>`;
}

/** A schema shown at the top of a body or response: its description and its fields. */
export function schemaBlock(node: SchemaNode): string {
  const children = schemaChildren(node);
  return `<div class="oa-schema">${children ? '' : `<div>${schemaMeta(node)}</div>`}${schemaDetails(node)}${children}</div>`;
}

function codeBox(title: string, text: string): string {
  const lines = text.split('\n').map((line) => `<span class="line">${escapeHtml(line)}</span>`);
  return (
    `<div class="code"><div class="code-head"><span class="code-title">${escapeHtml(title)}</span>` +
    `<button type="button" class="copy-code" aria-label="Copy code">Copy</button></div>` +
    `<pre class="shiki" tabindex="0"><code>${lines.join('\n')}</code></pre></div>`
  );
}

function tabs(uid: string, items: { title: string; html: string }[]): string {
  let out = '<div class="tabs oa-tabs">';
  items.forEach((item, i) => {
    const id = `${uid}-${i}`;
    out += `<input type="radio" class="tab-radio" name="${uid}" id="${id}"${i === 0 ? ' checked' : ''}>`;
    out += `<label class="tab-label" for="${id}">${escapeHtml(item.title)}</label><div class="tab-panel">${item.html}</div>`;
  });
  return `${out}</div>`;
}

const statusClass = (status: string) => (/^[1-5]/.test(status) ? `oa-s${status[0]}` : 'oa-s0');

export function renderOperation(op: OperationView, options: OpenAPIRenderOptions, kind: 'operation' | 'webhook' = 'operation'): string {
  const anchor = `${kind === 'webhook' ? 'webhook' : op.method}-${op.path}`.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  let main = '';
  if (!options.headless) {
    if (op.summary) main += `<h3 class="oa-summary">${escapeHtml(op.summary)}</h3>`;
    if (op.description) main += `<div class="oa-description">${markdown(op.description)}</div>`;
  }
  if (op.deprecated) main += '<div class="hint hint-warning oa-deprecation" role="note"><p>This operation is deprecated.</p></div>';
  if (op.security.length) {
    main += `<h4>Authorization</h4><ul class="oa-security">${op.security
      .map((s) => `<li><code>${escapeHtml(s.name)}</code> ${escapeHtml(s.type)}${s.scopes.length ? ` (scopes: ${s.scopes.map((sc) => `<code>${escapeHtml(sc)}</code>`).join(', ')})` : ''}</li>`)
      .join('')}</ul>`;
  }
  for (const [where, title] of LOCATIONS) {
    const params = op.parameters.filter((p) => p.in === where);
    if (!params.length) continue;
    main += `<h4>${title}</h4><ul class="oa-props oa-params">${params
      .map((p) => property({ ...p.schema, name: p.name, required: p.required, deprecated: p.deprecated || p.schema.deprecated, description: p.description ?? p.schema.description }))
      .join('')}</ul>`;
  }
  if (op.body) {
    main += `<h4>Body <span class="oa-content-type">${escapeHtml(op.body.contentType)}</span>${op.body.required ? ' <span class="oa-required">required</span>' : ''}</h4>`;
    if (op.body.description) main += markdown(op.body.description);
    main += schemaBlock(op.body.schema);
  }
  if (op.responses.length) {
    main += `<h4>Responses</h4><div class="oa-responses">${op.responses
      .map(
        (r) =>
          `<details class="oa-response"${/^2/.test(r.status) ? ' open' : ''}><summary><span class="oa-status ${statusClass(r.status)}">${escapeHtml(r.status)}</span> ` +
          `<span class="oa-response-desc">${escapeHtml(r.description.split('\n')[0] ?? '')}</span>${r.contentType ? ` <span class="oa-content-type">${escapeHtml(r.contentType)}</span>` : ''}</summary>` +
          `${r.description.includes('\n') ? markdown(r.description) : ''}${r.schema ? schemaBlock(r.schema) : ''}</details>`,
      )
      .join('')}</div>`;
  }
  let aside = '';
  if (kind === 'operation') {
    aside += tabs(`${options.uid}-req`, [
      { title: 'cURL', html: codeBox('Request', curlExample(op)) },
      { title: 'JavaScript', html: codeBox('Request', javascriptExample(op)) },
      { title: 'Python', html: codeBox('Request', pythonExample(op)) },
    ]);
  } else if (op.body?.example !== undefined) {
    aside += codeBox('Payload', JSON.stringify(op.body.example, null, 2));
  }
  const examples = op.responses.filter((r) => r.example !== undefined);
  if (examples.length) {
    aside += tabs(
      `${options.uid}-res`,
      examples.map((r) => ({ title: r.status, html: codeBox(`Response ${r.status}`, typeof r.example === 'string' ? r.example : JSON.stringify(r.example, null, 2)) })),
    );
  }
  const method = kind === 'webhook' ? 'webhook' : op.method;
  return (
    `<section class="openapi-operation" id="${escapeHtml(anchor)}" data-method="${escapeHtml(op.method)}">` +
    `<div class="oa-head"><span class="oa-method oa-m-${escapeHtml(method)}">${escapeHtml(kind === 'webhook' ? `${op.method.toUpperCase()} webhook` : op.method.toUpperCase())}</span>` +
    `<code class="oa-path">${escapeHtml(op.path)}</code>${op.deprecated ? ' <span class="oa-deprecated">deprecated</span>' : ''}</div>` +
    (op.server && kind === 'operation' ? `<div class="oa-server">Server: <code>${escapeHtml(op.server)}</code></div>` : '') +
    `<div class="oa-body"><div class="oa-main">${main}</div><div class="oa-aside">${aside}</div></div></section>\n`
  );
}

/** What a block shows when its spec, operation or schema is missing: a note, never an error page. */
export function openapiMissing(what: string): string {
  return `<div class="openapi-operation oa-missing hint hint-warning" role="note"><p>${escapeHtml(what)}</p></div>\n`;
}

export function renderOperationBlock(model: SpecModel | null, spec: string, path: string, method: string, options: OpenAPIRenderOptions): string {
  if (!model) return openapiMissing(`The OpenAPI spec "${spec}" is not available.`);
  const op = operationView(model, path, method, options.budget);
  return op ? renderOperation(op, options) : openapiMissing(`${method.toUpperCase()} ${path} is not in the OpenAPI spec "${spec}".`);
}

export function renderWebhookBlock(model: SpecModel | null, spec: string, name: string, method: string, options: OpenAPIRenderOptions): string {
  if (!model) return openapiMissing(`The OpenAPI spec "${spec}" is not available.`);
  const op = webhookView(model, name, method, options.budget);
  return op ? renderOperation(op, options, 'webhook') : openapiMissing(`The webhook "${name}" is not in the OpenAPI spec "${spec}".`);
}

/** GitBook's openapi-schemas block, and the `models` page of a computed spec (every schema). */
export function renderSchemasBlock(model: SpecModel | null, spec: string, names: string[] | undefined, title?: string, budget?: ViewBudget): string {
  if (!model) return openapiMissing(`The OpenAPI spec "${spec}" is not available.`);
  const list = names && names.length > 0 ? names : schemaNames(model);
  const expansion = schemasExpansion(model, list, budget);
  let out = `<section class="openapi-schemas">${title ? `<h3>${escapeHtml(title)}</h3>` : ''}`;
  for (const name of list) {
    const node = namedSchema(model, name, expansion);
    if (!node) {
      out += openapiMissing(`The schema "${name}" is not in the OpenAPI spec "${spec}".`);
      continue;
    }
    out += `<details class="oa-model" id="model-${escapeHtml(name.toLowerCase().replace(/[^a-z0-9]+/g, '-'))}"><summary><code class="oa-name">${escapeHtml(name)}</code> ${schemaMeta({ ...node, name: undefined })}</summary>${schemaBlock(node)}</details>`;
  }
  return `${out}</section>\n`;
}
