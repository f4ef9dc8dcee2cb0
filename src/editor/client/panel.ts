/*
 * The block panel: the settings of the block at the cursor (alignment of a paragraph or
 * heading; code language, title, line numbers and wrap; hint style; tab title; changelog
 * format, update date, adding and removing updates; image alt text, width, dark-mode image,
 * caption and the images' alignment, full width and frame; embed URL; formula; button label,
 * style, icon and action; a drawing's image; an OpenAPI block's operation), and the table's
 * rows or cards, columns, alignment, hidden columns, card size, reference cells (a card's
 * target), cover cells (a card's image), the target and cover columns, grid or cards and a
 * grid column's width. Ordinary form controls, reachable with Tab, changing the node through one
 * transaction each. The settings themselves, and what each writes, are in panel-settings.ts:
 * what GitBook's schema allows and the markdown engine reads and writes (src/content/markdown:
 * `<p align>`, `<img width>`, `<picture>` for the dark image, `<a class="button" data-icon>` /
 * `<button data-action>`, `{% updates format %}`, `{% update tags %}`, GitBook's HTML cards
 * table with `data-card-cover`, `<th width>`).
 */
import type { Node as PMNode } from 'prosemirror-model';
import { NodeSelection, TextSelection, type EditorState, type Transaction } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { CONTAINER_OF_NODE, schema } from '../schema.ts';
import { chooseOperation, today, webUrl } from './blocks.ts';
import { LABELS, SETTINGS, withoutKey, type Data, type PanelContext, type Ref } from './panel-settings.ts';

const n = schema.nodes;

export { PANEL_SETTINGS, type PanelContext } from './panel-settings.ts';

interface Target {
  node: PMNode;
  pos: number;
}

const CAPTIONED = new Set(['image', 'file', 'embed']);
const TEXTBLOCKS = new Set(['paragraph', 'heading']);
/** A block whose settings show with its container's: an image's images block, an update's changelog. */
const PARENT_OF: Record<string, string> = { image: 'images', update: 'updates' };

const hasSettings = (node: PMNode) => SETTINGS[node.type.name] !== undefined || CAPTIONED.has(node.type.name);

/**
 * What the panel shows: the cursor's paragraph or heading (its alignment, where it stands as
 * a block: not in a caption, a cell or a title, whose markdown holds no alignment), and the
 * selected node or the innermost block around the cursor with settings, with its container's.
 */
function targets(state: EditorState): Target[] {
  const selection = state.selection;
  const { $from } = selection;
  const out: Target[] = [];
  if (selection instanceof NodeSelection && hasSettings(selection.node)) {
    out.push({ node: selection.node, pos: selection.from });
  } else {
    if (TEXTBLOCKS.has($from.parent.type.name) && $from.depth > 0 && CONTAINER_OF_NODE[$from.node($from.depth - 1).type.name]) out.push({ node: $from.parent, pos: $from.before() });
    for (let d = $from.depth; d > 0; d--) {
      const node = $from.node(d);
      if (!TEXTBLOCKS.has(node.type.name) && hasSettings(node)) {
        out.push({ node, pos: $from.before(d) });
        break;
      }
    }
  }
  // The innermost block found, and its container when that has settings of its own.
  const inner = out[out.length - 1];
  const parentType = inner && PARENT_OF[inner.node.type.name];
  if (inner && parentType) {
    const $inner = state.doc.resolve(inner.pos);
    if ($inner.parent.type.name === parentType && $inner.depth > 0) out.push({ node: $inner.parent, pos: $inner.before() });
  }
  return out;
}


