import { describe, expect, it } from 'vitest';
import { caseInsensitiveIndex, decodePath, missingPagePath, readmeIndex, relativeDocumentPaths, resolveDocumentPaths, resolveRelative, spacePaths, type PathLookup } from './paths.ts';
import type { Document } from './types.ts';

/*
 * Where links lead in GitBook's layout: pages and files git sync imported keep the path
 * they had in git, so a page's markdown links to them as the repository did (issue 31);
 * pages made through the API have the path their slugs give.
 */

const linkTo = (ref: unknown): Document =>
  ({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'inline', type: 'link', data: { ref }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'x', marks: [] }] }] }] }] }) as unknown as Document;
const refOf = (document: Document) => (document.nodes[0] as any).nodes[0].data.ref;

describe('space paths', () => {
  // git: `docs/start/README.md` (slug `intro`) with `docs/start/install-guide.md` (slug `install`); an API page `faq` with no git path.
  const paths = spacePaths(
    [
      { id: 'P1', slug: 'intro', file: 'docs/start/README.md', children: [{ id: 'P2', slug: 'install', file: 'docs/start/install-guide.md', children: [] }] },
      { id: 'P3', slug: 'faq', children: [] },
    ],
    [
      { id: 'F1', name: 'shot.png', path: 'docs/images/shot.png' },
      { id: 'F2', name: 'upload.png' },
    ],
  );

  it('writes links to git-synced pages and files by their git paths, to other pages by their slug paths', () => {
    const from = (ref: unknown) => refOf(relativeDocumentPaths(linkTo(ref), 'docs/start/install-guide.md', 'P2', paths));
    expect(from({ kind: 'page', page: 'P1' })).toEqual({ kind: 'url', url: 'README.md' });
    expect(from({ kind: 'anchor', page: 'P2', anchor: 'steps' })).toEqual({ kind: 'url', url: '#steps' });
    expect(from({ kind: 'file', file: 'F1' })).toEqual({ kind: 'url', url: '../images/shot.png' });
    expect(from({ kind: 'file', file: 'F2' })).toEqual({ kind: 'url', url: '../../.gitbook/assets/upload.png' });
    expect(from({ kind: 'page', page: 'P3' })).toEqual({ kind: 'url', url: '../../faq.md' });
  });

  it('reads them back to the same references', () => {
    const read = (url: string) => refOf(resolveDocumentPaths(linkTo({ kind: 'url', url }), 'docs/start/install-guide.md', paths));
    expect(read('README.md')).toEqual({ kind: 'page', page: 'P1' });
    expect(read('./')).toEqual({ kind: 'page', page: 'P1' });
    expect(read('../images/shot.png')).toEqual({ kind: 'file', file: 'F1' });
    expect(read('../../.gitbook/assets/upload.png')).toEqual({ kind: 'file', file: 'F2' });
    expect(read('../../faq.md')).toEqual({ kind: 'page', page: 'P3' });
    // The slug paths still find git-synced pages: links written before the import resolve.
    expect(refOf(resolveDocumentPaths(linkTo({ kind: 'url', url: 'intro/install.md' }), 'faq.md', paths))).toEqual({ kind: 'page', page: 'P2' });
    expect(read('../nowhere.md')).toEqual({ kind: 'url', url: '../nowhere.md' });
  });
});

describe('a content root that is not the repository top (`.gitbook.yaml` `root: docs`)', () => {
  // git sync read `docs/README.md`, `docs/guide/setup.md`, `docs/ref/api.md` under the content root `docs`.
  const tree = (root?: string) =>
    spacePaths(
      [
        { id: 'R', slug: 'home', file: 'docs/README.md', ...(root ? { root } : {}), children: [] },
        { id: 'S', slug: 'setup', file: 'docs/guide/setup.md', ...(root ? { root } : {}), children: [] },
        { id: 'A', slug: 'api', file: 'docs/ref/api.md', ...(root ? { root } : {}), children: [] },
      ],
      [],
    );
  const withKept = (ref: unknown, hrefs: string[]): Document => ({ ...linkTo(ref), data: { boundHrefs: hrefs } }) as Document;

  it('keeps a written `/path` link, read from the content root, and a `..` stopping at its top', () => {
    const paths = tree('docs');
    expect(paths.root).toBe('docs');
    const back = (href: string) => refOf(relativeDocumentPaths(withKept({ kind: 'page', page: 'A' }, [href]), 'docs/guide/setup.md', 'S', paths));
    expect(back('/ref/api.md')).toEqual({ kind: 'url', url: '/ref/api.md' });
    expect(back('../../ref/api.md')).toEqual({ kind: 'url', url: '../../ref/api.md' });
    // Read from the repository's top, `/ref/api.md` names nothing: the canonical path is written.
    expect(refOf(relativeDocumentPaths(withKept({ kind: 'page', page: 'A' }, ['/ref/api.md']), 'docs/guide/setup.md', 'S', tree()))).toEqual({ kind: 'url', url: '../ref/api.md' });
  });

  it('binds `/path` links of markdown given through the API from the content root too', () => {
    const read = (url: string) => refOf(resolveDocumentPaths(linkTo({ kind: 'url', url }), 'docs/guide/setup.md', tree('docs')));
    expect(read('/ref/api.md#auth')).toEqual({ kind: 'anchor', page: 'A', anchor: 'auth' });
    // `/` is the content root's README, the space's first page (a link to the site's home).
    expect(read('/')).toEqual({ kind: 'page', page: 'R' });
    expect(read('../../../README.md')).toEqual({ kind: 'page', page: 'R' });
  });
});

