/*
 * Regressions from GitBook content the engine was not tuned on (issue 31): constructs
 * GitBook writes, in the containers it writes them in. Examples are made up; each case is
 * read, written back byte for byte, and stable, and what is read validates against
 * GitBook's JSONDocument as the dialect extends it (test/markdown-schema.ts).
 */
import { describe, expect, it } from 'vitest';
import { documentSchemaErrors } from '../../../test/markdown-schema.ts';
import { documentToMarkdown, extractText, markdownToDocument, normalizeMarkdown, readPageMarkdown, splitFrontMatter, writePageMarkdown } from './index.ts';
import { keepsPage } from '../../../test/markdown-page-reading.ts';
import type { Block } from './types.ts';
import { renderDocument } from '../../site/render-document.ts';

/** Reads `markdown`, checks it validates and writes back as `written` (the source by default) and stays so. */
function roundTrips(markdown: string, written = markdown): Block[] {
  const document = markdownToDocument(markdown);
  expect(documentSchemaErrors(document)).toBeNull();
  const out = documentToMarkdown(document);
  expect(out).toBe(written.endsWith('\n') ? written : written + '\n');
  expect(normalizeMarkdown(out)).toBe(out);
  return document.nodes;
}

const types = (blocks: Block[] | undefined): string[] => (blocks ?? []).map((b) => b.type);
/** Every section's title and text of a document, as search sees it. */
const textOf = (blocks: Block[]): string => extractText({ object: 'document', data: {}, nodes: blocks }).map((s) => `${s.title}\n${s.body}`).join('\n');
const childrenOf = (block: Block | undefined): Block[] => ((block as { nodes?: Block[] } | undefined)?.nodes ?? []);

describe('containers GitBook writes beyond its published schema (dialect.ts)', () => {
  it('keeps a table in a tab as a table', () => {
    const [tabs] = roundTrips('{% tabs %}\n{% tab title="Flags" %}\n| Flag | Type | Default |\n| ---- | ---- | ------- |\n| `-v` | bool | false   |\n{% endtab %}\n{% endtabs %}');
    expect(types(childrenOf(childrenOf(tabs)[0]))).toEqual(['table']);
  });

  it('keeps tabs in a step as tabs', () => {
    const [stepper] = roundTrips('{% stepper %}\n{% step %}\n### Install\n\n{% tabs %}\n{% tab title="npm" %}\nRun it.\n{% endtab %}\n{% endtabs %}\n{% endstep %}\n{% endstepper %}');
    expect(types(childrenOf(childrenOf(stepper)[0]))).toEqual(['heading-3', 'tabs']);
  });

  it('keeps a fenced code block in a hint and in a quote as code', () => {
    const [hint] = roundTrips('{% hint style="info" %}\n```js\nlet a = 1;\n```\n{% endhint %}');
    expect(types(childrenOf(hint))).toEqual(['code']);
    const [quote] = roundTrips('> ```js\n> let a = 1;\n> ```');
    expect(types(childrenOf(quote))).toEqual(['code']);
  });

  it('reads a tag that opens a quote on a list item\'s marker line into that item, not an empty quote in the item before', () => {
    const [list] = roundTrips('1. a\n2. > ```js\n   > x\n   > ```', '1. a\n2. > ```js\n   > x\n   > ```');
    expect(childrenOf(list).map((item) => types(childrenOf(item)))).toEqual([['paragraph'], ['blockquote']]);
    const [other] = markdownToDocument('1. a\n2. > {% hint style="info" %}\n   > b\n   > {% endhint %}').nodes;
    expect(childrenOf(other).map((item) => types(childrenOf(item)))).toEqual([['paragraph'], ['blockquote']]);
  });
});

describe('tags in list items', () => {
  it('pairs a tag in a list item around over-indented content in its body (read as the item\'s content, not code)', () => {
    // Over-indented content was read apart from its siblings, so a tag opened before it and closed after it
    // never paired: `{% hint %}` and `{% endhint %}` showed as text (the fuzzer found it).
    for (const markdown of [
      '2. {% hint style="warning" %}\n   Text.\n\n       More text.\n   {% endhint %}\n',
      '* Item\n\n  {% hint style="info" %}\n  Text.\n\n      More text.\n  {% endhint %}\n',
      '1. {% hint style="info" %}\n   <table>\n     <tbody>\n\n       <tr><td>A</td><td>B</td></tr>\n     </tbody>\n   </table>\n   {% endhint %}\n',
    ]) {
      const page = keepsPage(markdown);
      expect(documentSchemaErrors(page)).toBeNull();
      const item = childrenOf(page.nodes[0])[0];
      const hint = childrenOf(item).find((b) => b.type === 'hint');
      expect(hint, markdown).toBeDefined();
      expect(textOf(page.nodes)).not.toContain('{%');
    }
    // In a quote in a list item, indented code stays code (as before).
    const quoted = keepsPage('* Item\n\n  > Quote.\n  >\n  >     code\n');
    expect(JSON.stringify(quoted)).toContain('"code"');
  });
});

