/*
 * The block panel: the settings of the block at the cursor (code language, title, line
 * numbers and wrap; hint style; tab title; update date; image alt and caption; embed URL;
 * formula; button), and the table's rows, columns and alignment. Ordinary form controls,
 * reachable with Tab, changing the node through one transaction each.
 */
import type { Node as PMNode } from 'prosemirror-model';
import { NodeSelection, type EditorState, type Transaction } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { schema } from '../schema.ts';

const n = schema.nodes;
type Data = Record<string, unknown>;

interface Setting {
  label: string;
  kind: 'text' | 'checkbox' | 'select';
  options?: string[];
  get(data: Data): string | boolean;
  set(data: Data, value: string | boolean): Data;
}

const text = (label: string, key: string): Setting => ({
  label,
  kind: 'text',
  get: (d) => String(d[key] ?? ''),
  set: (d, v) => {
    const out = { ...d };
    if (v === '') delete out[key];
    else out[key] = v;
    return out;
  },
});

const SETTINGS: Record<string, Setting[]> = {
  code_block: [
    text('Language', 'syntax'),
    text('Title', 'title'),
    { label: 'Line numbers', kind: 'checkbox', get: (d) => d.lineNumbers === true, set: (d, v) => withFlag(d, 'lineNumbers', v === true) },
    { label: 'Wrap lines', kind: 'checkbox', get: (d) => d.overflow === 'wrap', set: (d, v) => (v ? { ...d, overflow: 'wrap' } : withoutKey(d, 'overflow')) },
  ],
  hint: [{ label: 'Style', kind: 'select', options: ['info', 'success', 'warning', 'danger'], get: (d) => String(d.style ?? 'info'), set: (d, v) => ({ ...d, style: v }) }],
  tabs_item: [text('Tab title', 'title')],
  update: [{ label: 'Date', kind: 'text', get: (d) => String(d.date ?? '').slice(0, 10), set: (d, v) => (/^\d{4}-\d{2}-\d{2}$/.test(String(v)) ? { ...d, date: `${String(v)}T00:00:00.000Z` } : d) }],
  image: [text('Alternative text', 'alt')],
  embed: [text('URL', 'url')],
  math: [text('Formula', 'formula')],
  inline_math: [text('Formula', 'formula')],
  button: [text('Label', 'label'), { label: 'Style', kind: 'select', options: ['primary', 'secondary'], get: (d) => String(d.kind ?? 'primary'), set: (d, v) => ({ ...d, kind: v }) }],
  expandable: [{ label: 'Open by default', kind: 'checkbox', get: (d) => d.defaultExpanded === true, set: (d, v) => withFlag(d, 'defaultExpanded', v === true) }],
};

function withFlag(data: Data, key: string, on: boolean): Data {
  return on ? { ...data, [key]: true } : withoutKey(data, key);
}

function withoutKey(data: Data, key: string): Data {
  const out = { ...data };
  delete out[key];
  return out;
}

/** The node the panel shows: the selected node, or the innermost ancestor with settings. */
function target(state: EditorState): { node: PMNode; pos: number } | null {
  const selection = state.selection;
  if (selection instanceof NodeSelection && (SETTINGS[selection.node.type.name] || CAPTIONED.has(selection.node.type.name))) return { node: selection.node, pos: selection.from };
  const { $from } = selection;
  for (let depth = $from.depth; depth > 0; depth--) {
    const node = $from.node(depth);
    if (SETTINGS[node.type.name] || CAPTIONED.has(node.type.name)) return { node, pos: $from.before(depth) };
  }
  return null;
}

const CAPTIONED = new Set(['image', 'file', 'embed']);

const LABELS: Record<string, string> = {
  code_block: 'Code block',
  hint: 'Hint',
  tabs_item: 'Tab',
  update: 'Update',
  image: 'Image',
  file: 'File',
  embed: 'Embed',
  math: 'Math',
  inline_math: 'Inline math',
  button: 'Button',
  expandable: 'Expandable',
};

/* ---------------------------------------------------------------- tables */

interface CellAt {
  table: PMNode;
  tablePos: number;
  row: number;
  column: number;
}

export function cellAt(state: EditorState): CellAt | null {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 2; depth--) {
    const cell = $from.node(depth);
    if (cell.type === n.table_cell || cell.type === n.table_header_cell) {
      return { table: $from.node(depth - 2), tablePos: $from.before(depth - 2), row: $from.index(depth - 2), column: $from.index(depth - 1) };
    }
  }
  return null;
}

