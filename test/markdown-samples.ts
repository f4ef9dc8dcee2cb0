/*
 * One sample of every block kind, inline kind and mark of GitBook's dialect
 * (src/content/markdown/dialect.ts), and a builder that stands a block in any container.
 * The context matrix (src/content/markdown/context-matrix.test.ts) and the site renderer's
 * test use them.
 */
import { CONTAINERS, DIALECT, allows, type Container, type ModelledBlock } from '../src/content/markdown/dialect.ts';
import { markupBlock } from '../src/content/markdown/types.ts';
import type { Block, InlineContent, Leaf, Mark, ParagraphBlock } from '../src/content/markdown/types.ts';

export const leaf = (text: string, marks: Mark[] = []): Leaf => ({ object: 'leaf', text, marks });
export const mark = (type: string, data?: object): Mark => ({ object: 'mark', type, ...(data ? { data } : {}) }) as Mark;
export const text = (...leaves: Leaf[]): InlineContent => ({ object: 'text', leaves });
export const paragraph = (...nodes: InlineContent[]): ParagraphBlock => ({ object: 'block', type: 'paragraph', data: {}, nodes });
const plain = (value: string) => paragraph(text(leaf(value)));
const block = (value: object) => value as Block;

/** A sample of each modelled block kind. */
export const BLOCK_SAMPLES: Record<ModelledBlock, () => Block> = {
  paragraph: () => paragraph(text(leaf('Some '), leaf('bold', [mark('bold')]), leaf(' text.'))),
  'heading-1': () => block({ object: 'block', type: 'heading-1', data: {}, nodes: [text(leaf('Title one'))] }),
  'heading-2': () => block({ object: 'block', type: 'heading-2', data: {}, nodes: [text(leaf('Title two'))] }),
  'heading-3': () => block({ object: 'block', type: 'heading-3', data: {}, nodes: [text(leaf('Title three'))] }),
  divider: () => block({ object: 'block', type: 'divider', isVoid: true, data: {} }),
  'list-unordered': () => block({ object: 'block', type: 'list-unordered', data: {}, nodes: [{ object: 'block', type: 'list-item', data: {}, nodes: [plain('One')] }] }),
  'list-ordered': () => block({ object: 'block', type: 'list-ordered', data: {}, nodes: [{ object: 'block', type: 'list-item', data: {}, nodes: [plain('First')] }] }),
  'list-tasks': () => block({ object: 'block', type: 'list-tasks', data: {}, nodes: [{ object: 'block', type: 'list-item', data: { checked: true }, nodes: [plain('Done')] }] }),
  blockquote: () => block({ object: 'block', type: 'blockquote', data: {}, nodes: [plain('Quoted.')] }),
  code: () =>
    block({
      object: 'block',
      type: 'code',
      data: { syntax: 'js', title: 'a "b".js' },
      nodes: ['let a = 1;', '  return a;'].map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [text(leaf(line))] })),
    }),
  hint: () => block({ object: 'block', type: 'hint', data: { style: 'warning' }, nodes: [plain('Careful.')] }),
  math: () => block({ object: 'block', type: 'math', isVoid: true, data: { formula: 'a^2 + b^2 = c^2' } }),
  images: () =>
    block({
      object: 'block',
      type: 'images',
      isVoid: false,
      data: {},
      nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'url', url: 'https://x.io/a.png' }, alt: 'Shot' }, fragments: [{ object: 'fragment', fragment: 'caption', nodes: [plain('A caption')] }] }],
    }),
  drawing: () => block({ object: 'block', type: 'drawing', isVoid: true, data: { ref: { kind: 'file', file: 'drawing1' } } }),
  file: () => block({ object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: 'file1' } }, fragments: [{ object: 'fragment', fragment: 'caption', nodes: [plain('The file')] }] }),
  embed: () => block({ object: 'block', type: 'embed', isVoid: true, data: { url: 'https://www.youtube.com/watch?v=abc' }, fragments: [{ object: 'fragment', fragment: 'caption', nodes: [plain('The video')] }] }),
  'content-ref': () => block({ object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'page', page: 'page1' } } }),
  expandable: () =>
    block({
      object: 'block',
      type: 'expandable',
      isVoid: true,
      data: {},
      fragments: [
        { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [plain('More')] },
        { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [plain('Hidden.')] },
      ],
    }),
  tabs: () => block({ object: 'block', type: 'tabs', data: {}, nodes: [{ object: 'block', type: 'tabs-item', data: { title: 'Linux' }, nodes: [plain('On Linux.')] }] }),
  stepper: () => block({ object: 'block', type: 'stepper', data: {}, nodes: [{ object: 'block', type: 'stepper-step', data: {}, nodes: [plain('Step one.')] }] }),
  updates: () => block({ object: 'block', type: 'updates', data: { format: 'full' }, nodes: [{ object: 'block', type: 'update', data: { date: '2025-01-02T00:00:00.000Z' }, nodes: [plain('Shipped.')] }] }),
  columns: () =>
    block({
      object: 'block',
      type: 'columns',
      isVoid: false,
      data: {},
      nodes: [
        { object: 'block', type: 'column', data: { width: { value: 50, unit: '%' } }, nodes: [plain('Left.')] },
        { object: 'block', type: 'column', data: { width: { value: 50, unit: '%' } }, nodes: [plain('Right.')] },
      ],
    }),
  table: () =>
    block({
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['c0', 'c1'], hideHeader: false },
        records: { r0: { orderIndex: 'a0', values: { c0: 'r0c0', c1: 'r0c1' } } },
        definition: { c0: { id: 'c0', title: 'Flag', type: 'text', textAlignment: 'left' }, c1: { id: 'c1', title: 'Default', type: 'text', textAlignment: 'right' } },
      },
      fragments: [
        { object: 'fragment', fragment: 'r0c0', nodes: [paragraph(text(leaf('-v', [mark('code')])))] },
        { object: 'fragment', fragment: 'r0c1', nodes: [plain('false')] },
      ],
    }),
  'openapi-operation': () => block({ object: 'block', type: 'openapi-operation', isVoid: true, data: { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pets', method: 'get' } }),
  integration: () => markupBlock('html', '<div class="note">Verbatim</div>'),
};

/** A sample of each inline kind (emoji and mentions aside: they need a page's title). */
export const INLINE_SAMPLES: Record<string, () => InlineContent> = {
  link: () => ({ object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'url', url: 'https://x.io/a' } }, nodes: [text(leaf('a link'))] }) as InlineContent,
  button: () => ({ object: 'inline', type: 'button', isVoid: true, data: { label: 'Go', kind: 'primary', ref: { kind: 'url', url: 'https://x.io/go' } } }) as InlineContent,
  'action button': () => ({ object: 'inline', type: 'button', isVoid: true, data: { label: 'Ask', kind: 'secondary', action: { action: 'ask', query: 'How "so"?' } } }) as InlineContent,
  'button without a link': () => ({ object: 'inline', type: 'button', isVoid: true, data: { label: 'Go', kind: 'primary' } }) as InlineContent,
  'inline-image': () => ({ object: 'inline', type: 'inline-image', isVoid: true, data: { ref: { kind: 'url', url: 'https://x.io/i.png' }, alt: 'icon', size: 'line' } }) as InlineContent,
  'inline-math': () => ({ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'x^2' } }) as InlineContent,
  expression: () => ({ object: 'inline', type: 'expression', isVoid: true, data: { expression: 'space.vars.version' } }) as InlineContent,
  icon: () => ({ object: 'inline', type: 'icon', isVoid: true, data: { icon: 'rocket' } }) as InlineContent,
};

