import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument, type Block, type Document, type InlineContent, type Leaf, type Mark, type ParagraphBlock } from './index.ts';
import { assignKeys, normalizeDocument } from './normalize.ts';
import { documentSchemaErrors } from '../../../test/markdown-schema.ts';


/*
 * Documents built in code, with text full of markdown-significant characters, marks on
 * punctuation and whitespace, and blocks nested every way: writing one and reading it back
 * must give its normal form. A fixed-seed generator keeps the runs reproducible.
 */

function generator(seed: number) {
  let state = seed;
  const rand = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  return { rand, pick };
}

const CHARS = ['a', 'b', ' ', '*', '_', '"', '(', ')', '.', '1', '#', '-', '<', '>', '`', '$', '{', '%', '}', '|', '\\', '[', ']', '!', '&', ';', '~', 'x', '\n', ':', '+', '='];
const MARKS = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript'] as const;

const leaf = (text: string, marks: Mark[] = []): Leaf => ({ object: 'leaf', text, marks });
const para = (nodes: InlineContent[]): ParagraphBlock => ({ object: 'block', type: 'paragraph', data: {}, nodes });

function randomInlines(g: ReturnType<typeof generator>): InlineContent[] {
  const leaves: Leaf[] = [];
  for (let i = 0, n = 1 + Math.floor(g.rand() * 5); i < n; i++) {
    let text = '';
    for (let k = 0, len = 1 + Math.floor(g.rand() * 6); k < len; k++) text += g.pick(CHARS);
    leaves.push(leaf(text, MARKS.filter(() => g.rand() < 0.25).map((type) => ({ object: 'mark', type }))));
  }
  const nodes: InlineContent[] = [{ object: 'text', leaves }];
  if (g.rand() < 0.3) {
    const url = 'https://x.y/' + g.pick(CHARS.filter((c) => c !== '\n'));
    nodes.push({ object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'url', url } }, nodes: [{ object: 'text', leaves: [leaf('l' + g.pick(CHARS) + 'k', g.rand() < 0.5 ? [{ object: 'mark', type: 'bold' }] : [])] }] });
  }
  if (g.rand() < 0.3) nodes.push({ object: 'text', leaves: [leaf(g.pick(CHARS) + 'tail')] });
  return nodes;
}

function inlineContainer(g: ReturnType<typeof generator>, nodes: InlineContent[]): Block {
  const p = para(nodes);
  switch (g.pick(['paragraph', 'heading', 'cell', 'item', 'caption', 'summary'] as const)) {
    case 'heading':
      return { object: 'block', type: 'heading-2', data: {}, nodes };
    case 'item':
      return { object: 'block', type: 'list-unordered', data: {}, nodes: [{ object: 'block', type: 'list-item', data: {}, nodes: [p] }] };
    case 'cell':
      return table(p);
    case 'caption':
      return { object: 'block', type: 'images', isVoid: false, data: {}, nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'url', url: 'x.png' } }, fragments: [{ object: 'fragment', fragment: 'caption', nodes: [p] }] }] };
    case 'summary':
      return expandable(p, [para([{ object: 'text', leaves: [leaf('body')] }])]);
    default:
      return p;
  }
}

function table(cell: ParagraphBlock): Block {
  return {
    object: 'block', type: 'table', isVoid: true,
    data: { view: { type: 'grid', columns: ['c0'], hideHeader: false }, records: { r0: { orderIndex: 'a0', values: { c0: 'r0c0' } } }, definition: { c0: { id: 'c0', title: 'T', type: 'text', textAlignment: 'left' } } },
    fragments: [{ object: 'fragment', fragment: 'r0c0', nodes: [cell] }],
  };
}

function expandable(title: ParagraphBlock, body: Block[]): Block {
  return {
    object: 'block', type: 'expandable', isVoid: true, data: {},
    fragments: [
      { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [title] },
      { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: body },
    ],
  };
}

const WORDS = ['alpha', 'beta', '1. x', '# h', '- d', '> q', '{% hint %}', '<details>', '$$m$$', '***', '| p |', '```', '* s', '[ ] t'];

