import type { FileEntry, PageNode, RevisionSnapshot } from '../../content/store/types.ts';
import type { ChangeRequestResult } from '../change-requests/change-requests.model.ts';

/*
 * What the content service answers: the nodes of a revision with their computed bodies (the
 * expensive part, cached per revision) and files with their download URLs. The routes
 * present them (content.presenter.ts); a cached result is the same object on every read, so
 * the route presents and serializes it once (presentReused).
 */

/**
 * The body of a page: its document JSON or its markdown. GitBook's RevisionPageDocument
 * requires one on every document page, nested ones included.
 */
export type PageBody = { document: unknown } | { markdown: string };

/** The bodies of the document pages of a result, by page id. */
export type PageBodies = ReadonlyMap<string, PageBody>;

/** A page with its subpages, and the bodies of the document pages among them. */
export interface PageResult {
  spaceId: string;
  node: PageNode;
  bodies: PageBodies;
  /** Whether mutable git metadata is shown (metadata=false omits it). */
  metadata: boolean;
}

/** The page tree of a revision, with the bodies of its document pages. */
export interface PagesResult {
  spaceId: string;
  pages: readonly PageNode[];
  bodies: PageBodies;
  metadata: boolean;
}

/** A file of a revision, with its download URL. */
export interface FileResult {
  file: FileEntry;
  downloadURL: string;
  metadata: boolean;
}

/** A revision with its pages' bodies and its files. */
export interface RevisionResult {
  snapshot: RevisionSnapshot;
  files: FileResult[];
  bodies: PageBodies;
  metadata: boolean;
}

/** A revision read: the cached revision and, for a merge revision, the change request it merged as that is now. */
export interface RevisionRead {
  revision: RevisionResult;
  mergedFrom?: ChangeRequestResult;
}

/** The body of a result's own page (none for a group or a link). */
export function bodyOf(result: PageResult): PageBody | undefined {
  return result.bodies.get(result.node.entry.id);
}

/** What a batch of content changes did to one page. */
export type PageOutcome = { object: 'created_page'; ref?: string; id: string } | { object: 'updated_page'; id: string } | { object: 'deleted_page'; id: string };

/**
 * A batch of content changes applied to a change request: the change request as it now is
 * and, unless in compat mode (the change request alone is answered), what each page went
 * through and the files inserted.
 */
export interface ContentUpdate {
  changeRequest: ChangeRequestResult;
  changes?: { outcomes: PageOutcome[]; insertedFiles: FileResult[] };
}

/** A read page's own fields and body, for the callers that show it (the app area, live editing). */
export function pageOf(result: PageResult) {
  const e = result.node.entry;
  const body = bodyOf(result);
  return {
    id: e.id,
    title: e.title,
    type: e.type,
    ...(e.emoji ? { emoji: e.emoji } : {}),
    ...(e.description ? { description: e.description } : {}),
    ...(body && 'document' in body ? { document: body.document } : {}),
    ...(body && 'markdown' in body ? { markdown: body.markdown } : {}),
  };
}

/** A page tree's titles and kinds (a link's subpages are not shown). */
export interface PageOutline {
  id: string;
  title: string;
  type: PageNode['entry']['type'];
  pages: PageOutline[];
}

export function outlineOf(nodes: readonly PageNode[]): PageOutline[] {
  return nodes.map((n) => ({ id: n.entry.id, title: n.entry.title, type: n.entry.type, pages: n.entry.type === 'link' ? [] : outlineOf(n.children) }));
}