export const MARK_SAMPLES: Record<string, () => Mark> = {
  bold: () => mark('bold'),
  italic: () => mark('italic'),
  strikethrough: () => mark('strikethrough'),
  code: () => mark('code'),
  keyboard: () => mark('keyboard'),
  superscript: () => mark('superscript'),
  subscript: () => mark('subscript'),
  color: () => mark('color', { text: 'red', background: 'default' }),
};

/** `blocks` standing in `container`, as one top-level block (or the blocks themselves at the top level). */
export function inContainer(container: Container, blocks: Block[]): Block[] {
  switch (container) {
    case 'document':
      return blocks;
    case 'list-item':
      return [block({ object: 'block', type: 'list-unordered', data: {}, nodes: [{ object: 'block', type: 'list-item', data: {}, nodes: [plain('Item'), ...blocks] }] })];
    case 'blockquote':
      return [block({ object: 'block', type: 'blockquote', data: {}, nodes: blocks })];
    case 'hint':
      return [block({ object: 'block', type: 'hint', data: { style: 'info' }, nodes: blocks })];
    case 'expandable-body':
      return [
        block({
          object: 'block',
          type: 'expandable',
          isVoid: true,
          data: {},
          fragments: [
            { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [plain('Details')] },
            { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: blocks },
          ],
        }),
      ];
    case 'tabs-item':
      return [block({ object: 'block', type: 'tabs', data: {}, nodes: [{ object: 'block', type: 'tabs-item', data: { title: 'Tab' }, nodes: blocks }] })];
    case 'stepper-step':
      return [block({ object: 'block', type: 'stepper', data: {}, nodes: [{ object: 'block', type: 'stepper-step', data: {}, nodes: blocks }] })];
    case 'update':
      return [block({ object: 'block', type: 'updates', data: { format: 'full' }, nodes: [{ object: 'block', type: 'update', data: { date: '2025-03-04T00:00:00.000Z' }, nodes: blocks }] })];
    case 'column':
      return [block({ object: 'block', type: 'columns', isVoid: false, data: {}, nodes: [{ object: 'block', type: 'column', data: {}, nodes: blocks }] })];
  }
}

/** Every (block kind, container) pair the dialect allows. */
export function matrix(): Array<{ kind: ModelledBlock; container: Container }> {
  return (Object.keys(DIALECT) as ModelledBlock[]).flatMap((kind) => CONTAINERS.filter((container) => allows(container, kind)).map((container) => ({ kind, container })));
}
