import { curlExample, namedSchema, operationView, schemaNames, webhookView, type OperationView, type SchemaNode, type SpecModel } from '../openapi/view.ts';
import type {
  Block,
  CodeBlock,
  Document,
  HintStyle,
  ImageBlock,
  ListBlock,
  ParagraphBlock,
  TableBlock,
  TableRecord,
} from '../markdown/types.ts';
import { hrefFromRef } from '../markdown/refs.ts';
import { imageDescription } from '../markdown/images.ts';
import { destination, FONT, fontOf, inlineRuns, merge, plainText, preserveIndent, refRuns, safeUrl, winAnsi, type Run } from './text.ts';

/*
 * GitBook document JSON to PDF, on pdfkit (docs/decisions/pdf.md). pdfkit draws text,
 * vector shapes, images, tables, links and outlines, and embeds the 14 standard fonts;
 * it knows nothing of documents, so the layout is written here: one PDF page per content
 * page, the title as a heading, then each block in order with the left edge and width
 * of its container (lists, quotes and hints indent their children; boxes are drawn once
 * their content is placed, on every PDF page the content ran over). Marks become fonts
 * (bold, italic, monospace), underlines (links) and strike-through; what a printed page
 * cannot show (embeds, icons, emoji, expandables closed) is printed as text or left out.
 *
 * The standard fonts cover WinAnsi (Latin-1 and typographic punctuation) only: other
 * characters are transliterated where Unicode decomposition allows, else printed `?`.
 */

/** One content page of the PDF, in the order printed. */
export interface PdfPage {
  id: string;
  title: string;
  description?: string;
  /** 0 for top-level pages; the outline nests by depth. */
  depth: number;
  /** Groups print their title only, and the next page follows on the same PDF page. */
  kind: 'document' | 'group';
  document?: Document;
}

export interface PdfInput {
  /** The PDF's title (document information). */
  title: string;
  pages: PdfPage[];
  /** A file's name, for file blocks. */
  fileName(fileId: string): string | undefined;
  /** A file's PNG or JPEG bytes, or undefined (missing, or another format: the image is skipped). */
  image(fileId: string): Buffer | undefined;
  /** Creation date written into the PDF (the app clock). */
  createdAt: Date;
  /** The latest version of an OpenAPI spec by slug, for OpenAPI blocks (absent: printed as a line). */
  openapi?(spec: string): SpecModel | null;
}

const MARGIN = 56;
const BODY = 10.5;
const SMALL = 9;
const TEXT = '#111827';
const MUTED = '#6b7280';
const LINK = '#1d4ed8';
const RULE = '#d1d5db';
const CODE_BG = '#f3f4f6';
const HINT_COLOR: Record<HintStyle, string> = { info: '#2563eb', success: '#16a34a', warning: '#d97706', danger: '#dc2626' };
const HEADING_SIZE = { 'heading-1': 17, 'heading-2': 14, 'heading-3': 12 } as const;

/** pdfkit's text options, with the two its type declarations leave out. */
type TextOptions = PDFKit.Mixins.TextOptions & { goTo?: string; destination?: string };

/** Where blocks go: the left edge and width of the current container. */
interface Frame {
  x: number;
  width: number;
  /** Space after a paragraph: tighter inside lists. */
  gap: number;
}

