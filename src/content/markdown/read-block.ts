/*
 * mdast blocks -> GitBook blocks.
 *
 * The pre-pass (prepare.ts) left one placeholder paragraph per GitBook tag, `<details>` line,
 * figure and math block. Here a container's children are read in order: a placeholder that
 * opens a tag takes the siblings up to its matching closing placeholder as its body, so tags
 * nest in list items and quotes exactly as the markdown indents them.
 */
import type { Code, Heading, Html, List, ListItem, Paragraph, PhrasingContent, RootContent } from 'mdast';
import type { Token } from './prepare.ts';
import { restorePlaceholders, VOID_TAGS } from './prepare.ts';
import { BLOCK_PLACEHOLDER, unescapeMarkdown, readAttributes, readHtmlTag, splitHtml } from './syntax.ts';
import { emptyParagraph, isEmptyContent, leaf, paragraph, textNode } from './leaves.ts';
import { readTable } from './read-table.ts';
import { plainOf, writtenDestination, readHtmlInlines, readInlines, type InlineContext } from './read-inline.ts';
import { contentRefLabel, fileRefFromSrc, imageRefFromSrc, refFromHref } from './refs.ts';
import type {
  Block, CodeBlock, ContentRefBlock, DrawingBlock, EmbedBlock, ExpandableBlock, FileBlock, HeadingBlock, HintStyle, InlineContent,
  ListItemBlock, OpenAPIOperationBlock, ParagraphBlock, StepperStepBlock, TabsItemBlock, TextAlignment, UpdateBlock, ColumnBlock,
} from './types.ts';
import { HINT_STYLES, markupBlock } from './types.ts';
import { readHtmlTable, tableNeedsHtml, writeHtmlTable } from './html-table.ts';
import { writeDrawing } from './write.ts';
import { codeNeedsHtml, readHtmlCode, writeHtmlCode } from './html-code.ts';
import { readHtmlHint } from './html-hint.ts';
import { image, images, readFigure } from './read-figure.ts';

export interface BlockContext extends InlineContext {
  /** Markdown heading depth minus this is the GitBook heading level (clamped to 1..3). */
  headingOffset: number;
  /** Reads a snippet of inline markdown (summaries, captions, `<p>` bodies). */
  readInlineMarkdown: (markdown: string, options?: { keepTrailingSpaces?: boolean }) => InlineContent[];
  /** Reads markdown into blocks (a list item's over-indented content). */
  readMarkdown?: (markdown: string) => Block[];
  /** Reading a list item's content (its tag bodies too, not its quotes): indented code there is over-indented content. */
  inListItem?: boolean;
  /** Lines of `source` the pre-pass added around placeholders (0-based): not the writer's blank lines. */
  addedLines?: Set<number>;
}

type Item = { node: RootContent; token: Token | null };


/** Converts the children of a container (root, list item, quote, tag body). */
export function readBlocks(children: RootContent[], ctx: BlockContext): Block[] {
  const items: Item[] = children.map((node) => ({ node, token: tokenOf(node, ctx) }));
  const out: Block[] = [];
  let i = 0;
  let previousEnd: number | undefined;
  while (i < items.length) {
    const { node, token } = items[i];
    const start = node.position?.start.line;
    if (out.length > 0 && previousEnd !== undefined && start !== undefined) out.push(...emptyParagraphsBetween(previousEnd, start, ctx));
    const used = token ? readToken(items, i, token, ctx, out) : (out.push(...readNode(node, ctx)), 1);
    i += used;
    previousEnd = lastWrittenLine(items[i - 1].node, ctx);
  }
  return out;
}

/**
 * The last line of a block that is not blank: an indented code block's position runs over the
 * lines of spaces after it (micromark), which CommonMark counts as blank lines between blocks.
 */
