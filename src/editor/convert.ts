/*
 * GitBook document JSON <-> ProseMirror document of the editor schema (schema.ts). Pure, no
 * DOM: the browser editor, the tests and a collaboration server use the same functions.
 *
 * Lossless by construction: every block is converted, converted back and compared with the
 * original (up to the representation choices listed in `canonical`); a block that does not
 * come back the same, or that may not stand where it stands, becomes an `opaque_block`
 * holding its JSON. Unknown inlines and marks become `opaque_inline` / `opaque_mark`. So the
 * editor may not show every block as editable, but it never drops or changes one it did not
 * edit.
 */
import { Mark as PMMark, Node as PMNode, type Schema } from 'prosemirror-model';
import type { Container } from '../content/markdown/dialect.ts';
import type { Document } from '../content/markdown/types.ts';
import { canonical, compareStrings } from './canonical.ts';
import { BLOCK_OF_NODE, CONTAINER_OF_NODE, INLINE_OF_NODE, NODE_OF_BLOCK, NODE_OF_INLINE, SIMPLE_MARK_NAMES, groupOf, schema as editorSchema } from './schema.ts';

type Json = Record<string, unknown>;

export interface FromProseMirrorOptions {
  /** Ids of new table columns, records and cell fragments (default: random). */
  newId?: () => string;
}

class Unmapped extends Error {}

function fail(why: string): never {
  throw new Unmapped(why);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function omit(value: Json, keys: string[]): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) if (!keys.includes(k)) out[k] = v;
  return out;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/* ------------------------------------------------------------------ GitBook -> ProseMirror */

/** The ProseMirror document of a GitBook document. */
export function toProseMirror(document: Document | Json, schema: Schema = editorSchema): PMNode {
  const doc = document as Json;
  const blocks = Array.isArray(doc.nodes) ? (doc.nodes as unknown[]) : [];
  const children = new Reader(schema).blocks(blocks, 'document');
  // An empty page is one empty paragraph in the editor (ProseMirror needs a place for the cursor).
  if (children.length === 0) children.push(schema.nodes.paragraph!.create());
  return schema.nodes.doc!.create({ data: 'data' in doc ? clone(doc.data) : null, meta: clone(omit(doc, ['object', 'data', 'nodes'])) }, children);
}

class Reader {
  constructor(private readonly schema: Schema) {}

  /**
   * Whether blocks inside the one being read are compared one by one. Off at first: the
   * outermost block's comparison covers everything in it, so a page is compared about once.
   * On only when that comparison fails, to keep opaque no more than the block that differs.
   */
  private verifyChildren = false;

  /** Blocks standing in `container`; each one the container may not hold is kept opaque. */
  blocks(blocks: unknown[], container: Container): PMNode[] {
    return blocks.map((block) => {
      const node = this.verifyChildren ? this.block(block) : (this.tryMap(block) ?? this.opaqueBlock(block));
      return node.type.isInGroup(groupOf(container)) ? node : this.opaqueBlock(block);
    });
  }

  /** One block, mapped exactly or kept opaque. */
  block(block: unknown): PMNode {
    const outer = this.verifyChildren;
    try {
      this.verifyChildren = false;
      const fast = this.tryMap(block);
      const original = canonical(block);
      if (fast && this.cameBack(fast, original)) return fast;
      this.verifyChildren = true;
      const careful = this.tryMap(block);
      return careful && this.cameBack(careful, original) ? careful : this.opaqueBlock(block);
    } finally {
      this.verifyChildren = outer;
    }
  }

  private tryMap(block: unknown): PMNode | null {
    try {
      const node = this.mapBlock(block);
      node.check();
      return node;
    } catch (error) {
      if (error instanceof Unmapped || error instanceof RangeError || error instanceof TypeError) return null;
      throw error;
    }
  }

  private cameBack(node: PMNode, original: string): boolean {
    try {
      return canonical(new Writer({ newId: () => fail('no new ids when checking') }).block(node)) === original;
    } catch (error) {
      if (error instanceof Unmapped) return false;
      throw error;
    }
  }

  opaqueBlock(block: unknown): PMNode {
    return this.schema.nodes.opaque_block!.create({ json: clone(block) });
  }

