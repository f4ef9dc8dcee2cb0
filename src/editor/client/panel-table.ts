/*
 * The block panel's table commands: rows, columns, cards, alignment, hidden columns, card
 * size, reference cells (a card's target), cover cells (a card's image), the target and cover
 * columns, grid or cards and a grid column's width. Each edits the table in place through one
 * transaction; the panel (panel.ts) shows the controls that run them.
 */
import type { Node as PMNode } from 'prosemirror-model';
import { NodeSelection, TextSelection, type EditorState, type Transaction } from 'prosemirror-state';
import { schema } from '../schema.ts';
import type { Data, Ref } from './panel-settings.ts';

const n = schema.nodes;
export interface CellAt {
  table: PMNode;
  tablePos: number;
  row: number;
  column: number;
}

export function cellAt(state: EditorState): CellAt | null {
  const { $from } = state.selection;
  // A selected reference cell (a card's target): the cursor stands in its row.
  if (state.selection instanceof NodeSelection && state.selection.node.type === n.table_ref_cell && $from.depth >= 2) {
    return { table: $from.node($from.depth - 1), tablePos: $from.before($from.depth - 1), row: $from.index($from.depth - 1), column: $from.index($from.depth) };
  }
  for (let depth = $from.depth; depth > 2; depth--) {
    const cell = $from.node(depth);
    if (cell.type === n.table_cell || cell.type === n.table_header_cell) {
      return { table: $from.node(depth - 2), tablePos: $from.before(depth - 2), row: $from.index(depth - 2), column: $from.index(depth - 1) };
    }
  }
  return null;
}

const emptyCell = () => n.table_cell!.create(null, n.paragraph!.create());

/** A new row's cells: a text cell, or an empty reference cell under a content-ref or files column. */
const cellsFor = (head: PMNode): PMNode[] => {
  const cells: PMNode[] = [];
  head.forEach((column) => cells.push(column.attrs.kind === 'content-ref' || column.attrs.kind === 'files' ? n.table_ref_cell!.create({ ref: null, absent: true }) : emptyCell()));
  return cells;
};

export type View = { type?: string; columns?: string[]; cardSize?: string; targetDefinition?: string; coverDefinition?: string; hideHeader?: boolean };
export const viewOf = (table: PMNode): View => ((table.attrs.data as { view?: View } | null)?.view ?? {}) as View;

/** Ids of the table's columns of a kind (a card target: content-ref; a cover: files), with their titles. */
export function columnsOf(table: PMNode, kind: string): Array<{ id: string; title: string }> {
  const out: Array<{ id: string; title: string }> = [];
  table.child(0).forEach((cell, _offset, c) => {
    if (cell.attrs.kind === kind && typeof cell.attrs.column === 'string') out.push({ id: cell.attrs.column, title: cell.textContent || `Column ${c + 1}` });
  });
  return out;
}

/** A column id made here, so the view can name a column before the document is saved (the converter keeps it). */
const columnId = (): string => {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => (b % 36).toString(36)).join('');
};

export const isCards = (table: PMNode): boolean => (table.attrs.data as { view?: { type?: string } } | null)?.view?.type === 'cards';

/** Start positions of the table's rows, and of each row's cells, in the document. */
function layoutOf(at: CellAt): Array<{ pos: number; node: PMNode; cells: Array<{ pos: number; node: PMNode }> }> {
  const rows: Array<{ pos: number; node: PMNode; cells: Array<{ pos: number; node: PMNode }> }> = [];
  at.table.forEach((row, rowOffset) => {
    const pos = at.tablePos + 1 + rowOffset;
    const cells: Array<{ pos: number; node: PMNode }> = [];
    row.forEach((cell, cellOffset) => cells.push({ pos: pos + 1 + cellOffset, node: cell }));
    rows.push({ pos, node: row, cells });
  });
  return rows;
}