function lastWrittenLine(node: RootContent, ctx: BlockContext): number | undefined {
  const start = node.position?.start.offset;
  const end = node.position?.end;
  if (!end || end.offset === undefined || start === undefined || !ctx.source) return end?.line;
  let line = end.line;
  for (let at = end.offset; at > start && /[ \t\r\n]/.test(ctx.source[at - 1]); at--) if (ctx.source[at - 1] === '\n') line--;
  return line;
}

/**
 * GitBook writes an empty paragraph as nothing between two blank-line separators, so each
 * one adds two blank lines to the one between blocks: 3 blank lines hold one, 5 hold two.
 */
function emptyParagraphsBetween(endLine: number, startLine: number, ctx: BlockContext): Block[] {
  const blank = sourceLinesBetween(endLine, startLine, ctx);
  return Array.from({ length: Math.max(0, Math.floor((blank - 1) / 2)) }, () => emptyParagraph());
}

/** The source's own lines strictly between two nodes' lines (1-based positions), the pre-pass's added ones aside. */
function sourceLinesBetween(endLine: number, startLine: number, ctx: BlockContext): number {
  let count = 0;
  // The lines strictly between are endLine .. startLine - 2, 0-based.
  for (let line = endLine; line < startLine - 1; line++) if (!ctx.addedLines?.has(line)) count++;
  return count;
}

function tokenOf(node: RootContent, ctx: BlockContext): Token | null {
  if (node.type !== 'paragraph' || node.children.length !== 1 || node.children[0].type !== 'text') return null;
  const match = BLOCK_PLACEHOLDER.exec(node.children[0].value.trim());
  return match ? (ctx.tokens[Number(match[1])] ?? null) : null;
}

/** Reads the block(s) a token starts; returns how many items it used. */
function readToken(items: Item[], i: number, token: Token, ctx: BlockContext, out: Block[]): number {
  switch (token.kind) {
    case 'math':
      out.push({ object: 'block', type: 'math', isVoid: true, data: { formula: token.formula } });
      return 1;
    case 'figure':
      out.push(readFigure(token.html, ctx) ?? literal(token.raw));
      return 1;
    case 'details':
      return readDetails(items, i, token.open, ctx, out);
    case 'summary':
      out.push(paragraph(ctx.readInlineMarkdown(token.markdown)));
      return 1;
    case 'tag':
      return readTag(items, i, ctx, out);
    case 'markup':
      out.push(markupBlock('liquid', token.markup));
      return 1;
    default:
      out.push(literal(token.raw));
      return 1;
  }
}

function literal(raw: string): ParagraphBlock {
  return paragraph([textNode([leaf(raw)])]);
}

/**
 * An `{% endcode %}` right under the fence it closed (no blank line between), its `{% code %}`
 * taken away: it ends that code and shows nothing; the written form keeps the line.
 */
function closesCodeAbove(items: Item[], i: number, ctx: BlockContext, out: Block[]): boolean {
  const above = items[i - 1]?.node;
  const end = above && lastWrittenLine(above, ctx);
  const start = items[i].node.position?.start.line;
  if (above?.type !== 'code' || out[out.length - 1]?.type !== 'code' || end === undefined || start === undefined) return false;
  return sourceLinesBetween(end, start, ctx) === 0;
}

/** Index of the token closing the one at `i`, counting nested openings; -1 when none. */
function findClosing(items: Item[], i: number, opens: (t: Token) => boolean, closes: (t: Token) => boolean): number {
  let depth = 0;
  for (let k = i + 1; k < items.length; k++) {
    const t = items[k].token;
    if (!t) continue;
    if (opens(t)) depth++;
    else if (closes(t)) {
      if (depth === 0) return k;
      depth--;
    }
  }
  return -1;
}