/** Buttons of a block beside its settings: captions, updates, dark-mode and replaced images. */
function actionsOf(view: EditorView, target: Target, ctx: PanelContext): Array<[string, () => void | Promise<void>]> {
  const { node, pos } = target;
  const data = (node.attrs.data ?? {}) as Data;
  const setData = (next: Data) => {
    const current = view.state.doc.nodeAt(pos);
    if (current) view.dispatch(keepSelected(view.state, view.state.tr.setNodeMarkup(pos, undefined, { ...current.attrs, data: next }), pos));
  };
  /** A new image file (uploaded to the change request) or web URL for `key` of the data. */
  const chooseImage = async (title: string, key: 'ref' | 'refDark', urls: boolean) => {
    const values = await ctx.ask(title, [{ name: 'file', label: 'Image file', kind: 'file', accept: 'image/*' }, ...(urls ? [{ name: 'url', label: 'or image URL' }] : [])]);
    if (!values) return;
    const file = ctx.chosenFile();
    const ref = file ? { kind: 'file', file: await ctx.upload(file) } : urls && webUrl(values.url) ? { kind: 'url', url: values.url!.trim() } : null;
    if (ref) setData({ ...((view.state.doc.nodeAt(pos)?.attrs.data ?? data) as Data), [key]: ref });
  };
  const out: Array<[string, () => void | Promise<void>]> = [];
  if (CAPTIONED.has(node.type.name) && node.childCount === 0) {
    out.push([
      'Add caption',
      () => {
        view.dispatch(view.state.tr.insert(pos + 1, n.caption!.create(null, n.paragraph!.create())));
        view.focus();
      },
    ]);
  }
  if (node.type.name === 'image') {
    out.push(['Replace image…', () => chooseImage('Replace the image', 'ref', true)]);
    out.push([data.refDark ? 'Replace dark-mode image…' : 'Add dark-mode image…', () => chooseImage('Image shown in dark mode', 'refDark', true)]);
    if (data.refDark) out.push(['Remove dark-mode image', () => setData(withoutKey(data, 'refDark'))]);
  }
  if (node.type.name === 'openapi_operation' && ctx.openapi) {
    out.push([
      'Change operation…',
      async () => {
        const chosen = await chooseOperation(ctx, { spec: (data.ref as Ref | undefined)?.spec, path: String(data.path ?? ''), method: String(data.method ?? '') });
        // The operation's own keys go; others (GitBook's `fallback` link) stay.
        if (chosen) setData({ ...withoutKey(withoutKey(data, 'fallback'), 'headless'), ...chosen });
      },
    ]);
  }
  if (node.type.name === 'drawing') out.push(['Replace drawing image…', () => chooseImage('Replace the drawing with an image', 'ref', false)]);
  if (node.type.name === 'update') {
    out.push([
      'Add update',
      () => {
        // Above this one: a changelog lists the newest first.
        const update = n.update!.create({ data: { date: today() } }, n.paragraph!.create());
        const tr = view.state.tr.insert(pos, update);
        view.dispatch(tr.setSelection(TextSelection.create(tr.doc, pos + 2)).scrollIntoView());
        view.focus();
      },
    ]);
    const $pos = view.state.doc.resolve(pos);
    if ($pos.parent.childCount > 1) {
      out.push([
        'Remove update',
        () => {
          view.dispatch(view.state.tr.delete(pos, pos + node.nodeSize).scrollIntoView());
          view.focus();
        },
      ]);
    }
  }
  return out;
}

/* ---------------------------------------------------------------- tables */

interface CellAt {
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

type View = { type?: string; columns?: string[]; cardSize?: string; targetDefinition?: string; coverDefinition?: string; hideHeader?: boolean };
const viewOf = (table: PMNode): View => ((table.attrs.data as { view?: View } | null)?.view ?? {}) as View;

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

/** A selected node stays selected when its data changes (replacing a leaf would drop the selection). */
function keepSelected(state: EditorState, tr: Transaction, pos: number): Transaction {
  return state.selection instanceof NodeSelection && state.selection.from === pos ? tr.setSelection(NodeSelection.create(tr.doc, pos)) : tr;
}

/**
 * An image given a width, a dark-mode image or a layout is written as a `<figure>`, which
 * always has a caption (GitBook writes `<figcaption></figcaption>` and the engine reads it
 * back as an empty caption): such an image gets its empty caption now, so the saved block is
 * what the markdown reads back.
 */
export function withCaptions(tr: Transaction, pos: number): Transaction {
  const node = tr.doc.nodeAt(pos);
  if (!node || (node.type !== n.image && node.type !== n.images)) return tr;
  const images: number[] = [];
  if (node.type === n.image) images.push(pos);
  else node.forEach((_child, offset) => images.push(pos + 1 + offset));
  for (const at of images.reverse()) {
    if (tr.doc.nodeAt(at)!.childCount === 0) tr.insert(at + 1, n.caption!.create(null, n.paragraph!.create()));
  }
  return tr;
}

/* ---------------------------------------------------------------- the panel */

export class BlockPanel {
  readonly dom: HTMLElement;
  private shown: string | null = null;