  private node(name: string, block: Json, consumed: string[], content?: PMNode[] | PMNode, extra: Json = {}): PMNode {
    const type = this.schema.nodes[name] ?? fail(`no node ${name}`);
    const attrs = {
      key: typeof block.key === 'string' ? block.key : block.key === undefined ? null : fail('key'),
      data: 'data' in block ? (isObject(block.data) ? clone(block.data) : fail('data')) : null,
      meta: clone(omit(block, ['object', 'type', 'key', 'data', ...consumed])),
      ...extra,
    };
    return type.create(attrs, content);
  }

  private nodesOf(block: Json): unknown[] {
    return Array.isArray(block.nodes) ? block.nodes : fail('nodes');
  }

  private childrenOfType(block: Json, type: string): Json[] {
    return this.nodesOf(block).map((child) => (isObject(child) && child.object === 'block' && child.type === type ? child : fail(`${type} expected`)));
  }

  private mapBlock(value: unknown): PMNode {
    if (!isObject(value) || value.object !== 'block' || typeof value.type !== 'string') fail('not a block');
    const block = value;
    const type = block.type as string;
    switch (type) {
      case 'paragraph':
        return this.textblock('paragraph', block);
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        return this.textblock('heading', block, { level: Number(type.slice(-1)) });
      case 'list-unordered':
      case 'list-ordered':
      case 'list-tasks':
        return this.node(NODE_OF_BLOCK[type]!, block, ['nodes'], this.childrenOfType(block, 'list-item').map((item) => this.node('list_item', item, ['nodes'], this.blocks(this.nodesOf(item), 'list-item'))));
      case 'code':
        return this.node('code_block', block, ['nodes'], this.childrenOfType(block, 'code-line').map((line) => this.textblock('code_line', line)));
      case 'blockquote':
      case 'hint':
        return this.node(type, block, ['nodes'], this.blocks(this.nodesOf(block), type));
      case 'tabs':
        return this.node('tabs', block, ['nodes'], this.childrenOfType(block, 'tabs-item').map((item) => this.node('tabs_item', item, ['nodes'], this.blocks(this.nodesOf(item), 'tabs-item'))));
      case 'stepper':
        return this.node('stepper', block, ['nodes'], this.childrenOfType(block, 'stepper-step').map((step) => this.node('stepper_step', step, ['nodes'], this.blocks(this.nodesOf(step), 'stepper-step'))));
      case 'updates':
        return this.node('updates', block, ['nodes'], this.childrenOfType(block, 'update').map((update) => this.node('update', update, ['nodes'], this.blocks(this.nodesOf(update), 'update'))));
      case 'columns':
        return this.node('columns', block, ['nodes'], this.childrenOfType(block, 'column').map((column) => this.node('column', column, ['nodes'], this.blocks(this.nodesOf(column), 'column'))));
      case 'images':
        return this.node('images', block, ['nodes'], this.childrenOfType(block, 'image').map((image) => this.captioned('image', image)));
      case 'file':
      case 'embed':
        return this.captioned(type, block);
      case 'expandable':
        return this.expandable(block);
      case 'table':
        return this.table(block);
      case 'divider':
      case 'math':
      case 'drawing':
      case 'content-ref':
      case 'openapi-operation':
      case 'integration':
        return this.node(NODE_OF_BLOCK[type]!, block, []);
      default:
        return fail(`unknown block ${type}`);
    }
  }

  /**
   * A block of inline content. An empty one keeps its one empty text node in `meta.$text`
   * (GitBook's editor gives every text block one; the engine keys it), since ProseMirror
   * holds no empty text.
   */
  private textblock(name: string, block: Json, extra: Json = {}): PMNode {
    const nodes = this.nodesOf(block);
    const content = this.inlines(nodes);
    const node = this.node(name, block, ['nodes'], content, extra);
    if (content.length > 0 || nodes.length !== 1) return node;
    return node.type.create({ ...node.attrs, meta: { ...(node.attrs.meta as Json), $text: clone(nodes[0]) } }, node.content);
  }

