import type { Block, Document } from '../markdown/types.ts';
import { markdownToDocument } from '../markdown/parse.ts';
import { listOperations, type SpecModel } from './view.ts';

/*
 * The document of a computed page (`computed: { type: builtin:openapi, props }`), made
 * from the spec's latest version. GitBook's props: `doc: models` (every schema),
 * `doc: operations | tag` with `page` (the operations of a tag), `doc: operation` with
 * `page` and `method` (one operation), `doc: info` (the spec's description). Without a
 * known `doc`, every operation.
 */

export interface ComputedProps {
  doc?: unknown;
  page?: unknown;
  method?: unknown;
}

const ref = (spec: string) => ({ kind: 'openapi' as const, spec });

function operationBlock(spec: string, path: string, method: string): Block {
  return { object: 'block', type: 'openapi-operation', isVoid: true, data: { ref: ref(spec), path, method } } as unknown as Block;
}

/** The page's document; null when the spec is not available (the page says so). */
export function computedDocument(model: SpecModel | null, spec: string, props: ComputedProps): Document {
  if (!model) return markdownToDocument(`{% hint style="warning" %}\nThe OpenAPI spec "${spec}" is not available.\n{% endhint %}\n`);
  const doc = typeof props.doc === 'string' ? props.doc : '';
  const page = typeof props.page === 'string' ? props.page : '';
  let nodes: Block[];
  if (doc === 'models') {
    nodes = [{ object: 'block', type: 'openapi-schemas', isVoid: true, data: { ref: ref(spec), schemas: [], grouped: true } } as unknown as Block];
  } else if (doc === 'info') {
    nodes = markdownToDocument(String(model.document.info?.description ?? '')).nodes;
  } else if (doc === 'operation') {
    nodes = [operationBlock(spec, page, typeof props.method === 'string' ? props.method : 'get')];
  } else {
    const operations = listOperations(model).filter((op) => !(doc === 'operations' || doc === 'tag') || op.tags.includes(page) || (!page && op.tags.length === 0));
    nodes = operations.map((op) => operationBlock(spec, op.path, op.method));
  }
  return { object: 'document', data: {}, nodes } as unknown as Document;
}
