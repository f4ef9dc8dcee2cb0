import { describe, expect, it } from 'vitest';
import { frontMatterOf, metaFromFrontMatter, splitPageFile } from './front-matter.ts';
import { bindDocument, layoutConfig, MAX_CONFIG_BYTES, MAX_REDIRECTS, readGitLayout, type RepositoryFile } from './read.ts';
import { parseSummary, writeSummary } from './summary.ts';
import { pageFileText, planPaths, summaryOf } from './write.ts';
import type { PageNode } from '../store/types.ts';

function source(files: Record<string, string>) {
  const list: RepositoryFile[] = Object.keys(files).map((path, i) => ({ path, oid: String(i).padStart(40, '0') }));
  return { files: list, read: async (paths: string[]) => new Map(paths.filter((p) => p in files).map((p) => [p, Buffer.from(files[p])])) };
}

describe('SUMMARY.md', () => {
  it('reads nested items, groups and links, and writes GitBook’s form back unchanged', () => {
    const text = [
      '# Table of contents',
      '',
      '* [Intro](README.md)',
      '* [Guide](guide/README.md)',
      '  * [Step \\[1\\]](guide/step-1.md)',
      '    * [Deeper](guide/deeper.md)',
      '* [Site](https://example.com)',
      '',
      '## API',
      '',
      '* [Tokens](api/tokens.md)',
      '',
    ].join('\n');
    const entries = parseSummary(text);
    expect(entries.map((e) => [e.kind, e.title])).toEqual([
      ['page', 'Intro'],
      ['page', 'Guide'],
      ['link', 'Site'],
      ['group', 'API'],
    ]);
    expect(entries[1].children[0].title).toBe('Step [1]');
    expect(entries[1].children[0].children[0].href).toBe('guide/deeper.md');
    expect(writeSummary(entries)).toBe(text);
  });

  it('reads an entry whose page link title holds escaped quotes as the page (GitBook writes `"\\"Tab\\" page"`)', () => {
    const entries = parseSummary('* [About the "General" tab](deploy/general-tab.md "\\"General\\" tab")\n* [Other](other.md \'it\\\'s\')\n* [Third](third.md (third))\n');
    expect(entries.map((e) => [e.kind, e.title, e.href])).toEqual([
      ['page', 'About the "General" tab', 'deploy/general-tab.md'],
      ['page', 'Other', 'other.md'],
      ['page', 'Third', 'third.md'],
    ]);
  });

  it('accepts - and + bullets, tabs, encoded paths and angle brackets', () => {
    const entries = parseSummary('- [A](<my page.md>)\n\t+ [B](sub%20dir/b.md)\n');
    expect(entries[0].href).toBe('my page.md');
    expect(entries[0].children[0].href).toBe('sub dir/b.md');
    expect(writeSummary(entries)).toContain('* [A](my%20page.md)');
  });

  it('reads a destination as CommonMark does: parentheses in <brackets>, balanced or escaped ones bare, a title, reserved characters encoded', () => {
    const entries = parseSummary(
      [
        '* [Privesc](<linux/privesc (linux).md>)',
        '* [Privesc 2](linux/privesc%20\\(linux\\).md)',
        '* [Balanced](notes/a(1).md)',
        '* [C#](windows/C%23.md)',
        '* [R&D](notes/r%26d.md#top)',
        '* [Titled](notes/titled.md "A title")',
        '* [Not a link](notes/x.md) and more',
        '',
      ].join('\n'),
    );
    expect(entries.map((e) => [e.title, e.href])).toEqual([
      ['Privesc', 'linux/privesc (linux).md'],
      ['Privesc 2', 'linux/privesc (linux).md'],
      ['Balanced', 'notes/a(1).md'],
      ['C#', 'windows/C#.md'],
      ['R&D', 'notes/r&d.md'],
      ['Titled', 'notes/titled.md'],
      ['[Not a link](notes/x.md) and more', undefined],
    ]);
    // Written back encoded, and read back to the same paths.
    const written = writeSummary(entries.slice(0, 6));
    expect(written).toContain('* [C#](windows/C%23.md)');
    expect(written).toContain('* [Privesc](linux/privesc%20%28linux%29.md)');
    expect(parseSummary(written).map((e) => e.href)).toEqual(entries.slice(0, 6).map((e) => e.href));
  });
});