  /** An image, file or embed: its caption fragment, when it has one, is a `caption` child. */
  private captioned(name: string, block: Json): PMNode {
    const fragments = block.fragments;
    if (!Array.isArray(fragments) || fragments.length === 0) return this.node(name, block, []);
    if (fragments.length !== 1) fail('several fragments');
    const caption = this.fragment(fragments[0], 'caption', (nodes) => this.paragraphs(nodes));
    return this.node(name, block, ['fragments'], caption);
  }

  private fragment(value: unknown, name: string, content: (nodes: unknown[]) => PMNode[]): PMNode {
    if (!isObject(value) || value.object !== 'fragment' || value.fragment !== name || !Array.isArray(value.nodes)) fail(`${name} fragment expected`);
    const nodeName = name === 'caption' ? 'caption' : name.replace(/-/g, '_');
    const key = typeof value.key === 'string' ? value.key : value.key === undefined ? null : fail('key');
    return this.schema.nodes[nodeName]!.create({ key, meta: clone(omit(value, ['key', 'nodes'])) }, content(value.nodes as unknown[]));
  }

  private paragraphs(nodes: unknown[]): PMNode[] {
    return nodes.map((node) => (isObject(node) && node.type === 'paragraph' ? this.mapBlock(node) : fail('paragraph expected')));
  }

  private expandable(block: Json): PMNode {
    const fragments = block.fragments;
    if (!Array.isArray(fragments) || fragments.length !== 2) fail('expandable fragments');
    const title = this.fragment(fragments[0], 'expandable-title', (nodes) => this.paragraphs(nodes));
    const body = this.fragment(fragments[1], 'expandable-body', (nodes) => this.blocks(nodes, 'expandable-body'));
    return this.node('expandable', block, ['fragments'], [title, body]);
  }

  /**
   * A table, grid or cards: a header row of column titles (the visible columns in the view's
   * order, then the hidden ones), then one row per record in `orderIndex` order, one cell per
   * column: a text cell holding its fragment, or a reference cell of a content-ref column
   * (a card's target) or of a files column (a card's cover: file ids). A grid's column widths
   * stand on their header cells. Other columns (numbers, users…) keep the table opaque.
   */
  private table(block: Json): PMNode {
    const data = isObject(block.data) ? block.data : fail('table data');
    const view = isObject(data.view) ? data.view : fail('view');
    const definition = isObject(data.definition) ? data.definition : fail('definition');
    const records = isObject(data.records) ? data.records : fail('records');
    if ((view.type !== 'grid' && view.type !== 'cards') || !Array.isArray(view.columns)) fail('not a grid or cards');
    const visible = view.columns as unknown[];
    if (visible.some((id) => typeof id !== 'string' || !isObject(definition[id]))) fail('column of no definition');
    const columns = [...(visible as string[]), ...Object.keys(definition).filter((id) => !visible.includes(id))];
    if (columns.length === 0 || new Set(columns).size !== columns.length) fail('columns');
    const fragments = Array.isArray(block.fragments) ? (block.fragments as unknown[]) : fail('fragments');
    const byName = new Map<string, Json>();
    for (const fragment of fragments) {
      if (!isObject(fragment) || typeof fragment.fragment !== 'string' || byName.has(fragment.fragment)) fail('fragment');
      byName.set(fragment.fragment, fragment);
    }
    const kinds = columns.map((id) => (definition[id] as Json).type);
    // A grid's widths of known columns stand on their header cells; any other entry stays in the view.
    const widths = view.type === 'grid' && isObject(view.columnWidths) ? { ...view.columnWidths } : {};
    const heads = columns.map((id, c) => {
      const def = definition[id] as Json;
      if (def.id !== id || typeof def.title !== 'string') fail('column');
      const hidden = c >= visible.length;
      const title = def.title ? this.schema.text(def.title) : undefined;
      const width = typeof widths[id] === 'number' ? (widths[id] as number) : null;
      if (width !== null) delete widths[id];
      if (def.type === 'content-ref' || def.type === 'files') return this.schema.nodes.table_header_cell!.create({ column: id, kind: def.type, hidden, width, meta: clone(omit(def, ['id', 'title'])) }, title);
      if (def.type !== 'text') fail('not a text, content-ref or files column');
      const align = def.textAlignment === 'center' || def.textAlignment === 'right' ? def.textAlignment : def.textAlignment === 'left' ? 'left' : fail('alignment');
      return this.schema.nodes.table_header_cell!.create({ column: id, align, hidden, width, meta: clone(omit(def, ['id', 'title', 'textAlignment'])) }, title);
    });
    const tableView = view.type === 'grid' && isObject(view.columnWidths) ? { ...view, columnWidths: widths } : view;
    let used = 0;
    const rows = Object.entries(records)
      .map(([id, record]) => (isObject(record) && typeof record.orderIndex === 'string' && isObject(record.values) ? { id, record } : fail('record')))
      .sort((a, b) => compareStrings(a.record.orderIndex as string, b.record.orderIndex as string) || compareStrings(a.id, b.id))
      .map(({ id, record }) => {
        const values = record.values as Json;
        if (Object.keys(values).some((column) => !columns.includes(column))) fail('value of no column');
        const cells = columns.map((column, c) => {
          const name = values[column];
          if (kinds[c] === 'files') {
            if (name === undefined) return this.schema.nodes.table_ref_cell!.create({ absent: true });
            if (name !== null && !(Array.isArray(name) && name.every((file) => typeof file === 'string'))) fail('not file ids');
            return this.schema.nodes.table_ref_cell!.create({ files: clone(name), absent: false });
          }
          if (kinds[c] === 'content-ref') {
            if (name === undefined) return this.schema.nodes.table_ref_cell!.create({ ref: null, absent: true });
            return this.schema.nodes.table_ref_cell!.create({ ref: name === null ? null : isObject(name) ? clone(name) : fail('not a reference'), absent: false });
          }
          if (name === undefined) return this.schema.nodes.table_cell!.create(null, this.schema.nodes.paragraph!.create());
          const fragment = typeof name === 'string' ? (byName.get(name) ?? fail('missing fragment')) : fail('not a text cell');
          used += 1;
          const key = typeof fragment.key === 'string' ? fragment.key : fragment.key === undefined ? null : fail('key');
          return this.schema.nodes.table_cell!.create({ fragment: name, key, meta: clone(omit(fragment, ['key', 'nodes', 'fragment'])) }, this.paragraphs(Array.isArray(fragment.nodes) ? fragment.nodes : fail('nodes')));
        });
        return this.schema.nodes.table_row!.create({ record: id, orderIndex: record.orderIndex, meta: clone(omit(record, ['orderIndex', 'values'])) }, cells);
      });
    if (used !== byName.size) fail('unused fragments');
    const head = this.schema.nodes.table_head!.create(null, heads);
    return this.node('table', { ...block, data: { ...omit(data, ['records', 'definition']), view: tableView } }, ['fragments'], [head, ...rows]);
  }

