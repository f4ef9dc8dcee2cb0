/*
 * A pipe table (mdast) -> GitBook's table block: one text column per header cell, a record
 * per row, a fragment per cell. GitBook's HTML tables are read by html-table.ts.
 */
import type { PhrasingContent, Table } from 'mdast';
import { leaf, paragraph, textNode } from './leaves.ts';
import { readInlines, type InlineContext } from './read-inline.ts';
import { orderIndex } from './order.ts';
import { headerFragment } from './normalize.ts';
import { CELL_STRUCTURE, cellParagraphs, type CellPiece } from './cell-paragraphs.ts';
import type { InlineContent, TableBlock } from './types.ts';

export function readTable(node: Table, ctx: InlineContext): TableBlock {
  const [header, ...rows] = node.children;
  const columns = (header?.children ?? []).map((_, c) => `c${c}`);
  const definition: TableBlock['data']['definition'] = {};
  const fragments: TableBlock['fragments'] = [];
  let paragraphCells = false;
  columns.forEach((id, c) => {
    const cell = header.children[c];
    // A header cell of several `<p>` paragraphs (GitBook writes a pipe table's first row so when
    // its cells are) is a title of those paragraphs' words, its written paragraphs kept beside it.
    const written = cellLines(cell.children);
    if (written.several) paragraphCells = true;
    const lines = written.lines.map((p) => readInlines(p, ctx).nodes);
    const title = lines.map(plainText).join(' ');
    const align = node.align?.[c];
    definition[id] = { id, title, type: 'text', textAlignment: align === 'center' ? 'center' : align === 'right' ? 'right' : 'left' };
    // A column title is plain text: its marks, links and breaks as written are kept beside it.
    if (lines.length > 1 || !isPlainText(lines[0])) fragments.push({ object: 'fragment', fragment: headerFragment(id), nodes: lines.map((nodes) => paragraph(nodes)) });
  });
  const records: TableBlock['data']['records'] = {};
  rows.forEach((row, r) => {
    const values: Record<string, string> = {};
    columns.forEach((id, c) => {
      const name = `r${r}${id}`;
      const cell = row.children[c];
      const written = cell ? cellLines(cell.children) : null;
      if (written?.several) paragraphCells = true;
      const nodes = written ? written.lines.map((p) => paragraph(readInlines(p, ctx).nodes)) : [paragraph([textNode([leaf('')])])];
      fragments.push({ object: 'fragment', fragment: name, nodes });
      values[id] = name;
    });
    records[`r${r}`] = { orderIndex: orderIndex(r), values };
  });
  // A header of cells with nothing to read (no title, nothing kept beside it: not a button or a formula).
  const hideHeader = columns.length > 0 && columns.every((id) => definition[id].title === '' && !fragments.some((f) => f.fragment === headerFragment(id)));
  const data: TableBlock['data'] = { view: { type: 'grid', columns, hideHeader }, records, definition };
  // GitBook's 2021 export wrote cells of several paragraphs in a pipe table (`| <p>a</p><p>b</p> |`): kept so
  // (today's GitBook writes lists there too: read as paragraphs, see cell-paragraphs.ts).
  if (paragraphCells) data.written = 'gfm';
  return { object: 'block', type: 'table', isVoid: true, data, fragments };
}

/** A cell's paragraphs as written: several (`<p>`s, list items; `several`), or its one paragraph. */
function cellLines(children: PhrasingContent[]): { lines: PhrasingContent[][]; several: boolean } {
  const lifted = liftParagraphTags(children);
  const paragraphs = cellParagraphsOf(lifted);
  return paragraphs ? { lines: paragraphs, several: true } : { lines: [unwrapCell(lifted)], several: false };
}

/** Two or more paragraphs, or a list (cell-paragraphs.ts); null for a cell of one paragraph or none. */
function cellParagraphsOf(children: PhrasingContent[]): PhrasingContent[][] | null {
  const pieces = children.map((node): CellPiece<PhrasingContent> => {
    const tag = node.type === 'html' ? node.value.trim().toLowerCase() : '';
    return CELL_STRUCTURE.test(tag) ? { structure: tag } : { node };
  });
  const read = cellParagraphs(pieces, (node) => node.type === 'text' && node.value.trim() === '');
  return read && (read.paragraphs.length > 1 || read.listed) ? read.paragraphs : null;
}

const isTag = (node: PhrasingContent | undefined, tag: string) => node?.type === 'html' && node.value.trim().toLowerCase() === tag;
const isParagraphTag = (node: PhrasingContent) => isTag(node, '<p>') || isTag(node, '</p>');

/**
 * GitBook writes a cell holding a line break as `<p>…<br>…</p>`: the paragraph tags go. A
 * `<p>` never closed (a row cut short by a bare `|`) is closed by the cell's end, as HTML does.
 */
function unwrapCell(children: PhrasingContent[]): PhrasingContent[] {
  if (children.length < 2 || !isTag(children[0], '<p>')) return children;
  const inner = children.slice(1, isTag(children[children.length - 1], '</p>') ? -1 : undefined);
  return inner.some(isParagraphTag) ? children : inner;
}

/**
 * Emphasis markers read across a paragraph boundary (`<code>.**{</code>…}</p><p><code>.**`)
 * hold `</p><p>`: the tags are lifted out between two halves of the mark, as a browser
 * closes and reopens a formatting element around a paragraph's end.
 */
function liftParagraphTags(children: PhrasingContent[]): PhrasingContent[] {
  return children.flatMap((node): PhrasingContent[] => {
    if (node.type !== 'strong' && node.type !== 'emphasis' && node.type !== 'delete') return [node];
    const inner = liftParagraphTags(node.children);
    if (!inner.some(isParagraphTag)) return [{ ...node, children: inner }];
    const out: PhrasingContent[] = [];
    let run: PhrasingContent[] = [];
    const flush = () => {
      if (run.length) out.push({ ...node, children: run } as PhrasingContent);
      run = [];
    };
    for (const child of inner) {
      if (isParagraphTag(child)) {
        flush();
        out.push(child);
      } else run.push(child);
    }
    flush();
    return out;
  });
}

function isPlainText(nodes: InlineContent[]): boolean {
  return nodes.every((n) => n.object === 'text' && n.leaves.every((l) => l.marks.length === 0 && !l.text.includes('\n')));
}

function plainText(nodes: InlineContent[]): string {
  return nodes
    .map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : n.type === 'link' ? plainText(n.nodes) : ''))
    .join('')
    .replace(/\n/g, ' ');
}
