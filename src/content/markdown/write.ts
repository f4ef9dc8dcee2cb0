/*
 * GitBook document -> canonical GitBook-flavoured markdown, written the way GitBook writes
 * it: `*` bullets, `***` dividers, `{% hint %}` / `{% tabs %}` / `{% code %}` tags,
 * `<details>` expandables and `<figure>` images. The document is brought to its normal form
 * first, so any document, not only one read from markdown, is written the same way.
 */
import { headerFragment, isMarkdownImage, normalizeDocument } from './normalize.ts';
import { markupOf } from './types.ts';
import { contentRefLabel, hrefFromRef, srcFromFileRef } from './refs.ts';
import { quoteAttribute, unescapeMarkdown } from './syntax.ts';
import { escapeText, imageMarkdown, imageSrc, withTextStyle, writeInlines } from './write-inline.ts';
import { isEmptyContent } from './leaves.ts';
import { formIn, type Container } from './dialect.ts';
import type {
  Block, CodeBlock, Document, DrawingBlock, ExpandableBlock, HeadingBlock, ImageBlock, ImagesBlock, InlineContent, ListBlock,
  ListItemBlock, ParagraphBlock, TableBlock, TableRecord, TextAlignment, UpdateBlock, WrittenForm,
} from './types.ts';
import { UPDATE_TAGS } from './prepare.ts';
import { tableNeedsHtml, writeHtmlTable } from './html-table.ts';
import { definitionsWritten, readSnippetBlocks } from './parse.ts';
import { formLookup, sameBlocks, separatorFits, separatorLookup, writtenFormsOf, writtenSeparatorsOf, type BlockSpan } from './written-form.ts';
import { codeNeedsHtml, writeHtmlCode } from './html-code.ts';

export interface WriteOptions {
  /** Levels to add to every heading: 1 writes GitBook's page markdown, where `#` is the page title. */
  headingOffset?: number;
}

interface Context {
  headingOffset: number;
  /** In a container that holds no image block (list item, quote): a captioned inline image alone is written as GitBook's `<figure>`. */
  inlineFigures?: boolean;
  bullet: '*' | '-';
  delimiter: '.' | ')';
}

/**
 * Writes a document as markdown; reading it back gives the same document. Blocks are written
 * in GitBook's canonical form, except a run of top-level blocks the page was read with in
 * another accepted form and that is unchanged since (written-form.ts): that run is written as
 * it was read, provided the whole text still reads back as the document.
 */
export function documentToMarkdown(document: Document, options: WriteOptions = {}): string {
  const normal = normalizeDocument(document);
  const headingOffset = options.headingOffset ?? 0;
  const lookup = formLookup(normal.nodes, writtenFormsOf(normal.data));
  const separators = separatorLookup(normal.nodes, writtenSeparatorsOf(normal.data));
  const top: TopLevel = {};
  if (lookup) {
    const fits = keptFormFits(normal.nodes, headingOffset, normal.data.escapeParentheses, writtenDefinitions(normal.nodes, lookup, keptFormFits(normal.nodes, headingOffset, normal.data.escapeParentheses)));
    top.lookup = (index) => { const form = lookup(index); return form && fits(index, form) ? form : undefined; };
  }
  if (separators) {
    const read = (markdown: string) => readSnippetBlocks(markdown, headingOffset);
    top.separator = (before, after, canonical) => {
      const kept = separators(before.last, after.first);
      if (!kept) return undefined;
      const run = normal.nodes.slice(before.first, after.last + 1);
      return separatorFits(before.text, kept.separator, after.text, canonical, run, read) ? kept.separator : undefined;
    };
  }
  const markdown = writeTop(normal, headingOffset, top);
  // A page's last kept form may end in its own newline: a fence left open holds the page's trailing blank lines.
  return markdown === '' || markdown.endsWith('\n') ? markdown : markdown + '\n';
}

/**
 * Whether a kept form may be written at a node index: only where it reads exactly as the
 * run's canonical text does (the field is open to any caller, and the run may have been
 * changed by path resolution since), and not next to a list of the same kind, which it
 * could join. Reading applies the same check, so what is kept is what will be written.
 */
