import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument, normalizeMarkdown, type Block, type Document } from './index.ts';
import { documentSchemaErrors } from '../../../test/markdown-schema.ts';
import { markupBlock } from './types.ts';


/*
 * One construct at a time: the exact document a small input reads to, and the exact
 * markdown it is written back as.
 */

const text = (value: string, marks: string[] = []) => ({ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) });

/** The blocks of a document without their keys, for compact expectations. */
function blocks(markdown: string): unknown[] {
  const document = markdownToDocument(markdown);
  expect(documentSchemaErrors(document)).toBeNull();
  return JSON.parse(JSON.stringify(document.nodes, (key, value) => (key === 'key' ? undefined : value)));
}

const paragraph = (...leaves: unknown[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves }] });

describe('markdownToDocument', () => {
  it('reads a heading and a paragraph into the exact document, keys by position', () => {
    expect(markdownToDocument('# Hello\n\nSome **bold** text.\n')).toEqual({
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', key: 'b0', type: 'heading-1', data: {}, nodes: [{ object: 'text', key: 'b0.0', leaves: [text('Hello')] }] },
        { object: 'block', key: 'b1', type: 'paragraph', data: {}, nodes: [{ object: 'text', key: 'b1.0', leaves: [text('Some '), text('bold', ['bold']), text(' text.')] }] },
      ],
    });
  });

  it('is deterministic', () => {
    const markdown = '## A\n\n* x\n* y\n\n{% hint style="info" %}\nz\n{% endhint %}\n';
    expect(JSON.stringify(markdownToDocument(markdown))).toBe(JSON.stringify(markdownToDocument(markdown)));
  });

  it('maps heading levels: h1-h3 directly, deeper ones to heading-3, custom anchors to data.id', () => {
    expect(blocks('# A\n\n## B <a href="#b-id" id="b-id"></a>\n\n### C\n\n#### D\n')).toEqual([
      { object: 'block', type: 'heading-1', data: {}, nodes: [{ object: 'text', leaves: [text('A')] }] },
      { object: 'block', type: 'heading-2', data: { id: 'b-id' }, nodes: [{ object: 'text', leaves: [text('B')] }] },
      { object: 'block', type: 'heading-3', data: {}, nodes: [{ object: 'text', leaves: [text('C')] }] },
      { object: 'block', type: 'heading-3', data: {}, nodes: [{ object: 'text', leaves: [text('D')] }] },
    ]);
  });

  it('reads GitBook page markdown with headingOffset 1 (`##` is heading-1)', () => {
    const document = markdownToDocument('## One\n\n### Two\n\n#### Three\n', { headingOffset: 1 });
    expect(document.nodes.map((b) => b.type)).toEqual(['heading-1', 'heading-2', 'heading-3']);
    expect(documentToMarkdown(document, { headingOffset: 1 })).toBe('## One\n\n### Two\n\n#### Three\n');
  });

  it('reads every mark', () => {
    expect(blocks('**b** _i_ ~~s~~ `c` <kbd>k</kbd> <sup>u</sup> <sub>d</sub> <mark style="color:red;">r</mark>')).toEqual([
      paragraph(
        text('b', ['bold']), text(' '), text('i', ['italic']), text(' '), text('s', ['strikethrough']), text(' '), text('c', ['code']), text(' '),
        text('k', ['keyboard']), text(' '), text('u', ['superscript']), text(' '), text('d', ['subscript']), text(' '),
        { object: 'leaf', text: 'r', marks: [{ object: 'mark', type: 'color', data: { text: 'red', background: 'default' } }] },
      ),
    ]);
  });

  it('reads links to URLs, pages, anchors, files and spaces as content references', () => {
    const [block] = blocks('[a](https://x.io) [b](/pages/p1) [c](/pages/p1#sec) [d](#top) [e](/files/f1) [f](/spaces/s1)') as Array<{ nodes: Array<{ type?: string; data?: unknown }> }>;
    expect(block.nodes.filter((n) => n.type === 'link').map((n) => n.data)).toEqual([
      { ref: { kind: 'url', url: 'https://x.io' } },
      { ref: { kind: 'page', page: 'p1' } },
      { ref: { kind: 'anchor', anchor: 'sec', page: 'p1' } },
      { ref: { kind: 'anchor', anchor: 'top' } },
      { ref: { kind: 'file', file: 'f1' } },
      { ref: { kind: 'space', space: 's1' } },
    ]);
  });

  it('reads ordered, unordered and nested task lists', () => {
    expect(blocks('3. a\n4. b\n\n* [ ] t\n  * [x] u\n')).toEqual([
      {
        object: 'block', type: 'list-ordered', data: { start: 3 },
        nodes: [
          { object: 'block', type: 'list-item', data: {}, nodes: [paragraph(text('a'))] },
          { object: 'block', type: 'list-item', data: {}, nodes: [paragraph(text('b'))] },
        ],
      },
      {
        object: 'block', type: 'list-tasks', data: {},
        nodes: [{
          object: 'block', type: 'list-item', data: { checked: false },
          nodes: [
            paragraph(text('t')),
            { object: 'block', type: 'list-tasks', data: {}, nodes: [{ object: 'block', type: 'list-item', data: { checked: true }, nodes: [paragraph(text('u'))] }] },
          ],
        }],
      },
    ]);
  });

  it('reads code blocks with syntax and title, from {% code %} or from the info string', () => {
    const line = (value: string) => ({ object: 'block', type: 'code-line', data: {}, nodes: [{ object: 'text', leaves: [text(value)] }] });
    expect(blocks('{% code title="a.js" overflow="wrap" lineNumbers="true" %}\n```js\nx\ny\n```\n{% endcode %}\n\n```py title="b.py"\nz\n```')).toEqual([
      { object: 'block', type: 'code', data: { syntax: 'js', title: 'a.js', overflow: 'wrap', lineNumbers: true }, nodes: [line('x'), line('y')] },
      { object: 'block', type: 'code', data: { syntax: 'py', title: 'b.py' }, nodes: [line('z')] },
    ]);
  });

  it('reads a hint, even when its closing tag follows a list without a blank line', () => {
    expect(blocks('{% hint style="warning" %}\n* a\n{% endhint %}\n\nafter')).toEqual([
      {
        object: 'block', type: 'hint', data: { style: 'warning' },
        nodes: [{ object: 'block', type: 'list-unordered', data: {}, nodes: [{ object: 'block', type: 'list-item', data: {}, nodes: [paragraph(text('a'))] }] }],
      },
      paragraph(text('after')),
    ]);
  });

  it('reads tabs', () => {
    expect(blocks('{% tabs %}\n{% tab title="A" %}\none\n{% endtab %}\n{% tab title="B" %}\ntwo\n{% endtab %}\n{% endtabs %}')).toEqual([
      {
        object: 'block', type: 'tabs', data: {},
        nodes: [
          { object: 'block', type: 'tabs-item', data: { title: 'A' }, nodes: [paragraph(text('one'))] },
          { object: 'block', type: 'tabs-item', data: { title: 'B' }, nodes: [paragraph(text('two'))] },
        ],
      },
    ]);
  });

  it('reads an expandable written as <details>', () => {
    expect(blocks('<details open>\n\n<summary>Title <strong>x</strong></summary>\n\nBody\n\n</details>')).toEqual([
      {
        object: 'block', type: 'expandable', isVoid: true, data: { defaultExpanded: true },
        fragments: [
          { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [paragraph(text('Title '), text('x', ['bold']))] },
          { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [paragraph(text('Body'))] },
        ],
      },
    ]);
  });

  it('reads a GFM table into records, definitions and fragments', () => {
    expect(blocks('| A | B |\n| - | -: |\n| 1 | **2** |')).toEqual([
      {
        object: 'block', type: 'table', isVoid: true,
        data: {
          view: { type: 'grid', columns: ['c0', 'c1'], hideHeader: false },
          records: { r0: { orderIndex: 'a0', values: { c0: 'r0c0', c1: 'r0c1' } } },
          definition: {
            c0: { id: 'c0', title: 'A', type: 'text', textAlignment: 'left' },
            c1: { id: 'c1', title: 'B', type: 'text', textAlignment: 'right' },
          },
        },
        fragments: [
          { object: 'fragment', fragment: 'r0c0', nodes: [paragraph(text('1'))] },
          { object: 'fragment', fragment: 'r0c1', nodes: [paragraph(text('2', ['bold']))] },
        ],
      },
    ]);
  });

  it('hides a table header only when its cells hold nothing: a button or a formula is no title, yet shown', () => {
    const table = (markdown: string) => blocks(markdown)[0] as unknown as { data: { view: { hideHeader: boolean } }; fragments: Array<{ fragment: string }> };
    const shown = table('| <a href="https://x.io/q" class="button primary">Vorb</a> | $$x$$ |\n|:--|:--|');
    expect(shown.data.view.hideHeader).toBe(false);
    expect(shown.fragments.map((f) => f.fragment)).toEqual(['header-c0', 'header-c1']);
    expect(table('|  |  |\n| - | - |\n| a | b |').data.view.hideHeader).toBe(true);
  });

  it('reads block images with captions and inline images', () => {
    expect(blocks('<figure><img src="/files/f1" alt="Alt"><figcaption><p>Cap</p></figcaption></figure>\n\nSee ![i](https://x.io/i.png) here')).toEqual([
      {
        object: 'block', type: 'images', isVoid: false, data: {},
        nodes: [{
          object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: 'f1' }, alt: 'Alt' },
          fragments: [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(text('Cap'))] }],
        }],
      },
      {
        object: 'block', type: 'paragraph', data: {},
        nodes: [
          { object: 'text', leaves: [text('See ')] },
          { object: 'inline', type: 'inline-image', isVoid: true, data: { ref: { kind: 'url', url: 'https://x.io/i.png' }, alt: 'i' } },
          { object: 'text', leaves: [text(' here')] },
        ],
      },
    ]);
  });

  it('reads embeds, content-refs, files, dividers, quotes and math', () => {
    expect(blocks('{% embed url="https://youtu.be/x" %}\n\n{% content-ref url="/pages/p2" %}\n[p2](/pages/p2)\n{% endcontent-ref %}\n\n{% file src="/files/f2" %}\ncaption\n{% endfile %}\n\n---\n\n> q\n\n$$\na^2\n$$')).toEqual([
      { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://youtu.be/x' } },
      { object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'page', page: 'p2' }, text: 'p2' } },
      {
        object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: 'f2' } },
        fragments: [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(text('caption'))] }],
      },
      { object: 'block', type: 'divider', isVoid: true, data: {} },
      { object: 'block', type: 'blockquote', data: {}, nodes: [paragraph(text('q'))] },
      { object: 'block', type: 'math', isVoid: true, data: { formula: 'a^2' } },
    ]);
  });

  it('reads an escaped embed URL as the URL it means', () => {
    expect(blocks('{% embed url="https://y.io/?list=a\\_b" %}')).toEqual([
      { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://y.io/?list=a_b', written: 'https://y.io/?list=a\\_b' } },
    ]);
  });

  it('reads inline math and both expression forms', () => {
    expect(blocks('$$x_1$$ and <code class="expression">space.vars.a</code> and {{ page.vars.b }}')).toEqual([
      {
        object: 'block', type: 'paragraph', data: {},
        nodes: [
          { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'x_1' } },
          { object: 'text', leaves: [text(' and ')] },
          { object: 'inline', type: 'expression', isVoid: true, data: { expression: 'space.vars.a' } },
          { object: 'text', leaves: [text(' and ')] },
          { object: 'inline', type: 'expression', isVoid: true, data: { expression: 'page.vars.b' } },
        ],
      },
    ]);
  });

  it('keeps code in a hint, where GitBook writes it though its published schema does not list it (dialect.ts)', () => {
    const [hint] = blocks('{% hint style="info" %}\n```sh\nls\n```\n{% endhint %}') as Array<{ nodes: Array<{ type: string }> }>;
    expect(hint.nodes.map((n) => n.type)).toEqual(['code']);
  });

  it('fits blocks GitBook does not allow in a container: a hint in a quote becomes its content', () => {
    const [quote] = blocks('> {% hint style="info" %}\n> Careful.\n> {% endhint %}') as Array<{ nodes: unknown[] }>;
    expect(quote.nodes).toEqual([paragraph(text('Careful.'))]);
  });

  it('keeps unknown tags and raw HTML verbatim, as markup blocks', () => {
    expect(blocks('{% raw %}\n\n<table><tr><td>x</td></tr></table>')).toEqual([
      markupBlock('liquid', '{% raw %}'),
      markupBlock('html', '<table><tr><td>x</td></tr></table>'),
    ]);
  });
});

