/*
 * TypeScript shapes of the GitBook document JSON nodes this library reads and writes.
 * They follow `components.schemas.JSONDocument` and the `DocumentBlock*`, `DocumentInline*`,
 * `DocumentText*` and `DocumentMark*` schemas of GitBook's OpenAPI document, restricted to
 * the nodes that have a markdown form here.
 */

export type * from './inline-types.ts';
import type { ContentRef, ContentRefFile, ContentRefOpenAPI, ContentRefTag, ImageRef, Inline, InlineContent, InlineExpression, Text } from './inline-types.ts';

export type TextAlignment = 'start' | 'center' | 'end';

export interface ParagraphBlock {
  object: 'block';
  type: 'paragraph';
  key?: string;
  isVoid?: false;
  data: { align?: TextAlignment };
  nodes: InlineContent[];
}

export interface HeadingBlock {
  object: 'block';
  type: 'heading-1' | 'heading-2' | 'heading-3';
  key?: string;
  isVoid?: false;
  data: { id?: string; align?: TextAlignment };
  nodes: InlineContent[];
}

export interface DividerBlock {
  object: 'block';
  type: 'divider';
  key?: string;
  isVoid: true;
  data: Record<string, never>;
}

export interface ListItemBlock {
  object: 'block';
  type: 'list-item';
  key?: string;
  isVoid?: false;
  /**
   * `indent` (Quire's, in the schema's open `data`): the column of the item's content when
   * it was written wider than `marker + 1` (GitBook's older `*   item` / `1.  Step`).
   */
  data: { checked?: boolean; indent?: number };
  nodes: Block[];
}

export interface ListOrderedBlock {
  object: 'block';
  type: 'list-ordered';
  key?: string;
  isVoid?: false;
  data: { start?: number };
  nodes: ListItemBlock[];
}

export interface ListUnorderedBlock {
  object: 'block';
  type: 'list-unordered';
  key?: string;
  isVoid?: false;
  data: Record<string, never>;
  nodes: ListItemBlock[];
}

export interface ListTasksBlock {
  object: 'block';
  type: 'list-tasks';
  key?: string;
  isVoid?: false;
  data: Record<string, never>;
  nodes: ListItemBlock[];
}

export type ListBlock = ListOrderedBlock | ListUnorderedBlock | ListTasksBlock;

export interface CodeLineBlock {
  object: 'block';
  type: 'code-line';
  key?: string;
  isVoid?: false;
  data: { highlighted?: boolean };
  nodes: Array<Text | InlineExpression>;
}

export interface CodeBlock {
  object: 'block';
  type: 'code';
  key?: string;
  isVoid?: false;
  data: {
    syntax?: string;
    title?: string;
    overflow?: 'scroll' | 'wrap';
    lineNumbers?: boolean;
    fullWidth?: boolean;
    expandable?: boolean;
  };
  nodes: CodeLineBlock[];
}

export interface QuoteBlock {
  object: 'block';
  type: 'blockquote';
  key?: string;
  isVoid?: false;
  data: Record<string, never>;
  nodes: Block[];
}

export type HintStyle = 'info' | 'success' | 'warning' | 'danger';
/** GitBook's hint styles (another style reads as `info`). */
export const HINT_STYLES: ReadonlySet<string> = new Set<HintStyle>(['info', 'success', 'warning', 'danger']);

export interface HintBlock {
  object: 'block';
  type: 'hint';
  key?: string;
  isVoid?: false;
  data: { style: HintStyle; icon?: string };
  nodes: Block[];
}

export interface MathBlock {
  object: 'block';
  type: 'math';
  key?: string;
  isVoid: true;
  data: { formula: string };
}

export interface EmbedBlock {
  object: 'block';
  type: 'embed';
  key?: string;
  isVoid: true;
  /** `written` (Quire's, in the schema's open `data`): the `url` attribute as GitBook's older export wrote it, escapes and all. */
  data: { url: string; fullWidth?: boolean; written?: string };
  /** The text between `{% embed %}` and `{% endembed %}`, shown under the embed (Quire's, as a file block's caption; GitBook's schema lists no fragments here and ignores them). */
  fragments?: Array<Fragment<'caption', ParagraphBlock>>;
}

/**
 * Markup kept verbatim: HTML that has no GitBook block (`html`) or a `{% tag %}` this library
 * does not know (`liquid`). Stored as a GitBook integration block of Quire's own so the
 * document stays valid `JSONDocument`; written back byte for byte. The markup travels in
 * `data.url` as a `data:` URL (GitBook's "URL of the content the block represents"): its
 * `props` schema (PlainObject) accepts no string value at all.
 */
export interface MarkupBlock {
  object: 'block';
  type: 'integration';
  key?: string;
  isVoid: true;
  data: { integration: 'quire'; block: 'html' | 'liquid'; props: Record<string, never>; url: string };
}

const MARKUP_URL = 'data:text/plain;charset=utf-8,';

