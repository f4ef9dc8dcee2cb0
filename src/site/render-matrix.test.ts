/*
 * Published pages never show raw markup: every block kind of the dialect in every container
 * it may stand in, every inline kind and mark, and GitBook-written constructs from the wild
 * (read from markdown) render to HTML whose visible text holds no `<p>`, `<table`, `<button`,
 * `{%` or escaped `\<`.
 */
import { describe, expect, it } from 'vitest';
import { BLOCK_SAMPLES, INLINE_SAMPLES, MARK_SAMPLES, inContainer, leaf, matrix, paragraph, text } from '../../test/markdown-samples.ts';
import { markdownToDocument } from '../content/markdown/parse.ts';
import { normalizeDocument } from '../content/markdown/normalize.ts';
import type { Document } from '../content/markdown/types.ts';
import { renderDocument, type RenderLinks } from './render-document.ts';

const links: RenderLinks = {
  page: (id) => `/site/${id}`,
  space: () => null,
  file: (id) => ({ url: `https://files.test/${id}`, name: `${id}.pdf` }),
};

/** What a reader sees: tags dropped (script-free output), entities decoded. */
function visibleText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&');
}

const RAW = [/<p>/i, /<\/p>/i, /<table/i, /<button/i, /\{%/, /\\</, /<figure/i, /<details/i, /<img/i, /<mark/i];

function expectNoRawMarkup(document: Document, label: string): void {
  const seen = visibleText(renderDocument(normalizeDocument(document), links).html);
  for (const pattern of RAW) expect(seen, `${label}: ${pattern}`).not.toMatch(pattern);
}

describe('published pages show no raw markup', () => {
  it('for every block kind in every container it may stand in', () => {
    for (const { kind, container } of matrix()) {
      expectNoRawMarkup({ object: 'document', data: {}, nodes: inContainer(container, [BLOCK_SAMPLES[kind]()]) }, `${kind} in ${container}`);
    }
  });

  it('for every inline kind and mark', () => {
    for (const [kind, sample] of Object.entries(INLINE_SAMPLES)) expectNoRawMarkup({ object: 'document', data: {}, nodes: [paragraph(text(leaf('a ')), sample())] }, kind);
    for (const [kind, sample] of Object.entries(MARK_SAMPLES)) expectNoRawMarkup({ object: 'document', data: {}, nodes: [paragraph(text(leaf('x', [sample()])))] }, kind);
  });

  const WILD: Record<string, string> = {
    'table in a tab': '{% tabs %}\n{% tab title="Flags" %}\n| Flag | Type |\n| ---- | ---- |\n| `-v` | bool |\n{% endtab %}\n{% endtabs %}',
    'HTML table': '<table><thead><tr><th width="200">Name</th><th>Value</th></tr></thead><tbody><tr><td>a</td><td>b</td></tr></tbody></table>',
    'HTML table in a list item': '* Item\n\n  <table><thead><tr><th>Name</th></tr></thead><tbody><tr><td><code>a</code></td></tr></tbody></table>',
    'paragraphs in a pipe cell': '| Name |\n| ---- |\n| <p><code>a</code></p><p>b</p> |',
    'captioned embed': '{% embed url="https://x.io/v" %}\nCaption text\n{% endembed %}',
    'action button': '<button type="button" class="button primary" data-action="ask" data-query="How?">Ask</button>',
    'link-less button': 'Text <a class="button primary">Go</a> more',
    'escaped angle bracket after a URL': 'See https://x/#/\\<NAME> here',
    'code in a hint and a quote': '{% hint style="info" %}\n```js\nlet a = 1;\n```\n{% endhint %}\n\n> ```js\n> let b;\n> ```',
    'integration block': '{% @github-files/github-code-block url="https://github.com/a/b/blob/main/x.js" %}',
    'drawing in a list item': '* Item\n\n  <img src="https://x.io/d.svg" alt="" class="gitbook-drawing">',
    'indented image in a list item': '* Item\n\n      ![shot](https://x.io/a.png)',
    'figure in a div': '<div align="left"><figure><img src="https://x.io/a.png" alt="" width="300"><figcaption></figcaption></figure></div>',
  };
  for (const [name, markdown] of Object.entries(WILD)) {
    it(`for GitBook-written markdown: ${name}`, () => expectNoRawMarkup(markdownToDocument(markdown), name));
  }

  it('shows an integration block\'s URL as a link', () => {
    const html = renderDocument(markdownToDocument('{% @github-files/github-code-block url="https://github.com/a/b/blob/main/x.js" %}'), links).html;
    expect(html).toContain('href="https://github.com/a/b/blob/main/x.js"');
  });
});
