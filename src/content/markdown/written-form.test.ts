/*
 * Keeping the written form (written-form.ts): a page written in forms GitBook's engine
 * accepts but does not write (by hand, or by an older GitBook) writes back byte for byte
 * while untouched; an edited block is written in the canonical form; a kept form never
 * changes what the page means. Examples are made up.
 */
import { describe, expect, it } from 'vitest';
import { documentSchemaErrors } from '../../../test/markdown-schema.ts';
import { documentToMarkdown, markdownToDocument, normalizeMarkdown, readPageMarkdown, writePageMarkdown } from './index.ts';
import { PAGE_HEADING_OFFSET } from './page.ts';
import { normalizeDocument } from './normalize.ts';
import { runFingerprint } from './written-fingerprint.ts';
import type { HeadingBlock } from './types.ts';
import type { Block, Document, ListItemBlock, ParagraphBlock, WrittenForm } from './types.ts';

const HAND_WRITTEN = [
  'Set up the *widget* before __anything__ else.',
  '',
  '- first step',
  '- second step',
  '',
  'Options',
  '-------',
  '',
  '|Name|Default|',
  '|:--|--|',
  '|size|10|',
  '',
  'Costs \\(in euros\\) apply, (see below).',
  '',
  '***',
  '',
  'A canonical paragraph.',
  '',
].join('\n');

/** The document as read, without what is kept of its written form. */
const withoutForms = (document: Document): Block[] => normalizeDocument({ ...document, data: {} }).nodes;
const canonicalNodes = (markdown: string) => withoutForms(markdownToDocument(markdown, { headingOffset: PAGE_HEADING_OFFSET }));
const strip = (value: unknown) => JSON.parse(JSON.stringify(value, (name, v) => (name === 'key' ? undefined : v)));

function paragraphText(block: Block): string {
  return (block as ParagraphBlock).nodes.map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : '')).join('');
}

