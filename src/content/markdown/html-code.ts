/*
 * GitBook's `<pre><code>` <-> code blocks with marked text.
 *
 * A fence cannot hold bold or italic code, so GitBook writes such a code block as HTML:
 * `<pre class="language-bash"><code class="lang-bash"><strong>npm install
 * </strong>npm start
 * </code></pre>`. Each line ends with a newline that takes the marks of the line's last
 * character (hence `</strong>` after the line break). Reading accepts what the writer below
 * writes back byte for byte; anything else stays verbatim (the caller's concern).
 */
import { decodeEntities, splitHtml } from './syntax.ts';
import { canonicalMarks, leaf, mark, normalizeInlines, textNode } from './leaves.ts';
import type { CodeBlock, Leaf, Mark } from './types.ts';

const PRE = /^<pre(?: class="language-([^"<>]+)")?><code(?: class="lang-([^"<>]+)")?>([\s\S]*)<\/code><\/pre>$/;
const TAG_MARKS: Record<string, Exclude<Mark['type'], 'color'>> = { strong: 'bold', em: 'italic', s: 'strikethrough' };
const MARK_TAGS: Partial<Record<Mark['type'], string>> = { bold: 'strong', italic: 'em', strikethrough: 's' };

/** The code block a `<pre><code>` stands for, or null. */
export function readHtmlCode(html: string): CodeBlock | null {
  const match = PRE.exec(html);
  if (!match || (match[1] ?? null) !== (match[2] ?? null)) return null;
  const leaves: Leaf[] = [];
  const open: Array<Exclude<Mark['type'], 'color'>> = [];
  for (const part of splitHtml(match[3])) {
    if ('text' in part) {
      if (part.text.includes('<')) return null;
      leaves.push(leaf(decodeEntities(part.text), canonicalMarks(open.map((t) => mark(t)))));
      continue;
    }
    const type = TAG_MARKS[part.tag.name];
    if (!type || Object.keys(part.tag.attrs).length > 0) return null;
    if (part.tag.closing) {
      if (open[open.length - 1] !== type) return null;
      open.pop();
    } else open.push(type);
  }
  if (open.length > 0) return null;
  // Split into lines; the newline that ends each line belongs to it.
  const lines: Leaf[][] = [[]];
  for (const l of leaves) {
    l.text.split('\n').forEach((piece, i) => {
      if (i > 0) lines.push([]);
      if (piece !== '') lines[lines.length - 1].push(leaf(piece, l.marks));
    });
  }
  if (lines.length > 1 && lines[lines.length - 1].length === 0) lines.pop();
  const data: CodeBlock['data'] = match[1] ? { syntax: match[1] } : {};
  return {
    object: 'block',
    type: 'code',
    data,
    nodes: lines.map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [textNode(line.length > 0 ? (normalizeInlines([textNode(line)], { trim: false })[0] as { leaves: Leaf[] }).leaves : [leaf('')])] })),
  };
}

/** Whether a code block holds marked text, so that only HTML can hold it. */
export function codeNeedsHtml(block: CodeBlock): boolean {
  return block.nodes.some((line) => line.nodes.some((n) => n.object === 'text' && n.leaves.some((l) => l.marks.some((m) => MARK_TAGS[m.type]))));
}

/** The code block as GitBook writes it in HTML. */
export function writeHtmlCode(block: CodeBlock): string {
  const pieces: Leaf[] = [];
  for (const line of block.nodes) {
    const leaves = line.nodes.flatMap((n) => (n.object === 'text' ? n.leaves : [leaf(n.data.expression)]));
    const last = leaves.filter((l) => l.text !== '').pop();
    pieces.push(...leaves.filter((l) => l.text !== ''), leaf('\n', last?.marks ?? []));
  }
  let out = '';
  let current: string[] = [];
  for (const piece of pieces) {
    const tags = piece.marks.flatMap((m) => (MARK_TAGS[m.type] ? [MARK_TAGS[m.type]!] : []));
    let common = 0;
    while (common < current.length && common < tags.length && current[common] === tags[common]) common++;
    for (let i = current.length - 1; i >= common; i--) out += `</${current[i]}>`;
    for (let i = common; i < tags.length; i++) out += `<${tags[i]}>`;
    current = tags;
    out += piece.text.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;').replace(/>/g, '&#x3E;');
  }
  for (let i = current.length - 1; i >= 0; i--) out += `</${current[i]}>`;
  const syntax = block.data.syntax;
  return `<pre${syntax ? ` class="language-${syntax}"` : ''}><code${syntax ? ` class="lang-${syntax}"` : ''}>${out}</code></pre>`;
}
