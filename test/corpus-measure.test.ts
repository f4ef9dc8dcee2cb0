import { describe, expect, it } from 'vitest';
import { missingWords, rawMarkup, roundTrip, sourceText } from '../bench/corpus-measure.ts';
import { markdownToDocument } from '../src/content/markdown/index.ts';
import { renderDocument } from '../src/site/render-document.ts';

/*
 * The corpus bench's "pages losing words" and "raw markup" (issue 31): both sides are read
 * the same way, so only words really missing from the page count. Made-up text.
 */
const page = (markdown: string) => renderDocument(markdownToDocument(markdown, { headingOffset: 1 })).html;

describe('corpus measure: words lost', () => {
  it('counts math, code and expressions where they are rendered', () => {
    const source = 'Area is $$\\pi r^2$$ here.\n\n$$\nE = mc^2\n$$\n\nRun `make plank` then:\n\n```sh\nquill --fold\n```\n';
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('reads an inline element with no look of its own as a browser shows it: joined to the text around it', () => {
    // `<font>`, `<u>` written inside a word (or in text without spaces) end no word there.
    const source = '中文<font color="red">重點</font>文字 and see<u>under</u>line.\n';
    expect(missingWords(source, page(source))).toEqual([]);
    // Written as a placeholder (never closed), the tag is text the page shows.
    const placeholder = 'Run cd <dir> then ls.\n';
    expect(missingWords(placeholder, page(placeholder))).toEqual([]);
  });

  it('does not fuse the words of adjacent cells, list items or tabs', () => {
    const source = '| Flag | Kind |\n| --- | --- |\n| alpha | beta |\n\n* first\n* second\n\n{% tabs %}\n{% tab title="Left" %}\nInside\n{% endtab %}\n\n{% tab title="Right" %}\nOther\n{% endtab %}\n{% endtabs %}\n';
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('leaves out what no reader sees: addresses, image alt text, numbers of a list, front matter, the title', () => {
    const source = '---\ndescription: walrus\n---\n\n# Heron\n\n1. See [the docs](https://ex.test/otter) and ![badger](<a b.png>)\n2. [x.md](x.md "mention")\n';
    expect(sourceText(source).all).not.toMatch(/walrus|heron|otter|badger|x\.md/i);
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('leaves out the number of an ordered list opening a bullet item (`- 2. x`), a list marker as GFM shows it', () => {
    const source = '- Trowel\n  - 1. Sift\n  - 2. Rake\n';
    expect(page(source)).toContain('<ol start="2">');
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('reads a fence opening a list item\'s content (`4.  ```sh`) as code whose info string no reader sees', () => {
    const source = '1. Flash\n2.  ```shell\n    kiln --fire\n    ```\n\n    Then cool it.\n';
    expect(sourceText(source).prose).not.toMatch(/shell|kiln/);
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('ends a list item\'s fence at a line left of the item, which is read anew (GFM)', () => {
    const source = '- ```\n  kiln --fire\n```\nglaze\n```\n';
    expect(sourceText(source).prose).not.toMatch(/kiln|glaze/);
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('counts only the cells GFM shows: a row cut by a bare `|` in a code span loses its tail on GitHub too', () => {
    const source = '| Key | Check |\n| --- | --- |\n| `gate.origin` | `probe -I "x" | trim -3` |\n';
    expect(missingWords(source, page(source))).toEqual([]);
    expect(sourceText(source).all).not.toMatch(/trim/);
  });

  it('does not count a cards view\'s column titles, which no card shows', () => {
    const source = '<table data-view="cards"><thead><tr><th>Lamp</th><th>Fuel</th></tr></thead><tbody><tr><td>Brass</td><td>Oil</td></tr></tbody></table>\n';
    expect(missingWords(source, page(source))).toEqual([]);
    expect(sourceText(source).all).not.toMatch(/Lamp|Fuel/);
  });

  it('does not count the column titles of a table whose header GitBook hides (`data-header-hidden`)', () => {
    const source = '<table data-header-hidden><thead><tr><th>Lamp</th><th>Fuel</th></tr></thead><tbody><tr><td>Brass</td><td>Oil</td></tr></tbody></table>\n';
    expect(missingWords(source, page(source))).toEqual([]);
    expect(sourceText(source).all).not.toMatch(/Lamp|Fuel/);
    expect(sourceText(source).all).toMatch(/Brass/);
  });

  it('reads `$$` inside HTML code as code, never as the start of math spanning cells', () => {
    const source = '<table><thead><tr><th>Sign</th><th>Meaning</th></tr></thead><tbody><tr><td><code>$$</code></td><td>Lamp process</td></tr><tr><td><code>$?</code></td><td>Wick status</td></tr></tbody></table>\n\nPrice $$x$$ here.\n';
    expect(sourceText(source).all).not.toMatch(/\bcode\b/);
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('drops a comment opening a line up to its `-->`, fenced code in it included, which shows nothing', () => {
    const source = 'Lamps.\n\n<!-- Wicks\n\n```sh\ntrim --all\n```\n-->\n\nAfter.\n';
    expect(sourceText(source).all).not.toMatch(/Wicks|trim/);
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('does not count the cells of a column GitBook hides (`<th data-hidden>`, a card\'s target)', () => {
    const source = '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td>Lamp room</td><td><a href="/broken/pages/x1">Broken link</a></td></tr></tbody></table>\n';
    expect(sourceText(source).all).not.toMatch(/Broken/);
    expect(sourceText(source).all).toMatch(/Lamp room/);
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('ends a cell at a pipe after an escaped backslash (`\\\\|`), as GFM does, and not at an escaped pipe (`\\|`)', () => {
    const source = '| Key | Rule | Kind |\n| --- | --- | --- |\n| `gate` | `a\\\\|b` | lantern |\n| `wick` | `c\\|d` | candle |\n';
    expect(missingWords(source, page(source))).toEqual([]);
    expect(sourceText(source).all).toMatch(/candle/);
    expect(sourceText(source).all).not.toMatch(/lantern/);
  });

  it('reads an address shown in emphasis (`_https://…_`) as an address on both sides', () => {
    const source = '* Radio kit\\\n  _Relay -_ [_https://relay.example/_](https://relay.example/)\n';
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('reads a code span of a pipe-table row in its cell: a backtick left open there pairs with nothing in the next row', () => {
    const source = '| Name | Kind | Notes |\n| --- | --- | --- |\n| `Span` | [Time window](_kinds.md#time-window) | Ends in `Span |\n| `Other` | [Time window](_kinds.md#time-window) | Plain `code` here. |\n';
    expect(sourceText(source).all).not.toMatch(/kinds|md\b/);
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('reads a code span of an HTML table in its cell: a backtick left open there pairs with nothing in the next cell', () => {
    const source = '<table><thead><tr><th>Sink</th><th>Way in</th><th>Notes</th></tr></thead><tbody><tr><td>Sheet</td><td>Start a cell with `=sum</td><td>then <code>or</code> a link` here</td></tr></tbody></table>\n';
    expect(sourceText(source).all).not.toMatch(/\btd\b/);
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('counts a tab as reaching the next stop of four: a tab-indented closing fence in a list item closes its fence', () => {
    const source = '+ ```\n\tsetup\n\t```\n\t> ~~~python title="a.py"\n\t> run()\n\t> ~~~\n';
    expect(sourceText(source).prose).not.toMatch(/python|title/);
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('ends a fence left open in a list item with its item, never at the next block\'s opening fence', () => {
    const source = '1. **Back up**: nightly\n   ```bash\n   copy vault\n\n2. **Watch**: the gauges\n3. **Rotate**: the keys\n\nThen:\n\n```yaml\nkeep: 3\n```\n\nDone here.\n';
    expect(sourceText(source).prose).toMatch(/Watch.*gauges[\s\S]*Done here/);
    expect(sourceText(source).prose).not.toMatch(/copy|keep/);
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('reads a page written with CR LF line endings as one with LF', () => {
    const source = 'Before.\r\n\r\n```js\r\nlight();\r\n```\r\n\r\nAfter the code.\r\n';
    expect(sourceText(source).prose).toMatch(/After the code/);
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('takes only a `<pre>` element as code, not a tag whose name starts so (`<presence-box>`)', () => {
    const source = 'Set `<presence-box>` on the node.\n\n## Heading after\n\nText after.\n\n<pre><code>raw line\n</code></pre>\n';
    expect(sourceText(source).prose).toMatch(/Heading after[\s\S]*Text after/);
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('does not count the label of a content-ref or mention of a page, which shows the page\'s title; an external one\'s label counts', () => {
    const source = '{% content-ref url="setup.md" %}\n[Former setup title](setup.md)\n{% endcontent-ref %}\n\nSee [Older guide name](guide.md "mention") and [Outside words](https://example.com/x "mention").\n';
    const words = sourceText(source).all;
    expect(words).not.toMatch(/Former|Older/);
    expect(words).toMatch(/Outside words/);
    expect(words).toMatch(/See/);
  });

  it('reads a backslash before a tag in a figure as text, not as an escape hiding the tag', () => {
    // GitBook writes a caption holding only a line break as `<p>\\</p>`.
    const source = '<figure><img src="a.png" alt=""><figcaption><p>\\</p></figcaption></figure>\n';
    expect(missingWords(source, page(source))).toEqual([]);
    const worded = '<figure><img src="a.png" alt=""><figcaption><p>Tide chart\\</p></figcaption></figure>\n';
    expect(missingWords(worded, page(worded).replaceAll('Tide chart', ''))).toEqual(['tide', 'chart']);
  });

  it('reads a tag as a browser does: a double-quoted value may hold `<` and `>`', () => {
    // GitBook writes `alt="Grant consent for <tenant>"` unescaped; what follows the alt is the tag's, not text.
    const source = 'Then:\n\n<figure><img src="a.png" alt="Grant consent for <your_tenant>&#x27;" width="563"><figcaption></figcaption></figure>\n';
    expect(missingWords(source, page(source))).toEqual([]);
    expect(sourceText(source).prose).not.toMatch(/563/);
  });

  it('reads a backslash before a tag in a raw HTML block as text the page shows, not an escape hiding the tag', () => {
    const source = '<blockquote class="wp-block-quote">\n<p>Call us.\\</p>\n<p>\\</p>\n</blockquote>\n';
    expect(missingWords(source, page(source))).toEqual([]);
    // Only the tag is read so: an escaped `<` in markdown prose is text.
    expect(missingWords('Write \\<p> here.\n', page('Write here.\n'))).toEqual(['p']);
  });

  it('reads an image whose title holds escaped quotes as an image, not as words', () => {
    const source = 'Press it.\n\n![Pressing the "Go" button](/_images/go.png "Pressing the \\"Go\\" button")\n';
    expect(missingWords(source, page(source))).toEqual([]);
  });

  it('counts a word the page shows fewer times than the source does', () => {
    const source = 'Lantern glows.\n\nLantern glows again.\n';
    const html = page('Lantern glows.\n');
    expect(missingWords(source, html).sort()).toEqual(['again', 'glows', 'lantern']);
  });

  it('counts every word of a block the page drops', () => {
    const source = 'Kept words.\n\n<figure><img src="a.png" alt=""><figcaption><p>Harbor at dusk</p></figcaption></figure>\n';
    expect(missingWords(source, page('Kept words.\n')).sort()).toEqual(['at', 'dusk', 'harbor']);
  });
});

describe('corpus measure: a tag sharing its line', () => {
  it('reads a fence opened right after a tag, and closed with a closing tag after it, as code', () => {
    const html = '<pre><code>lamp on</code></pre>';
    expect(missingWords('{% code title="a" %}```js\nlamp on\n``` {% endcode %}\n', html)).toEqual(['a']);
    expect(missingWords('{% code %}```js\nlamp on\n```\n{% endcode %}\n', html)).toEqual([]);
  });

  it('ends a fence left open only at the closing tag of the block it is in, not at tags shown in the code', () => {
    const source = '{% hint style="info" %}\n```md\n{% tabs %}\n{% tab title="A" %}\nwick\n{% endtab %}\n{% tab title="B" %}\nlamp\n{% endtab %}\n{% endtabs %}\n```\n{% endhint %}\n';
    expect(sourceText(source).prose).not.toMatch(/wick|lamp/);
    // A tag named in prose opens no block.
    expect(sourceText('Write {% hint %} to open one, or `{% tabs %}`.\n\n```md\n{% endhint %}\n{% tabs %}\nwick\n```\n').prose).not.toMatch(/wick/);
  });

  it('ends a quote\'s fence at a line with no `>`, a blank one included', () => {
    const html = '<blockquote><pre><code>lamp</code></pre></blockquote><blockquote><p><a href="oil.md">wick</a></p></blockquote>';
    expect(missingWords('> ```json\n> lamp\n\n> [wick](oil.md)\n', html)).toEqual([]);
  });

  it('ends a fence left open at a closing tag when no closing fence comes before the next tag opens', () => {
    const html = '<div class="hint"><pre><code>lamp on</code></pre></div>';
    expect(missingWords('{% hint style="info" %}\n```js\nlamp on\n{% endhint %}\n', html)).toEqual([]);
    expect(missingWords('{% hint style="info" %}\n```md\nlamp on\n{% endhint %}\n```\n{% endhint %}\n', html)).toEqual(['endhint']);
  });
});

describe('corpus measure: raw markup', () => {
  it('finds markup the page shows as text', () => {
    const html = '<p>Text &lt;p&gt;leaked&lt;/p&gt; and {% hint %}</p>';
    expect(rawMarkup('Text leaked\n', html)).toEqual(['<p>', '{%']);
  });

  it('does not count what the source writes to be read, nor code', () => {
    const source = 'Write \\{%name%\\} or \\<p> in text, `<table>` in code.\n';
    expect(rawMarkup(source, page(source))).toEqual([]);
  });

  it('reads a processing instruction or declaration as code shown as written, its words counted and its markup not', () => {
    const source = '<?php\necho "<p>brisket</p>";\n?>\n\n<!DOCTYPE vane [<!ENTITY kelp SYSTEM "{% raw %}">]>\n\n<!-- <?php hidden(); ?> -->\n';
    expect(sourceText(source).all).toMatch(/brisket[\s\S]*kelp/);
    expect(sourceText(source).all).not.toMatch(/hidden/);
    expect(missingWords(source, page(source))).toEqual([]);
    expect(rawMarkup(source, page(source))).toEqual([]);
    // A `<?` in prose and a `?>` past a blank line are no directive: the image between shows no words.
    const loose = 'Is it <? or not.\n\n![grebe](grebe.png)\n\nDone ?> now.\n';
    expect(sourceText(loose).all).not.toMatch(/grebe/);
    expect(missingWords(loose, page(loose))).toEqual([]);
    // Shown as prose, the same markup counts.
    expect(rawMarkup(source, '<p>echo &lt;p&gt;brisket</p>')).toEqual(['<p>']);
  });
});

describe('corpus measure: the round trip', () => {
  it('splits front matter from a body whose first line is indented code without taking the code\'s indentation', () => {
    const source = '---\ndescription: lamps\n---\n\n    $ lamp list\n\nAfter.\n';
    expect(roundTrip(source).markdown).toBe(source);
  });
});
