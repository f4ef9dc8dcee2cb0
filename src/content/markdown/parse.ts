/*
 * GitBook-flavoured markdown -> GitBook document JSON.
 * prepare (GitBook tags to placeholders) -> remark-parse + remark-gfm ->
 * mdast -> blocks -> fitted into GitBook's containers -> normal form -> keys by position.
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import { visit } from 'unist-util-visit';
import type { Definition, Root } from 'mdast';
import { prepareMarkdown, restorePlaceholders, type Prepared } from './prepare.ts';
import { readBlocks, type BlockContext } from './read-block.ts';
import { assignKeys, normalizeDocument } from './normalize.ts';
import { normalizeInlines } from './leaves.ts';
import { keptFormFits, writeTop } from './write.ts';
import { findWrittenForms, type BlockSpan } from './written-form.ts';
import type { Block, Document, InlineContent } from './types.ts';

export interface ReadOptions {
  /**
   * How many levels markdown headings sit below GitBook's: 0 (default) reads `#` as heading-1;
   * 1 reads GitBook's page markdown, where `#` is the page title and `##` heading-1.
   */
  headingOffset?: number;
  /**
   * Keep the written form of blocks the source writes differently from the canonical form
   * (written-form.ts), so that writing the document back gives the source. Pages read from
   * git or a change request do; other markdown (comments, templates, merges) is canonical.
   */
  keepWrittenForm?: boolean;
}

/**
 * No front matter: it belongs to a page file and its caller splits it off (front-matter.ts);
 * markdown read here opening with `---` opens with a divider.
 */
const processor = unified().use(remarkParse).use(remarkGfm);
const parse = (prepared: Prepared) => processor.parse(prepared.source) as Root;

/** Reads GitBook-flavoured markdown into a GitBook document; the same markdown always gives the same document. */
export function markdownToDocument(markdown: string, options: ReadOptions = {}): Document {
  const data: Document['data'] = escapesParentheses(markdown) ? { escapeParentheses: true } : {};
  const headingOffset = options.headingOffset ?? 0;
  const read: { definitions?: string } = {};
  const document = normalizeDocument({ object: 'document', data, nodes: readMarkdownBlocks(markdown, headingOffset, read) });
  if (options.keepWrittenForm) {
    const spans: BlockSpan[] = [];
    const canonical = writeTop(document, headingOffset, { spans });
    // A run may use the page's link reference definitions, which stand elsewhere (at the end): read with them.
    const definitions = read.definitions ?? '';
    const readSnippet = (snippet: string) => readSnippetBlocks(snippet, headingOffset, definitions);
    const fits = keptFormFits(document.nodes, headingOffset, document.data.escapeParentheses, definitions);
    const { forms, separators } = findWrittenForms(markdown, document.nodes, canonical, spans, readSnippet, fits);
    if (forms.length > 0) document.data.writtenForms = forms;
    if (separators.length > 0) document.data.writtenSeparators = separators;
  }
  return assignKeys(document);
}

/**
 * The blocks of a piece of a page (a kept form, the blocks around a separator), read as the
 * page reads them: with the page's link reference definitions (`[name]` may use one further
 * down), and a U+FEFF opening the piece as its text. micromark drops a U+FEFF opening its
 * input as a byte order mark; mid-page, GitBook's text keeps it.
 */
export function readSnippetBlocks(snippet: string, headingOffset: number, definitions = ''): Block[] {
  const text = snippet.startsWith('\uFEFF') ? `\n${snippet}` : snippet;
  return markdownToDocument(definitions === '' ? text : `${text}\n\n${definitions}`, { headingOffset }).nodes;
}

/**
 * The inline content of a snippet (a summary, a caption, a `<p>` body), in normal form and
 * without keys. A private-use character and a space go first so that the snippet is always
 * read as paragraph text, never as a heading or a list, exactly as it would be mid-line.
 */
