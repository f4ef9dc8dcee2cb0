/*
 * A GitBook tag sharing its line with other content, as hand-written and HonKit-era pages
 * put it (`{% code %}```js`, `last words {% endhint %}`): the tag is read as on a line of its
 * own, what follows it as the next line, in the same container (prepare.ts). Made-up
 * examples; each is written back byte for byte and stays so.
 */
import { describe, expect, it } from 'vitest';
import { childrenOf, readsBack as read, textOf, types } from '../../../test/markdown-page-reading.ts';

describe('a tag sharing its line', () => {
  it('opens a fence written right after a `{% code %}` tag', () => {
    const [code] = read('{% code title="lamp.js" %}```js\nlet wick;\n```\n{% endcode %}\n');
    expect(code.type).toBe('code');
    expect(textOf([code])).toContain('let wick;');
    expect(textOf([code])).not.toMatch(/```|\{%/);
  });

  it('opens a quote written right after a `{% tab %}` tag, in the tab', () => {
    const [tabs] = read('{% tabs %}\n{% tab title="Oil" %}> Pour it slowly.\n{% endtab %}\n{% endtabs %}\n');
    expect(types(childrenOf(childrenOf(tabs)[0]))).toEqual(['blockquote']);
  });

  it('closes a block with a closing tag after its last words', () => {
    const nodes = read('{% hint style="info" %}\nTrim the wick. {% endhint %}\n\nAfter.\n');
    expect(types(nodes)).toEqual(['hint', 'paragraph']);
    expect(textOf(childrenOf(nodes[0]))).toContain('Trim the wick.');
    expect(textOf(nodes)).not.toContain('{%');
  });

  it('closes the step a quote is in when the closing tag ends the quote\'s last line', () => {
    const [stepper] = read('{% stepper %}\n{% step %}\n### Light\n\n> Strike it. {% endstep %}\n{% step %}\n### Trim\n{% endstep %}\n{% endstepper %}\n');
    expect(stepper.type).toBe('stepper');
    expect(childrenOf(stepper).map((step) => types(childrenOf(step)))).toEqual([['heading-3', 'blockquote'], ['heading-3']]);
  });

  it('ends a fence and its `{% code %}` with a closing tag after the closing fence', () => {
    const [code] = read('{% code %}\n```sh\ntrim\n``` {% endcode %}\n');
    expect(code.type).toBe('code');
    expect(textOf([code])).not.toMatch(/```|\{%/);
  });

  it('reads a closing tag after a tag it does not know as closing its block', () => {
    const [columns] = read('{% columns %}\n{% column %}\n{% include "lamp.md" %} {% endcolumn %}\n{% column %}\nOil.\n{% endcolumn %}\n{% endcolumns %}\n');
    expect(columns.type).toBe('columns');
    expect(childrenOf(columns).map((column) => types(childrenOf(column)))).toEqual([['integration'], ['paragraph']]);
    expect(JSON.stringify(columns)).not.toContain('endcolumn');
  });

  it('reads a closing tag after another on a quote\'s line at its own block\'s container', () => {
    const [updates] = read('{% updates format="full" %}\n{% update date="2025-02-12" %}\n## Wicks\n\n> {% code overflow="wrap" %}\n> ```js\n> trim();\n> ```\n> {% endcode %} {% endupdate %}\n{% endupdates %}\n');
    expect(updates.type).toBe('updates');
    expect(JSON.stringify(updates)).not.toContain('{%');
  });

  it('reads a closing tag after an unknown tag\'s closing tag as a line of its own', () => {
    const [stepper] = read('{% stepper %}\n{% step %}\n### Oil\n\n{% swagger src="oil.yaml" %}\nPour.\n{% endswagger %} {% endstep %}\n{% endstepper %}\n');
    expect(childrenOf(stepper).map((step) => types(childrenOf(step)))).toEqual([['heading-3', 'integration']]);
    expect(JSON.stringify(stepper)).not.toContain('endstep');
  });

  it('closes a block from a list item indented with a tab', () => {
    const [list] = read('* {% hint style="info" %}\n  Oil:\n\n\t+ pour it {% endhint %}\n');
    const [hint] = childrenOf(childrenOf(list)[0]);
    expect(hint.type).toBe('hint');
    expect(JSON.stringify(list)).not.toContain('{%');
  });

  it('leaves a tag in a code span as text', () => {
    const [hint] = read('{% hint style="info" %}\nWrite `{% endhint %}` to close it.\n{% endhint %}\n');
    expect(hint.type).toBe('hint');
    expect(textOf([hint])).toContain('{% endhint %}');
  });
});

describe('a closing tag less indented than its opening', () => {
  it('closes the innermost open block of its name, in the list item it was opened in', () => {
    const [list] = read('- {% hint style="info" %}\n  Trim the wick.\n{% endhint %}\n');
    expect(types(childrenOf(childrenOf(list)[0]))).toEqual(['hint']);
    expect(JSON.stringify(list)).not.toContain('{%');
  });
});

describe('a lazy line in a block tag\'s body', () => {
  it('is read in the body it runs on from, as a paragraph\'s lazy line is', () => {
    const [list] = read('- {% hint style="info" %}\nTrim the wick.\n  {% endhint %}\n');
    const [hint] = childrenOf(childrenOf(list)[0]);
    expect(hint.type).toBe('hint');
    expect(textOf([hint])).toContain('Trim the wick.');
    expect(JSON.stringify(list)).not.toContain('{%');
  });

  it('is not a line that opens a block of its own, nor one after a blank line', () => {
    const nodes = read('- {% hint style="info" %}\n  Trim.\n  {% endhint %}\n\nAfter.\n');
    expect(types(nodes)).toEqual(['list-unordered', 'paragraph']);
  });
});
