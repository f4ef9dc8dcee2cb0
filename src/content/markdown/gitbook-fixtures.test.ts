/*
 * The GitBook-written fixture space (test/fixtures/markdown/): every page is read the way
 * the change-request batch reads it (front matter and `# Title` split off, `##` heading-1,
 * relative paths resolved against the space) and written the way format=markdown writes it.
 * Expected documents and markdown are in test/fixtures/markdown-expected/ (regenerate with
 * UPDATE_FIXTURES=1 and review the diff).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { documentSchemaErrors } from '../../../test/markdown-schema.ts';
import { readPageMarkdown, writePageMarkdown } from './page.ts';
import { labelMentions, relativeDocumentPaths, resolveDocumentPaths, spacePaths, type PathNode, type SpacePaths } from './paths.ts';
import { documentAnchors, extractLinks } from './extract.ts';
import { isDeadUrl } from '../links/report.ts';
import type { Document } from './types.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures');
const SPACE = join(root, 'markdown');
const EXPECTED = join(root, 'markdown-expected');
const update = process.env.UPDATE_FIXTURES === '1';

/** The fixture folder as a page tree: `a/b.md` is page b under a, `a/README.md` is a's own content. */
function tree(dir: string): PathNode[] {
  return readdirSync(dir)
    .filter((name) => !name.startsWith('.') && name !== 'README.md')
    .sort()
    .flatMap((name): PathNode[] => {
      const path = join(dir, name);
      const id = relative(SPACE, path).replace(/\.md$/, '');
      if (statSync(path).isDirectory()) return [{ id, slug: name, children: tree(path) }];
      return name.endsWith('.md') ? [{ id, slug: name.replace(/\.md$/, ''), children: [] }] : [];
    });
}

/** The space root's README is the first page (GitBook's landing page), slug `readme`... kept as README.md by GitBook. */
const pages: PathNode[] = [{ id: 'README', slug: 'README', children: [] }, ...tree(SPACE)];
const FILES = [
  { id: 'file-logo', name: 'logo.png' },
  { id: 'file-menu', name: 'menu.png' },
  { id: 'file-manual', name: 'manual.pdf' },
];
const paths: SpacePaths = spacePaths(pages, FILES);

function fixtures(dir = SPACE): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return fixtures(path);
    return name.endsWith('.md') ? [relative(SPACE, path)] : [];
  });
}

const pageIdOf = (file: string) => file.replace(/\.md$/, '');

function read(markdown: string, file: string): { title?: string; document: Document } {
  const { title, document } = readPageMarkdown(markdown);
  return { title, document: resolveDocumentPaths(document, paths.fileOfPage(pageIdOf(file)) ?? file, paths) };
}

/** Page titles (the leading `# Title` of each fixture): mentions are written with them. */
const titles = new Map(fixtures().map((file) => [pageIdOf(file), readPageMarkdown(readFileSync(join(SPACE, file), 'utf8')).title]));

function write(document: Document, file: string, title?: string): string {
  const labelled = labelMentions(document, (id) => titles.get(id));
  return writePageMarkdown(relativeDocumentPaths(labelled, paths.fileOfPage(pageIdOf(file)) ?? file, pageIdOf(file), paths), title);
}

/** Trailing whitespace (and GitBook's `&#x20;`, an encoded trailing space) does not count. */
/**
 * Pages GitBook's own JSONDocument schema cannot hold as written (docs/decisions/markdown.md,
 * "What cannot round-trip"): their expected markdown records what Quire writes instead.
 */
const SCHEMA_LIMITED: Record<string, string> = {};

