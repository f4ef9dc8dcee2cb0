/*
 * GitBook JSON -> ProseMirror -> GitBook JSON is the identity: every block kind in every
 * container the dialect allows, every inline and mark, the engine's reading of its fixture
 * pages (keys and all), and content the editor does not know (kept opaque). Edits made
 * through ProseMirror transactions come back as GitBook JSON.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EditorState, NodeSelection, TextSelection } from 'prosemirror-state';
import { documentToMarkdown, markdownToDocument } from '../content/markdown/index.ts';
import type { Block, Document, InlineContent } from '../content/markdown/types.ts';
import { BLOCK_SAMPLES, INLINE_SAMPLES, MARK_SAMPLES, inContainer, leaf, matrix, paragraph, text } from '../../test/markdown-samples.ts';
import { canonical, fromProseMirror, fromProseMirrorJSON, toProseMirror, toProseMirrorJSON } from './convert.ts';
import { schema } from './schema.ts';
import { PANEL_SETTINGS, withCaptions } from './client/panel.ts';
import { tableCommands } from './client/panel-table.ts';
import { movableAt, moveBlock } from './client/menu.ts';

const here = dirname(fileURLToPath(import.meta.url));
const doc = (...nodes: Block[]): Document => ({ object: 'document', data: {}, nodes });
const roundTrip = (document: Document) => fromProseMirror(toProseMirror(document));
/** The document as the engine writes it to markdown and reads it back; keys aside. */
const withoutKeys = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(withoutKeys) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'key').map(([k, v]) => [k, withoutKeys(v)])) : value;
const throughMarkdown = (document: Document) => markdownToDocument(documentToMarkdown(document));

/** Names of the opaque nodes of a converted document: content the editor shows read-only. */
function opaqueIn(document: Document): string[] {
  const found: string[] = [];
  toProseMirror(document).descendants((node) => {
    if (node.type.name.startsWith('opaque')) found.push(JSON.stringify(node.attrs.json).slice(0, 80));
    node.marks.forEach((mark) => mark.type.name === 'opaque_mark' && found.push('mark'));
  });
  return found;
}