  /** Inline content: text leaves with their marks, inline nodes, links as a mark. */
  inlines(nodes: unknown[], outer: readonly PMMark[] = []): PMNode[] {
    const out: PMNode[] = [];
    for (const node of nodes) out.push(...this.inline(node, outer));
    return out;
  }

  private inline(value: unknown, outer: readonly PMMark[]): PMNode[] {
    const opaque = () => [this.schema.nodes.opaque_inline!.create({ json: clone(value) }, null, outer)];
    if (!isObject(value)) return opaque();
    if (value.object === 'text') {
      if (!Array.isArray(value.leaves) || Object.keys(omit(value, ['object', 'key', 'leaves'])).length > 0) return opaque();
      if (value.key !== undefined && typeof value.key !== 'string') return opaque();
      const keyMark = typeof value.key === 'string' ? [this.schema.marks.text_key!.create({ key: value.key })] : [];
      const out: PMNode[] = [];
      for (const leaf of value.leaves as unknown[]) {
        if (!isObject(leaf) || leaf.object !== 'leaf' || typeof leaf.text !== 'string' || !Array.isArray(leaf.marks) || Object.keys(leaf).length !== 3) return opaque();
        if (leaf.text === '') continue;
        const marks = (leaf.marks as unknown[]).map((mark) => this.mark(mark));
        out.push(this.schema.text(leaf.text, PMMark.setFrom([...outer, ...marks, ...keyMark])));
      }
      return out;
    }
    if (value.object !== 'inline' || typeof value.type !== 'string') return opaque();
    try {
      if (value.type === 'link') {
        if (outer.some((mark) => mark.type.name === 'link') || !Array.isArray(value.nodes)) return opaque();
        const link = this.schema.marks.link!.create(this.attrsOf(value, ['nodes']));
        const inner = this.inlines(value.nodes as unknown[], [...outer, link]);
        // A link with no text has no place to stand in ProseMirror: kept whole.
        return inner.length === 0 ? opaque() : inner;
      }
      const name = NODE_OF_INLINE[value.type];
      if (!name) return opaque();
      return [this.schema.nodes[name]!.create(this.attrsOf(value, []), null, outer)];
    } catch (error) {
      if (error instanceof Unmapped) return opaque();
      throw error;
    }
  }

