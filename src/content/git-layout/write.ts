/*
 * Writing a space in GitBook's Git Sync layout (docs/decisions/git-sync.md). Pages and
 * files keep the path they were imported from (or last exported to); new ones get
 * GitBook's paths (`<parent folder>/<slug>.md`, files in `.gitbook/assets/`). A page is
 * rewritten only when its signature (type, title, document, metadata) differs from the one
 * recorded when its file was last read or written, so untouched files stay byte for byte.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { writePageMarkdown } from '../markdown/page.ts';
import { labelMentions, mapRefs } from '../markdown/paths.ts';
import type { Document } from '../markdown/types.ts';
import type { FileEntry, PageEntry, PageNode } from '../store/types.ts';
import { slugFromTitle } from '../store/editor.ts';
import { frontMatterOf } from './front-matter.ts';
import { writeSummary, type SummaryEntry } from './summary.ts';

/** Where a page or file came from in git, as kept on its entry. */
export interface GitOrigin {
  oid: string;
  path: string;
  /** Page signature when the file was read or written (pages only). */
  sig?: string;
}

/** What decides whether a page's file must be written again. */
export function pageSignature(entry: Pick<PageEntry, 'type' | 'title' | 'document' | 'description' | 'icon' | 'hidden' | 'layout' | 'cover'>): string {
  const value = [entry.type, entry.title, entry.document ?? '', entry.description ?? '', entry.icon ?? '', entry.hidden ?? false, entry.layout ?? null, entry.cover ?? null];
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 32);
}

export const gitOf = (entry: { git?: unknown }): GitOrigin | undefined => entry.git as GitOrigin | undefined;

const join = (...parts: string[]) => posix.join(...parts.filter((p) => p !== '')).replace(/^\.\/?/, '');

/** Every page's file path (groups and links have none) and every file's path. */
export function planPaths(pages: readonly PageNode[], files: readonly FileEntry[], root: string): { pageFiles: Map<string, string>; filePaths: Map<string, string> } {
  const pageFiles = new Map<string, string>();
  const taken = new Set<string>();
  // Recorded paths first: they never move, so links between untouched pages stay right.
  const walkRecorded = (nodes: readonly PageNode[]) => {
    for (const n of nodes) {
      const git = gitOf(n.entry);
      if (n.entry.type === 'document' && git?.path && !taken.has(git.path)) {
        pageFiles.set(n.entry.id, git.path);
        taken.add(git.path);
      }
      walkRecorded(n.children);
    }
  };
  walkRecorded(pages);
  const unique = (wanted: string) => {
    let path = wanted;
    for (let n = 2; taken.has(path); n++) path = wanted.replace(/(\.[^./]*)?$/, (ext) => `-${n}${ext}`);
    taken.add(path);
    return path;
  };
  const walkNew = (nodes: readonly PageNode[], dir: string, top: boolean) => {
    nodes.forEach((n, index) => {
      let childDir = join(dir, n.entry.slug);
      if (n.entry.type === 'document') {
        let file = pageFiles.get(n.entry.id);
        if (!file) {
          const wanted = top && index === 0 && !taken.has(join(root, 'README.md')) ? join(root, 'README.md') : n.children.length > 0 ? join(childDir, 'README.md') : join(dir, `${n.entry.slug}.md`);
          file = unique(wanted);
          pageFiles.set(n.entry.id, file);
        }
        childDir = /(^|\/)README\.md$/i.test(file) && !(top && index === 0 && posix.dirname(file) === (root || '.')) ? posix.dirname(file) : file.replace(/\.md$/i, '');
        if (childDir === '.') childDir = '';
      }
      walkNew(n.children, childDir, false);
    });
  };
  walkNew(pages, root, true);
  const filePaths = new Map<string, string>();
  for (const f of files) {
    const git = gitOf(f as { git?: unknown });
    if (git?.path && !taken.has(git.path)) {
      filePaths.set(f.id, git.path);
      taken.add(git.path);
    }
  }
  for (const f of files) if (!filePaths.has(f.id)) filePaths.set(f.id, unique(join(root, '.gitbook/assets', f.name)));
  return { pageFiles, filePaths };
}

/** The SUMMARY.md of a page tree, paths relative to the SUMMARY's folder. */
export function summaryOf(pages: readonly PageNode[], pageFiles: Map<string, string>, summaryPath: string): string {
  const dir = posix.dirname(summaryPath) === '.' ? '' : posix.dirname(summaryPath);
  const toEntry = (n: PageNode): SummaryEntry => {
    const e = n.entry;
    if (e.type === 'group') return { kind: 'group', title: e.title, ...(e.slug !== slugFromTitle(e.title) ? { slug: e.slug } : {}), children: n.children.map(toEntry) };
    if (e.type === 'link') return { kind: 'link', title: e.title, href: e.target?.kind === 'url' ? e.target.url : '', children: [] };
    const file = pageFiles.get(e.id) ?? '';
    return { kind: 'page', title: e.title, href: dir ? posix.relative(dir, file) : file, children: n.children.map(toEntry) };
  };
  // Groups exist only at the top: a group below it is written as a page entry of its title.
  return writeSummary(pages.map(toEntry));
}

/** The bytes of a page file: front matter, `# Title`, body with relative links. */
export function pageFileText(
  node: PageNode,
  document: Document | undefined,
  pageFiles: Map<string, string>,
  filePaths: Map<string, string>,
  titleOfPage: (pageId: string) => string | undefined = () => undefined,
): string {
  const file = pageFiles.get(node.entry.id) as string;
  const dir = posix.dirname(file) === '.' ? '' : posix.dirname(file);
  const rel = (to: string) => encodeURI(posix.relative(dir, to));
  const doc = document
    ? mapRefs(labelMentions(document, titleOfPage), (ref, holder) => {
        if (('space' in ref && ref.space) || (ref.kind !== 'page' && ref.kind !== 'anchor' && ref.kind !== 'file')) return ref;
        if (ref.kind === 'file') {
          const target = filePaths.get(ref.file);
          if (!target) return ref;
          return holder === 'file' ? { kind: 'file', file: rel(target) } : { kind: 'url', url: rel(target) };
        }
        if (!ref.page) return ref;
        const anchor = ref.kind === 'anchor' ? `#${ref.anchor}` : '';
        if (ref.page === node.entry.id && anchor) return { kind: 'url', url: anchor };
        const target = pageFiles.get(ref.page);
        return target ? { kind: 'url', url: rel(target) + anchor } : ref;
      })
    : { object: 'document' as const, data: {}, nodes: [] };
  const cover = (ref: NonNullable<NonNullable<PageEntry['cover']>['ref']>) => (ref.kind === 'url' ? ref.url : filePaths.has(ref.file) ? rel(filePaths.get(ref.file)!) : undefined);
  return frontMatterOf(node.entry, cover) + writePageMarkdown(doc as Document, node.entry.title);
}
