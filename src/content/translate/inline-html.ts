import type { ColorMark, InlineContent, InlineLink, Leaf, Mark, SimpleMarkType } from '../markdown/types.ts';

/*
 * The text of one paragraph (heading, table cell...) as a segment of HTML a translation
 * provider keeps the markup of (LibreTranslate and DeepL with HTML handling, a chat model
 * told so). Marks become tags (<b>, <i>...), links <a id>, and everything that must not
 * change (inline code, math, expressions, icons, emojis, inline images) an empty
 * placeholder element: none of their text, URLs or references is sent. Reading the
 * translated HTML back puts the original nodes in the placeholders' places.
 */

const MARK_TAGS: Record<Exclude<SimpleMarkType, 'code'>, string> = {
  bold: 'b',
  italic: 'i',
  strikethrough: 's',
  keyboard: 'kbd',
  superscript: 'sup',
  subscript: 'sub',
};
const TAG_MARKS: Record<string, SimpleMarkType> = { b: 'bold', strong: 'bold', i: 'italic', em: 'italic', s: 'strikethrough', del: 'strikethrough', kbd: 'keyboard', sup: 'superscript', sub: 'subscript' };

/** What an id in the segment's markup stands for. */
type Held =
  | { kind: 'void'; nodes: InlineContent[] }
  | { kind: 'link'; link: InlineLink }
  | { kind: 'color'; mark: ColorMark };

export interface InlineSegment {
  html: string;
  /** Rebuilds the inline nodes from a translation of `html`. */
  read(translated: string): InlineContent[];
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The text of a segment without its markup (titles, descriptions, word counts). */
export function textOfHtml(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ''));
}

export function inlineSegment(nodes: InlineContent[]): InlineSegment {
  const held = new Map<string, Held>();
  let next = 0;
  const hold = (prefix: string, value: Held) => {
    const id = `${prefix}${next++}`;
    held.set(id, value);
    return id;
  };
  const placeholder = (nodes: InlineContent[]) => `<span translate="no" id="${hold('v', { kind: 'void', nodes })}"></span>`;

  const leafHtml = (leaf: Leaf): string => {
    if (leaf.text === '') return '';
    if (leaf.marks.some((m) => m.type === 'code')) return placeholder([{ object: 'text', leaves: [leaf] }]);
    let html = escapeHtml(leaf.text);
    for (const mark of [...leaf.marks].reverse()) {
      if (mark.type === 'color') html = `<span id="${hold('c', { kind: 'color', mark })}">${html}</span>`;
      else {
        const tag = MARK_TAGS[mark.type as keyof typeof MARK_TAGS];
        if (tag) html = `<${tag}>${html}</${tag}>`;
      }
    }
    return html;
  };
  const nodeHtml = (node: InlineContent): string => {
    if (node.object === 'text') return node.leaves.map(leafHtml).join('');
    if (node.type === 'link') return `<a id="${hold('l', { kind: 'link', link: node })}">${node.nodes.map((n) => nodeHtml(n as InlineContent)).join('')}</a>`;
    return placeholder([node]);
  };
  const html = nodes.map(nodeHtml).join('');
  return { html, read: (translated) => readInlineHtml(translated, held) };
}

interface Frame {
  tag: string;
  mark?: Mark;
  link?: InlineLink;
  /** Where the frame's content goes (a link's own children). */
  out: InlineContent[];
}

function readInlineHtml(html: string, held: Map<string, Held>): InlineContent[] {
  const top: InlineContent[] = [];
  const stack: Frame[] = [];
  const used = new Set<string>();
  const out = () => stack.findLast((f) => f.link)?.out ?? top;
  const marks = (): Mark[] => {
    const seen = new Map<string, Mark>();
    for (const frame of stack) if (frame.mark) seen.set(frame.mark.type, frame.mark);
    return [...seen.values()];
  };
  const pushText = (text: string) => {
    if (text === '') return;
    const target = out();
    const leaf: Leaf = { object: 'leaf', text, marks: marks() };
    const last = target[target.length - 1];
    if (last?.object === 'text') {
      const prev = last.leaves[last.leaves.length - 1];
      if (prev && sameMarks(prev.marks, leaf.marks)) prev.text += text;
      else last.leaves.push(leaf);
    } else target.push({ object: 'text', leaves: [leaf] });
  };
  const pushNodes = (nodes: InlineContent[]) => {
    for (const node of nodes) {
      const target = out();
      if (node.object === 'text') {
        // Inline code keeps its own marks (and any outer ones the translation put around it).
        for (const leaf of node.leaves) {
          const copy: Leaf = { object: 'leaf', text: leaf.text, marks: mergeMarks(marks(), leaf.marks) };
          const last = target[target.length - 1];
          if (last?.object === 'text') last.leaves.push(copy);
          else target.push({ object: 'text', leaves: [copy] });
        }
      } else target.push(structuredClone(node));
    }
  };

  const tagPattern = /<(\/?)([a-zA-Z][\w-]*)((?:\s+[^\s>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>/g;
  let at = 0;
  for (const match of html.matchAll(tagPattern)) {
    pushText(decodeEntities(html.slice(at, match.index)));
    at = (match.index ?? 0) + match[0].length;
    const [, closing, rawTag, attributes, selfClosing] = match;
    const tag = rawTag.toLowerCase();
    if (closing) {
      const index = stack.findLastIndex((f) => f.tag === tag);
      if (index >= 0) closeFrom(index);
      continue;
    }
    const id = /\bid\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attributes ?? '');
    const name = id ? (id[1] ?? id[2] ?? id[3]) : undefined;
    const known = name !== undefined && !used.has(name) ? held.get(name) : undefined;
    if (known && name) {
      used.add(name);
      if (known.kind === 'void') pushNodes(known.nodes);
      else if (known.kind === 'link' && !selfClosing) {
        const link: InlineLink = { ...structuredClone(known.link), nodes: [] };
        out().push(link);
        stack.push({ tag, link, out: link.nodes as InlineContent[] });
        continue;
      } else if (known.kind === 'color' && !selfClosing) stack.push({ tag, mark: known.mark, out: out() });
      if (!selfClosing && known.kind === 'void') stack.push({ tag, out: out() });
      continue;
    }
    const mark = TAG_MARKS[tag];
    if (mark && !selfClosing) stack.push({ tag, mark: { object: 'mark', type: mark } as Mark, out: out() });
    else if (!selfClosing && tag !== 'br') stack.push({ tag, out: out() });
  }
  pushText(decodeEntities(html.slice(at)));
  stack.length = 0;

  // What the translation dropped is put back at the end: code, math or a link is never lost.
  for (const [name, value] of held) {
    if (used.has(name)) continue;
    if (value.kind === 'void') pushNodes(value.nodes);
    else if (value.kind === 'link') top.push(structuredClone(value.link));
  }
  for (const node of top) if (node.object === 'inline' && node.type === 'link' && node.nodes.length === 0) node.nodes.push({ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] });
  return top;

  function closeFrom(index: number) {
    stack.length = index;
  }
}


function sameMarks(a: Mark[], b: Mark[]): boolean {
  return a.length === b.length && a.every((m, i) => m.type === b[i].type && JSON.stringify(m) === JSON.stringify(b[i]));
}

function mergeMarks(outer: Mark[], own: Mark[]): Mark[] {
  const byType = new Map<string, Mark>();
  for (const m of [...outer, ...own]) byType.set(m.type, m);
  return [...byType.values()];
}