describe('editor document conversion', () => {
  it.each(Object.keys(BLOCK_SAMPLES))('round-trips the %s block, editable', (kind) => {
    const document = doc(BLOCK_SAMPLES[kind as keyof typeof BLOCK_SAMPLES]());
    expect(roundTrip(document)).toEqual(document);
    expect(opaqueIn(document)).toEqual([]);
  });

  it('round-trips every block kind in every container the dialect allows, editable', () => {
    const failures: string[] = [];
    for (const { kind, container } of matrix()) {
      const document = doc(...inContainer(container, [BLOCK_SAMPLES[kind]()]));
      if (!isDeepStrictEqual(roundTrip(document), document)) failures.push(`${kind} in ${container}: changed`);
      else if (opaqueIn(document).length > 0) failures.push(`${kind} in ${container}: opaque`);
    }
    expect(failures).toEqual([]);
    expect(matrix().length).toBeGreaterThan(100);
  });

  it.each(Object.keys(INLINE_SAMPLES))('round-trips the %s inline', (kind) => {
    const document = doc(paragraph(text(leaf('Before ')), INLINE_SAMPLES[kind]!(), text(leaf(' after.'))));
    expect(roundTrip(document)).toEqual(document);
    expect(opaqueIn(document)).toEqual([]);
  });

  it('round-trips mentions, emoji and a link holding an inline image', () => {
    const mention = { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'page', page: 'p1' }, text: 'Setup' } } as InlineContent;
    const emoji = { object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f600' } } as InlineContent;
    const image = { object: 'inline', type: 'inline-image', isVoid: true, data: { ref: { kind: 'url', url: 'https://x.io/i.png' }, alt: 'i' } };
    const link = { object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'page', page: 'p2' } }, nodes: [text(leaf('see ')), image, text(leaf('here', [{ object: 'mark', type: 'bold' }]))] } as InlineContent;
    const document = doc(paragraph(text(leaf('A ')), mention, emoji, link, text(leaf('.'))));
    expect(roundTrip(document)).toEqual(document);
    expect(opaqueIn(document)).toEqual([]);
  });

  it.each(Object.keys(MARK_SAMPLES))('round-trips the %s mark', (kind) => {
    const document = doc(paragraph(text(leaf('plain '), leaf('marked', [MARK_SAMPLES[kind]!()]), leaf(' plain'))));
    expect(roundTrip(document)).toEqual(document);
    expect(opaqueIn(document)).toEqual([]);
  });

  it('round-trips the engine reading of its fixture pages exactly, keys included', () => {
    const dir = join(here, '../content/markdown/fixtures');
    const files = readdirSync(dir).filter((name) => name.endsWith('.md'));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const document = markdownToDocument(readFileSync(join(dir, file), 'utf8'));
      expect(roundTrip(document), file).toEqual(document);
    }
  });

  it('round-trips the GitBook-written fixture space as the engine reads it, all editable, cards tables too', () => {
    const dir = join(here, '../../test/fixtures/markdown-expected');
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((name) => name.endsWith('.json'));
    expect(files.length).toBeGreaterThan(5);
    const opaque: string[] = [];
    let cards = 0;
    for (const file of files) {
      const stored = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { document?: Document };
      const document = (stored.document ?? stored) as Document;
      expect(roundTrip(document), file).toEqual(document);
      toProseMirror(document).descendants((node) => {
        if (node.type.name === 'table' && node.attrs.data.view.type === 'cards') cards += 1;
        if (node.type.name === 'opaque_block') opaque.push(`${node.attrs.json.type} ${node.attrs.json.data?.view?.type}`);
        else if (node.type.name.startsWith('opaque') || node.marks.some((mark) => mark.type.name === 'opaque_mark')) opaque.push(node.type.name);
      });
    }
    // Its cards tables (a hidden content-ref column of card targets) are edited as tables, as grids are.
    expect(opaque).toEqual([]);
    expect(cards).toBe(3);
  });

  it('keeps unknown blocks, inlines, marks and keys as they were', () => {
    const unknownBlock = { object: 'block', type: 'reusable-content', key: 'rc', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: 'r1' } } } as unknown as Block;
    const unknownInline = { object: 'inline', type: 'annotation', isVoid: false, data: { note: 'n' }, nodes: [text(leaf('annotated'))] } as unknown as InlineContent;
    const unknownMark = { object: 'mark', type: 'highlight', data: { tone: 'x' } } as never;
    const extraKeys = { object: 'block', type: 'hint', key: 'h1', data: { style: 'danger', icon: 'bolt', future: { deep: [1, 2] } }, extra: 'kept', nodes: [paragraph(text(leaf('Danger')))] } as unknown as Block;
    // A hint in a quote: the dialect does not allow it there, so it stays as it is, read-only.
    const misplaced = { object: 'block', type: 'blockquote', data: {}, nodes: [paragraph(text(leaf('q'))), { object: 'block', type: 'hint', data: { style: 'info' }, nodes: [paragraph(text(leaf('h')))] }] } as unknown as Block;
    const document = doc(unknownBlock, paragraph(text(leaf('x')), unknownInline, text(leaf('y', [unknownMark]))), extraKeys, misplaced);
    expect(roundTrip(document)).toEqual(document);
    const pm = toProseMirror(document);
    expect(pm.child(0).type.name).toBe('opaque_block');
    expect(pm.child(2).type.name).toBe('hint');
    expect(pm.child(3).type.name).toBe('blockquote');
    expect(pm.child(3).child(1).type.name).toBe('opaque_block');
    expect(opaqueIn(document)).toHaveLength(4);
  });

  it('keeps blocks whose shape it does not map exactly (cards with a number column, an expandable with three fragments)', () => {
    // A number column has no markdown form in the engine: kept as it is.
    const cards = { ...(BLOCK_SAMPLES.table() as unknown as { data: object }), key: 't' } as unknown as { data: { view: object; definition: object } };
    cards.data = { ...cards.data, view: { type: 'cards', columns: ['c0', 'c2'], cardSize: 'medium' }, definition: { ...cards.data.definition, c2: { id: 'c2', title: 'Stars', type: 'number' } } };
    const expandable = BLOCK_SAMPLES.expandable() as unknown as { fragments: object[] };
    expandable.fragments.push({ object: 'fragment', fragment: 'extra', nodes: [] });
    const document = doc(cards as unknown as Block, expandable as unknown as Block);
    expect(roundTrip(document)).toEqual(document);
    expect(opaqueIn(document)).toHaveLength(2);
  });

  it('keeps opaque only the inner block that does not come back, not the block around it', () => {
    const twiceBold = paragraph(text(leaf('twice', [{ object: 'mark', type: 'bold' }, { object: 'mark', type: 'bold' }])));
    const hint = { object: 'block', type: 'hint', data: { style: 'info' }, nodes: [paragraph(text(leaf('Fine.'))), twiceBold] } as unknown as Block;
    const document = doc(hint);
    expect(roundTrip(document)).toEqual(document);
    const pm = toProseMirror(document);
    expect(pm.child(0).type.name).toBe('hint');
    expect(pm.child(0).child(0).type.name).toBe('paragraph');
    expect(pm.child(0).child(1).type.name).toBe('opaque_block');
  });

  it('survives JSON form (what is stored and sent) both ways', () => {
    const document = doc(...Object.values(BLOCK_SAMPLES).map((sample) => sample()));
    const json = JSON.parse(JSON.stringify(toProseMirrorJSON(document)));
    expect(fromProseMirrorJSON(json)).toEqual(document);
  });

  it('an empty page is one empty paragraph in the editor and no blocks back', () => {
    const pm = toProseMirror(doc());
    expect(pm.childCount).toBe(1);
    expect(fromProseMirror(pm)).toEqual(doc());
  });

  it('brings edits back: typed text, a split block keeps its key once, a new table row gets ids', () => {
    const document = markdownToDocument('Hello world\n\n| a | b |\n| - | - |\n| 1 | 2 |\n');
    let state = EditorState.create({ doc: toProseMirror(document) });
    // Type at the end of "Hello", then split the paragraph after "Hello".
    state = state.apply(state.tr.insertText(' there', 6));
    state = state.apply(state.tr.split(6));
    let n = 0;
    const edited = fromProseMirror(state.doc, { newId: () => `new${n++}` });
    const [first, second] = edited.nodes as Array<{ key?: string; nodes: Array<{ leaves: Array<{ text: string }> }> }>;
    expect(first!.key).toBe('b0');
    expect(first!.nodes[0]!.leaves[0]!.text).toBe('Hello');
    expect(second!.key).toBeUndefined();
    expect(second!.nodes[0]!.leaves[0]!.text).toBe(' there world');

    // A new row after the first: a record with a fresh id, an order index after the first, cells with fragments.
    const table = state.doc.child(2);
    expect(table.type.name).toBe('table');
    let tablePos = 0;
    state.doc.forEach((child, offset) => {
      if (child === table) tablePos = offset;
    });
    const row = schema.nodes.table_row!.create(null, [0, 1].map(() => schema.nodes.table_cell!.create(null, schema.nodes.paragraph!.create(null, schema.text('new')))));
    state = state.apply(state.tr.insert(tablePos + table.nodeSize - 1, row));
    const withRow = fromProseMirror(state.doc, { newId: () => `new${n++}` });
    const tableBlock = withRow.nodes[2] as unknown as { data: { records: Record<string, { orderIndex: string; values: Record<string, string> }> }; fragments: Array<{ fragment: string }> };
    const records = Object.entries(tableBlock.data.records).sort(([, a], [, b]) => (a.orderIndex < b.orderIndex ? -1 : 1));
    expect(records).toHaveLength(2);
    expect(records[0]![0]).toBe('r0');
    expect(records[1]![0]).toMatch(/^new/);
    for (const name of Object.values(records[1]![1].values)) expect(tableBlock.fragments.some((f) => f.fragment === name)).toBe(true);
    // Read back by the engine: the new row is there.
    expect(canonical(roundTrip(withRow))).toBe(canonical(withRow));
  });

  describe('the blocks set by the block panel (alignment, image size and dark image, buttons, changelogs, drawings)', () => {
    const image = (data: object) => ({ object: 'block', type: 'image', isVoid: true, data, fragments: [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(text(leaf('Light and dark')))] }] });
    const button = (data: object) => ({ object: 'inline', type: 'button', isVoid: true, data }) as InlineContent;
    const edited = () =>
      doc(
        { object: 'block', type: 'paragraph', data: { align: 'center' }, nodes: [text(leaf('Centred'))] } as Block,
        { object: 'block', type: 'heading-2', data: { align: 'end', id: 'right' }, nodes: [text(leaf('Right'))] } as Block,
        { object: 'block', type: 'images', isVoid: false, data: { align: 'center', fullWidth: true, withFrame: true }, nodes: [image({ ref: { kind: 'url', url: 'https://x.io/light.png' }, refDark: { kind: 'file', file: 'dark1' }, alt: 'Logo', width: 320 })] } as unknown as Block,
        paragraph(
          text(leaf('Buttons: ')),
          button({ label: 'Find', kind: 'primary', icon: 'magnifying-glass', action: { action: 'search', query: 'install' } }),
          text(leaf(' ')),
          button({ label: 'Pick', kind: 'secondary', action: { action: 'select', slug: 'linux' } }),
          text(leaf(' ')),
          button({ label: 'Docs', kind: 'primary', icon: 'book', ref: { kind: 'page', page: 'p1' } }),
        ),
        { object: 'block', type: 'updates', data: { format: 'short' }, nodes: [{ object: 'block', type: 'update', data: { date: '2026-11-28T00:00:00.000Z' }, nodes: [paragraph(text(leaf('New.')))] }, { object: 'block', type: 'update', data: { date: '2026-10-01T00:00:00.000Z' }, nodes: [paragraph(text(leaf('Old.')))] }] } as unknown as Block,
        { object: 'block', type: 'drawing', isVoid: true, data: { ref: { kind: 'file', file: 'drawing2' } } } as unknown as Block,
      );


    it('round-trips them exactly, all editable, and the engine writes and reads them back the same', () => {
      const document = edited();
      expect(roundTrip(document)).toEqual(document);
      expect(opaqueIn(document)).toEqual([]);
      expect(canonical(withoutKeys(throughMarkdown(document)))).toBe(canonical(withoutKeys(document)));
    });

    it('what each panel control writes is what GitBook allows and the engine reads back', async () => {
      const source = markdownToDocument('A paragraph.\n\n## A heading\n\n![Shot](https://x.io/a.png)\n\nA <a href="https://x.io/go" class="button primary">Go</a> button.\n\n{% updates format="full" %}\n\n{% update date="2026-01-02" %}\nFirst.\n{% endupdate %}\n{% endupdates %}\n');
      let state = EditorState.create({ doc: toProseMirror(source) });
      const control = (type: string, label: string) => PANEL_SETTINGS[type]!.find((s) => s.label === label)!;
      const ctx = { ask: async () => ({ slug: 'mac', url: '', page: '' }), upload: async () => 'f1', chosenFile: () => null, pages: () => [], say: () => {} };
      /** Sets a control of the first node of `type`, as the panel does (one setNodeMarkup). */
      const apply = async (type: string, label: string, value: string | boolean) => {
        let at = -1;
        state.doc.descendants((node, pos) => {
          if (at < 0 && node.type.name === type) at = pos;
          return at < 0;
        });
        const node = state.doc.nodeAt(at)!;
        const data = await control(type, label).set(node.attrs.data as Record<string, unknown>, value, ctx);
        expect(data, `${type} ${label} ${String(value)}`).not.toBeNull();
        state = state.apply(withCaptions(state.tr.setNodeMarkup(at, undefined, { ...node.attrs, data }), at));
      };
      await apply('paragraph', 'Alignment', 'center');
      await apply('heading', 'Alignment', 'end');
      await apply('image', 'Width (px)', '240');
      await apply('images', 'Align', 'right');
      await apply('images', 'Full width', true);
      await apply('button', 'Icon', 'rocket');
      await apply('button', 'Action', 'select');
      await apply('updates', 'Date format', 'numeric');
      await apply('update', 'Date', '2026-03-04');
      await apply('update', 'Tags', 'fix, data-quality, fix');
      // Values a block cannot take are refused, not written.
      expect(await control('image', 'Width (px)').set({}, '-3', ctx)).toBeNull();
      expect(await control('update', 'Date').set({ date: 'x' }, 'soon', ctx)).toBeNull();
      expect(await control('button', 'Icon').set({}, 'not an icon!', ctx)).toBeNull();
      expect(await control('update', 'Tags').set({ date: 'x' }, 'Data Quality', ctx)).toBeNull();
      // No tags: no key; a tag of another space has no control and stays.
      expect(await control('update', 'Tags').set({ date: 'x', tags: [{ kind: 'tag', tag: 'a' }] }, ' ', ctx)).toEqual({ date: 'x' });
      expect(await control('update', 'Tags').set({ date: 'x', tags: [{ kind: 'tag', tag: 'a', space: 's2' }] }, 'b', ctx)).toEqual({ date: 'x', tags: [{ kind: 'tag', tag: 'a', space: 's2' }, { kind: 'tag', tag: 'b' }] });
      // Back to the left: no alignment at all, as GitBook and the engine write a plain paragraph.
      expect(control('paragraph', 'Alignment').set({ align: 'center' }, 'start', ctx)).toEqual({});

      const saved = fromProseMirror(state.doc);
      const nodes = saved.nodes as unknown as Array<{ type: string; data: Record<string, unknown>; nodes: Array<Record<string, unknown>> }>;
      expect(nodes.map((node) => node.type)).toEqual(['paragraph', 'heading-2', 'images', 'paragraph', 'updates']);
      expect(nodes[0]!.data).toEqual({ align: 'center' });
      expect(nodes[1]!.data).toMatchObject({ align: 'end' });
      expect(nodes[2]!.data).toEqual({ align: 'right', fullWidth: true });
      expect((nodes[2]!.nodes[0] as { data: object }).data).toMatchObject({ width: 240 });
      expect((nodes[3]!.nodes[1] as { data: object }).data).toEqual({ label: 'Go', kind: 'primary', icon: 'rocket', action: { action: 'select', slug: 'mac' } });
      expect(nodes[4]!.data).toEqual({ format: 'numeric' });
      expect((nodes[4]!.nodes[0] as { data: object }).data).toEqual({ date: '2026-03-04T00:00:00.000Z', tags: [{ kind: 'tag', tag: 'fix' }, { kind: 'tag', tag: 'data-quality' }] });
      const markdown = documentToMarkdown(saved);
      expect(markdown).toContain('<p align="center">A paragraph.</p>');
      expect(markdown).toContain('data-action="select" data-slug="mac" data-icon="rocket"');
      expect(markdown).toContain('{% update date="2026-03-04" tags="fix,data-quality" %}');
      expect(canonical(withoutKeys(throughMarkdown(saved)))).toBe(canonical(withoutKeys(saved)));
      // And the editor reads the saved document back exactly, editable.
      expect(roundTrip(saved)).toEqual(saved);
      expect(opaqueIn(saved)).toEqual([]);
    });
  });

  describe('cards tables and tables with content-ref or hidden columns', () => {
    const cell = (value: string) => [paragraph(text(leaf(value)))];
    const cards = (): Block =>
      ({
        object: 'block',
        type: 'table',
        key: 'cards',
        isVoid: true,
        data: {
          view: { type: 'cards', columns: ['c0', 'c1'], cardSize: 'large', targetDefinition: 'c2' },
          records: {
            r0: { orderIndex: 'a0', values: { c0: 'r0c0', c1: 'r0c1', c2: { kind: 'page', page: 'p1' } } },
            r1: { orderIndex: 'a1', values: { c0: 'r1c0', c1: 'r1c1', c2: null } },
            r2: { orderIndex: 'a2', values: { c0: 'r2c0' } },
          },
          definition: {
            c0: { id: 'c0', title: 'Title', type: 'text', textAlignment: 'left' },
            c1: { id: 'c1', title: 'Description', type: 'text', textAlignment: 'left' },
            c2: { id: 'c2', title: 'Target', type: 'content-ref' },
          },
        },
        fragments: [
          { object: 'fragment', fragment: 'r0c0', nodes: cell('Install') },
          { object: 'fragment', fragment: 'r0c1', nodes: cell('Set it up') },
          { object: 'fragment', fragment: 'r1c0', nodes: cell('Use') },
          { object: 'fragment', fragment: 'r1c1', nodes: cell('Day to day') },
          { object: 'fragment', fragment: 'r2c0', nodes: cell('More') },
        ],
      }) as unknown as Block;
    const gridWithRefs = (): Block => {
      const table = BLOCK_SAMPLES.table() as unknown as { data: { view: { columns: string[] }; definition: Record<string, object>; records: Record<string, { values: Record<string, unknown> }> } };
      table.data.definition.c2 = { id: 'c2', title: 'Link', type: 'content-ref' };
      table.data.definition.c3 = { id: 'c3', title: 'Notes', type: 'text', textAlignment: 'center' };
      table.data.view.columns = ['c0', 'c2', 'c1'];
      table.data.records.r0!.values.c2 = { kind: 'url', url: 'https://x.io' };
      return table as unknown as Block;
    };

    it('round-trip exactly and are editable: cards (a hidden target column, a null and a missing target), a grid with a content-ref and a hidden column', () => {
      const document = doc(cards(), gridWithRefs());
      expect(roundTrip(document)).toEqual(document);
      expect(opaqueIn(document)).toEqual([]);
      const pm = toProseMirror(document);
      const head = pm.child(0).child(0);
      expect([head.child(2).attrs.kind, head.child(2).attrs.hidden]).toEqual(['content-ref', true]);
      expect(pm.child(0).child(1).child(2).attrs.ref).toEqual({ kind: 'page', page: 'p1' });
      // The engine writes them as GitBook's HTML table; what it reads from that (its own ids, every
      // cell filled) the editor round-trips exactly too, and saves as the same markdown.
      const markdown = documentToMarkdown(document);
      expect(markdown).toContain('<table data-card-size="large" data-view="cards">');
      const engine = markdownToDocument(markdown);
      expect(roundTrip(engine)).toEqual(engine);
      expect(opaqueIn(engine)).toEqual([]);
      expect(documentToMarkdown(roundTrip(engine))).toBe(markdown);
    });

    it('a card added, its text typed and its target set; a card removed; a column hidden: what the engine reads back', () => {
      let state = EditorState.create({ doc: toProseMirror(doc(cards())) });
      const run = (command: (s: EditorState, d: (tr: import('prosemirror-state').Transaction) => void) => boolean) => {
        expect(command(state, (tr) => (state = state.apply(tr)))).toBe(true);
      };
      // The cursor in the first card's title, then a card after it.
      state = state.apply(state.tr.setSelection(TextSelection.near(state.doc.resolve(state.doc.child(0).child(0).nodeSize + 4))));
      run(tableCommands.addRow);
      state = state.apply(state.tr.insertText('Upgrade'));
      // Its target: select its reference cell, choose a page.
      let refPos = -1;
      state.doc.child(0).child(2).forEach((child, offset) => {
        if (child.type.name === 'table_ref_cell') refPos = 1 + state.doc.child(0).child(0).nodeSize + state.doc.child(0).child(1).nodeSize + 1 + offset;
      });
      state = state.apply(state.tr.setSelection(NodeSelection.create(state.doc, refPos)));
      run((s, d) => tableCommands.target(s, d, { kind: 'page', page: 'p9' }));
      // Remove the last card ("More"), hide the description column.
      const last = state.doc.child(0).lastChild!;
      state = state.apply(state.tr.setSelection(TextSelection.near(state.doc.resolve(state.doc.child(0).nodeSize - last.nodeSize + 3))));
      run(tableCommands.removeRow);
      state = state.apply(state.tr.setSelection(TextSelection.near(state.doc.resolve(state.doc.child(0).child(0).nodeSize + 4))));
      state = state.apply(state.tr.setSelection(TextSelection.near(state.doc.resolve(state.doc.child(0).child(0).nodeSize + state.doc.child(0).child(1).child(0).nodeSize + 4))));
      run((s, d) => tableCommands.column(s, d, { hidden: true }));

      let id = 0;
      const saved = fromProseMirror(state.doc, { newId: () => `n${id++}` });
      const table = saved.nodes[0] as unknown as { data: { view: { columns: string[]; targetDefinition: string; cardSize: string }; records: Record<string, { orderIndex: string; values: Record<string, unknown> }> }; fragments: Array<{ fragment: string; nodes: unknown[] }> };
      expect(table.data.view).toEqual({ type: 'cards', columns: ['c0'], cardSize: 'large', targetDefinition: 'c2' });
      const records = Object.values(table.data.records).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : 1));
      expect(records).toHaveLength(3);
      const titleOf = (record: { values: Record<string, unknown> }) => JSON.stringify(table.fragments.find((f) => f.fragment === record.values.c0)?.nodes).match(/"text":"([^"]*)"/)?.[1];
      expect(records.map(titleOf)).toEqual(['Install', 'Upgrade', 'Use']);
      expect(records[1]!.values.c2).toEqual({ kind: 'page', page: 'p9' });
      expect(records[2]!.values.c2).toBeNull();
      // The engine's HTML table of it reads back as the same cards, and is written the same again.
      const markdown = documentToMarkdown(saved);
      expect(markdown).toContain('data-view="cards"');
      expect(markdown).toContain('data-hidden');
      expect(documentToMarkdown(throughMarkdown(saved))).toBe(markdown);
      const reread = throughMarkdown(saved).nodes[0] as unknown as typeof table;
      expect(Object.values(reread.data.records).map((r) => r.values.c2)).toEqual(records.map((r) => r.values.c2 ?? null));
      expect(roundTrip(saved)).toEqual(saved);
      expect(opaqueIn(saved)).toEqual([]);
    });
  });

  describe('card covers, the card target column, grid or cards, column widths (panel controls)', () => {
    const withCover = (): Block => {
      const table = BLOCK_SAMPLES.table() as unknown as { key: string; data: { view: object; definition: Record<string, object>; records: Record<string, { values: Record<string, unknown> }> } };
      table.key = 'covers';
      table.data.view = { type: 'cards', columns: ['c0', 'c1'], cardSize: 'medium', targetDefinition: 'c2', coverDefinition: 'c3' };
      table.data.definition.c2 = { id: 'c2', title: '', type: 'content-ref' };
      table.data.definition.c3 = { id: 'c3', title: '', type: 'files' };
      table.data.records.r0!.values.c2 = { kind: 'page', page: 'p1' };
      table.data.records.r0!.values.c3 = ['F1'];
      return table as unknown as Block;
    };
    const widths = (): Block => {
      const table = BLOCK_SAMPLES.table() as unknown as { data: { view: Record<string, unknown> } };
      table.data.view = { ...table.data.view, columnWidths: { c0: 200, gone: 50 } };
      return table as unknown as Block;
    };
    type Run = (command: (s: EditorState, d: (tr: import('prosemirror-state').Transaction) => void) => boolean) => void;
    const editing = (document: Document, at: (doc: import('prosemirror-model').Node) => number): { run: Run; save: () => Document; state: () => EditorState } => {
      let state = EditorState.create({ doc: toProseMirror(document) });
      state = state.apply(state.tr.setSelection(NodeSelection.create(state.doc, at(state.doc))));
      return {
        run: (command) => expect(command(state, (tr) => (state = state.apply(tr)))).toBe(true),
        save: () => fromProseMirror(state.doc, { newId: () => 'new' }),
        state: () => state,
      };
    };
    /** The position of the first record's cell in column `c` of the first table. */
    const cellPos = (doc: import('prosemirror-model').Node, c: number) => {
      const table = doc.child(0);
      let pos = 1 + table.child(0).nodeSize + 1;
      for (let i = 0; i < c; i++) pos += table.child(1).child(i).nodeSize;
      return pos;
    };

    it('round-trip exactly and are editable: a cards table with a cover column (file ids), a grid with column widths', () => {
      const document = doc(withCover(), widths());
      expect(roundTrip(document)).toEqual(document);
      expect(opaqueIn(document)).toEqual([]);
      const pm = toProseMirror(document);
      expect(pm.child(0).child(1).child(3).attrs.files).toEqual(['F1']);
      expect(pm.child(0).child(0).child(3).attrs.kind).toBe('files');
      expect(pm.child(1).child(0).child(0).attrs.width).toBe(200);
    });

    it('sets, replaces and removes a card cover; the engine writes it and reads it back the same', () => {
      const edit = editing(doc(withCover()), (d) => cellPos(d, 3));
      edit.run((s, d) => tableCommands.cover(s, d, ['F2']));
      let table = edit.save().nodes[0] as unknown as { data: { records: Record<string, { values: Record<string, unknown> }> } };
      expect(table.data.records.r0!.values.c3).toEqual(['F2']);
      const markdown = documentToMarkdown(edit.save());
      expect(markdown).toContain('<th data-hidden data-card-cover data-type="files"></th>');
      expect(markdown).toContain('<a href="/files/F2">/files/F2</a>');
      edit.run((s, d) => tableCommands.cover(s, d, []));
      table = edit.save().nodes[0] as unknown as typeof table;
      expect(table.data.records.r0!.values.c3).toEqual([]);
      // Not a cell of a files column: nothing to do.
      const other = editing(doc(withCover()), (d) => cellPos(d, 2));
      expect(tableCommands.cover(other.state(), () => undefined, ['F2'])).toBe(false);
    });

    it('switches cards to a grid and back, chooses the target and cover columns, adds them when missing, sets a column width', () => {
      const edit = editing(doc(withCover()), (d) => cellPos(d, 3));
      edit.run(tableCommands.toggleCards);
      let view = (edit.save().nodes[0] as unknown as { data: { view: object } }).data.view;
      expect(view).toEqual({ type: 'grid', columns: ['c0', 'c1'], hideHeader: false });
      expect(documentToMarkdown(edit.save())).toMatch(/^<table><thead><tr><th>Flag<\/th>/);
      // A grid column's width, on the cursor's column.
      edit.run((s, d) => tableCommands.column(s, d, { width: 240 }));
      view = (edit.save().nodes[0] as unknown as { data: { view: object } }).data.view;
      expect(view).toEqual({ type: 'grid', columns: ['c0', 'c1'], hideHeader: false, columnWidths: { c3: 240 } });
      edit.run(tableCommands.toggleCards);
      view = (edit.save().nodes[0] as unknown as { data: { view: object } }).data.view;
      expect(view).toEqual({ type: 'cards', columns: ['c0', 'c1'], cardSize: 'medium', targetDefinition: 'c2', coverDefinition: 'c3' });
      edit.run((s, d) => tableCommands.view(s, d, (v) => ({ ...v, targetDefinition: undefined })));
      const saved = edit.save();
      expect(JSON.parse(JSON.stringify((saved.nodes[0] as unknown as { data: { view: object } }).data.view))).toEqual({ type: 'cards', columns: ['c0', 'c1'], cardSize: 'medium', coverDefinition: 'c3' });
      expect(documentToMarkdown(saved)).not.toContain('data-card-target');

      // Cards with neither: a target column and a cover column added, hidden, made the view's.
      const plain = BLOCK_SAMPLES.table() as unknown as { data: { view: object } };
      plain.data.view = { type: 'cards', columns: ['c0', 'c1'], cardSize: 'medium' };
      let state = EditorState.create({ doc: toProseMirror(doc(plain as unknown as Block)) });
      state = state.apply(state.tr.setSelection(TextSelection.near(state.doc.resolve(cellPos(state.doc, 0) + 2))));
      const apply = (command: (s: EditorState, d: (tr: import('prosemirror-state').Transaction) => void) => boolean) => expect(command(state, (tr) => (state = state.apply(tr)))).toBe(true);
      apply((s, d) => tableCommands.addKindColumn(s, d, 'content-ref'));
      apply((s, d) => tableCommands.addKindColumn(s, d, 'files'));
      const added = fromProseMirror(state.doc).nodes[0] as unknown as { data: { view: { targetDefinition: string; coverDefinition: string; columns: string[] }; definition: Record<string, { type: string }> } };
      expect(added.data.view.columns).toEqual(['c0', 'c1']);
      expect(added.data.definition[added.data.view.targetDefinition]!.type).toBe('content-ref');
      expect(added.data.definition[added.data.view.coverDefinition]!.type).toBe('files');
      const markdown = documentToMarkdown(fromProseMirror(state.doc));
      expect(markdown).toContain('<th data-hidden data-card-target data-type="content-ref">Target</th><th data-hidden data-card-cover data-type="files">Cover image</th>');
      expect(documentToMarkdown(throughMarkdown(fromProseMirror(state.doc)))).toBe(markdown);
    });
  });

  it('the block handle moves a block within its container: a list item in its list, a paragraph in a hint or a list item', () => {
    const document = markdownToDocument('* One\n* Two\n\n  Two more.\n* Three\n\n{% hint style="info" %}\nFirst.\n\nSecond.\n{% endhint %}\n\nAlone.\n');
    let state = EditorState.create({ doc: toProseMirror(document) });
    const at = (text: string) => {
      let found = -1;
      state.doc.descendants((node, pos) => {
        if (found < 0 && node.isText && node.text === text) found = pos;
      });
      return TextSelection.create(state.doc, found + 1);
    };
    const list = state.doc.child(0);
    const hint = state.doc.child(1);
    // "One" alone in its item: the item moves, within the list.
    state = state.apply(state.tr.setSelection(at('One')));
    expect(movableAt(state)).toEqual({ parentPos: 0, index: 0 });
    const moved = moveBlock(state, 0, 2, 0)!;
    expect(fromProseMirror(moved.doc).nodes[0]).toEqual({ ...document.nodes[0], nodes: [(document.nodes[0] as any).nodes[1], (document.nodes[0] as any).nodes[0], (document.nodes[0] as any).nodes[2]] });
    expect(fromProseMirror(moved.doc).nodes.slice(1)).toEqual(document.nodes.slice(1));
    // "Two more." has a sibling in its item: it moves within the item.
    state = state.apply(state.tr.setSelection(at('Two more.')));
    expect(movableAt(state)).toEqual({ parentPos: 1 + list.child(0).nodeSize, index: 1 });
    // A hint's second paragraph moves above the first; the blocks around stay.
    state = state.apply(state.tr.setSelection(at('Second.')));
    const hintPos = list.nodeSize;
    expect(movableAt(state)).toEqual({ parentPos: hintPos, index: 1 });
    const swapped = fromProseMirror(moveBlock(state, 1, 0, hintPos)!.doc).nodes[1] as any;
    expect(swapped).toEqual({ ...document.nodes[1], nodes: [(document.nodes[1] as any).nodes[1], (document.nodes[1] as any).nodes[0]] });
    expect(hint.childCount).toBe(2);
    // A top-level paragraph: the document.
    state = state.apply(state.tr.setSelection(at('Alone.')));
    expect(movableAt(state)).toEqual({ parentPos: -1, index: 2 });
    // Out of its container's range: nothing.
    expect(moveBlock(state, 1, 3, hintPos)).toBeNull();
  });

  it('a block moved by the block handle is the same block, keys and all, elsewhere in the page', () => {
    const document = markdownToDocument('First.\n\n{% hint style="info" %}\nHinted.\n{% endhint %}\n\n---\n\nLast.\n');
    const state = EditorState.create({ doc: toProseMirror(document) });
    const nodes = document.nodes;
    // The last paragraph to the top; the hint after the divider; the divider (an atom) first.
    expect(fromProseMirror(moveBlock(state, 3, 0)!.doc).nodes).toEqual([nodes[3], nodes[0], nodes[1], nodes[2]]);
    expect(fromProseMirror(moveBlock(state, 1, 3)!.doc).nodes).toEqual([nodes[0], nodes[2], nodes[1], nodes[3]]);
    const divider = moveBlock(state, 2, 0)!;
    expect(fromProseMirror(divider.doc).nodes).toEqual([nodes[2], nodes[0], nodes[1], nodes[3]]);
    expect(divider.selection.from).toBe(0);
    // Where it already stands: nothing to do.
    expect(moveBlock(state, 1, 1)).toBeNull();
    expect(moveBlock(state, 1, 2)).toBeNull();
    expect(moveBlock(state, 0, 9)).toBeNull();
  });
});
