import { describe, expect, it } from 'vitest';
import { documentSchemaErrors } from '../../../test/markdown-schema.ts';
import { readPageMarkdown, writePageMarkdown } from './page.ts';
import { relativeDocumentPaths, resolveDocumentPaths, spacePaths, type PathNode } from './paths.ts';
import { extractLinks } from './extract.ts';
import type { Document, TableBlock } from './types.ts';
import { readHtmlTable } from './html-table.ts';

/*
 * GitBook's cards table with a cover image column (`<th data-hidden data-card-cover
 * data-type="files">`, cells `<a href="<asset path>">name</a>`): read as a files column
 * holding file ids (GitBook's schema) once paths are resolved, written back byte for byte.
 * The tables are the forms of the held-out corpus (BeefreeSDK, sleuth-io), on made-up pages.
 */

const tree: PathNode[] = [
  { id: 'HOME', slug: 'home', children: [] },
  { id: 'GUIDE', slug: 'guide', children: [{ id: 'SETUP', slug: 'setup', children: [] }] },
];
const files = [
  { id: 'IMG1', name: 'Code Deploys.png' },
  { id: 'IMG2', name: 'cover.jpg' },
];
const paths = spacePaths(tree, files);

const read = (markdown: string, pageId: string) => resolveDocumentPaths(readPageMarkdown(markdown).document, paths.fileOfPage(pageId)!, paths);
const write = (document: Document, pageId: string) => writePageMarkdown(relativeDocumentPaths(document, paths.fileOfPage(pageId)!, pageId, paths));

const COVER_AND_TARGET =
  '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead>' +
  '<tbody><tr><td>Setup</td><td><a href="guide/setup.md">setup.md</a></td><td><a href=".gitbook/assets/Code Deploys.png">Code Deploys.png</a></td></tr>' +
  '<tr><td>Home</td><td><a href="home.md">home.md</a></td><td></td></tr></tbody></table>\n';

const tableOf = (document: Document) => document.nodes[0] as TableBlock;

describe('cards tables with a cover image column', () => {
  it('reads the cover column as files holding file ids, valid in GitBook\'s schema, and writes it back byte for byte', () => {
    const document = read(COVER_AND_TARGET, 'HOME');
    const table = tableOf(document);
    expect(table.type).toBe('table');
    expect(table.data.view).toEqual({ type: 'cards', columns: ['c0'], cardSize: 'medium', targetDefinition: 'c1', coverDefinition: 'c2' });
    expect(table.data.definition.c2).toEqual({ id: 'c2', title: '', type: 'files' });
    expect(table.data.records.r0.values.c2).toEqual(['IMG1']);
    expect(table.data.records.r1.values.c2).toEqual([]);
    expect(table.data.records.r0.values.c1).toEqual({ kind: 'page', page: 'SETUP' });
    expect(documentSchemaErrors(document)).toBeNull();
    expect(write(document, 'HOME')).toBe(COVER_AND_TARGET);
  });

  it('writes a cover set through the API (file ids) as its asset path, from any page, and reads it back the same', () => {
    const document = read(COVER_AND_TARGET, 'HOME');
    const table = tableOf(document);
    table.data.records.r1.values.c2 = ['IMG2'];
    const markdown = write(document, 'SETUP');
    expect(markdown).toContain('<td><a href="../.gitbook/assets/cover.jpg">cover.jpg</a></td>');
    expect(markdown).toContain('<a href="../.gitbook/assets/Code%20Deploys.png">Code Deploys.png</a>');
    const again = tableOf(resolveDocumentPaths(readPageMarkdown(markdown).document, paths.fileOfPage('SETUP')!, paths));
    expect(again.data.records.r0.values.c2).toEqual(['IMG1']);
    expect(again.data.records.r1.values.c2).toEqual(['IMG2']);
  });

  it('counts a cover image as a file the page uses', () => {
    const links = extractLinks(read(COVER_AND_TARGET, 'HOME'));
    expect(links.some((l) => l.ref.kind === 'file' && l.ref.file === 'IMG1')).toBe(true);
  });

  it('keeps a table verbatim when a cover names no file of the space, or its form is not GitBook\'s', () => {
    const unknown =
      '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody>' +
      '<tr><td>Deploys</td><td><a href=".gitbook/assets/Missing.png">Missing.png</a></td></tr></tbody></table>\n';
    const kept = read(unknown, 'HOME');
    expect(kept.nodes[0]).toMatchObject({ type: 'integration' });
    expect(documentSchemaErrors(kept)).toBeNull();
    expect(write(kept, 'HOME')).toBe(unknown);
    // A cover on a grid, on a text column, twice, or a cell holding text: not this module's form.
    for (const variant of [
      COVER_AND_TARGET.replace(' data-view="cards"', ''),
      COVER_AND_TARGET.replace('data-card-cover data-type="files"', 'data-card-cover'),
      COVER_AND_TARGET.replace('<th></th>', '<th data-hidden data-card-cover data-type="files"></th>').replace(/<tr><td>(Setup|Home)<\/td>/g, '<tr><td></td>'),
      COVER_AND_TARGET.replace('<td></td></tr></tbody>', '<td>cover</td></tr></tbody>'),
    ]) {
      const document = read(variant, 'HOME');
      expect(document.nodes[0]?.type, variant).not.toBe('table');
      expect(write(document, 'HOME')).toBe(variant);
    }
  });

  it('reads the forms GitBook writes in the held-out corpus (a cover beside visible and hidden columns)', () => {
    const sleuth =
      '<table data-view="cards"><thead><tr><th></th><th></th><th></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody>' +
      '<tr><td>Deploys</td><td></td><td></td><td><a href=".gitbook/assets/Code Deploys.png">Code Deploys.png</a></td></tr></tbody></table>\n';
    const document = read(sleuth, 'HOME');
    expect(tableOf(document).data.view).toMatchObject({ type: 'cards', columns: ['c0', 'c1', 'c2'], coverDefinition: 'c3' });
    expect(write(document, 'HOME')).toBe(sleuth);
  });
});

describe('lists in the cells of an HTML table', () => {
  it('reads each list item of a cell as a paragraph of it, words apart; the table, not written back so, stays verbatim as written', () => {
    const markdown = '<table data-view="cards"><thead><tr><th></th><th></th></tr></thead><tbody><tr><td><strong>Lamps</strong></td><td><ul><li>Brass wick</li><li><strong>Clear glass</strong></li><li><strong>Oil</strong></li></ul></td></tr></tbody></table>\n';
    const table = readHtmlTable(markdown.trim(), { tokens: [], definitions: new Map() })!;
    const cell = table.fragments!.find((f) => f.fragment === table.data.records.r0.values[table.data.view.columns[1]])!;
    const texts = cell.nodes.map((p) => (p as { nodes: { leaves?: { text: string }[] }[] }).nodes.flatMap((n) => n.leaves ?? []).map((l) => l.text).join(''));
    expect(texts).toEqual(['Brass wick', 'Clear glass', 'Oil']);
    const page = readPageMarkdown(markdown);
    expect(writePageMarkdown(page.document, page.title)).toBe(markdown);
  });

  it('reads no table from a cell whose list tags do not nest', () => {
    expect(readHtmlTable('<table><thead><tr><th>Lamp</th></tr></thead><tbody><tr><td><ul><li>Brass</ul></li></td></tr></tbody></table>', { tokens: [], definitions: new Map() })).toBeNull();
  });
});
