/*
 * JSONDocument validation for documents that hold buttons. GitBook's published schema cannot
 * validate any labelled button: `DocumentInlineButton.data` is an `allOf` of the label/kind
 * properties and a `oneOf` whose branches say `additionalProperties: false`, which then
 * forbids `label` and `kind` themselves. So each button is checked in its two halves (a
 * valid `ContentRef`, a label and a kind of the schema's enum) and the rest of the document
 * with the button in place of a link of the same label and reference.
 */
import { gitbookComponentErrors } from './gitbook-schema.ts';
import { beyondSchema, type Container } from '../src/content/markdown/dialect.ts';

/** The container a block's `nodes` are (dialect.ts names), for the blocks that are containers. */
const CONTAINER_OF: Record<string, Container> = {
  'list-item': 'list-item', blockquote: 'blockquote', hint: 'hint', 'tabs-item': 'tabs-item', 'stepper-step': 'stepper-step', update: 'update', column: 'column', 'expandable-body': 'expandable-body',
};

export function documentSchemaErrors(document: unknown): string | null {
  const problems: string[] = [];
  const swap = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(swap);
    if (!node || typeof node !== 'object') return node;
    const object = node as Record<string, unknown>;
    // A block GitBook writes where its published schema does not list it (dialect.ts, a
    // table in a tab): checked on its own as a top-level block, an empty paragraph in its place.
    const container = CONTAINER_OF[String(object.type ?? object.fragment)];
    if (container && Array.isArray(object.nodes) && object.nodes.some((child) => beyondSchema(container, (child as { type: never }).type))) {
      const nodes = object.nodes.map((child) => {
        if (!beyondSchema(container, (child as { type: never }).type)) return child;
        const errors = documentSchemaErrors({ object: 'document', data: {}, nodes: [child] });
        if (errors) problems.push(errors);
        return { object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }] };
      });
      return swap({ ...object, nodes });
    }
    if (object.object === 'inline' && object.type === 'button') {
      const data = object.data as { label?: unknown; kind?: unknown; ref?: unknown; icon?: unknown; action?: unknown };
      // A button links (a ContentRef) or acts (a DocumentAction); one GitBook wrote with neither is kept (dialect.ts).
      if (data.ref !== undefined && data.action !== undefined) problems.push('button: both ref and action');
      const halfErrors = data.ref !== undefined ? gitbookComponentErrors('ContentRef', data.ref) : data.action !== undefined ? gitbookComponentErrors('DocumentAction', data.action) : null;
      if (halfErrors) problems.push(halfErrors);
      if (typeof data.label !== 'string' || (data.kind !== 'primary' && data.kind !== 'secondary')) problems.push(`button: bad label or kind ${JSON.stringify(data)}`);
      if (data.icon !== undefined && typeof data.icon !== 'string') problems.push('button: bad icon');
      const text = { object: 'text', leaves: [{ object: 'leaf', text: String(data.label), marks: [] }] };
      return data.ref !== undefined ? { object: 'inline', type: 'link', isVoid: false, data: { ref: data.ref }, nodes: [text] } : text;
    }
    return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, swap(v)]));
  };
  const rest = gitbookComponentErrors('JSONDocument', swap(document));
  if (rest) problems.push(rest);
  return problems.length > 0 ? problems.join('\n') : null;
}
