/*
 * The ProseMirror schema of Quire's block editor: one node or mark per GitBook block, inline
 * and mark the markdown engine reads (src/content/markdown/types.ts). Pure data plus
 * DOMOutputSpec arrays, importable from Node (the converter, the tests, a future collaboration
 * server) and from the browser bundle.
 *
 * Where a block may stand is not written here a second time: each block node joins the group
 * `in_<container>` of every container the dialect model (src/content/markdown/dialect.ts)
 * allows it in, and each container's content is `in_<container>+`.
 *
 * Every node keeps what it was read from: `key` (GitBook's node key, the anchor of block
 * comments), `data` (GitBook's data object, whole, so keys the editor does not know survive)
 * and `meta` (the node's other properties, such as `isVoid`). Anything the converter cannot
 * map exactly becomes an `opaque_block` / `opaque_inline` / `opaque_mark` holding the original
 * JSON, shown read-only and written back as it was (docs/decisions/editor.md).
 */
import { Fragment, Schema, type AttributeSpec, type DOMOutputSpec, type MarkSpec, type NodeSpec, type Node as PMNode, type Mark as PMMark } from 'prosemirror-model';
import { CONTAINERS, allows, type Container } from '../content/markdown/dialect.ts';
import { HINT_STYLES, type BlockType } from '../content/markdown/types.ts';

/** The ProseMirror group of blocks that may stand in `container`. */
export const groupOf = (container: Container): string => `in_${container.replace(/-/g, '_')}`;

/** The content expression of a block container: the blocks the dialect allows there. */
const blocksOf = (container: Container): string => `${groupOf(container)}+`;

/** The groups of a block node whose GitBook type is `type` (opaque blocks stand anywhere). */
function groupsFor(type: BlockType | 'any'): string {
  return CONTAINERS.filter((c) => type === 'any' || allows(c, type))
    .map(groupOf)
    .join(' ');
}

/** Block attributes: GitBook's key, data object and other properties, kept whole. */
function gitbookAttrs(meta: Record<string, unknown> = {}, data: Record<string, unknown> = {}): Record<string, AttributeSpec> {
  return { key: { default: null }, data: { default: data }, meta: { default: meta } };
}

/** A fragment's attributes: its key and its other properties (`fragment`, `type`). */
function fragmentAttrs(fragment: string, extra: Record<string, unknown> = {}): Record<string, AttributeSpec> {
  return { key: { default: null }, meta: { default: { object: 'fragment', fragment, ...extra } } };
}

/** The data of a node, as a DOM attribute, so copy and paste inside the editor keeps it. */
const dataAttr = (node: PMNode | PMMark): Record<string, string> => {
  const data = node.attrs.data as Record<string, unknown> | null;
  return data && Object.keys(data).length > 0 ? { 'data-gb': JSON.stringify(data) } : {};
};

