/*
 * The document normal form both directions agree on: blocks fitted into their containers,
 * inline content normalized, empty paragraphs dropped where markdown cannot write them,
 * and keys derived from each node's position.
 */
import { boundHrefsOf } from './bound-hrefs.ts';
import { fitBlocks } from './fit.ts';
import { currentForms, writtenFormsOf, writtenSeparatorsOf, writtenTitleOf } from './written-form.ts';
import { emptyParagraph, isEmptyContent, normalizeInlines } from './leaves.ts';
import type { Block, Document, ExpandableBlock, ImageBlock, ImagesBlock, InlineContent, InlineLink, ParagraphBlock } from './types.ts';

/** The normal form of a document (without keys). */
export function normalizeDocument(document: Document): Document {
  const data: Document['data'] = document.data?.escapeParentheses === true ? { escapeParentheses: true } : {};
  const nodes = normalizeBlocks(fitBlocks(document.nodes, 'document'), false);
  const writtenForms = currentForms(nodes, writtenFormsOf(document.data));
  if (writtenForms.length > 0) data.writtenForms = writtenForms;
  const writtenSeparators = currentForms(nodes, writtenSeparatorsOf(document.data));
  if (writtenSeparators.length > 0) data.writtenSeparators = writtenSeparators;
  const writtenTitle = writtenTitleOf(document.data);
  if (writtenTitle) data.writtenTitle = writtenTitle;
  if (document.data?.lineEnding === 'crlf') data.lineEnding = 'crlf';
  const boundHrefs = boundHrefsOf(document);
  if (boundHrefs.length > 0) data.boundHrefs = [...boundHrefs];
  return { object: 'document', data, nodes };
}

const isEmptyParagraph = (b: Block) => b.type === 'paragraph' && isEmptyContent(b.nodes) && b.data.align === undefined;

/**
 * Normalizes a list of sibling blocks; `required` keeps at least one (an empty paragraph).
 * Empty paragraphs between blocks stay (GitBook writes each as two more blank lines); at
 * either end of a container markdown cannot write them, so they go.
 */
function normalizeBlocks(blocks: Block[], required: boolean): Block[] {
  const out = blocks.map(normalizeBlock);
  const first = out.findIndex((b) => !isEmptyParagraph(b));
  if (first < 0) return required ? [emptyParagraph()] : [];
  let last = out.length - 1;
  while (isEmptyParagraph(out[last])) last--;
  return out.slice(first, last + 1).map((b) => (isEmptyParagraph(b) ? emptyParagraph() : b));
}

function inlines(nodes: InlineContent[], keepLeadingSpaces = false): InlineContent[] {
  return normalizeInlines(
    nodes.map((n) => (n.object === 'inline' && n.type === 'link' ? ({ ...n, nodes: normalizeInlines(n.nodes, { trim: false }) } as InlineLink) : n)),
    { trim: true, keepLeadingSpaces },
  );
}

/** A summary keeps its trailing spaces (GitBook writes `<summary>Step 1 </summary>`). */
function summaryOf(block: ParagraphBlock): ParagraphBlock {
  return { ...block, nodes: normalizeInlines(block.nodes, { trim: true, keepTrailingSpaces: true }) };
}

function paragraphOf(block: ParagraphBlock): ParagraphBlock {
  return { ...block, nodes: inlines(block.nodes) };
}

