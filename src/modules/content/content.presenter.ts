import type { Config } from '../../config.ts';
import type { FileEntry, PageLayout, PageNode, RevisionSnapshot } from '../../content/store/types.ts';
import { apiUrl, appUrl } from '../../lib/urls.ts';
import { pageSignature } from '../../content/git-layout/write.ts';
import type { RevisionFileWire, RevisionPageWire, RevisionWire } from './content.schemas.ts';
import type { ContentUpdate, FileResult, PageBodies, PageResult, PagesResult, RevisionRead, RevisionResult } from './content.model.ts';
import type { Page } from '../../lib/pagination/index.ts';
import { presentReused } from '../../lib/reusable.ts';
import { presentChangeRequestResult } from '../change-requests/change-requests.presenter.ts';

/** GitBook's page layout with every option, defaults filled in. */
export const DEFAULT_LAYOUT: PageLayout = {
  width: 'default',
  cover: true,
  coverSize: 'full',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
};

export interface PresentOptions {
  /** Omit mutable git metadata (metadata=false). */
  metadata: boolean;
}

/** A page of a revision -> GitBook RevisionPage (document, group or link), children included. */
export function presentPage(
  config: Pick<Config, 'publicUrl'>,
  spaceId: string,
  node: PageNode,
  bodies: PageBodies,
  options: PresentOptions = { metadata: true },
): RevisionPageWire {
  const e = node.entry;
  const base = {
    id: e.id,
    title: e.title,
    ...(e.emoji ? { emoji: e.emoji } : {}),
    ...(e.icon ? { icon: e.icon } : {}),
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
  if (e.type === 'link') {
    return { ...base, kind: 'link', type: 'link', target: e.target ?? { kind: 'url', url: '' }, hidden: e.hidden ?? false } as RevisionPageWire;
  }
  const pages = node.children.map((child) => presentPage(config, spaceId, child, bodies, options));
  if (e.type === 'group') {
    return {
      ...base,
      kind: 'group',
      type: 'group',
      slug: e.slug,
      path: node.path,
      hidden: e.hidden ?? false,
      noIndex: e.noIndex ?? false,
      noRobotsIndex: e.noRobotsIndex ?? false,
      pages,
    } as RevisionPageWire;
  }
  return {
    ...base,
    kind: 'sheet',
    type: 'document',
    urls: { app: appUrl(config, `/s/${spaceId}/pages/${e.id}`) },
    slug: e.slug,
    path: node.path,
    ...(e.description ? { description: e.description } : {}),
    pages,
    layout: { ...DEFAULT_LAYOUT, ...e.layout },
    ...(e.cover ? { cover: e.cover } : {}),
    ...(e.variables ? { variables: e.variables } : {}),
    ...(e.computed ? { computed: e.computed, computedSeed: e.computedSeed ?? e.id } : {}),
    hidden: e.hidden ?? false,
    noIndex: e.noIndex ?? false,
    noRobotsIndex: e.noRobotsIndex ?? false,
    tags: [],
    ...(e.document ? { documentId: e.document } : {}),
    // A page edited since its file was read or written no longer matches that blob.
    ...(options.metadata && e.git && (!e.git.sig || e.git.sig === pageSignature(e)) ? { git: { oid: e.git.oid, path: e.git.path } } : {}),
    ...bodies.get(e.id),
  } as RevisionPageWire;
}

/** A file of a revision -> GitBook RevisionFile, with its download URL. */
export function presentFile(file: FileEntry, downloadURL: string, options: PresentOptions = { metadata: true }): RevisionFileWire {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL,
    size: file.size,
    ...(file.dimensions ? { dimensions: file.dimensions } : {}),
    ...(options.metadata && file.git ? { git: { oid: file.git.oid, path: file.git.path } } : {}),
  };
}