function readTag(items: Item[], i: number, ctx: BlockContext, out: Block[]): number {
  const token = items[i].token as Extract<Token, { kind: 'tag' }>;
  const { name, attrs } = token.tag;
  if (name.startsWith('end')) {
    if (!(name === 'endcode' && closesCodeAbove(items, i, ctx, out))) out.push(literal(token.raw));
    return 1;
  }
  const isTag = (n: string) => (t: Token) => t.kind === 'tag' && t.tag.name === n;
  const end = findClosing(items, i, isTag(name), isTag('end' + name));
  if (end < 0 && !VOID_TAGS.has(name)) {
    out.push(literal(token.raw));
    return 1;
  }
  const body = end < 0 ? [] : items.slice(i + 1, end).map((item) => item.node);
  const block = buildTag(name, attrs, body, ctx);
  if (block) out.push(...block);
  else out.push(literal(token.raw));
  return end < 0 ? 1 : end - i + 1;
}

function buildTag(name: string, attrs: Record<string, string>, body: RootContent[], ctx: BlockContext): Block[] | null {
  switch (name) {
    case 'hint': {
      const style = HINT_STYLES.has(attrs.style as HintStyle) ? (attrs.style as HintStyle) : 'info';
      return [{ object: 'block', type: 'hint', data: attrs.icon ? { style, icon: attrs.icon } : { style }, nodes: readBlocks(body, ctx) }];
    }
    case 'tabs':
      return [{ object: 'block', type: 'tabs', data: {}, nodes: collect(readBlocks(body, ctx), 'tabs-item', () => tabsItem('', [])) }];
    case 'tab':
      return [tabsItem(attrs.title ?? '', readBlocks(body, ctx), attrs.icon)];
    case 'stepper':
      return [{ object: 'block', type: 'stepper', data: {}, nodes: collect(readBlocks(body, ctx), 'stepper-step', () => step([])) }];
    case 'step':
      return [step(readBlocks(body, ctx))];
    case 'updates':
      return [{ object: 'block', type: 'updates', data: attrs.format ? { format: attrs.format } : {}, nodes: collect(readBlocks(body, ctx), 'update', () => update(EPOCH, [])) }];
    case 'update': {
      const date = readDate(attrs.date);
      return date ? [update(date, readBlocks(body, ctx), attrs.tags)] : null;
    }
    case 'columns':
      return [{ object: 'block', type: 'columns', isVoid: false, data: attrs.fullwidth === 'true' ? { fullWidth: true } : {}, nodes: collect(readBlocks(body, ctx), 'column', () => column(undefined, [])) }];
    case 'column':
      return [column(attrs.width, readBlocks(body, ctx))];
    case 'code':
      return applyCodeAttributes(readBlocks(body, ctx), attrs);
    case 'embed': {
      if (!attrs.url) return null;
      // GitBook's older export escaped markdown in the URL (`list=a\_b`): the URL is the unescaped one, the written form is kept.
      const url = unescapeMarkdown(attrs.url);
      const data: EmbedBlock['data'] = { url };
      if (attrs.fullwidth === 'true') data.fullWidth = true;
      if (url !== attrs.url) data.written = attrs.url;
      return withCaption({ object: 'block', type: 'embed', isVoid: true, data }, readBlocks(body, ctx));
    }
    case 'content-ref': {
      if (!attrs.url) return null;
      // GitBook labels the link with the target's file name; another label is kept as written.
      const text = linkText(body, ctx);
      const data: ContentRefBlock['data'] = { ref: refFromHref(attrs.url) };
      if (text !== null && text !== contentRefLabel(attrs.url)) data.text = text;
      return [{ object: 'block', type: 'content-ref', isVoid: true, data }];
    }
    case 'file': {
      if (!attrs.src) return null;
      return withCaption({ object: 'block', type: 'file', isVoid: true, data: { ref: fileRefFromSrc(attrs.src) } }, readBlocks(body, ctx));
    }
    case 'openapi-operation': {
      if (!attrs.spec || !attrs.path || !attrs.method) return null;
      const data: OpenAPIOperationBlock['data'] = { ref: { kind: 'openapi', spec: attrs.spec }, path: attrs.path, method: attrs.method.toLowerCase() };
      // GitBook's export puts a link to the spec inside (`[OpenAPI name](signed URL)`, `[Broken link](broken-reference)`): kept as written.
      const fallback = fallbackLink(body, ctx);
      if (fallback !== null) data.fallback = fallback;
      return [{ object: 'block', type: 'openapi-operation', isVoid: true, data }];
    }
    default:
      return null;
  }
}