/** A verbatim markup block. */
export function markupBlock(flavor: 'html' | 'liquid', markup: string): MarkupBlock {
  return { object: 'block', type: 'integration', isVoid: true, data: { integration: 'quire', block: flavor, props: {}, url: MARKUP_URL + encodeURIComponent(markup) } };
}

/** The markup of a verbatim markup block; null for any other integration block. */
export function markupOf(block: { data: { integration?: string; url?: string } }): string | null {
  const { integration, url } = block.data;
  if (integration !== 'quire' || !url?.startsWith(MARKUP_URL)) return null;
  try {
    return decodeURIComponent(url.slice(MARKUP_URL.length));
  } catch {
    return null;
  }
}

/**
 * A file. GitBook's markdown writes a caption between `{% file %}` and `{% endfile %}`; it is
 * kept as a caption fragment, as images hold theirs (the schema's file block is open beyond
 * its listed properties).
 */
export interface FileBlock {
  object: 'block';
  type: 'file';
  key?: string;
  isVoid: true;
  data: { ref: ContentRefFile };
  fragments?: Array<Fragment<'caption', ParagraphBlock>>;
}

/** GitBook's drawing block, written `<img src="…" alt="" class="gitbook-drawing">`. */
export interface DrawingBlock {
  object: 'block';
  type: 'drawing';
  key?: string;
  isVoid: true;
  data: { ref: ContentRefFile };
}

export interface ContentRefBlock {
  object: 'block';
  type: 'content-ref';
  key?: string;
  isVoid: true;
  /** `text` (Quire's, in the schema's open `data`): the link's text when it is not the target's file name GitBook writes. */
  data: { ref: ContentRef; text?: string };
}

export interface Fragment<Name extends string, Node> {
  object: 'fragment';
  key?: string;
  fragment: Name;
  type?: string;
  nodes: Node[];
}

export interface ImageBlock {
  object: 'block';
  type: 'image';
  key?: string;
  isVoid: true;
  data: { ref: ImageRef; refDark?: ImageRef; alt?: string; width?: number; src?: string };
  fragments: Array<Fragment<'caption', ParagraphBlock>>;
}

export interface ImagesBlock {
  object: 'block';
  type: 'images';
  key?: string;
  isVoid: false;
  data: { align?: 'center' | 'left' | 'right'; fullWidth?: boolean; withFrame?: boolean };
  nodes: ImageBlock[];
}

export interface ExpandableBlock {
  object: 'block';
  type: 'expandable';
  key?: string;
  isVoid: true;
  data: { defaultExpanded?: boolean };
  fragments: [
    Fragment<'expandable-title', ParagraphBlock> & { type: 'expandable-title' },
    Fragment<'expandable-body', Block> & { type: 'expandable-body' },
  ];
}

export interface TabsItemBlock {
  object: 'block';
  type: 'tabs-item';
  key?: string;
  isVoid?: false;
  data: { title?: string; icon?: string };
  nodes: Block[];
}

export interface TabsBlock {
  object: 'block';
  type: 'tabs';
  key?: string;
  isVoid?: false;
  data: Record<string, never>;
  nodes: TabsItemBlock[];
}

export interface StepperStepBlock {
  object: 'block';
  type: 'stepper-step';
  key?: string;
  isVoid?: false;
  data: Record<string, never>;
  nodes: Block[];
}

/** One entry of a changelog: `{% update date="2025-01-02" %}`. */
export interface UpdateBlock {
  object: 'block';
  type: 'update';
  key?: string;
  isVoid?: false;
  /** `date` is a date-time (GitBook's Timestamp); a plain date is read as midnight UTC. `tags`: `{% update tags="a,b" %}`. */
  data: { date: string; tags?: ContentRefTag[] };
  nodes: Block[];
}

/** A changelog, `{% updates format="full" %}`: GitBook's updates block. */
export interface UpdatesBlock {
  object: 'block';
  type: 'updates';
  key?: string;
  isVoid?: false;
  /** `format` as written in the tag (GitBook's updates block data is an open object). */
  data: { format?: string };
  nodes: UpdateBlock[];
}

export interface ColumnBlock {
  object: 'block';
  type: 'column';
  key?: string;
  isVoid?: false;
  /** `width` as written (`{% column width="50%" %}`), as GitBook's Length. */
  data: { width?: number | { value: number; unit: string } };
  nodes: Block[];
}

export interface ColumnsBlock {
  object: 'block';
  type: 'columns';
  key?: string;
  isVoid: false;
  data: { fullWidth?: boolean };
  nodes: ColumnBlock[];
}

export interface StepperBlock {
  object: 'block';
  type: 'stepper';
  key?: string;
  isVoid?: false;
  data: Record<string, never>;
  nodes: StepperStepBlock[];
}

export interface OpenAPIOperationBlock {
  object: 'block';
  type: 'openapi-operation';
  key?: string;
  isVoid: true;
  /** `fallback`: the link GitBook's export writes inside the tag, as written (Quire's; GitBook ignores it). */
  data: { ref: ContentRefOpenAPI; path: string; method: string; fallback?: string };
}

export interface TableTextDefinition {
  id: string;
  title: string;
  type: 'text';
  textAlignment: 'left' | 'center' | 'right';
}