const emptyCell = () => n.table_cell!.create(null, n.paragraph!.create());

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
    const width = rows[0]!.cells.length;
    dispatch(state.tr.insert(row.pos + row.node.nodeSize, n.table_row!.create(null, Array.from({ length: width }, emptyCell))));
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

/* ---------------------------------------------------------------- the panel */

export class BlockPanel {
  readonly dom: HTMLElement;
  private shown: string | null = null;

  constructor(private readonly view: () => EditorView) {
    this.dom = document.createElement('div');
    this.dom.className = 'block-panel';
    this.dom.setAttribute('role', 'region');
    this.dom.setAttribute('aria-label', 'Block settings');
  }

  update(state: EditorState): void {
    const found = target(state);
    const cell = cellAt(state);
    const signature = JSON.stringify([found?.pos, found?.node.type.name, found?.node.attrs.data, found?.node.childCount, cell && [cell.tablePos, cell.row, cell.column]]);
    if (signature === this.shown) return;
    // Rebuilding while a control has focus would steal it: the change came from that control.
    if (this.dom.contains(document.activeElement) && this.shown !== null && found) return;
    this.shown = signature;
    this.dom.replaceChildren();
    if (found) this.renderSettings(found.node, found.pos);
    if (cell) this.renderTable();
    this.dom.hidden = this.dom.childElementCount === 0;
  }

  private renderSettings(node: PMNode, pos: number): void {
    const group = document.createElement('fieldset');
    const legend = document.createElement('legend');
    legend.textContent = LABELS[node.type.name] ?? node.type.name;
    group.append(legend);
    const data = (node.attrs.data ?? {}) as Data;
    for (const setting of SETTINGS[node.type.name] ?? []) {
      const label = document.createElement('label');
      label.append(`${setting.label} `);
      let control: HTMLInputElement | HTMLSelectElement;
      if (setting.kind === 'select') {
        control = document.createElement('select');
        for (const option of setting.options ?? []) control.append(new Option(option, option));
        control.value = String(setting.get(data));
      } else {
        control = document.createElement('input');
        control.type = setting.kind === 'checkbox' ? 'checkbox' : 'text';
        if (setting.kind === 'checkbox') control.checked = setting.get(data) === true;
        else control.value = String(setting.get(data));
      }
      control.addEventListener('change', () => {
        const value = control instanceof HTMLInputElement && control.type === 'checkbox' ? control.checked : control.value;
        const view = this.view();
        const current = view.state.doc.nodeAt(pos);
        if (!current) return;
        view.dispatch(view.state.tr.setNodeMarkup(pos, undefined, { ...current.attrs, data: setting.set((current.attrs.data ?? {}) as Data, value) }));
      });
      label.append(control);
      group.append(label);
    }
    if (CAPTIONED.has(node.type.name) && node.childCount === 0) {
      group.append(
        this.button('Add caption', () => {
          const view = this.view();
          const caption = n.caption!.create(null, n.paragraph!.create());
          view.dispatch(view.state.tr.insert(pos + 1, caption));
          view.focus();
        }),
      );
    }
    this.dom.append(group);
  }

  private renderTable(): void {
    const group = document.createElement('fieldset');
    const legend = document.createElement('legend');
    legend.textContent = 'Table';
    group.append(legend);
    const run = (command: (state: EditorState, dispatch: (tr: Transaction) => void) => boolean) => () => {
      const view = this.view();
      command(view.state, view.dispatch);
      view.focus();
    };
    group.append(
      this.button('Add row', run(tableCommands.addRow)),
      this.button('Remove row', run(tableCommands.removeRow)),
      this.button('Add column', run(tableCommands.addColumn)),
      this.button('Remove column', run(tableCommands.removeColumn)),
      this.button('Align left', run((s, d) => tableCommands.align(s, d, 'left'))),
      this.button('Align center', run((s, d) => tableCommands.align(s, d, 'center'))),
      this.button('Align right', run((s, d) => tableCommands.align(s, d, 'right'))),
    );
    this.dom.append(group);
  }

  private button(label: string, onClick: () => void): HTMLButtonElement {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.addEventListener('click', onClick);
    return button;
  }
}