/** A file's or an embed's caption: the text between its tags (a paragraph; anything more stays as blocks after it). */
function withCaption(block: FileBlock | EmbedBlock, body: Block[]): Block[] {
  const [first, ...rest] = body;
  if (first?.type !== 'paragraph') return first ? [block, first, ...rest] : [block];
  block.fragments = [{ object: 'fragment', fragment: 'caption', nodes: [first] }];
  return [block, ...rest];
}

/** The text of the link a content-ref's body holds; null when it holds none. */
function linkText(body: RootContent[], ctx: BlockContext): string | null {
  const first = body[0];
  if (body.length !== 1 || first.type !== 'paragraph' || first.children.length !== 1 || first.children[0].type !== 'link') return null;
  return restorePlaceholders(plainOf(first.children[0].children), ctx.tokens);
}

function tabsItem(title: string, nodes: Block[], icon?: string): TabsItemBlock {
  return { object: 'block', type: 'tabs-item', data: icon ? { title, icon } : { title }, nodes };
}

const EPOCH = '1970-01-01T00:00:00.000Z';

/** GitBook writes `date="2025-01-02"`; its schema wants a date-time: midnight UTC. */
function readDate(value: string | undefined): string | null {
  if (!value) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return Number.isNaN(Date.parse(value)) ? null : `${value}T00:00:00.000Z`;
  return /^\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)) ? value : null;
}

/** `tags="a,b"` (checked by prepare.ts) is GitBook's tags: references to the revision's tags by slug. */
function update(date: string, nodes: Block[], tags?: string): UpdateBlock {
  return { object: 'block', type: 'update', data: tags ? { date, tags: tags.split(',').map((tag) => ({ kind: 'tag', tag })) } : { date }, nodes };
}

/** `width="50%"` is GitBook's Length `{ value: 50, unit: '%' }`, `width="320"` a number. */
function column(width: string | undefined, nodes: Block[]): ColumnBlock {
  const match = width ? /^(\d+(?:\.\d+)?)(%|px)?$/.exec(width) : null;
  const data: ColumnBlock['data'] = {};
  if (match) data.width = match[2] ? { value: Number(match[1]), unit: match[2] } : Number(match[1]);
  return { object: 'block', type: 'column', data, nodes };
}

function step(nodes: Block[]): StepperStepBlock {
  return { object: 'block', type: 'stepper-step', data: {}, nodes };
}

/** Keeps the children of type `type`; stray blocks between them join the item before (or a new first one). */
function collect<T extends TabsItemBlock | StepperStepBlock | UpdateBlock | ColumnBlock>(blocks: Block[], type: T['type'], create: () => T): T[] {
  const result: T[] = [];
  for (const block of blocks) {
    if (block.type === type) result.push(block as T);
    else {
      if (result.length === 0) result.push(create());
      result[result.length - 1].nodes.push(block);
    }
  }
  return result;
}

/** The markdown of a tag body that is one link alone on its line; null otherwise. */
function fallbackLink(body: RootContent[], ctx: BlockContext): string | null {
  const [only] = body;
  if (body.length !== 1 || only.type !== 'paragraph' || only.children.length !== 1 || only.children[0].type !== 'link') return null;
  const start = only.position?.start.offset;
  const end = only.position?.end.offset;
  if (start === undefined || end === undefined || ctx.source === undefined) return null;
  const text = restorePlaceholders(ctx.source.slice(start, end), ctx.tokens);
  return text.includes('\n') ? null : text;
}

