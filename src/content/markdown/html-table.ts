/*
 * GitBook's HTML tables <-> table blocks.
 *
 * GitBook writes a table as HTML (one line, `<table>…</table>`) when GFM cannot hold it:
 * cards (`data-view="cards"`, a hidden `data-card-target` column of links, a hidden
 * `data-card-cover data-type="files"` column of cover images), column widths
 * (`<th width="200">`), cells of several paragraphs (`<td><p>…</p><p>…</p></td>`), hidden
 * columns. Reading accepts exactly what the writer below produces: a table that would not be
 * written back byte for byte is left to the caller, which keeps it verbatim, so nothing
 * GitBook wrote is ever changed by a round trip.
 */
import { decodeEntities, quoteAttribute, splitHtml, type HtmlTag } from './syntax.ts';
import { leaf, textNode } from './leaves.ts';
import { readHtmlInlines, type InlineContext } from './read-inline.ts';
import { writeInlines } from './write-inline.ts';
import { hrefFromRef, refFromHref } from './refs.ts';
import { orderIndex } from './order.ts';
import { markupBlock } from './types.ts';
import { assignKeys, normalizeDocument } from './normalize.ts';
import type { ContentRef, Document, InlineContent, ParagraphBlock, TableBlock, TableDefinition, TableRecord } from './types.ts';
import { CELL_STRUCTURE, cellParagraphs, type CellPiece } from './cell-paragraphs.ts';

type Part = { tag: HtmlTag } | { text: string };
interface Cell {
  attrs: Record<string, string>;
  parts: Part[];
}

const TABLE_ATTRS = new Set(['data-view', 'data-card-size', 'data-header-hidden', 'data-full-width']);
const TH_ATTRS = new Set(['width', 'align', 'data-hidden', 'data-card-target', 'data-card-cover', 'data-type']);

/** The table block a GitBook HTML table stands for; null when it is not one this module writes back as is. */
export function readHtmlTable(html: string, ctx: InlineContext): TableBlock | null {
  // Cell text is HTML, not markdown: character references are decoded here.
  const parts = splitHtml(html.trim()).map((p): Part => ('text' in p ? { text: decodeEntities(p.text) } : p));
  const first = parts[0];
  if (!first || !('tag' in first) || first.tag.name !== 'table' || first.tag.closing) return null;
  const tableAttrs = first.tag.attrs;
  if (Object.keys(tableAttrs).some((name) => !TABLE_ATTRS.has(name))) return null;
  const rows = readRows(parts.slice(1));
  if (!rows || rows.head.length === 0) return null;

  const cards = tableAttrs['data-view'] === 'cards';
  if (tableAttrs['data-view'] !== undefined && !cards) return null;
  const definition: Record<string, TableDefinition> = {};
  const visible: string[] = [];
  const widths: Record<string, number> = {};
  let target: string | undefined;
  let cover: string | undefined;
  for (const [c, th] of rows.head.entries()) {
    if (Object.keys(th.attrs).some((name) => !TH_ATTRS.has(name))) return null;
    const id = `c${c}`;
    const title = plain(readHtmlInlines(th.parts, ctx));
    const type = th.attrs['data-type'];
    if (type === 'content-ref') definition[id] = { id, title, type: 'content-ref' };
    else if (type === 'files') definition[id] = { id, title, type: 'files' };
    else if (type === undefined) {
      const align = th.attrs.align;
      definition[id] = { id, title, type: 'text', textAlignment: align === 'center' || align === 'right' ? align : 'left' };
    } else return null;
    if (th.attrs['data-hidden'] === undefined) visible.push(id);
    if ('data-card-target' in th.attrs) target = id;
    if ('data-card-cover' in th.attrs) {
      if (!cards || type !== 'files' || cover !== undefined) return null;
      cover = id;
    }
    if (th.attrs.width !== undefined) {
      const width = Number(th.attrs.width);
      if (!(width > 0)) return null;
      widths[id] = width;
    }
  }

  const records: Record<string, TableRecord> = {};
  const fragments: TableBlock['fragments'] = [];
  for (const [r, row] of rows.body.entries()) {
    if (row.length !== rows.head.length || row.some((cell) => Object.keys(cell.attrs).length > 0)) return null;
    const values: TableRecord['values'] = {};
    for (const [c, cell] of row.entries()) {
      const id = `c${c}`;
      if (definition[id].type === 'content-ref') {
        const ref = readRefCell(cell.parts);
        if (ref === undefined) return null;
        values[id] = ref;
        continue;
      }
      if (definition[id].type === 'files') {
        // File references until paths are resolved; settleTables makes them file ids.
        const refs = readFilesCell(cell.parts);
        if (!refs) return null;
        values[id] = refs;
        continue;
      }
      const paragraphs = readCellParagraphs(cell.parts, ctx);
      if (!paragraphs) return null;
      const name = `r${r}${id}`;
      fragments.push({ object: 'fragment', fragment: name, nodes: paragraphs });
      values[id] = name;
    }
    records[`r${r}`] = { orderIndex: orderIndex(r), values };
  }

  const data: TableBlock['data'] = {
    view: cards
      ? { type: 'cards', columns: visible, cardSize: tableAttrs['data-card-size'] === 'large' ? 'large' : 'medium', ...(target ? { targetDefinition: target } : {}), ...(cover ? { coverDefinition: cover } : {}) }
      : { type: 'grid', columns: visible, hideHeader: 'data-header-hidden' in tableAttrs, ...(Object.keys(widths).length > 0 ? { columnWidths: widths } : {}) },
    records,
    definition,
  };
  if (tableAttrs['data-full-width'] === 'true') data.fullWidth = true;
  return { object: 'block', type: 'table', isVoid: true, data, fragments };
}

