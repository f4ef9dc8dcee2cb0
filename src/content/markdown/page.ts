/*
 * A page's markdown as GitBook writes it (Git Sync files, the API's `format=markdown`): an
 * optional leading `# Title` line that is the page title, then the body, whose headings sit
 * one level lower (`##` heading-1, `###` heading-2, `####` heading-3). Front matter is the
 * caller's (it holds page metadata).
 */
import { markdownToDocument } from './parse.ts';
import { documentToMarkdown } from './write.ts';
import { assignKeys } from './normalize.ts';
import { writtenTitleOf } from './written-form.ts';
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
export function readPageMarkdown(written: string): PageMarkdown {
  // A page written with CR LF line endings throughout is read as LF and written back CR LF.
  const crlf = written.includes('\r\n') && !/(?:^|[^\r])\n/.test(written);
  const markdown = crlf ? written.replace(/\r\n/g, '\n') : written;
  const page = readLfPage(markdown);
  if (crlf) page.document.data.lineEnding = 'crlf';
  return page;
}

function readLfPage(markdown: string): PageMarkdown {
  const match = TITLE_LINE.exec(markdown);
  const body = pageBody(markdown);
  // A body: its front matter, if any, was split off by the caller (git-layout, the content batch).
  const document = assignKeys(markdownToDocument(body, { headingOffset: PAGE_HEADING_OFFSET, keepWrittenForm: true }));
  if (!match) return { document };
  const title = titleText(match[1]);
  if (!title) return { document };
  // The title line and the blank lines under it as written, where GitBook would write them otherwise.
  const line = match[0].replace(/^(?:[ \t]*\r?\n)*/, '').replace(/(?:[ \t]|&#x20;)*\r?\n?$/, '');
  const blank = /^(?:[ \t]*\r?\n)*/.exec(body)![0].split('\n').length - 1;
  const separator = document.nodes.length > 0 ? '\n'.repeat(blank + 1) : '\n\n';
  if (line !== `# ${title}` || separator !== '\n\n') document.data.writtenTitle = { line, separator };
  return { title, document };
}

/** Writes a page body the way GitBook does; with a title, `# Title` comes first (as the page wrote it, while it says that title). */
export function writePageMarkdown(document: Document, title?: string): string {
  const written = writeLfPage(document, title);
  return document.data.lineEnding === 'crlf' ? written.replace(/\n/g, '\r\n') : written;
}

function writeLfPage(document: Document, title?: string): string {
  const body = documentToMarkdown(document, { headingOffset: PAGE_HEADING_OFFSET });
  if (title === undefined) return body;
  const kept = writtenTitleOf(document.data);
  const line = kept && titleLine(kept.line) === title ? kept.line : `# ${title}`;
  // A body right under the title line (no blank line) that starts with `---` would read as
  // front matter; after blank lines it is a divider, and the page's blank lines stay.
  const separator = kept && !(kept.separator === '\n' && body.startsWith('---')) ? kept.separator : '\n\n';
  return line + (body === '' ? '\n' : separator + body);
}

/** The title a line reads as, if it is a `# Title` line. */
function titleLine(line: string): string | undefined {
  const match = line.includes('\n') ? null : TITLE_LINE.exec(line);
  return match ? titleText(match[1]) : undefined;
}

/** The plain text of a title line's text. */
function titleText(text: string): string {
  const heading = markdownToDocument('# ' + text).nodes[0];
  return heading && 'nodes' in heading ? plainText(heading.nodes as InlineContent[]).trim() : '';
}

function plainText(nodes: InlineContent[]): string {
  return nodes
    .map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : 'nodes' in n ? plainText(n.nodes as InlineContent[]) : ''))
    .join('');
}