  constructor(
    private readonly view: () => EditorView,
    private readonly ctx: PanelContext,
  ) {
    this.dom = document.createElement('div');
    this.dom.className = 'block-panel';
    this.dom.setAttribute('role', 'region');
    this.dom.setAttribute('aria-label', 'Block settings');
  }

  /**
   * Rebuilds the panel for the state's cursor. Not while a field of the block still shown is
   * being typed in (a remote edit would drop what is typed there), unless `force`: after the
   * panel's own change. The control that had focus gets it back.
   */
  update(state: EditorState, force = false): void {
    const found = targets(state);
    const cell = cellAt(state);
    const signature = JSON.stringify([found.map((t) => [t.pos, t.node.type.name, t.node.attrs.data, t.node.childCount]), cell && [cell.tablePos, cell.row, cell.column]]);
    if (signature === this.shown && !force) return;
    const focused = this.dom.contains(document.activeElement) ? (document.activeElement as HTMLElement) : null;
    const typing = focused instanceof HTMLInputElement && focused.type !== 'checkbox' && found.some((t) => focused.dataset.control?.startsWith(`${t.node.type.name}:`));
    if (typing && !force) return;
    this.shown = signature;
    this.dom.replaceChildren();
    for (const target of found) this.renderSettings(target);
    if (cell) this.renderTable(cell);
    this.dom.hidden = this.dom.childElementCount === 0;
    const id = focused?.dataset.control;
    if (id) (this.dom.querySelector(`[data-control="${CSS.escape(id)}"]`) as HTMLElement | null)?.focus();
  }

  /** Applies a change the panel made, then shows the node's new settings. */
  private change(pos: number, type: string, next: (data: Data) => Data | null | Promise<Data | null>): void {
    const run = async () => {
      const view = this.view();
      const before = view.state.doc.nodeAt(pos);
      if (!before || before.type.name !== type) return;
      const data = await next((before.attrs.data ?? {}) as Data);
      const current = view.state.doc.nodeAt(pos);
      if (data && current && current.type.name === type) view.dispatch(keepSelected(view.state, withCaptions(view.state.tr.setNodeMarkup(pos, undefined, { ...current.attrs, data }), pos), pos));
      this.update(view.state, true);
    };
    run().catch((error: unknown) => this.ctx.say(error instanceof Error ? error.message : String(error)));
  }

  private renderSettings({ node, pos }: Target): void {
    const type = node.type.name;
    const group = document.createElement('fieldset');
    const legend = document.createElement('legend');
    legend.textContent = LABELS[type] ?? type;
    group.append(legend);
    const data = (node.attrs.data ?? {}) as Data;
    for (const setting of SETTINGS[type] ?? []) {
      if (setting.when && !setting.when(data)) continue;
      const label = document.createElement('label');
      label.append(`${setting.label} `);
      let control: HTMLInputElement | HTMLSelectElement;
      if (setting.kind === 'select' || setting.kind === 'page') {
        control = document.createElement('select');
        const options = setting.kind === 'page' ? [['', '—'] as [string, string], ...this.ctx.pages().map((p): [string, string] => [p.id, `${'· '.repeat(p.depth)}${p.title}`])] : (setting.options ?? []);
        for (const [value, text] of options) control.append(new Option(text, value));
        control.value = String(setting.get(data));
      } else {
        control = document.createElement('input');
        control.type = setting.kind;
        if (setting.kind === 'number') control.min = '1';
        if (setting.kind === 'checkbox') control.checked = setting.get(data) === true;
        else control.value = String(setting.get(data));
      }
      control.dataset.control = `${type}:${setting.label}`;
      // Its name is the setting's alone (a label around a select would add the chosen option's text).
      control.setAttribute('aria-label', setting.label);
      control.addEventListener('change', () => {
        const value = control instanceof HTMLInputElement && control.type === 'checkbox' ? control.checked : control.value;
        this.change(pos, type, (current) => setting.set(current, value, this.ctx));
      });
      label.append(control);
      group.append(label);
    }
    for (const [text, run] of actionsOf(this.view(), { node, pos }, this.ctx)) {
      const button = this.button(text, () => {
        Promise.resolve(run()).then(
          () => this.update(this.view().state, true),
          (error: unknown) => this.ctx.say(error instanceof Error ? error.message : String(error)),
        );
      });
      button.dataset.control = `${type}:${text}`;
      group.append(button);
    }
    if (group.childElementCount > 1) this.dom.append(group);
  }

