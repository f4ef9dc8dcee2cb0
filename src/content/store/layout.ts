import { spacePaths, type PathNode, type SpacePaths } from '../markdown/paths.ts';
import type { FileEntry, PageEntry, PageNode, RevisionSnapshot } from './types.ts';

/*
 * Where a revision's pages and files sit in GitBook's layout (content/markdown/paths.ts): a
 * page or file git sync imported at its path in git, any other at the path its slugs give.
 * The one mapping from the store's entries to the layout, for reads (a snapshot) and edits
 * (the editor's entries as edited so far).
 */

/** A page entry as a node of the layout's tree. */
export function pathNode(entry: PageEntry, children: PathNode[]): PathNode {
  return { id: entry.id, slug: entry.slug, ...(entry.git?.path ? { file: entry.git.path, ...(entry.git.root ? { root: entry.git.root } : {}) } : {}), children };
}

/** The layout of these pages and files; `redirects` are the space's stored `.gitbook.yaml` redirects (store.repository gitRedirects). */
export function entriesLayout(tree: PathNode[], files: Iterable<FileEntry>, redirects?: Readonly<Record<string, string>>): SpacePaths {
  return spacePaths(tree, [...files].map((f) => ({ id: f.id, name: f.name, ...(f.git?.path ? { path: f.git.path } : {}) })), redirects);
}

/** The layout of a revision: a walk of every page, which callers keep per revision. */
export function snapshotLayout(snapshot: RevisionSnapshot, redirects?: Readonly<Record<string, string>>): SpacePaths {
  const tree = (nodes: readonly PageNode[]): PathNode[] => nodes.map((n) => pathNode(n.entry, tree(n.children)));
  return entriesLayout(tree(snapshot.pages), snapshot.files, redirects);
}