describe('constructs GitBook writes that were lost or shown as text', () => {
  it('keeps an embed\'s caption, in the document, the markdown and the searchable text', () => {
    const [embed] = roundTrips('{% embed url="https://www.youtube.com/watch?v=abc" %}\nCaption text\n{% endembed %}');
    expect((embed as { fragments?: unknown[] }).fragments).toHaveLength(1);
    expect(extractText(markdownToDocument('{% embed url="https://x.io/v" %}\nCaption text\n{% endembed %}'))[0].body).toContain('Caption text');
    roundTrips('{% embed url="https://x.io/v" %}');
  });

  it('reads an escape after a URL typed as text once, not one more backslash each round trip', () => {
    const [paragraph] = roundTrips('See https://x/#/\\<NAME> here');
    expect(JSON.stringify(paragraph)).toContain('https://x/#/<NAME> here');
  });

  it('reads an escaped backslash ending a URL typed as text (`https://x/a\\\\"`) as a backslash of text, and writes it so', () => {
    const [paragraph] = roundTrips('See https://x/a\\\\"" here');
    expect(JSON.stringify(paragraph)).toContain(JSON.stringify('https://x/a\\"" here').slice(1, -1));
    const page = readPageMarkdown('* https://x/a\\\\\\"\\""\n');
    expect(writePageMarkdown(page.document, page.title)).toBe('* https://x/a\\\\\\"\\""\n');
  });

  it('writes a mention\'s destination as written when it holds escapes (`tech\\_notes.md`), as a link\'s', () => {
    // GitBook's older export escaped `_` in destinations; an edited paragraph is written canonically, its mention as it was.
    roundTrips('See [tech\\_notes.md](../walkthroughs/tech\\_notes.md "mention") and [the notes](tech\\_notes.md).');
  });

  it('reads a code title holding bare quotes whole (`title="a "b""`)', () => {
    const [code] = roundTrips('{% code title="a "b"" %}\n```js\nx\n```\n{% endcode %}', '{% code title="a &#x22;b&#x22;" %}\n```js\nx\n```\n{% endcode %}');
    expect((code as { data: { title?: string } }).data.title).toBe('a "b"');
  });

  it('keeps an integration block (`{% @github-files/github-code-block %}`) verbatim, not as escaped text', () => {
    const [block] = roundTrips('{% @github-files/github-code-block url="https://github.com/a/b/blob/main/x.js" %}\n\nText after.');
    expect(block.type).toBe('integration');
  });
});

describe('figures whose attributes hold markup', () => {
  it('reads an image alt holding `<name>` whole, its width kept, and shows both on the page', () => {
    // GitBook writes `<` and `>` bare inside a quoted attribute; a browser reads them as the value's text.
    const markdown = '<figure><img src="a.png" alt="Grant consent for <your_tenant>&#x27;" width="563"><figcaption></figcaption></figure>';
    const [images] = roundTrips(markdown);
    const image = childrenOf(images)[0] as Block & { data: { alt?: string; width?: number } };
    expect(image.data).toMatchObject({ alt: "Grant consent for <your_tenant>'", width: 563 });
    const html = renderDocument(markdownToDocument(markdown)).html;
    expect(html).toContain('alt="Grant consent for &lt;your_tenant&gt;&#39;" width="563"');
  });
});

describe('GitBook\'s HTML form of a hint (`<div data-gb-custom-block data-tag="hint">`)', () => {
  it('reads it as a hint in a list item, keeps the line as written, and writes a new one as the tag', () => {
    const markdown = '* Weights add up\n\n    <div data-gb-custom-block data-tag="hint" data-style="warning" class="hint hint-warning"><p><strong>Avoid loops</strong><br>A to B to A recurses.</p></div>\n';
    const [list] = markdownToDocument(markdown).nodes;
    const [, hint] = childrenOf(childrenOf(list)[0]);
    expect(hint).toMatchObject({ type: 'hint', data: { style: 'warning' } });
    expect(JSON.stringify(hint)).not.toMatch(/<\/?(?:p|div|strong|br)>/);
    expect(extractText(markdownToDocument(markdown))[0].body).toContain('A to B to A recurses.');
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
    expect(documentToMarkdown(markdownToDocument(markdown))).toBe('* Weights add up\n\n  {% hint style="warning" %}\n  **Avoid loops**\\\n  A to B to A recurses.\n  {% endhint %}\n');
  });

  it('leaves another custom block, or a hint holding other blocks, as written HTML', () => {
    for (const html of ['<div data-gb-custom-block data-tag="tabs"><p>x</p></div>', '<div data-gb-custom-block data-tag="hint" data-style="info"><p><table><tr><td>x</td></tr></table></p></div>']) {
      expect(markdownToDocument(html).nodes[0].type).not.toBe('hint');
    }
  });
});