export function keptFormFits(nodes: Block[], headingOffset: number, escapeParentheses: true | undefined, definitions = '') {
  const read = (markdown: string) => readSnippetBlocks(markdown, headingOffset, definitions);
  const data = escapeParentheses ? { escapeParentheses } : {};
  /** The index of the nearest block from `from` on that is not an empty paragraph (GitBook writes those as blank lines). */
  const neighbour = (from: number, step: number) => {
    for (let i = from; i >= 0 && i < nodes.length; i += step) {
      const block = nodes[i];
      if (!(block.type === 'paragraph' && isEmptyContent(block.nodes) && !block.data.align)) return i;
    }
    return undefined;
  };
  return (index: number, form: WrittenForm): boolean => {
    const run = nodes.slice(index, index + form.nodes);
    // A list next to another of its kind is kept while their markers differ: writeBlocks checks that as it writes.
    const after = neighbour(index + form.nodes, 1);
    const canonical = writeTop({ object: 'document', data, nodes: run }, headingOffset);
    // With a block after it, a form must end where its blocks do: a fence or `<pre>` left open
    // (kept as read at a page's end) would take in the next block, a paragraph added below it.
    const following = after !== undefined ? `\n\n${FOLLOWING}` : '';
    const formRead = read(form.markdown + following);
    const canonicalRead = read(canonical + following);
    if (sameBlocks(formRead, canonicalRead)) return true;
    // Or the form reads back as its very blocks, followed as the canonical text is: a written
    // destination (`image\(1\).png`, kept as `src`) is what the canonical text, an `<img>` in a
    // list item say, has no place for, so its reading differs from the form's, not from the page.
    const tail = following === '' ? 0 : 1;
    return formRead.length === run.length + tail && sameBlocks(formRead.slice(0, run.length), run) && sameBlocks(formRead.slice(run.length), canonicalRead.slice(canonicalRead.length - tail));
  };
}

/** A paragraph standing for the block after a kept form, to check that the form leaves it alone. */
const FOLLOWING = '\uE000';

/** A link reference definition line (`[name]: url`), as kept forms hold them; `[^name]:` is a footnote's (GFM), not one. */
const DEFINITION_LINE = /^ {0,3}\[(?!\^)(?:[^\]\\\n]|\\.)+\]:[ \t]*\S.*$/m;

/** The link reference definitions a text writes, one a line, as read (a definition-like line in code is none). */
function definitionLines(markdown: string): string {
  return DEFINITION_LINE.test(markdown) ? definitionsWritten(markdown) : '';
}

/**
 * The definitions the kept forms that will be written hold (each fits alone): the forms that
 * use them are checked with them, so a reference is kept only while its definition is written.
 */
function writtenDefinitions(nodes: Block[], lookup: (index: number) => WrittenForm | undefined, fitsAlone: (index: number, form: WrittenForm) => boolean): string {
  const lines: string[] = [];
  for (let index = 0; index < nodes.length; index++) {
    const form = lookup(index);
    if (!form || definitionLines(form.markdown) === '') continue;
    if (fitsAlone(index, form)) lines.push(definitionLines(form.markdown));
  }
  return lines.join('\n');
}

/** Two lists of the same kind in a row read as one whatever stands between them but other blocks. */
function joinsList(a: Block | undefined, b: Block | undefined): boolean {
  const kind = (block: Block | undefined) => (isBulletList(block ?? null) ? 'bullet' : block?.type === 'list-ordered' ? 'ordered' : undefined);
  return kind(a) !== undefined && kind(a) === kind(b);
}

/** The document's top-level blocks written canonically; `spans` records where each stands, `lookup` gives kept forms. */
export function writeTop(normal: Document, headingOffset: number, top: TopLevel = {}): string {
  return withTextStyle({ escapeParentheses: normal.data.escapeParentheses === true }, () =>
    writeBlocks(normal.nodes, { headingOffset, bullet: '*', delimiter: '.' }, false, top),
  );
}

