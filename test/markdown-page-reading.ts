/*
 * Shared helpers of the markdown reading tests: a page read, checked against GitBook's schema
 * as the dialect extends it, written back byte for byte and stable; and a document's shape.
 */
import { expect } from 'vitest';
import { extractText, markdownToDocument, readPageMarkdown, writePageMarkdown } from '../src/content/markdown/index.ts';
import type { Block, Document } from '../src/content/markdown/types.ts';
import { documentSchemaErrors } from './markdown-schema.ts';

/** Reads `markdown` as a page, checks it is written back as it was and stays so; the page's document. */
export function keepsPage(markdown: string): Document {
  const page = readPageMarkdown(markdown);
  const written = writePageMarkdown(page.document, page.title);
  expect(written).toBe(markdown);
  const again = readPageMarkdown(written);
  expect(writePageMarkdown(again.document, again.title)).toBe(written);
  return page.document;
}

/** Reads `markdown`, checks it validates, is written back as it was and stays so; its blocks. */
export function readsBack(markdown: string): Block[] {
  const document = markdownToDocument(markdown);
  expect(documentSchemaErrors(document)).toBeNull();
  keepsPage(markdown);
  return document.nodes;
}

export const types = (blocks: Block[] | undefined): string[] => (blocks ?? []).map((b) => b.type);
export const childrenOf = (block: Block | undefined): Block[] => (block as { nodes?: Block[] } | undefined)?.nodes ?? [];
/** Every section's title and text of a document, as search sees it. */
export const textOf = (blocks: Block[]): string => extractText({ object: 'document', data: {}, nodes: blocks }).map((s) => `${s.title}\n${s.body}`).join('\n');