// Edits in place, row by row from the end, so the cursor stays where it was.
export const tableCommands = {
  addRow(state: EditorState, dispatch: (tr: Transaction) => void): boolean {
    const at = cellAt(state);
    if (!at) return false;
    const rows = layoutOf(at);
    const row = rows[at.row]!;
    const at2 = row.pos + row.node.nodeSize;
    const tr = state.tr.insert(at2, n.table_row!.create(null, cellsFor(at.table.child(0))));
    // The cursor in the new row's first text cell.
    const inside = TextSelection.findFrom(tr.doc.resolve(at2 + 1), 1, true);
    dispatch(inside ? tr.setSelection(inside) : tr);
    return true;
  },
  removeRow(state: EditorState, dispatch: (tr: Transaction) => void): boolean {
    const at = cellAt(state);
    if (!at || at.row === 0) return false;
    const row = layoutOf(at)[at.row]!;
    dispatch(state.tr.delete(row.pos, row.pos + row.node.nodeSize));
    return true;
  },
  addColumn(state: EditorState, dispatch: (tr: Transaction) => void): boolean {
    const at = cellAt(state);
    if (!at) return false;
    const tr = state.tr;
    const rows = layoutOf(at);
    const width = rows[0]!.cells.length;
    for (let r = rows.length - 1; r >= 0; r--) {
      const cell = rows[r]!.cells[at.column]!;
      tr.insert(cell.pos + cell.node.nodeSize, r === 0 ? n.table_header_cell!.create(null, schema.text(`Column ${width + 1}`)) : emptyCell());
    }
    dispatch(tr);
    return true;
  },
  removeColumn(state: EditorState, dispatch: (tr: Transaction) => void): boolean {
    const at = cellAt(state);
    if (!at || at.table.child(0).childCount <= 1) return false;
    const tr = state.tr;
    const rows = layoutOf(at);
    for (let r = rows.length - 1; r >= 0; r--) {
      const cell = rows[r]!.cells[at.column]!;
      tr.delete(cell.pos, cell.pos + cell.node.nodeSize);
    }
    dispatch(tr);
    return true;
  },
  /** Sets a header cell's attributes (hidden, alignment) for the cursor's column. */
  column(state: EditorState, dispatch: (tr: Transaction) => void, attrs: Record<string, unknown>): boolean {
    const at = cellAt(state);
    if (!at) return false;
    let pos = at.tablePos + 2;
    const head = at.table.child(0);
    for (let c = 0; c < at.column; c++) pos += head.child(c).nodeSize;
    const cell = head.child(at.column);
    // Every column hidden would leave nothing to show.
    if (attrs.hidden === true) {
      let shown = 0;
      head.forEach((c) => (shown += c.attrs.hidden ? 0 : 1));
      if (shown <= 1 && !cell.attrs.hidden) return false;
    }
    dispatch(state.tr.setNodeMarkup(pos, undefined, { ...cell.attrs, ...attrs }));
    return true;
  },
  /** Sets the reference of the cursor's reference cell (null clears it). */
  target(state: EditorState, dispatch: (tr: Transaction) => void, ref: Ref | null): boolean {
    const at = cellAt(state);
    if (!at || at.row === 0) return false;
    const cell = layoutOf(at)[at.row]!.cells[at.column]!;
    if (cell.node.type !== n.table_ref_cell) return false;
    const tr = state.tr.setNodeMarkup(cell.pos, undefined, { ref, absent: ref === null });
    dispatch(tr.setSelection(NodeSelection.create(tr.doc, cell.pos)));
    return true;
  },
  /** Sets the cover image files of the cursor's cell of a files column (an empty list removes it). */
  cover(state: EditorState, dispatch: (tr: Transaction) => void, files: string[]): boolean {
    const at = cellAt(state);
    if (!at || at.row === 0 || at.table.child(0).child(at.column).attrs.kind !== 'files') return false;
    const cell = layoutOf(at)[at.row]!.cells[at.column]!;
    if (cell.node.type !== n.table_ref_cell) return false;
    const tr = state.tr.setNodeMarkup(cell.pos, undefined, { ref: null, files, absent: false });
    dispatch(tr.setSelection(NodeSelection.create(tr.doc, cell.pos)));
    return true;
  },
  /** Changes the table's view (grid or cards, card target, cover column, card size). */
  view(state: EditorState, dispatch: (tr: Transaction) => void, change: (view: View, table: PMNode) => View): boolean {
    const at = cellAt(state);
    if (!at) return false;
    const data = (at.table.attrs.data ?? {}) as Data;
    dispatch(state.tr.setNodeMarkup(at.tablePos, undefined, { ...at.table.attrs, data: { ...data, view: change(viewOf(at.table), at.table) } }));
    return true;
  },
  /**
   * Grid <-> cards. Cards take the first content-ref column as their target and the first
   * files column as their cover; a grid has neither, and gets its column widths back from
   * the header cells (the converter writes them for grids only).
   */
  toggleCards(state: EditorState, dispatch: (tr: Transaction) => void): boolean {
    return tableCommands.view(state, dispatch, (view, table) => {
      const columns = view.columns ?? [];
      if (view.type === 'cards') return { type: 'grid', columns, hideHeader: false };
      const target = columnsOf(table, 'content-ref')[0]?.id;
      const cover = columnsOf(table, 'files')[0]?.id;
      return { type: 'cards', columns, cardSize: 'medium', ...(target ? { targetDefinition: target } : {}), ...(cover ? { coverDefinition: cover } : {}) };
    });
  },
  /** A new hidden column of card targets (content-ref) or covers (files), at the end, made the view's. */
  addKindColumn(state: EditorState, dispatch: (tr: Transaction) => void, kind: 'content-ref' | 'files'): boolean {
    const at = cellAt(state);
    if (!at || !isCards(at.table)) return false;
    const id = columnId();
    const rows = layoutOf(at);
    const tr = state.tr;
    for (let r = rows.length - 1; r >= 0; r--) {
      const row = rows[r]!;
      const end = row.pos + row.node.nodeSize - 1;
      tr.insert(end, r === 0 ? n.table_header_cell!.create({ column: id, kind, hidden: true, meta: { type: kind } }, schema.text(kind === 'files' ? 'Cover image' : 'Target')) : n.table_ref_cell!.create({ absent: true }));
    }
    const table = tr.doc.nodeAt(at.tablePos)!;
    const data = (table.attrs.data ?? {}) as Data;
    const view = { ...viewOf(table), [kind === 'files' ? 'coverDefinition' : 'targetDefinition']: id };
    tr.setNodeMarkup(at.tablePos, undefined, { ...table.attrs, data: { ...data, view } });
    dispatch(tr);
    return true;
  },
  align(state: EditorState, dispatch: (tr: Transaction) => void, align: 'left' | 'center' | 'right'): boolean {
    const at = cellAt(state);
    if (!at) return false;
    let pos = at.tablePos + 2; // inside the table, inside the header row
    const head = at.table.child(0);
    for (let c = 0; c < at.column; c++) pos += head.child(c).nodeSize;
    const cell = head.child(at.column);
    dispatch(state.tr.setNodeMarkup(pos, undefined, { ...cell.attrs, align }));
    return true;
  },
};
