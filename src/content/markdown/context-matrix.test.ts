/*
 * The context matrix: every block kind of GitBook's dialect in every container it may stand
 * in (dialect.ts), every inline kind and mark in every place inline content goes, round-trips
 * through markdown (read -> write -> read equal; write -> read -> write byte for byte) and
 * through GitBook JSON (a caller's document -> the same normal form). Then generated
 * documents obeying the model: written and read back, they equal the original's normal form,
 * and the second trip is byte-stable. Plus: the model's `schema` placements are exactly what
 * GitBook's published JSONDocument lists.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentSchemaErrors } from '../../../test/markdown-schema.ts';
import { BLOCK_SAMPLES, INLINE_SAMPLES, MARK_SAMPLES, inContainer, leaf, matrix, paragraph, text } from '../../../test/markdown-samples.ts';
import { CONTAINERS, DIALECT, allows, type Container, type ModelledBlock } from './dialect.ts';
import { documentToMarkdown, markdownToDocument } from './index.ts';
import { assignKeys, normalizeDocument } from './normalize.ts';
import { completeDocument } from './complete.ts';
import type { Block, Document, InlineContent, Mark } from './types.ts';

const documentOf = (nodes: Block[]): Document => ({ object: 'document', data: {}, nodes });
const normal = (document: Document) => assignKeys(normalizeDocument(structuredClone(document)));

/** Both round trips of a document the model allows; returns its markdown. */
function roundTrips(document: Document): string {
  const markdown = documentToMarkdown(structuredClone(document));
  const read = markdownToDocument(markdown);
  // Written then read: the document's normal form.
  expect(read, markdown).toEqual(normal(document));
  // Read then written: byte for byte; read again: the same document.
  expect(documentToMarkdown(read), markdown).toBe(markdown);
  expect(markdownToDocument(documentToMarkdown(read))).toEqual(read);
  // Through GitBook JSON, as an API caller sends it: the same markdown.
  expect(documentToMarkdown(completeDocument(JSON.parse(JSON.stringify(document))))).toBe(markdown);
  expect(documentSchemaErrors(read), markdown).toBeNull();
  return markdown;
}

/** The blocks of `type` anywhere in `nodes` (children, fragments). */
function find(nodes: unknown, type: string): unknown[] {
  if (!nodes || typeof nodes !== 'object') return [];
  if (Array.isArray(nodes)) return nodes.flatMap((n) => find(n, type));
  const node = nodes as { type?: string; nodes?: unknown; fragments?: unknown };
  return [...(node.type === type ? [node] : []), ...find(node.nodes, type), ...find(node.fragments, type)];
}

describe('the dialect model', () => {
  it('lists as `schema` exactly what GitBook\'s published JSONDocument allows in each container', () => {
    const spec = JSON.parse(readFileSync('node_modules/@gitbook/api/spec/openapi.json', 'utf8')) as { components: { schemas: Record<string, Record<string, unknown>> } };
    const schemas = spec.components.schemas;
    const typesOf = (schema: unknown, out = new Set<string>()): Set<string> => {
      if (!schema || typeof schema !== 'object') return out;
      const s = schema as { $ref?: string; oneOf?: unknown[]; anyOf?: unknown[]; allOf?: unknown[]; items?: unknown; properties?: { type?: { enum?: string[] } } };
      if (s.$ref) {
        const target = schemas[s.$ref.split('/').pop()!] as { properties?: { type?: { enum?: string[] } } };
        const enumTypes = target.properties?.type?.enum;
        if (enumTypes && !s.$ref.endsWith('Essentials') && !s.$ref.endsWith('TopLevels')) enumTypes.forEach((t) => out.add(t));
        else typesOf(target, out);
      }
      for (const list of [s.oneOf, s.anyOf, s.allOf]) list?.forEach((x) => typesOf(x, out));
      if (s.items) typesOf(s.items, out);
      return out;
    };
    const expandable = (schemas.DocumentBlockExpandable as { properties: { fragments: { items: { oneOf: unknown[] } } } }).properties.fragments.items.oneOf[1];
    const nodesOf: Record<Container, unknown> = {
      document: (schemas.JSONDocument as { properties: { nodes: unknown } }).properties.nodes,
      'list-item': (schemas.DocumentBlockListItem as { properties: { nodes: unknown } }).properties.nodes,
      blockquote: (schemas.DocumentBlockQuote as { properties: { nodes: unknown } }).properties.nodes,
      hint: (schemas.DocumentBlockHint as { properties: { nodes: unknown } }).properties.nodes,
      'expandable-body': (expandable as { allOf: Array<{ properties?: { nodes?: unknown } }> }).allOf[1].properties!.nodes,
      'tabs-item': (schemas.DocumentBlockTabsItem as { properties: { nodes: unknown } }).properties.nodes,
      'stepper-step': (schemas.DocumentBlockStepperStep as { properties: { nodes: unknown } }).properties.nodes,
      update: (schemas.DocumentBlockUpdate as { properties: { nodes: unknown } }).properties.nodes,
      column: (schemas.DocumentBlockColumn as { properties: { nodes: unknown } }).properties.nodes,
    };
    for (const container of CONTAINERS) {
      const inSpec = typesOf(nodesOf[container]);
      const modelled = (Object.keys(DIALECT) as ModelledBlock[]).filter((kind) => DIALECT[kind].containers[container] === 'schema');
      expect(modelled.sort(), container).toEqual([...inSpec].filter((t) => t in DIALECT).sort());
    }
  });
});

