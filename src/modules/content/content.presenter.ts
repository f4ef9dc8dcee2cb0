import type { Config } from '../../config.ts';
import type { FileEntry, PageLayout, PageNode, RevisionSnapshot } from '../../content/store/types.ts';
import { appUrl } from '../../lib/urls.ts';
import { pageSignature } from '../../content/git-layout/write.ts';
import type { RevisionFileWire, RevisionPageWire, RevisionWire } from './content.schemas.ts';

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

/**
 * The body of a page: its document JSON or its markdown. GitBook's RevisionPageDocument
 * requires one on every document page, nested ones included.
 */
export type PageBody = { document: unknown } | { markdown: string };

export interface PresentOptions {
  /** Omit mutable git metadata (metadata=false). */
  metadata: boolean;
}

/** A page of a revision -> GitBook RevisionPage (document, group or link), children included. */
export function presentPage(
  config: Pick<Config, 'publicUrl'>,
  spaceId: string,
  node: PageNode,
  bodyOf: (node: PageNode) => PageBody,
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
  const pages = node.children.map((child) => presentPage(config, spaceId, child, bodyOf, options));
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
    ...bodyOf(node),
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
  bodyOf: (node: PageNode) => PageBody,
  options: PresentOptions,
): RevisionWire {
  const r = snapshot.revision;
  return {
    object: 'revision',
    id: r.id,
    parents: r.parents,
    pages: snapshot.pages.map((node) => presentPage(config, r.spaceId, node, bodyOf, options)),
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
