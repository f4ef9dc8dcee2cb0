import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument } from '../markdown/index.ts';
import type { InlineContent } from '../markdown/types.ts';
import { countWords, extractDocument, hasText, htmlToPlain, inlineSegment, protectTerms } from './index.ts';

/** Upper-cases text between tags, as the provider stand-ins do. */
const upper = (html: string) => html.replace(/(<[^>]*>)|([^<]+)/g, (w, tag, text) => (tag ? tag : text.replace(/(&[a-z]+;)|([^&]+)/gi, (x: string, e: string, p: string) => (e ? e : p.toUpperCase()))));

const MARKDOWN = `# Hello world

Some **bold _and italic_** text with \`code()\` and a [link to docs](https://example.com/x?a=1&b=2) here, plus $$E=mc^2$$.

\`\`\`js
const greeting = "hello";
\`\`\`

{% hint style="info" %}
A hint with <kbd>Ctrl</kbd> in it.
{% endhint %}

| Name | Value |
| ---- | ----- |
| Cell one | 42 |

<div class="keep" title="not translated">raw html</div>

* item one
* item two
`;

describe('segments of a document', () => {
  it('sends text with its inline markup, never code, math, URLs or HTML blocks', () => {
    const extracted = extractDocument(markdownToDocument(MARKDOWN));
    const all = extracted.segments.join('\n');
    expect(extracted.segments[0]).toBe('Hello world');
    expect(extracted.segments[1]).toBe('Some <b>bold </b><b><i>and italic</i></b> text with <span translate="no" id="v0"></span> and a <a id="l1">link to docs</a> here, plus <span translate="no" id="v2"></span>.');
    for (const hidden of ['code()', 'greeting', 'example.com', 'mc^2', 'raw html', 'keep', '42']) expect(all).not.toContain(hidden);
    expect(extracted.segments).toContain('Cell one');
    expect(extracted.segments).toContain('Name');
  });

  it('rebuilds the document: text translated, marks, links, code, math and HTML as they were', () => {
    const extracted = extractDocument(markdownToDocument(MARKDOWN));
    const markdown = documentToMarkdown(extracted.rebuild(extracted.segments.map(upper)));
    expect(markdown).toContain('# HELLO WORLD');
    expect(markdown).toContain('SOME **BOLD _AND ITALIC_** TEXT WITH `code()` AND A [LINK TO DOCS](https://example.com/x?a=1&b=2) HERE, PLUS $$E=mc^2$$.');
    expect(markdown).toContain('```js\nconst greeting = "hello";\n```');
    expect(markdown).toContain('<div class="keep" title="not translated">raw html</div>');
    expect(markdown).toContain('| CELL ONE | 42    |');
    expect(markdown).toContain('* ITEM ONE');
  });

  it('keeps variables and expressions as they are', () => {
    const extracted = extractDocument(markdownToDocument('Version <code class="expression">space.vars.version</code> of the product.\n'));
    expect(extracted.segments).toEqual(['Version <span translate="no" id="v0"></span> of the product.']);
    const rebuilt = extracted.rebuild(['<span translate="no" id="v0"></span> est la version du produit.']);
    expect(rebuilt.nodes[0]).toMatchObject({ nodes: [{ object: 'inline', type: 'expression', data: { expression: 'space.vars.version' } }, { object: 'text', leaves: [{ text: ' est la version du produit.' }] }] });
  });

  it('leaves the source document unchanged', () => {
    const document = markdownToDocument(MARKDOWN);
    const before = JSON.stringify(document);
    const extracted = extractDocument(document);
    extracted.rebuild(extracted.segments.map(upper));
    expect(JSON.stringify(document)).toBe(before);
  });

  it('refuses a different number of translations', () => {
    const extracted = extractDocument(markdownToDocument('One.\n\nTwo.\n'));
    expect(() => extracted.rebuild(['UN.'])).toThrow(/expected 2/);
  });

  it('counts words and knows a segment with nothing to translate', () => {
    expect(countWords('Some <b>bold</b> text, 3 times <span translate="no" id="v0"></span>')).toBe(5);
    expect(hasText('<span translate="no" id="v0"></span> 42')).toBe(false);
    expect(extractDocument(markdownToDocument('`only code`\n')).segments).toEqual([]);
    expect(htmlToPlain('A &amp; B <b>c</b>')).toBe('A & B c');
  });
});

