/*
 * GitBook's dialect (dialect.ts) limits which blocks each container may hold (a list item
 * holds no image block, a quote no hint, ...), while markdown nests anything anywhere. Blocks a
 * container may not hold are turned into blocks it may: their content is kept as paragraphs
 * or unwrapped, never dropped. The result is in the same form the markdown of the fitted
 * document reads back to, so the round trip stays stable.
 */
import { emptyParagraph, isEmptyContent, leaf, mark, textNode } from './leaves.ts';
import { hrefFromRef } from './refs.ts';
import { markupOf } from './types.ts';
import { allows, type Container } from './dialect.ts';
import type { Block, ExpandableBlock, ContentRef, ImageBlock, InlineContent, ParagraphBlock, TableBlock, Text } from './types.ts';

export type { Container } from './dialect.ts';

/** Fits `blocks` (and, recursively, their children) into `container`. */
export function fitBlocks(blocks: Block[], container: Container): Block[] {
  return adoptOrphans(blocks).flatMap((block) => {
    if (allows(container, block.type)) return [fitChildren(block)];
    const replaced = replacement(block);
    // A block with no replacement that the container refuses: a type no reading knows
    // (completeDocument turns this into InvalidDocument), instead of recursing forever.
    if (replaced.length === 1 && replaced[0] === block) throw new TypeError(`unknown block type "${String(block.type)}" in ${container}`);
    return fitBlocks(replaced, container);
  });
}

/** The block that holds each kind of item: a `{% tab %}` written without its `{% tabs %}` is still a tab. */
const PARENT_OF = { 'tabs-item': 'tabs', 'stepper-step': 'stepper', column: 'columns', update: 'updates' } as const;
type OrphanType = keyof typeof PARENT_OF;

const isOrphan = (block: Block): boolean => block.type in PARENT_OF;

/**
 * Items written without their parent tag (a lone `{% tab %}`, `{% step %}`, `{% column %}`,
 * `{% update %}`): each run of them gets its parent, so a tab keeps its title and an update
 * its date wherever they are shown, instead of unwrapping to the body alone (an empty one
 * left nothing). Where the parent is not allowed, it is fitted as any such block.
 */
function adoptOrphans(blocks: Block[]): Block[] {
  if (!blocks.some(isOrphan)) return blocks;
  const out: Block[] = [];
  let run = null as { type: OrphanType; items: Block[] } | null;
  for (const block of blocks) {
    if (!isOrphan(block)) {
      run = null;
      out.push(block);
      continue;
    }
    const itemType = block.type as OrphanType;
    if (run?.type !== itemType) {
      run = { type: itemType, items: [] };
      const type = PARENT_OF[itemType];
      out.push((type === 'columns' ? { object: 'block', type, isVoid: false, data: {}, nodes: run.items } : { object: 'block', type, data: {}, nodes: run.items }) as Block);
    }
    run.items.push(block);
  }
  return out;
}

function fitChildren(block: Block): Block {
  switch (block.type) {
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return { ...block, nodes: block.nodes.map((item) => ({ ...item, nodes: nonEmpty(fitBlocks(item.nodes, 'list-item')) })) } as Block;
    case 'blockquote':
      return { ...block, nodes: fitBlocks(block.nodes, 'blockquote') };
    case 'hint':
      return { ...block, nodes: fitBlocks(block.nodes, 'hint') };
    case 'tabs':
      return { ...block, nodes: block.nodes.map((tab) => ({ ...tab, nodes: fitBlocks(tab.nodes, 'tabs-item') })) };
    case 'stepper':
      return { ...block, nodes: block.nodes.map((s) => ({ ...s, nodes: fitBlocks(s.nodes, 'stepper-step') })) };
    case 'updates':
      return { ...block, nodes: block.nodes.map((u) => ({ ...u, nodes: fitBlocks(u.nodes, 'update') })) };
    case 'columns':
      return { ...block, nodes: block.nodes.map((c) => ({ ...c, nodes: fitBlocks(c.nodes, 'column') })) };
    case 'expandable': {
      const [title, body] = block.fragments;
      return { ...block, fragments: [title, { ...body, nodes: nonEmpty(fitBlocks(body.nodes, 'expandable-body')) }] } as ExpandableBlock;
    }
    default:
      return block;
  }
}

function nonEmpty(blocks: Block[]): Block[] {
  return blocks.length > 0 ? blocks : [emptyParagraph()];
}

function paragraph(nodes: InlineContent[]): ParagraphBlock {
  return { object: 'block', type: 'paragraph', data: {}, nodes };
}

function text(value: string, bold = false): Text {
  return textNode([leaf(value, bold ? [mark('bold')] : [])]);
}

function linkParagraph(ref: ContentRef, label: string): ParagraphBlock {
  return paragraph([{ object: 'inline', type: 'link', isVoid: false, data: { ref }, nodes: [text(label)] }]);
}

