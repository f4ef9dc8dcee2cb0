import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../content/markdown/parse.ts';
import type { Block, Document } from '../content/markdown/types.ts';
import { escapeHtml, safeColor, safeUrl } from './html.ts';
import { prepareHighlighter } from './highlight.ts';
import { renderDocument, type RenderLinks } from './render-document.ts';

const links: RenderLinks = {
  page: (id, space) => (space && space !== 'here' ? (space === 'other' ? `/other/${id}` : null) : `/site/${id}`),
  space: (space) => (space === 'other' ? '/other/' : null),
  file: (id) => (id === 'f1' ? { url: 'https://files.test/f1?sig=a&b=c', name: 'report.pdf' } : null),
};

const doc = (...nodes: Block[]): Document => ({ object: 'document', data: {}, nodes });
// Block-level newlines dropped, for shorter expectations (no test input has multi-line code).
const md = (markdown: string) => renderDocument(markdownToDocument(markdown), links).html.replace(/\n/g, '');
const text = (s: string) => ({ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: s, marks: [] }] });
const paragraph = (...nodes: any[]): Block => ({ object: 'block', type: 'paragraph', data: {}, nodes });

describe('renderDocument', () => {
  it('renders paragraphs, marks and headings with ids and an outline', () => {
    const out = renderDocument(markdownToDocument('## Intro text\n\nSome **bold**, _italic_, ~~gone~~ and `code`.\n\n### Intro text\n'), links);
    expect(out.html).toContain('<p>Some <strong>bold</strong>, <em>italic</em>, <s>gone</s> and <code>code</code>.</p>');
    expect(out.html).toContain('<h3 id="intro-text">Intro text');
    expect(out.html).toContain('<h4 id="intro-text-1">Intro text');
    expect(out.outline).toEqual([
      { id: 'intro-text', text: 'Intro text', level: 2 },
      { id: 'intro-text-1', text: 'Intro text', level: 3 },
    ]);
  });

  it('renders a hard line break as <br> (a soft one is a space), in prose, marks and table cells', () => {
    expect(md('Line one\\\nline two and\nsoft.\n')).toContain('<p>Line one<br>line two and soft.</p>');
    expect(md('**Bold one\\\nbold two**\n')).toContain('<strong>Bold one<br>bold two</strong>');
    expect(md('| A |\n| --- |\n| <p>x<br>y</p> |\n')).toContain('x<br>y');
  });

  it('renders lists, task lists and ordered lists with a start', () => {
    expect(md('- a\n- b\n')).toContain('<ul><li>a</li><li>b</li></ul>');
    expect(md('3. x\n4. y\n')).toContain('<ol start="3"><li>x</li><li>y</li></ol>');
    const tasks = md('- [x] done\n- [ ] todo\n');
    expect(tasks).toContain('<ul class="tasks"><li><input type="checkbox" disabled checked> done</li><li><input type="checkbox" disabled> todo</li></ul>');
  });

  it('renders code blocks escaped, with their language, title and copy button (plain before the highlighter loads)', () => {
    const html = md('{% code title="app.js" %}\n```js\nif (a < b && c) {}\n```\n{% endcode %}\n');
    expect(html).toContain('<span class="code-title">app.js</span><button type="button" class="copy-code" aria-label="Copy code">Copy</button>');
    expect(html).toContain('<code class="language-js"><span class="line">if (a &lt; b &amp;&amp; c) {}</span></code>');
  });

  it('highlights known languages on the server with light and dark colors, line numbers, marked lines and wrap', async () => {
    const code = (data: Record<string, unknown>, lines: { text: string; highlighted?: boolean }[]): Block => ({
      object: 'block',
      type: 'code',
      data,
      nodes: lines.map((l) => ({ object: 'block', type: 'code-line', data: l.highlighted ? { highlighted: true } : {}, nodes: [text(l.text)] })),
    }) as Block;
    await prepareHighlighter([code({ syntax: 'ts' }, []), code({ syntax: 'console' }, [])]);
    const html = renderDocument(doc(code({ syntax: 'ts', lineNumbers: true, overflow: 'wrap' }, [{ text: 'const a = "<b>";' }, { text: 'return a;', highlighted: true }]))).html;
    expect(html).toContain('<pre class="shiki wrap numbered" tabindex="0"><code class="language-ts">');
    expect(html).toMatch(/<span style="color:#CF222E;--shiki-dark:#FF7B72">const<\/span>/);
    expect(html).toContain('&quot;&lt;b&gt;&quot;');
    expect(html).not.toContain('<b>');
    expect(html).toContain('<span class="line marked">');
    expect((html.match(/class="line/g) ?? []).length).toBe(2);
    // Aliases documentation writes resolve; unknown languages stay plain and escaped.
    expect(renderDocument(doc(code({ syntax: 'console' }, [{ text: 'npm install' }]))).html).toContain('style="color:');
    // Names that are a grammar's alias, not its shiki id (bash and sh are shiki's shellscript).
    await prepareHighlighter([code({ syntax: 'bash' }, [])]);
    for (const syntax of ['bash', 'sh', 'shell']) {
      expect(renderDocument(doc(code({ syntax }, [{ text: 'echo "hi"' }]))).html, syntax).toContain('style="color:');
    }
    const plain = renderDocument(doc(code({ syntax: 'klingon' }, [{ text: 'a < b' }]))).html;
    expect(plain).toContain('<span class="line">a &lt; b</span>');
    expect(plain).toContain('<pre class="shiki" tabindex="0">');
  });

  it('renders hints, quotes, tables, expandables and tabs', () => {
    expect(md('{% hint style="danger" %}\nStop.\n{% endhint %}\n')).toContain('<div class="hint hint-danger" role="note"><p>Stop.</p></div>');
    expect(md('> quoted\n')).toContain('<blockquote><p>quoted</p></blockquote>');
    const table = md('| A | B |\n| :-: | --: |\n| 1 | **2** |\n');
    expect(table).toContain('<th style="text-align:center">A</th><th style="text-align:right">B</th>');
    expect(table).toContain('<td style="text-align:center">1</td><td style="text-align:right"><strong>2</strong></td>');
    const expandable = md('<details>\n\n<summary>More</summary>\n\nHidden text.\n\n</details>\n');
    expect(expandable).toContain('<details class="expandable" id="more"><summary>More</summary><div><p>Hidden text.</p>');
    const tabs = md('{% tabs %}\n{% tab title="One" %}\nFirst\n{% endtab %}\n{% tab title="Two" %}\nSecond\n{% endtab %}\n{% endtabs %}\n');
    expect(tabs).toContain('<input type="radio" class="tab-radio" name="tabs-1" id="tabs-1-0" checked><label class="tab-label" for="tabs-1-0">One</label>');
    expect(tabs).toContain('<label class="tab-label" for="tabs-1-1">Two</label><div class="tab-panel"><p>Second</p></div>');
  });

  it('shows a GitBook table kept as HTML (a card linking outside the space) as cards, escaped', () => {
    const html = md(
      '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead>' +
        '<tbody><tr><td><strong>GitBook</strong> &lt;docs&gt;</td><td><a href="https://www.gitbook.com">https://www.gitbook.com</a></td></tr>' +
        '<tr><td>Bad</td><td><a href="javascript:alert(1)">x</a></td></tr></tbody></table>\n',
    );
    expect(html).toBe(
      '<div class="cards"><a class="card" href="https://www.gitbook.com"><div class="card-cell"><strong>GitBook</strong> &lt;docs&gt;</div></a>' +
        '<div class="card"><div class="card-cell">Bad</div></div></div>',
    );
    // A cell's list items are shown apart (as paragraphs), never run together.
    expect(md('<table data-view="cards"><thead><tr><th></th><th></th></tr></thead><tbody><tr><td>Lamps</td><td><ul><li>Brass wick</li><li><strong>Clear glass</strong></li></ul></td></tr></tbody></table>\n')).toContain(
      '<div class="card-cell">Brass wick<br><strong>Clear glass</strong></div>',
    );
    // Paragraphs written as HTML on lines one after another are each shown, aligned as written.
    expect(md('<p align="center">Glim dorn</p>\n<p>Vask trel</p>\n')).toBe('<div class="html-block"><p align="center">Glim dorn</p><p>Vask trel</p></div>');
    expect(md('<p align="center">Glim dorn</p>\n')).toBe('<p style="text-align:center">Glim dorn</p>');
    // Any other verbatim HTML is sanitized as before.
    expect(md('<table onclick="x()"><tr><td>1</td></tr></table>\n')).toBe('<div class="html-block"><table><tr><td>1</td></tr></table></div>');
  });

  it('shows processing instructions, declarations, CDATA and textareas in verbatim HTML as written; comments stay hidden', () => {
    // A browser (and the sanitizer) would hide them, and the words a page wrote with them.
    expect(md("<?php system($_GET['vrak']); ?>\n")).toBe(`<div class="html-block"><code class="directive">&lt;?php system($_GET['vrak']); ?&gt;</code></div>`);
    expect(md('<!DOCTYPE plim [<!ENTITY zorb SYSTEM "file:///etc/passwd">]>\n')).toBe(
      '<div class="html-block"><code class="directive">&lt;!DOCTYPE plim [&lt;!ENTITY zorb SYSTEM "file:///etc/passwd"&gt;]&gt;</code></div>',
    );
    expect(md('<![CDATA[\nfrell\n]]>\n')).toBe('<div class="html-block"><code class="directive">&lt;![CDATA[\nfrell\n]]&gt;</code></div>'.replace(/\n/g, ''));
    // Unclosed, it runs to the block's end (CommonMark's kind 3); inside an element it is text too.
    expect(md('<?php echo gorp;\n')).toBe('<div class="html-block"><code class="directive">&lt;?php echo gorp;</code></div>');
    expect(md('<!DOCTYPE plim [\n<!ENTITY zorb SYSTEM "file:///etc/passwd">\n')).toBe(
      '<div class="html-block"><code class="directive">&lt;!DOCTYPE plim [\n&lt;!ENTITY zorb SYSTEM "file:///etc/passwd"&gt;</code></div>'.replace(/\n/g, ''),
    );
    expect(md('<div><?xml version="1.0"?><b>yarl</b></div>\n')).toBe('<div class="html-block"><div><code class="directive">&lt;?xml version="1.0"?&gt;</code><b>yarl</b></div></div>');
    // Comments show nothing, even holding a directive; the escaped text can open no element.
    expect(md('<!-- <?php hidden(); ?> -->\n')).toBe('<div class="html-block"></div>');
    expect(md('<?x <script>alert(1)</script> ?>\n')).toBe('<div class="html-block"><code class="directive">&lt;?x &lt;script&gt;alert(1)&lt;/script&gt; ?&gt;</code></div>');
    // A textarea's text is shown as written, preformatted: its tags are text, its entities read once.
    expect(md('<div><textarea rows="3">&lt;b&gt; tarn <script>alert(1)</script> AT&amp;T</textarea></div>\n')).toBe(
      '<div class="html-block"><div><pre>&lt;b&gt; tarn &lt;script&gt;alert(1)&lt;/script&gt; AT&amp;T</pre></div></div>',
    );
    // Inside an attribute value it is that attribute's text, not code.
    expect(md(`<div><a title="see <?php x(); ?>" href="https://e.test/">glim</a> <a title='<!DOCTYPE z>' href="https://e.test/">dree</a> <?y?></div>\n`)).toBe(
      '<div class="html-block"><div><a title="see &lt;?php x(); ?&gt;" href="https://e.test/">glim</a> <a title="&lt;!DOCTYPE z&gt;" href="https://e.test/">dree</a> <code class="directive">&lt;?y?&gt;</code></div></div>',
    );
  });

  it("shows a card's cover image (the cards view's files column) above its text, by the file's published URL", () => {
    const table: Block = {
      object: 'block',
      type: 'table',
      data: {
        view: { type: 'cards', columns: ['t'], cardSize: 'medium', coverDefinition: 'c' },
        definition: { t: { id: 't', type: 'text', title: 'Title', textAlignment: 'left' }, c: { id: 'c', type: 'files', title: 'Cover' } },
        records: { r1: { orderIndex: 'a0', values: { t: 'r1-t', c: ['f1'] } }, r2: { orderIndex: 'a1', values: { t: 'r2-t', c: ['gone'] } } },
      },
      fragments: [
        { object: 'fragment', fragment: 'r1-t', nodes: [paragraph(text('Covered'))] },
        { object: 'fragment', fragment: 'r2-t', nodes: [paragraph(text('Cover missing'))] },
      ],
      nodes: [],
    } as unknown as Block;
    const html = renderDocument(doc(table), links).html.replace(/\n/g, '');
    expect(html).toBe(
      '<div class="cards"><div class="card"><img class="card-cover" src="https://files.test/f1?sig=a&amp;b=c" alt="" loading="lazy"><div class="card-cell">Covered</div></div>' +
        '<div class="card"><div class="card-cell">Cover missing</div></div></div>',
    );
  });

  it('maps page, anchor, space and file references to published URLs', () => {
    const link = (ref: any, label: string) => ({ object: 'inline', type: 'link', isVoid: false, data: { ref }, nodes: [text(label)] });
    const html = renderDocument(
      doc(
        paragraph(
          link({ kind: 'page', page: 'p1' }, 'same space'),
          link({ kind: 'page', page: 'p2', space: 'other' }, 'other space'),
          link({ kind: 'page', page: 'p3', space: 'elsewhere' }, 'not on the site'),
          link({ kind: 'anchor', page: 'p1', anchor: 'setup' }, 'anchor'),
          link({ kind: 'space', space: 'other' }, 'space'),
          link({ kind: 'file', file: 'f1' }, 'file'),
          link({ kind: 'url', url: 'https://example.com/?a=1&b=2' }, 'web'),
        ),
      ),
      links,
    ).html;
    expect(html).toContain('<a href="/site/p1">same space</a>');
    expect(html).toContain('<a href="/other/p2">other space</a>');
    expect(html).toContain('not on the site'); // the text stays, without a link
    expect(html).not.toContain('p3');
    expect(html).toContain('<a href="/site/p1#setup">anchor</a>');
    expect(html).toContain('<a href="/other/">space</a>');
    expect(html).toContain('<a href="https://files.test/f1?sig=a&amp;b=c" rel="noopener">file</a>');
    expect(html).toContain('<a href="https://example.com/?a=1&amp;b=2" rel="noopener">web</a>');
  });

  it('drops dangerous URLs and escapes everything', () => {
    const html = renderDocument(
      doc(
        paragraph(
          { object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'url', url: 'javascript:alert(1)' } }, nodes: [text('click')] },
          text('<img src=x onerror=alert(1)> & "quotes"'),
        ),
        { object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'url', url: 'data:text/html,<script>' }, alt: 'x' }, fragments: [] },
        { object: 'block', type: 'embed', isVoid: true, data: { url: 'vbscript:foo' } },
        { object: 'block', type: 'code', data: { syntax: '"><script>' }, nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [text('x')] }] },
      ),
      links,
    ).html;
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('data:text');
    expect(html).not.toContain('vbscript');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;');
    expect(html).toContain('click');
  });

  it('renders images with captions, dark variants and signed file URLs', () => {
    const html = renderDocument(
      doc({
        object: 'block',
        type: 'image',
        isVoid: true,
        data: { ref: { kind: 'file', file: 'f1' }, refDark: { kind: 'url', url: 'https://cdn.test/dark.png' }, alt: 'Chart' },
        fragments: [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(text('A chart'))] as any }],
      }),
      links,
    ).html;
    expect(html).toContain('<img class="only-light" src="https://files.test/f1?sig=a&amp;b=c" alt="Chart" loading="lazy">');
    expect(html).toContain('<img class="only-dark" src="https://cdn.test/dark.png" alt="Chart" loading="lazy">');
    expect(html).toContain('<figcaption>A chart</figcaption>');
  });

  it('describes an image by its caption when it has no alt text, and keeps an explicit alt (issue 29 item 5)', () => {
    const captioned = md('<figure><img src="https://cdn.test/a.png" alt=""><figcaption><p>The <strong>architecture</strong> at a glance</p></figcaption></figure>\n');
    expect(captioned).toContain('<img src="https://cdn.test/a.png" alt="The architecture at a glance" loading="lazy">');
    expect(captioned).toContain('<figcaption>The <strong>architecture</strong> at a glance</figcaption>');
    const both = md('<figure><img src="https://cdn.test/b.png" alt="Diagram"><figcaption><p>A caption</p></figcaption></figure>\n');
    expect(both).toContain('alt="Diagram"');
    // Neither: a decorative image keeps an empty alt.
    expect(md('<figure><img src="https://cdn.test/c.png" alt=""></figure>\n')).toContain('alt=""');
    const inline = renderDocument(
      doc(paragraph(text('See '), { object: 'inline', type: 'inline-image', isVoid: true, data: { ref: { kind: 'url', url: 'https://cdn.test/d.png' }, caption: 'The save button' } })),
      links,
    ).html;
    expect(inline).toContain('alt="The save button"');
  });

  it('shows the caption of a figure in a list item, where it stands as an inline image (issue 31)', () => {
    const html = md('* Open the panel.\n\n  <figure><img src="https://cdn.test/p.png" alt=""><figcaption><p>The panel &#x26; its knobs</p></figcaption></figure>\n');
    expect(html).toContain('<span class="inline-figure"><img src="https://cdn.test/p.png"');
    expect(html).toContain('<span class="inline-figcaption">The panel &amp; its knobs</span></span>');
  });

  it('shows the text of a mention whose target is gone or left as an address (issue 31)', () => {
    expect(md('See [Old walkthrough](/spaces/gone/pages/p1 "mention") first.\n')).toBe('<p>See Old walkthrough first.</p>');
    expect(md('See [Old walkthrough](broken-reference "mention") first.\n')).toBe('<p>See <a class="mention" href="broken-reference">Old walkthrough</a> first.</p>');
  });

  it('shows the text of a content-ref left as an address (a page gone), not the address (issue 31)', () => {
    const html = md('{% content-ref url="/broken/pages/-Mgone1" %}\n[Broken link](/broken/pages/-Mgone1)\n{% endcontent-ref %}\n');
    expect(html).toBe('<div class="content-ref"><a href="/broken/pages/-Mgone1">Broken link</a></div>');
  });

  it('points an embed written relative to its page where a link so written leads; one naming no page shows its address as text (issue 31)', () => {
    const relative: RenderLinks = {
      ...links,
      relative: (href) => (href === 'docs/api.md' ? '/site/api' : null),
      unresolved: (href) => (href === 'gone.md' ? 'gone.md' : null),
    };
    const render = (markdown: string) => renderDocument(markdownToDocument(markdown), relative).html.replace(/\n/g, '');
    expect(render('{% embed url="docs/api.md" %}\nThe API\n{% endembed %}\n')).toBe('<div class="embed"><a href="/site/api">docs/api.md</a><div class="embed-caption">The API</div></div>');
    expect(render('{% embed url="gone.md" %}\n')).toBe('<div class="embed"><span data-unresolved-link="gone.md" title="Not a page of this site: gone.md">gone.md</span></div>');
    expect(render('{% embed url="https://video.test/v?a=1&b=2" %}\n')).toBe('<div class="embed"><a href="https://video.test/v?a=1&amp;b=2" rel="noopener">https://video.test/v?a=1&amp;b=2</a></div>');
    expect(render('{% embed url="javascript:alert(1)" %}\n')).toBe('');
  });

  it('points the links of HTML kept verbatim where they lead, and leaves text that only looks like an attribute as written (`&#x3C;a href="gone.md">` in code)', () => {
    const relative: RenderLinks = { ...links, relative: (href) => (href === 'docs/api.md' ? '/site/api' : null), unresolved: (href) => (href.endsWith('.md') ? href : null) };
    const html = renderDocument(markdownToDocument('<div><a href="docs/api.md">API</a> breaks out with <code>&#x3C;a href="gone.md" title="x">Link&#x3C;/a></code></div>\n'), relative).html;
    expect(html).toContain('<a href="/site/api">API</a>');
    expect(html).toContain('<code>&lt;a href="gone.md" title="x"&gt;Link&lt;/a&gt;</code>');
    expect(html).not.toContain('data-unresolved-link');
  });

  it('renders math, emoji, dividers, unknown nodes as nothing, and an empty document', () => {
    const html = renderDocument(
      doc(
        { object: 'block', type: 'math', isVoid: true, data: { formula: 'a < b' } },
        { object: 'block', type: 'divider', isVoid: true, data: {} },
        paragraph({ object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f600' } }),
        { object: 'block', type: 'no-such-block', data: {} } as any,
      ),
      links,
    ).html;
    expect(html).toContain('<code>a &lt; b</code>');
    expect(html).toContain('<hr>');
    expect(html).toContain('<p>😀</p>');
    expect(renderDocument(undefined).html).toBe('');
  });
});

describe('html helpers', () => {
  it('escape, check URLs and colors', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(safeUrl('https://a.test')).toBe('https://a.test');
    expect(safeUrl('/path')).toBe('/path');
    expect(safeUrl('#x')).toBe('#x');
    expect(safeUrl('mailto:a@b.test')).toBe('mailto:a@b.test');
    expect(safeUrl(' JavaScript:alert(1)')).toBeNull();
    expect(safeUrl('//evil.test/x')).toBeNull();
    expect(safeColor('#abc')).toBe('#abc');
    expect(safeColor('#a1b2c3')).toBe('#a1b2c3');
    expect(safeColor('red')).toBeNull();
    expect(safeColor('#fff;}')).toBeNull();
  });
});