interface TopLevel {
  lookup?: (index: number) => WrittenForm | undefined;
  /** The kept separator between two written runs of top-level blocks, if any fits. */
  separator?: (before: WrittenRun, after: WrittenRun, canonical: string) => string | undefined;
  spans?: BlockSpan[];
}

/** A run of top-level blocks as written: its first and last node indexes, and its text. */
interface WrittenRun {
  first: number;
  last: number;
  text: string;
}

const isBulletList = (b: Block | null) => b?.type === 'list-unordered' || b?.type === 'list-tasks';

/**
 * Sibling blocks, separated by blank lines. A list right after a list of the same kind switches
 * marker so that the two stay two lists. In list items (`tight`) a list follows its paragraph
 * on the next line, as GitBook writes nested lists.
 */
function writeBlocks(blocks: Block[], ctx: Context, tight = false, top: TopLevel = {}): string {
  let out = '';
  let previous: Block | null = null;
  // The previous written run (a block, or the blocks of a kept form): its first node and its text.
  let previousFirst = -1;
  let previousIndex = -1;
  let previousText = '';
  let bullet: Context['bullet'] = '*';
  let delimiter: Context['delimiter'] = '.';
  // The marker the last list was written with, as written (a kept form may use `+`).
  let lastMarker: string | undefined;
  // Empty paragraphs between blocks: GitBook writes each as nothing between two separators.
  let empties = 0;
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index];
    if (block.type === 'paragraph' && isEmptyContent(block.nodes) && !block.data.align) {
      if (previous) empties++;
      continue;
    }
    let form = top.lookup?.(index);
    // A kept list right after a list of its kind, written with the same marker, would join it: written canonically instead.
    if (form && joinsList(previous ?? undefined, block) && [undefined, lastMarker].includes(listMarkers(form.markdown)[0])) form = undefined;
    let text: string;
    let end = index;
    if (form) {
      text = form.markdown;
      end = index + form.nodes - 1;
      // A list after it switches from the marker the form wrote, not the canonical one.
      lastMarker = listMarkers(text).at(-1) ?? lastMarker;
      if (lastMarker === '*' || lastMarker === '-' || lastMarker === '+') bullet = lastMarker === '*' ? '*' : '-';
      if (lastMarker === '.' || lastMarker === ')') delimiter = lastMarker;
    } else {
      if (isBulletList(block)) lastMarker = bullet = isBulletList(previous) && bullet === '*' ? '-' : '*';
      if (block.type === 'list-ordered') lastMarker = delimiter = previous?.type === 'list-ordered' && delimiter === '.' ? ')' : '.';
      text = writeBlock(block, { ...ctx, bullet, delimiter });
      if (text === '') continue;
    }
    if (previous) {
      const canonical = empties > 0 ? '\n\n'.repeat(empties + 1) : tight && !form && previous.type === 'paragraph' && interruptsParagraph(block) ? '\n' : '\n\n';
      out += top.separator?.({ first: previousFirst, last: previousIndex, text: previousText }, { first: index, last: end, text }, canonical) ?? canonical;
    }
    top.spans?.push({ index, start: out.length, end: out.length + text.length });
    out += text;
    previousFirst = index;
    previousIndex = end;
    previousText = text;
    previous = blocks[end];
    index = end;
    empties = 0;
  }
  return out;
}

/** A list item's line: its indentation, its bullet (`*`, `-`, `+`) or its number's delimiter (`.`, `)`). */
const LIST_MARKER_LINE = /^( {0,3})(?:([*+-])|\d{1,9}([.)]))[ \t]/gm;

/** The markers (bullets, delimiters) of a kept form's top-level list items, in order: those indented as its first. */
function listMarkers(text: string): string[] {
  const lines = [...text.matchAll(LIST_MARKER_LINE)];
  return lines.filter((m) => m[1] === lines[0][1]).map((m) => m[2] ?? m[3]);
}

/** CommonMark lets a list start right under a paragraph only if its first item has content and an ordered one starts at 1. */
function interruptsParagraph(block: Block): boolean {
  if (block.type === 'list-ordered' && (block.data.start ?? 1) !== 1) return false;
  if (block.type !== 'list-ordered' && block.type !== 'list-unordered' && block.type !== 'list-tasks') return false;
  const first = block.nodes[0]?.nodes[0];
  return first !== undefined && !(first.type === 'paragraph' && isEmptyContent(first.nodes));
}

