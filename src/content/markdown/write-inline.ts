/*
 * Inline content -> markdown.
 *
 * Marks become nested spans, the longest-running mark outermost. Bold, italic and
 * strikethrough are written as `**`, `_` (or `*` inside words) and `~~` where CommonMark's
 * flanking rules let the delimiters open and close at that spot, and as `<strong>`, `<em>`,
 * `<s>` where they do not (e.g. `a**"b"**c`); the spans are first written with placeholder
 * characters and decided once their real neighbours are known. As a last guard the result is
 * read back, and if it does not give the same content every such mark is written as HTML.
 */
import { readInlineMarkdown } from './parse.ts';
import { hrefFromRef } from './refs.ts';
import { hasMark, normalizeInlines } from './leaves.ts';
import { destination, quoteAttribute } from './syntax.ts';
import { VARIABLE_EXPRESSION } from './prepare.ts';
import type { ImageRef, Inline, InlineContent, InlineImage, Leaf, Mark } from './types.ts';

export interface InlineWriteOptions {
  /** No line breaks allowed (headings, table cells, summaries, captions): breaks become `<br>`. */
  singleLine?: boolean;
  /** Inside a GFM table cell, where `|` must be escaped in code spans too. */
  inTable?: boolean;
  /** Inside HTML (summaries, captions, aligned paragraphs): marks, code and links as HTML tags, as GitBook writes them there. */
  html?: boolean;
  /** Inside an HTML block (GitBook's HTML tables), where text is not markdown: only HTML's own characters are escaped. */
  rawHtml?: boolean;
  /** In an ATX heading, where `1.` cannot start a list and needs no escape. */
  heading?: boolean;
  /** A summary's trailing spaces are kept. */
  keepTrailingSpaces?: boolean;
  /** A paragraph's leading spaces are kept (written `&#x20;`, as GitBook does). */
  keepLeadingSpaces?: boolean;
  /** Internal: leave context-dependent escapes pending (render decides them on the whole line). */
  keepPending?: boolean;
  /** Internal: escape every `[` and `]` of the text (the fallback when bare ones do not read back). */
  escapeBrackets?: boolean;
}

type Style = 'markdown' | 'html';

/** Writes inline content as markdown that reads back to the same content. */
export function writeInlines(nodes: InlineContent[], options: InlineWriteOptions = {}): string {
  const content = normalizeInlines(nodes, { trim: true, keepLeadingSpaces: options.keepLeadingSpaces, keepTrailingSpaces: options.keepTrailingSpaces });
  if (options.html) {
    const html = render(content, options, 'html');
    if (!html.includes(UNESCAPED) || sameContent(readInlineMarkdown(unmark(html)), content)) return unmark(html);
    return render(content, { ...options, escapeBrackets: true }, 'html');
  }
  const markdown = render(content, options, 'markdown');
  if (!needsCheck(content) && !markdown.includes(UNESCAPED)) return unmark(markdown);
  // Read back as the text will be: a paragraph's leading spaces (`&#x20;`) are its content.
  const readBack = (text: string) => readInlineMarkdown(text, { keepLeadingSpaces: options.keepLeadingSpaces });
  if (sameContent(readBack(unmark(markdown)), content)) return unmark(markdown);
  // Brackets left bare, then delimiters, fall back to their safe forms.
  const escaped = render(content, { ...options, escapeBrackets: true }, 'markdown');
  if (sameContent(readBack(escaped), content)) return escaped;
  return render(content, { ...options, escapeBrackets: true }, 'html');
}

/** Marks a bracket of the text written bare (see resolvePending), for the read-back check. */
const UNESCAPED = '\uE032';
const unmark = (text: string) => text.replaceAll(UNESCAPED, '');

function needsCheck(content: InlineContent[]): boolean {
  return content.some((n) =>
    n.object === 'text'
      ? n.leaves.some((l) => l.marks.some((m) => m.type === 'bold' || m.type === 'italic' || m.type === 'strikethrough'))
      : n.type === 'link' && needsCheck(n.nodes),
  );
}

