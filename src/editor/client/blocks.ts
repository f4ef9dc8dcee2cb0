/*
 * Every block and inline kind the editor inserts (slash menu, toolbar), as ProseMirror nodes
 * of the schema with GitBook's defaults. Kinds that need a value (a URL, a formula, a page,
 * a file) ask for it first through `ask`.
 */
import type { Node as PMNode, NodeType } from 'prosemirror-model';
import { NodeSelection, TextSelection, type EditorState, type Transaction } from 'prosemirror-state';
import { HINT_STYLES } from '../../content/markdown/types.ts';
import { schema } from '../schema.ts';

const n = schema.nodes;
const p = (text = ''): PMNode => n.paragraph!.create(null, text ? schema.text(text) : undefined);

export interface Field {
  name: string;
  label: string;
  kind?: 'text' | 'select' | 'file' | 'page';
  options?: string[];
  value?: string;
  accept?: string;
}

export interface InsertContext {
  /** Asks the user for values; null when cancelled. */
  ask(title: string, fields: Field[]): Promise<Record<string, string> | null>;
  /** Uploads a file chosen in a `file` field and answers its file id. */
  upload(file: File): Promise<string>;
  /** The file the last `file` field chose. */
  chosenFile(): File | null;
  /** The organization's OpenAPI specs and a spec's operations (absent: no OpenAPI block is offered). */
  openapi?: {
    specs(): Promise<string[]>;
    operations(spec: string): Promise<Array<{ method: string; path: string }>>;
  };
}

/**
 * An OpenAPI operation chosen in two questions: a spec of the organization, then one of its
 * operations (method and path). GitBook's block data: `ref` (kind `openapi`, the spec's
 * slug), `path` and `method` (lower case), what `{% openapi-operation spec path method %}` holds.
 */
export async function chooseOperation(ctx: InsertContext, current?: { spec?: string; path?: string; method?: string }): Promise<Record<string, unknown> | null> {
  if (!ctx.openapi) return null;
  const specs = await ctx.openapi.specs();
  if (specs.length === 0) throw new Error('The organization has no OpenAPI spec: add one first');
  const first = await ctx.ask('OpenAPI operation: the spec', [{ name: 'spec', label: 'Spec', kind: 'select', options: specs, value: current?.spec }]);
  const spec = first?.spec;
  if (!spec) return null;
  const operations = await ctx.openapi.operations(spec);
  if (operations.length === 0) throw new Error(`The spec ${spec} has no operation yet (is it processed?)`);
  const options = operations.map((o) => `${o.method.toUpperCase()} ${o.path}`);
  const chosen = current?.path && current.method ? `${current.method.toUpperCase()} ${current.path}` : undefined;
  const second = await ctx.ask(`OpenAPI operation of ${spec}`, [{ name: 'operation', label: 'Operation', kind: 'select', options, value: chosen }]);
  const operation = operations[options.indexOf(second?.operation ?? '')];
  return operation ? { ref: { kind: 'openapi', spec }, path: operation.path, method: operation.method } : null;
}

export interface Kind {
  id: string;
  label: string;
  /** Words the slash menu matches besides the label. */
  keywords: string;
  inline?: boolean;
  make(ctx: InsertContext): Promise<PMNode | null> | PMNode | null;
}

const list = (type: NodeType, data: object = {}) => type.create(null, n.list_item!.create({ data }, p()));

