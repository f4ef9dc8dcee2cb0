/*
 * GitBook's dialect as data: which block may stand in which container, and how it is
 * written there. The reader keeps what this table allows, the normal form (fit.ts) turns
 * anything else into blocks the container holds, and the writer picks a block's form from
 * its container here. docs/decisions/markdown.md explains each row.
 *
 * Two kinds of placement:
 * - `schema`: GitBook's published JSONDocument lists the block in the container's `nodes`.
 * - `written`: GitBook's own editor and Git Sync export put the block there (a table in a
 *   tab, tabs in a step, code in a hint or a quote), but the published schema, which lags
 *   the editor, does not list it. Flattening those lost the table or the tabs on every read;
 *   they are kept as the block they are.
 */
import type { BlockType } from './types.ts';

export type Container = 'document' | 'list-item' | 'blockquote' | 'hint' | 'expandable-body' | 'tabs-item' | 'stepper-step' | 'update' | 'column';

export const CONTAINERS: readonly Container[] = ['document', 'list-item', 'blockquote', 'hint', 'expandable-body', 'tabs-item', 'stepper-step', 'update', 'column'];

export type Placement = 'schema' | 'written';

/**
 * How a block is written: `markdown` (CommonMark/GFM syntax), `tag` (`{% name %}` lines),
 * `html` (GitBook's HTML form), `figure` (an inline image written as GitBook's `<figure>`,
 * where no image block may stand), `verbatim` (the markup as read).
 */
export type Form = 'markdown' | 'tag' | 'html' | 'figure' | 'verbatim';

export interface BlockModel {
  /** How the block is written where it stands. */
  form: Form;
  /** The written syntax, for the documentation and the tests' reading. */
  syntax: string;
  /** Where it may stand. */
  containers: Partial<Record<Container, Placement>>;
  /** A different form in some containers. */
  formIn?: Partial<Record<Container, Form>>;
}

const ALL: Container[] = [...CONTAINERS];

function everywhere(except: Container[] = []): Partial<Record<Container, Placement>> {
  return Object.fromEntries(ALL.filter((c) => !except.includes(c)).map((c) => [c, 'schema' as const]));
}

function only(schema: Container[], written: Container[] = []): Partial<Record<Container, Placement>> {
  return { ...Object.fromEntries(schema.map((c) => [c, 'schema' as const])), ...Object.fromEntries(written.map((c) => [c, 'written' as const])) };
}

/** The containers below are read from the `nodes` schemas of JSONDocument, DocumentBlockListItem, DocumentBlockHint, ... */
export type ModelledBlock = Exclude<BlockType, 'list-item' | 'tabs-item' | 'stepper-step' | 'update' | 'column' | 'image' | 'code-line'>;