  private attrsOf(value: Json, consumed: string[]): Json {
    return {
      key: typeof value.key === 'string' ? value.key : value.key === undefined ? null : fail('key'),
      data: 'data' in value ? (isObject(value.data) ? clone(value.data) : fail('data')) : null,
      meta: clone(omit(value, ['object', 'type', 'key', 'data', ...consumed])),
    };
  }

  private mark(value: unknown): PMMark {
    if (isObject(value) && value.object === 'mark') {
      const extra = Object.keys(omit(value, ['object', 'type', 'data']));
      if (extra.length === 0) {
        if ((SIMPLE_MARK_NAMES as readonly unknown[]).includes(value.type) && !('data' in value)) return this.schema.marks[value.type as string]!.create();
        if (value.type === 'color' && isObject(value.data)) return this.schema.marks.color!.create({ data: clone(value.data) });
      }
    }
    return this.schema.marks.opaque_mark!.create({ json: clone(value) });
  }
}

/* ------------------------------------------------------------------ ProseMirror -> GitBook */

/** The GitBook document of a ProseMirror document of the editor schema. */
export function fromProseMirror(doc: PMNode, options: FromProseMirrorOptions = {}): Document {
  const writer = new Writer(options);
  const nodes = writer.children(doc);
  // The empty page's placeholder paragraph (toProseMirror) is no content.
  const only = doc.childCount === 1 ? doc.firstChild! : null;
  const placeholder = only?.type.name === 'paragraph' && only.content.size === 0 && only.attrs.key === null && isEmptyData(only.attrs.data);
  return {
    object: 'document',
    ...(doc.attrs.meta as Json),
    ...(doc.attrs.data === null ? {} : { data: clone(doc.attrs.data) }),
    nodes: placeholder ? [] : nodes,
  } as unknown as Document;
}

/** A node's meta without the converter's own `$` entries. */
function ownMeta(meta: Json): Json {
  return Object.fromEntries(Object.entries(meta).filter(([k]) => !k.startsWith('$')));
}

function isEmptyData(data: unknown): boolean {
  return isObject(data) && Object.keys(data).length === 0;
}

const randomId = (): string => {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => (b % 36).toString(36)).join('');
};

class Writer {
  private readonly seen = new Set<string>();
  private readonly newId: () => string;

  constructor(options: FromProseMirrorOptions) {
    this.newId = options.newId ?? randomId;
  }

  /** A node key, once per document: a split block's second half is a new block. */
  private keyOf(key: unknown): Json {
    if (typeof key !== 'string' || this.seen.has(key)) return {};
    this.seen.add(key);
    return { key };
  }

  children(node: PMNode): Json[] {
    const out: Json[] = [];
    node.forEach((child) => out.push(this.block(child)));
    return out;
  }

  private base(node: PMNode, type: string): Json {
    const out: Json = { object: 'block', type, ...this.keyOf(node.attrs.key), ...ownMeta(node.attrs.meta as Json) };
    if (node.attrs.data !== null) out.data = clone(node.attrs.data);
    return out;
  }