export const KINDS: Kind[] = [
  { id: 'paragraph', label: 'Text', keywords: 'paragraph plain', make: () => p() },
  { id: 'heading-1', label: 'Heading 1', keywords: 'title h1 #', make: () => n.heading!.create({ level: 1 }) },
  { id: 'heading-2', label: 'Heading 2', keywords: 'subtitle h2 ##', make: () => n.heading!.create({ level: 2 }) },
  { id: 'heading-3', label: 'Heading 3', keywords: 'h3 ###', make: () => n.heading!.create({ level: 3 }) },
  { id: 'list-unordered', label: 'Bulleted list', keywords: 'unordered bullet ul -', make: () => list(n.list_unordered!) },
  { id: 'list-ordered', label: 'Numbered list', keywords: 'ordered ol 1.', make: () => list(n.list_ordered!) },
  { id: 'list-tasks', label: 'Task list', keywords: 'todo checkbox []', make: () => list(n.list_tasks!, { checked: false }) },
  { id: 'code', label: 'Code block', keywords: 'code pre ```', make: () => n.code_block!.create({ data: {} }, n.code_line!.create()) },
  ...[...HINT_STYLES].map((style) => ({
    id: `hint-${style}`,
    label: `Hint: ${style}`,
    keywords: 'hint callout note',
    make: () => n.hint!.create({ data: { style } }, p()),
  })),
  { id: 'blockquote', label: 'Quote', keywords: 'blockquote >', make: () => n.blockquote!.create(null, p()) },
  {
    id: 'table',
    label: 'Table',
    keywords: 'grid rows columns',
    make: () =>
      n.table!.create({ data: { view: { type: 'grid', columns: [], hideHeader: false } } }, [
        n.table_head!.create(null, [n.table_header_cell!.create(null, schema.text('Column 1')), n.table_header_cell!.create(null, schema.text('Column 2'))]),
        n.table_row!.create(null, [n.table_cell!.create(null, p()), n.table_cell!.create(null, p())]),
      ]),
  },
  {
    id: 'image',
    label: 'Image',
    keywords: 'picture photo upload',
    make: async (ctx) => {
      const values = await ctx.ask('Insert an image', [
        { name: 'file', label: 'Image file', kind: 'file', accept: 'image/*' },
        { name: 'url', label: 'or image URL' },
        { name: 'alt', label: 'Alternative text' },
        { name: 'caption', label: 'Caption' },
      ]);
      if (!values) return null;
      const file = ctx.chosenFile();
      const ref = file ? { kind: 'file', file: await ctx.upload(file) } : webUrl(values.url) ? { kind: 'url', url: values.url!.trim() } : null;
      if (!ref) return null;
      const alt = values.alt?.trim() || (file ? file.name.replace(/\.[^.]+$/, '') : '');
      const caption = values.caption?.trim() ? n.caption!.create(null, p(values.caption.trim())) : undefined;
      return n.images!.create(null, n.image!.create({ data: { ref, ...(alt ? { alt } : {}) } }, caption));
    },
  },
  {
    id: 'file',
    label: 'File',
    keywords: 'attachment upload download',
    make: async (ctx) => {
      const values = await ctx.ask('Attach a file', [
        { name: 'file', label: 'File', kind: 'file' },
        { name: 'caption', label: 'Caption' },
      ]);
      const file = ctx.chosenFile();
      if (!values || !file) return null;
      const id = await ctx.upload(file);
      const caption = n.caption!.create(null, p(values.caption?.trim() || file.name));
      return n.file!.create({ data: { ref: { kind: 'file', file: id } } }, caption);
    },
  },
  {
    id: 'embed',
    label: 'Embed',
    keywords: 'video youtube url iframe',
    make: async (ctx) => {
      const values = await ctx.ask('Embed a URL', [
        { name: 'url', label: 'URL' },
        { name: 'caption', label: 'Caption' },
      ]);
      if (!values || !webUrl(values.url)) return null;
      const caption = values.caption?.trim() ? n.caption!.create(null, p(values.caption.trim())) : undefined;
      return n.embed!.create({ data: { url: values.url!.trim() } }, caption);
    },
  },
  { id: 'tabs', label: 'Tabs', keywords: 'tab switcher', make: () => n.tabs!.create(null, [n.tabs_item!.create({ data: { title: 'Tab 1' } }, p()), n.tabs_item!.create({ data: { title: 'Tab 2' } }, p())]) },
  {
    id: 'expandable',
    label: 'Expandable',
    keywords: 'details collapse accordion',
    make: () => n.expandable!.create(null, [n.expandable_title!.create(null, p('Details')), n.expandable_body!.create(null, p())]),
  },
  { id: 'stepper', label: 'Stepper', keywords: 'steps tutorial', make: () => n.stepper!.create(null, [n.stepper_step!.create(null, p()), n.stepper_step!.create(null, p())]) },
  {
    id: 'columns',
    label: 'Columns',
    keywords: 'layout two columns',
    make: () => n.columns!.create(null, [n.column!.create({ data: { width: { value: 50, unit: '%' } } }, p()), n.column!.create({ data: { width: { value: 50, unit: '%' } } }, p())]),
  },
  {
    id: 'updates',
    label: 'Changelog',
    keywords: 'updates update release notes dated',
    make: () => n.updates!.create({ data: { format: 'full' } }, n.update!.create({ data: { date: today() } }, p())),
  },
  {
    id: 'openapi-operation',
    label: 'OpenAPI operation',
    keywords: 'api endpoint swagger rest method path',
    make: async (ctx) => {
      const data = await chooseOperation(ctx);
      return data ? n.openapi_operation!.create({ data }) : null;
    },
  },
  { id: 'divider', label: 'Divider', keywords: 'hr line rule ---', make: () => n.divider!.create() },
  {
    id: 'math',
    label: 'Math block',
    keywords: 'formula latex tex equation $$',
    make: async (ctx) => {
      const values = await ctx.ask('Math block', [{ name: 'formula', label: 'TeX formula' }]);
      return values?.formula?.trim() ? n.math!.create({ data: { formula: values.formula.trim() } }) : null;
    },
  },
  {
    id: 'content-ref',
    label: 'Page reference',
    keywords: 'content-ref card link page',
    make: async (ctx) => {
      const values = await ctx.ask('Reference a page', [{ name: 'page', label: 'Page', kind: 'page' }]);
      return values?.page ? n.content_ref!.create({ data: { ref: { kind: 'page', page: values.page } } }) : null;
    },
  },
  {
    id: 'mention',
    label: 'Mention a page',
    keywords: 'link page @',
    inline: true,
    make: async (ctx) => {
      const values = await ctx.ask('Mention a page', [{ name: 'page', label: 'Page', kind: 'page' }]);
      return values?.page ? n.mention!.create({ data: { ref: { kind: 'page', page: values.page } } }) : null;
    },
  },
  {
    id: 'emoji',
    label: 'Emoji',
    keywords: 'smiley icon',
    inline: true,
    make: async (ctx) => {
      const values = await ctx.ask('Emoji', [{ name: 'emoji', label: 'Emoji (type or paste it)' }]);
      const char = values?.emoji?.trim();
      if (!char) return null;
      const code = Array.from(char)
        .map((c) => c.codePointAt(0)!.toString(16))
        .filter((hex) => hex !== 'fe0f')
        .join('-');
      return n.emoji!.create({ data: { code } });
    },
  },
  {
    id: 'button',
    label: 'Button',
    keywords: 'call to action link',
    inline: true,
    make: async (ctx) => {
      const values = await ctx.ask('Button', [
        { name: 'label', label: 'Label' },
        { name: 'url', label: 'URL' },
        { name: 'kind', label: 'Style', kind: 'select', options: ['primary', 'secondary'] },
      ]);
      if (!values?.label?.trim() || !webUrl(values.url)) return null;
      return n.button!.create({ data: { label: values.label.trim(), kind: values.kind === 'secondary' ? 'secondary' : 'primary', ref: { kind: 'url', url: values.url!.trim() } } });
    },
  },
  {
    id: 'inline-math',
    label: 'Inline math',
    keywords: 'formula latex tex $',
    inline: true,
    make: async (ctx) => {
      const values = await ctx.ask('Inline math', [{ name: 'formula', label: 'TeX formula' }]);
      return values?.formula?.trim() ? n.inline_math!.create({ data: { formula: values.formula.trim() } }) : null;
    },
  },
];

