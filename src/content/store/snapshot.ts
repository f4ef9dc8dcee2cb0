import type { Db } from '../../db/database.ts';
import type { RevisionsTable } from '../../db/types.ts';
import { notFound } from '../../errors.ts';
import { storeRepository } from './store.repository.ts';
import type { FileEntry, PageEntry, PageNode, ReusableEntry, RevisionRecord, RevisionSnapshot } from './types.ts';

/**
 * Least-recently-used cache of loaded revisions. Revisions never change, so an entry is
 * never stale: the bound is for memory only (a 10,000-page revision is a few MB).
 */
class LruCache<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, value);
  }
}

const snapshots = new LruCache<RevisionSnapshot>(64);
const documents = new LruCache<unknown>(4096);

export function revisionRecord(row: RevisionsTable): RevisionRecord {
  return {
    id: row.id,
    spaceId: row.space_id,
    parents: JSON.parse(row.parents) as string[],
    type: row.type,
    treeHash: row.tree_hash,
    filesHash: row.files_hash,
    reusablesHash: row.reusables_hash,
    variables: JSON.parse(row.variables),
    git: row.git ? JSON.parse(row.git) : null,
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}

/** Joins a page's slug to its parent's path. */
export function childPath(parentPath: string, slug: string): string {
  return parentPath ? `${parentPath}/${slug}` : slug;
}

/**
 * Loads a revision whole: its rows of tree objects level by level (one query per depth),
 * its files and reusable contents. Kept in memory by revision id afterwards.
 */
export async function loadSnapshot(db: Db, spaceId: string, revisionId: string): Promise<RevisionSnapshot> {
  const key = `${spaceId}/${revisionId}`;
  const cached = snapshots.get(key);
  if (cached) return cached;
  const row = await storeRepository.findRevision(db, spaceId, revisionId);
  if (!row) throw notFound('Revision');
  const revision = revisionRecord(row);
  const first = await storeRepository.getObjects(db, spaceId, [revision.treeHash, revision.filesHash, revision.reusablesHash]);
  const read = <T>(hash: string, bodies: Map<string, string>): T => {
    const body = bodies.get(hash);
    if (body === undefined) throw new Error(`Revision ${revisionId} misses object ${hash}`);
    return JSON.parse(body) as T;
  };

  const trees = new Map<string, { hash: string; entries: PageEntry[] }>();
  const byId = new Map<string, PageNode>();
  const byPath = new Map<string, PageNode>();
  const pages: PageNode[] = [];
  trees.set('', { hash: revision.treeHash, entries: read<PageEntry[]>(revision.treeHash, first) });

  // Breadth first: every tree of one depth in one query.
  let level: { parent: PageNode | null; hash: string; entries: PageEntry[] }[] = [
    { parent: null, hash: revision.treeHash, entries: trees.get('')!.entries },
  ];
  while (level.length > 0) {
    const nextLevel: { parent: PageNode; hash: string }[] = [];
    for (const { parent, entries } of level) {
      for (const entry of entries) {
        const node: PageNode = {
          entry,
          parentId: parent ? parent.entry.id : null,
          path: childPath(parent ? parent.path : '', entry.slug),
          depth: parent ? parent.depth + 1 : 0,
          children: [],
        };
        (parent ? parent.children : pages).push(node);
        byId.set(entry.id, node);
        if (!byPath.has(node.path)) byPath.set(node.path, node);
        if (entry.children) nextLevel.push({ parent: node, hash: entry.children });
      }
    }
    if (nextLevel.length === 0) break;
    const bodies = await storeRepository.getObjects(db, spaceId, nextLevel.map((n) => n.hash));
    level = nextLevel.map(({ parent, hash }) => {
      const entries = read<PageEntry[]>(hash, bodies);
      trees.set(parent.entry.id, { hash, entries });
      return { parent, hash, entries };
    });
  }

  const files = read<FileEntry[]>(revision.filesHash, first);
  const snapshot: RevisionSnapshot = {
    revision,
    pages,
    byId,
    byPath,
    trees,
    files,
    filesById: new Map(files.map((f) => [f.id, f])),
    reusables: read<ReusableEntry[]>(revision.reusablesHash, first),
  };
  snapshots.set(key, snapshot);
  return snapshot;
}

/** A page's document by hash (content-addressed, so cached forever); undefined for none. */
export async function loadDocument<T = unknown>(db: Db, spaceId: string, hash: string | undefined): Promise<T | undefined> {
  if (!hash) return undefined;
  const cached = documents.get(hash);
  if (cached !== undefined) return cached as T;
  const bodies = await storeRepository.getObjects(db, spaceId, [hash]);
  const body = bodies.get(hash);
  if (body === undefined) throw new Error(`Missing document ${hash} in space ${spaceId}`);
  const document = JSON.parse(body) as T;
  documents.set(hash, document);
  return document;
}

/** Many documents by hash, in a few queries; cached like loadDocument. */
export async function loadDocuments<T = unknown>(db: Db, spaceId: string, hashes: string[]): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  const missing: string[] = [];
  for (const hash of new Set(hashes)) {
    const cached = documents.get(hash);
    if (cached !== undefined) found.set(hash, cached as T);
    else missing.push(hash);
  }
  if (missing.length > 0) {
    const bodies = await storeRepository.getObjects(db, spaceId, missing);
    for (const hash of missing) {
      const body = bodies.get(hash);
      if (body === undefined) throw new Error(`Missing document ${hash} in space ${spaceId}`);
      const document = JSON.parse(body) as T;
      documents.set(hash, document);
      found.set(hash, document);
    }
  }
  return found;
}

/**
 * Values computed from immutable content (a rendered page, a revision's page tree), keyed
 * by what they were computed from (a revision id, a document hash): never stale.
 */
export const derivedCache = new LruCache<unknown>(4096);