  private renderTable(at: CellAt): void {
    const cards = isCards(at.table);
    const group = document.createElement('fieldset');
    const legend = document.createElement('legend');
    legend.textContent = cards ? 'Cards' : 'Table';
    group.append(legend);
    const run = (command: (state: EditorState, dispatch: (tr: Transaction) => void) => boolean, focusEditor = true) => () => {
      const view = this.view();
      command(view.state, view.dispatch);
      if (focusEditor) view.focus();
      else this.update(view.state, true);
    };
    const head = at.table.child(0).child(at.column);
    const kind = head.attrs.kind === 'content-ref' || head.attrs.kind === 'files';
    group.append(
      this.button(cards ? 'Add card' : 'Add row', run(tableCommands.addRow)),
      this.button(cards ? 'Remove card' : 'Remove row', run(tableCommands.removeRow)),
      this.button('Add column', run(tableCommands.addColumn)),
      this.button('Remove column', run(tableCommands.removeColumn)),
    );
    if (!kind) {
      group.append(
        this.button('Align left', run((s, d) => tableCommands.align(s, d, 'left'))),
        this.button('Align center', run((s, d) => tableCommands.align(s, d, 'center'))),
        this.button('Align right', run((s, d) => tableCommands.align(s, d, 'right'))),
      );
    }
    const hide = this.button(head.attrs.hidden ? 'Show column' : 'Hide column', run((s, d) => tableCommands.column(s, d, { hidden: !head.attrs.hidden }), false));
    hide.dataset.control = 'table:hide';
    group.append(hide);
    const toggle = this.button(cards ? 'Show as grid' : 'Show as cards', run(tableCommands.toggleCards, false));
    toggle.dataset.control = 'table:view';
    group.append(toggle);
    if (!cards) {
      // GitBook's grid column width (`<th width>`), in pixels; empty: automatic.
      const width = this.field('Column width (px)', 'number', 'table:width', typeof head.attrs.width === 'number' ? String(head.attrs.width) : '');
      width.control.addEventListener('change', () => {
        const value = width.control.value.trim();
        const next = value === '' ? null : Number(value);
        if (next !== null && !(Number.isFinite(next) && next > 0 && next <= 10_000)) return;
        run((s, d) => tableCommands.column(s, d, { width: next }), false)();
      });
      group.append(width.label);
    } else {
      for (const [kindOf, key, label, add] of [
        ['content-ref', 'targetDefinition', 'Card target column', 'Add card target column'],
        ['files', 'coverDefinition', 'Cover image column', 'Add cover image column'],
      ] as const) {
        const columns = columnsOf(at.table, kindOf);
        if (columns.length === 0) {
          const button = this.button(add, run((s, d) => tableCommands.addKindColumn(s, d, kindOf), false));
          button.dataset.control = `table:add-${kindOf}`;
          group.append(button);
          continue;
        }
        const chosen = this.field(label, 'select', `table:${key}`, '');
        const select = chosen.control as HTMLSelectElement;
        select.append(new Option('None', ''));
        for (const column of columns) select.append(new Option(column.title, column.id));
        select.value = String(viewOf(at.table)[key] ?? '');
        select.addEventListener('change', () => run((s, d) => tableCommands.view(s, d, (view) => (select.value ? { ...view, [key]: select.value } : (withoutKey(view as Data, key) as View))), false)());
        group.append(chosen.label);
      }
    }
    if (cards) {
      const label = document.createElement('label');
      label.append('Card size ');
      const size = document.createElement('select');
      size.setAttribute('aria-label', 'Card size');
      size.dataset.control = 'table:size';
      for (const value of ['medium', 'large']) size.append(new Option(value, value));
      const view = (at.table.attrs.data as { view: { cardSize?: string } }).view;
      size.value = view.cardSize === 'large' ? 'large' : 'medium';
      size.addEventListener('change', () => {
        this.change(at.tablePos, 'table', (data) => ({ ...data, view: { ...(data.view as Data), cardSize: size.value } }));
      });
      label.append(size);
      group.append(label);
    }
    this.dom.append(group);
    const cell = at.row > 0 ? at.table.child(at.row).child(at.column) : null;
    if (cell?.type === n.table_ref_cell && head.attrs.kind === 'files') this.renderCover(cell, cards && viewOf(at.table).coverDefinition === head.attrs.column);
    else if (cell?.type === n.table_ref_cell) this.renderTarget(cell, cards && (at.table.attrs.data as { view: { targetDefinition?: string } }).view.targetDefinition === head.attrs.column);
  }