describe('buttons written as HTML', () => {
  it('reads GitBook\'s action button (`<button … data-action="ask">`) as a button with its action, not escaped text', () => {
    const markdown = '<button type="button" class="button primary" data-action="ask" data-query="How?">Ask</button>';
    const [paragraph] = roundTrips(markdown);
    expect(childrenOf(paragraph)[0]).toMatchObject({ type: 'button', data: { label: 'Ask', kind: 'primary', action: { action: 'ask', query: 'How?' } } });
  });

  it('keeps a button without href (`<a class="button primary">Go</a>`) as a button, markup and all', () => {
    const [paragraph] = roundTrips('Text <a class="button primary">Go</a> more');
    expect(childrenOf(paragraph)[1]).toMatchObject({ type: 'button', data: { label: 'Go', kind: 'primary' } });
  });
});

describe('footnotes, which GitBook reads as text', () => {
  it('keeps a footnote reference and definition as written, not escaped (`[^1]: …` is no link definition)', () => {
    const markdown = 'Updating rows[^1]\n\n[^1]: [Manual: Updates](https://docs.example/updates)\n';
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
    expect(extractText(markdownToDocument(markdown))[0].body).toContain('[^1]: Manual: Updates');
  });
});

describe('HTML in pipe-table cells (GitBook\'s 2021 export)', () => {
  it('reads a cell of `<p>` paragraphs as paragraphs, and writes it back so', () => {
    const markdown = '| Name                          | Value |\n| ----------------------------- | ----- |\n| <p><code>a</code></p><p>b</p> | c     |';
    const [table] = roundTrips(markdown);
    const cell = (table as { fragments: Array<{ fragment: string; nodes: unknown[] }> }).fragments.find((f) => f.fragment === 'r0c0')!;
    expect(cell.nodes).toHaveLength(2);
    expect(JSON.stringify(cell)).not.toContain('<p>');
  });

  it('reads a header cell of several `<p>` paragraphs as a column title, its paragraphs written back as they were', () => {
    const markdown = '| Tilting the Lens | <p>Dial</p><p>Arrow Keys<br>+/- Keys</p> |\n| ---------------- | ---------------------------------------- |\n| Moving Along     | <p>Drag</p><p>Side Keys</p>              |';
    const [table] = roundTrips(markdown) as Array<{ data: { definition: Record<string, { title: string }> }; fragments: Array<{ fragment: string; nodes: unknown[] }> }>;
    expect(table.data.definition.c1.title).toBe('Dial Arrow Keys +/- Keys');
    expect(table.fragments.find((f) => f.fragment === 'header-c1')!.nodes).toHaveLength(2);
    expect(JSON.stringify(table)).not.toContain('<p>');
  });

  it('reads a list in a pipe-table cell (`<ul><li>`) as paragraphs, not escaped text; the page keeps its written form', () => {
    const markdown = '| Code | Meaning |\n| ---- | ------- |\n| 7 | <p>Renew the lantern</p><ul><li>The wick is short</li><li><p>The oil ran out</p></li></ul> |\n| 8 | <ol><li>Only one</li></ol> |\n';
    const [table] = markdownToDocument(markdown).nodes as Array<{ fragments: Array<{ fragment: string; nodes: unknown[] }> }>;
    const cell = (name: string) => table.fragments.find((f) => f.fragment === name)!;
    expect(cell('r0c1').nodes).toHaveLength(3);
    expect(cell('r1c1').nodes).toHaveLength(1);
    expect(JSON.stringify(table)).not.toMatch(/<\/?(?:p|ul|ol|li)>/);
    expect(extractText(markdownToDocument(markdown))[0].body).toContain('The oil ran out');
    // Written canonically, each item is a paragraph of the cell; a page keeps the lists as written.
    roundTrips(markdown, '| Code | Meaning                                                                |\n| ---- | ---------------------------------------------------------------------- |\n| 7    | <p>Renew the lantern</p><p>The wick is short</p><p>The oil ran out</p> |\n| 8    | Only one                                                               |\n');
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
  });
  it('reads nested lists in a cell (`<li><p></p><ul><li>…`) as paragraphs of their items, not escaped text', () => {
    const markdown = '| <ul><li>Kiln</li><li><p></p><ul><li>Glaze</li><li>Fire</li></ul></li><li>Cool</li></ul> |\n| --- |\n| Steps |\n';
    const [table] = markdownToDocument(markdown).nodes as Array<{ data: { definition: Record<string, { title: string }> }; fragments: Array<{ fragment: string; nodes: unknown[] }> }>;
    expect(table.data.definition.c0.title).toBe('Kiln Glaze Fire Cool');
    expect(table.fragments.find((f) => f.fragment === 'header-c0')!.nodes).toHaveLength(4);
    expect(JSON.stringify(table)).not.toMatch(/<\/?(?:p|ul|li)>/);
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
  });

  it('reads `</p><p>` inside emphasis read across it (`<code>.**{</code>`…`<code>.**`) as two paragraphs, not text', () => {
    const markdown = '| Path | Meaning |\n| ---- | ------- |\n| <p><code>.**{</code><em>n</em>}</p><p><code>.**{</code><em>a</em> to <em>b</em>}</p> | Levels |\n';
    const [table] = markdownToDocument(markdown).nodes as Array<{ fragments: Array<{ fragment: string; nodes: unknown[] }> }>;
    const cell = table.fragments.find((f) => f.fragment === 'r0c0')!;
    expect(cell.nodes).toHaveLength(2);
    expect(JSON.stringify(cell)).not.toMatch(/<\/?p>/);
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
  });

  it('closes a `<p>` left open at a cell\'s end (a row cut by a bare `|`), as HTML does, instead of showing it', () => {
    const markdown = '| Operator |\n| -------- |\n| <p><code>bag</code> <code>||</code> <code>bag</code></p><p>Joins two bags.</p> |\n';
    const [table] = markdownToDocument(markdown).nodes as Array<{ fragments: Array<{ fragment: string; nodes: unknown[] }> }>;
    expect(JSON.stringify(table.fragments.find((f) => f.fragment === 'r0c0'))).not.toMatch(/<\/?p>/);
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
  });
});