/** The context of a container's children: an image alone in a paragraph is written as GitBook writes images there (dialect.ts). */
function inContainer(ctx: Context, container: Container): Context {
  return { ...ctx, inlineFigures: formIn(container, 'images') === 'figure' };
}

function writeBlock(block: Block, ctx: Context): string {
  switch (block.type) {
    case 'paragraph':
      return writeParagraph(block, ctx);
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return writeHeading(block, ctx);
    case 'divider':
      return '***';
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return writeList(block, ctx);
    case 'blockquote':
      return prefixLines(writeBlocks(block.nodes, inContainer(ctx, 'blockquote')), '> ', '> ', '>');
    case 'code':
      return writeCode(block);
    case 'hint':
      return wrapTag(`hint style=${quoteAttribute(block.data.style)}${block.data.icon ? ` icon=${quoteAttribute(block.data.icon)}` : ''}`, 'hint', writeBlocks(block.nodes, inContainer(ctx, 'hint')));
    case 'tabs':
      return wrapTag('tabs', 'tabs', block.nodes.map((tab) => wrapTag(`tab title=${quoteAttribute(tab.data.title ?? '')}${tab.data.icon ? ` icon=${quoteAttribute(tab.data.icon)}` : ''}`, 'tab', writeBlocks(tab.nodes, inContainer(ctx, 'tabs-item')))).join('\n\n'));
    case 'stepper':
      // GitBook leaves a blank line between `{% endstep %}` and the next `{% step %}`.
      return wrapTag('stepper', 'stepper', block.nodes.map((s) => wrapTag('step', 'step', writeBlocks(s.nodes, inContainer(ctx, 'stepper-step')))).join('\n\n'));
    case 'updates':
      // GitBook leaves a blank line after `{% updates %}` and between updates, none before `{% endupdates %}`.
      return wrapTag(`updates${block.data.format ? ` format=${quoteAttribute(block.data.format)}` : ''}`, 'updates', '\n' + block.nodes.map((u) => wrapTag(`update date=${quoteAttribute(writeDate(u.data.date))}${writeTags(u.data.tags)}`, 'update', writeBlocks(u.nodes, inContainer(ctx, 'update')))).join('\n\n'));
    case 'columns':
      return wrapTag(`columns${block.data.fullWidth ? ' fullWidth="true"' : ''}`, 'columns', block.nodes.map((c) => wrapTag(`column${writeWidth(c.data.width)}`, 'column', writeBlocks(c.nodes, inContainer(ctx, 'column')))).join('\n\n'));
    case 'expandable':
      return writeExpandable(block, ctx);
    case 'math':
      return `$$\n${block.data.formula}\n$$`;
    case 'embed': {
      const tag = `embed url=${quoteAttribute(block.data.written !== undefined && unescapeMarkdown(block.data.written) === block.data.url ? block.data.written : block.data.url)}${block.data.fullWidth ? ' fullWidth="true"' : ''}`;
      const caption = block.fragments?.find((f) => f.fragment === 'caption')?.nodes[0];
      return caption ? wrapTag(tag, 'embed', writeParagraph(caption)) : `{% ${tag} %}`;
    }
    case 'content-ref': {
      const href = hrefFromRef(block.data.ref);
      const label = block.data.text ?? contentRefLabel(href);
      return wrapTag(`content-ref url=${quoteAttribute(href)}`, 'content-ref', `[${escapeText(label, { singleLine: true })}](${href.replace(/[\s()<>]/g, encodeURIComponent)})`);
    }
    case 'file': {
      const caption = block.fragments?.find((f) => f.fragment === 'caption')?.nodes[0];
      return wrapTag(`file src=${quoteAttribute(srcFromFileRef(block.data.ref))}`, 'file', caption ? writeParagraph(caption) : '');
    }
    case 'drawing':
      return writeDrawing(block);
    case 'openapi-operation': {
      const { ref, path, method, fallback } = block.data;
      return wrapTag(`openapi-operation spec=${quoteAttribute(ref.spec)} path=${quoteAttribute(path)} method=${quoteAttribute(method)}`, 'openapi-operation', fallback ?? '');
    }
    case 'images':
      return writeImages(block);
    case 'table':
      return writeTable(block);
    case 'list-item':
    case 'tabs-item':
    case 'stepper-step':
    case 'update':
    case 'column':
      return writeBlocks(block.nodes, inContainer(ctx, block.type));
    case 'image':
      return writeImages({ object: 'block', type: 'images', isVoid: false, data: {}, nodes: [block] });
    case 'code-line':
      return writeParagraph({ object: 'block', type: 'paragraph', data: {}, nodes: block.nodes });
    case 'integration':
      // Quire's verbatim markup goes back byte for byte; other integrations have no markdown form.
      return markupOf(block) ?? '';
  }
}