describe('a group heading anchored to its slug', () => {
  it('reads `## Title <a href="#slug" id="slug"></a>` as the title and the slug, and writes it back so', () => {
    const text = '# Table of contents\n\n* [Home](README.md)\n\n## 手册 <a href="#guides" id="guides"></a>\n\n* [Start](guides/start.md)\n\n## Getting Started\n\n* [Install](install.md)\n';
    const entries = parseSummary(text);
    expect(entries.filter((e) => e.kind === 'group').map((e) => [e.title, e.slug])).toEqual([
      ['手册', 'guides'],
      ['Getting Started', undefined],
    ]);
    expect(writeSummary(entries)).toBe(text);
    // A slug that is not made of slug characters is not written into the attribute.
    expect(writeSummary([{ kind: 'group', title: 'Odd', slug: 'x" onclick="y', children: [] }])).toBe('# Table of contents\n\n## Odd\n');
  });

  it('gives the group that slug, so its pages keep their addresses, and writes the anchor only where the title would give another slug', async () => {
    const layout = await readGitLayout(
      source({
        'SUMMARY.md': '# Table of contents\n\n## 手册 <a href="#guides" id="guides"></a>\n\n* [Start](guides/start.md)\n\n## Getting Started\n\n* [Install](install.md)\n',
        'guides/start.md': '# Start\n',
        'install.md': '# Install\n',
      }),
    );
    expect(layout.pages.map((p) => [p.type, p.title, p.slug])).toEqual([
      ['group', '手册', 'guides'],
      ['group', 'Getting Started', 'getting-started'],
    ]);
    // The anchor is the repository's text: made a slug as a title is.
    const odd = await readGitLayout(source({ 'SUMMARY.md': '## Odd <a href="#x" id="../Weird Slug/"></a>\n\n* [A](a.md)\n', 'a.md': '# A\n' }));
    expect(odd.pages.map((p) => [p.title, p.slug])).toEqual([['Odd', 'weird-slug']]);
    const group = (id: string, title: string, slug: string, children: PageNode[]): PageNode => ({ entry: { id, type: 'group', title, slug, createdAt: '', updatedAt: '' }, parentId: null, path: slug, depth: 0, children });
    const start: PageNode = { entry: { id: 's', type: 'document', title: 'Start', slug: 'start', createdAt: '', updatedAt: '' }, parentId: 'g', path: 'guides/start', depth: 1, children: [] };
    const pages = [group('g', '手册', 'guides', [start]), group('h', 'Renamed', 'getting-started', [])];
    expect(summaryOf(pages, new Map([['s', 'guides/start.md']]), 'SUMMARY.md')).toBe(
      '# Table of contents\n\n## 手册 <a href="#guides" id="guides"></a>\n\n* [Start](guides/start.md)\n\n## Renamed <a href="#getting-started" id="getting-started"></a>\n',
    );
  });
});