function sameContent(a: InlineContent[], b: InlineContent[]): boolean {
  return JSON.stringify(a, dropKeys) === JSON.stringify(b, dropKeys);
}

function dropKeys(key: string, value: unknown): unknown {
  if (key === 'key') return undefined;
  // A mention is written with its text, else its label (a page title labelMentions gives it to
  // write with): read back, that is its text. The label is no difference the text shows.
  const node = value as { object?: string; type?: string; data?: { text?: string; label?: string } } | null;
  if (node?.object === 'inline' && node.type === 'mention' && node.data?.label !== undefined) {
    const { label, ...data } = node.data;
    return { ...node, data: { ...data, text: data.text ?? label } };
  }
  return value;
}

function render(content: InlineContent[], options: InlineWriteOptions, style: Style): string {
  const keep = { ...options, keepPending: true };
  const raw = content.map((node) => (node.object === 'text' ? renderLeaves(node.leaves, keep) : renderInline(node, keep))).join('');
  const text = resolvePending(resolveDelimiters(options.rawHtml ? raw : escapeLineStarts(raw, options.heading), style), !options.escapeBrackets && (options.html ? 'html' : 'markdown'));
  // A hard break ending the content: GitBook writes `text<br>`, and `\` on a line of its own
  // for a paragraph of nothing but a break.
  if (options.singleLine || options.rawHtml || !text.endsWith('\\\n')) return text;
  return /^(?:\\\n)+$/.test(text) ? text.slice(0, -1) : text.slice(0, -2) + '<br>';
}

// Characters at the edge of a leaf whose escape depends on what ends up next to them once
// the whole line is written: `!` before `[` (an image), `$` next to `$` (math).
const BANG = '\uE030';
const DOLLAR = '\uE031';

