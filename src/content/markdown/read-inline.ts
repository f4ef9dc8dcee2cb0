/*
 * mdast phrasing content -> GitBook inline content (texts with marked leaves, and inlines).
 *
 * Markdown marks nest (`**a _b_**`) while GitBook flattens them onto leaves, so the walk
 * carries the marks in force. The inline HTML GitBook writes (`<mark style>`, `<kbd>`,
 * `<sup>`, `<sub>`, `<code class="expression">`, `<i class="fa-…">`, `<img>`, `<picture>`,
 * `<a id>` anchors, `<br>`) arrives as separate opening and closing `html` nodes, so those
 * push and pop marks or open collectors on a small mutable state instead.
 */
import type { Definition, PhrasingContent } from 'mdast';
import type { Token } from './prepare.ts';
import { restorePlaceholders } from './prepare.ts';
import { destination, INLINE_PLACEHOLDER, readHtmlTag, unescapeMarkdown, type HtmlTag } from './syntax.ts';
import { canonicalMarks, colorMark, leaf, mark, normalizeInlines, TEXT_COLORS, textNode } from './leaves.ts';
import { imageRefFromSrc, refFromHref } from './refs.ts';
import type { ButtonAction, ContentRef, ImageRef, Inline, InlineButton, InlineContent, InlineImage, InlineLink, Mark, Text, TextColor } from './types.ts';

export interface InlineContext {
  tokens: Token[];
  definitions: Map<string, Definition>;
  /** The markdown remark parsed (placeholders in), which node positions point into. */
  source?: string;
}

export interface InlineResult {
  nodes: InlineContent[];
  /** The id of an empty `<a id="…"></a>` anchor found in the content (GitBook's custom heading ids). */
  anchorId: string | null;
}

interface Sink {
  items: InlineContent[];
  link: ContentRef | null;
  id: string | null;
  /** `<a class="button primary|secondary" data-icon>` or `<button class="button …" data-action>`: GitBook's button, not a link. */
  button?: { kind: 'primary' | 'secondary'; icon: string | undefined; action?: ButtonAction; tag: 'a' | 'button' };
  /** The destination as written, when it holds escapes. */
  href?: string;
}

/** Converts phrasing content; `trim` drops whitespace at both ends (blocks), not inside links. */
export function readInlines(nodes: PhrasingContent[], ctx: InlineContext, options: { trim: boolean; keepLeadingSpaces?: boolean } = { trim: true }): InlineResult {
  const reader = new InlineReader(ctx, elementsOpenedAndClosed(nodes));
  for (const node of nodes) reader.visit(node, []);
  return { nodes: normalizeInlines(reader.finish(), options), anchorId: reader.anchorId };
}

/** Converts inline HTML found outside paragraphs (`<img>` lines, `<p align>` bodies). */
export function readHtmlInlines(parts: Array<{ tag: HtmlTag } | { text: string }>, ctx: InlineContext): InlineContent[] {
  const reader = new InlineReader(ctx);
  for (const part of parts) {
    if ('tag' in part) reader.html(part.tag, []);
    else reader.text(part.text, [], true);
  }
  return normalizeInlines(reader.finish(), { trim: true });
}

class InlineReader {
  private sinks: Sink[] = [{ items: [], link: null, id: null }];
  private htmlMarks: Array<{ tag: string; mark: Mark | null }> = [];
  private expression: string | null = null;
  private iconDepth = 0;
  private darkSource: ImageRef | null | undefined = undefined;
  /** A block element's tag was met inline (`</p>`, `<td>`): the next content starts a new line. */
  private lineBreakPending = false;
  anchorId: string | null = null;

  constructor(
    private readonly ctx: InlineContext,
    /** HTML elements the content both opens and closes (`<u>…</u>`): written as markup, not as a placeholder (`cd <dir>`). */
    private readonly pairedElements: ReadonlySet<string> = new Set(),
  ) {}

  finish(): InlineContent[] {
    while (this.sinks.length > 1) this.closeLink();
    return this.sinks[0].items;
  }

