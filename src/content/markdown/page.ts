/*
 * A page's markdown as GitBook writes it (Git Sync files, the API's `format=markdown`): an
 * optional leading `# Title` line that is the page title, then the body, whose headings sit
 * one level lower (`##` heading-1, `###` heading-2, `####` heading-3). Front matter is the
 * caller's (it holds page metadata).
 */
import { markdownToDocument } from './parse.ts';
import { documentToMarkdown } from './write.ts';
import { assignKeys } from './normalize.ts';
import type { Document, InlineContent } from './types.ts';

/** GitBook's page markdown writes heading-1 as `##`. */
export const PAGE_HEADING_OFFSET = 1;

/** `# Title` (ATX, optional closing hashes) as the first non-blank line. */
const TITLE_LINE = /^(?:[ \t]*\r?\n)*[ ]{0,3}#[ \t]+([^\n]*?)(?:[ \t]+#+)?[ \t]*(?:\r?\n|$)/;

export interface PageMarkdown {
  /** The text of the leading `# Title`, when there is one. */
  title?: string;
  document: Document;
}

/** The part of a page file (front matter already split off) the document is read from: what follows the `# Title` line. */
export function pageBody(markdown: string): string {
  const match = TITLE_LINE.exec(markdown);
  return match ? markdown.slice(match[0].length) : markdown;
}

/** Reads a page body (front matter already split off): its `# Title` and its document. */
export function readPageMarkdown(markdown: string): PageMarkdown {
  const match = TITLE_LINE.exec(markdown);
  const body = pageBody(markdown);
  const document = assignKeys(markdownToDocument(body, { headingOffset: PAGE_HEADING_OFFSET, keepWrittenForm: true }));
  if (!match) return { document };
  const heading = markdownToDocument('# ' + match[1]).nodes[0];
  const title = heading && 'nodes' in heading ? plainText(heading.nodes as InlineContent[]).trim() : '';
  return title ? { title, document } : { document };
}

/** Writes a page body the way GitBook does; with a title, `# Title` comes first. */
export function writePageMarkdown(document: Document, title?: string): string {
  const body = documentToMarkdown(document, { headingOffset: PAGE_HEADING_OFFSET });
  if (title === undefined) return body;
  return `# ${title}\n` + (body === '' ? '' : '\n' + body);
}

function plainText(nodes: InlineContent[]): string {
  return nodes
    .map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : 'nodes' in n ? plainText(n.nodes as InlineContent[]) : ''))
    .join('');
}