export function writeDrawing(block: DrawingBlock): string {
  return `<img src=${quoteAttribute(srcFromFileRef(block.data.ref))} alt="" class="gitbook-drawing">`;
}

/** Midnight UTC is written as the plain date GitBook writes. */
/** An update's tags, as GitBook writes them; a tag of another space has no markdown form and is not written. */
function writeTags(tags: UpdateBlock['data']['tags']): string {
  const slugs = (tags ?? []).filter((t) => t.kind === 'tag' && !t.space && UPDATE_TAGS.test(t.tag)).map((t) => t.tag);
  return slugs.length > 0 ? ` tags=${quoteAttribute(slugs.join(','))}` : '';
}

function writeDate(date: string): string {
  return date.endsWith('T00:00:00.000Z') ? date.slice(0, 10) : date;
}

function writeWidth(width: number | { value: number; unit: string } | undefined): string {
  if (width === undefined) return '';
  return ` width=${quoteAttribute(typeof width === 'number' ? String(width) : `${width.value}${width.unit}`)}`;
}

function wrapTag(open: string, name: string, body: string): string {
  return [`{% ${open} %}`, ...(body === '' ? [] : [body]), `{% end${name} %}`].join('\n');
}

function prefixLines(text: string, first: string, rest: string, blank = rest.trimEnd()): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? first + line : line === '' ? blank : rest + line))
    .join('\n');
}

const HTML_ALIGN: Record<TextAlignment, string> = { start: 'left', center: 'center', end: 'right' };

function writeParagraph(block: ParagraphBlock, ctx?: Context): string {
  if (block.data.align) return `<p align="${HTML_ALIGN[block.data.align]}">${writeInlines(block.nodes, { singleLine: true, html: true })}</p>`;
  const only = block.nodes.filter((n) => !(n.object === 'text' && isEmptyContent([n])));
  if (only.length === 1 && only[0].object === 'inline' && only[0].type === 'inline-image') {
    const { ref, refDark, alt, caption } = only[0].data;
    // GitBook's figure in a list item, which holds no image block: read back as this inline image.
    if (ctx?.inlineFigures && caption !== undefined) return writeFigure({ object: 'block', type: 'image', isVoid: true, data: { ref, ...(refDark ? { refDark } : {}), ...(alt ? { alt } : {}) }, fragments: caption === '' ? [] : [{ object: 'fragment', fragment: 'caption', nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: caption, marks: [] }] }] }] }] });
    // A paragraph of one image alone would read back as an image block: the `<img>` form keeps it inline.
    return imageMarkdown(only[0], true);
  }
  return writeInlines(block.nodes, { keepLeadingSpaces: true });
}

function writeHeading(block: HeadingBlock, ctx: Context): string {
  const depth = Number(block.type.slice(-1)) + ctx.headingOffset;
  if (block.data.align) {
    const content = writeInlines(block.nodes, { singleLine: true, html: true });
    const id = block.data.id ? ` id=${quoteAttribute(block.data.id)}` : '';
    return `<h${depth} align="${HTML_ALIGN[block.data.align]}"${id}>${content}</h${depth}>`;
  }
  const content = writeInlines(block.nodes, { singleLine: true, heading: true });
  const anchor = block.data.id ? ` <a href="#${block.data.id}" id="${block.data.id}"></a>` : '';
  return `${'#'.repeat(depth)}${content === '' ? '' : ' ' + content}${anchor}`;
}