describe('reading translated inline HTML', () => {
  const nodes: InlineContent[] = [
    { object: 'text', leaves: [{ object: 'leaf', text: 'Press ', marks: [] }, { object: 'leaf', text: 'save', marks: [{ object: 'mark', type: 'code' }] }, { object: 'leaf', text: ' now', marks: [{ object: 'mark', type: 'color', data: { text: 'red', background: 'default' } }] }] },
    { object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'url', url: 'https://x.test' } }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'here', marks: [] }] }] },
  ];

  it('moves placeholders where the translation puts them and keeps color marks and links', () => {
    const segment = inlineSegment(nodes);
    expect(segment.html).toBe('Press <span translate="no" id="v0"></span><span id="c1"> now</span><a id="l2">here</a>');
    const read = segment.read('<a id="l2">Ici</a>, appuyez <span id="c1">maintenant</span> sur <span translate="no" id="v0"></span>');
    expect(read).toEqual([
      { object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'url', url: 'https://x.test' } }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Ici', marks: [] }] }] },
      {
        object: 'text',
        leaves: [
          { object: 'leaf', text: ', appuyez ', marks: [] },
          { object: 'leaf', text: 'maintenant', marks: [{ object: 'mark', type: 'color', data: { text: 'red', background: 'default' } }] },
          { object: 'leaf', text: ' sur ', marks: [] },
          { object: 'leaf', text: 'save', marks: [{ object: 'mark', type: 'code' }] },
        ],
      },
    ]);
  });

  it('puts back at the end what a translation dropped, and decodes entities', () => {
    const segment = inlineSegment(nodes);
    const read = segment.read('Appuyez &amp; voilà');
    expect(read[0]).toEqual({ object: 'text', leaves: [{ object: 'leaf', text: 'Appuyez & voilà', marks: [] }, { object: 'leaf', text: 'save', marks: [{ object: 'mark', type: 'code' }] }] });
    expect(read[1]).toMatchObject({ type: 'link', data: { ref: { kind: 'url', url: 'https://x.test' } } });
  });

  it('accepts self-closed placeholders and strong/em spellings', () => {
    const segment = inlineSegment([{ object: 'text', leaves: [{ object: 'leaf', text: 'a', marks: [{ object: 'mark', type: 'code' }] }, { object: 'leaf', text: ' b', marks: [{ object: 'mark', type: 'bold' }] }] }]);
    const read = segment.read('<span translate="no" id="v0"/> <strong>B</strong>');
    expect(read).toEqual([{ object: 'text', leaves: [{ object: 'leaf', text: 'a', marks: [{ object: 'mark', type: 'code' }] }, { object: 'leaf', text: ' ', marks: [] }, { object: 'leaf', text: 'B', marks: [{ object: 'mark', type: 'bold' }] }] }]);
  });
});

describe('glossary protection', () => {
  it('replaces whole-word terms outside tags by placeholders and restores their target forms', () => {
    const glossary = protectTerms(['Quire serves a package, not packages. <a id="l0">Quire</a>'], [
      { source: 'Quire', target: 'Quire' },
      { source: 'package', target: 'paquet' },
    ]);
    expect(glossary.segments[0]).toBe('<span translate="no" id="g0"></span> serves a <span translate="no" id="g1"></span>, not packages. <a id="l0"><span translate="no" id="g2"></span></a>');
    const restored = glossary.restore([upper(glossary.segments[0])]);
    expect(restored[0]).toBe('Quire SERVES A paquet, NOT PACKAGES. <a id="l0">Quire</a>');
  });

  it('a placeholder the provider dropped comes back at the end', () => {
    const glossary = protectTerms(['Use Quire.'], [{ source: 'Quire', target: 'Quire' }]);
    expect(glossary.restore(['Utilisez.'])).toEqual(['Utilisez. Quire']);
  });
});