describe('the forms a relative link is written in (resolveRelative)', () => {
  const pages = new Set(['README.md', 'guides/README.md', 'guides/my page.md', 'guides/setup.md']);
  // As lookupOf and git sync's import build it: a folder's README by any spelling of its name.
  const lookupOver = (paths: string[], fileAt: PathLookup['fileAt'] = () => undefined): PathLookup => {
    const readme = readmeIndex(paths.map((p) => [p, `P:${p}`] as const));
    return { pageAt: (p) => (paths.includes(p) ? `P:${p}` : readme(p)), fileAt };
  };
  const lookup = lookupOver([...pages], (p) => (p === 'img/a b.png' ? 'F1' : undefined));
  const from = (href: string) => resolveRelative(href, 'guides/intro.md', lookup);

  it('reads a query and an anchor after `.md`, percent-encoded and <bracketed> names, folders with and without a slash', () => {
    expect(from('setup.md?tab=1#steps')).toEqual({ kind: 'anchor', page: 'P:guides/setup.md', anchor: 'steps' });
    expect(from('setup.md?tab=1')).toEqual({ kind: 'page', page: 'P:guides/setup.md' });
    expect(from('my%20page.md')).toEqual({ kind: 'page', page: 'P:guides/my page.md' });
    expect(from('<my page.md>')).toEqual({ kind: 'page', page: 'P:guides/my page.md' });
    expect(from('../img/a%20b.png')).toEqual({ kind: 'file', file: 'F1' });
    expect(from('./')).toEqual({ kind: 'page', page: 'P:guides/README.md' });
    expect(from('../guides')).toEqual({ kind: 'page', page: 'P:guides/README.md' });
    expect(from('README.md#top')).toEqual({ kind: 'anchor', page: 'P:guides/README.md', anchor: 'top' });
    expect(from('../../../README.md')).toEqual({ kind: 'page', page: 'P:README.md' });
    // What names nothing stays unbound (the caller keeps it as written).
    expect(from('missing.md')).toBeNull();
  });

  it('decodes a percent-encoded path name by name, the characters URLs reserve too (`%23` is `#`, `%26` is `&`)', () => {
    const odd = lookupOver(['README.md', 'windows/C#.md', 'notes/r&d.md', 'notes/a+b.md', 'linux/privesc (linux).md', 'notes/café.md']);
    const at = (href: string) => resolveRelative(href, 'notes/index.md', odd);
    expect(at('../windows/C%23.md')).toEqual({ kind: 'page', page: 'P:windows/C#.md' });
    expect(at('../windows/C%23.md#usage')).toEqual({ kind: 'anchor', page: 'P:windows/C#.md', anchor: 'usage' });
    expect(at('r%26d.md')).toEqual({ kind: 'page', page: 'P:notes/r&d.md' });
    expect(at('a%2Bb.md')).toEqual({ kind: 'page', page: 'P:notes/a+b.md' });
    expect(at('a+b.md')).toEqual({ kind: 'page', page: 'P:notes/a+b.md' });
    expect(at('../linux/privesc%20%28linux%29.md')).toEqual({ kind: 'page', page: 'P:linux/privesc (linux).md' });
    expect(at('caf%C3%A9.md')).toEqual({ kind: 'page', page: 'P:notes/café.md' });
    // `C#.md` written raw is the page `C` and the anchor `.md`: nothing.
    expect(at('../windows/C#.md')).toBeNull();
    // Not valid percent-encoding: read as written.
    expect(at('100%.md')).toBeNull();
    expect(decodePath('a/100%/b%20c.md')).toBe('a/100%/b c.md');
  });

  it('reads a page written as its published address (`setup`, `setup/`, `setup#steps`) as that page when no folder of the name has a README', () => {
    expect(from('setup')).toEqual({ kind: 'page', page: 'P:guides/setup.md' });
    expect(from('setup/#steps')).toEqual({ kind: 'anchor', page: 'P:guides/setup.md', anchor: 'steps' });
    expect(from('../guides/setup#steps')).toEqual({ kind: 'anchor', page: 'P:guides/setup.md', anchor: 'steps' });
    // A folder's README comes first; a name giving neither names nothing.
    const both = lookupOver(['README.md', 'guides/README.md', 'guides.md']);
    expect(resolveRelative('guides', 'README.md', both)).toEqual({ kind: 'page', page: 'P:guides/README.md' });
    expect(from('nothing-here')).toBeNull();
  });

  it('reads `/` as the top README and `/folder/` as that folder\'s README, as GitHub reads them', () => {
    expect(from('/')).toEqual({ kind: 'page', page: 'P:README.md' });
    expect(from('/guides/')).toEqual({ kind: 'page', page: 'P:guides/README.md' });
    expect(from('/guides')).toEqual({ kind: 'page', page: 'P:guides/README.md' });
    expect(from('/nowhere/')).toBeNull();
  });

  it('names the markdown file a link leads to when it is no page of the space (missingPagePath)', () => {
    const missing = (href: string) => missingPagePath(href, 'guides/intro.md', (h) => resolveRelative(h, 'guides/intro.md', lookup));
    expect(missing('notes/extra.md#top')).toBe('guides/notes/extra.md');
    expect(missing('../../notes/Extra.MD')).toBe('notes/Extra.MD');
    expect(missing('/extra.md')).toBe('extra.md');
    // A folder holding no page is its README, no page either (a repository folder of scripts with a README SUMMARY.md leaves out).
    expect([missing('nowhere/'), missing('../scripts/archive'), missing('nowhere/#top')]).toEqual(['guides/nowhere/README.md', 'scripts/archive/README.md', 'guides/nowhere/README.md']);
    // Pages, files, folders with a page, a file of another kind and other sites are not.
    expect([missing('setup.md'), missing('readme.md'), missing('../img/a%20b.png'), missing('./'), missing('../tools/exploit.py'), missing('https://example.com/a.md'), missing('#a.md')]).toEqual([null, null, null, null, null, null, null]);
  });

  it('reads the README name case-insensitively, as GitBook does', () => {
    expect(from('readme.md')).toEqual({ kind: 'page', page: 'P:guides/README.md' });
    expect(from('../guides/Readme.md#top')).toEqual({ kind: 'anchor', page: 'P:guides/README.md', anchor: 'top' });
    expect(from('../readme.md')).toEqual({ kind: 'page', page: 'P:README.md' });
    // A folder's page imported from `readme.md` is found by `README.md` and by the folder.
    const lower = lookupOver(['tools/readme.md']);
    expect(resolveRelative('../tools/README.md', 'guides/intro.md', lower)).toEqual({ kind: 'page', page: 'P:tools/readme.md' });
    expect(resolveRelative('../tools/', 'guides/intro.md', lower)).toEqual({ kind: 'page', page: 'P:tools/readme.md' });
    // Only the README name: another page's name is read as written.
    expect(from('Setup.md')).toBeNull();
    expect(from('readme.markdown')).toBeNull();
  });

  it('finds a folder\'s README page through a space\'s paths whatever the case of each letter of its name', () => {
    // git sync imported `guides/rEaDmE.md` as the page `handbook` (its slug path is not `guides/`).
    const paths = spacePaths(
      [
        { id: 'HOME', slug: 'home', file: 'README.md', children: [] },
        { id: 'G', slug: 'handbook', file: 'guides/rEaDmE.md', children: [{ id: 'S', slug: 'setup', file: 'guides/setup.md', children: [] }] },
      ],
      [],
    );
    const read = (url: string, from = 'README.md') => refOf(resolveDocumentPaths(linkTo({ kind: 'url', url }), from, paths));
    expect(read('guides/ReadMe.Md')).toEqual({ kind: 'page', page: 'G' });
    expect(read('guides/README.MD#top')).toEqual({ kind: 'anchor', page: 'G', anchor: 'top' });
    expect(read('guides/')).toEqual({ kind: 'page', page: 'G' });
    expect(read('readme.MD', 'guides/setup.md')).toEqual({ kind: 'page', page: 'G' });
    // The folder is read as written, and another name is not a README.
    expect(read('Guides/readme.md')).toEqual({ kind: 'url', url: 'Guides/readme.md' });
    expect(read('guides/readme.markdown')).toEqual({ kind: 'url', url: 'guides/readme.markdown' });
  });
});

describe('names in another case (caseInsensitiveIndex)', () => {
  it('finds a name as written, else the one entry equal to it in another case; two such entries leave it naming none', () => {
    const find = caseInsensitiveIndex([
      ['README.md', 1],
      ['Notes.md', 2],
      ['NOTES.md', 3],
      ['Same.md', 4],
      ['SAME.md', 4],
    ] as const);
    expect([find('README.md'), find('readme.md'), find('rEaDmE.MD')]).toEqual([1, 1, 1]);
    expect([find('Notes.md'), find('NOTES.md'), find('notes.md')]).toEqual([2, 3, undefined]);
    // Two names of the same thing are one answer.
    expect(find('same.md')).toBe(4);
    expect(find('other.md')).toBeUndefined();
  });
});