describe('front matter', () => {
  it('maps description, icon, cover, layout and hidden both ways', () => {
    const text = '---\ndescription: Short\nicon: rocket\ncover: .gitbook/assets/c.png\ncoverY: 12\nlayout:\n  width: wide\n  title:\n    visible: false\nhidden: true\n---\n\n# T\n';
    const { data, body } = splitPageFile(text);
    expect(body).toBe('# T\n');
    const meta = metaFromFrontMatter(data, (v) => ({ kind: 'file', file: `id:${v}` }));
    expect(meta).toEqual({ description: 'Short', icon: 'rocket', hidden: true, cover: { ref: { kind: 'file', file: 'id:.gitbook/assets/c.png' }, yPos: 12 }, layout: { width: 'wide', title: false } });
    expect(frontMatterOf(meta, () => '.gitbook/assets/c.png')).toBe(text.slice(0, text.indexOf('# T')));
    expect(frontMatterOf({}, () => undefined)).toBe('');
  });

  it('leaves text that is not YAML in the body', () => {
    expect(splitPageFile('---\n: [\n---\nbody')).toEqual({ data: {}, body: '---\n: [\n---\nbody' });
  });

  it('takes `---` lines around a sentence for content: front matter is a YAML mapping, or empty', () => {
    const page = '---\n\nA sentence a divider above and below sets apart.\n\n---\n\nMore.\n';
    expect(splitPageFile(page)).toEqual({ data: {}, body: page });
    expect(splitPageFile('---\n- a\n- b\n---\nx\n')).toEqual({ data: {}, body: '---\n- a\n- b\n---\nx\n' });
    expect(splitPageFile('---\n---\n\n# T\n')).toEqual({ data: {}, body: '# T\n' });
    expect(splitPageFile('---\r\nhidden: true\r\n---\r\n\r\nText\r\n')).toEqual({ data: { hidden: true }, body: 'Text\r\n' });
    // The closing `---` stands on a line of its own.
    expect(splitPageFile('---\nhidden: true\nsee---\nText\n').data).toEqual({});
  });
});

