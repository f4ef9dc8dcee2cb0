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
import { cellAt, columnsOf, isCards, tableCommands, viewOf, type CellAt, type View } from './panel-table.ts';

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