export function readInlineMarkdown(markdown: string, options: { keepLeadingSpaces?: boolean; keepTrailingSpaces?: boolean } = {}): InlineContent[] {
  // Kept leading spaces are the encoded ones (`&#x20;a`): a line's literal ones are CommonMark's to drop.
  const body = options.keepLeadingSpaces ? markdown.replace(/^[ \t]+/, '') : markdown;
  const [first] = readMarkdownBlocks(SNIPPET_LEAD + body, 0);
  const nodes = first?.type === 'paragraph' ? first.nodes : [];
  const lead = nodes[0];
  if (lead?.object === 'text' && lead.leaves[0]?.text.startsWith(SNIPPET_LEAD.trim())) {
    const cut = options.keepLeadingSpaces && lead.leaves[0].text.startsWith(SNIPPET_LEAD) ? SNIPPET_LEAD.length : 1;
    lead.leaves[0] = { ...lead.leaves[0], text: lead.leaves[0].text.slice(cut) };
  }
  if (options.keepTrailingSpaces) {
    // The snippet's paragraph lost its trailing spaces to CommonMark: they are put back.
    const trailing = /[ \t]*$/.exec(markdown)![0];
    if (trailing !== '') nodes.push({ object: 'text', leaves: [{ object: 'leaf', text: trailing, marks: [] }] });
  }
  return normalizeInlines(nodes, { trim: true, keepLeadingSpaces: options.keepLeadingSpaces, keepTrailingSpaces: options.keepTrailingSpaces });
}

const SNIPPET_LEAD = '\uE002 ';

/** GitBook's older export escaped every parenthesis of text: some escaped, none bare (code, tags, HTML and link destinations aside). */
function escapesParentheses(markdown: string): boolean {
  if (!markdown.includes('\\(') && !markdown.includes('\\)')) return false;
  const text = markdown
    .replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '')
    .replace(/`[^`\n]*`/g, '')
    .replace(/\$\$[\s\S]*?\$\$/g, '')
    .replace(/\{%[\s\S]*?%\}/g, '')
    .replace(/<[^>\n]*>/g, '')
    .replace(/\]\((?:<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+"[^"]*")?\)/g, ']');
  let escaped = false;
  for (const match of text.matchAll(/(\\*)[()]/g)) {
    // An odd run of backslashes escapes the parenthesis; an even one is escaped backslashes before a bare one.
    if (match[1].length % 2 === 0) return false;
    escaped = true;
  }
  return escaped;
}

const MAX_REREAD_DEPTH = 16;

/** `read.definitions` gets the link reference definitions the page holds, as written (not those in code). */
function readMarkdownBlocks(markdown: string, headingOffset: number, read?: { definitions?: string }, depth = 0) {
  const prepared = prepareMarkdown(markdown);
  const tree = parse(prepared);
  if (read) read.definitions = definitionSources(tree, prepared);
  const ctx: BlockContext = {
    tokens: prepared.tokens,
    definitions: definitionsOf(tree),
    headingOffset,
    readInlineMarkdown,
    // Over-indented list content is read again, each level a list deeper: a budget of levels
    // guards the stack against content that opens a list on every re-read (past it, code, as GFM reads it).
    readMarkdown: depth < MAX_REREAD_DEPTH ? (inner) => readMarkdownBlocks(inner, headingOffset, undefined, depth + 1) : undefined,
    source: prepared.source,
    addedLines: prepared.addedLines,
  };
  return readBlocks(tree.children, ctx);
}

/** The link reference definitions `markdown` holds, as written, one a line (those in code are none). */
export function definitionsWritten(markdown: string): string {
  const prepared = prepareMarkdown(markdown);
  return definitionSources(parse(prepared), prepared);
}

function definitionSources(tree: Root, prepared: Prepared): string {
  const lines: string[] = [];
  visit(tree, 'definition', (node: Definition) => {
    const { start, end } = node.position ?? {};
    if (start?.offset !== undefined && end?.offset !== undefined) lines.push(restorePlaceholders(prepared.source.slice(start.offset, end.offset), prepared.tokens));
  });
  return lines.join('\n');
}

function definitionsOf(tree: Root): Map<string, Definition> {
  const definitions = new Map<string, Definition>();
  visit(tree, 'definition', (node: Definition) => {
    if (!definitions.has(node.identifier)) definitions.set(node.identifier, node);
  });
  return definitions;
}