describe('documentToMarkdown', () => {
  const cases: Array<[string, string, string]> = [
    ['emphasis', 'Some *em*, __strong__ and ~strike~ text', 'Some _em_, **strong** and ~~strike~~ text\n'],
    ['marks GitBook writes as HTML', '<kbd>K</kbd> H<sub>2</sub>O x<sup>2</sup> <mark style="background-color:yellow;">hi</mark>', '<kbd>K</kbd> H<sub>2</sub>O x<sup>2</sup> <mark style="background-color:yellow;">hi</mark>\n'],
    ['intra-word emphasis', 'snake*case*word', 'snake*case*word\n'],
    ['bold next to punctuation falls back to HTML', 'a<strong>"b"</strong>c', 'a<strong>"b"</strong>c\n'],
    ['escaping', '\\# not a heading, 1\\. not a list, a \\* star, \\[x\\]', '\\# not a heading, 1. not a list, a \\* star, \\[x]\n'],
    ['+/- and = in prose after a break stay bare; list markers do not', 'a\\\n+/- b\\\n\\- c\\\n\\===', 'a\\\n+/- b\\\n\\- c\\\n\\===\n'],
    ['a caption that starts with a break', '<figure><img src="a.png" alt=""><figcaption><p><br>Caption</p></figcaption></figure>', '<figure><img src="a.png" alt=""><figcaption><p><br>Caption</p></figcaption></figure>\n'],
    ['in text [ is escaped and ] is not, as GitBook writes them', '\\[WARN] a \\[b](c) d', '\\[WARN] a \\[b](c) d\n'],
    ['in a summary brackets are escaped only where they would open a link', '<details><summary>[WARN] a \\[b](c) d</summary>\n\nx\n\n</details>', '<details>\n\n<summary>[WARN] a \\[b](c) d</summary>\n\nx\n\n</details>\n'],
    ['equal bold and italic nest italic outside, as GitBook writes them', '**_x_** and <mark style="color:red;">**y**</mark>', '_**x**_ and <mark style="color:red;">**y**</mark>\n'],
    ['an apostrophe in an HTML attribute is written &#x27;', '<figure><img src="a.png" alt="It\'s"><figcaption></figcaption></figure>', '<figure><img src="a.png" alt="It&#x27;s"><figcaption></figcaption></figure>\n'],
    ['a figure set back to the page width keeps its wrapper', '<div data-full-width="false"><figure><img src="a.png" alt=""><figcaption></figcaption></figure></div>', '<div data-full-width="false"><figure><img src="a.png" alt=""><figcaption></figcaption></figure></div>\n'],
    ['a task box at the start of an item stays escaped', '* \\[ ] not a task', '* \\[ ] not a task\n'],
    ['no escape for ! and $ where nothing follows, as GitBook writes them', 'Try it! **$20** and \\![x](y)', 'Try it! **$20** and \\![x](y)\n'],
    ['underscores escaped inside words too, as GitBook writes them', 'MY_VAR and snake\\_case', 'MY\\_VAR and snake\\_case\n'],
    ['a hard break ending a paragraph, with the space before it', 'end. \\\nlast\\\n\nnext\\', 'end. \\\nlast<br>\n\nnext<br>\n'],
    ['a paragraph of only a break', 'a\n\n\\\n\nb', 'a\n\n\\\n\nb\n'],
    ['a literal backslash ending a paragraph', 'a \\\\\n\nb', 'a \\\\\n\nb\n'],
    ['escaping at line starts', '1\\. not a list\\\n\\- nor this', '1\\. not a list\\\n\\- nor this\n'],
    ['hard breaks', 'one\\\ntwo  \nthree', 'one\\\ntwo\\\nthree\n'],
    ['trailing entity spaces are trimmed', 'text&#x20;', 'text\n'],
    ['bullets and dividers the way GitBook writes them', '- a\n- b\n\n---\n\nc', '* a\n* b\n\n***\n\nc\n'],
    ['nested lists stay tight', '* a\n    * b\n* c', '* a\n  * b\n* c\n'],
    ['task lists', '- [x] done\n- [ ] todo', '* [x] done\n* [ ] todo\n'],
    ['ordered list start', '5) five\n6) six', '5. five\n6. six\n'],
    ['adjacent lists stay two lists', '* a\n\n\n<!-- -->\n\n* b', '* a\n\n- b\n'],
    ['code with a title', '```js title="a.js"\nx\n```', '{% code title="a.js" %}\n```js\nx\n```\n{% endcode %}\n'],
    ['code holding fences', '````\n```\n````', '````\n```\n````\n'],
    ['hint', '{% hint style=\'danger\' %}\nStop.\n{% endhint %}', '{% hint style="danger" %}\nStop.\n{% endhint %}\n'],
    ['tabs', '{% tabs %}{% tab title="A" %}a{% endtab %}{% tab title="B" %}b{% endtab %}{% endtabs %}', '{% tabs %}\n{% tab title="A" %}\na\n{% endtab %}\n\n{% tab title="B" %}\nb\n{% endtab %}\n{% endtabs %}\n'],
    ['expandable', '<details><summary>T</summary>\n\nBody\n\n</details>', '<details>\n\n<summary>T</summary>\n\nBody\n\n</details>\n'],
    ['embed', '{% embed url="https://youtu.be/x" %}', '{% embed url="https://youtu.be/x" %}\n'],
    ['content-ref', '{% content-ref url="/pages/p1" %} . {% endcontent-ref %}', '{% content-ref url="/pages/p1" %}\n[/pages/p1](/pages/p1)\n{% endcontent-ref %}\n'],
    ['file', '{% file src="/files/f1" %}', '{% file src="/files/f1" %}\n{% endfile %}\n'],
    ['block image from a lone markdown image (its text is the alt text, not a caption)', '![Alt](/files/f1)', '![Alt](/files/f1)\n'],
    ['a figure keeps its (empty) caption and its form', '<figure><img src="/files/f1" alt="Alt"><figcaption></figcaption></figure>', '<figure><img src="/files/f1" alt="Alt"><figcaption></figcaption></figure>\n'],
    ['a markdown image with a dark-mode source cannot stay markdown', '<picture><source srcset="a b.png" media="(prefers-color-scheme: dark)"><img src="c.png" alt=""></picture>', '<picture><source srcset="a b.png" media="(prefers-color-scheme: dark)"><img src="c.png" alt=""></picture>\n'],
    ['a file keeps its caption', '{% file src="/files/f1" %}\nThe **manual**\n{% endfile %}', '{% file src="/files/f1" %}\nThe **manual**\n{% endfile %}\n'],
    ['a drawing', '<img src="../a b.svg" alt="" class="gitbook-drawing">', '<img src="../a b.svg" alt="" class="gitbook-drawing">\n'],
    ['GitBook\'s empty bold stays bare', 'GitBook **** integrations', 'GitBook **** integrations\n'],
    ['mentions and content-refs keep their text', '[Setup](a.md "mention")\n\n{% content-ref url="a.md" %}\n[Set up](a.md)\n{% endcontent-ref %}', '[Setup](a.md "mention")\n\n{% content-ref url="a.md" %}\n[Set up](a.md)\n{% endcontent-ref %}\n'],
    ['inline image alone in a paragraph keeps the <img> form', '<img src="/files/f1" alt="x">', '<img src="/files/f1" alt="x">\n'],
    ['inline image with a size', 'a <img src="/files/f1" alt="x" data-size="line"> b', 'a <img src="/files/f1" alt="x" data-size="line"> b\n'],
    ['table', '|a|b|\n|:-:|-|\n|1|2|', '| a   | b   |\n| :-: | --- |\n| 1   | 2   |\n'],
    ['a column title keeps its marks as written', '| **Name** | Kind |\n| --- | --- |\n| a | b |', '| **Name** | Kind |\n| -------- | ---- |\n| a        | b    |\n'],
    ['a cell holding a line break is an HTML paragraph, as GitBook writes it', '| x |\n| --- |\n| <p><a href="a.md"><strong>A</strong></a><br>More</p> |', '| x                                                    |\n| ---------------------------------------------------- |\n| <p><a href="a.md"><strong>A</strong></a><br>More</p> |\n'],
    ['a destination keeps the escapes it was written with, others are written plain', '[a](https://x.io/?t=more\\_info) [b](https://x.io/a_b) ![](c\\_d.png)', '[a](https://x.io/?t=more\\_info) [b](https://x.io/a_b) ![](c\\_d.png)\n'],
    ['a backslash before a letter stays bare, as GitBook writes it', 'C:\\Windows and \\\\* and a\\\\', 'C:\\Windows and \\\\\\* and a\\\\\n'],
    ['wide list markers (GitBook\'s older writing) stay wide', '4. One\n5.  Two:\n\n    More\n\n*   Three', '4. One\n5.  Two:\n\n    More\n\n*   Three\n'],
    ['an embed URL escaped by GitBook\'s older export means the plain URL, and is written back as it was', '{% embed url="https://y.io/?list=a\\_b" %}', '{% embed url="https://y.io/?list=a\\_b" %}\n'],
    ['& in an HTML attribute is written &#x26;', '<figure><img src="https://x.io/?a=1&b=2" alt=""><figcaption></figcaption></figure>', '<figure><img src="https://x.io/?a=1&#x26;b=2" alt=""><figcaption></figcaption></figure>\n'],
    ['a figure wrapped over blank lines in a list item is a figure, not text', '1. Go\n\n   <div data-full-width="true">\n\n   <figure><img src="a.png" alt=""><figcaption><p>Tab</p></figcaption></figure>\n\n   </div>\n2. Next', '1. Go\n\n   <figure><img src="a.png" alt=""><figcaption><p>Tab</p></figcaption></figure>\n2. Next\n'],
    ['a wrapper holding more than figures stays markdown', '<div align="center">\n\n<img src="a.png">\n\nSome text\n\n</div>', '<div align="center">\n\n<img src="a.png" alt="">\n\nSome text\n\n</div>\n'],
    ['a paragraph keeps its leading spaces as GitBook writes them', '&#x20;`code` first\n\n&#x20; two', '&#x20;`code` first\n\n&#x20; two\n'],
    ['a page of GitBook\'s older export keeps its escaped parentheses', 'About \\(24 hours\\) and [x](https://x.io/(a))\n\n```\n(code)\n```', 'About \\(24 hours\\) and [x](<https://x.io/(a)>)\n\n```\n(code)\n```\n'],
    ['a page with a bare parenthesis writes them all bare', 'About \\(24 hours\\) (and more)', 'About (24 hours) (and more)\n'],
    ['a summary keeps its trailing space', '<details><summary>Step 1 </summary>\n\nx\n\n</details>', '<details>\n\n<summary>Step 1 </summary>\n\nx\n\n</details>\n'],
    ['a number at a line start is a list marker only before a space', '197.5 SSV\n\n1\\. not a list', '197.5 SSV\n\n1\\. not a list\n'],
    ['math: $$x$$ alone on its line is inline math, as GitBook writes it (its math block is three lines)', '$$x$$\n\ninline $$y$$\n\n$$\nz\n$$', '$$x$$\n\ninline $$y$$\n\n$$\nz\n$$\n'],
    ['expressions', '{{ space.vars.v }}', '<code class="expression">space.vars.v</code>\n'],
    ['links are written [text](url), typed URLs stay text', '<https://x.io> www.y.io a@b.io [https://z.io](https://z.io)', '[https://x.io](https://x.io) www.y.io a@b.io [https://z.io](https://z.io)\n'],
    ['quote', '> a\n>\n> b', '> a\n>\n> b\n'],
    ['aligned paragraph', '<p align="center">Hi <strong>there</strong></p>', '<p align="center">Hi <strong>there</strong></p>\n'],
    // Front matter is a page file's, split off before reading (front-matter.ts): here `---` is a divider, and nothing between two is lost.
    ['markdown opening with `---` opens with a divider', '---\n\nA sentence.\n\n---\n\nMore.', '***\n\nA sentence.\n\n***\n\nMore.\n'],
  ];

  it.each(cases)('%s', (_name, input, expected) => {
    expect(normalizeMarkdown(input)).toBe(expected);
    expect(normalizeMarkdown(expected)).toBe(expected);
  });

  it('writes a document built in code', () => {
    const nodes: Block[] = [
      { object: 'block', type: 'heading-2', data: { id: 'intro' }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Intro', marks: [] }] }] },
      {
        object: 'block', type: 'paragraph', data: {},
        nodes: [
          { object: 'text', leaves: [{ object: 'leaf', text: 'See ', marks: [] }] },
          { object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'page', page: 'p9' } }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'page', marks: [{ object: 'mark', type: 'bold' }] }] }] },
        ],
      },
      { object: 'block', type: 'hint', data: { style: 'success' }, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Done', marks: [] }] }] }] },
    ];
    const document: Document = { object: 'document', data: {}, nodes };
    expect(documentToMarkdown(document)).toBe('## Intro <a href="#intro" id="intro"></a>\n\nSee [**page**](/pages/p9)\n\n{% hint style="success" %}\nDone\n{% endhint %}\n');
  });

  it('writes bold beside a mention labelled with its page\'s title as markdown (the label is no difference the text shows)', () => {
    // labelMentions gives a mention its page's title to write with; the read-back check took the
    // label for a difference and wrote the paragraph's marks as HTML (`<strong>Note</strong>:`).
    const paragraph = (data: Record<string, unknown>): Document => ({
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block', type: 'paragraph', data: {},
          nodes: [
            { object: 'text', leaves: [{ object: 'leaf', text: 'Note', marks: [{ object: 'mark', type: 'bold' }] }, { object: 'leaf', text: ': see the ', marks: [] }] },
            { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'url', url: '../a.md' }, ...data } } as never,
            { object: 'text', leaves: [{ object: 'leaf', text: ' section.', marks: [] }] },
          ],
        },
      ],
    });
    expect(documentToMarkdown(paragraph({ text: 'a.md', label: 'A page' }))).toBe('**Note**: see the [a.md](../a.md "mention") section.\n');
    expect(documentToMarkdown(paragraph({ label: 'A page' }))).toBe('**Note**: see the [A page](../a.md "mention") section.\n');
  });

  it('writes an empty document as an empty string', () => {
    expect(documentToMarkdown({ object: 'document', data: {}, nodes: [] })).toBe('');
    expect(markdownToDocument('')).toEqual({ object: 'document', data: {}, nodes: [] });
  });
});
