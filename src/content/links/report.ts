/*
 * Every link of a revision, classified (docs/decisions/links-and-search.md). Computed once
 * per revision (revisions never change) and kept in derivedCache. What depends on other
 * spaces (whether a space a link points at still exists) is not part of it: the caller
 * resolves those `foreign` links per request.
 */
import type { Db } from '../../db/database.ts';
import { documentAnchors, extractLinks, type ContentRef, type Document } from '../markdown/index.ts';
import { derivedCache, loadDocuments, loadSnapshot } from '../store/snapshot.ts';
import type { RevisionSnapshot } from '../store/types.ts';

export type LocalStatus = 'ok' | 'broken' | 'in-app' | 'foreign';

/** One link found in a page. */
export interface LinkOccurrence {
  /** The page the link is in. */
  pageId: string;
  /** Key of the node making the link. */
  node?: string;
  ref: ContentRef;
  /** Identity of what the link points at: occurrences with the same key are one target. */
  targetKey: string;
  status: LocalStatus;
  /** For `foreign`: the other space that must exist. */
  foreignSpace?: string;
  /** A page of this revision the link points at (page and anchor links that resolve). */
  targetPage?: string;
  /** A file of this revision the link points at. */
  targetFile?: string;
}

export interface RevisionLinks {
  revisionId: string;
  spaceId: string;
  /** In page tree order, then document order. */
  occurrences: LinkOccurrence[];
  byPage: Map<string, LinkOccurrence[]>;
  /** Occurrences pointing at each page (backlinks). */
  toPage: Map<string, LinkOccurrence[]>;
  /** Occurrences pointing at each file (backlinks). */
  toFile: Map<string, LinkOccurrence[]>;
}

/** The in-app URL prefix: links into Quire's own app (PUBLIC_URL/app/...). */
export const inAppPrefix = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/app/`;

function keyOf(ref: ContentRef, fromPage: string, spaceId: string): string {
  switch (ref.kind) {
    case 'page':
      return `page:${ref.space ?? spaceId}:${ref.page}`;
    case 'anchor':
      return `anchor:${ref.space ?? spaceId}:${ref.page ?? fromPage}#${ref.anchor}`;
    case 'file':
      return `file:${ref.space ?? spaceId}:${ref.file}`;
    case 'url':
      return `url:${ref.url}`;
    case 'space':
      return `space:${ref.space}`;
    case 'collection':
      return `collection:${ref.collection}`;
    case 'user':
      return `user:${ref.user}`;
    case 'openapi':
      return `openapi:${ref.spec}`;
    case 'reusable-content':
      return `reusable-content:${ref.space ?? spaceId}:${ref.reusableContent}`;
    case 'tag':
      return `tag:${ref.space ?? spaceId}:${ref.tag}`;
  }
}