  visit(node: PhrasingContent, marks: Mark[]): void {
    switch (node.type) {
      case 'text':
        return this.text(node.value, marks, true);
      case 'strong':
        return this.visitAll(node.children, [...marks, mark('bold')]);
      case 'emphasis':
        return this.visitAll(node.children, [...marks, mark('italic')]);
      case 'delete':
        return this.visitAll(node.children, [...marks, mark('strikethrough')]);
      case 'inlineCode':
        return this.leafText(this.restore(node.value), [...marks, mark('code')]);
      case 'break':
        return this.leafText('\n', marks);
      case 'link':
        // GitBook's page mention: its text is the page's title, written back from the page.
        // Its text as written is kept (`text`), and its destination when it holds escapes (`href`, as a link's), so that the page writes back as it was read.
        if (node.title === 'mention') {
          const href = writtenDestination(node, this.ctx);
          return this.inline({ object: 'inline', type: 'mention', isVoid: true, data: { ref: refFromHref(this.restore(node.url)), text: this.restore(plainOf(node.children)), ...(href ? { href } : {}) } });
        }
        // A URL typed as text (GFM's autolink literal) stays text: GitBook writes every link `[text](url)`
        // and keeps a bare `www.x.com` as the text it is.
        // (The literal keeps its backslashes raw: they are escapes of text.)
        if (this.isLiteralAutolink(node)) return this.text(this.literalAutolinkText(node), marks, true);
        return this.link(refFromHref(this.restore(node.url)), () => this.visitAll(node.children, marks), writtenDestination(node, this.ctx));
      case 'linkReference': {
        const definition = this.ctx.definitions.get(node.identifier);
        if (!definition) return this.visitAll(node.children, marks);
        return this.link(refFromHref(this.restore(definition.url)), () => this.visitAll(node.children, marks));
      }
      case 'image':
        return this.image(this.restore(node.url), this.restore(node.alt ?? ''), undefined, writtenDestination(node, this.ctx));
      case 'imageReference': {
        const definition = this.ctx.definitions.get(node.identifier);
        if (definition) return this.image(this.restore(definition.url), this.restore(node.alt ?? ''), undefined);
        return this.text(node.alt ?? '', marks, false);
      }
      case 'html':
        return this.rawHtml(node.value, marks);
      case 'footnoteReference':
        return this.leafText(`[^${node.label ?? node.identifier}]`, marks);
      default:
        return;
    }
  }