function applyCodeAttributes(blocks: Block[], attrs: Record<string, string>): Block[] {
  const code = blocks.find((b): b is CodeBlock => b.type === 'code');
  if (!code) return blocks;
  if (attrs.title) code.data.title = attrs.title;
  if (attrs.overflow === 'wrap' || attrs.overflow === 'scroll') code.data.overflow = attrs.overflow;
  if (attrs.linenumbers === 'true') code.data.lineNumbers = true;
  if (attrs.fullwidth === 'true') code.data.fullWidth = true;
  if (attrs.expandable === 'true') code.data.expandable = true;
  return blocks;
}

function readDetails(items: Item[], i: number, open: boolean, ctx: BlockContext, out: Block[]): number {
  const end = findClosing(items, i, (t) => t.kind === 'details', (t) => t.kind === 'details-end');
  if (end < 0) {
    out.push(literal(items[i].token!.raw));
    return 1;
  }
  let inner = items.slice(i + 1, end);
  let title: InlineContent[] = [textNode([leaf('')])];
  const first = inner[0]?.token;
  if (first?.kind === 'summary') {
    title = ctx.readInlineMarkdown(first.markdown, { keepTrailingSpaces: true });
    inner = inner.slice(1);
  }
  const body = readBlocks(inner.map((item) => item.node), ctx);
  const block: ExpandableBlock = {
    object: 'block',
    type: 'expandable',
    isVoid: true,
    data: open ? { defaultExpanded: true } : {},
    fragments: [
      { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [paragraph(title)] },
      { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: body.length > 0 ? body : [emptyParagraph()] },
    ],
  };
  out.push(block);
  return end - i + 1;
}

function readNode(node: RootContent, ctx: BlockContext): Block[] {
  switch (node.type) {
    case 'paragraph':
      return readParagraph(node, ctx);
    case 'heading':
      return [readHeading(node, ctx)];
    case 'thematicBreak':
      return [{ object: 'block', type: 'divider', isVoid: true, data: {} }];
    case 'blockquote':
      return [{ object: 'block', type: 'blockquote', data: {}, nodes: readBlocks(node.children, ctx.inListItem ? { ...ctx, inListItem: false } : ctx) }];
    case 'list':
      return [readList(node, ctx)];
    case 'code':
      if (ctx.inListItem && ctx.readMarkdown && isIndentedCode(node, ctx)) return ctx.readMarkdown(restorePlaceholders(node.value, ctx.tokens));
      return [readCode(node, ctx)];
    case 'table':
      return [readTable(node, ctx)];
    case 'html':
      return readHtmlBlock(node, ctx);
    case 'footnoteDefinition':
      return readFootnote(node.label ?? node.identifier, node.children, ctx);
    default:
      return [];
  }
}

/** A paragraph holding one image alone is an image block; its text is the alt text. */
function readParagraph(node: Paragraph, ctx: BlockContext): Block[] {
  const only = node.children.length === 1 ? node.children[0] : null;
  if (only && (only.type === 'image' || only.type === 'imageReference')) {
    const url = only.type === 'image' ? only.url : ctx.definitions.get(only.identifier)?.url;
    if (url !== undefined) {
      // Its text is the image's alt text, not a caption: the two stay distinct.
      const block = image(imageRefFromSrc(restorePlaceholders(url, ctx.tokens)), undefined, restorePlaceholders(only.alt ?? '', ctx.tokens), [], false);
      const written = writtenDestination(only, ctx);
      if (written) block.data.src = written;
      return [images([block], {})];
    }
  }
  const { nodes } = readInlines(endingBreak(node, ctx), ctx, { trim: true, keepLeadingSpaces: true });
  return isEmptyContent(nodes) ? [] : [paragraph(nodes)];
}

/**
 * GitBook ends a paragraph with `\` when its text ends with a line break. CommonMark reads a
 * backslash ending a paragraph as a literal one, as it reads `\\`: the source tells them
 * apart (an odd run of backslashes ends with an unescaped one), and that one is a break.
 */
