import { describe, expect, it } from 'vitest';
import { extractLinks, extractText, headingAnchor, markdownToDocument, resolveVariables, evaluateExpression } from './index.ts';

describe('extractLinks', () => {
  it('lists every reference with its kind and target, in document order', () => {
    const document = markdownToDocument(
      [
        'See [the docs](https://docs.example.com), [a page](/pages/pg1), [a section](/pages/pg1#setup), [here](#top) and [a file](/files/fl1).',
        '',
        '<figure><picture><source srcset="/files/dark1" media="(prefers-color-scheme: dark)"><img src="/files/light1" alt=""></picture></figure>',
        '',
        '{% content-ref url="/spaces/sp1/pages/pg2" %}\n[x](x)\n{% endcontent-ref %}',
        '',
        '{% embed url="https://youtu.be/v1" %}',
        '',
        '{% file src="/files/fl2" %}\n{% endfile %}',
        '',
        '{% openapi-operation spec="petstore" path="/pets" method="get" %}\n{% endopenapi-operation %}',
        '',
        '{% hint style="info" %}\nInline ![icon](https://cdn.example.com/i.png) and [space](/spaces/sp9).\n{% endhint %}',
      ].join('\n'),
    );
    expect(extractLinks(document).map(({ kind, target, source }) => ({ kind, target, source }))).toEqual([
      { kind: 'url', target: 'https://docs.example.com', source: 'link' },
      { kind: 'page', target: 'pg1', source: 'link' },
      { kind: 'anchor', target: 'setup', source: 'link' },
      { kind: 'anchor', target: 'top', source: 'link' },
      { kind: 'file', target: 'fl1', source: 'link' },
      { kind: 'file', target: 'light1', source: 'image' },
      { kind: 'file', target: 'dark1', source: 'image' },
      { kind: 'page', target: 'pg2', source: 'content-ref' },
      { kind: 'url', target: 'https://youtu.be/v1', source: 'embed' },
      { kind: 'file', target: 'fl2', source: 'file' },
      { kind: 'openapi', target: 'petstore', source: 'openapi-operation' },
      { kind: 'url', target: 'https://cdn.example.com/i.png', source: 'inline-image' },
      { kind: 'space', target: 'sp9', source: 'link' },
    ]);
  });

  it('keeps the full reference and the key of the node', () => {
    const [link] = extractLinks(markdownToDocument('x [s](/pages/pg1#a)'));
    expect(link).toEqual({ kind: 'anchor', target: 'a', ref: { kind: 'anchor', anchor: 'a', page: 'pg1' }, source: 'link', key: 'b0.1' });
  });

  it('finds references in tables, tabs and expandables', () => {
    const document = markdownToDocument(
      '| a |\n| - |\n| [t](/pages/t1) |\n\n{% tabs %}\n{% tab title="A" %}\n[u](/pages/u1)\n{% endtab %}\n{% endtabs %}\n\n<details>\n<summary>[v](/pages/v1)</summary>\n\n[w](/pages/w1)\n\n</details>',
    );
    expect(extractLinks(document).map((l) => l.target)).toEqual(['t1', 'u1', 'v1', 'w1']);
  });
});

describe('extractText', () => {
  it('gives the plain text of each top-level heading section', () => {
    const document = markdownToDocument(
      [
        'Intro with **bold** and [a link](https://x.io).',
        '',
        '# Install',
        '',
        '```bash',
        'npm i quire',
        '```',
        '',
        '{% hint style="info" %}',
        'Needs Node 20.',
        '{% endhint %}',
        '',
        '## Configure <a href="#config" id="config"></a>',
        '',
        '| Key | Value |',
        '| --- | ----- |',
        '| a   | 1     |',
        '',
        '## Install',
        '',
        '* one',
        '* two',
      ].join('\n'),
    );
    expect(extractText(document)).toEqual([
      { headingId: null, title: '', body: 'Intro with bold and a link.' },
      { headingId: 'install', title: 'Install', body: 'npm i quire\nNeeds Node 20.' },
      { headingId: 'config', title: 'Configure', body: 'Key Value\na\n1' },
      { headingId: 'install-1', title: 'Install', body: 'one\ntwo' },
    ]);
  });

  it('includes tabs, expandables and captions', () => {
    const document = markdownToDocument(
      '## T\n\n{% tabs %}\n{% tab title="A" %}\nalpha\n{% endtab %}\n{% endtabs %}\n\n<details>\n<summary>Q</summary>\n\nanswer\n\n</details>\n\n<figure><img src="/files/f" alt=""><figcaption><p>cap</p></figcaption></figure>',
    );
    expect(extractText(document)).toEqual([{ headingId: 't', title: 'T', body: 'A\nalpha\nQ\nanswer\ncap' }]);
  });

  it('derives anchors from titles', () => {
    expect(headingAnchor('Getting Started: the Basics!')).toBe('getting-started-the-basics');
    expect(headingAnchor('Café au lait')).toBe('cafe-au-lait');
    expect(headingAnchor('???')).toBe('section');
  });
});

describe('resolveVariables', () => {
  const variables = { 'space.vars.version': '2.4.0', 'page.vars.product': 'Quire' };

  it('replaces expressions in a document by their values', () => {
    const document = markdownToDocument('Version <code class="expression">space.vars.version</code> of {{ page.vars.product }}, not {{ space.vars.unknown }}.');
    const resolved = resolveVariables(document, variables);
    expect(resolved.nodes).toEqual([
      {
        object: 'block',
        key: 'b0',
        type: 'paragraph',
        data: {},
        nodes: [
          { object: 'text', key: 'b0.0', leaves: [{ object: 'leaf', text: 'Version 2.4.0 of Quire, not ', marks: [] }] },
          { object: 'inline', key: 'b0.1', type: 'expression', isVoid: true, data: { expression: 'space.vars.unknown' } },
          { object: 'text', key: 'b0.2', leaves: [{ object: 'leaf', text: '.', marks: [] }] },
        ],
      },
    ]);
    expect(document.nodes[0]).not.toEqual(resolved.nodes[0]);
  });

  it('replaces expressions in markdown, leaving code alone', () => {
    expect(resolveVariables('# {{ page.vars.product }}\n\nRun `npm i quire@{{ space.vars.version }}` for <code class="expression">space.vars.version</code>.', variables)).toBe(
      '# Quire\n\nRun `npm i quire@{{ space.vars.version }}` for 2.4.0.\n',
    );
  });

  it('evaluates dotted and bracket references only', () => {
    expect(evaluateExpression('space.vars.version', variables)).toBe('2.4.0');
    expect(evaluateExpression(' page.vars["product"] ', variables)).toBe('Quire');
    expect(evaluateExpression("page.vars['product']", variables)).toBe('Quire');
    expect(evaluateExpression('space.vars.version + "x"', variables)).toBeUndefined();
    expect(evaluateExpression('space.vars.toString', variables)).toBeUndefined();
  });
});