export const DIALECT: Record<ModelledBlock, BlockModel> = {
  paragraph: { form: 'markdown', syntax: 'text; `<p align="…">` when aligned', containers: everywhere() },
  'heading-1': { form: 'markdown', syntax: '`##` in page markdown (`#` in plain); `<h2 align>` when aligned', containers: everywhere() },
  'heading-2': { form: 'markdown', syntax: '`###`', containers: everywhere() },
  'heading-3': { form: 'markdown', syntax: '`####`', containers: everywhere() },
  divider: { form: 'markdown', syntax: '`***`', containers: everywhere() },
  'list-unordered': { form: 'markdown', syntax: '`* item`', containers: everywhere() },
  'list-ordered': { form: 'markdown', syntax: '`1. item`', containers: everywhere() },
  'list-tasks': { form: 'markdown', syntax: '`* [ ] item`', containers: everywhere() },
  blockquote: { form: 'markdown', syntax: '`> …`', containers: everywhere(['hint']) },
  code: {
    form: 'markdown',
    syntax: 'fenced code, in `{% code title=… %}` when it has options; `<pre><code>` when marked',
    containers: only(['document', 'list-item', 'expandable-body', 'tabs-item', 'stepper-step', 'update', 'column'], ['hint', 'blockquote']),
  },
  hint: { form: 'tag', syntax: '`{% hint style="info" %}`', containers: only(['document', 'list-item', 'expandable-body', 'tabs-item', 'stepper-step', 'update', 'column']) },
  math: { form: 'markdown', syntax: '`$$` lines', containers: only(['document', 'list-item', 'tabs-item', 'stepper-step', 'update', 'column'], ['expandable-body']) },
  images: {
    form: 'html',
    syntax: '`<figure><img><figcaption>`, `<div align>` around; `![alt](src)` for a bare one',
    containers: only(['document', 'expandable-body', 'tabs-item', 'stepper-step', 'update', 'column'], ['hint']),
    // No image block in a list item or a quote: an inline image whose caption is the figure's.
    formIn: { 'list-item': 'figure', blockquote: 'figure' },
  },
  drawing: { form: 'html', syntax: '`<img class="gitbook-drawing">`', containers: only(['document', 'tabs-item', 'stepper-step', 'update', 'column'], ['expandable-body', 'list-item', 'hint']) },
  file: { form: 'tag', syntax: '`{% file src %}caption{% endfile %}`', containers: only(['document', 'expandable-body', 'tabs-item', 'stepper-step', 'update', 'column']) },
  embed: { form: 'tag', syntax: '`{% embed url %}caption{% endembed %}`', containers: only(['document', 'hint', 'tabs-item', 'stepper-step', 'update', 'column'], ['expandable-body']) },
  'content-ref': { form: 'tag', syntax: '`{% content-ref url %}[…](…){% endcontent-ref %}`', containers: only(['document', 'tabs-item', 'stepper-step', 'update', 'column'], ['expandable-body']) },
  expandable: { form: 'html', syntax: '`<details><summary>`', containers: only(['document', 'stepper-step', 'update', 'column'], ['tabs-item']) },
  tabs: { form: 'tag', syntax: '`{% tabs %}{% tab title %}`', containers: only(['document', 'update'], ['stepper-step']) },
  stepper: { form: 'tag', syntax: '`{% stepper %}{% step %}`', containers: only(['document', 'column'], ['tabs-item']) },
  updates: { form: 'tag', syntax: '`{% updates %}{% update date %}`', containers: only(['document']) },
  columns: { form: 'tag', syntax: '`{% columns %}{% column width %}`', containers: only(['document']) },
  table: {
    form: 'markdown',
    syntax: 'GFM pipe table; GitBook\'s one-line `<table>` when GFM cannot hold it',
    containers: only(['document', 'list-item', 'hint', 'expandable-body', 'column'], ['tabs-item', 'stepper-step', 'update']),
  },
  'openapi-operation': { form: 'tag', syntax: '`{% openapi-operation spec path method %}`', containers: only(['document']) },
  integration: {
    form: 'verbatim',
    syntax: 'the HTML or `{% tag %}` as read (Quire\'s verbatim markup); `{% @integration/block %}`',
    // In a list item or a quote too: hand-written pages put HTML and unknown tags there, and as text they showed their markup.
    containers: only(['document', 'hint', 'expandable-body', 'tabs-item', 'stepper-step', 'update', 'column'], ['list-item', 'blockquote']),
  },
};

/** GitBook's other top-level blocks, which this library reads from JSON but has no markdown for. */
const TOP_LEVEL_ONLY = ['openapi-schemas', 'openapi-webhook'] as unknown as BlockType[];

/** Whether `type` may stand in `container` (schema or written). */
export function allows(container: Container, type: BlockType): boolean {
  if (container === 'document' && TOP_LEVEL_ONLY.includes(type)) return true;
  return DIALECT[type as ModelledBlock]?.containers[container] !== undefined;
}

/** Whether `type` in `container` goes beyond GitBook's published schema. */
export function beyondSchema(container: Container, type: BlockType): boolean {
  return DIALECT[type as ModelledBlock]?.containers[container] === 'written';
}

/** How `type` is written in `container`. */
export function formIn(container: Container, type: ModelledBlock): Form {
  return DIALECT[type].formIn?.[container] ?? DIALECT[type].form;
}

/**
 * Inline kinds and marks: every one may stand wherever inline content does (paragraphs,
 * headings, table cells, captions, summaries), except inside a link, which holds text and
 * inline images only (other inlines become their text there).
 */
export const INLINE_DIALECT = {
  text: 'text, escaped as GitBook escapes',
  link: '`[text](href)`',
  mention: '`[title](page.md "mention")`',
  button: '`<a href class="button primary" data-icon>`; read also `<button class="button …">` lines (verbatim)',
  'inline-image': '`![alt](src)`; `<img src alt data-size>` when sized or alone',
  'inline-math': '`$$formula$$` inside text',
  expression: '`<code class="expression">`',
  icon: '`<i class="fa-name">:name:</i>`',
  emoji: 'the character',
} as const;

export const MARK_DIALECT = {
  bold: '`**x**`, `<strong>` where flanking fails',
  italic: '`_x_`, `*x*` inside words, `<em>`',
  strikethrough: '`~~x~~`, `<s>`',
  code: '`` `x` ``',
  keyboard: '`<kbd>`',
  superscript: '`<sup>`',
  subscript: '`<sub>`',
  color: '`<mark style="color:…;background-color:…;">`',
} as const;