function endingBreak(node: Paragraph, ctx: BlockContext): PhrasingContent[] {
  const last = node.children[node.children.length - 1];
  const end = node.position?.end.offset;
  if (last?.type !== 'text' || !last.value.endsWith('\\') || end === undefined || ctx.source === undefined) return node.children;
  const run = /\\+$/.exec(ctx.source.slice(0, end))?.[0].length ?? 0;
  if (run % 2 === 0) return node.children;
  return [...node.children.slice(0, -1), { type: 'text', value: last.value.slice(0, -1) }, { type: 'break' }];
}

function readHeading(node: Heading, ctx: BlockContext): HeadingBlock {
  const { nodes, anchorId } = readInlines(node.children as PhrasingContent[], ctx);
  return heading(node.depth - ctx.headingOffset, nodes, anchorId, undefined);
}

function heading(depth: number, nodes: InlineContent[], id: string | null, align: TextAlignment | undefined): HeadingBlock {
  const level = Math.min(3, Math.max(1, depth));
  const data: HeadingBlock['data'] = {};
  const cleanId = id ? sanitizeId(id) : '';
  if (cleanId) data.id = cleanId;
  if (align) data.align = align;
  return { object: 'block', type: `heading-${level}` as HeadingBlock['type'], data, nodes };
}

/** GitBook heading ids match `^[-a-z0-9.+_]+$`. */
export function sanitizeId(id: string): string {
  return id.toLowerCase().replace(/[^-a-z0-9.+_]+/g, '-').replace(/^-+|-+$/g, '');
}

function readList(node: List, ctx: BlockContext): Block {
  const tasks = !node.ordered && node.children.some((item) => typeof item.checked === 'boolean');
  const start = node.start ?? 1;
  const items = node.children.map((item, i) => readListItem(item, tasks, ctx, node.ordered ? String(start + i).length + 1 : 1));
  if (node.ordered) {
    return { object: 'block', type: 'list-ordered', data: start !== 1 ? { start } : {}, nodes: items };
  }
  return { object: 'block', type: tasks ? 'list-tasks' : 'list-unordered', data: {}, nodes: items };
}

function readListItem(item: ListItem, tasks: boolean, ctx: BlockContext, marker: number): ListItemBlock {
  // Siblings are read together, over-indented content among them (readNode): a tag's
  // placeholders pair up around it, in the item and in the item's tag bodies.
  const nodes = readBlocks(item.children, ctx.inListItem ? ctx : { ...ctx, inListItem: true });
  const data: ListItemBlock['data'] = tasks ? { checked: item.checked === true } : {};
  // GitBook's older writing indents an item's content to 4 (`*   item`): kept when wider than `marker + 1`.
  const start = item.position?.start.column;
  const content = item.children[0]?.position?.start.column;
  const line = item.children[0]?.position?.start.line === item.position?.start.line;
  if (!tasks && start !== undefined && content !== undefined && line && content - start > marker + 1 && content - start <= marker + 4) data.indent = content - start;
  return { object: 'block', type: 'list-item', data, nodes: nodes.length > 0 ? nodes : [emptyParagraph()] };
}

/**
 * GitBook never writes indented code: in a list item, content indented deeper than the item's
 * (an image under `1. Step` at 4 or more extra spaces) is the item's content, not code.
 */