function writeList(block: ListBlock, ctx: Context): string {
  const start = block.type === 'list-ordered' ? (block.data.start ?? 1) : 1;
  let out = '';
  block.nodes.forEach((item, i) => {
    const marker = block.type === 'list-ordered' ? `${start + i}${ctx.delimiter}` : ctx.bullet;
    if (i > 0) out += '\n';
    out += writeListItem(item, marker, block.type === 'list-tasks' ? item.data.checked === true : undefined, ctx);
  });
  return out;
}

/**
 * GitBook writes an item's blocks apart by blank lines ("spread"), a list nested under the
 * item's paragraph on the next line only when the item is just that paragraph and that list.
 */
function isSpread(item: ListItemBlock): boolean {
  const [first, second, ...rest] = item.nodes;
  if (!second) return false;
  const nested = second.type === 'list-unordered' || second.type === 'list-ordered' || second.type === 'list-tasks';
  return !(rest.length === 0 && first.type === 'paragraph' && nested);
}

function writeListItem(item: ListItemBlock, marker: string, checked: boolean | undefined, ctx: Context): string {
  let content = writeBlocks(item.nodes, inContainer(ctx, 'list-item'), !isSpread(item));
  // `* ***` would be one thematic break: a divider opening a `*` item is written `---`.
  if (marker === '*' && item.nodes[0]?.type === 'divider') content = '---' + content.slice(3);
  const width = item.data.indent !== undefined && item.data.indent > marker.length + 1 && item.data.indent <= marker.length + 4 ? item.data.indent : marker.length + 1;
  const indent = ' '.repeat(width);
  if (checked === undefined) return content === '' ? marker : prefixLines(content, marker + ' '.repeat(width - marker.length), indent);
  const box = `${marker} [${checked ? 'x' : ' '}] `;
  // A checkbox needs text after it on its line: an empty item, or one that starts with another block, gets an encoded space.
  if (item.nodes[0]?.type !== 'paragraph' || content === '') return box + '&#x20;' + (content === '' ? '' : '\n\n' + prefixLines(content, indent, indent));
  return prefixLines(content, box, indent);
}