function normalizeBlock(block: Block): Block {
  switch (block.type) {
    case 'paragraph':
      // A paragraph's leading spaces are GitBook's `&#x20;`: kept (an aligned one is HTML, trimmed).
      return { ...block, nodes: inlines(block.nodes, !block.data.align) };
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return { ...block, nodes: inlines(block.nodes) };
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return { ...block, nodes: block.nodes.map((item) => ({ ...item, nodes: normalizeBlocks(item.nodes, true) })) } as Block;
    case 'blockquote':
    case 'hint':
      return { ...block, nodes: normalizeBlocks(block.nodes, false) };
    case 'tabs':
      return { ...block, nodes: block.nodes.map((tab) => ({ ...tab, nodes: normalizeBlocks(tab.nodes, false) })) };
    case 'stepper':
      return { ...block, nodes: block.nodes.map((s) => ({ ...s, nodes: normalizeBlocks(s.nodes, false) })) };
    case 'updates':
      return { ...block, nodes: block.nodes.map((u) => ({ ...u, nodes: normalizeBlocks(u.nodes, false) })) };
    case 'columns':
      return { ...block, nodes: block.nodes.map((c) => ({ ...c, nodes: normalizeBlocks(c.nodes, false) })) };
    case 'expandable': {
      const [title, body] = block.fragments;
      return {
        ...block,
        fragments: [
          { ...title, nodes: [summaryOf(title.nodes[0] ?? emptyParagraph())] },
          { ...body, nodes: normalizeBlocks(body.nodes, true) },
        ],
      } as ExpandableBlock;
    }
    case 'images': {
      // An image with no caption fragment is written as a markdown image when it can be one;
      // any other gets the empty caption its `<figure>` reads back with.
      const plain = isMarkdownImage(block);
      return {
        ...block,
        nodes: block.nodes.map((image) => {
          const caption = image.fragments.find((f) => f.fragment === 'caption');
          if (!caption) return plain ? image : { ...image, fragments: [emptyCaption()] };
          const nodes = caption.nodes.map(paragraphOf).filter((p) => !isEmptyContent(p.nodes));
          return { ...image, fragments: [nodes.length > 0 ? { ...caption, nodes } : emptyCaption()] };
        }),
      };
    }
    case 'table': {
      const fragments = block.fragments.map((f) => ({ ...f, nodes: f.nodes.map(paragraphOf) }));
      // A column title's written form (see headerFragment) stays only while it says the title.
      const header = new Map(Object.keys(block.data.definition).map((id) => [headerFragment(id), block.data.definition[id].title]));
      const kept = fragments.filter((f) => !header.has(f.fragment) || f.nodes.map((p) => inlineText(p.nodes)).join(' ') === header.get(f.fragment));
      // The pipe form of cells of several paragraphs stays only while such a cell is there.
      const { written, ...data } = block.data;
      const keep = written === 'html' || (written === 'gfm' && kept.some((f) => f.nodes.length > 1));
      return { ...block, data: keep ? block.data : data, fragments: kept };
    }
    case 'file':
    case 'embed': {
      const { fragments, ...rest } = block;
      const caption = (fragments ?? []).find((f) => f.fragment === 'caption');
      const nodes = (caption?.nodes ?? []).map(paragraphOf).filter((p) => !isEmptyContent(p.nodes));
      return nodes.length > 0 ? { ...rest, fragments: [{ ...caption!, nodes: nodes.slice(0, 1) }] } : rest;
    }
    default:
      return block;
  }
}

function emptyCaption(): ImageBlock['fragments'][number] {
  return { object: 'fragment', fragment: 'caption', nodes: [emptyParagraph()] };
}

/**
 * GitBook's older export wrote a lone image as `![alt](src)`; today it writes a `<figure>`.
 * A block of one image without a caption fragment (read from `![alt](src)`), no dark-mode
 * source, width, alignment, frame or full width has that markdown form.
 */
export function isMarkdownImage(block: ImagesBlock): boolean {
  if (block.nodes.length !== 1 || block.data.align || block.data.withFrame || block.data.fullWidth !== undefined) return false;
  const [image] = block.nodes;
  return image.fragments.length === 0 && !image.data.refDark && image.data.width === undefined;
}

/**
 * The fragment holding a GFM column title as written (`**Name**`, a link): GitBook's column
 * title is a plain string. A DocumentFragment like the cells', which GitBook ignores.
 */
export function headerFragment(columnId: string): string {
  return `header-${columnId}`;
}

function inlineText(nodes: InlineContent[]): string {
  return nodes.map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : n.type === 'link' ? inlineText(n.nodes) : '')).join('').replace(/\n/g, ' ');
}

/** Gives every block, inline, text and fragment a key from its position: `b3`, `b3.0`, `b3.f1`. */
export function assignKeys(document: Document): Document {
  document.nodes.forEach((node, i) => keyNode(node, `b${i}`));
  return document;
}

type Keyable = { key?: string; nodes?: unknown[]; fragments?: unknown[] };

/** Gives a block the key `key` and its descendants keys derived from it (`key.0`, `key.f1`). */
export function keyBlock(node: Keyable, key: string): void {
  keyNode(node, key);
}

function keyNode(node: Keyable, key: string): void {
  // The key goes first so that serialized documents read naturally.
  const entries = Object.entries(node).filter(([k]) => k !== 'key');
  for (const k of Object.keys(node)) delete (node as Record<string, unknown>)[k];
  const [object, ...rest] = entries;
  Object.assign(node, Object.fromEntries([object, ['key', key], ...rest]));
  node.nodes?.forEach((child, i) => {
    if (isKeyable(child)) keyNode(child, `${key}.${i}`);
  });
  node.fragments?.forEach((fragment, i) => {
    if (isKeyable(fragment)) keyNode(fragment, `${key}.f${i}`);
  });
}

function isKeyable(value: unknown): value is Keyable {
  return typeof value === 'object' && value !== null && 'object' in value && (value as { object: string }).object !== 'leaf';
}