/** Midnight UTC today, as GitBook's Timestamp (what `{% update date="…" %}` reads): a new update's date. */
export const today = (): string => `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`;

export function webUrl(value: string | undefined): boolean {
  if (!value) return false;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Puts `node` at the selection: an inline node at the cursor; a block in place of the empty
 * paragraph the cursor is in, or after the cursor's block. Refused (false) where the dialect
 * does not allow the block (a tab in a list item, say).
 */
export function insertNode(state: EditorState, node: PMNode, dispatch: (tr: Transaction) => void): boolean {
  const { $from } = state.selection;
  if (node.isInline) {
    if (!$from.parent.inlineContent || !$from.parent.canReplaceWith($from.index(), $from.index(), node.type)) return false;
    dispatch(state.tr.replaceSelectionWith(node).scrollIntoView());
    return true;
  }
  // Find the innermost block container that allows this block, from the cursor outwards.
  for (let depth = $from.depth; depth > 0; depth--) {
    const parent = $from.node(depth - 1);
    const index = $from.index(depth - 1);
    const here = $from.node(depth);
    const emptyParagraph = here.type === n.paragraph && here.content.size === 0;
    if (emptyParagraph && parent.canReplaceWith(index, index + 1, node.type)) {
      const tr = state.tr.replaceWith($from.before(depth), $from.after(depth), node);
      dispatch(placeCursor(tr, $from.before(depth), node).scrollIntoView());
      return true;
    }
    if (!emptyParagraph && here.isBlock && parent.canReplaceWith(index + 1, index + 1, node.type)) {
      const at = $from.after(depth);
      const tr = state.tr.insert(at, node);
      dispatch(placeCursor(tr, at, node).scrollIntoView());
      return true;
    }
  }
  return false;
}

function placeCursor(tr: Transaction, at: number, node: PMNode): Transaction {
  if (node.isAtom) return tr.setSelection(NodeSelection.create(tr.doc, at));
  const inside = TextSelection.findFrom(tr.doc.resolve(at + 1), 1, true);
  return inside ? tr.setSelection(inside) : tr;
}
