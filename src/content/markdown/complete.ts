/*
 * Documents from outside (an API caller's JSON): GitBook's schema lets callers leave out
 * parts the library relies on (`data`, `nodes`, `leaves`, `marks`). They are filled in
 * (`isVoid` is not: nothing reads it, and a block left as the markdown reader made it keeps
 * the fingerprint its page's kept written form was taken with), the document is brought to
 * the normal form, and one the library still cannot write is refused.
 */
import { documentToMarkdown } from './write.ts';
import { assignKeys, normalizeDocument } from './normalize.ts';
import type { Document } from './types.ts';
import { InvalidContentDocument } from '../errors.ts';

/** Thrown by completeDocument; the message says what is wrong, for a 400. */
export class InvalidDocument extends InvalidContentDocument {}

function fill(node: unknown): unknown {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
  const n = { ...(node as Record<string, unknown>) };
  if (n.object === 'block' || n.object === 'inline') {
    n.data ??= {};
    n.nodes = Array.isArray(n.nodes) ? n.nodes.map(fill) : [];
  }
  if (n.object === 'text') n.leaves = (Array.isArray(n.leaves) ? n.leaves : []).map((l) => ({ marks: [], text: '', ...(l as object) }));
  if (Array.isArray(n.fragments)) n.fragments = n.fragments.map(fill);
  return n;
}

export interface CompleteOptions {
  /**
   * A page's document: the caller's `data` goes through the normal form, which keeps what
   * the engine knows of it (`escapeParentheses`, the kept written forms whose blocks are
   * still there: docs/decisions/markdown.md), so a client that read a page and writes it
   * back (the editor) does not rewrite its untouched blocks. Other documents (comments,
   * descriptions) stay canonical, as their markdown is read without written forms.
   */
  keepWrittenForm?: boolean;
}

/** A caller's document, completed and normalized, with keys; InvalidDocument when it is none. */
export function completeDocument(input: unknown, options: CompleteOptions = {}): Document {
  const nodes = (input as { nodes?: unknown } | null)?.nodes;
  if (!input || typeof input !== 'object' || (input as { object?: unknown }).object !== 'document' || !Array.isArray(nodes)) {
    throw new InvalidDocument('it must be { object: "document", nodes: [...] }');
  }
  try {
    const given = (input as { data?: unknown }).data;
    const data = options.keepWrittenForm && given && typeof given === 'object' && !Array.isArray(given) ? given : {};
    const document = normalizeDocument({ object: 'document', data, nodes: nodes.map(fill) } as Document);
    documentToMarkdown(document);
    return assignKeys(document);
  } catch (error) {
    // A type error or runaway recursion inside the library means nodes it does not know.
    throw new InvalidDocument(error instanceof RangeError || error instanceof TypeError ? 'unknown or malformed nodes' : (error as Error).message);
  }
}