describe('GitBook\'s older (2021) Git Sync output', () => {
  it('reads a tag written right after the `</table>` closing an HTML block (`</table>{% hint %}`) as the tag, the line kept', () => {
    const markdown = 'Intro.\n\n<table>\n  <tbody>\n    <tr>\n      <td>a</td>\n    </tr>\n  </tbody>\n</table>{% hint style="info" %}\nCombine the lamps:\n\n* Brass = 4\n{% endhint %}\n\nAfter.\n';
    const blocks = markdownToDocument(markdown).nodes;
    expect(types(blocks)).toEqual(['paragraph', 'integration', 'hint', 'paragraph']);
    expect(JSON.stringify(blocks[2])).not.toContain('{%');
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
  });

  it('keeps a drawing in a list item and in a hint (class="gitbook-drawing")', () => {
    const [list] = roundTrips('* Item\n\n  <img src=".gitbook/assets/d.svg" alt="" class="gitbook-drawing">');
    expect(types(childrenOf(childrenOf(list)[0]))).toEqual(['paragraph', 'drawing']);
    roundTrips('{% hint style="info" %}\n<img src=".gitbook/assets/d.svg" alt="" class="gitbook-drawing">\n{% endhint %}');
  });

  it('reads `$$x$$` alone on its line as inline math, not a block', () => {
    expect(types(roundTrips('See:\n\n$$x^2$$\n\nafter'))).toEqual(['paragraph', 'paragraph', 'paragraph']);
    const [, math] = markdownToDocument('See:\n\n$$x^2$$').nodes;
    expect(math).toMatchObject({ type: 'paragraph', nodes: [{ type: 'inline-math', data: { formula: 'x^2' } }] });
  });

  it('reads an image indented deeper than its list item\'s content as the item\'s image, not indented code', () => {
    const [list] = roundTrips('* Item\n\n      ![shot](a.png)', '* Item\n\n  <img src="a.png" alt="shot">');
    expect(types(childrenOf(childrenOf(list)[0]))).toEqual(['paragraph', 'paragraph']);
    expect(JSON.stringify(list)).toContain('inline-image');
  });

  it('keeps an image in a list item whose path GitBook wrote with escaped parentheses (`image\\(78\\).png`) as written, not as `<img>`', () => {
    const page = '*   Pick one\\\n    then:\n\n    ![](../.gitbook/assets/image\\(78\\).png)\n*   Next\n';
    const document = keepsPage(page);
    expect(JSON.stringify(document)).toContain('"url":"../.gitbook/assets/image(78).png"');
    // Edited (no written form left), the item's lone image is written in the `<img>` form, which keeps it inline.
    expect(documentToMarkdown({ ...document, data: {} })).toContain('<img src="../.gitbook/assets/image(78).png" alt="">');
  });

  it('reads a simple HTML table (no cards, no widths) as a table, written back in HTML', () => {
    const html = '<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody><tr><td><code>a</code></td><td>b</td></tr></tbody></table>';
    expect(types(roundTrips(html))).toEqual(['table']);
    const [list] = roundTrips(`* Item\n\n  ${html}`);
    expect(types(childrenOf(childrenOf(list)[0]))).toEqual(['paragraph', 'table']);
  });

  it('reads a figure over-indented in a task item as the nested item\'s image, without exhausting the stack', () => {
    // Its raw text held its line's list marker: restored into the re-read code it opened a list a level deeper each time,
    // the line doubling, until the stack ran out. The raw text is now the placeholder's, and re-reading has a budget of levels.
    const markdown = '+ [x] Wick\n      -  <figure>\n           <img src="wick.png" alt="">\n         </figure>\n';
    const page = readPageMarkdown(markdown);
    expect(types(page.document.nodes)).toEqual(['list-tasks']);
    expect(documentSchemaErrors(page.document)).toBeNull();
    const [nested] = childrenOf(childrenOf(page.document.nodes[0])[0]).filter((b) => b.type === 'list-unordered');
    expect(JSON.stringify(nested)).toContain('wick.png');
    expect(JSON.stringify(page.document)).not.toContain('"code"');
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
    // An unknown tag's raw text, the same.
    const tagged = readPageMarkdown('+ [x] Wick\n      -  {% include "wax.md" %}\n           Melted.\n');
    expect(JSON.stringify(tagged.document)).not.toContain('"code"');
    expect(textOf(tagged.document.nodes)).toContain('Melted.');
    // And a math block's.
    const math = keepsPage('+ [x] Wick\n      -  $$\n         x^2\n         $$\n');
    expect(JSON.stringify(math)).toContain('"formula":"x^2"');
    expect(JSON.stringify(math)).not.toContain('"code"');
  });
});