function isIndentedCode(node: RootContent, ctx: BlockContext): node is Code {
  const start = node.position?.start.offset;
  if (node.type !== 'code' || start === undefined || ctx.source === undefined) return false;
  return !/^[ \t]*(?:`{3,}|~{3,})/.test(ctx.source.slice(start, ctx.source.indexOf('\n', start) >>> 0));
}

function readCode(node: Code, ctx: BlockContext): CodeBlock {
  const data: CodeBlock['data'] = {};
  if (node.lang) data.syntax = restorePlaceholders(node.lang, ctx.tokens);
  // ```js title="example.js" — a title in the info string, as other tools write it.
  const meta = node.meta ? readAttributes(node.meta) : {};
  if (meta.title) data.title = meta.title;
  const lines = restorePlaceholders(node.value, ctx.tokens).split('\n');
  // Lines of spaces ending an indented block are blank lines after it, not code (CommonMark).
  if (isIndentedCode(node, ctx)) while (lines.length > 1 && lines[lines.length - 1].trim() === '') lines.pop();
  return {
    object: 'block',
    type: 'code',
    data,
    nodes: lines.map((text) => ({ object: 'block', type: 'code-line', data: {}, nodes: [textNode([leaf(text)])] })),
  };
}

function readHtmlBlock(node: Html, ctx: BlockContext): Block[] {
  const html = restorePlaceholders(node.value, ctx.tokens).trim();
  if (/^<!--\s*-->$/.test(html)) return []; // the separator CommonMark writers put between two lists
  if (html.startsWith('<pre')) {
    const code = readHtmlCode(html);
    if (code && codeNeedsHtml(code) && writeHtmlCode(code) === html) return [code];
  }
  if (/^<table[\s>]/i.test(html)) {
    // Only a table written back exactly as read becomes a table block; any other stays verbatim.
    const table = readHtmlTable(html, ctx);
    // A table GFM could hold but GitBook wrote in HTML keeps that form (`written`).
    if (table && !tableNeedsHtml(table)) table.data.written = 'html';
    if (table && writeHtmlTable(table) === html) return [table];
  }
  const drawing = readDrawing(html);
  if (drawing) return [drawing];
  const hint = readHtmlHint(html, ctx.readInlineMarkdown);
  if (hint) return [hint];
  const parts = splitHtml(html);
  const tags = parts.flatMap((p) => ('tag' in p ? [p.tag] : []));
  const onlyImages = parts.every((p) => ('tag' in p ? ['img', 'picture', 'source'].includes(p.tag.name) : p.text.trim() === ''));
  if (tags.length > 0 && onlyImages) return [paragraph(readHtmlInlines(parts, ctx))];
  const aligned = /^<(p|h[1-6])(\s[^>]*)?>([\s\S]*)<\/\1>$/i.exec(html);
  // One element only: `<p>a</p>` then `<p>b</p>` on the next line is two, kept as the HTML they are.
  if (aligned && !new RegExp(`</${aligned[1]}\\s*>`, 'i').test(aligned[3])) {
    const tag = readHtmlTag(`<${aligned[1]}${aligned[2] ?? ''}>`)!;
    const nodes = ctx.readInlineMarkdown(aligned[3].trim());
    const align = alignment(tag.attrs.align);
    if (tag.name === 'p') return [paragraph(nodes, align)];
    return [heading(Number(tag.name[1]) - ctx.headingOffset, nodes, tag.attrs.id ?? null, align)];
  }
  return [markupBlock('html', html)];
}

/** GitBook's drawing, exactly as the writer writes it back (any other `<img>` line is an inline image). */
function readDrawing(html: string): DrawingBlock | null {
  const tag = readHtmlTag(html);
  if (!tag || tag.name !== 'img' || tag.attrs.class !== 'gitbook-drawing' || !tag.attrs.src) return null;
  const block: DrawingBlock = { object: 'block', type: 'drawing', isVoid: true, data: { ref: fileRefFromSrc(tag.attrs.src) } };
  return writeDrawing(block) === html ? block : null;
}

function alignment(value: string | undefined): TextAlignment | undefined {
  switch (value?.toLowerCase()) {
    case 'center':
      return 'center';
    case 'right':
    case 'end':
      return 'end';
    case 'left':
    case 'start':
      return 'start';
    default:
      return undefined;
  }
}

/** Footnotes have no GitBook form here: their text stays, after a `[^label]:` marker. */
function readFootnote(label: string, children: RootContent[], ctx: BlockContext): Block[] {
  const blocks = readBlocks(children, ctx);
  const marker = textNode([leaf(`[^${label}]: `)]);
  const first = blocks[0];
  if (first?.type === 'paragraph') first.nodes.unshift(marker);
  else blocks.unshift(paragraph([marker]));
  return blocks;
}
