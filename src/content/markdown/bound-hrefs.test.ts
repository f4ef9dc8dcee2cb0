import { describe, expect, it } from 'vitest';
import { readPageMarkdown, writePageMarkdown } from './page.ts';
import { labelMentions, mapRefs, relativeDocumentPaths, resolveDocumentPaths, spacePaths, type PathNode } from './paths.ts';
import type { ContentRef, Document } from './types.ts';

/*
 * A relative link bound to a page or file keeps its href as written (issue 31): read through
 * the batch's rule and written back as the page's markdown, it comes back byte for byte
 * while it still leads to the same page; a moved page or an edited link gets the canonical
 * path. Made-up pages: `guide/README.md` (subpages `guide/setup.md`, `guide/more/README.md`), `faq.md`.
 */

const tree: PathNode[] = [
  { id: 'HOME', slug: 'home', children: [] },
  {
    id: 'GUIDE',
    slug: 'guide',
    children: [
      { id: 'SETUP', slug: 'setup', children: [] },
      { id: 'MORE', slug: 'more', children: [{ id: 'DEEP', slug: 'deep', children: [] }] },
    ],
  },
  { id: 'FAQ', slug: 'faq', children: [] },
  { id: 'NOTES', slug: 'tech_notes', children: [] },
];
const files = [{ id: 'IMG', name: 'a shot.png' }];

const roundTrip = (markdown: string, pageId: string, before: PathNode[] = tree, after: PathNode[] = before, edit?: (d: Document) => Document) => {
  const read = spacePaths(before, files);
  const file = read.fileOfPage(pageId)!;
  let document = resolveDocumentPaths(readPageMarkdown(markdown).document, file, read);
  if (edit) document = edit(document);
  const write = spacePaths(after, files);
  return { document, markdown: writePageMarkdown(relativeDocumentPaths(document, write.fileOfPage(pageId)!, pageId, write)) };
};

const refs = (document: Document) => {
  const out: ContentRef[] = [];
  mapRefs(document, (ref) => (out.push(ref), ref));
  return out;
};

describe('bound links keep their written href', () => {
  // Each written form GitBook's readers accept and its writer would not write, in prose, a list, a table cell, a hint and an image.
  const cases: Array<[string, string, string]> = [
    ['a folder with a slash', 'guide/setup.md', 'See [the guide](./) and [more](more/).\n'],
    ['a sibling with ./', 'guide/setup.md', 'See [more](./more/README.md#deep-part) and [home](./../home.md).\n'],
    ['a folder with no slash', 'faq.md', '* [the guide](guide)\n* [deeper](./guide/more/deep.md)\n'],
    ['an anchor on a README page', 'guide/README.md', '| a | b |\n| - | - |\n| [here](./#top) | [setup](setup.md#steps) |\n'],
    ['a path climbing above the top', 'guide/setup.md', '{% hint style="info" %}\n[FAQ](../../../faq.md)\n{% endhint %}\n'],
    ['a path with spaces', 'faq.md', '![](<.gitbook/assets/a shot.png>)\n'],
    ['a link escaping an underscore', 'faq.md', 'See [the notes](tech\\_notes.md).\n'],
    ['a mention escaping an underscore, a paragraph of its own', 'guide/more/README.md', '## Notes\n\n[tech\\_notes.md](../../tech\\_notes.md "mention")\n'],
    ['a mention escaping an underscore, in a table cell padded to it', 'faq.md', '| Page                                    | Note |\n| --------------------------------------- | ---- |\n| [tech\\_notes.md](tech\\_notes.md "mention") | x    |\n'],
  ];
  for (const [name, file, body] of cases) {
    it(`${name}: written back as written`, () => {
      const pageId = spacePaths(tree, files).pageAt(file)!;
      const { document, markdown } = roundTrip(body, pageId);
      // The links are bound, not kept as URLs.
      expect(refs(document).every((r) => r.kind !== 'url')).toBe(true);
      expect(markdown).toBe(body);
    });
  }

  it('a block holding mentions keeps its written form when mentions are labelled with their pages\' titles, as the API writes markdown', () => {
    // The table is kept as written (its cell's `<p>` keeps a trailing space GitBook wrote); a label
    // would change nothing written, but it made the table's blocks differ from the kept ones.
    const body = '| Finding                  | Examples                       |\n| ------------------------ | ------------------------------ |\n| <p>base64 </p><p>b32</p> | [faq.md](../faq.md "mention") |\n';
    const paths = spacePaths(tree, files);
    const pageId = paths.pageAt('guide/setup.md')!;
    const document = resolveDocumentPaths(readPageMarkdown(body).document, 'guide/setup.md', paths);
    const labelled = labelMentions(document, (id) => (id === 'FAQ' ? 'Frequently asked' : undefined));
    expect(writePageMarkdown(relativeDocumentPaths(labelled, 'guide/setup.md', pageId, paths))).toBe(body);
  });

  it('a page that moved is linked by its new path', () => {
    // `faq` moves under `guide`: the written `../faq.md` no longer names it.
    const moved: PathNode[] = [tree[0], { ...tree[1], children: [...tree[1].children, tree[2]] }];
    const { markdown } = roundTrip('See [FAQ](./../faq.md) and [setup](./setup.md).\n', 'SETUP', tree, moved);
    expect(markdown).toBe('See [FAQ](faq.md) and [setup](./setup.md).\n');
  });

  it('a link edited to another page gets the canonical path, the others keep theirs', () => {
    const retarget = (d: Document) => {
      let first = true;
      return mapRefs(d, (ref) => (ref.kind === 'page' && first ? ((first = false), { kind: 'page', page: 'FAQ' }) : ref));
    };
    const { markdown } = roundTrip('[one](./more/) and [two](./more/)\n', 'SETUP', tree, tree, retarget);
    expect(markdown).toBe('[one](../faq.md) and [two](./more/)\n');
  });

  it('two forms of one target are given back in order', () => {
    const body = '[a](./faq.md), [b](faq.md) and [c](../faq.md#x)\n';
    expect(roundTrip(body, 'HOME').markdown).toBe(body);
  });
});
