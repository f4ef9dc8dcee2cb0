/*
 * The block panel's settings (panel.ts): for each node type, the controls it shows and what
 * each writes into the node's `data`. What they write is what GitBook's schema allows and the
 * markdown engine reads and writes (convert.test.ts applies each and reads the result back).
 */
import { HINT_STYLES } from '../../content/markdown/types.ts';
import { webUrl, type Field, type InsertContext } from './blocks.ts';

export type Data = Record<string, unknown>;
export type Ref = { kind: string; url?: string; file?: string; page?: string; spec?: string };

/** What the panel needs of the editor: its dialog, uploads, the page list, the status line. */
export interface PanelContext {
  ask(title: string, fields: Field[]): Promise<Record<string, string> | null>;
  upload(file: File): Promise<string>;
  chosenFile(): File | null;
  pages(): Array<{ id: string; title: string; depth: number }>;
  say(text: string): void;
  openapi?: InsertContext['openapi'];
}

export interface Setting {
  label: string;
  kind: 'text' | 'checkbox' | 'select' | 'date' | 'number' | 'page';
  options?: Array<[value: string, label: string]>;
  /** Shown only when this holds of the node's data. */
  when?: (data: Data) => boolean;
  get(data: Data): string | boolean;
  /** The new data; null leaves the node as it is (a value the block cannot take, a dialog cancelled). */
  set(data: Data, value: string | boolean, ctx: PanelContext): Data | null | Promise<Data | null>;
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

const choices = (...values: string[]): Array<[string, string]> => values.map((v) => [v, v]);

/** GitBook's TextAlignment of a paragraph or heading; left (start) is written as no alignment. */
const ALIGN: Setting = {
  label: 'Alignment',
  kind: 'select',
  options: [
    ['start', 'Left'],
    ['center', 'Center'],
    ['end', 'Right'],
  ],
  get: (d) => String(d.align ?? 'start'),
  set: (d, v) => (v === 'center' || v === 'end' ? { ...d, align: v } : withoutKey(d, 'align')),
};

const refOf = (d: Data): Ref | undefined => d.ref as Ref | undefined;
const actionOf = (d: Data): { action?: string; query?: string; slug?: string } | undefined => d.action as { action?: string } | undefined;

/** A button links (`ref`) or acts (`action`), never both (GitBook's oneOf). */
async function buttonAction(d: Data, v: string | boolean, ctx: PanelContext): Promise<Data | null> {
  const base = withoutKey(withoutKey(d, 'ref'), 'action');
  if (v === 'link') {
    if (d.ref) return withoutKey(d, 'action');
    const ref = await askLink(ctx, 'Button link');
    return ref ? { ...base, ref } : null;
  }
  if (v === 'select') {
    const values = await ctx.ask('Option to select', [{ name: 'slug', label: 'Option slug' }]);
    const slug = values?.slug?.trim();
    return slug ? { ...base, action: { action: 'select', slug } } : null;
  }
  return v === 'search' || v === 'ask' ? { ...base, action: { action: v } } : null;
}

/** A URL or a page of the space, chosen in the editor's dialog. */
async function askLink(ctx: PanelContext, title: string): Promise<Ref | null> {
  const values = await ctx.ask(title, [
    { name: 'url', label: 'URL (or choose a page below)' },
    { name: 'page', label: 'Page', kind: 'page' },
  ]);
  if (!values) return null;
  return webUrl(values.url) ? { kind: 'url', url: values.url!.trim() } : values.page ? { kind: 'page', page: values.page } : null;
}

const isLink = (d: Data) => !d.action;

/** A tag slug as GitBook writes it in `{% update tags %}` (src/content/markdown/prepare.ts UPDATE_TAGS). */
const TAG_SLUG = /^[a-z0-9][a-z0-9_-]*$/;
const tagsOf = (d: Data): Array<{ kind: string; tag: string; space?: string }> => (Array.isArray(d.tags) ? (d.tags as Array<{ kind: string; tag: string; space?: string }>) : []);
const asks = (d: Data) => actionOf(d)?.action === 'search' || actionOf(d)?.action === 'ask';

export const SETTINGS: Record<string, Setting[]> = {
  paragraph: [ALIGN],
  heading: [ALIGN],
  code_block: [
    text('Language', 'syntax'),
    text('Title', 'title'),
    { label: 'Line numbers', kind: 'checkbox', get: (d) => d.lineNumbers === true, set: (d, v) => withFlag(d, 'lineNumbers', v === true) },
    { label: 'Wrap lines', kind: 'checkbox', get: (d) => d.overflow === 'wrap', set: (d, v) => (v ? { ...d, overflow: 'wrap' } : withoutKey(d, 'overflow')) },
  ],
  hint: [{ label: 'Style', kind: 'select', options: choices(...HINT_STYLES), get: (d) => String(d.style ?? 'info'), set: (d, v) => ({ ...d, style: v }) }],
  tabs_item: [text('Tab title', 'title')],
  updates: [{ label: 'Date format', kind: 'select', options: choices('full', 'short', 'numeric'), get: (d) => String(d.format ?? 'full'), set: (d, v) => ({ ...d, format: v }) }],
  update: [
    { label: 'Date', kind: 'date', get: (d) => String(d.date ?? '').slice(0, 10), set: (d, v) => (/^\d{4}-\d{2}-\d{2}$/.test(String(v)) ? { ...d, date: `${String(v)}T00:00:00.000Z` } : null) },
    {
      // GitBook's tags of the update: slugs of the space's tags (`{% update tags="a,b" %}`); a tag of another space is kept, without control.
      label: 'Tags',
      kind: 'text',
      get: (d) => tagsOf(d).filter((t) => !t.space).map((t) => t.tag).join(', '),
      set: (d, v) => {
        const slugs = [...new Set(String(v).split(',').map((s) => s.trim()).filter(Boolean))];
        if (slugs.some((slug) => !TAG_SLUG.test(slug))) return null;
        const tags = [...tagsOf(d).filter((t) => t.space), ...slugs.map((tag) => ({ kind: 'tag', tag }))];
        return tags.length > 0 ? { ...d, tags } : withoutKey(d, 'tags');
      },
    },
  ],
  image: [
    text('Alternative text', 'alt'),
    {
      label: 'Width (px)',
      kind: 'number',
      // A width GitBook wrote as a Length object is kept; the control sets a number of pixels, as `<img width>` holds.
      when: (d) => d.width === undefined || typeof d.width === 'number',
      get: (d) => (typeof d.width === 'number' ? String(d.width) : ''),
      set: (d, v) => {
        if (v === '') return withoutKey(d, 'width');
        const width = Number(v);
        return Number.isInteger(width) && width > 0 && width <= 10_000 ? { ...d, width } : null;
      },
    },
  ],
  images: [
    { label: 'Align', kind: 'select', options: [['', 'Default'], ['left', 'Left'], ['center', 'Center'], ['right', 'Right']], get: (d) => String(d.align ?? ''), set: (d, v) => (v ? { ...d, align: v } : withoutKey(d, 'align')) },
    { label: 'Full width', kind: 'checkbox', get: (d) => d.fullWidth === true, set: (d, v) => (v ? { ...d, fullWidth: true } : withoutKey(d, 'fullWidth')) },
    { label: 'Frame', kind: 'checkbox', get: (d) => d.withFrame === true, set: (d, v) => withFlag(d, 'withFrame', v === true) },
  ],
  embed: [text('URL', 'url')],
  math: [text('Formula', 'formula')],
  inline_math: [text('Formula', 'formula')],
  button: [
    text('Label', 'label'),
    { label: 'Style', kind: 'select', options: choices('primary', 'secondary'), get: (d) => String(d.kind ?? 'primary'), set: (d, v) => ({ ...d, kind: v }) },
    { label: 'Icon', kind: 'text', get: (d) => String(d.icon ?? ''), set: (d, v) => (v === '' ? withoutKey(d, 'icon') : /^[\w-]{1,50}$/.test(String(v)) ? { ...d, icon: v } : null) },
    {
      label: 'Action',
      kind: 'select',
      options: [
        ['link', 'Open a link'],
        ['search', 'Open search'],
        ['ask', 'Ask AI'],
        ['select', 'Select an option'],
      ],
      get: (d) => actionOf(d)?.action ?? 'link',
      set: buttonAction,
    },
    { label: 'URL', kind: 'text', when: isLink, get: (d) => (refOf(d)?.kind === 'url' ? String(refOf(d)?.url ?? '') : ''), set: (d, v) => (webUrl(String(v)) ? { ...d, ref: { kind: 'url', url: String(v).trim() } } : null) },
    { label: 'Page', kind: 'page', when: isLink, get: (d) => (refOf(d)?.kind === 'page' ? String(refOf(d)?.page ?? '') : ''), set: (d, v) => (v ? { ...d, ref: { kind: 'page', page: v } } : null) },
    {
      label: 'Query',
      kind: 'text',
      when: asks,
      get: (d) => String(actionOf(d)?.query ?? ''),
      set: (d, v) => ({ ...d, action: v === '' ? { action: actionOf(d)!.action } : { action: actionOf(d)!.action, query: v } }),
    },
    { label: 'Option slug', kind: 'text', when: (d) => actionOf(d)?.action === 'select', get: (d) => String(actionOf(d)?.slug ?? ''), set: (d, v) => (String(v).trim() ? { ...d, action: { action: 'select', slug: String(v).trim() } } : null) },
  ],
  expandable: [{ label: 'Open by default', kind: 'checkbox', get: (d) => d.defaultExpanded === true, set: (d, v) => withFlag(d, 'defaultExpanded', v === true) }],
  drawing: [],
  openapi_operation: [],
};

/** The settings of each node type, for tests: what a control writes into the node's data. */
export const PANEL_SETTINGS: Readonly<Record<string, readonly Setting[]>> = SETTINGS;

export function withFlag(data: Data, key: string, on: boolean): Data {
  return on ? { ...data, [key]: true } : withoutKey(data, key);
}

export function withoutKey(data: Data, key: string): Data {
  const out = { ...data };
  delete out[key];
  return out;
}

export const LABELS: Record<string, string> = {
  paragraph: 'Paragraph',
  heading: 'Heading',
  code_block: 'Code block',
  hint: 'Hint',
  tabs_item: 'Tab',
  updates: 'Changelog',
  update: 'Update',
  image: 'Image',
  images: 'Images',
  file: 'File',
  embed: 'Embed',
  math: 'Math',
  inline_math: 'Inline math',
  button: 'Button',
  expandable: 'Expandable',
  drawing: 'Drawing',
  openapi_operation: 'OpenAPI operation',
};
