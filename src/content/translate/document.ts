import { keyBlock } from '../markdown/normalize.ts';
import type { Document, InlineContent } from '../markdown/types.ts';
import { escapeHtml, inlineSegment, textOfHtml } from './inline-html.ts';

/*
 * What of a document is sent for translation, and the document rebuilt from the answers
 * (docs/decisions/translations.md). Sent: the inline content of every block that holds
 * text (paragraphs, headings, list items' paragraphs, hints, quotes, table cells,
 * captions, expandable titles...), and a few plain-text attributes people read (image
 * alt text, tab titles, table column titles). Never sent, and kept as they are: code
 * blocks, inline code, math, expressions (variables), embeds, files, content references,
 * OpenAPI blocks, HTML and other verbatim markup, every URL and reference (links keep
 * their targets; only their text is translated).
 */

/** Blocks kept whole: nothing inside them is text to translate. */
const KEPT_BLOCKS = new Set(['code', 'code-line', 'math', 'integration', 'embed', 'file', 'content-ref', 'openapi-operation', 'divider']);

export interface ExtractedDocument {
  /** HTML segments to translate, in document order. */
  segments: string[];
  /** The document with each segment replaced by its translation (same order). */
  rebuild(translated: string[]): Document;
}

interface Slot {
  html: string;
  apply(translated: string): void;
}

type AnyNode = { object?: string; type?: string; key?: string; nodes?: AnyNode[]; fragments?: AnyNode[]; data?: Record<string, any> };

/** Whether a segment has any text worth a provider's call (letters, not only placeholders and digits). */
export function hasText(html: string): boolean {
  return /\p{L}/u.test(textOfHtml(html));
}

/** Words of a segment's text, as counted for the translation's stats. */
export function countWords(html: string): number {
  return textOfHtml(html).split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** A plain string as a segment, and back. */
export const plainToHtml = escapeHtml;
export const htmlToPlain = (html: string) => textOfHtml(html).replace(/\s+/g, ' ').trim();

export function extractDocument(document: Document): ExtractedDocument {
  const copy = structuredClone(document) as unknown as AnyNode;
  const slots: Slot[] = [];
  const plainAttribute = (data: Record<string, any>, field: string) => {
    const value = data[field];
    if (typeof value !== 'string' || !/\p{L}/u.test(value)) return;
    slots.push({ html: escapeHtml(value), apply: (t) => (data[field] = htmlToPlain(t) || value) });
  };

  const walk = (node: AnyNode) => {
    if (node.object === 'block' && node.type && KEPT_BLOCKS.has(node.type)) return;
    if (node.data) {
      if (node.type === 'image') plainAttribute(node.data, 'alt');
      if (node.type === 'tabs-item') plainAttribute(node.data, 'title');
      if (node.type === 'table' && node.data.definition && typeof node.data.definition === 'object') {
        for (const column of Object.values(node.data.definition as Record<string, Record<string, unknown>>)) plainAttribute(column, 'title');
      }
    }
    const nodes = node.nodes;
    if (nodes && nodes.length > 0 && node.object === 'block' && nodes.every((n) => n.object === 'text' || n.object === 'inline')) {
      const segment = inlineSegment(nodes as unknown as InlineContent[]);
      if (hasText(segment.html)) {
        slots.push({
          html: segment.html,
          apply: (t) => {
            node.nodes = segment.read(t) as unknown as AnyNode[];
            if (node.key) keyBlock(node, node.key);
          },
        });
      }
      return;
    }
    for (const child of nodes ?? []) walk(child);
    for (const fragment of node.fragments ?? []) walk(fragment);
  };
  for (const block of copy.nodes ?? []) walk(block);

  return {
    segments: slots.map((s) => s.html),
    rebuild(translated) {
      if (translated.length !== slots.length) throw new Error(`expected ${slots.length} translated segments, got ${translated.length}`);
      slots.forEach((slot, i) => slot.apply(translated[i]));
      return copy as unknown as Document;
    },
  };
}