function writeCode(block: CodeBlock): string {
  const body = block.nodes.map((line) => line.nodes.map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : n.data.expression)).join('')).join('\n');
  const syntax = block.data.syntax ?? '';
  const char = syntax.includes('`') ? '~' : '`';
  const longest = Math.max(0, ...(body.match(char === '`' ? /`+/g : /~+/g) ?? []).map((run) => run.length));
  const fence = char.repeat(Math.max(3, longest + 1));
  const code = codeNeedsHtml(block) ? writeHtmlCode(block) : `${fence}${syntax}\n${body}\n${fence}`;
  const attrs = codeAttributes(block.data);
  return attrs === '' ? code : wrapTag(`code${attrs}`, 'code', code);
}

function codeAttributes(data: CodeBlock['data']): string {
  let attrs = '';
  if (data.title) attrs += ` title=${quoteAttribute(data.title)}`;
  if (data.overflow === 'wrap') attrs += ' overflow="wrap"';
  if (data.lineNumbers) attrs += ' lineNumbers="true"';
  if (data.fullWidth) attrs += ' fullWidth="true"';
  if (data.expandable) attrs += ' expandable="true"';
  return attrs;
}

function writeExpandable(block: ExpandableBlock, ctx: Context): string {
  const [title, body] = block.fragments;
  const summary = writeInlines(title.nodes[0]?.nodes ?? [], { singleLine: true, html: true, keepTrailingSpaces: true });
  const content = writeBlocks(body.nodes, inContainer(ctx, 'expandable-body'));
  return [block.data.defaultExpanded ? '<details open>' : '<details>', `<summary>${summary}</summary>`, ...(content === '' ? [] : [content]), '</details>'].join('\n\n');
}

function writeImages(block: ImagesBlock): string {
  if (isMarkdownImage(block)) {
    const { ref, alt, src } = block.nodes[0].data;
    return imageMarkdown({ object: 'inline', type: 'inline-image', isVoid: true, data: { ref, ...(alt ? { alt } : {}), ...(src ? { src } : {}) } });
  }
  const figures = block.nodes.map(writeFigure).join('');
  const attrs = [
    block.data.align ? ` align="${block.data.align}"` : '',
    block.data.withFrame ? ' data-with-frame="true"' : '',
    block.data.fullWidth !== undefined ? ` data-full-width="${block.data.fullWidth}"` : '',
  ].join('');
  return attrs === '' && block.nodes.length <= 1 ? figures : `<div${attrs}>${figures}</div>`;
}

function writeFigure(image: ImageBlock): string {
  const { ref, refDark, alt, width } = image.data;
  // GitBook writes a figure's alt with `<` and `>` bare (`alt="Grant consent for <tenant>"`).
  const img = `<img src=${quoteAttribute(imageSrc(ref))} alt=${quoteAttribute(alt ?? '', 'bare')}${width ? ` width="${width}"` : ''}>`;
  const picture = refDark ? `<picture><source srcset=${quoteAttribute(imageSrc(refDark))} media="(prefers-color-scheme: dark)">${img}</picture>` : img;
  const caption = image.fragments.find((f) => f.fragment === 'caption')?.nodes[0]?.nodes;
  const figcaption = caption && !isEmptyContent(caption) ? `<figcaption><p>${writeInlines(caption, { singleLine: true, html: true })}</p></figcaption>` : '<figcaption></figcaption>'; // GitBook writes an empty one
  return `<figure>${picture}${figcaption}</figure>`;
}

const GFM_ALIGN = { left: '---', center: ':-:', right: '--:' } as const;

function writeTable(block: TableBlock): string {
  if (tableNeedsHtml(block)) return writeHtmlTable(block);
  const columns = block.data.view.columns.filter((id) => block.data.definition[id]);
  if (columns.length === 0) return '';
  const fragments = new Map(block.fragments.map((f) => [f.fragment, f.nodes]));
  const cell = (name: TableRecord['values'][string] | undefined): string => {
    const paragraphs = (typeof name === 'string' && fragments.get(name)) || [];
    // Several paragraphs (a table read from GitBook's 2021 pipe tables): `<p>…</p><p>…</p>`.
    if (paragraphs.length > 1) return paragraphs.map((p) => `<p>${writeInlines(p.nodes, { singleLine: true, inTable: true, html: true })}</p>`).join('');
    const nodes: InlineContent[] = paragraphs[0]?.nodes ?? [];
    // GitBook writes a cell holding a line break as an HTML paragraph.
    const breaks = nodes.some((n) => n.object === 'text' && n.leaves.some((l) => l.text.includes('\n') && !l.marks.some((m) => m.type === 'code')));
    return breaks ? `<p>${writeInlines(nodes, { singleLine: true, inTable: true, html: true })}</p>` : writeInlines(nodes, { singleLine: true, inTable: true });
  };
  const header = columns.map((id) => (fragments.has(headerFragment(id)) ? cell(headerFragment(id)) : escapeText(block.data.definition[id].title, { singleLine: true, inTable: true })));
  const rows = Object.values(block.data.records)
    .sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0))
    .map((record) => columns.map((id) => cell(record.values[id])));
  const widths = columns.map((_, c) => Math.max(3, header[c].length, ...rows.map((row) => row[c].length)));
  const line = (cells: string[]) => `| ${cells.map((text, c) => text.padEnd(widths[c])).join(' | ')} |`;
  const delimiter = columns.map((id, c) => {
    const definition = block.data.definition[id];
    const align = (definition.type === 'text' && GFM_ALIGN[definition.textAlignment]) || GFM_ALIGN.left;
    return align[0] + '-'.repeat(widths[c] - 2) + align[2];
  });
  return [line(header), `| ${delimiter.join(' | ')} |`, ...rows.map(line)].join('\n');
}