/** Builds the link report of a revision from its snapshot and documents. */
export function classifyLinks(
  snapshot: RevisionSnapshot,
  documents: Map<string, Document>,
  publicUrl: string,
): RevisionLinks {
  const spaceId = snapshot.revision.spaceId;
  const inApp = inAppPrefix(publicUrl);
  const reusables = new Set(snapshot.reusables.map((r) => r.id));
  const anchorsCache = new Map<string, Set<string>>();
  const anchorsOf = (pageId: string): Set<string> => {
    let anchors = anchorsCache.get(pageId);
    if (!anchors) {
      const hash = snapshot.byId.get(pageId)?.entry.document;
      const document = hash ? documents.get(hash) : undefined;
      anchors = new Set(document ? documentAnchors(document).values() : []);
      anchorsCache.set(pageId, anchors);
    }
    return anchors;
  };
  /** A page of this revision by id, or by its path (markdown keeps unresolved slug paths as they are). */
  const pageOf = (page: string) => snapshot.byId.get(page) ?? snapshot.byPath.get(page.replace(/^\/+|\/+$/g, ''));

  const occurrences: LinkOccurrence[] = [];
  const visit = (pageId: string, document: Document) => {
    for (const link of extractLinks(document)) {
      const ref = link.ref;
      const occurrence: LinkOccurrence = { pageId, ...(link.key ? { node: link.key } : {}), ref, targetKey: keyOf(ref, pageId, spaceId), status: 'ok' };
      const elsewhere = 'space' in ref && ref.space !== undefined && ref.space !== spaceId && ref.kind !== 'space';
      if (ref.kind === 'space') {
        if (ref.space !== spaceId) {
          occurrence.status = 'foreign';
          occurrence.foreignSpace = ref.space;
        }
      } else if (elsewhere) {
        // A page, file or anchor of another space: its content is not this revision's.
        occurrence.status = 'foreign';
        occurrence.foreignSpace = (ref as { space: string }).space;
      } else if (ref.kind === 'page') {
        const target = pageOf(ref.page);
        if (target) occurrence.targetPage = target.entry.id;
        else occurrence.status = 'broken';
      } else if (ref.kind === 'anchor') {
        const target = pageOf(ref.page ?? pageId);
        if (target) occurrence.targetPage = target.entry.id;
        if (!target || !anchorsOf(target.entry.id).has(ref.anchor)) occurrence.status = 'broken';
      } else if (ref.kind === 'file') {
        if (snapshot.filesById.has(ref.file)) occurrence.targetFile = ref.file;
        else occurrence.status = 'broken';
      } else if (ref.kind === 'reusable-content') {
        if (!reusables.has(ref.reusableContent)) occurrence.status = 'broken';
      } else if (ref.kind === 'url') {
        if (ref.url.startsWith(inApp)) occurrence.status = 'in-app';
        // GitBook's marker for a link whose page was deleted, and relative paths (`../a.md`,
        // `.gitbook/assets/x.png`) that resolved to no page or file when they were written.
        else if (isDeadUrl(ref.url)) occurrence.status = 'broken';
      }
      occurrences.push(occurrence);
    }
  };
  const stack = [...snapshot.pages].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    const document = node.entry.document ? documents.get(node.entry.document) : undefined;
    if (document) visit(node.entry.id, document);
    // Link pages link too: their target is a reference like any other.
    if (node.entry.type === 'link' && node.entry.target) visit(node.entry.id, { object: 'document', data: {}, nodes: [linkBlock(node.entry.target)] } as Document);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }

  const byPage = new Map<string, LinkOccurrence[]>();
  const toPage = new Map<string, LinkOccurrence[]>();
  const toFile = new Map<string, LinkOccurrence[]>();
  const push = (map: Map<string, LinkOccurrence[]>, key: string, o: LinkOccurrence) => {
    const list = map.get(key);
    if (list) list.push(o);
    else map.set(key, [o]);
  };
  for (const o of occurrences) {
    push(byPage, o.pageId, o);
    if (o.targetPage) push(toPage, o.targetPage, o);
    if (o.targetFile) push(toFile, o.targetFile, o);
  }
  return { revisionId: snapshot.revision.id, spaceId, occurrences, byPage, toPage, toFile };
}

/** A URL no reader can follow: GitBook's `/broken/pages/…` and relative paths left unresolved. */
export function isDeadUrl(url: string): boolean {
  if (/^\/broken\//.test(url)) return true;
  return url !== '' && !/^(?:[a-z][a-z0-9+.-]*:|\/|#|\?)/i.test(url);
}

/** A paragraph holding one link to `ref`: how a link page's target is read as a link. */
function linkBlock(ref: ContentRef) {
  return {
    object: 'block',
    type: 'paragraph',
    data: {},
    nodes: [{ object: 'inline', type: 'link', isVoid: false, data: { ref }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }] }],
  };
}

/** The link report of a revision: computed once (documents loaded in a few queries), then kept. */
export async function loadRevisionLinks(db: Db, spaceId: string, revisionId: string, publicUrl: string): Promise<RevisionLinks> {
  const key = `links\u0000${publicUrl}\u0000${spaceId}\u0000${revisionId}`;
  const cached = derivedCache.get(key) as RevisionLinks | undefined;
  if (cached) return cached;
  const snapshot = await loadSnapshot(db, spaceId, revisionId);
  const hashes: string[] = [];
  for (const node of snapshot.byId.values()) if (node.entry.document) hashes.push(node.entry.document);
  const documents = await loadDocuments<Document>(db, spaceId, hashes);
  const report = classifyLinks(snapshot, documents, publicUrl);
  derivedCache.set(key, report);
  return report;
}