  /** A reference cell: the page (from the page picker) or URL it links to, or none. */
  private renderTarget(cell: PMNode, isCardTarget: boolean): void {
    const group = document.createElement('fieldset');
    const legend = document.createElement('legend');
    legend.textContent = isCardTarget ? 'Card target' : 'Link';
    group.append(legend);
    const ref = cell.attrs.ref as Ref | null;
    const set = (next: Ref | null) => {
      const view = this.view();
      tableCommands.target(view.state, view.dispatch, next);
      this.update(view.state, true);
    };
    const pageLabel = document.createElement('label');
    pageLabel.append('Page ');
    const page = document.createElement('select');
    page.setAttribute('aria-label', 'Target page');
    page.dataset.control = 'ref:page';
    page.append(new Option('—', ''));
    for (const p of this.ctx.pages()) page.append(new Option(`${'· '.repeat(p.depth)}${p.title}`, p.id));
    page.value = ref?.kind === 'page' ? (ref.page ?? '') : '';
    page.addEventListener('change', () => set(page.value ? { kind: 'page', page: page.value } : null));
    pageLabel.append(page);
    const urlLabel = document.createElement('label');
    urlLabel.append('URL ');
    const url = document.createElement('input');
    url.type = 'text';
    url.setAttribute('aria-label', 'Target URL');
    url.dataset.control = 'ref:url';
    url.value = ref?.kind === 'url' ? (ref.url ?? '') : '';
    url.addEventListener('change', () => {
      if (webUrl(url.value)) set({ kind: 'url', url: url.value.trim() });
      else if (url.value === '' && ref?.kind === 'url') set(null);
    });
    urlLabel.append(url);
    group.append(pageLabel, urlLabel);
    if (ref) group.append(this.button('Remove link', () => set(null)));
    this.dom.append(group);
  }

  /** A files cell: its cover image, uploaded to the change request as images are; replaced or removed. */
  private renderCover(cell: PMNode, isCover: boolean): void {
    const group = document.createElement('fieldset');
    const legend = document.createElement('legend');
    legend.textContent = isCover ? 'Card cover image' : 'Files';
    group.append(legend);
    const files = Array.isArray(cell.attrs.files) ? (cell.attrs.files as string[]) : [];
    const set = (next: string[]) => {
      const view = this.view();
      tableCommands.cover(view.state, view.dispatch, next);
      this.update(view.state, true);
    };
    const choose = this.button(files.length > 0 ? 'Replace cover image…' : 'Set cover image…', () => {
      const pick = async () => {
        const values = await this.ctx.ask('Card cover image', [{ name: 'file', label: 'Image file', kind: 'file', accept: 'image/*' }]);
        const file = values ? this.ctx.chosenFile() : null;
        if (file) set([await this.ctx.upload(file)]);
      };
      pick().catch((error: unknown) => this.ctx.say(error instanceof Error ? error.message : String(error)));
    });
    choose.dataset.control = 'cover:set';
    group.append(choose);
    if (files.length > 0) {
      const remove = this.button('Remove cover image', () => set([]));
      remove.dataset.control = 'cover:remove';
      group.append(remove);
    }
    this.dom.append(group);
  }

  /** A labelled input or select of the table panel. */
  private field(text: string, kind: 'number' | 'select', id: string, value: string): { label: HTMLLabelElement; control: HTMLInputElement | HTMLSelectElement } {
    const label = document.createElement('label');
    label.append(`${text} `);
    const control = kind === 'select' ? document.createElement('select') : document.createElement('input');
    if (control instanceof HTMLInputElement) {
      control.type = 'number';
      control.min = '1';
      control.value = value;
    }
    control.setAttribute('aria-label', text);
    control.dataset.control = id;
    label.append(control);
    return { label, control };
  }

  private button(label: string, onClick: () => void): HTMLButtonElement {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.addEventListener('click', onClick);
    return button;
  }
}