/** Whether GFM cannot hold the table, so it is written as GitBook's HTML table. */
export function tableNeedsHtml(block: TableBlock): boolean {
  const { view, definition, fullWidth } = block.data;
  if (view.type === 'cards' || fullWidth || block.data.written === 'html') return true;
  if (view.columnWidths && Object.keys(view.columnWidths).length > 0) return true;
  if (Object.values(definition).some((d) => d.type !== 'text')) return true;
  if (Object.keys(definition).some((id) => !view.columns.includes(id))) return true;
  return block.data.written !== 'gfm' && block.fragments.some((f) => f.nodes.length !== 1);
}

/** The table as GitBook writes it in HTML, on one line. */
export function writeHtmlTable(block: TableBlock): string {
  const { view, definition, records, fullWidth } = block.data;
  const ids = [...view.columns.filter((id) => definition[id]), ...Object.keys(definition).filter((id) => !view.columns.includes(id))];
  const fragments = new Map(block.fragments.map((f) => [f.fragment, f.nodes]));
  let attrs = '';
  if (view.type === 'cards') attrs += `${view.cardSize === 'large' ? ' data-card-size="large"' : ''} data-view="cards"`;
  if (view.type === 'grid' && view.hideHeader) attrs += ' data-header-hidden';
  if (fullWidth) attrs += ' data-full-width="true"';
  const head = ids.map((id) => {
    const d = definition[id];
    let a = '';
    const width = view.type === 'grid' ? view.columnWidths?.[id] : undefined;
    if (width !== undefined) a += ` width=${quoteAttribute(String(width))}`;
    if (d.type === 'text' && d.textAlignment !== 'left') a += ` align="${d.textAlignment}"`;
    if (!view.columns.includes(id)) a += ' data-hidden';
    if (view.type === 'cards' && view.targetDefinition === id) a += ' data-card-target';
    if (view.type === 'cards' && view.coverDefinition === id) a += ' data-card-cover';
    if (d.type !== 'text') a += ` data-type="${d.type}"`;
    return `<th${a}>${inline([textNode([leaf(d.title)])])}</th>`;
  });
  const rows = Object.values(records)
    .sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0))
    .map((record) => {
      const cells = ids.map((id) => {
        const value = record.values[id];
        if (definition[id].type === 'files') return `<td>${Array.isArray(value) ? value.map((file) => refCell(typeof file === 'string' ? { kind: 'file', file } : file)).join('') : ''}</td>`;
        if (definition[id].type === 'content-ref') return `<td>${value && typeof value === 'object' && !Array.isArray(value) ? refCell(value) : ''}</td>`;
        const paragraphs = (typeof value === 'string' && fragments.get(value)) || [];
        if (paragraphs.length === 1) return `<td>${inline(paragraphs[0].nodes)}</td>`;
        return `<td>${paragraphs.map((p) => `<p>${inline(p.nodes)}</p>`).join('')}</td>`;
      });
      return `<tr>${cells.join('')}</tr>`;
    });
  return `<table${attrs}><thead><tr>${head.join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function inline(nodes: InlineContent[]): string {
  return writeInlines(nodes, { singleLine: true, html: true, rawHtml: true });
}

/** A link cell: GitBook labels it with the file name it points at (a URL with itself), as content-refs. */
function refCell(ref: ContentRef): string {
  const href = hrefFromRef(ref);
  const label = /^(?:[a-z][a-z0-9+.-]*:|\/|#)/i.test(href) ? href : href.split('#')[0].split('/').pop() || href;
  return `<a href=${quoteAttribute(href)}>${inline([textNode([leaf(safeDecode(label))])])}</a>`;
}

/** `<a href="x">x</a>`, or nothing (null); undefined when the cell holds anything else. */
function readRefCell(parts: Part[]): ContentRef | null | undefined {
  const meaningful = parts.filter((p) => 'tag' in p || p.text.trim() !== '');
  if (meaningful.length === 0) return null;
  const [open, , close] = meaningful;
  if (meaningful.length > 3 || !open || !('tag' in open) || open.tag.name !== 'a' || open.tag.closing) return undefined;
  if (!close || !('tag' in close) || close.tag.name !== 'a' || !close.tag.closing) return undefined;
  const href = open.tag.attrs.href;
  return href ? refFromHref(href) : undefined;
}

/** A files cell: `<a href="path">name</a>` per file (none when empty); null when it holds anything else. */
function readFilesCell(parts: Part[]): ContentRef[] | null {
  const meaningful = parts.filter((p) => 'tag' in p || p.text.trim() !== '');
  const refs: ContentRef[] = [];
  for (let i = 0; i < meaningful.length; i += 3) {
    const ref = readRefCell(meaningful.slice(i, i + 3));
    if (!ref) return null;
    refs.push(ref);
  }
  return refs;
}

/**
 * A cell's paragraphs: its `<p>` elements and list items (cell-paragraphs.ts, as a pipe-table
 * cell's), or its inline content as one paragraph; null when its block tags do not nest or
 * carry attributes.
 */
function readCellParagraphs(parts: Part[], ctx: InlineContext): ParagraphBlock[] | null {
  const pieces: CellPiece<Part>[] = [];
  for (const part of parts) {
    const structure = 'tag' in part ? `<${part.tag.closing ? '/' : ''}${part.tag.name}>` : '';
    const structural = 'tag' in part && CELL_STRUCTURE.test(structure);
    if (structural && Object.keys(part.tag.attrs).length > 0) return null;
    pieces.push(structural ? { structure } : { node: part });
  }
  if (!pieces.some((piece) => 'structure' in piece)) return [paragraph(readHtmlInlines(parts, ctx))];
  const read = cellParagraphs(pieces, (part) => 'text' in part && part.text.trim() === '');
  return read ? read.paragraphs.map((nodes) => paragraph(readHtmlInlines(nodes, ctx))) : null;
}

function paragraph(nodes: InlineContent[]): ParagraphBlock {
  return { object: 'block', type: 'paragraph', data: {}, nodes: nodes.length > 0 ? nodes : [textNode([leaf('')])] };
}

function plain(nodes: InlineContent[]): string {
  return nodes.map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : '')).join('');
}

/** Splits `<thead><tr><th>…</th></tr></thead><tbody><tr><td>…</td></tr></tbody></table>` into cells. */
function readRows(parts: Part[]): { head: Cell[]; body: Cell[][] } | null {
  const head: Cell[] = [];
  const body: Cell[][] = [];
  let section: 'thead' | 'tbody' | null = null;
  let row: Cell[] | null = null;
  let cell: Cell | null = null;
  let ended = false;
  for (const part of parts) {
    if (ended) {
      if ('tag' in part || part.text.trim() !== '') return null;
      continue;
    }
    if (cell) {
      if ('tag' in part && (part.tag.name === 'td' || part.tag.name === 'th') && part.tag.closing) {
        row!.push(cell);
        cell = null;
      } else if ('tag' in part && ['table', 'tr', 'thead', 'tbody', 'td', 'th'].includes(part.tag.name)) return null;
      else cell.parts.push(part);
      continue;
    }
    if (!('tag' in part)) {
      if (part.text.trim() !== '') return null;
      continue;
    }
    const { name, closing, attrs } = part.tag;
    if ((name === 'thead' || name === 'tbody') && !closing && !section && Object.keys(attrs).length === 0) section = name;
    else if ((name === 'thead' || name === 'tbody') && closing && section === name && !row) section = null;
    else if (name === 'tr' && !closing && section && !row && Object.keys(attrs).length === 0) row = [];
    else if (name === 'tr' && closing && row) {
      if (section === 'thead') {
        if (head.length > 0) return null;
        head.push(...row);
      } else body.push(row);
      row = null;
    } else if ((name === 'th' ? section === 'thead' : name === 'td' && section === 'tbody') && !closing && row) cell = { attrs, parts: [] };
    else if (name === 'table' && closing && !section) ended = true;
    else return null;
  }
  return ended ? { head, body } : null;
}

/**
 * GitBook's schema cannot hold a URL or file reference as a table cell value (it matches both
 * `ContentRef` and `DocumentTableImageRecord`, and the value must match exactly one). A card
 * target is therefore read as a URL (a relative `.md` path waiting to be resolved), and once
 * paths are resolved a table whose link cells still hold URL or file references is kept
 * verbatim instead: its HTML, byte for byte. Called after path resolution.
 */
export function settleTables<T extends Document>(document: T): T {
  let changed = false;
  const settle = (node: unknown, container: string): unknown => {
    if (Array.isArray(node)) return node.map((n) => settle(n, container));
    if (!node || typeof node !== 'object') return node;
    const object = node as Record<string, unknown>;
    if (object.object === 'block' && object.type === 'table') {
      const filed = filesAsIds(object as unknown as TableBlock);
      if (tableIsValid(filed)) {
        if (filed === (object as unknown)) return node;
        changed = true;
        return filed;
      }
      changed = true;
      const table = filed;
      // A list item holds no verbatim block: there the links become a visible text column.
      if (container === 'list-item') return linksAsText(table);
      const { object: kind, ...rest } = markupBlock('html', writeHtmlTable(table));
      return object.key === undefined ? { object: kind, ...rest } : { object: kind, key: object.key, ...rest };
    }
    if (object.object === 'leaf' || object.object === 'mark') return node;
    const out: Record<string, unknown> = { ...object };
    const inner = typeof object.type === 'string' ? object.type : typeof object.fragment === 'string' ? object.fragment : container;
    if (Array.isArray(object.nodes)) out.nodes = object.nodes.map((n) => settle(n, inner));
    if (Array.isArray(object.fragments)) out.fragments = object.fragments.map((n) => settle(n, inner));
    return out;
  };
  const settled = settle(document, 'document') as T;
  return changed ? (assignKeys(normalizeDocument(settled)) as T) : document;
}

/** The table with its link columns as visible text columns whose cells hold the links. */
function linksAsText(table: TableBlock): TableBlock {
  const definition: TableBlock['data']['definition'] = {};
  const fragments = [...table.fragments];
  const records: TableBlock['data']['records'] = {};
  for (const [id, d] of Object.entries(table.data.definition)) {
    definition[id] = d.type !== 'text' ? { id, title: d.title, type: 'text', textAlignment: 'left' } : d;
  }
  for (const [r, record] of Object.entries(table.data.records)) {
    const values: TableRecord['values'] = {};
    for (const [id, value] of Object.entries(record.values)) {
      if (value === null || typeof value === 'object') {
        const name = `${r}${id}`;
        const refs = (Array.isArray(value) ? value : value ? [value] : []).map((v): ContentRef => (typeof v === 'string' ? { kind: 'file', file: v } : v));
        const nodes: InlineContent[] = refs.length > 0 ? refs.map((ref) => ({ object: 'inline', type: 'link', isVoid: false, data: { ref }, nodes: [textNode([leaf(hrefFromRef(ref))])] })) : [textNode([leaf('')])];
        fragments.push({ object: 'fragment', fragment: name, nodes: [paragraph(nodes)] });
        values[id] = name;
      } else values[id] = value;
    }
    records[r] = { ...record, values };
  }
  const { view } = table.data;
  const columns = Object.keys(definition).filter((id) => view.columns.includes(id) || table.data.definition[id].type !== 'text');
  const nextView = view.type === 'cards' ? { type: 'cards' as const, columns, cardSize: view.cardSize } : { ...view, columns };
  return { ...table, data: { ...table.data, view: nextView, definition, records }, fragments };
}

function tableIsValid(table: TableBlock): boolean {
  return Object.values(table.data.records ?? {}).every((record) =>
    Object.values(record.values ?? {}).every((value) =>
      Array.isArray(value) ? value.every((file) => typeof file === 'string') : !value || typeof value !== 'object' || (value.kind !== 'url' && value.kind !== 'file'),
    ),
  );
}

const filesColumns = (table: TableBlock): string[] => Object.values(table.data?.definition ?? {}).flatMap((d) => (d?.type === 'files' ? [d.id] : []));

/**
 * A files cell holds file ids (GitBook's schema), but paths are read and written as
 * references: mapRefs (paths.ts) shows each id as a file reference (`filesAsRefs`) and takes
 * back the references still naming a file of the space (`filesAsIds`); one made a path for
 * writing stays a reference, which writeHtmlTable writes as a link. The same table when nothing changes.
 */
export function filesAsRefs(table: TableBlock): TableBlock {
  return mapFilesCells(table, (value) => value.map((file) => (typeof file === 'string' ? { kind: 'file', file } : file)));
}

export function filesAsIds(table: TableBlock): TableBlock {
  return mapFilesCells(table, (value) =>
    value.every((file) => typeof file === 'string' || (file.kind === 'file' && !file.space)) ? value.map((file) => (typeof file === 'string' ? file : (file as { file: string }).file)) : value,
  );
}

function mapFilesCells(table: TableBlock, map: (value: Array<string | ContentRef>) => Array<string | ContentRef>): TableBlock {
  const columns = filesColumns(table);
  if (columns.length === 0) return table;
  let changed = false;
  const records: TableBlock['data']['records'] = {};
  for (const [id, record] of Object.entries(table.data.records ?? {})) {
    const values = { ...record.values };
    for (const column of columns) {
      const value = values[column];
      if (!Array.isArray(value)) continue;
      const next = map(value);
      if (next.some((v, i) => v !== value[i])) {
        values[column] = next;
        changed = true;
      }
    }
    records[id] = { ...record, values };
  }
  return changed ? { ...table, data: { ...table.data, records } } : table;
}

function safeDecode(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}
