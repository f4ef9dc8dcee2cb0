import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument } from './index.ts';
import type { Block } from './types.ts';
import { keepsPage } from '../../../test/markdown-page-reading.ts';

/*
 * HTML elements written inline that GitBook's inline content has no place for (read-inline.ts
 * `unplacedElement`): their text stays and their tags go, as a browser shows them; a block
 * element's tags part the text into lines. Made-up words throughout.
 */

/** The text of a document's first block, its leaves joined. */
function textOfFirst(markdown: string): string {
  const walk = (node: any): string => (node.object === 'text' ? node.leaves.map((l: { text: string }) => l.text).join('') : (node.nodes ?? []).map(walk).join(''));
  return walk(markdownToDocument(markdown).nodes[0] as Block);
}

describe('inline HTML GitBook has no place for', () => {
  it('shows the text of phrasing elements without their tags', () => {
    expect(textOfFirst('Brib <u>zorn</u> and <font color="red">vell</font>, <small>tiv</small> <abbr title="x">QZ</abbr>.\n')).toBe('Brib zorn and vell, tiv QZ.');
    // A button not in GitBook's form is its label.
    expect(textOfFirst('Press <button>Grom</button> twice.\n')).toBe('Press Grom twice.');
  });

  it('parts the text of block elements written inline into lines, never gluing words', () => {
    expect(textOfFirst('Yarn <p>dwell</p> fonk\n')).toBe('Yarn\ndwell\nfonk');
    expect(textOfFirst('Hask <table><tr><td>plim</td> <td>vorn</td></tr></table> gleb\n')).toBe('Hask\nplim\nvorn\ngleb');
    // A line break already there is not doubled; a link after a block tag starts its line.
    expect(textOfFirst('Tor<br><div>sund</div>\n')).toBe('Tor\nsund');
    // A code span ends before the break: it holds no line break.
    const coded = markdownToDocument('Orb <p><code>fane</code></p> kip\n').nodes[0] as any;
    expect(coded.nodes[0].leaves.map((l: any) => [l.text, l.marks.map((m: any) => m.type).join()])).toEqual([['Orb\n', ''], ['fane', 'code'], ['\nkip', '']]);
    const linked = markdownToDocument('Orb <div><a href="https://e.test/">fane</a></div> kip\n').nodes[0] as any;
    expect(linked.nodes.map((n: any) => (n.object === 'text' ? n.leaves.map((l: any) => l.text).join('') : `[${n.type}]`))).toEqual(['Orb\n', '[link]', '\nkip']);
  });

  it('does so in a pipe-table cell and a list item', () => {
    const table = markdownToDocument('| Ka | Lo |\n| --- | --- |\n| <p>vim</p> dop | x<br><table><tr><td>sef</td></tr></table> |\n').nodes[0] as any;
    const cells = table.fragments.map((f: any) => f.nodes.map((p: any) => p.nodes.map((t: any) => t.leaves.map((l: any) => l.text).join('')).join('')).join('|'));
    expect(cells).toEqual(expect.arrayContaining(['vim\ndop', 'x\nsef']));
    expect(textOfFirst('* Nub <center>welk</center>\n')).toBe('Nub\nwelk');
  });

  it('keeps what is not an HTML element, an element never closed, or one holding no text to read, as the text written', () => {
    expect(textOfFirst('Run ssh <user>@<target-host> now.\n')).toBe('Run ssh <user>@<target-host> now.');
    // Placeholders that happen to be element names: opened and never closed in the paragraph.
    expect(textOfFirst('Run cd <dir> then nc <address> <time>, <u> and </p>.\n')).toBe('Run cd <dir> then nc <address> <time>, <u> and </p>.');
    expect(textOfFirst('Inject <script>alert(1)</script> or <textarea>x</textarea>.\n')).toBe('Inject <script>alert(1)</script> or <textarea>x</textarea>.');
  });

  it('writes the page back as it was written, and an edited page in GitBook form, stable', () => {
    for (const page of ['<p align="center">Glim</p>\n<p>Vask</p>\n', 'Yarn <p>dwell</p> fonk\n', '| Ka |\n| --- |\n| <p>vim</p> dop |\n', 'Brib <u>zorn</u>.\n']) keepsPage(page);
    // Written canonically (the form forgotten), the lines are GitBook's line breaks, read back alike.
    const document = markdownToDocument('Yarn <p>dwell</p> <u>fonk</u>\n');
    const canonical = documentToMarkdown(document);
    expect(canonical).not.toMatch(/<p>|<u>/);
    expect(documentToMarkdown(markdownToDocument(canonical))).toBe(canonical);
    expect(textOfFirst(canonical)).toBe('Yarn\ndwell\nfonk');
  });
});