/** A revision -> GitBook Revision, with its page tree and files. */
export function presentRevision(
  config: Pick<Config, 'publicUrl'>,
  snapshot: RevisionSnapshot,
  files: RevisionFileWire[],
  bodies: PageBodies,
  options: PresentOptions,
): RevisionWire {
  const r = snapshot.revision;
  return {
    object: 'revision',
    id: r.id,
    parents: r.parents,
    pages: snapshot.pages.map((node) => presentPage(config, r.spaceId, node, bodies, options)),
    files,
    reusableContents: snapshot.reusables.map((c) => ({ id: c.id, title: c.title, ...(c.document ? { document: c.document } : {}) })),
    tags: [],
    variables: r.variables,
    createdAt: r.createdAt,
    ...(options.metadata && r.git ? { git: r.git } : {}),
    urls: { app: appUrl(config, `/s/${r.spaceId}/revisions/${r.id}`) },
    type: r.type,
  };
}

/** A page read (a page with its subpages and their bodies) -> GitBook RevisionPage. */
export function presentPageResult(config: Pick<Config, 'publicUrl'>, result: PageResult): RevisionPageWire {
  return presentPage(config, result.spaceId, result.node, result.bodies, { metadata: result.metadata });
}

/** The page tree of a revision -> { pages }. */
export function presentPagesResult(config: Pick<Config, 'publicUrl'>, result: PagesResult): { pages: RevisionPageWire[] } {
  return { pages: result.pages.map((node) => presentPage(config, result.spaceId, node, result.bodies, { metadata: result.metadata })) };
}

/** A file with its download URL -> GitBook RevisionFile. */
export function presentFileResult(result: FileResult): RevisionFileWire {
  return presentFile(result.file, result.downloadURL, { metadata: result.metadata });
}

/** A revision read -> GitBook Revision. */
export function presentRevisionResult(config: Pick<Config, 'publicUrl'>, result: RevisionResult): RevisionWire {
  return presentRevision(config, result.snapshot, result.files.map(presentFileResult), result.bodies, { metadata: result.metadata });
}

/** A page of files -> GitBook's list of RevisionFile. */
export function presentFilesPage(page: Page<FileResult>): Page<RevisionFileWire> {
  return { ...page, items: page.items.map(presentFileResult) };
}

/**
 * The presenters of content reads for one app, made once for its life (presentReused
 * remembers a presentation per presenter function): a cached read is presented once.
 */
export function contentPresenters(config: Pick<Config, 'publicUrl'>) {
  return {
    page: (result: PageResult) => presentPageResult(config, result),
    pages: (result: PagesResult) => presentPagesResult(config, result),
    revision: (result: RevisionResult) => presentRevisionResult(config, result),
  };
}

export type ContentPresenters = ReturnType<typeof contentPresenters>;

/** A revision read -> GitBook Revision: the cached revision presented once, a merged change request as it is now. */
export function presentRevisionRead(config: Pick<Config, 'publicUrl'>, present: ContentPresenters, read: RevisionRead): RevisionWire {
  const wire = presentReused(read.revision, present.revision) as RevisionWire;
  if (!read.mergedFrom) return wire;
  return { ...wire, mergedFrom: presentChangeRequestResult(config, read.mergedFrom) } as RevisionWire;
}

/** A batch of content changes -> the change request (compat) or GitBook's update result. */
export function presentContentUpdate(config: Pick<Config, 'publicUrl'>, update: ContentUpdate) {
  const changeRequest = presentChangeRequestResult(config, update.changeRequest);
  if (!update.changes) return changeRequest;
  const { space_id: spaceId, id } = update.changeRequest.changeRequest;
  const pageLocation = (page: string) => apiUrl(config, `/spaces/${spaceId}/change-requests/${id}/content/page/${page}`);
  return {
    changeRequest,
    changes: update.changes.outcomes.map((o) =>
      o.object === 'deleted_page'
        ? { object: o.object, page: o.id }
        : { object: o.object, ...('ref' in o && o.ref ? { ref: o.ref } : {}), page: { object: 'page' as const, id: o.id, urls: { location: pageLocation(o.id) } } },
    ),
    insertedFiles: update.changes.insertedFiles.map(presentFileResult),
  };
}