/** What a block becomes where it is not allowed; the caller fits the result again. */
function replacement(block: Block): Block[] {
  switch (block.type) {
    case 'images':
      return block.nodes.flatMap(imageParagraphs);
    case 'image':
      return imageParagraphs(block);
    case 'code':
      return [codeParagraph(block.nodes.map((line) => line.nodes.map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : n.data.expression)).join('')))];
    case 'math':
      return [paragraph([{ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: block.data.formula } }])];
    case 'hint':
    case 'blockquote':
    case 'list-item':
    case 'tabs-item':
    case 'stepper-step':
      return block.nodes;
    case 'tabs':
      return block.nodes.flatMap((tab) => (tab.data.title ? [paragraph([text(tab.data.title, true)]), ...tab.nodes] : tab.nodes));
    case 'stepper':
    case 'columns':
      return block.nodes.flatMap((s) => s.nodes);
    case 'updates':
      // Outside the page's top level, each update keeps its date as a bold paragraph.
      return block.nodes.flatMap((u) => [paragraph([text(u.data.date.endsWith('T00:00:00.000Z') ? u.data.date.slice(0, 10) : u.data.date, true)]), ...u.nodes]);
    case 'update':
    case 'column':
      return block.nodes;
    case 'expandable':
      return [...block.fragments[0].nodes, ...block.fragments[1].nodes];
    case 'table':
      return tableParagraphs(block);
    case 'embed':
      return [linkParagraph({ kind: 'url', url: block.data.url }, block.data.url), ...(block.fragments ?? []).flatMap((f) => f.nodes)];
    case 'content-ref':
      return [linkParagraph(block.data.ref, hrefFromRef(block.data.ref))];
    case 'drawing':
      // A path not resolved to a file of the space stays the path the `<img>` had.
      return [paragraph([{ object: 'inline', type: 'inline-image', isVoid: true, data: { ref: /[/.]/.test(block.data.ref.file) ? { kind: 'url', url: block.data.ref.file } : block.data.ref } }])];
    case 'file':
      return [linkParagraph(block.data.ref, block.data.ref.file), ...(block.fragments ?? []).flatMap((f) => f.nodes)];
    case 'openapi-operation':
      return [paragraph([text(`${block.data.method.toUpperCase()} ${block.data.path}`)])];
    case 'code-line':
      return [paragraph(block.nodes)];
    case 'integration':
      // A list item or quote holds no integration block: the markup stays, as text.
      return [paragraph([text(markupOf(block) ?? '')])];
    default:
      return [block];
  }
}

/** An image outside an images block: an inline image, then its caption. */
function imageParagraphs(image: ImageBlock): Block[] {
  const data: { ref: ImageBlock['data']['ref']; refDark?: ImageBlock['data']['ref']; alt?: string; caption?: string } = { ref: image.data.ref };
  if (image.data.refDark) data.refDark = image.data.refDark;
  if (image.data.alt) data.alt = image.data.alt;
  if (image.data.src) (data as { src?: string }).src = image.data.src;
  // A figure's plain-text caption (or empty one) fits the inline image's own `caption`, so the
  // figure is written back as one; a caption with marks or links becomes a paragraph after it.
  const caption = image.fragments.find((f) => f.fragment === 'caption');
  const plain = caption ? plainCaption(caption.nodes) : null;
  if (plain !== null) data.caption = plain;
  const rest = plain !== null ? image.fragments.filter((f) => f !== caption) : image.fragments;
  return [paragraph([{ object: 'inline', type: 'inline-image', isVoid: true, data }]), ...rest.flatMap((f) => f.nodes)];
}

/** The text of a caption of one paragraph of unmarked text; null when it holds more. */
function plainCaption(nodes: ParagraphBlock[]): string | null {
  if (nodes.length > 1) return null;
  const content = nodes[0]?.nodes ?? [];
  if (!content.every((n) => n.object === 'text' && n.leaves.every((l) => l.marks.length === 0))) return null;
  return content.map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : '')).join('');
}

/** Code outside a code block: one line per line break, each line in a code span. */
function codeParagraph(lines: string[]): ParagraphBlock {
  const nodes: Text[] = [];
  const leaves = lines.flatMap((line, i) => {
    const parts = line === '' ? [] : [leaf(line, [mark('code')])];
    return i < lines.length - 1 ? [...parts, leaf('\n')] : parts;
  });
  nodes.push(textNode(leaves.length > 0 ? leaves : [leaf('')]));
  return paragraph(nodes);
}

/** A table outside the places tables go: one paragraph per row, cells separated by ` | `. */
function tableParagraphs(table: TableBlock): Block[] {
  const columns = table.data.view.columns;
  const header = columns.map((id) => table.data.definition[id]?.title ?? '').join(' | ');
  const rows = Object.values(table.data.records)
    .sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0))
    .map((record) => {
      const cells = columns.map((id): InlineContent[] => {
        const value = record.values[id];
        if (Array.isArray(value)) return [];
        if (value && typeof value === 'object') return [text(hrefFromRef(value))];
        const paragraphs = table.fragments.find((f) => f.fragment === value)?.nodes ?? [];
        return paragraphs.flatMap((p, n) => (n > 0 ? [text(' '), ...p.nodes] : p.nodes));
      });
      const nodes: InlineContent[] = [];
      cells.forEach((cell, i) => {
        if (i > 0) nodes.push(text(' | '));
        if (!isEmptyContent(cell)) nodes.push(...cell);
      });
      return paragraph(nodes);
    });
  return table.data.view.type === 'grid' && table.data.view.hideHeader ? rows : [paragraph([text(header)]), ...rows];
}