describe('blank lines GitBook writes (tuning half of the held-out corpus)', () => {
  it('reads each two extra blank lines between blocks as an empty paragraph, in every container', () => {
    const [, empty] = roundTrips('Before.\n\n\n\nAfter.');
    expect(empty).toMatchObject({ type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: '' }] }] });
    expect(types(roundTrips('One.\n\n\n\n\n\n# Two'))).toEqual(['paragraph', 'paragraph', 'paragraph', 'heading-1']);
    const [hint] = roundTrips('{% hint style="info" %}\nA.\n\n\n\nB.\n{% endhint %}\n\n\n\n{% hint style="info" %}\nC.\n{% endhint %}');
    expect(types(childrenOf(hint))).toEqual(['paragraph', 'paragraph', 'paragraph']);
    const [list] = roundTrips('* Item.\n\n\n\n  More.');
    expect(types(childrenOf(childrenOf(list)[0]))).toEqual(['paragraph', 'paragraph', 'paragraph']);
    roundTrips('> A.\n>\n>\n>\n> B.');
  });

  it('drops empty paragraphs at a container\'s ends, where markdown cannot write them, and keeps one blank line for two', () => {
    const document = markdownToDocument('A.\n\nB.');
    const empty = { object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }] } as Block;
    expect(documentToMarkdown({ ...document, nodes: [empty, ...document.nodes, empty] })).toBe('A.\n\nB.\n');
    expect(types(markdownToDocument('A.\n\n\nB.').nodes)).toEqual(['paragraph', 'paragraph']);
  });
});

describe('GitBook\'s escaping and spacing today (tuning half of the held-out corpus)', () => {
  it('writes `|` bare in text, escaped in table cells and where a line looks like a delimiter row', () => {
    roundTrips('Plans: [Pro | Team](https://example.test/p) and red | green.');
    roundTrips('| Flag    | Values |\n| ------- | ------ |\n| `--out` | a \\| b |');
    const [paragraph] = roundTrips('Header a | b\\\n\\| --- \\| --- \\|');
    expect(paragraph.type).toBe('paragraph');
  });

  it('escapes `&` before a letter or `#` in text (`Q\\&A`), and leaves it bare elsewhere', () => {
    const [paragraph] = roundTrips('Q\\&A, drag\\&drop, \\&#x41; and 1 & 2');
    expect(JSON.stringify(paragraph)).toContain('Q&A, drag&drop, &#x41; and 1 & 2');
  });

  it('keeps the link GitBook writes inside an OpenAPI operation block', () => {
    const [operation] = roundTrips('{% openapi-operation spec="pets" path="/pets" method="get" %}\n[OpenAPI pets](https://files.example.test/pets.yaml?sig=a\\&b)\n{% endopenapi-operation %}');
    expect(operation).toMatchObject({ type: 'openapi-operation', data: { ref: { spec: 'pets' }, path: '/pets', method: 'get' } });
    roundTrips('{% openapi-operation spec="pets" path="/pets" method="get" %}\n[Broken link](broken-reference)\n{% endopenapi-operation %}');
    roundTrips('{% openapi-operation spec="pets" path="/pets" method="get" %}\n{% endopenapi-operation %}');
  });

  it('keeps a U+FEFF ending a heading before its anchor (not whitespace, though JavaScript\'s `\\s` says so)', () => {
    const [heading] = roundTrips('## Setup\uFEFF <a href="#setup" id="setup"></a>');
    expect(JSON.stringify(heading)).toContain('Setup\uFEFF');
  });

  it('spreads a list item of several blocks, not one of a paragraph and its nested list', () => {
    const [list] = roundTrips('1. Pick one.\n\n   Choices:\n\n   * A\n   * B\n2. Then this.\n   * C\n3. Done.');
    expect(types(childrenOf(childrenOf(list)[0]))).toEqual(['paragraph', 'paragraph', 'list-unordered']);
  });
});