const OPEN_BRACKET = '\uE033';
const CLOSE_BRACKET = '\uE034';
const STAR = '\uE035';
const BACKSLASH = '\uE036';
const ASCII_PUNCTUATION = /^[!-/:-@[-`{-~]$/;

/**
 * Decides the pending `!` and `$` from their real neighbours, and the text's brackets as
 * GitBook writes them: in markdown text `\[` but a bare `]`; in HTML (summaries, captions)
 * `[WARN]` bare, a `[` escaped only where it could open a link (`[a](`, `[a][`), a
 * definition (`[a]:`) or a task box (`[ ]` at a line start). With `bare`, brackets are
 * written that way and marked for the caller's read-back check; else all are escaped.
 */
function resolvePending(text: string, bare: false | Style = false): string {
  if (!/[\uE030-\uE036]/.test(text)) return text;
  const chars = [...text];
  const isDollar = (c: string | undefined) => c === '$' || c === DOLLAR;
  return chars
    .map((ch, i) => {
      if (ch === BANG) return chars[i + 1] === '[' ? '\\!' : '!';
      if (ch === DOLLAR) return isDollar(chars[i - 1]) || isDollar(chars[i + 1]) ? '\\$' : '$';
      if (ch === CLOSE_BRACKET) return bare ? ']' + UNESCAPED : '\\]';
      if (ch === STAR) return bare ? '*' + UNESCAPED : '\\*';
      if (ch === BACKSLASH) return chars[i + 1] === undefined || chars[i + 1] === '\n' || ASCII_PUNCTUATION.test(chars[i + 1]) || /[\uE030-\uE036]/.test(chars[i + 1]) ? '\\\\' : '\\';
      if (ch === OPEN_BRACKET) return bare === 'html' && !opensSomething(chars, i) ? '[' + UNESCAPED : '\\[';
      return ch;
    })
    .join('');
}

function opensSomething(chars: string[], i: number): boolean {
  const lineStart = i === 0 || chars[i - 1] === '\n';
  if (lineStart && /^[ xX]$/.test(chars[i + 1] ?? '') && (chars[i + 2] === ']' || chars[i + 2] === CLOSE_BRACKET)) return true;
  for (let k = i + 1; k < chars.length; k++) {
    if (chars[k] === ']' || chars[k] === CLOSE_BRACKET) return chars[k + 1] === '(' || chars[k + 1] === '[' || chars[k + 1] === OPEN_BRACKET || chars[k + 1] === ':';
    if (chars[k] === '[' || chars[k] === OPEN_BRACKET) return true;
  }
  return false;
}

// Placeholder characters for delimiter marks, decided in resolveDelimiters.
const OPEN: Record<string, string> = { bold: '\uE020', italic: '\uE022', strikethrough: '\uE024' };
const CLOSE: Record<string, string> = { bold: '\uE021', italic: '\uE023', strikethrough: '\uE025' };
const MARK_OF: Record<string, { type: 'bold' | 'italic' | 'strikethrough'; open: boolean }> = {
  '\uE020': { type: 'bold', open: true },
  '\uE021': { type: 'bold', open: false },
  '\uE022': { type: 'italic', open: true },
  '\uE023': { type: 'italic', open: false },
  '\uE024': { type: 'strikethrough', open: true },
  '\uE025': { type: 'strikethrough', open: false },
};

type Span = { mark: Mark; children: Span[] } | { leaf: Leaf };

const OUTER_FIRST: Mark['type'][] = ['italic', 'color', 'bold', 'strikethrough', 'keyboard', 'superscript', 'subscript', 'code'];

/** Nests the marks of consecutive leaves: at each point the mark that runs longest opens first. */
function nest(leaves: Leaf[], from: number, to: number, open: Mark['type'][]): Span[] {
  const spans: Span[] = [];
  let i = from;
  while (i < to) {
    const remaining = leaves[i].marks.filter((m) => !open.includes(m.type) && m.type !== 'code');
    if (remaining.length === 0) {
      spans.push({ leaf: leaves[i] });
      i++;
      continue;
    }
    // Equal runs nest the way GitBook writes them: italic outside, then colour, then bold (`_**x**_`, `<mark>**x**</mark>`).
    const ordered = [...remaining].sort((a, b) => OUTER_FIRST.indexOf(a.type) - OUTER_FIRST.indexOf(b.type));
    let best = ordered[0];
    let bestEnd = runEnd(leaves, i, to, best);
    for (const m of ordered.slice(1)) {
      const end = runEnd(leaves, i, to, m);
      if (end > bestEnd) [best, bestEnd] = [m, end];
    }
    spans.push({ mark: best, children: nest(leaves, i, bestEnd, [...open, best.type]) });
    i = bestEnd;
  }
  return spans;
}

function runEnd(leaves: Leaf[], from: number, to: number, m: Mark): number {
  let end = from;
  while (end < to && leaves[end].marks.some((x) => x.type === m.type && JSON.stringify(x) === JSON.stringify(m))) end++;
  return end;
}

function renderLeaves(leaves: Leaf[], options: InlineWriteOptions): string {
  return nest(leaves, 0, leaves.length, []).map((span) => renderSpan(span, options)).join('');
}

function renderSpan(span: Span, options: InlineWriteOptions): string {
  if ('leaf' in span) {
    if (!hasMark(span.leaf.marks, 'code')) return escapeText(span.leaf.text, options);
    // In a table a backslash before a pipe cannot be written in a code span: the HTML form can.
    const html = options.html || (options.inTable && span.leaf.text.includes('\\|'));
    return html ? `<code>${escapeText(span.leaf.text, options)}</code>` : codeSpan(span.leaf.text, options);
  }
  const inner = span.children.map((child) => renderSpan(child, options)).join('');
  const m = span.mark;
  switch (m.type) {
    case 'bold':
    case 'italic':
    case 'strikethrough':
      return OPEN[m.type] + inner + CLOSE[m.type];
    case 'keyboard':
      return `<kbd>${inner}</kbd>`;
    case 'superscript':
      return `<sup>${inner}</sup>`;
    case 'subscript':
      return `<sub>${inner}</sub>`;
    case 'color': {
      const parts = [m.data.text !== 'default' ? `color:${m.data.text};` : '', m.data.background !== 'default' ? `background-color:${m.data.background};` : ''];
      return `<mark style="${parts.join('')}">${inner}</mark>`;
    }
    default:
      return inner;
  }
}

function codeSpan(text: string, options: InlineWriteOptions): string {
  let value = text.replace(/\n/g, ' ');
  if (options.inTable) value = value.replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(value.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') || (/^ .* $/s.test(value) && value.trim() !== '') ? ' ' : '';
  return fence + pad + value + pad + fence;
}

function renderInline(node: Inline, options: InlineWriteOptions): string {
  switch (node.type) {
    case 'link': {
      const text = node.nodes.map((n) => (n.object === 'text' ? renderLeaves(n.leaves, options) : renderInline(n, options))).join('');
      const href = hrefFromRef(node.data.ref);
      return options.html ? `<a href=${quoteAttribute(href)}>${text}</a>` : `[${text}](${destination(href, node.data.href)})`;
    }
    case 'inline-image':
      return imageMarkdown(node, options.html);
    case 'mention': {
      const href = hrefFromRef(node.data.ref);
      const label = node.data.text ?? node.data.label ?? (/^(?:[a-z][a-z0-9+.-]*:|\/|#)/i.test(href) ? href : href.split('#')[0].split('/').pop() || href);
      return `[${escapeText(label, { ...options, singleLine: true })}](${destination(href, node.data.href)} "mention")`;
    }
    case 'button': {
      const icon = node.data.icon ? ` data-icon=${quoteAttribute(node.data.icon)}` : '';
      const label = escapeText(node.data.label, { ...options, singleLine: true });
      const { ref, action } = node.data;
      if (ref) return `<a href=${quoteAttribute(hrefFromRef(ref))} class="button ${node.data.kind}"${icon}>${label}</a>`;
      if (!action) return `<a class="button ${node.data.kind}"${icon}>${label}</a>`;
      const detail = action.action === 'select' ? ` data-slug=${quoteAttribute(action.slug)}` : action.query !== undefined ? ` data-query=${quoteAttribute(action.query)}` : '';
      return `<button type="button" class="button ${node.data.kind}" data-action="${action.action}"${detail}${icon}>${label}</button>`;
    }
    case 'inline-math':
      return `$$${node.data.formula}$$`;
    case 'expression':
      return `<code class="expression">${escapeText(node.data.expression, { singleLine: true })}</code>`;
    case 'icon':
      return `<i class="fa-${node.data.icon}">:${node.data.icon}:</i>`;
    case 'emoji':
      return emojiText(node.data.code);
  }
}

function emojiText(code: string): string {
  const points = code.split('-').map((part) => parseInt(part, 16));
  return points.every((p) => Number.isFinite(p) && p > 0 && p <= 0x10ffff) ? String.fromCodePoint(...points) : '';
}

/** `![alt](src)`, or the `<img>` form GitBook writes when there is a size or a dark-mode source. */
export function imageMarkdown(node: InlineImage, forceHtml = false): string {
  const { ref, refDark, alt, size, src } = node.data;
  if (!forceHtml && !refDark && !size) return `![${escapeText(alt ?? '', { singleLine: true })}](${destination(imageSrc(ref), src)})`;
  const img = `<img src=${quoteAttribute(imageSrc(ref))} alt=${quoteAttribute(alt ?? '')}${size ? ` data-size="${size}"` : ''}>`;
  return refDark ? `<picture><source srcset=${quoteAttribute(imageSrc(refDark))} media="(prefers-color-scheme: dark)">${img}</picture>` : img;
}

export function imageSrc(ref: ImageRef): string {
  return hrefFromRef(ref);
}

/** How the document being written escapes text beyond what markdown needs (GitBook's older export). */
let textStyle = { escapeParentheses: false };

/** Runs `write` with the text style of one document (writing is synchronous). */
/** The text style of the document being written (for text written apart from it, in its style). */
export const currentTextStyle = (): Readonly<{ escapeParentheses: boolean }> => textStyle;

export function withTextStyle<T>(style: { escapeParentheses: boolean }, write: () => T): T {
  const previous = textStyle;
  textStyle = style;
  try {
    return write();
  } finally {
    textStyle = previous;
  }
}

/** Escapes text so that markdown reads it back as the same characters. */
export function escapeText(text: string, options: InlineWriteOptions): string {
  if (options.rawHtml) return text.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;').replace(/>/g, '&#x3E;').replace(/\n/g, '<br>');
  let out = '';
  const chars = [...text];
  const offsets: number[] = [];
  for (let i = 0, at = 0; i < chars.length; at += chars[i].length, i++) offsets.push(at);
  // `****` is GitBook's empty bold, which it writes bare: pending, decided by reading it back.
  const emptyBold = new Set<number>();
  if (options.keepPending) for (const m of text.matchAll(/(?<!\*)\*{4}(?!\*)/g)) for (let k = 0; k < 4; k++) emptyBold.add([...text.slice(0, m.index)].length + k);
  // A line of text shaped like a table's delimiter row (`| --- |`) keeps its pipes escaped: bare, it would turn the line above into a table.
  const delimiterLike = new Set<number>();
  if (text.includes('|')) {
    let at = 0;
    for (const line of text.split('\n')) {
      const length = [...line].length;
      if (/^[\s|:-]*$/.test(line) && line.includes('-')) for (let k = 0; k < length; k++) delimiterLike.add(at + k);
      at += length + 1;
    }
  }
  chars.forEach((ch, i) => {
    if (ch === '|') {
      out += escapePipe(options, delimiterLike.has(i));
      return;
    }
    const prev = chars[i - 1];
    const next = chars[i + 1];
    // Only `&` (an entity) and `{` (a variable expression) look further ahead; building the
    // rest of the text for every character made writing quadratic in a paragraph's length.
    const rest = ch === '&' || ch === '{' ? text.slice(offsets[i]) : '';
    out += emptyBold.has(i) ? STAR : escapeChar(ch, prev, next, rest, options);
  });
  return options.keepPending ? out : resolvePending(out);
}



/**
 * GitBook escapes `|` in table cells, in HTML text and in its older export (with every
 * parenthesis); in today's markdown text it writes it bare (`[A | B](url)`, `a | b`).
 */
function escapePipe(options: InlineWriteOptions, delimiterLike: boolean): string {
  return options.inTable || options.html || textStyle.escapeParentheses || delimiterLike ? '\\|' : '|';
}

/** `{{ space.vars.x }}` would read back as an expression, so its brace is escaped in text. */
function isVariableExpression(rest: string): boolean {
  const match = /^\{\{\s*([^{}]+?)\s*\}\}/.exec(rest);
  return match !== null && VARIABLE_EXPRESSION.test(match[1]);
}

function escapeChar(ch: string, prev: string | undefined, next: string | undefined, rest: string, options: InlineWriteOptions): string {
  switch (ch) {
    case '[':
      return options.keepPending ? OPEN_BRACKET : '\\[';
    case ']':
      return options.keepPending ? CLOSE_BRACKET : '\\]';
    case '\\':
      // GitBook writes a backslash bare unless an escapable character (or a line end) follows: `C:\Windows`.
      if (next === undefined) return BACKSLASH;
      return ASCII_PUNCTUATION.test(next) || next === '\n' ? '\\\\' : ch;
    case '*':
    case '`':
    case '~':
      return '\\' + ch;
    case '_':
      // GitBook escapes every underscore of markdown text, inside words too (`MY\_VAR`); in
      // HTML (summaries, captions) only where it could be emphasis.
      if (options.html && prev && next && WORD.test(prev) && WORD.test(next)) return ch;
      return '\\_';
    case '<':
      return next === undefined || /[A-Za-z/!?]/.test(next) ? '\\<' : ch;
    case '&':
      // In markdown text GitBook escapes `&` before a letter or `#` (what could start an entity: `Q\&A`); in HTML only a whole entity.
      if (!options.html && next !== undefined && /[#A-Za-z]/.test(next)) return '\\&';
      return /^&(#\d+|#x[0-9a-f]+|\w+);/i.test(rest) ? '\\&' : ch;
    case '$':
      if (prev === '$' || next === '$') return '\\$';
      return next === undefined || prev === undefined ? DOLLAR : ch;
    case '!':
      if (next === '[') return '\\!';
      return next === undefined ? BANG : ch;
    case '(':
    case ')':
      return textStyle.escapeParentheses && !options.html ? '\\' + ch : ch;
    case '{':
      return next === '%' || (next === '{' && isVariableExpression(rest)) ? '\\{' : ch;
    case '\n':
      return options.singleLine ? '<br>' : '\\\n';
    default:
      return ch;
  }
}

/** What would start a block at the start of a line is escaped there. */
function escapeLineStarts(markdown: string, heading = false): string {
  return markdown
    .split('\n')
    .map((line) => {
      // Only what would start a block: `+/-` and `=` in prose stay as GitBook writes them.
      // GitBook's empty bold (`****`, pending) alone on a line would read as a divider: escaped there, as GitBook writes it.
      if (/^(?:\uE035[ \t]*){3,}$/.test(line)) return line.replaceAll(STAR, '\\*');
      if (/^#{1,6}(?:[ \t]|\\?$)/.test(line) || /^>|^[+-](?:[ \t]|$)|^=+[ \t]*$|^-+[ \t]*$/.test(line)) return '\\' + line;
      const ordered = heading ? null : /^(\d{1,9})([.)])(?=[ \t]|$)/.exec(line);
      if (ordered) return ordered[1] + '\\' + ordered[2] + line.slice(ordered[0].length);
      // Only the first space needs the entity (GitBook writes `&#x20; text`): after it the line no longer starts blank.
      return line.replace(/^[ \t]/, (lead) => (lead === ' ' ? '&#x20;' : '&#x9;'));
    })
    .join('\n');
}

const WORD = /[\p{L}\p{N}]/u;

const PUNCTUATION = /[\p{P}\p{S}]/u;
const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c);
const isPunct = (c: string | undefined) => c !== undefined && (PUNCTUATION.test(c) || c in MARK_OF);

function leftFlanking(before: string | undefined, after: string | undefined): boolean {
  return !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before));
}

function rightFlanking(before: string | undefined, after: string | undefined): boolean {
  return !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after));
}

/** Replaces delimiter placeholders by `**`, `_`, `*`, `~~`, or by HTML tags where those would not parse. */
function resolveDelimiters(text: string, style: Style): string {
  const chars = [...text];
  const pairs: Array<[number, number]> = [];
  const stack: number[] = [];
  chars.forEach((ch, i) => {
    const info = MARK_OF[ch];
    if (!info) return;
    if (info.open) stack.push(i);
    else pairs.push([stack.pop()!, i]);
  });
  const replaced = [...chars];
  for (const [open, close] of pairs) {
    const type = MARK_OF[chars[open]].type;
    const [o, c] = delimitersFor(type, chars, open, close, style);
    replaced[open] = o;
    replaced[close] = c;
  }
  return replaced.join('');
}

function delimitersFor(type: 'bold' | 'italic' | 'strikethrough', chars: string[], open: number, close: number, style: Style): [string, string] {
  const html: Record<typeof type, [string, string]> = { bold: ['<strong>', '</strong>'], italic: ['<em>', '</em>'], strikethrough: ['<s>', '</s>'] };
  if (style === 'html') return html[type];
  const [b1, a1, b2, a2] = [chars[open - 1], chars[open + 1], chars[close - 1], chars[close + 1]];
  const starOk = leftFlanking(b1, a1) && rightFlanking(b2, a2);
  if (type === 'italic') {
    const underscoreOk = starOk && (!rightFlanking(b1, a1) || isPunct(b1)) && (!leftFlanking(b2, a2) || isPunct(a2));
    if (underscoreOk) return ['_', '_'];
    return starOk ? ['*', '*'] : html.italic;
  }
  if (!starOk) return html[type];
  return type === 'bold' ? ['**', '**'] : ['~~', '~~'];
}