  /**
   * The text of a URL typed as text. GFM's literal autolink takes a backslash that escapes
   * the character after it (`https://x/#/\\<NAME>` ends the URL at `\\`): that backslash is
   * an escape, not text, or each round trip would add one.
   */
  private literalAutolinkText(node: PhrasingContent & { children: PhrasingContent[] }): string {
    const raw = plainOf(node.children);
    const end = node.position?.end.offset;
    const after = end === undefined ? undefined : this.ctx.source?.[end];
    // Counted as written: `\\` before the punctuation is one backslash of text, not an escape.
    const run = /\\+$/.exec(raw)?.[0].length ?? 0;
    const text = run % 2 === 1 && after !== undefined && /[!-/:-@[-`{-~]/.test(after) ? raw.slice(0, -1) : raw;
    return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
  }

  private isLiteralAutolink(node: PhrasingContent): boolean {
    const start = node.position?.start.offset;
    if (start === undefined || this.ctx.source === undefined) return false;
    const first = this.ctx.source[start];
    return first !== '[' && first !== '<';
  }

  private visitAll(nodes: PhrasingContent[], marks: Mark[]): void {
    for (const child of nodes) this.visit(child, marks);
  }

  private restore(text: string): string {
    return restorePlaceholders(text, this.ctx.tokens);
  }

  /** Text from markdown: soft line breaks become spaces, inline placeholders become math and expressions. */
  text(value: string, marks: Mark[], soft: boolean): void {
    const source = soft ? value.replace(/[ \t]*\n[ \t]*/g, ' ') : value;
    let last = 0;
    for (const match of source.matchAll(INLINE_PLACEHOLDER)) {
      if (match.index > last) this.leafText(source.slice(last, match.index), marks);
      this.token(this.ctx.tokens[Number(match[1])], marks);
      last = match.index + match[0].length;
    }
    if (last < source.length) this.leafText(source.slice(last), marks);
  }

  private token(token: Token | undefined, marks: Mark[]): void {
    if (token?.kind === 'inline-math') this.inline({ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: token.formula } });
    else if (token?.kind === 'expression') this.inline({ object: 'inline', type: 'expression', isVoid: true, data: { expression: token.expression } });
    else if (token) this.leafText(token.raw, marks);
  }

  private leafText(text: string, marks: Mark[]): void {
    if (this.iconDepth > 0 || text === '') return;
    if (this.expression !== null) {
      this.expression += text;
      return;
    }
    if (this.lineBreakPending) {
      // Space between block elements' tags is no text; the line starts at what follows.
      text = text.replace(/^[ \t]+/, '');
      if (text === '') return;
      this.flushLineBreak();
    }
    const all = canonicalMarks([...marks, ...this.htmlMarks.flatMap((h) => (h.mark ? [h.mark] : []))]);
    const items = this.sink().items;
    const last = items[items.length - 1];
    if (last?.object === 'text') last.leaves.push(leaf(text, all));
    else items.push(textNode([leaf(text, all)]));
  }

  private inline(node: Inline): void {
    if (this.iconDepth > 0 || this.expression !== null) return;
    this.flushLineBreak();
    this.sink().items.push(node);
  }

  private sink(): Sink {
    return this.sinks[this.sinks.length - 1];
  }

  private link(ref: ContentRef, body: () => void, href?: string): void {
    this.flushLineBreak();
    this.sinks.push({ items: [], link: ref, id: null, href });
    body();
    this.closeLink();
  }

  private closeLink(): void {
    const sink = this.sinks.pop()!;
    if (sink.button) {
      const label = sink.items.map((item) => (item.object === 'text' ? item.leaves.map((l) => l.text).join('') : '')).join('').trim();
      const data: InlineButton['data'] = { label, kind: sink.button.kind };
      if (sink.link) data.ref = sink.link;
      else if (sink.button.action) data.action = sink.button.action;
      if (sink.button.icon) data.icon = sink.button.icon;
      this.sink().items.push({ object: 'inline', type: 'button', isVoid: true, data });
      return;
    }
    if (!sink.link) {
      // An `<a id>` anchor with nothing inside names a heading; other link-less anchors just unwrap.
      if (sink.items.length === 0 && sink.id) this.anchorId = sink.id;
      this.sink().items.push(...sink.items);
      return;
    }
    if (sink.items.length === 0 && sink.id) {
      this.anchorId = sink.id;
      return;
    }
    const nodes = normalizeInlines(sink.items.map(linkChild), { trim: false });
    const link: InlineLink = { object: 'inline', type: 'link', isVoid: false, data: sink.href ? { ref: sink.link, href: sink.href } : { ref: sink.link }, nodes: nodes as Array<Text | InlineImage> };
    this.sink().items.push(link);
  }

  private image(src: string, alt: string, size: InlineImage['data']['size'], written?: string): void {
    const data: InlineImage['data'] = { ref: imageRefFromSrc(src) };
    if (this.darkSource) data.refDark = this.darkSource;
    if (alt) data.alt = alt;
    if (size) data.size = size;
    if (written) data.src = written;
    this.inline({ object: 'inline', type: 'inline-image', isVoid: true, data });
  }

  private rawHtml(value: string, marks: Mark[]): void {
    if (value.startsWith('<!--')) return;
    const tag = readHtmlTag(value);
    if (tag && (this.html(tag, marks) || this.unplacedElement(tag))) return;
    this.leafText(this.restore(value), marks);
  }

  /**
   * An HTML element written inline that GitBook's inline content has no place for (`<u>`,
   * `<font>`, `<p>` or `<table>` inside a paragraph or a pipe cell): its tags go and its text
   * stays, as a browser shows it; a block element's tags part its text into lines. False for
   * anything else (`<user>`, `<script>`): that stays text, as GitBook shows it.
   */
  private unplacedElement(tag: HtmlTag): boolean {
    // `cd <dir>`, `nc <address> 80`: a tag never closed (nor closing one) is a placeholder the page shows.
    if (!this.pairedElements.has(tag.name)) return false;
    if (PHRASING_ELEMENTS.has(tag.name)) return true;
    if (!LINE_PARTING_ELEMENTS.has(tag.name)) return false;
    this.lineBreakPending = true;
    return true;
  }

  /** The line break a block element's tag left, before content that follows other content. */
  private flushLineBreak(): void {
    if (!this.lineBreakPending) return;
    this.lineBreakPending = false;
    const items = this.sink().items;
    const last = items[items.length - 1];
    if (!last) return;
    if (last.object !== 'text') return void items.push(textNode([leaf('\n', [])]));
    const tail = last.leaves[last.leaves.length - 1];
    tail.text = tail.text.replace(/[ \t]+$/, '');
    // The break carries the marks around it but code's: a code span holds no line break.
    if (!tail.text.endsWith('\n')) last.leaves.push(leaf('\n', tail.marks.filter((m) => m.type !== 'code')));
  }

  /** Applies one inline HTML tag; false when the tag means nothing here and stays text. */
  html(tag: HtmlTag, marks: Mark[]): boolean {
    if (this.iconDepth > 0) {
      if (tag.name === 'i') this.iconDepth += tag.closing ? -1 : 1;
      return true;
    }
    if (tag.closing) return this.closeTag(tag.name);
    switch (tag.name) {
      case 'br':
        this.leafText('\n', marks);
        return true;
      case 'img':
        this.image(tag.attrs.src ?? '', tag.attrs.alt ?? '', imageSize(tag.attrs['data-size']));
        return true;
      case 'picture':
        this.darkSource = null;
        return true;
      case 'source':
        if (this.darkSource !== undefined && /dark/i.test(tag.attrs.media ?? '')) this.darkSource = imageRefFromSrc(firstSrc(tag.attrs.srcset ?? ''));
        return this.darkSource !== undefined;
      case 'a': {
        this.flushLineBreak();
        this.sinks.push({ items: [], link: tag.attrs.href ? refFromHref(tag.attrs.href) : null, id: tag.attrs.id || tag.attrs.name || null, button: buttonOf(tag) });
        return true;
      }
      case 'button': {
        const button = buttonOf(tag);
        if (!button) return false;
        this.flushLineBreak();
        this.sinks.push({ items: [], link: null, id: null, button });
        return true;
      }
      case 'i':
        return this.openItalicOrIcon(tag);
      case 'code':
        if (/\bexpression\b/.test(tag.attrs.class ?? '')) {
          this.expression = '';
          return true;
        }
        return this.pushMark('code', mark('code'));
      default: {
        const m = markForTag(tag);
        return m === undefined ? false : this.pushMark(tag.name, m);
      }
    }
  }

  private openItalicOrIcon(tag: HtmlTag): boolean {
    const icon = (tag.attrs.class ?? '').split(/\s+/).reverse().find((c) => c.startsWith('fa-'));
    if (!icon) return this.pushMark('i', mark('italic'));
    const data: { icon: string; color?: TextColor } = { icon: icon.slice(3) };
    this.inline({ object: 'inline', type: 'icon', isVoid: true, data });
    this.iconDepth = 1;
    return true;
  }

  private pushMark(tag: string, m: Mark | null): boolean {
    this.htmlMarks.push({ tag, mark: m });
    return true;
  }

  private closeTag(name: string): boolean {
    if (name === 'picture') {
      this.darkSource = undefined;
      return true;
    }
    if (name === 'a' || name === 'button') {
      if (this.sinks.length <= 1 || (name === 'button') !== (this.sink().button?.tag === 'button')) return name === 'a';
      this.closeLink();
      return true;
    }
    if (name === 'code' && this.expression !== null) {
      const expression = this.expression.trim();
      this.expression = null;
      this.inline({ object: 'inline', type: 'expression', isVoid: true, data: { expression } });
      return true;
    }
    for (let i = this.htmlMarks.length - 1; i >= 0; i--) {
      if (this.htmlMarks[i].tag === name) {
        this.htmlMarks.splice(i, 1);
        return true;
      }
    }
    return markForTag({ name, closing: true, attrs: {} }) !== undefined || name === 'i' || name === 'code';
  }
}

/** GitBook's button: `<a class="button primary|secondary">` or `<button class="button …" data-action data-query|data-slug>`. */
function buttonOf(tag: HtmlTag): Sink['button'] {
  const classes = (tag.attrs.class ?? '').split(/\s+/);
  if (!classes.includes('button') || (tag.name !== 'a' && tag.name !== 'button')) return undefined;
  const kind = classes.includes('secondary') ? ('secondary' as const) : ('primary' as const);
  const button: NonNullable<Sink['button']> = { kind, icon: tag.attrs['data-icon'] || undefined, tag: tag.name };
  const action = tag.attrs['data-action'];
  if (action === 'search' || action === 'ask') button.action = tag.attrs['data-query'] !== undefined ? { action, query: tag.attrs['data-query'] } : { action };
  else if (action === 'select' && tag.attrs['data-slug']) button.action = { action, slug: tag.attrs['data-slug'] };
  else if (tag.name === 'button') return undefined;
  return button;
}

/** The mark an inline HTML formatting tag stands for; undefined for tags that are not formatting. */
function markForTag(tag: HtmlTag): Mark | null | undefined {
  switch (tag.name) {
    case 'strong':
    case 'b':
      return mark('bold');
    case 'em':
      return mark('italic');
    case 's':
    case 'del':
    case 'strike':
      return mark('strikethrough');
    case 'kbd':
      return mark('keyboard');
    case 'sup':
      return mark('superscript');
    case 'sub':
      return mark('subscript');
    case 'mark':
      return colorFromStyle(tag.attrs.style ?? '');
    case 'span':
      return null;
    default:
      return undefined;
  }
}

/** `<mark style="color:red;background-color:blue;">`: unknown colours fall back to `default`. */
function colorFromStyle(style: string): Mark | null {
  const read = (property: string): TextColor => {
    const value = new RegExp(`(?:^|;)\\s*${property}\\s*:\\s*([^;]+)`, 'i').exec(style)?.[1].trim() ?? 'default';
    return (TEXT_COLORS.has(value) ? value : 'default') as TextColor;
  };
  const text = read('color');
  const background = read('background-color');
  return text === 'default' && background === 'default' ? null : colorMark(text, background);
}

function imageSize(value: string | undefined): InlineImage['data']['size'] {
  return value === 'line' || value === 'original' ? value : undefined;
}

/** The source of a one-candidate `srcset`: GitBook writes file paths as they are, spaces included; a `2x` / `640w` descriptor goes. */
export function firstSrc(srcset: string): string {
  return srcset.trim().replace(/\s+\d+(?:\.\d+)?[wx]$/, '');
}

/**
 * The destination of a `[text](url)` / `![alt](url)` as written, when it holds backslash
 * escapes GitBook wrote (`more\_info`) and means the node's URL; undefined otherwise.
 */
export function writtenDestination(node: PhrasingContent, ctx: InlineContext): string | undefined {
  if ((node.type !== 'link' && node.type !== 'image') || ctx.source === undefined) return undefined;
  const { start, end } = node.position ?? {};
  if (start?.offset === undefined || end?.offset === undefined) return undefined;
  const raw = restorePlaceholders(ctx.source.slice(start.offset, end.offset), ctx.tokens);
  const at = raw.lastIndexOf('](');
  if (at < 0 || !raw.endsWith(')')) return undefined;
  const written = raw.slice(at + 2, -1).trim().split(/\s+/)[0];
  if (!written.includes('\\') || written.startsWith('<')) return undefined;
  const url = restorePlaceholders(node.url, ctx.tokens);
  // Kept only when it is not what the writer writes anyway.
  return unescapeMarkdown(written) === url && written !== destination(url) ? written : undefined;
}

/** Names of the HTML elements that `nodes` (and what they hold) both open and close. */
function elementsOpenedAndClosed(nodes: PhrasingContent[]): Set<string> {
  const opened = new Set<string>();
  const closed = new Set<string>();
  const walk = (list: PhrasingContent[]) => {
    for (const node of list) {
      if (node.type === 'html') {
        const tag = readHtmlTag(node.value);
        if (tag) (tag.closing ? closed : opened).add(tag.name);
      } else if ('children' in node) walk(node.children as PhrasingContent[]);
    }
  };
  walk(nodes);
  return new Set([...opened].filter((name) => closed.has(name)));
}

/** Inline HTML elements with no GitBook mark (a `<button>` not in GitBook's form): their text is shown, the element's look is not. */
const PHRASING_ELEMENTS = new Set(['u', 'ins', 'small', 'big', 'font', 'abbr', 'acronym', 'cite', 'q', 'var', 'samp', 'tt', 'dfn', 'time', 'bdi', 'bdo', 'nobr', 'label', 'data', 'button']);
/** Block elements written inside a paragraph or a cell: their content is shown on lines of its own. */
const LINE_PARTING_ELEMENTS = new Set([
  'p', 'div', 'center', 'section', 'article', 'aside', 'header', 'footer', 'main', 'nav', 'address', 'blockquote', 'figure', 'figcaption', 'details', 'summary',
  'dl', 'dt', 'dd', 'ul', 'ol', 'li', 'menu', 'dir', 'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
]);

/** The text of phrasing content, markup aside. */
export function plainOf(nodes: PhrasingContent[]): string {
  return nodes.map((n) => ('value' in n && n.type !== 'html' ? n.value : 'children' in n ? plainOf(n.children as PhrasingContent[]) : n.type === 'break' ? '\n' : '')).join('');
}

/** Links hold only text and images: other inlines become their text. */
function linkChild(node: InlineContent): InlineContent {
  if (node.object === 'text' || node.type === 'inline-image') return node;
  switch (node.type) {
    case 'inline-math':
      return textNode([leaf(node.data.formula)]);
    case 'expression':
      return textNode([leaf(node.data.expression)]);
    case 'link':
      return textNode(node.nodes.flatMap((n) => (n.object === 'text' ? n.leaves : [])));
    default:
      return textNode([leaf('')]);
  }
}