export async function renderPdf(input: PdfInput): Promise<Buffer> {
  // Loaded on first use: the server starts without paying for pdfkit (~150 ms).
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    autoFirstPage: true,
    displayTitle: true,
    info: { Title: winAnsi(input.title), Creator: 'Quire', CreationDate: input.createdAt, ModDate: input.createdAt },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const renderer = new Renderer(doc, input);
  await renderer.pages();
  renderer.pageNumbers();
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

class Renderer {
  private readonly inPdf: Set<string>;
  private readonly images = new Map<string, unknown>();

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly input: PdfInput,
  ) {
    this.inPdf = new Set(input.pages.map((p) => p.id));
  }

  private get top() {
    return this.doc.page.margins.top;
  }
  private get bottom() {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }
  private get fullWidth() {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }

  async pages(): Promise<void> {
    const { doc } = this;
    const frame: Frame = { x: doc.page.margins.left, width: this.fullWidth, gap: 7 };
    if (this.input.pages.length === 0) {
      this.runs([{ text: this.input.title, bold: true }], frame, { size: 22 });
      this.runs([{ text: 'No pages.', italic: true }], frame, { color: MUTED });
      return;
    }
    const outline: PDFKit.PDFOutline[] = [doc.outline];
    let fresh = true;
    for (const page of this.input.pages) {
      if (!fresh) doc.addPage();
      doc.addNamedDestination(destination(page.id));
      outline.length = Math.min(outline.length, page.depth + 1);
      const parent = outline[outline.length - 1];
      outline.push(parent.addItem(winAnsi(page.title) || 'Untitled', { expanded: true }));

      this.runs([{ text: page.title || 'Untitled', bold: true }], frame, { size: page.kind === 'group' ? 24 : 22, after: 4 });
      if (page.description) this.runs([{ text: page.description }], frame, { color: MUTED, size: 12, after: 4 });
      this.rule(frame, 6);
      if (page.document) this.blocks(page.document.nodes, frame);
      fresh = page.kind === 'group';
      // Long exports must not hold the event loop for their whole length.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** `n / total` at the foot of every page. */
  pageNumbers(): void {
    const { doc } = this;
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      const margin = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc.font(FONT.regular).fontSize(8).fillColor(MUTED);
      doc.text(`${i + 1} / ${range.count}`, doc.page.margins.left, doc.page.height - margin / 2 - 4, {
        width: this.fullWidth,
        align: 'center',
        lineBreak: false,
      });
      doc.page.margins.bottom = margin;
    }
  }

  // -------------------------------------------------------------------------------------
  // Blocks

  private blocks(nodes: Block[], frame: Frame): void {
    for (const block of nodes) this.block(block, frame);
  }

  private block(block: Block, frame: Frame): void {
    switch (block.type) {
      case 'paragraph':
        this.runs(inlineRuns(block.nodes, this.inPdf), frame, { align: alignOf(block.data.align), after: frame.gap });
        return;
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        const size = HEADING_SIZE[block.type];
        this.keepWithNext(size * 3);
        this.doc.y += size * 0.5;
        const runs = inlineRuns(block.nodes, this.inPdf).map((r) => ({ ...r, bold: true }));
        this.runs(runs, frame, { size, align: alignOf(block.data.align), after: 4 });
        return;
      }
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks':
        this.list(block, frame, 0);
        this.doc.y += frame.gap - 2;
        return;
      case 'list-item':
      case 'tabs-item':
      case 'stepper-step':
        this.blocks(block.nodes, frame);
        return;
      case 'code':
        this.code(block, frame);
        return;
      case 'code-line':
        this.runs([{ text: plainText(block.nodes), mono: true }], frame, { size: SMALL });
        return;
      case 'blockquote':
        this.boxed(frame, { bar: RULE, indent: 14, padding: 2 }, (inner) => this.blocks(block.nodes, inner));
        this.doc.y += frame.gap;
        return;
      case 'hint':
        this.boxed(frame, { border: HINT_COLOR[block.data.style] ?? HINT_COLOR.info, indent: 10, padding: 8 }, (inner) =>
          this.blocks(block.nodes, { ...inner, gap: 4 }),
        );
        this.doc.y += frame.gap;
        return;
      case 'divider':
        this.keepWithNext(12);
        this.doc.y += 4;
        this.rule(frame, 8);
        return;
      case 'math':
        this.runs([{ text: block.data.formula, mono: true }], frame, { size: SMALL, after: frame.gap });
        return;
      case 'embed':
        this.runs([{ text: block.data.url, link: safeUrl(block.data.url) }], frame, { after: frame.gap });
        return;
      case 'file': {
        const name = this.input.fileName(block.data.ref.file);
        if (name) this.runs([{ text: 'File: ', bold: true }, { text: name }], frame, { after: frame.gap });
        return;
      }
      case 'content-ref': {
        const runs = refRuns(block.data.ref, this.input.pages, this.inPdf);
        if (runs.length > 0) this.runs(runs, frame, { after: frame.gap });
        return;
      }
      case 'images':
        for (const image of block.nodes) this.image(image, frame);
        return;
      case 'image':
        this.image(block, frame);
        return;
      case 'expandable': {
        const [title, body] = block.fragments;
        if (title) this.runs(title.nodes.flatMap((p) => inlineRuns(p.nodes, this.inPdf)).map((r) => ({ ...r, bold: true })), frame, { after: 3 });
        if (body) this.boxed(frame, { bar: RULE, indent: 12, padding: 0 }, (inner) => this.blocks(body.nodes, inner));
        this.doc.y += frame.gap;
        return;
      }
      case 'tabs':
        for (const tab of block.nodes) {
          if (tab.data.title) this.runs([{ text: tab.data.title, bold: true }], frame, { after: 3 });
          this.boxed(frame, { bar: RULE, indent: 12, padding: 0 }, (inner) => this.blocks(tab.nodes, inner));
          this.doc.y += frame.gap;
        }
        return;
      case 'updates':
        for (const update of block.nodes) {
          this.runs([{ text: update.data.date.slice(0, 10), bold: true }], frame, { after: 3 });
          this.blocks(update.nodes, frame);
        }
        return;
      case 'columns':
        for (const column of block.nodes) this.blocks(column.nodes, frame);
        return;
      case 'stepper':
        block.nodes.forEach((step, i) => this.item(`${i + 1}.`, undefined, step.nodes, frame, 0));
        this.doc.y += frame.gap - 2;
        return;
      case 'openapi-operation': {
        const model = this.input.openapi?.(block.data.ref?.spec ?? '') ?? null;
        const op = model ? operationView(model, block.data.path, block.data.method) : null;
        if (op) this.operation(op, frame);
        else this.runs([{ text: `${block.data.method.toUpperCase()} ${block.data.path}`, mono: true, bold: true }], frame, { size: SMALL, after: frame.gap });
        return;
      }
      case 'table':
        this.table(block, frame);
        return;
      default:
        this.otherOpenAPI(block as unknown as { type: string; data?: { ref?: { spec?: string }; schemas?: string[]; name?: string; method?: string } }, frame);
    }
  }

  /** GitBook's openapi-schemas (each schema's fields) and openapi-webhook blocks. */
  private otherOpenAPI(block: { type: string; data?: { ref?: { spec?: string }; schemas?: string[]; name?: string; method?: string } }, frame: Frame): void {
    const spec = block.data?.ref?.spec ?? '';
    const model = block.type.startsWith('openapi-') ? (this.input.openapi?.(spec) ?? null) : null;
    if (!model) return;
    if (block.type === 'openapi-webhook') {
      const op = webhookView(model, block.data?.name ?? '', block.data?.method ?? 'post');
      if (op) this.operation({ ...op, server: '' }, frame);
      return;
    }
    if (block.type !== 'openapi-schemas') return;
    const names = block.data?.schemas?.length ? block.data.schemas : schemaNames(model);
    for (const name of names) {
      const node = namedSchema(model, name);
      if (!node) continue;
      this.runs([{ text: name, mono: true, bold: true }, { text: ` (${node.type})${node.description ? ` ${node.description}` : ''}` }], frame, { size: SMALL, after: 2 });
      const target = node.items && !node.properties ? node.items : node;
      for (const p of target.properties ?? []) {
        this.runs([{ text: `  ${p.name ?? ''}`, mono: true }, { text: ` (${[p.type, p.required ? 'required' : ''].filter(Boolean).join(', ')})${p.description ? ` ${p.description}` : ''}` }], frame, { size: SMALL, after: 1 });
      }
      this.doc.y += frame.gap / 2;
    }
  }

  /** An OpenAPI operation: what the published page shows, as text (same view model). */
  private operation(op: OperationView, frame: Frame): void {
    const line = (runs: Run[], size = SMALL, after = 2) => this.runs(runs, frame, { size, after });
    line([{ text: `${op.method.toUpperCase()} ${op.path}`, mono: true, bold: true }], BODY, 3);
    if (op.server) line([{ text: 'Server: ' }, { text: op.server, mono: true }]);
    if (op.summary) line([{ text: op.summary, bold: true }], BODY);
    if (op.description) line([{ text: op.description }]);
    if (op.deprecated) line([{ text: 'Deprecated', bold: true }]);
    for (const s of op.security) line([{ text: 'Authorization: ', bold: true }, { text: `${s.name} (${s.type})` }]);
    const field = (node: SchemaNode, depth: number) => {
      const flags = [node.type, node.required ? 'required' : '', node.enum ? `one of ${node.enum.map((v) => JSON.stringify(v)).join(', ')}` : '', node.default !== undefined ? `default ${JSON.stringify(node.default)}` : '']
        .filter(Boolean)
        .join(', ');
      line([{ text: `${'  '.repeat(depth)}${node.name ?? ''}`, mono: true, bold: true }, { text: ` (${flags})${node.description ? ` ${node.description}` : ''}` }]);
      const target = node.items && !node.properties ? node.items : node;
      if (depth < 4) for (const child of target.properties ?? []) field(child, depth + 1);
      if (depth < 4 && target.alternatives) target.alternatives.options.forEach((o, i) => { line([{ text: `${'  '.repeat(depth + 1)}${target.alternatives!.kind === 'oneOf' ? 'One of' : 'Any of'} #${i + 1}: ${o.title ?? o.refName ?? o.type}`, italic: true }]); for (const c of o.properties ?? []) field(c, depth + 2); });
    };
    for (const where of ['path', 'query', 'header', 'cookie'] as const) {
      const params = op.parameters.filter((p) => p.in === where);
      if (params.length === 0) continue;
      line([{ text: `${where[0]!.toUpperCase()}${where.slice(1)} parameters`, bold: true }], SMALL, 2);
      for (const p of params) field({ ...p.schema, name: p.name, required: p.required, description: p.description ?? p.schema.description }, 1);
    }
    if (op.body) {
      line([{ text: `Body (${op.body.contentType})`, bold: true }]);
      const target = op.body.schema.items && !op.body.schema.properties ? op.body.schema.items : op.body.schema;
      if (target.properties) for (const child of target.properties) field(child, 1);
      else field({ ...op.body.schema, name: 'body' }, 1);
    }
    if (op.responses.length) {
      line([{ text: 'Responses', bold: true }]);
      for (const r of op.responses) line([{ text: `  ${r.status}`, mono: true, bold: true }, { text: ` ${r.description}` }]);
    }
    this.code({ object: 'block', type: 'code', data: { title: 'Example request (curl)' }, nodes: curlExample(op).split('\n').map((text) => ({ object: 'block', type: 'code-line', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] })) } as unknown as CodeBlock, frame);
    this.doc.y += frame.gap;
  }

  /** A list: a marker in the gutter, the item's blocks beside it; nested lists indent further. */
  private list(block: ListBlock, frame: Frame, depth: number): void {
    const start = block.type === 'list-ordered' ? (block.data.start ?? 1) : 1;
    block.nodes.forEach((item, i) => {
      const marker =
        block.type === 'list-ordered' ? `${start + i}.` : block.type === 'list-unordered' ? (['•', '–', '·'][depth % 3] as string) : '';
      const checked = block.type === 'list-tasks' ? item.data.checked === true : undefined;
      this.item(marker, checked, item.nodes, frame, depth);
    });
  }

  private item(marker: string, checked: boolean | undefined, nodes: Block[], frame: Frame, depth: number): void {
    const { doc } = this;
    const indent = 18;
    this.keepWithNext(BODY * 1.4);
    const y = doc.y;
    if (checked === undefined) {
      doc.font(FONT.regular).fontSize(BODY).fillColor(TEXT);
      doc.text(marker, frame.x, y, { width: indent - 3, lineBreak: false });
    } else {
      const box = 7.5;
      const top = y + 1.5;
      doc.save().lineWidth(0.8).strokeColor(MUTED).rect(frame.x + 1, top, box, box).stroke();
      if (checked) {
        doc
          .moveTo(frame.x + 2.5, top + box / 2)
          .lineTo(frame.x + 1 + box * 0.42, top + box - 1.5)
          .lineTo(frame.x + box - 0.5, top + 1.5)
          .stroke();
      }
      doc.restore();
    }
    doc.y = y;
    const inner: Frame = { x: frame.x + indent, width: frame.width - indent, gap: 2 };
    for (const child of nodes) {
      if (child.type === 'list-ordered' || child.type === 'list-unordered' || child.type === 'list-tasks') this.list(child, inner, depth + 1);
      else this.block(child, inner);
    }
    if (doc.y <= y) doc.y = y + doc.currentLineHeight(true);
    doc.y += 1.5;
  }

  /** A code block: monospace lines on a grey band, wrapped to the width, breaking across pages line by line. */
  private code(block: CodeBlock, frame: Frame): void {
    const { doc } = this;
    const pad = 6;
    if (block.data.title) this.runs([{ text: block.data.title, bold: true }], frame, { size: SMALL, after: 2 });
    doc.font(FONT.mono).fontSize(SMALL);
    const width = frame.width - 2 * pad;
    const lines = block.nodes.map((line) => preserveIndent(plainText(line.nodes)));
    this.keepWithNext(Math.min(60, lines.length * 12 + 2 * pad));
    const band = (from: number, height: number) => doc.save().rect(frame.x, from, frame.width, height).fill(CODE_BG).restore();
    band(doc.y, pad);
    doc.y += pad;
    for (const line of lines) {
      const text = winAnsi(line) || ' ';
      doc.font(FONT.mono).fontSize(SMALL);
      const height = doc.heightOfString(text, { width });
      if (doc.y + height > this.bottom && doc.y > this.top) {
        doc.addPage();
      }
      band(doc.y, Math.min(height, this.bottom - doc.y));
      doc.fillColor(TEXT).text(text, frame.x + pad, doc.y, { width });
    }
    band(doc.y, pad);
    doc.y += pad + frame.gap;
    doc.x = frame.x;
  }

  /** A table: pdfkit's grid, header row in bold on grey, cells as plain text. */
  private table(block: TableBlock, frame: Frame): void {
    const { doc } = this;
    const { view, records, definition } = block.data;
    const columns = view.columns.filter((id) => definition[id]);
    if (columns.length === 0) return;
    const fragments = new Map(block.fragments.map((f) => [f.fragment, f.nodes] as const));
    const cell = (value: TableRecord['values'][string] | undefined) =>
      winAnsi(
        Array.isArray(value) ? '' : value && typeof value === 'object' ? hrefFromRef(value) : (typeof value === 'string' ? (fragments.get(value) ?? []) : [])
          .map((p: ParagraphBlock) => plainText(p.nodes))
          .join('\n'),
      );
    const align = (id: string): 'left' | 'center' | 'right' => {
      const d = definition[id];
      const a = d.type === 'text' ? d.textAlignment : 'left';
      return a === 'center' ? 'center' : a === 'right' ? 'right' : 'left';
    };
    const rows = Object.values(records)
      .sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0))
      .map((r) => columns.map((id): PDFKit.Mixins.CellOptions => ({ text: cell(r.values[id]), align: { x: align(id), y: 'top' } })));
    const header: PDFKit.Mixins.CellOptions[][] = view.type === 'grid' && view.hideHeader
      ? []
      : [columns.map((id) => ({ text: winAnsi(definition[id].title), type: 'TH' as const, font: { src: FONT.bold }, backgroundColor: CODE_BG }))];
    this.keepWithNext(40);
    doc.font(FONT.regular).fontSize(SMALL).fillColor(TEXT);
    doc.table({
      position: { x: frame.x, y: doc.y },
      maxWidth: frame.width,
      columnStyles: columns.map(() => '*'),
      defaultStyle: { border: 0.6, borderColor: RULE, padding: 4 },
      data: [...header, ...rows],
    });
    doc.x = frame.x;
    doc.y += frame.gap + 2;
  }

  /** An image of the revision (PNG or JPEG), scaled to the width and at most 60% of a page high, with its caption. */
  private image(block: ImageBlock, frame: Frame): void {
    const { doc } = this;
    const caption = block.fragments.find((f) => f.fragment === 'caption');
    const ref = block.data.ref;
    const opened = ref.kind === 'file' ? this.openImage(ref.file) : undefined;
    if (opened) {
      // 96 px to the inch; the document's width (pixels) when given.
      let width = (block.data.width ?? opened.width) * 0.75;
      let height = width * (opened.height / opened.width);
      const maxHeight = (this.bottom - this.top) * 0.6;
      const scale = Math.min(1, frame.width / width, maxHeight / height);
      width *= scale;
      height *= scale;
      if (doc.y + height > this.bottom) doc.addPage();
      doc.image(opened as never, frame.x + (frame.width - width) / 2, doc.y, { width, height });
      doc.y += height + 4;
    }
    if (caption) {
      const runs = caption.nodes.flatMap((p) => inlineRuns(p.nodes, this.inPdf)).map((r) => ({ ...r, italic: true }));
      this.runs(runs, frame, { size: SMALL, color: MUTED, align: 'center' });
    } else if (!opened && imageDescription(block)) {
      this.runs([{ text: `[${imageDescription(block)}]`, italic: true }], frame, { size: SMALL, color: MUTED });
    }
    if (opened || caption) doc.y += frame.gap;
  }

  private openImage(fileId: string): { width: number; height: number } | undefined {
    if (!this.images.has(fileId)) {
      const bytes = this.input.image(fileId);
      let opened: unknown;
      try {
        opened = bytes ? (this.doc as unknown as { openImage(src: Buffer): unknown }).openImage(bytes) : undefined;
      } catch {
        opened = undefined; // damaged or unsupported: skipped
      }
      this.images.set(fileId, opened);
    }
    return this.images.get(fileId) as { width: number; height: number } | undefined;
  }

  // -------------------------------------------------------------------------------------
  // Primitives

  /**
   * Runs of styled text as one paragraph: pdfkit's `continued` text keeps one line
   * wrapper across font changes, so marks flow inside a line.
   */
  private runs(
    runs: Run[],
    frame: Frame,
    options: { size?: number; color?: string; align?: 'left' | 'center' | 'right'; after?: number } = {},
  ): void {
    const { doc } = this;
    const size = options.size ?? BODY;
    const parts = merge(runs)
      .map((r) => ({ ...r, text: r.mono ? preserveIndent(winAnsi(r.text)) : winAnsi(r.text) }))
      .filter((r) => r.text.length > 0);
    if (parts.length === 0) return;
    parts.forEach((run, i) => {
      const last = i === parts.length - 1;
      const textOptions: TextOptions = {
        width: frame.width,
        align: options.align ?? 'left',
        continued: !last,
        lineGap: 1.5,
        underline: run.link !== undefined || run.goTo !== undefined,
        strike: run.strike === true,
        link: run.link ?? null,
        ...(run.goTo ? { goTo: run.goTo } : {}),
      };
      doc
        .font(fontOf(run))
        .fontSize(run.mono ? size * 0.92 : size)
        .fillColor(run.link || run.goTo ? LINK : (options.color ?? TEXT));
      if (i === 0) doc.text(run.text, frame.x, doc.y, textOptions);
      else doc.text(run.text, textOptions);
    });
    doc.x = frame.x;
    doc.y += options.after ?? 0;
  }

  /** A thin horizontal line across the frame. */
  private rule(frame: Frame, after: number): void {
    const { doc } = this;
    doc.save().lineWidth(0.6).strokeColor(RULE).moveTo(frame.x, doc.y).lineTo(frame.x + frame.width, doc.y).stroke().restore();
    doc.y += after;
  }

  /** Starts a new PDF page unless `height` more points fit on this one. */
  private keepWithNext(height: number): void {
    if (this.doc.y + height > this.bottom && this.doc.y > this.top + 1) this.doc.addPage();
  }

  /**
   * Content in a box (a full border) or beside a bar (quotes): drawn first, then the
   * border on every PDF page it covers (bufferPages lets us go back to them).
   */
  private boxed(frame: Frame, style: { border?: string; bar?: string; indent: number; padding: number }, draw: (inner: Frame) => void): void {
    const { doc } = this;
    this.keepWithNext(style.padding * 2 + 30);
    const pageOf = () => {
      const range = doc.bufferedPageRange();
      return range.start + range.count - 1;
    };
    const startPage = pageOf();
    const startY = doc.y;
    doc.y += style.padding;
    const inner: Frame = { x: frame.x + style.indent, width: frame.width - style.indent * (style.border ? 2 : 1), gap: frame.gap };
    draw(inner);
    doc.y += Math.max(0, style.padding - inner.gap);
    const endPage = pageOf();
    const endY = Math.min(doc.y, this.bottom);
    const x = doc.x;
    const y = doc.y;
    for (let p = startPage; p <= endPage; p++) {
      doc.switchToPage(p);
      const from = p === startPage ? startY : this.top;
      const to = p === endPage ? endY : this.bottom;
      if (to - from < 1) continue;
      doc.save();
      if (style.border) doc.lineWidth(0.8).strokeColor(style.border).roundedRect(frame.x, from, frame.width, to - from, 3).stroke();
      doc.lineWidth(2.5).strokeColor(style.border ?? style.bar ?? RULE).moveTo(frame.x + 1.25, from).lineTo(frame.x + 1.25, to).stroke();
      doc.restore();
    }
    doc.switchToPage(endPage);
    doc.x = x;
    doc.y = y;
  }
}

function alignOf(align: 'start' | 'center' | 'end' | undefined): 'left' | 'center' | 'right' {
  return align === 'center' ? 'center' : align === 'end' ? 'right' : 'left';
}