function readData(dom: HTMLElement | string): Record<string, unknown> {
  if (typeof dom === 'string') return {};
  const raw = dom.getAttribute('data-gb');
  if (!raw) return {};
  try {
    const value = JSON.parse(raw) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The parse rule of a node written by this schema's toDOM (`data-type` names it). */
function own(type: string, extra: Record<string, unknown> = {}) {
  return { tag: `[data-type="${type}"]`, priority: 60, getAttrs: (dom: HTMLElement | string) => ({ data: readData(dom), ...extra }) };
}

const ALIGN_STYLE: Record<string, string> = { start: 'left', center: 'center', end: 'right' };

function alignAttrs(node: PMNode): Record<string, string> {
  const align = (node.attrs.data as { align?: string } | null)?.align;
  return align && ALIGN_STYLE[align] ? { style: `text-align: ${ALIGN_STYLE[align]}` } : {};
}

const nodes: Record<string, NodeSpec> = {
  doc: { content: blocksOf('document'), attrs: { data: { default: {} }, meta: { default: {} } } },

  paragraph: {
    group: groupsFor('paragraph'),
    content: 'inline*',
    attrs: gitbookAttrs(),
    parseDOM: [{ tag: 'p' }],
    toDOM: (node) => ['p', alignAttrs(node), 0],
  },
  heading: {
    group: groupsFor('heading-1'),
    content: 'inline*',
    defining: true,
    attrs: { ...gitbookAttrs(), level: { default: 1 } },
    // GitBook has three levels under the page title: h1/h2 of a pasted page are the first.
    parseDOM: [
      { tag: 'h1', attrs: { level: 1 } },
      { tag: 'h2', attrs: { level: 1 } },
      { tag: 'h3', attrs: { level: 2 } },
      { tag: 'h4', attrs: { level: 3 } },
      { tag: 'h5', attrs: { level: 3 } },
      { tag: 'h6', attrs: { level: 3 } },
    ],
    // Page markdown writes heading-1 as `##`: the page title is the h1.
    toDOM: (node) => [`h${Number(node.attrs.level) + 1}`, alignAttrs(node), 0],
  },
  divider: {
    group: groupsFor('divider'),
    atom: true,
    attrs: gitbookAttrs({ isVoid: true }),
    parseDOM: [{ tag: 'hr' }],
    toDOM: () => ['hr'],
  },

  list_unordered: {
    group: groupsFor('list-unordered'),
    content: 'list_item+',
    attrs: gitbookAttrs(),
    parseDOM: [{ tag: 'ul[data-type="list-tasks"]', ignore: true, priority: 40 }, { tag: 'ul' }],
    toDOM: () => ['ul', 0],
  },
  list_ordered: {
    group: groupsFor('list-ordered'),
    content: 'list_item+',
    attrs: gitbookAttrs(),
    parseDOM: [
      {
        tag: 'ol',
        getAttrs: (dom) => {
          const start = Number((dom as HTMLElement).getAttribute('start') ?? '1');
          return { data: Number.isInteger(start) && start !== 1 ? { start } : {} };
        },
      },
    ],
    toDOM: (node) => {
      const start = (node.attrs.data as { start?: number } | null)?.start;
      return ['ol', start !== undefined && start !== 1 ? { start: String(start) } : {}, 0];
    },
  },
  list_tasks: {
    group: groupsFor('list-tasks'),
    content: 'list_item+',
    attrs: gitbookAttrs(),
    parseDOM: [{ tag: 'ul[data-type="list-tasks"]', priority: 60 }],
    toDOM: () => ['ul', { 'data-type': 'list-tasks', class: 'task-list' }, 0],
  },
  list_item: {
    content: blocksOf('list-item'),
    defining: true,
    attrs: gitbookAttrs(),
    parseDOM: [
      {
        tag: 'li',
        getAttrs: (dom) => {
          const box = (dom as HTMLElement).querySelector(':scope > input[type="checkbox"]') as HTMLInputElement | null;
          return { data: box ? { checked: box.checked || box.hasAttribute('checked') } : {} };
        },
      },
    ],
    toDOM: (node) => {
      const checked = (node.attrs.data as { checked?: boolean } | null)?.checked;
      return ['li', checked === undefined ? {} : { 'data-checked': String(checked) }, 0];
    },
  },

  code_block: {
    group: groupsFor('code'),
    content: 'code_line+',
    defining: true,
    attrs: gitbookAttrs(),
    parseDOM: [
      {
        tag: 'pre',
        preserveWhitespace: 'full',
        getAttrs: (dom) => {
          const el = dom as HTMLElement;
          const fromData = readData(el);
          const language = /language-([\w+#-]+)/.exec(el.querySelector('code')?.className ?? el.className)?.[1];
          return { data: Object.keys(fromData).length > 0 ? fromData : language ? { syntax: language } : {} };
        },
        // Lines of pasted code: one code_line per line of the <pre>'s text.
        getContent: (dom, schema) => {
          const lines = ((dom as HTMLElement).textContent ?? '').replace(/\n$/, '').split('\n');
          return Fragment.from(lines.map((line) => schema.nodes.code_line!.create(null, line ? schema.text(line) : undefined)));
        },
      },
    ],
    toDOM: (node) => ['pre', { 'data-type': 'code', ...dataAttr(node) }, ['code', 0]],
  },
  code_line: {
    content: '(text | expression | opaque_inline)*',
    // GitBook's code lines hold marks where `<pre><code>` had them (bold in a command).
    marks: '_',
    code: true,
    attrs: gitbookAttrs(),
    toDOM: () => ['div', { class: 'code-line' }, 0],
    parseDOM: [{ tag: 'div.code-line', preserveWhitespace: 'full' }],
  },

  blockquote: {
    group: groupsFor('blockquote'),
    content: blocksOf('blockquote'),
    defining: true,
    attrs: gitbookAttrs(),
    parseDOM: [{ tag: 'blockquote' }],
    toDOM: () => ['blockquote', 0],
  },
  hint: {
    group: groupsFor('hint'),
    content: blocksOf('hint'),
    defining: true,
    attrs: gitbookAttrs({}, { style: 'info' }),
    parseDOM: [own('hint')],
    toDOM: (node) => {
      const style = (node.attrs.data as { style?: string } | null)?.style;
      return ['div', { 'data-type': 'hint', class: `hint hint-${style && HINT_STYLES.has(style) ? style : 'info'}`, role: 'note', ...dataAttr(node) }, 0];
    },
  },

  math: {
    group: groupsFor('math'),
    atom: true,
    attrs: gitbookAttrs({ isVoid: true }, { formula: '' }),
    parseDOM: [own('math')],
    toDOM: (node) => ['div', { 'data-type': 'math', class: 'math-block', ...dataAttr(node) }, String((node.attrs.data as { formula?: string }).formula ?? '')],
  },

  caption: {
    content: 'paragraph+',
    attrs: fragmentAttrs('caption'),
    parseDOM: [{ tag: 'figcaption' }],
    toDOM: () => ['figcaption', 0],
  },
  images: {
    group: groupsFor('images'),
    content: 'image+',
    attrs: gitbookAttrs({ isVoid: false }),
    parseDOM: [own('images')],
    toDOM: (node) => {
      const data = (node.attrs.data ?? {}) as { align?: string; fullWidth?: boolean; withFrame?: boolean };
      const classes = ['images', data.align ? `images-${safeToken(data.align)}` : '', data.fullWidth ? 'images-full' : '', data.withFrame ? 'images-frame' : ''];
      return ['div', { 'data-type': 'images', class: classes.filter(Boolean).join(' '), ...dataAttr(node) }, 0];
    },
  },
  image: {
    content: 'caption?',
    attrs: gitbookAttrs({ isVoid: true, fragments: [] }, { ref: { kind: 'url', url: '' } }),
    parseDOM: [own('image')],
    toDOM: (node) => ['figure', { 'data-type': 'image', class: 'image', ...dataAttr(node) }, 0],
  },
  file: {
    group: groupsFor('file'),
    content: 'caption?',
    attrs: gitbookAttrs({ isVoid: true }, { ref: { kind: 'file', file: '' } }),
    parseDOM: [own('file')],
    toDOM: (node) => ['figure', { 'data-type': 'file', class: 'file', ...dataAttr(node) }, 0],
  },
  embed: {
    group: groupsFor('embed'),
    content: 'caption?',
    attrs: gitbookAttrs({ isVoid: true }, { url: '' }),
    parseDOM: [own('embed')],
    toDOM: (node) => ['figure', { 'data-type': 'embed', class: 'embed', ...dataAttr(node) }, 0],
  },
  drawing: {
    group: groupsFor('drawing'),
    atom: true,
    attrs: gitbookAttrs({ isVoid: true }, { ref: { kind: 'file', file: '' } }),
    parseDOM: [own('drawing')],
    toDOM: (node) => ['div', { 'data-type': 'drawing', class: 'drawing', ...dataAttr(node) }],
  },
  content_ref: {
    group: groupsFor('content-ref'),
    atom: true,
    attrs: gitbookAttrs({ isVoid: true }, { ref: { kind: 'url', url: '' } }),
    parseDOM: [own('content_ref')],
    toDOM: (node) => ['div', { 'data-type': 'content_ref', class: 'content-ref', ...dataAttr(node) }],
  },

  expandable: {
    group: groupsFor('expandable'),
    content: 'expandable_title expandable_body',
    defining: true,
    attrs: gitbookAttrs({ isVoid: true }),
    parseDOM: [own('expandable'), { tag: 'details' }],
    toDOM: (node) => ['div', { 'data-type': 'expandable', class: 'expandable', ...dataAttr(node) }, 0],
  },
  expandable_title: {
    content: 'paragraph+',
    isolating: true,
    attrs: fragmentAttrs('expandable-title', { type: 'expandable-title' }),
    parseDOM: [{ tag: 'summary' }, { tag: 'div.expandable-title' }],
    toDOM: () => ['div', { class: 'expandable-title' }, 0],
  },
  expandable_body: {
    content: blocksOf('expandable-body'),
    isolating: true,
    attrs: fragmentAttrs('expandable-body', { type: 'expandable-body' }),
    parseDOM: [{ tag: 'div.expandable-body' }],
    toDOM: () => ['div', { class: 'expandable-body' }, 0],
  },

  tabs: {
    group: groupsFor('tabs'),
    content: 'tabs_item+',
    attrs: gitbookAttrs(),
    parseDOM: [own('tabs')],
    toDOM: () => ['div', { 'data-type': 'tabs', class: 'tabs' }, 0],
  },
  tabs_item: {
    content: blocksOf('tabs-item'),
    isolating: true,
    attrs: gitbookAttrs({}, { title: 'Tab' }),
    parseDOM: [own('tabs_item')],
    toDOM: (node) => ['section', { 'data-type': 'tabs_item', class: 'tab', 'data-title': String((node.attrs.data as { title?: string }).title ?? ''), ...dataAttr(node) }, 0],
  },
  stepper: {
    group: groupsFor('stepper'),
    content: 'stepper_step+',
    attrs: gitbookAttrs(),
    parseDOM: [own('stepper')],
    toDOM: () => ['ol', { 'data-type': 'stepper', class: 'stepper' }, 0],
  },
  stepper_step: {
    content: blocksOf('stepper-step'),
    isolating: true,
    attrs: gitbookAttrs(),
    parseDOM: [own('stepper_step')],
    toDOM: () => ['li', { 'data-type': 'stepper_step', class: 'step' }, 0],
  },
  updates: {
    group: groupsFor('updates'),
    content: 'update+',
    attrs: gitbookAttrs(),
    parseDOM: [own('updates')],
    toDOM: (node) => ['div', { 'data-type': 'updates', class: 'updates', ...dataAttr(node) }, 0],
  },
  update: {
    content: blocksOf('update'),
    isolating: true,
    attrs: gitbookAttrs({}, { date: '1970-01-01T00:00:00.000Z' }),
    parseDOM: [own('update')],
    toDOM: (node) => ['section', { 'data-type': 'update', class: 'update', 'data-date': String((node.attrs.data as { date?: string }).date ?? '').slice(0, 10), ...dataAttr(node) }, 0],
  },
  columns: {
    group: groupsFor('columns'),
    content: 'column+',
    attrs: gitbookAttrs({ isVoid: false }),
    parseDOM: [own('columns')],
    toDOM: (node) => ['div', { 'data-type': 'columns', class: 'columns', ...dataAttr(node) }, 0],
  },
  column: {
    content: blocksOf('column'),
    isolating: true,
    attrs: gitbookAttrs(),
    parseDOM: [own('column')],
    toDOM: (node) => ['div', { 'data-type': 'column', class: 'column', ...dataAttr(node) }, 0],
  },

  table: {
    group: groupsFor('table'),
    content: 'table_head table_row*',
    isolating: true,
    attrs: gitbookAttrs({ isVoid: true }, { view: { type: 'grid', columns: [], hideHeader: false } }),
    tableRole: 'table',
    parseDOM: [{ tag: 'table' }],
    toDOM: (node) => {
      const view = (node.attrs.data as { view?: { type?: string; cardSize?: string } } | null)?.view;
      const cards = view?.type === 'cards' ? { class: `table-cards cards-${safeToken(view.cardSize)}`, 'aria-label': 'Cards' } : {};
      return ['table', { 'data-type': 'table', ...cards, ...dataAttr(node) }, ['tbody', 0]];
    },
  },
  table_head: {
    content: 'table_header_cell+',
    tableRole: 'row',
    parseDOM: [{ tag: 'tr.table-head', priority: 60 }],
    toDOM: () => ['tr', { class: 'table-head' }, 0],
  },
  /**
   * A column: its title (plain text, GitBook's definition title), id, alignment, kind (`text`;
   * `content-ref`: cells linking to a page or URL, a card's target; `files`: cells of uploaded
   * files, a card's cover image), whether it is hidden (a definition outside the view's
   * columns) and its width (a grid's `columnWidths` entry, `<th width>`).
   */
  table_header_cell: {
    content: 'text*',
    marks: '',
    isolating: true,
    tableRole: 'header_cell',
    attrs: { column: { default: null }, align: { default: 'left' }, kind: { default: 'text' }, hidden: { default: false }, width: { default: null }, meta: { default: { type: 'text' } } },
    parseDOM: [{ tag: 'th', getAttrs: (dom) => ({ align: alignOf(dom as HTMLElement) }) }],
    toDOM: (node) => [
      'th',
      {
        scope: 'col',
        style: `text-align: ${String(node.attrs.align)}${typeof node.attrs.width === 'number' ? `; width: ${node.attrs.width}px` : ''}`,
        class: [node.attrs.hidden ? 'column-hidden' : '', node.attrs.kind === 'content-ref' ? 'column-ref' : '', node.attrs.kind === 'files' ? 'column-files' : ''].filter(Boolean).join(' ') || null,
      },
      0,
    ],
  },
  /** A record: its id and order index. */
  table_row: {
    content: '(table_cell | table_ref_cell)+',
    tableRole: 'row',
    attrs: { record: { default: null }, orderIndex: { default: null }, meta: { default: {} } },
    parseDOM: [{ tag: 'tr' }],
    toDOM: () => ['tr', 0],
  },
  /** A text cell: its fragment. */
  table_cell: {
    content: 'paragraph+',
    isolating: true,
    tableRole: 'cell',
    attrs: { fragment: { default: null }, key: { default: null }, meta: { default: { object: 'fragment' } } },
    parseDOM: [{ tag: 'td' }],
    toDOM: () => ['td', 0],
  },

  /**
   * A cell of a content-ref column: its reference (a page, a URL, a file), null when the record
   * holds null, and `absent` when the record holds no value for the column. In a files column
   * (a card's cover), `files`: the file ids the record holds (null when it holds null).
   */
  table_ref_cell: {
    atom: true,
    tableRole: 'cell',
    attrs: { ref: { default: null }, files: { default: null }, absent: { default: true } },
    parseDOM: [{ tag: 'td[data-type="table_ref_cell"]', priority: 60, getAttrs: (dom) => ({ ref: readData(dom as HTMLElement).ref ?? null, files: readData(dom as HTMLElement).files ?? null, absent: false }) }],
    toDOM: (node) => ['td', { 'data-type': 'table_ref_cell', class: 'ref-cell', ...(node.attrs.ref || node.attrs.files ? { 'data-gb': JSON.stringify({ ref: node.attrs.ref, files: node.attrs.files }) } : {}) }],
  },

  openapi_operation: {
    group: groupsFor('openapi-operation'),
    atom: true,
    attrs: gitbookAttrs({ isVoid: true }),
    parseDOM: [own('openapi_operation')],
    toDOM: (node) => ['div', { 'data-type': 'openapi_operation', class: 'openapi-operation', ...dataAttr(node) }],
  },
  integration: {
    group: groupsFor('integration'),
    atom: true,
    attrs: gitbookAttrs({ isVoid: true }),
    parseDOM: [own('integration')],
    toDOM: (node) => ['div', { 'data-type': 'integration', class: 'integration', ...dataAttr(node) }],
  },
  /** Content the editor does not know: the original JSON, shown read-only, written back as is. */
  opaque_block: {
    group: groupsFor('any'),
    atom: true,
    selectable: true,
    attrs: { json: { default: null } },
    toDOM: (node) => ['div', { class: 'opaque-block', 'data-opaque': describeOpaque(node.attrs.json) }],
  },

  text: { group: 'inline' },
  mention: inlineAtom('mention', { ref: { kind: 'page', page: '' } }),
  button: inlineAtom('button', { label: 'Button', kind: 'primary' }),
  inline_image: { ...inlineAtom('inline_image', { ref: { kind: 'url', url: '' } }), parseDOM: [own('inline_image'), { tag: 'img[src]', getAttrs: (dom) => imageFromHtml(dom as HTMLElement) }] },
  inline_math: inlineAtom('inline_math', { formula: '' }),
  expression: inlineAtom('expression', { expression: '' }),
  icon: inlineAtom('icon', { icon: '' }),
  emoji: inlineAtom('emoji', { code: '' }),
  opaque_inline: {
    group: 'inline',
    inline: true,
    atom: true,
    attrs: { json: { default: null } },
    toDOM: (node) => ['span', { class: 'opaque-inline', 'data-opaque': describeOpaque(node.attrs.json) }],
  },
};

function inlineAtom(type: string, data: Record<string, unknown>): NodeSpec {
  return {
    group: 'inline',
    inline: true,
    atom: true,
    attrs: gitbookAttrs({ isVoid: true }, data),
    parseDOM: [own(type)],
    toDOM: (node) => ['span', { 'data-type': type, class: `inline-${type.replace(/_/g, '-')}`, ...dataAttr(node) }],
  };
}

function alignOf(el: HTMLElement): 'left' | 'center' | 'right' {
  const align = (el.getAttribute('align') ?? el.style?.textAlign ?? '').toLowerCase();
  return align === 'center' ? 'center' : align === 'right' || align === 'end' ? 'right' : 'left';
}

function imageFromHtml(el: HTMLElement): Record<string, unknown> | false {
  const src = el.getAttribute('src') ?? '';
  // Only web images: a pasted data: or blob: URL would put bytes in the document.
  if (!/^https?:\/\//i.test(src)) return false;
  const alt = el.getAttribute('alt');
  return { data: { ref: { kind: 'url', url: src }, ...(alt ? { alt } : {}) } };
}

function describeOpaque(json: unknown): string {
  const value = json as { object?: string; type?: string } | null;
  return value ? [value.object, value.type].filter(Boolean).join(' ') : 'unknown';
}

const SIMPLE_MARKS = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript'] as const;
export type SimpleMarkName = (typeof SIMPLE_MARKS)[number];

const marks: Record<string, MarkSpec> = {
  /** GitBook's link inline, as a mark so typing inside a link extends it. */
  link: {
    attrs: gitbookAttrs({ isVoid: false }, { ref: { kind: 'url', url: '' } }),
    inclusive: false,
    parseDOM: [
      {
        tag: 'a[href]',
        getAttrs: (dom) => {
          const el = dom as HTMLElement;
          const own = readData(el);
          if (Object.keys(own).length > 0) return { data: own };
          const href = el.getAttribute('href') ?? '';
          return /^(https?:|mailto:)/i.test(href) ? { data: { ref: { kind: 'url', url: href } } } : false;
        },
      },
    ],
    toDOM: (mark) => ['a', { href: hrefOfLink(mark), ...dataAttr(mark) }, 0],
  },
  bold: {
    parseDOM: [{ tag: 'strong' }, { tag: 'b', getAttrs: (dom) => ((dom as HTMLElement).style.fontWeight !== 'normal' ? null : false) }, { style: 'font-weight=bold' }, { style: 'font-weight', getAttrs: (v) => /^(bold(er)?|[6-9]\d\d)$/.test(v as string) && null }],
    toDOM: () => ['strong', 0],
  },
  italic: { parseDOM: [{ tag: 'em' }, { tag: 'i' }, { style: 'font-style=italic' }], toDOM: () => ['em', 0] },
  strikethrough: { parseDOM: [{ tag: 's' }, { tag: 'del' }, { tag: 'strike' }, { style: 'text-decoration=line-through' }], toDOM: () => ['s', 0] },
  code: { parseDOM: [{ tag: 'code' }], toDOM: () => ['code', 0] },
  keyboard: { parseDOM: [{ tag: 'kbd' }], toDOM: () => ['kbd', 0] },
  superscript: { excludes: 'subscript', parseDOM: [{ tag: 'sup' }], toDOM: () => ['sup', 0] },
  subscript: { excludes: 'superscript', parseDOM: [{ tag: 'sub' }], toDOM: () => ['sub', 0] },
  color: {
    attrs: { data: { default: { text: 'default', background: 'default' } } },
    parseDOM: [{ tag: 'mark[data-gb]', getAttrs: (dom) => ({ data: readData(dom as HTMLElement) }) }],
    toDOM: (mark) => {
      const data = mark.attrs.data as { text?: string; background?: string };
      return ['mark', { class: `color-${safeToken(data.text)} bg-${safeToken(data.background)}`, ...dataAttr(mark) }, 0];
    },
  },
  /** A mark the editor does not know, kept as its JSON (several may stand on one text). */
  opaque_mark: { attrs: { json: { default: null } }, excludes: '', toDOM: () => ['span', { class: 'opaque-mark' }, 0] },
  /**
   * The key of the GitBook text node a run of text came from, so text keys survive editing.
   * Never parsed from the clipboard: pasted text is new text.
   */
  text_key: { attrs: { key: { default: null } }, toDOM: () => ['span', 0] },
};

function safeToken(value: unknown): string {
  return typeof value === 'string' ? value.replace(/[^\w-]/g, '') || 'default' : 'default';
}

/** What a link mark points at, for display and for the clipboard. */
export function hrefOfLink(mark: PMMark): string {
  const ref = (mark.attrs.data as { ref?: { kind?: string; url?: string; page?: string; anchor?: string; file?: string } } | null)?.ref;
  if (!ref) return '#';
  if (ref.kind === 'url') return ref.url ?? '#';
  if (ref.kind === 'anchor') return `#${ref.anchor ?? ''}`;
  return `#${ref.kind}:${ref.page ?? ref.file ?? ''}`;
}

export const schema = new Schema({ nodes, marks });

export const SIMPLE_MARK_NAMES: readonly SimpleMarkName[] = SIMPLE_MARKS;

export { BLOCK_OF_NODE, CONTAINER_OF_NODE, INLINE_OF_NODE, NODE_OF_BLOCK, NODE_OF_INLINE } from './schema-names.ts';

export type { DOMOutputSpec };