describe('keeping the written form of a page', () => {
  it('writes an untouched hand-written page back byte for byte, meaning what the canonical reading means', () => {
    const { document } = readPageMarkdown(HAND_WRITTEN);
    expect(writePageMarkdown(document)).toBe(HAND_WRITTEN);
    expect(documentSchemaErrors(document)).toBeNull();
    // Kept forms change nothing the document says: its blocks are the canonical reading's.
    expect(strip(document.nodes)).toEqual(strip(canonicalNodes(HAND_WRITTEN)));
    // Only the blocks written differently are kept, each with the source lines it was read from.
    expect(document.data.writtenForms?.map((f) => f.markdown)).toEqual([
      'Set up the *widget* before __anything__ else.',
      '- first step\n- second step',
      'Options\n-------',
      '|Name|Default|\n|:--|--|\n|size|10|',
      'Costs \\(in euros\\) apply, (see below).',
    ]);
    // Stable: read again, the same document and the same text.
    const again = readPageMarkdown(writePageMarkdown(document)).document;
    expect(again).toEqual(document);
  });

  it('writes an edited block in the canonical form and keeps the others as written; a list keeps its style', () => {
    const { document } = readPageMarkdown(HAND_WRITTEN);
    setText(document.nodes[0], 'Set up the gadget first.');
    const list = document.nodes[1] as Extract<Block, { type: 'list-unordered' }>;
    const item = list.nodes[0].nodes[0] as ParagraphBlock;
    item.nodes = [{ object: 'text', leaves: [{ object: 'leaf', text: 'first step, edited', marks: [] }] }];
    const written = writePageMarkdown(document);
    // The paragraph canonically; the list's edited item in the list's `-` bullets.
    expect(written).toBe(HAND_WRITTEN.replace('Set up the *widget* before __anything__ else.', 'Set up the gadget first.').replace('- first step\n- second step', '- first step, edited\n- second step'));
    // Once the document is normalized (stored), the list's form is the one it is now written in,
    // with each item's source, so the next edit keeps the untouched items alike.
    expect(normalizeDocument(document).data.writtenForms?.map((f) => f.markdown)).toContain('- first step, edited\n- second step');
    expect(writePageMarkdown(normalizeDocument(document))).toBe(written);
  });

  it('writes a removed, moved or duplicated block by its content, wherever it stands', () => {
    const { document } = readPageMarkdown(HAND_WRITTEN);
    const [intro, list, ...rest] = document.nodes;
    const moved = { ...document, nodes: [list, intro, ...rest.slice(0, 2)] };
    expect(writePageMarkdown(moved)).toBe(
      ['- first step\n- second step', 'Set up the *widget* before __anything__ else.', 'Options\n-------', '|Name|Default|\n|:--|--|\n|size|10|', ''].join('\n\n').trimEnd() + '\n',
    );
  });

  it('does not write a kept list next to a list of the same kind, which it would join', () => {
    const { document } = readPageMarkdown('- a\n- b\n\nText.\n');
    const second: Block = { ...(document.nodes[0] as Block) };
    const joined = { ...document, nodes: [document.nodes[0], second] };
    const markdown = writePageMarkdown(joined);
    // The first keeps its `-`; the second, written after it with the same `-`, would join it: it takes the other marker.
    expect(markdown).toBe('- a\n- b\n\n* a\n* b\n');
    expect(strip(readPageMarkdown(markdown).document.nodes)).toEqual(strip(withoutForms(joined)));
  });

  it('ignores a kept form that does not read as its blocks (a caller can write any data)', () => {
    const { document } = readPageMarkdown('Hello *there*.\n');
    const forged: Document = {
      ...document,
      data: { writtenForms: [{ nodes: 1, blocks: runFingerprint(document.nodes), markdown: 'Something **else** entirely.' }] },
    };
    expect(writePageMarkdown(forged)).toBe('Hello _there_.\n');
    // Malformed entries are dropped, never written.
    const malformed = { ...document, data: { writtenForms: [{ nodes: 'x', blocks: 1, markdown: null }] } } as unknown as Document;
    expect(normalizeDocument(malformed).data).toEqual({});
  });

  it('matches blocks whatever the order of their properties (jsonb reorders them)', () => {
    const { document } = readPageMarkdown(HAND_WRITTEN);
    const reorder = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(reorder) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reorder(v)])) : value;
    expect(writePageMarkdown(reorder(document) as Document)).toBe(HAND_WRITTEN);
  });

  it('keeps the form of a run of blocks the source writes together', () => {
    // A link reference and its definition: the paragraph reads as a link only with the definition.
    const source = 'See [the guide][guide] first.\n\n[guide]: https://example.com/guide\n\nAfter.\n';
    const { document } = readPageMarkdown(source);
    expect(writePageMarkdown(document)).toBe(source);
    expect(strip(document.nodes)).toEqual(strip(canonicalNodes(source)));
  });

  it('leaves markdown that is not a page canonical (comments, templates, merges)', () => {
    expect(normalizeMarkdown('- a\n- b\n')).toBe('* a\n* b\n');
    expect(markdownToDocument('- a\n').data).toEqual({});
    const kept = markdownToDocument('- a\n', { keepWrittenForm: true });
    expect(documentToMarkdown(kept)).toBe('- a\n');
    expect(paragraphText((kept.nodes[0] as Extract<Block, { type: 'list-unordered' }>).nodes[0].nodes[0])).toBe('a');
  });
});

/** Separators GitBook's canonical writing does not use: a heading with its paragraph on the next line, two blank lines for one, four where three hold an empty paragraph. */
const SEPARATED = [
  '## Install',
  'Run the installer once.',
  '',
  '',
  '### Options',
  '',
  'Pick a size.',
  '',
  '',
  '',
  '',
  'After an empty paragraph.',
  '',
  '## Usage',
  'Start it.',
  '',
].join('\n');

const setText = (block: Block, text: string) => {
  (block as ParagraphBlock | HeadingBlock).nodes = [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }];
};

describe('a block opening with U+FEFF mid-page', () => {
  // A byte order mark pasted into the middle of a page is text (GitBook keeps it); reading a
  // kept form on its own must not take it for the mark opening a file.
  it('keeps its written form, and its meaning, when written back', () => {
    const source = 'Intro.\n\n\uFEFFPhoto credit: someone\\\n\n\nNext paragraph.\n';
    const { document } = readPageMarkdown(source);
    expect(writePageMarkdown(document)).toBe(source);
    expect(readPageMarkdown(writePageMarkdown(document)).document).toEqual(document);
    const text = (document.nodes[1] as ParagraphBlock).nodes.map((n) => ('leaves' in n ? n.leaves.map((l) => l.text).join('') : '')).join('');
    expect(text.startsWith('\uFEFF')).toBe(true);
  });
});