describe('every block kind in every container it may stand in', () => {
  for (const { kind, container } of matrix()) {
    it(`${kind} in ${container}`, () => {
      const document = documentOf([...inContainer(container, [BLOCK_SAMPLES[kind](), paragraph(text(leaf('After.')))])]);
      roundTrips(document);
      // Kept as the block it is, not flattened into paragraphs.
      expect(find(normal(document).nodes, kind).length).toBeGreaterThan(0);
    });
  }

  it('a block a container may not hold is turned into blocks it may, and that form round-trips', () => {
    for (const container of CONTAINERS) {
      for (const kind of Object.keys(DIALECT) as ModelledBlock[]) {
        if (allows(container, kind)) continue;
        roundTrips(documentOf(inContainer(container, [BLOCK_SAMPLES[kind]()])));
      }
    }
  });
});

/** The places inline content goes, each holding `nodes`. */
const INLINE_PLACES: Record<string, (nodes: InlineContent[]) => Block> = {
  paragraph: (nodes) => paragraph(...nodes),
  heading: (nodes) => ({ object: 'block', type: 'heading-2', data: {}, nodes }) as Block,
  'table cell': (nodes) => {
    const table = BLOCK_SAMPLES.table() as Extract<Block, { type: 'table' }>;
    table.fragments[1] = { ...table.fragments[1], nodes: [paragraph(...nodes)] };
    return table;
  },
  caption: (nodes) => {
    const images = BLOCK_SAMPLES.images() as Extract<Block, { type: 'images' }>;
    images.nodes[0].fragments = [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(...nodes)] }];
    return images;
  },
  summary: (nodes) => {
    const expandable = BLOCK_SAMPLES.expandable() as Extract<Block, { type: 'expandable' }>;
    expandable.fragments[0] = { ...expandable.fragments[0], nodes: [paragraph(...nodes)] };
    return expandable;
  },
  'list item': (nodes) => ({ object: 'block', type: 'list-unordered', data: {}, nodes: [{ object: 'block', type: 'list-item', data: {}, nodes: [paragraph(...nodes)] }] }) as Block,
  quote: (nodes) => ({ object: 'block', type: 'blockquote', data: {}, nodes: [paragraph(...nodes)] }) as Block,
};

describe('every inline kind and mark wherever inline content goes', () => {
  for (const [place, build] of Object.entries(INLINE_PLACES)) {
    for (const [kind, sample] of Object.entries(INLINE_SAMPLES)) {
      it(`${kind} in a ${place}`, () => {
        roundTrips(documentOf([build([text(leaf('Before ')), sample(), text(leaf(' after'))])]));
      });
    }
    for (const [kind, sample] of Object.entries(MARK_SAMPLES)) {
      it(`${kind} mark in a ${place}`, () => {
        roundTrips(documentOf([build([text(leaf('Before '), leaf('marked', [sample()]), leaf(' after'))])]));
      });
    }
  }
});