  block(node: PMNode): Json {
    const name = node.type.name;
    switch (name) {
      case 'opaque_block':
        return clone(node.attrs.json as Json);
      case 'paragraph':
        return { ...this.base(node, 'paragraph'), nodes: this.inlines(node) };
      case 'heading':
        return { ...this.base(node, `heading-${Math.min(3, Math.max(1, Number(node.attrs.level) || 1))}`), nodes: this.inlines(node) };
      case 'code_block':
        return { ...this.base(node, 'code'), nodes: this.children(node) };
      case 'code_line':
        return { ...this.base(node, 'code-line'), nodes: this.inlines(node) };
      case 'image':
      case 'file':
      case 'embed': {
        const out = this.base(node, name);
        const caption = node.firstChild;
        if (caption) out.fragments = [this.fragment(caption, (c) => this.children(c))];
        else if (name === 'image' && out.fragments === undefined) out.fragments = [];
        return out;
      }
      case 'expandable':
        return { ...this.base(node, 'expandable'), fragments: [this.fragment(node.child(0), (c) => this.children(c)), this.fragment(node.child(1), (c) => this.children(c))] };
      case 'table':
        return this.table(node);
      default: {
        const type = BLOCK_OF_NODE[name];
        if (!type) throw new Error(`fromProseMirror: ${name} is not a block`);
        const out = this.base(node, type);
        if (!node.isAtom) out.nodes = this.children(node);
        return out;
      }
    }
  }

  private fragment(node: PMNode, nodes: (node: PMNode) => Json[]): Json {
    return { ...(node.attrs.meta as Json), ...this.keyOf(node.attrs.key), nodes: nodes(node) };
  }

  private table(node: PMNode): Json {
    const out = this.base(node, 'table');
    const data = (out.data ?? {}) as Json;
    const head = node.child(0);
    const columns: string[] = [];
    const definition: Json = {};
    const visible: string[] = [];
    const kinds: string[] = [];
    const widths: Json = {};
    head.forEach((cell) => {
      const id = typeof cell.attrs.column === 'string' && !columns.includes(cell.attrs.column) ? cell.attrs.column : this.newId();
      const kind = cell.attrs.kind === 'content-ref' || cell.attrs.kind === 'files' ? (cell.attrs.kind as string) : 'text';
      columns.push(id);
      kinds.push(kind);
      if (!cell.attrs.hidden) visible.push(id);
      if (typeof cell.attrs.width === 'number') widths[id] = cell.attrs.width;
      definition[id] =
        kind !== 'text'
          ? { ...(cell.attrs.meta as Json), type: kind, id, title: cell.textContent }
          : { type: 'text', ...(cell.attrs.meta as Json), id, title: cell.textContent, textAlignment: cell.attrs.align };
    });
    const records: Json = {};
    const fragments: Json[] = [];
    let previous = '';
    for (let r = 1; r < node.childCount; r++) {
      const row = node.child(r);
      const id = typeof row.attrs.record === 'string' && !(row.attrs.record in records) ? row.attrs.record : this.newId();
      // Keep a record's order index while it still sorts after the one above it.
      const kept = typeof row.attrs.orderIndex === 'string' && row.attrs.orderIndex > previous ? row.attrs.orderIndex : null;
      const orderIndex = kept ?? `${previous}V`;
      previous = orderIndex;
      const values: Json = {};
      row.forEach((cell, _offset, c) => {
        const column = columns[c];
        if (column === undefined) return;
        if (kinds[c] === 'files') {
          // A cover cell (a text cell cannot stand in a files column: it is written as no value).
          if (cell.type.name === 'table_ref_cell' && !cell.attrs.absent) values[column] = Array.isArray(cell.attrs.files) ? clone(cell.attrs.files) : null;
          return;
        }
        if (cell.type.name === 'table_ref_cell' || kinds[c] === 'content-ref') {
          // A reference cell (a text cell cannot stand in a content-ref column: it is written as no value).
          if (cell.type.name === 'table_ref_cell' && !(cell.attrs.absent && cell.attrs.ref === null) && kinds[c] === 'content-ref') values[column] = cell.attrs.ref === null ? null : clone(cell.attrs.ref);
          return;
        }
        const empty = cell.childCount === 1 && cell.firstChild!.content.size === 0 && cell.firstChild!.attrs.key === null;
        if (cell.attrs.fragment === null && empty) return;
        const name = typeof cell.attrs.fragment === 'string' && !fragments.some((f) => f.fragment === cell.attrs.fragment) ? cell.attrs.fragment : this.newId();
        values[column] = name;
        fragments.push({ object: 'fragment', ...(cell.attrs.meta as Json), ...this.keyOf(cell.attrs.key), fragment: name, nodes: this.children(cell) });
      });
      records[id] = { ...(row.attrs.meta as Json), orderIndex, values };
    }
    const view: Json = { ...(isObject(data.view) ? data.view : { type: 'grid', hideHeader: false }), columns: visible };
    // A card target or cover whose column was removed is none.
    if (typeof view.targetDefinition === 'string' && !columns.includes(view.targetDefinition)) delete view.targetDefinition;
    if (typeof view.coverDefinition === 'string' && !columns.includes(view.coverDefinition)) delete view.coverDefinition;
    // Widths are a grid's (`<th width>`); a cards view has none, the header cells keep them for a switch back.
    if (view.type === 'grid' && Object.keys(widths).length > 0) view.columnWidths = { ...(isObject(view.columnWidths) ? view.columnWidths : {}), ...widths };
    out.data = { ...data, view, records, definition };
    out.fragments = fragments;
    return out;
  }