const canonical = (text: string) => text.replace(/(?:[ \t]|&#x20;)+$/gm, '').replace(/\s+$/, '');

describe('GitBook-written fixture space', () => {
  it('maps every fixture page to its own markdown file path', () => {
    for (const file of fixtures()) expect(paths.fileOfPage(pageIdOf(file)), file).toBe(file);
  });

  for (const file of fixtures()) {
    describe(file, () => {
      const source = readFileSync(join(SPACE, file), 'utf8');
      const { title, document } = read(source, file);
      const markdown = write(document, file, title);

      it('reads to the expected document, which validates against GitBook JSONDocument', () => {
        const expectedPath = join(EXPECTED, file.replace(/\.md$/, '.json'));
        if (update) {
          mkdirSync(dirname(expectedPath), { recursive: true });
          writeFileSync(expectedPath, JSON.stringify({ title, document }, null, 2) + '\n');
        }
        expect({ title, document }).toEqual(JSON.parse(readFileSync(expectedPath, 'utf8')));
        expect(documentSchemaErrors(document)).toBeNull();
      });

      it('writes the expected markdown: the source, byte for byte (trailing whitespace aside)', () => {
        const expectedPath = join(EXPECTED, file);
        if (update || !existsSync(expectedPath)) {
          mkdirSync(dirname(expectedPath), { recursive: true });
          writeFileSync(expectedPath, markdown);
        }
        expect(markdown).toBe(readFileSync(expectedPath, 'utf8'));
        if (SCHEMA_LIMITED[file]) expect(canonical(markdown), SCHEMA_LIMITED[file]).not.toBe(canonical(source));
        else expect(canonical(markdown)).toBe(canonical(source));
      });

      it('is stable on a second round trip', () => {
        const again = read(markdown, file);
        expect(again.document).toEqual(document);
        expect(write(again.document, file, again.title)).toBe(markdown);
      });
    });
  }

  it('resolves relative links and assets to pages and files, and keeps the rest as written (broken)', () => {
    const { document } = read(readFileSync(join(SPACE, 'guides/setup/install.md'), 'utf8'), 'guides/setup/install.md');
    const refs = extractLinks(document).map((l) => l.ref);
    expect(refs).toEqual([
      { kind: 'page', page: 'README' },
      { kind: 'page', page: 'blocks/hint' },
      { kind: 'url', url: '../missing.md' },
      { kind: 'file', file: 'file-manual' },
      { kind: 'url', url: '/broken/pages/abc123' },
      { kind: 'file', file: 'file-manual' },
      { kind: 'url', url: '../../.gitbook/assets/missing.png' },
    ]);
    expect(refs.filter((r) => r.kind === 'url').every((r) => isDeadUrl((r as { url: string }).url))).toBe(true);
    const readme = read(readFileSync(join(SPACE, 'README.md'), 'utf8'), 'README.md').document;
    expect(extractLinks(readme).map((l) => l.ref)).toEqual([
      { kind: 'page', page: 'blocks/headings' },
      { kind: 'anchor', page: 'guides/setup/install', anchor: 'before-you-start' },
      { kind: 'page', page: 'blocks/hint' },
      { kind: 'file', file: 'file-logo' },
    ]);
  });

  it('finds the links of tables, cards, buttons and mentions, resolved to pages', () => {
    const linksOf = (file: string) => extractLinks(read(readFileSync(join(SPACE, file), 'utf8'), file).document).map((l) => [l.source, l.ref]);
    expect(linksOf('blocks/tables.md')).toEqual([
      ['link', { kind: 'page', page: 'blocks/hint' }],
      ['link', { kind: 'anchor', page: 'guides/setup/install', anchor: 'before-you-start' }],
      ['table', { kind: 'page', page: 'blocks/headings' }],
      ['table', { kind: 'page', page: 'guides/setup/install' }],
      ['table', { kind: 'page', page: 'blocks/images' }],
    ]);
    expect(linksOf('blocks/buttons.md')).toEqual([
      ['button', { kind: 'url', url: 'https://app.gitbook.com/join' }],
      ['button', { kind: 'page', page: 'guides/setup/install' }],
      ['link', { kind: 'page', page: 'blocks/hint' }],
      ['mention', { kind: 'page', page: 'blocks/hint' }],
    ]);
  });

  it('knows every anchor with GitBook rules: digits, "&", camel case, custom ids, nested headings and summaries', () => {
    const anchorsOf = (file: string) => [...documentAnchors(read(readFileSync(join(SPACE, file), 'utf8'), file).document).values()];
    expect(anchorsOf('blocks/headings.md')).toEqual(['getting-started', '1-install-the-cli', 'math-and-tex', 'agent']);
    expect(anchorsOf('blocks/tabs.md')).toEqual(['download', 'unpack']);
    expect(anchorsOf('blocks/images.md')).toEqual(['more-screenshots']);
  });
});