/** A column whose cells link to a page, a file or a URL (GitBook's card targets). */
export interface TableContentRefDefinition {
  id: string;
  title: string;
  type: 'content-ref';
}

/** A column of uploaded files, by id (GitBook's card cover image, `data-card-cover data-type="files"`). */
export interface TableFilesDefinition {
  id: string;
  title: string;
  type: 'files';
}

export type TableDefinition = TableTextDefinition | TableContentRefDefinition | TableFilesDefinition;

export interface TableRecord {
  orderIndex: string;
  /**
   * A text cell names its fragment; a content-ref cell holds the reference (or null when empty);
   * a files cell the file ids (references only while paths are read or written, html-table.ts).
   */
  values: Record<string, string | ContentRef | null | Array<string | ContentRef>>;
}

export interface TableGridView {
  type: 'grid';
  columns: string[];
  hideHeader: boolean;
  /** Width of each column, as written in `<th width="…">`. */
  columnWidths?: Record<string, number>;
}

export interface TableCardsView {
  type: 'cards';
  /** The visible columns; the others (`data-hidden`) hold the target link. */
  columns: string[];
  cardSize: 'medium' | 'large';
  targetDefinition?: string;
  /** The files column whose file is the card's cover image. */
  coverDefinition?: string;
}

export interface TableBlock {
  object: 'block';
  type: 'table';
  key?: string;
  isVoid: true;
  data: {
    view: TableGridView | TableCardsView;
    records: Record<string, TableRecord>;
    definition: Record<string, TableDefinition>;
    fullWidth?: boolean;
    /**
     * The form GitBook wrote the table in where another would do (Quire's, in the open `data`):
     * `gfm`, a pipe table with cells of several `<p>` paragraphs (GitBook's 2021 export);
     * `html`, GitBook's one-line HTML table for a table a pipe table could hold.
     */
    written?: 'gfm' | 'html';
  };
  /** One fragment per text cell; GitBook-written HTML cells may hold several paragraphs. */
  fragments: Array<Fragment<string, ParagraphBlock>>;
}

/** Every block this library reads from or writes to markdown. */
export type Block =
  | ParagraphBlock
  | HeadingBlock
  | DividerBlock
  | ListOrderedBlock
  | ListUnorderedBlock
  | ListTasksBlock
  | ListItemBlock
  | CodeBlock
  | CodeLineBlock
  | QuoteBlock
  | HintBlock
  | MathBlock
  | EmbedBlock
  | FileBlock
  | DrawingBlock
  | ContentRefBlock
  | ImagesBlock
  | ImageBlock
  | ExpandableBlock
  | TabsBlock
  | TabsItemBlock
  | StepperBlock
  | StepperStepBlock
  | UpdatesBlock
  | UpdateBlock
  | ColumnsBlock
  | ColumnBlock
  | OpenAPIOperationBlock
  | MarkupBlock
  | TableBlock;

export type BlockType = Block['type'];

/**
 * The markdown a page was read with for a run of `nodes` top-level blocks, kept where it
 * differs from the canonical writing; `blocks` is the run's fingerprint (written-form.ts).
 */
export interface WrittenForm {
  nodes: number;
  blocks: string;
  markdown: string;
}

/**
 * The separator a page wrote between two top-level blocks where it differs from the
 * canonical one (a heading with its paragraph on the next line, two blank lines for one):
 * `nodes` blocks from the one before it to the one after it (empty paragraphs between
 * included), `blocks` their fingerprint, `separator` the newlines between their texts.
 */
export interface WrittenSeparator {
  nodes: number;
  blocks: string;
  separator: string;
}

/** A page's `# Title` line as written, and the newlines between it and the body (page.ts). */
export interface WrittenTitle {
  line: string;
  separator: string;
}

/** GitBook's `JSONDocument`: what a page's content is. */
export interface Document {
  object: 'document';
  /**
   * `escapeParentheses` (Quire's; JSONDocument's data is open): the page was written by
   * GitBook's older export, which escaped every parenthesis of text (`\(24 hours\)`).
   * `writtenForms` (Quire's): runs of top-level blocks and the markdown the page wrote them
   * in, where that differs from the canonical writing (written-form.ts); `writtenSeparators`
   * (Quire's) the separators between top-level blocks it wrote differently; `writtenTitle`
   * (Quire's) the page's `# Title` line and the blank lines under it, where they differ;
   * `boundHrefs` (Quire's) the relative hrefs reading bound to page and file references, as
   * written, in order (bound-hrefs.ts); `lineEnding` (Quire's) `'crlf'` for a page written
   * with CR LF line endings throughout, written back so (page.ts).
   */
  data: { escapeParentheses?: true; writtenForms?: WrittenForm[]; writtenSeparators?: WrittenSeparator[]; writtenTitle?: WrittenTitle; boundHrefs?: string[]; lineEnding?: 'crlf' };
  nodes: Block[];
}

/** Any node of a document, for walkers. */
export type DocumentNode = Block | Inline | Text;
