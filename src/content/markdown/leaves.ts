/*
 * Text, leaves and marks: constructors and the one normal form both directions agree on.
 * A document read from markdown is always in this form, and the writer normalizes what it is
 * given the same way before writing, so writing and reading back gives the same nodes.
 */
import type { InlineContent, Leaf, Mark, ParagraphBlock, Text, TextAlignment, TextColor } from './types.ts';

/** Order of marks in a leaf; `code` last because a code span can hold no other markup. */
const MARK_ORDER: Record<Mark['type'], number> = {
  bold: 0,
  italic: 1,
  strikethrough: 2,
  color: 3,
  keyboard: 4,
  superscript: 5,
  subscript: 6,
  code: 7,
};

/** Marks that markdown writes with delimiters, which cannot start or end inside whitespace. */
const DELIMITED: ReadonlySet<Mark['type']> = new Set(['bold', 'italic', 'strikethrough']);

export const TEXT_COLORS: ReadonlySet<string> = new Set<TextColor>([
  'default', 'green', 'blue', 'red', 'orange', 'yellow', 'purple', 'pink', 'violet', 'cyan',
  '$primary', '$info', '$success', '$warning', '$danger', '$tint',
]);

export function mark(type: Exclude<Mark['type'], 'color'>): Mark {
  return { object: 'mark', type };
}

export function colorMark(text: TextColor, background: TextColor): Mark {
  return { object: 'mark', type: 'color', data: { text, background } };
}

export function leaf(text: string, marks: Mark[] = []): Leaf {
  return { object: 'leaf', text, marks };
}

export function textNode(leaves: Leaf[]): Text {
  return { object: 'text', leaves };
}

export function emptyText(): Text {
  return textNode([leaf('')]);
}

export function paragraph(nodes: InlineContent[], align?: TextAlignment): ParagraphBlock {
  return { object: 'block', type: 'paragraph', data: align ? { align } : {}, nodes };
}

export function emptyParagraph(): ParagraphBlock {
  return { object: 'block', type: 'paragraph', data: {}, nodes: [emptyText()] };
}

function markId(m: Mark): string {
  return m.type === 'color' ? `color:${m.data.text}:${m.data.background}` : m.type;
}

/** One mark per type (the innermost wins), in canonical order; colour marks that change nothing dropped. */
export function canonicalMarks(marks: Mark[]): Mark[] {
  const byType = new Map<Mark['type'], Mark>();
  for (const m of marks) {
    if (m.type === 'color' && m.data.text === 'default' && m.data.background === 'default') continue;
    byType.set(m.type, m);
  }
  return [...byType.values()].sort((a, b) => MARK_ORDER[a.type] - MARK_ORDER[b.type]);
}

export function sameMarks(a: Mark[], b: Mark[]): boolean {
  return a.length === b.length && a.every((m, i) => markId(m) === markId(b[i]));
}

export function hasMark(marks: Mark[], type: Mark['type']): boolean {
  return marks.some((m) => m.type === type);
}

/** The plain text of a text node. */
export function textOf(node: Text): string {
  return node.leaves.map((l) => l.text).join('');
}

/** True when the content is nothing but empty text. */
export function isEmptyContent(nodes: InlineContent[]): boolean {
  return nodes.every((n) => n.object === 'text' && textOf(n) === '');
}

type Char = { ch: string; marks: Mark[] };

/**
 * The normal form of inline content: adjacent texts and equal-marked leaves merged, marks in
 * canonical order, line breaks in code read as spaces (a code span has none), spaces around
 * hard breaks kept (GitBook writes `end. \` and `<br> next`), delimiter marks (bold, italic,
 * strikethrough) never starting or ending on whitespace, and, with `trim`, no whitespace at
 * either end. Empty content becomes one empty text.
 */
export function normalizeInlines(nodes: InlineContent[], options: { trim: boolean; keepLeadingSpaces?: boolean; keepTrailingSpaces?: boolean }): InlineContent[] {
  const merged: InlineContent[] = [];
  for (const node of nodes) {
    const last = merged[merged.length - 1];
    if (node.object === 'text' && last?.object === 'text') merged[merged.length - 1] = textNode([...last.leaves, ...node.leaves]);
    else merged.push(node);
  }
  const out: InlineContent[] = [];
  merged.forEach((node, index) => {
    if (node.object !== 'text') return out.push(node);
    const chars = toChars(node.leaves);
    for (const c of chars) if (c.ch === '\n' && isCode(c)) c.ch = ' ';
    if (options.trim && index === 0 && !options.keepLeadingSpaces) trimStart(chars);
    if (options.trim && index === merged.length - 1) {
      if (!options.keepTrailingSpaces) trimEnd(chars);
      // Kept trailing spaces are plain ones: marked whitespace at the end does not read back.
      else while (chars.length > 0 && isBlank(chars[chars.length - 1]) && (chars[chars.length - 1].marks.length > 0 || chars[chars.length - 1].ch === '\n')) chars.pop();
    }
    for (const type of DELIMITED) unmarkEdgeWhitespace(chars, type);
    const leaves = toLeaves(chars);
    if (leaves.length > 0) out.push(textNode(leaves));
  });
  return out.length === 0 ? [emptyText()] : out;
}

function toChars(leaves: Leaf[]): Char[] {
  const chars: Char[] = [];
  for (const l of leaves) {
    const marks = canonicalMarks(l.marks);
    for (const ch of l.text) chars.push({ ch, marks });
  }
  return chars;
}

function toLeaves(chars: Char[]): Leaf[] {
  const leaves: Leaf[] = [];
  for (const { ch, marks } of chars) {
    const last = leaves[leaves.length - 1];
    if (last && sameMarks(last.marks, marks)) last.text += ch;
    else leaves.push(leaf(ch, marks));
  }
  return leaves;
}

const isCode = (c: Char) => hasMark(c.marks, 'code');
/** Unicode whitespace; JavaScript's `\s` also matches U+FEFF, a format character GitBook keeps (`## Title\uFEFF <a id>`). */
const WHITESPACE = /(?!\uFEFF)\s/;
const isBlank = (c: Char) => WHITESPACE.test(c.ch) && !isCode(c);

function trimStart(chars: Char[]): void {
  // Leading line breaks stay (GitBook's `<p><br>Caption`, a paragraph of only `\`); spaces go.
  let n = 0;
  while (n < chars.length && isBlank(chars[n]) && chars[n].ch !== '\n') n++;
  chars.splice(0, n);
}

/** Trailing spaces go; a trailing hard break stays (GitBook's `line\` ending a paragraph), with the spaces before it. */
function trimEnd(chars: Char[]): void {
  let n = chars.length;
  while (n > 0 && isBlank(chars[n - 1]) && chars[n - 1].ch !== '\n') n--;
  chars.splice(n);
}

function unmarkEdgeWhitespace(chars: Char[], type: Mark['type']): void {
  let i = 0;
  while (i < chars.length) {
    if (!hasMark(chars[i].marks, type)) {
      i++;
      continue;
    }
    let end = i;
    while (end < chars.length && hasMark(chars[end].marks, type)) end++;
    for (let k = i; k < end && WHITESPACE.test(chars[k].ch); k++) chars[k] = unmark(chars[k], type);
    for (let k = end - 1; k >= i && WHITESPACE.test(chars[k].ch); k--) chars[k] = unmark(chars[k], type);
    i = end;
  }
}

function unmark(c: Char, type: Mark['type']): Char {
  return { ch: c.ch, marks: c.marks.filter((m) => m.type !== type) };
}