describe('readGitLayout', () => {
  it('reads a folder tree without SUMMARY.md: README as folder page, files by name, assets anywhere pages point', async () => {
    const layout = await readGitLayout(
      source({
        'README.md': '# Home\n\n![x](images/x.png)\n',
        'b.md': '# B\n\n[home](./)\n',
        'a.md': 'No title here.\n',
        'sub/README.md': '# Sub\n',
        'sub/c.md': '# C\n\n[b](../b.md#part)\n',
        'images/x.png': 'png',
        'notes.txt': 'not a page',
      }),
    );
    expect(layout.pages.map((p) => [p.title, p.slug])).toEqual([
      ['Home', 'home'],
      ['A', 'a'],
      ['B', 'b'],
      ['Sub', 'sub'],
    ]);
    expect(layout.pages[3].children.map((p) => p.title)).toEqual(['C']);
    expect(layout.assets.map((a) => a.path)).toEqual(['images/x.png']);
    const c = layout.pages[3].children[0];
    const bound = bindDocument(c.document!, (p) => (p === 'b.md' ? 'B-ID' : undefined), () => undefined);
    expect(JSON.stringify(bound)).toContain('"kind":"anchor","page":"B-ID","anchor":"part"');
    expect(JSON.stringify(layout.pages[2].document)).toContain('"page":"git:README.md"');
  });

  it('honours .gitbook.yaml root and structure, and repoProjectDirectory', async () => {
    const layout = await readGitLayout({
      ...source({
        'site/.gitbook.yaml': 'root: ./content\nstructure:\n  readme: intro.md\n  summary: toc.md\nredirects:\n  old: intro.md\n',
        'site/content/toc.md': '* [Intro](intro.md)\n',
        'site/content/intro.md': '# Intro\n',
        'site/content/unlisted.md': '# Not in the table of contents\n',
      }),
      projectDirectory: 'site',
    });
    expect(layout.root).toBe('site/content');
    expect(layout.summaryPath).toBe('site/content/toc.md');
    expect(layout.redirects).toEqual({ old: 'intro.md' });
    expect(layout.pages.map((p) => p.git?.path)).toEqual(['site/content/intro.md']);
  });

  it('reads redirect keys by one rule, and keeps .gitbook.yaml within its budgets', () => {
    expect(layoutConfig('redirects:\n  /old/page.md/: new.md\n  old/README.md: guide.md\n  /: x.md\n', undefined).redirects).toEqual({ 'old/page': 'new.md', old: 'guide.md' });
    const many = 'redirects:\n' + Array.from({ length: MAX_REDIRECTS + 5 }, (_, i) => `  old/${i}: new.md\n`).join('');
    const read = layoutConfig(many, undefined).redirects;
    expect(Object.keys(read)).toHaveLength(MAX_REDIRECTS);
    expect(read['old/0']).toBe('new.md');
    // Past its size budget the file is read as a broken one: defaults.
    const big = `root: ./docs/\n# ${'x'.repeat(MAX_CONFIG_BYTES)}\n`;
    expect(layoutConfig(big, undefined)).toMatchObject({ root: '', redirects: {} });
    expect(layoutConfig('root: ./docs/\n', undefined).root).toBe('docs');
  });

  it('reads the folder tree when SUMMARY.md gives no table of contents (no item, no group), keeping its text', async () => {
    const summary = '{\n  "anchor": "* [Home](README.md)"\n}\n';
    const layout = await readGitLayout(source({ 'SUMMARY.md': summary, 'README.md': '# Home\n', 'guide.md': '# Guide\n', 'sub/README.md': '# Sub\n', 'sub/c.md': '# C\n' }));
    expect(layout.pages.map((p) => [p.title, p.children.map((c) => c.title)])).toEqual([
      ['Home', []],
      ['Guide', []],
      ['Sub', ['C']],
    ]);
    expect(layout.summary?.text).toBe(summary);
    // A SUMMARY.md holding only a group is a table of contents: no folder pages are added.
    const grouped = await readGitLayout(source({ 'SUMMARY.md': '# Table of contents\n\n## Later\n', 'README.md': '# Home\n', 'guide.md': '# Guide\n' }));
    expect(grouped.pages.map((p) => p.title)).toEqual(['Later']);
  });

  it('binds links like URLs: from the content root for /paths and / itself, a folder without a slash is its README, .. clamped, a redirected path; dead links stay as written', async () => {
    const layout = await readGitLayout(
      source({
        '.gitbook.yaml': 'root: ./docs\nredirects:\n  old/mallet: tools/hammer.md\n',
        'docs/README.md': '# Top\n',
        'docs/tools/README.md': '# Tools\n',
        'docs/tools/hammer.md': '# Hammer\n',
        'docs/deep/nail.md': [
          '# Nail',
          '',
          '[a](/tools/hammer.md#grip) [b](../tools) [c](../../../tools/hammer.md) [d](/tools/) [e](/) [f](../tools/saw.md) [g](broken-reference) [h](/docs/tools/hammer.md) [i](../old/mallet.md#grip) [j](/old/mallet)',
          '',
        ].join('\n'),
      }),
    );
    const nail = layout.pages.find((p) => p.title === 'Nail') ?? layout.pages.flatMap((p) => p.children).find((p) => p.title === 'Nail');
    const refs = JSON.stringify(nail!.document).match(/\{"kind":"[a-z]+"[^{}]*\}/g);
    expect(refs).toEqual([
      '{"kind":"anchor","page":"git:docs/tools/hammer.md","anchor":"grip"}',
      '{"kind":"page","page":"git:docs/tools/README.md"}',
      '{"kind":"page","page":"git:docs/tools/hammer.md"}',
      // A folder from the top is its README, as GitHub reads it; `/` the content root's README.
      '{"kind":"page","page":"git:docs/tools/README.md"}',
      '{"kind":"page","page":"git:docs/README.md"}',
      '{"kind":"url","url":"../tools/saw.md"}',
      '{"kind":"url","url":"broken-reference"}',
      '{"kind":"url","url":"/docs/tools/hammer.md"}',
      '{"kind":"anchor","page":"git:docs/tools/hammer.md","anchor":"grip"}',
      // A redirected path from the top, as the same path written relative.
      '{"kind":"page","page":"git:docs/tools/hammer.md"}',
    ]);
  });

  it('binds a link to a folder’s README written in another case (`readme.md`), and writes it back as written', async () => {
    const layout = await readGitLayout(
      source({
        'SUMMARY.md': '* [Home](README.md)\n* [Birds](birds/README.md)\n  * [Owls](birds/owls.md)\n',
        'README.md': '# Home\n\nSee [the birds](birds/readme.md) and [their index](birds/Readme.md#list).\n',
        'birds/README.md': '# Birds\n\nBack [home](../readme.md).\n',
        'birds/owls.md': '# Owls\n\nUp to [birds](README.md) or [birds](readme.md).\n',
      }),
    );
    const refsOf = (title: string) => {
      const all = (list: typeof layout.pages): typeof layout.pages => list.flatMap((p) => [p, ...all(p.children)]);
      return JSON.stringify(all(layout.pages).find((p) => p.title === title)!.document).match(/\{"kind":"[a-z]+"[^{}]*\}/g);
    };
    expect(refsOf('Home')).toEqual(['{"kind":"page","page":"git:birds/README.md"}', '{"kind":"anchor","page":"git:birds/README.md","anchor":"list"}']);
    expect(refsOf('Birds')).toEqual(['{"kind":"page","page":"git:README.md"}']);
    expect(refsOf('Owls')).toEqual(['{"kind":"page","page":"git:birds/README.md"}', '{"kind":"page","page":"git:birds/README.md"}']);
    // The hrefs as written are kept beside the references, so the page is written back byte for byte.
    expect(JSON.stringify(layout.pages[0].document)).toContain('birds/readme.md');
  });

  it('binds a link to a folder’s README whatever the case of each letter of both names', async () => {
    const layout = await readGitLayout(
      source({
        'SUMMARY.md': '* [Home](README.md)\n* [Birds](birds/rEaDmE.md)\n',
        'README.md': '# Home\n\nSee [the birds](birds/ReadMe.Md), [again](birds/README.MD#list) and [the folder](birds/).\n',
        'birds/rEaDmE.md': '# Birds\n',
      }),
    );
    expect(JSON.stringify(layout.pages[0].document).match(/\{"kind":"[a-z]+"[^{}]*\}/g)).toEqual([
      '{"kind":"page","page":"git:birds/rEaDmE.md"}',
      '{"kind":"anchor","page":"git:birds/rEaDmE.md","anchor":"list"}',
      '{"kind":"page","page":"git:birds/rEaDmE.md"}',
    ]);
  });

  it('ignores a broken .gitbook.yaml and gives empty pages to SUMMARY items without a file', async () => {
    const layout = await readGitLayout(source({ '.gitbook.yaml': 'root: [', 'SUMMARY.md': '* [Gone](gone.md)\n* Plain\n' }));
    expect(layout.pages.map((p) => [p.type, p.title, p.git])).toEqual([
      ['document', 'Gone', undefined],
      ['document', 'Plain', undefined],
    ]);
  });
});

