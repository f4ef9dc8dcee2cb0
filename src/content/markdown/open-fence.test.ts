/*
 * A code fence left open (its closing fence forgotten), as hand-written pages leave it: it
 * ends with its quote or list item (GFM), and in a GitBook block at that block's closing tag
 * when no closing fence comes before the next tag opens (prepare.ts). Made-up examples; each
 * is written back byte for byte and stays so.
 */
import { describe, expect, it } from 'vitest';
import { childrenOf, readsBack as read, textOf, types } from '../../../test/markdown-page-reading.ts';
import { markdownToDocument, readPageMarkdown, writePageMarkdown } from './index.ts';

describe('a code fence left open', () => {
  it('ends at the closing tag of the block it is in', () => {
    const nodes = read('{% hint style="warning" %}\n```js\nlet wick;\n{% endhint %}\n\nAfter.\n');
    expect(types(nodes)).toEqual(['hint', 'paragraph']);
    expect(types(childrenOf(nodes[0]))).toEqual(['code']);
    expect(textOf(nodes)).not.toContain('{%');
  });

  it("ends there too when its parent's closing tag shares that line (`{% endstep %} {% endstepper %}`)", () => {
    const nodes = read('{% stepper %}\n{% step %}\n```js\nlet wick;\n{% endstep %} {% endstepper %}\n\nAfter.\n');
    expect(types(nodes)).toEqual(['stepper', 'paragraph']);
    expect(types(childrenOf(childrenOf(nodes[0])[0]))).toEqual(['code']);
    expect(textOf(nodes)).not.toContain('{%');
  });

  it('ends there too when the next fence opens a block of its own (an info string: no closing fence)', () => {
    const nodes = read('{% hint style="warning" %}\n```json\n{"wick": 1}\n{% endhint %}\n\n```bash\ntrim\n```\n');
    expect(types(nodes)).toEqual(['hint', 'code']);
    expect(textOf(nodes)).not.toContain('{%');
  });

  it('still holds a closing tag of its block when a closing fence follows it before any tag opens (a page showing the syntax)', () => {
    const [hint] = read('{% hint style="info" %}\n```markdown\n{% hint style="info" %}\nOil.\n{% endhint %}\n```\n{% endhint %}\n');
    expect(types(childrenOf(hint))).toEqual(['code']);
    expect(textOf([hint])).toContain('{% endhint %}');
  });

  it('ends with its quote, and the tags after the quote are read', () => {
    const nodes = read('> ```js\n> let wick;\n\n{% hint style="info" %}\nAfter.\n{% endhint %}\n');
    expect(types(nodes)).toEqual(['blockquote', 'hint']);
  });

  it('ends with its list item, and the tags after the list are read; written back closed', () => {
    const markdown = '- ```sh\n  trim --all\n\n{% hint style="info" %}\nAfter.\n{% endhint %}\n';
    expect(types(markdownToDocument(markdown).nodes)).toEqual(['list-unordered', 'hint']);
    // The list's written form is not kept here: the writer closes the fence (the blank line was the code's, as GFM reads it).
    const page = readPageMarkdown(markdown);
    const written = writePageMarkdown(page.document, page.title);
    expect(written).toBe('* ```sh\n  trim --all\n\n  ```\n\n{% hint style="info" %}\nAfter.\n{% endhint %}\n');
    expect(read(written)).toHaveLength(2);
  });
});
