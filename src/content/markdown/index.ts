/*
 * GitBook-flavoured markdown <-> GitBook document JSON, and what later features read out of
 * documents (links, searchable text, variable values). docs/decisions/markdown.md lists the
 * constructs and how each is written in markdown.
 */
import { markdownToDocument, type ReadOptions } from './parse.ts';
import { documentToMarkdown, type WriteOptions } from './write.ts';

export { markdownToDocument, type ReadOptions } from './parse.ts';
export { documentToMarkdown, type WriteOptions } from './write.ts';
export { extractLinks, extractText, headingAnchor, documentAnchors, type DocumentLink, type TextSection } from './extract.ts';
export { resolveVariables, evaluateExpression } from './variables.ts';
export { refFromHref, hrefFromRef } from './refs.ts';
export { splitFrontMatter, type FrontMatterSplit } from './front-matter.ts';
export { readPageMarkdown, writePageMarkdown, pageBody, PAGE_HEADING_OFFSET, type PageMarkdown } from './page.ts';
export type * from './types.ts';

/** The canonical form of a markdown text: `documentToMarkdown(markdownToDocument(markdown))`. */
export function normalizeMarkdown(markdown: string, options: ReadOptions & WriteOptions = {}): string {
  return documentToMarkdown(markdownToDocument(markdown, options), options);
}