describe('writing', () => {
  const node = (id: string, slug: string, children: PageNode[] = [], extra: Partial<PageNode['entry']> = {}): PageNode => ({
    entry: { id, type: 'document', title: slug.toUpperCase(), slug, createdAt: '', updatedAt: '', ...extra },
    parentId: null,
    path: slug,
    depth: 0,
    children,
  });

  it('places new pages the way GitBook does and writes SUMMARY.md and page files with relative links', () => {
    const pages = [node('a', 'home'), node('b', 'guide', [node('c', 'step')]), node('d', 'kept', [], { git: { oid: 'x', path: 'old/place.md' } })];
    const files = [{ id: 'f', name: 'pic.png', contentType: 'image/png', size: 1, hash: 'h' }];
    const { pageFiles, filePaths } = planPaths(pages, files, 'docs');
    expect(Object.fromEntries(pageFiles)).toEqual({ a: 'docs/README.md', b: 'docs/guide/README.md', c: 'docs/guide/step.md', d: 'old/place.md' });
    expect(filePaths.get('f')).toBe('docs/.gitbook/assets/pic.png');
    expect(summaryOf(pages, pageFiles, 'docs/SUMMARY.md')).toBe('# Table of contents\n\n* [HOME](README.md)\n* [GUIDE](guide/README.md)\n  * [STEP](guide/step.md)\n* [KEPT](../old/place.md)\n');
    const doc = {
      object: 'document' as const,
      data: {},
      nodes: [
        {
          object: 'block' as const,
          type: 'paragraph',
          data: {},
          nodes: [
            { object: 'inline' as const, type: 'link', data: { ref: { kind: 'page', page: 'a' } }, nodes: [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: 'home', marks: [] }] }] },
          ],
        },
      ],
    };
    const text = pageFileText(pages[1].children[0], doc as never, pageFiles, filePaths);
    expect(text).toBe('# STEP\n\n[home](../README.md)\n');
  });
});