describe('a page\'s written form, from the tuning half (made-up text)', () => {

  it('keeps the blank lines between the title line and a divider opening the body (generated reference pages)', () => {
    keepsPage('# Lanterns\n\n\n\n\n\n\n\n---\n\nLit on Monday.\n');
  });

  it('keeps a quote opened by an empty `>` line at the top of a page, and its closing `>` line over a heading', () => {
    keepsPage('>\n> Changed in **1.2**.\n> \n\n# 1. Lanterns\n\nText.\n\n## 1.1 Wicks\n\nMore.\n');
    keepsPage('>\n> Only a note.\n\nText.\n');
  });

  it('writes an empty bold alone on its line escaped (`\\*\\*\\*\\*`), which bare would read as a divider', () => {
    const [, paragraph] = roundTrips('A.\n\n\\*\\*\\*\\*\n\nB ****.');
    expect(paragraph.type).toBe('paragraph');
    keepsPage('A.\n\n\\*\\*\\*\\*\n\nB.\n');
  });

  it('writes a list from its own reading, not from another list sharing some of its items, in the page\'s escaping', () => {
    keepsPage('* name the lamp\n* mode the beam \\(on or off\\)\n* value to use\n\nThen \\(later\\):\n\n* name the lamp\n* mode the beam \\(&lt;, &gt;\\)\n* value to use\n');
  });

  it('writes a page written with CR LF line endings throughout back with them; the document holds LF text', () => {
    const document = keepsPage('# Lamps\r\n\r\nOil \\(mostly\\).\r\n\r\n```js\r\nlight();\r\n```\r\n\r\n* wick\r\n* glass\r\n');
    expect(document.data.lineEnding).toBe('crlf');
    expect(JSON.stringify(document.nodes)).not.toContain('\\r');
    expect(markdownToDocument('A.\r\n').data.lineEnding).toBeUndefined();
  });

  it('keeps a line ending written CR LF', () => {
    const document = keepsPage('Lamps burn oil \\(mostly\\).\r\n\n## Wicks\n\nText.\n');
    expect(JSON.stringify(document.nodes)).not.toContain('\\r');
  });
});

describe('repeated blocks (generated reference pages)', () => {
  it('keeps the separators of two identical runs of blocks each as written', () => {
    const markdown = 'Splits the stream.\n\n\nNOTE: read it once.\n\n## Again\n\nSplits the stream.\n\nNOTE: read it once.\n';
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
    const again = readPageMarkdown(writePageMarkdown(page.document, page.title));
    expect(writePageMarkdown(again.document, again.title)).toBe(markdown);
  });

  it('keeps the forms of two identical blocks written differently each as written', () => {
    const markdown = '- one\n- two\n\nBetween.\n\n* one\n* two\n';
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
  });
});

describe('link reference definitions on a page', () => {
  const markdown = 'Write to [keeper@lamps.test] or see [the wicks].\n\nMiddle text.\n\nLast words.\n\n[keeper@lamps.test]: mailto:keeper@lamps.test\n[the wicks]: wicks.md\n';

  it('keeps paragraphs written with references to definitions further down as written', () => {
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
    expect(JSON.stringify(page.document.nodes[0])).toContain('mailto:keeper@lamps.test');
  });

  it('writes the references inline once the block holding their definitions is edited', () => {
    const { document } = readPageMarkdown(markdown);
    const edited = { ...document, nodes: document.nodes.map((node, i) => (i === 2 ? markdownToDocument('Other last words.').nodes[0] : node)) };
    const written = writePageMarkdown(edited);
    expect(written).toContain('[keeper@lamps.test](mailto:keeper@lamps.test)');
    expect(readPageMarkdown(written).document.nodes.map((n) => JSON.stringify(n, (k, v) => (k === 'key' ? undefined : v)))).toEqual(
      edited.nodes.map((n) => JSON.stringify(n, (k, v) => (k === 'key' ? undefined : v))),
    );
  });
});

describe('indented code written by hand (generated man pages)', () => {
  it('reads lines of spaces ending an indented block as the blank lines after it, and keeps the block as written', () => {
    const markdown = 'Show the lamps.\n\n<div class="sample">\n\n      $ lamp list\n\n          lit: 3\n      ....\n          \n\n</div>\n';
    const [, , code] = markdownToDocument(markdown).nodes;
    expect(code.type).toBe('code');
    expect(childrenOf(code).map((line) => JSON.stringify(line)).pop()).toContain('"  ...."');
    const page = readPageMarkdown(markdown);
    // Trailing whitespace is the normal form's (trimmed), not a written form.
    const trimmed = (text: string) => text.replace(/[ \t]+$/gm, '');
    expect(trimmed(writePageMarkdown(page.document, page.title))).toBe(trimmed(markdown));
  });

  it('counts a line of spaces after an indented block, between two blank lines, as a blank line (an empty paragraph, as three blank lines are)', () => {
    const markdown = 'Show the lamps.\n\n    $ lamp list\n\n        \n\nAfter.\n';
    expect(types(markdownToDocument(markdown).nodes)).toEqual(['paragraph', 'code', 'paragraph', 'paragraph']);
    expect(types(markdownToDocument(markdown.replace('        \n', '\n')).nodes)).toEqual(['paragraph', 'code', 'paragraph', 'paragraph']);
    const page = readPageMarkdown(markdown);
    const trimmed = (text: string) => text.replace(/[ \t]+$/gm, '');
    expect(trimmed(writePageMarkdown(page.document, page.title))).toBe(trimmed(markdown));
  });

  it('keeps two indented blocks as written when one\'s lines equal the other\'s but for their indentation', () => {
    const markdown = 'Lamps:\n\n         lamp(a, b[i]), i++) {\n</div>\n\n             lamp(a, b[i]), i++) {\n</div>\n';
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
  });

  it('keeps an indented line after a paragraph as the paragraph\'s (a lazy continuation), not code', () => {
    const markdown = 'A paragraph\n    still the paragraph.\n\n    code after a blank line\n\nAfter.\n';
    expect(types(markdownToDocument(markdown).nodes)).toEqual(['paragraph', 'code', 'paragraph']);
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
  });
});