/*
 * Generated documents that obey the model: containers hold only what dialect.ts allows
 * there, texts are words with marks GitBook writes (no leading or trailing spaces in marks),
 * so that the normal form is the document itself.
 */
const WORDS = ['alpha', 'beta', 'x_y', 'a*b', '[c]', 'd|e', '<f>', 'g\\h', '1. i', '#j', '$k', 'l`m', 'n~o', '{% p %}', 'q!', '&r;'];
const MARK_SETS: Mark[][] = [[], [], [MARK_SAMPLES.bold()], [MARK_SAMPLES.italic()], [MARK_SAMPLES.code()], [MARK_SAMPLES.bold(), MARK_SAMPLES.italic()], [MARK_SAMPLES.strikethrough()], [MARK_SAMPLES.keyboard()], [MARK_SAMPLES.color()]];
const words = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
const inlineText = fc.array(fc.tuple(words, fc.constantFrom(...MARK_SETS)), { minLength: 1, maxLength: 3 }).map((parts): InlineContent =>
  text(...parts.flatMap(([value, marks], i) => [...(i > 0 ? [leaf(' ')] : []), leaf(value, marks)])),
);
const inlines = fc.array(fc.oneof({ weight: 5, arbitrary: inlineText }, { weight: 1, arbitrary: fc.constantFrom(...Object.values(INLINE_SAMPLES)).map((f) => f()) }), { minLength: 1, maxLength: 3 });

function blockIn(container: Container, depth: number): fc.Arbitrary<Block> {
  const kinds = (Object.keys(DIALECT) as ModelledBlock[]).filter((kind) => allows(container, kind));
  const leaves = kinds.filter((kind) => !['blockquote', 'hint', 'tabs', 'stepper', 'updates', 'columns', 'expandable', 'list-unordered', 'list-ordered', 'list-tasks'].includes(kind));
  const options: Array<fc.Arbitrary<Block>> = [
    ...leaves.filter((kind) => kind !== 'paragraph').map((kind) => fc.constant(kind).map((k) => BLOCK_SAMPLES[k]())),
    inlines.map((nodes) => paragraph(...nodes)),
    inlines.map((nodes) => paragraph(...nodes)),
  ];
  if (depth < 2) {
    for (const kind of kinds.filter((k) => !leaves.includes(k))) {
      const inner: Container = kind === 'blockquote' ? 'blockquote' : kind === 'hint' ? 'hint' : kind === 'tabs' ? 'tabs-item' : kind === 'stepper' ? 'stepper-step' : kind === 'updates' ? 'update' : kind === 'columns' ? 'column' : kind === 'expandable' ? 'expandable-body' : 'list-item';
      options.push(
        fc.array(blockIn(inner, depth + 1), { minLength: 1, maxLength: 2 }).map((children) => {
          const sample = BLOCK_SAMPLES[kind]() as Block & { nodes?: Array<{ nodes: Block[] }>; fragments?: Array<{ nodes: Block[] }> };
          if (kind === 'expandable') sample.fragments![1].nodes = children;
          else if (kind === 'blockquote' || kind === 'hint') (sample as { nodes: Block[] }).nodes = children;
          else sample.nodes![0].nodes = kind.startsWith('list') ? [paragraph(text(leaf('Item'))), ...children] : children;
          return sample as Block;
        }),
      );
    }
  }
  return fc.oneof(...options);
}

describe('generated documents that obey the model (fast-check)', () => {
  it('written and read back equal their normal form, and the second trip is byte-stable', { timeout: 300_000 }, () => {
    fc.assert(
      fc.property(fc.array(blockIn('document', 0), { minLength: 1, maxLength: 4 }), (nodes) => {
        const document = documentOf(nodes);
        const markdown = documentToMarkdown(structuredClone(document));
        const read = markdownToDocument(markdown);
        expect(read, markdown).toEqual(normal(document));
        expect(documentToMarkdown(read), markdown).toBe(markdown);
      }),
      { numRuns: Number(process.env.MARKDOWN_PROPERTY_RUNS ?? 150), seed: Number(process.env.MARKDOWN_PROPERTY_SEED ?? 20261127) },
    );
  });
});
