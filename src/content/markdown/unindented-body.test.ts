/*
 * Lines pasted at the margin into a block that is indented (hand-written pages): a fence's code
 * in an indented `{% code %}` at the top level or in a list item, an embed's caption, a
 * content-ref's link. Read where the author meant them (prepare.ts `listItemAround`,
 * `unindentedCodeEnd`, the lazy line of a void tag). Made-up examples; each is written back
 * byte for byte and stays so.
 */
import { describe, expect, it } from 'vitest';
import { childrenOf, readsBack as read, textOf, types } from '../../../test/markdown-page-reading.ts';
import { markdownToDocument } from './index.ts';

describe('lines at the margin in an indented block', () => {
  it('an indented fence at the top level keeps a code line at the margin (indentation there is no container)', () => {
    const nodes = read('  {% code title="wick.js" %}\n  ```js\nlight(wick)\n  ```\n  {% endcode %}\n\nAfter.\n');
    expect(types(nodes)).toEqual(['code', 'paragraph']);
    expect(textOf(nodes)).toContain('light(wick)');
    expect(textOf(nodes)).not.toContain('{%');
  });

  it("a code block in a list item keeps code pasted at the margin when its closing fence and tag follow at the item's indentation", () => {
    const [list] = read('* Trim the wick:\n  {% code title="trim.sh" %}\n  ```sh\ntrim --wick\ntrim --all\n  ```\n  {% endcode %}\n\nAfter.\n');
    expect(list.type).toBe('list-unordered');
    const [item] = childrenOf(list);
    expect(types(childrenOf(item))).toEqual(['paragraph', 'code']);
    expect(textOf([list])).toContain('trim --wick');
    expect(textOf([list])).not.toContain('{%');
  });

  it('the same with the closing tag on the closing fence line', () => {
    const [list] = read('+ {% code title="wax" %}\n  ```js\nmelt(wax)\n  ``` {% endcode %}\n');
    expect(types(childrenOf(childrenOf(list)[0]))).toEqual(['code']);
    expect(textOf([list])).not.toContain('{%');
  });

  it('a fence in a list item with no block around it still ends at a line at the margin (GFM)', () => {
    const nodes = read('- Wick\n  ```js\nlight()\n  ```\n');
    expect(types(nodes)).toEqual(['list-unordered', 'paragraph', 'code']);
  });

  it("an embed's caption and a content-ref's link at the margin are read as written at the item's indentation", () => {
    const cases = [
      ['* Tallow\n  {% embed url="https://example.com/tallow" %}\n', 'Melting tallow', '  {% endembed %}\n'],
      ['1) Beeswax\n   {% content-ref url="beeswax.md" %}\n', '[beeswax.md](beeswax.md)', '   {% endcontent-ref %}\n'],
    ];
    for (const [opening, line, closing] of cases) {
      const atMargin = read(`${opening}${line}\n${closing}`);
      const indent = /^ */.exec(closing)![0];
      expect(atMargin).toEqual(markdownToDocument(`${opening}${indent}${line}\n${closing}`).nodes);
      expect(atMargin).toHaveLength(1);
      expect(textOf(atMargin)).not.toContain('{%');
    }
  });

  it('nested tags indented by hand 4+ columns past their parent tag are tags, their bodies text, not indented code', () => {
    const [tabs] = read('{% tabs %}\n    {% tab title="Wax" %}\n    Melt the wax.\n    {% endtab %}\n    {% tab title="Wick" %}\n    Trim the wick.\n    {% endtab %}\n{% endtabs %}\n');
    expect(tabs.type).toBe('tabs');
    expect(childrenOf(tabs).map((tab) => (tab.data as { title?: string }).title)).toEqual(['Wax', 'Wick']);
    expect(childrenOf(tabs).map((tab) => types(childrenOf(tab)))).toEqual([['paragraph'], ['paragraph']]);
    expect(textOf([tabs])).not.toContain('{%');
    // Closing tags less indented than their openings (the fuzzer's page, once unstable).
    const [stepper] = read('{% stepper %}\n    {% step %}\n  {% endstep %}\n    {% step %}\n  {% endstep %}\n  {% step %}\n  {% endstep %}\n{% endstepper %}\n');
    expect(types(childrenOf(stepper))).toEqual(['stepper-step', 'stepper-step', 'stepper-step']);
    // At the top level, outside any tag, indented tags stay what CommonMark says: indented code (a page showing the syntax).
    expect(types(read('Write:\n\n    {% hint style="info" %}\n    Note.\n    {% endhint %}\n'))).toEqual(['paragraph', 'code']);
  });
});