describe('a paragraph opening with a space GitBook encodes (`&#x20;`)', () => {
  it('writes its bold as `**`, not as `<strong>`: the read-back check keeps the leading space as the paragraph does', () => {
    for (const markdown of ['&#x20;Lamps **glow** at dusk.\n', '* Wicks\n  * &#x20;trim **daily**, or _weekly_\n']) roundTrips(markdown);
  });
});

describe('a list kept as written next to a list of its kind (GitBook-written, tuning half)', () => {
  it('keeps a bullet list of a non-canonical form right above a task list, and a list written after a kept one takes the other marker', () => {
    const markdown = '* <mark style="color:blue;">**Lamps**</mark><mark style="color:blue;"> need oil</mark>\n- [x] Wicks trimmed\n';
    const page = readPageMarkdown(markdown);
    expect(types(page.document.nodes)).toEqual(['list-unordered', 'list-tasks']);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
    // A list added after a kept `-` list is written with `*`, so the two stay two.
    const kept = readPageMarkdown('- <mark style="color:blue;">**Lamps**</mark><mark style="color:blue;"> need oil</mark>\n');
    const added = { ...kept.document, nodes: [...kept.document.nodes, markdownToDocument('- Wicks\n').nodes[0]] };
    const written = writePageMarkdown(added);
    expect(written).toBe('- <mark style="color:blue;">**Lamps**</mark><mark style="color:blue;"> need oil</mark>\n\n* Wicks\n');
    expect(types(readPageMarkdown(written).document.nodes)).toEqual(['list-unordered', 'list-unordered']);
  });

  it('never writes two kept lists of the same marker next to each other (the paragraph between them deleted), nor after a nested item\'s marker', () => {
    for (const [first, second] of [['+', '+'], ['-', '-'], ['*', '*'], ['- a\n  *', '*']]) {
      const page = readPageMarkdown(`${first} <mark style="color:blue;">**Lamps**</mark><mark style="color:blue;"> oil</mark>\n\nBetween.\n\n${second} <mark style="color:red;">**Wicks**</mark><mark style="color:red;"> trim</mark>\n`);
      const joined = { ...page.document, nodes: [page.document.nodes[0], page.document.nodes[2]] };
      const written = writePageMarkdown(joined);
      expect(types(readPageMarkdown(written).document.nodes)).toEqual(['list-unordered', 'list-unordered']);
    }
  });
});

describe('GitBook tags written by hand (tuning half, made-up text)', () => {
  it('closes an update at its closing tag indented under a list item of its body, and keeps the page as written', () => {
    const markdown = '{% updates format="full" %}\n{% update date="2026-03-02" %}\n**Lamps**\n\n* Brighter wicks\n  {% endupdate %}\n\n{% update date="2026-02-01" %}\nOil refills.\n{% endupdate %}\n{% endupdates %}\n';
    const [updates] = markdownToDocument(markdown).nodes;
    expect(updates.type).toBe('updates');
    const items = childrenOf(updates);
    expect(types(items)).toEqual(['update', 'update']);
    expect(types(childrenOf(items[0]))).toEqual(['paragraph', 'list-unordered']);
    const text = textOf(markdownToDocument(markdown).nodes);
    expect(text).toContain('Brighter wicks');
    expect(text).not.toContain('{%');
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
  });

  it('reads an `{% endcode %}` right under a fence whose `{% code %}` line was taken away as ending that code, showing nothing', () => {
    const markdown = 'Lamps.\n\n```cpp\nint wick;\n```\n{% endcode %}\n\nAfter.\n';
    const document = markdownToDocument(markdown);
    expect(types(document.nodes)).toEqual(['paragraph', 'code', 'paragraph']);
    expect(textOf(document.nodes)).not.toContain('{%');
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
    // Apart from the fence (a blank line between), it is no code's: shown as written.
    const apart = 'Lamps.\n\n```cpp\nint wick;\n```\n\n{% endcode %}\n';
    expect(textOf(markdownToDocument(apart).nodes)).toContain('{% endcode %}');
  });

  it('leaves a closing tag deeper than its opening in place when it opens a container of its own, or its opening is not the innermost', () => {
    // `- {% endhint %}` opens a list item: it is no line of the hint's level.
    const listed = markdownToDocument('{% hint style="info" %}\nText.\n\n- {% endhint %}\n');
    expect(types(listed.nodes)).not.toEqual(['hint']);
    // Four columns deeper is indented code's: no tag there.
    const indented = markdownToDocument('{% hint style="info" %}\n* Item\n\n    {% endhint %}\n');
    expect(types(indented.nodes)).not.toEqual(['hint']);
  });
});