function randomBlocks(g: ReturnType<typeof generator>, depth: number): Block[] {
  return Array.from({ length: 1 + Math.floor(g.rand() * 3) }, () => randomBlock(g, depth));
}

function randomBlock(g: ReturnType<typeof generator>, depth: number): Block {
  const words = () => para([{ object: 'text', leaves: [leaf(g.pick(WORDS) + ' ' + g.pick(WORDS))] }]);
  const item = (checked?: boolean): Block => ({ object: 'block', type: 'list-item', data: checked === undefined ? {} : { checked }, nodes: randomBlocks(g, depth + 1) });
  const code = (): Block => ({
    object: 'block', type: 'code', data: g.rand() < 0.5 ? { syntax: 'js', title: 'a.js' } : {},
    nodes: [g.pick(['x', '', '```', '{% endhint %}', '  y']), 'z'].map((t) => ({ object: 'block', type: 'code-line', data: {}, nodes: [{ object: 'text', leaves: [leaf(t)] }] })),
  });
  const kinds = depth > 3 ? ['p', 'code'] : ['p', 'p', 'code', 'ul', 'ol', 'tasks', 'quote', 'hint', 'tabs', 'expandable', 'heading', 'math', 'divider', 'table', 'embed', 'stepper'];
  switch (g.pick(kinds)) {
    case 'code':
      return code();
    case 'ul':
      return { object: 'block', type: 'list-unordered', data: {}, nodes: [item(), item()] } as Block;
    case 'ol':
      return { object: 'block', type: 'list-ordered', data: g.rand() < 0.5 ? { start: 3 } : {}, nodes: [item(), item()] } as Block;
    case 'tasks':
      return { object: 'block', type: 'list-tasks', data: {}, nodes: [item(true), item(false)] } as Block;
    case 'quote':
      return { object: 'block', type: 'blockquote', data: {}, nodes: randomBlocks(g, depth + 1) };
    case 'hint':
      return { object: 'block', type: 'hint', data: { style: 'danger' }, nodes: randomBlocks(g, depth + 1) };
    case 'tabs':
      return { object: 'block', type: 'tabs', data: {}, nodes: ['A', 'B "q"'].map((title) => ({ object: 'block', type: 'tabs-item', data: { title }, nodes: randomBlocks(g, depth + 1) })) };
    case 'stepper':
      return { object: 'block', type: 'stepper', data: {}, nodes: [{ object: 'block', type: 'stepper-step', data: {}, nodes: randomBlocks(g, depth + 1) }] };
    case 'expandable':
      return expandable(words(), randomBlocks(g, depth + 1));
    case 'heading':
      return { object: 'block', type: 'heading-2', data: {}, nodes: [{ object: 'text', leaves: [leaf(g.pick(WORDS))] }] };
    case 'math':
      return { object: 'block', type: 'math', isVoid: true, data: { formula: 'a_1 * b' } };
    case 'divider':
      return { object: 'block', type: 'divider', isVoid: true, data: {} };
    case 'embed':
      return { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://v.io/1' } };
    case 'table':
      return table(words());
    default:
      return words();
  }
}

function roundTrip(document: Document): { expected: Document; actual: Document; markdown: string } {
  const markdown = documentToMarkdown(document);
  return { expected: assignKeys(normalizeDocument(document)), actual: markdownToDocument(markdown), markdown };
}

describe('writing then reading documents built in code', () => {
  it('keeps inline content: escapes, marks on punctuation and whitespace, links, in every container', () => {
    const g = generator(7);
    for (let n = 0; n < 400; n++) {
      const { expected, actual, markdown } = roundTrip({ object: 'document', data: {}, nodes: [inlineContainer(g, randomInlines(g))] });
      expect(actual, markdown).toEqual(expected);
    }
  });

  it('keeps block structure, nesting and container rules', { timeout: 120_000 }, () => {
    const g = generator(11);
    for (let n = 0; n < 150; n++) {
      const { expected, actual, markdown } = roundTrip({ object: 'document', data: {}, nodes: randomBlocks(g, 0) });
      expect(actual, markdown).toEqual(expected);
      expect(documentSchemaErrors(actual), markdown).toBeNull();
    }
  });
});