describe('a fence left open at the page\'s end', () => {
  it('is kept as written, its trailing blank lines (its content, GFM) included, and stays so', () => {
    for (const markdown of ['Install it.\n\n```bash\napt install kiln\n\n', 'Install it.\n\n```json\n\n\n']) {
      const page = readPageMarkdown(markdown);
      const written = writePageMarkdown(page.document, page.title);
      expect(written).toBe(markdown);
      const again = readPageMarkdown(written);
      expect(writePageMarkdown(again.document, again.title)).toBe(markdown);
    }
  });

  it('is kept when it holds a line like a link definition (`[a]: url`), which is code, not a definition', () => {
    const markdown = 'Install it.\n\n```shell\nbrew install kiln\n[kiln]: https://kiln.example\n';
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
  });

  it('never takes in a block added after it: the fence is then written closed', () => {
    for (const markdown of ['Install it.\n\n```bash\napt install kiln\n', 'Install it.\n\n```bash\napt install kiln\n\n']) {
      const page = readPageMarkdown(markdown);
      const added: Block = { object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Then fire it.', marks: [] }] }] } as Block;
      page.document.nodes.push(added);
      const written = writePageMarkdown(page.document, page.title);
      expect(markdownToDocument(written).nodes.map((b) => b.type)).toEqual(['paragraph', 'code', 'paragraph']);
      expect(written).toMatch(/```\n\nThen fire it\.\n$/);
    }
  });
});

describe('blocks written on adjacent lines', () => {
  it('keeps a fence holding fence lines and the indented code right under it as written', () => {
    const markdown = 'Build it.\n\n```php\n```php\n```\n    Then see the advanced section.\n';
    const page = readPageMarkdown(markdown);
    expect(page.document.nodes.map((b) => b.type)).toEqual(['paragraph', 'code', 'code']);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
  });

  it('keeps two hints written on one line where they meet (`{% endhint %}{% hint %}`), the second in a form of its own', () => {
    const markdown = 'Lamps.\n\n{% hint style="info" %}\nTrim the wick.\n{% endhint %}{% hint style="success" %}\n**Tip:** see **[the log](https://lamps.example/log)** daily.\n{% endhint %}\n\nDone.\n';
    const page = readPageMarkdown(markdown);
    expect(page.document.nodes.map((b) => b.type)).toEqual(['paragraph', 'hint', 'hint', 'paragraph']);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
    // Edited, the second hint is written in GitBook's form, on lines of its own.
    const edited = structuredClone(page.document);
    ((edited.nodes[2] as { nodes: ParagraphBlock[] }).nodes[0].nodes[0] as { leaves: { text: string }[] }).leaves[0].text = 'Note:';
    expect(writePageMarkdown(edited, page.title)).toContain('{% endhint %}\n\n{% hint style="success" %}\n**Note:** see [**the log**](https://lamps.example/log) daily.\n');
  });
});

describe('a page of LF lines with some ending CR', () => {
  it('keeps a lone CR line ending inside a paragraph and a CR LF blank line between blocks', () => {
    for (const markdown of ['The vault holds it and\r&#x20;keeps it.\n\n## Keys\n', '* Seal the vault.\n\r\n#### **Keys**\n']) {
      const page = readPageMarkdown(markdown);
      expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
    }
  });
});

describe('keeping the separators between top-level blocks', () => {
  it('writes the blank lines a page put between its blocks back as read, meaning what the canonical reading means', () => {
    const { document } = readPageMarkdown(SEPARATED);
    expect(writePageMarkdown(document)).toBe(SEPARATED);
    expect(documentSchemaErrors(document)).toBeNull();
    expect(strip(document.nodes)).toEqual(strip(canonicalNodes(SEPARATED)));
    expect(document.data.writtenForms).toBeUndefined();
    expect(document.data.writtenSeparators?.map((f) => [f.nodes, f.separator])).toEqual([
      [2, '\n'],
      [2, '\n\n\n'],
      [3, '\n\n\n\n\n'],
      [2, '\n'],
    ]);
    // Stable: read again, the same document and the same text.
    const again = readPageMarkdown(writePageMarkdown(document)).document;
    expect(again).toEqual(document);
    expect(writePageMarkdown(again)).toBe(SEPARATED);
  });

  it('writes the separators next to an edited block canonically and keeps the others', () => {
    const { document } = readPageMarkdown(SEPARATED);
    setText(document.nodes[1], 'Run the new installer.');
    const written = writePageMarkdown(document);
    expect(written).toBe(SEPARATED.replace('## Install\nRun the installer once.\n\n\n', '## Install\n\nRun the new installer.\n\n'));
    // The edited block's separators are forgotten once the document is normalized (stored), the others stay.
    const stored = normalizeDocument(document);
    expect(stored.data.writtenSeparators?.map((f) => f.separator)).toEqual(['\n\n\n\n\n', '\n']);
    const again = readPageMarkdown(written).document;
    expect(writePageMarkdown(again)).toBe(written);
    expect(strip(again.nodes)).toEqual(strip(normalizeDocument({ ...document, data: {} }).nodes));
  });

  it('keeps a separator between a kept written form and its neighbour, and forgets it when a block comes between', () => {
    const source = 'Options\n-------\nPick a size.\n\n\n- small\n- large\n';
    const { document } = readPageMarkdown(source);
    expect(writePageMarkdown(document)).toBe(source);
    expect(document.data.writtenForms?.map((f) => f.markdown)).toEqual(['Options\n-------', '- small\n- large']);
    expect(document.data.writtenSeparators?.map((f) => f.separator)).toEqual(['\n', '\n\n\n']);
    expect(readPageMarkdown(writePageMarkdown(document)).document).toEqual(document);
    // A block inserted between the heading and its paragraph: both are written apart, canonically separated.
    const inserted = { ...document, nodes: [document.nodes[0], { object: 'block', type: 'divider', data: {} } as Block, ...document.nodes.slice(1)] };
    expect(writePageMarkdown(inserted)).toBe('Options\n-------\n\n***\n\nPick a size.\n\n\n- small\n- large\n');
  });

  it('keeps the blank lines a list puts between its items as the list\'s written form', () => {
    const source = 'Steps:\n\n1. Download it.\n\n2. Run it.\n   * quietly\n\n3. Done.\n';
    const { document } = readPageMarkdown(source);
    expect(writePageMarkdown(document)).toBe(source);
    expect(strip(document.nodes)).toEqual(strip(canonicalNodes(source)));
    const list = document.nodes[1] as Extract<Block, { type: 'list-ordered' }>;
    setText(list.nodes[2].nodes[0], 'Finished.');
    // The list keeps its spacing; only the edited item is written anew.
    expect(writePageMarkdown(document)).toBe('Steps:\n\n1. Download it.\n\n2. Run it.\n   * quietly\n\n3. Finished.\n');
  });

  it('keeps two adjacent lists written with their own markers, which keeps them two lists', () => {
    const source = 'Flags:\n- one\n- two\n\n\n* three\n\nAfter.\n';
    const { document } = readPageMarkdown(source);
    expect(writePageMarkdown(document)).toBe(source);
    expect(document.data.writtenForms?.map((f) => f.markdown)).toEqual(['- one\n- two', '* three']);
    expect(strip(document.nodes)).toEqual(strip(canonicalNodes(source)));
    expect(readPageMarkdown(writePageMarkdown(document)).document).toEqual(document);
  });

  it('ignores a separator that would change what the page says (a caller can write any data)', () => {
    const { document } = readPageMarkdown('First paragraph.\n\nSecond paragraph.\n\n## Heading\n\nText.\n');
    const separator = (from: number, separator: string) => ({ nodes: 2, blocks: runFingerprint(document.nodes.slice(from, from + 2)), separator });
    const forged: Document = {
      ...document,
      // No blank line joins two paragraphs into one; three blank lines add an empty paragraph.
      data: { writtenSeparators: [separator(0, '\n'), separator(1, '\n\n\n\n'), separator(2, '\n')] },
    };
    expect(writePageMarkdown(forged)).toBe('First paragraph.\n\nSecond paragraph.\n\n## Heading\nText.\n');
    // Malformed entries are dropped, never written.
    const malformed = { ...document, data: { writtenSeparators: [{ nodes: 2, blocks: runFingerprint(document.nodes.slice(0, 2)), separator: '\n<p>x</p>\n' }, { nodes: 1, blocks: 'x', separator: '\n' }] } } as unknown as Document;
    expect(normalizeDocument(malformed).data).toEqual({});
    expect(writePageMarkdown(malformed)).toBe('First paragraph.\n\nSecond paragraph.\n\n## Heading\n\nText.\n');
  });

  it('leaves markdown that is not a page with canonical separators', () => {
    expect(normalizeMarkdown('## A\nText.\n\n\nMore.\n')).toBe('## A\n\nText.\n\nMore.\n');
  });
});

describe('keeping the written form of a list whose items change', () => {
  const LIST = ['Before.', '', '1)  Unpack the box.', '', '2)  Plug it in:', '    - the *red* cable', '    - the blue one', '', '3)  Switch it on.', '', 'After.', ''].join('\n');
  const listOf = (document: Document) => document.nodes[1] as Extract<Block, { type: 'list-ordered' }>;
  const item = (text: string) => ({ object: 'block', type: 'list-item', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] }) as unknown as ListItemBlock;

  it('keeps the untouched items, the `1)` numbering, the spacing and the marker width when one item is edited', () => {
    const { document } = readPageMarkdown(LIST);
    expect(writePageMarkdown(document)).toBe(LIST);
    setText(listOf(document).nodes[2].nodes[0], 'Switch it on, then wait.');
    const written = writePageMarkdown(document);
    expect(written).toBe(LIST.replace('3)  Switch it on.', '3)  Switch it on, then wait.'));
    // It means what the canonical writing means, and stays so once stored and read again.
    expect(strip(readPageMarkdown(written).document.nodes)).toEqual(strip(canonicalNodes(written)));
    expect(strip(readPageMarkdown(written).document.nodes)).toEqual(strip(normalizeDocument(document).nodes));
    expect(writePageMarkdown(normalizeDocument(document))).toBe(written);
    expect(writePageMarkdown(readPageMarkdown(written).document)).toBe(written);
  });

  it('writes an added item in the list’s style and renumbers the items after it; a removed one leaves the others as written', () => {
    const { document } = readPageMarkdown(LIST);
    const list = listOf(document);
    list.nodes.splice(1, 0, item('Read the manual.'));
    // The new item's content stands one space after its marker (its own column, as a new item's is).
    expect(writePageMarkdown(document)).toBe(LIST.replace('2)  Plug it in:', '2) Read the manual.\n\n3)  Plug it in:').replace('3)  Switch', '4)  Switch'));
    const removed = readPageMarkdown(LIST).document;
    listOf(removed).nodes.splice(0, 1);
    expect(writePageMarkdown(removed)).toBe(['Before.', '', '1)  Plug it in:', '    - the *red* cable', '    - the blue one', '', '2)  Switch it on.', '', 'After.', ''].join('\n'));
  });

  it('moves an item’s other lines when its number gets wider', () => {
    const source = ['* one', '* two', ''].join('\n');
    const bullets = readPageMarkdown(['- one', '- two', '  continued', ''].join('\n')).document;
    setText((bullets.nodes[0] as Extract<Block, { type: 'list-unordered' }>).nodes[0].nodes[0], 'ONE');
    expect(writePageMarkdown(bullets)).toBe('- ONE\n- two\n  continued\n');
    expect(readPageMarkdown(source).document.data.writtenForms).toBeUndefined();
    const nine = Array.from({ length: 9 }, (_, i) => `${i + 1})  Step ${i + 1}${i === 8 ? '\n    more of it' : ''}`).join('\n') + '\n';
    const { document } = readPageMarkdown(nine);
    expect(writePageMarkdown(document)).toBe(nine);
    const list = document.nodes[0] as Extract<Block, { type: 'list-ordered' }>;
    list.nodes.unshift(item('Step 0'));
    const written = writePageMarkdown(document);
    // Its content keeps its column (one space less after the wider number)...
    expect(written.split('\n').slice(-3)).toEqual(['10) Step 9', '    more of it', '']);
    // (What the canonical writing means: a wider number leaves no room for an `indent` of 4 there either.)
    const canonicalOf = (d: Document) => strip(canonicalNodes(writePageMarkdown({ ...d, data: {} })));
    expect(strip(readPageMarkdown(written).document.nodes)).toEqual(canonicalOf(document));
    // ...or, with no space to spare, moves its other lines.
    const tight = readPageMarkdown(nine.replace(/\)  /g, ') ').replace('    more', '   more')).document;
    (tight.nodes[0] as Extract<Block, { type: 'list-ordered' }>).nodes.unshift(item('Step 0'));
    const wider = writePageMarkdown(tight);
    expect(wider.split('\n').slice(-3)).toEqual(['10) Step 9', '    more of it', '']);
    expect(strip(readPageMarkdown(wider).document.nodes)).toEqual(canonicalOf(tight));
  });

  it('ignores kept items that would not read as the list (a caller can write any data)', () => {
    const { document } = readPageMarkdown(LIST);
    const form = document.data.writtenForms!.find((f) => f.markdown.startsWith('1)'))! as WrittenForm & { items: { blocks: string; markdown: string }[] };
    // The first item's kept source replaced by another text with the same fingerprint.
    form.items[0] = { ...form.items[0], markdown: '1)  Unpack the box.\n\n<p>injected</p>' };
    setText(listOf(document).nodes[2].nodes[0], 'Switch it on, then wait.');
    const written = writePageMarkdown(document);
    expect(written).not.toContain('injected');
    expect(written).toBe(writePageMarkdown({ ...document, data: {} }));
    // Malformed items are not items at all: the list is written canonically too.
    const malformed = readPageMarkdown(LIST).document;
    (malformed.data.writtenForms![0] as unknown as { gaps: unknown }).gaps = ['\n<p>x</p>\n', '\n'];
    setText(listOf(malformed).nodes[2].nodes[0], 'Switch it on, then wait.');
    expect(writePageMarkdown(malformed)).toBe(written);
  });
});

describe('keeping the title line of a page', () => {
  it('writes the title line and the blank lines under it as the page wrote them while the title is the same', () => {
    const source = '# Install the `cli` \\(beta\\)\nRun it.\n\n## Next\n\nMore.\n';
    const { title, document } = readPageMarkdown(source);
    expect(title).toBe('Install the cli (beta)');
    expect(writePageMarkdown(document, title)).toBe(source);
    expect(readPageMarkdown(writePageMarkdown(document, title)).document).toEqual(document);
    // Another title is written canonically, under the same separator.
    expect(writePageMarkdown(document, 'Install')).toBe('# Install\nRun it.\n\n## Next\n\nMore.\n');
    // Two blank lines under a plain title.
    const spaced = '# Plain\n\n\nText.\n';
    const read = readPageMarkdown(spaced);
    expect(writePageMarkdown(read.document, read.title)).toBe(spaced);
    // The body alone (the content endpoint) is unchanged by it.
    expect(writePageMarkdown(read.document)).toBe('Text.\n');
    // A title line indented by up to three spaces is still the title line (CommonMark): kept so.
    const indented = '  # Lanterns\n\nText.\n';
    const lit = readPageMarkdown(indented);
    expect(lit.title).toBe('Lanterns');
    expect(writePageMarkdown(lit.document, lit.title)).toBe(indented);
  });

  it('ignores a kept title line that is not one title line (a caller can write any data)', () => {
    const { document } = readPageMarkdown('# Plain\n\nText.\n');
    const forged = (writtenTitle: unknown) => ({ ...document, data: { writtenTitle } }) as unknown as Document;
    expect(writePageMarkdown(forged({ line: '# Plain\n\n<p>x</p>', separator: '\n\n' }), 'Plain')).toBe('# Plain\n\nText.\n');
    expect(writePageMarkdown(forged({ line: '# Plain', separator: '\n<p>\n' }), 'Plain')).toBe('# Plain\n\nText.\n');
    expect(writePageMarkdown(forged({ line: 'Plain', separator: '\n' }), 'Plain')).toBe('# Plain\n\nText.\n');
    expect(writePageMarkdown(forged({ line: '    # Plain', separator: '\n\n' }), 'Plain')).toBe('# Plain\n\nText.\n');
    expect(normalizeDocument(forged({ line: '# Plain\nx', separator: '\n' })).data).toEqual({});
  });
});