describe('a part of a page commented out (`<!-- … -->` over blank lines, fences and tags)', () => {
  it('reads the comment as one block up to its `-->`, showing nothing, and writes it back as written', () => {
    const markdown = 'Lamps.\n\n<!-- ## Wicks\n\nTrim them:\n\n```sh\ntrim --all\n```\n\n{% embed url="https://lamps.example/trim" %} -->\n\nAfter.\n';
    const document = markdownToDocument(markdown);
    expect(types(document.nodes)).toEqual(['paragraph', 'integration', 'paragraph']);
    expect(textOf(document.nodes)).toContain('Lamps.');
    expect(textOf(document.nodes)).not.toMatch(/Trim|trim|\{%/);
    const page = readPageMarkdown(markdown);
    const written = writePageMarkdown(page.document, page.title);
    expect(written).toBe(markdown);
    const again = readPageMarkdown(written);
    expect(writePageMarkdown(again.document, again.title)).toBe(written);
  });
});

describe('verbatim markup in a list item or a quote (hand-written HTML and unknown tags)', () => {
  it('keeps an unknown tag or HTML there as verbatim markup, not as paragraph text showing it', () => {
    const cases: [string, string][] = [
      ['1. Light the lamp.\n\n   {% include "lamp.md" %}\n', 'liquid'],
      ['* Wicks:\n\n  <table><tr><td>cotton</td></tr></table>\n', 'html'],
      ['> Oil:\n>\n> {% swagger src="oil.yaml" %}\n> Pour.\n> {% endswagger %}\n', 'liquid'],
    ];
    for (const [markdown, kind] of cases) {
      const [container] = roundTrips(markdown);
      const inner = container.type === 'blockquote' ? childrenOf(container) : childrenOf(childrenOf(container)[0]);
      expect(types(inner)).toEqual(['paragraph', 'integration']);
      expect((inner[1] as { data: { block: string } }).data.block).toBe(kind);
      expect(textOf([container])).not.toMatch(/\{%|<table/);
    }
  });
});

describe('a page opening with a `---` divider', () => {
  it('reads a page body opening with a divider, another `---` further down, as content, not front matter', () => {
    // A body's front matter is split off before it is read: the engine took `---` … `---` for
    // more of it and dropped what stood between from the page (its written form kept the markdown).
    const page = keepsPage('---\n*Lamp wicks*\n\n---\n*Oil*\n');
    expect(types(page.nodes)).toEqual(['divider', 'paragraph', 'divider', 'paragraph']);
    expect(textOf(page.nodes)).toContain('Lamp wicks');
  });

  it('keeps the written form of dividers each right above a paragraph, met twice (a piece of page read alone is no front matter)', () => {
    const page = keepsPage('Text.\n\n---\n*Written by the lamp team*\n*Standard: wicks*\n\n\n---\n*Reviewed*\n*Second line*\n');
    expect(types(page.nodes)).toEqual(['paragraph', 'divider', 'paragraph', 'divider', 'paragraph']);
  });

  it('reads the list under it as a list, not as front matter left open', () => {
    expect(types(roundTrips('***\n\n1. Wick\n'))).toEqual(['divider', 'list-ordered']);
    expect(types(markdownToDocument('---\n1. Wick\n').nodes)).toEqual(['divider', 'list-ordered']);
    // The engine reads no front matter (a page file's is split off by front-matter.ts): `---` is a divider, `title: Lamps` over `---` a heading, as CommonMark reads them.
    expect(types(markdownToDocument('---\ntitle: Lamps\n---\n\n1. Wick\n').nodes)).toEqual(['divider', 'heading-2', 'list-ordered']);
    expect(types(markdownToDocument(splitFrontMatter('---\ntitle: Lamps\n---\n\n1. Wick\n').body).nodes)).toEqual(['list-ordered']);
  });
});

describe('an item tag written without its parent tag', () => {
  it('reads a lone tab, step, column or update as one inside its parent; a page keeps it as written', () => {
    const lone = '{% tab title="Alpha" %}\nAlpha body.\n{% endtab %}\n\n{% tab title="Beta" %}\n{% endtab %}\n';
    const [tabs] = roundTrips(lone, `{% tabs %}\n${lone}{% endtabs %}`);
    expect(tabs.type).toBe('tabs');
    expect(childrenOf(tabs).map((tab) => (tab.data as { title?: string }).title)).toEqual(['Alpha', 'Beta']);
    expect(types(keepsPage(lone).nodes)).toEqual(['tabs']);
    for (const [page, type] of [
      ['{% step %}\n### Install\n\nRun it.\n{% endstep %}\n', 'stepper'],
      ['{% column width="50%" %}\nLeft.\n{% endcolumn %}\n', 'columns'],
      ['{% update date="2024-01-02" %}\nShipped.\n{% endupdate %}\n', 'updates'],
    ]) {
      expect(types(keepsPage(page).nodes)).toEqual([type]);
    }
  });

  it('keeps a lone tab\'s title where tabs may not be (a list item), as a bold line', () => {
    const page = '- Item\n\n  {% tab title="Beta" %}\n  In the tab.\n  {% endtab %}\n';
    const [list] = roundTrips(page, '* Item\n\n  **Beta**\n\n  In the tab.\n');
    expect(textOf([list])).toContain('Beta');
    expect(keepsPage(page).nodes.length).toBe(1);
  });
});
