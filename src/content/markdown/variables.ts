/*
 * Evaluating GitBook variable expressions.
 *
 * An expression is an `expression` inline; markdown writes it as
 * `<code class="expression">space.vars.name</code>` (GitBook's form) or `{{ space.vars.name }}`.
 * Supported expressions are plain variable references: `space.vars.NAME`, `page.vars.NAME`
 * and the bracket forms `space.vars["NAME"]` / `page.vars['NAME']`. The variables map is
 * keyed by the full reference (`space.vars.name`, `page.vars.name`). A reference that is not
 * in the map, or any other expression, is left as it is.
 */
import { markdownToDocument, type ReadOptions } from './parse.ts';
import { documentToMarkdown, type WriteOptions } from './write.ts';
import { assignKeys, normalizeDocument } from './normalize.ts';
import { leaf, textNode } from './leaves.ts';
import type { Block, Document, InlineContent, Text } from './types.ts';

const REFERENCE = /^(space|page)\.vars(?:\.([A-Za-z_$][\w$-]*)|\[(?:"([^"]+)"|'([^']+)')\])$/;

/** The value of an expression, or undefined when it is not a known variable reference. */
export function evaluateExpression(expression: string, variables: Record<string, string>): string | undefined {
  const match = REFERENCE.exec(expression.trim());
  if (!match) return undefined;
  const key = `${match[1]}.vars.${match[2] ?? match[3] ?? match[4]}`;
  return Object.prototype.hasOwnProperty.call(variables, key) ? variables[key] : undefined;
}

/** Replaces the variable expressions of a document (or of a markdown text) by their values. */
export function resolveVariables(input: Document, variables: Record<string, string>): Document;
export function resolveVariables(input: string, variables: Record<string, string>, options?: ReadOptions & WriteOptions): string;
export function resolveVariables(input: Document | string, variables: Record<string, string>, options: ReadOptions & WriteOptions = {}): Document | string {
  if (typeof input === 'string') return documentToMarkdown(resolveVariables(markdownToDocument(input, options), variables), options);
  const resolved: Document = { object: 'document', data: {}, nodes: input.nodes.map((block) => resolveBlock(block, variables)) };
  return assignKeys(normalizeDocument(resolved));
}

function resolveBlock(block: Block, variables: Record<string, string>): Block {
  const copy = { ...block } as Block & { nodes?: unknown[]; fragments?: Array<{ nodes: unknown[] }> };
  if (block.type === 'paragraph' || block.type.startsWith('heading-') || block.type === 'code-line') {
    copy.nodes = resolveInlines((block as { nodes: InlineContent[] }).nodes, variables);
  } else if (Array.isArray(copy.nodes)) {
    copy.nodes = (copy.nodes as Block[]).map((child) => resolveBlock(child, variables));
  }
  if (Array.isArray(copy.fragments)) {
    copy.fragments = copy.fragments.map((f) => ({ ...f, nodes: (f.nodes as Block[]).map((child) => resolveBlock(child, variables)) }));
  }
  return copy as Block;
}

function resolveInlines(nodes: InlineContent[], variables: Record<string, string>): InlineContent[] {
  return nodes.map((node): InlineContent => {
    if (node.object !== 'inline' || node.type !== 'expression') return node;
    const value = evaluateExpression(node.data.expression, variables);
    return value === undefined ? node : (textNode([leaf(value)]) as Text);
  });
}