  /** A textblock's inline content: links regrouped from their mark, text runs by text key. */
  inlines(node: PMNode): Json[] {
    const items: PMNode[] = [];
    node.forEach((child) => items.push(child));
    const out = this.runs(items, null);
    if (out.length > 0) return out;
    // GitBook's editor keeps a text node in every text block, an empty one when it has no text.
    const kept = (node.attrs.meta as Json | null)?.$text;
    if (isObject(kept)) {
      const { key, ...rest } = clone(kept);
      return [{ ...rest, ...this.keyOf(key) }];
    }
    return [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }];
  }

  private runs(items: PMNode[], inLink: PMMark | null): Json[] {
    const out: Json[] = [];
    let text: { key: string | null; node: Json } | null = null;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const link = inLink ? null : (item.marks.find((mark) => mark.type.name === 'link') ?? null);
      if (link) {
        let end = i + 1;
        while (end < items.length && items[end]!.marks.some((mark) => mark.eq(link))) end++;
        text = null;
        out.push({ object: 'inline', type: 'link', ...this.keyOf(link.attrs.key), ...(link.attrs.meta as Json), ...(link.attrs.data === null ? {} : { data: clone(link.attrs.data) }), nodes: this.runs(items.slice(i, end), link) });
        i = end - 1;
        continue;
      }
      if (item.isText) {
        const keyMark = item.marks.find((mark) => mark.type.name === 'text_key');
        const key = typeof keyMark?.attrs.key === 'string' ? keyMark.attrs.key : null;
        const leaf = { object: 'leaf', text: item.text!, marks: item.marks.filter((mark) => mark.type.name !== 'link' && mark.type.name !== 'text_key').map(markToJson) };
        if (text && text.key === key) {
          (text.node.leaves as Json[]).push(leaf);
        } else {
          const keyed: Json = key === null ? {} : this.keyOf(key);
          text = { key, node: { object: 'text', ...keyed, leaves: [leaf] } };
          out.push(text.node);
        }
        continue;
      }
      text = null;
      if (item.type.name === 'opaque_inline') {
        out.push(clone(item.attrs.json as Json));
        continue;
      }
      const type = INLINE_OF_NODE[item.type.name];
      if (!type) throw new Error(`fromProseMirror: ${item.type.name} is not an inline`);
      out.push({ object: 'inline', type, ...this.keyOf(item.attrs.key), ...(item.attrs.meta as Json), ...(item.attrs.data === null ? {} : { data: clone(item.attrs.data) }) });
    }
    return out;
  }
}

function markToJson(mark: PMMark): Json {
  if (mark.type.name === 'opaque_mark') return clone(mark.attrs.json as Json);
  if (mark.type.name === 'color') return { object: 'mark', type: 'color', data: clone(mark.attrs.data) };
  return { object: 'mark', type: mark.type.name };
}

/** ProseMirror JSON forms, for code that stores or sends the editor's document. */
export function toProseMirrorJSON(document: Document | Json, schema: Schema = editorSchema): Json {
  return toProseMirror(document, schema).toJSON() as Json;
}

export function fromProseMirrorJSON(json: Json, options: FromProseMirrorOptions = {}, schema: Schema = editorSchema): Document {
  return fromProseMirror(PMNode.fromJSON(schema, json), options);
}

export { CONTAINER_OF_NODE, canonical };
