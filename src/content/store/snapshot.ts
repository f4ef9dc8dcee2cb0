import type { Db } from '../../db/database.ts';
import type { RevisionsTable } from '../../db/types.ts';
import { ContentNotFound } from '../errors.ts';
import { LayeredMap } from './layered-map.ts';
import { storeRepository } from './store.repository.ts';
import type { FileEntry, PageEntry, PageNode, ReusableEntry, RevisionRecord, RevisionSnapshot, RevisionTrees } from './types.ts';

/**
 * Least-recently-used cache. Everything kept here is computed from immutable content
 * (revisions, objects addressed by hash), so an entry is never stale: the bound is for
 * memory only (a 10,000-page revision is a few MB). A hit only stamps the entry (moving
 * it within a Map on every hit churns the Map's table, which showed in profiles of page
 * reads); the least recently stamped entry goes when a new one arrives in a full cache.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; used: number }>();
  private clock = 0;
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    entry.used = ++this.clock;
    return entry.value;
  }
  set(key: string, value: V): void {
    if (!this.entries.has(key) && this.entries.size >= this.max) {
      let oldest: string | undefined;
      let oldestUse = Infinity;
      for (const [k, e] of this.entries) {
        if (e.used < oldestUse) {
          oldestUse = e.used;
          oldest = k;
        }
      }
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, used: ++this.clock });
  }
}

const treesCache = new LruCache<RevisionTrees>(64);
const snapshots = new LruCache<RevisionSnapshot>(32);
const documents = new LruCache<unknown>(4096);

/**
 * Values computed from immutable content (a rendered page, a revision's page tree), keyed
 * by what they were computed from (a revision id, a document hash): never stale.
 */
export const derivedCache = new LruCache<unknown>(4096);

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
    mergedFrom: row.merged_from,
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}

/** Joins a page's slug to its parent's path. */
export function childPath(parentPath: string, slug: string): string {
  return parentPath ? `${parentPath}/${slug}` : slug;
}

/** Keeps the trees of a revision just written (the editor derives them from its base). */
export function rememberTrees(trees: RevisionTrees): void {
  treesCache.set(`${trees.revision.spaceId}/${trees.revision.id}`, trees);
}

/**
 * A revision's child lists and page locations: read level by level (one query per depth
 * of the page tree) the first time, then kept by revision id.
 */
export async function loadTrees(db: Db, spaceId: string, revisionId: string): Promise<RevisionTrees> {
  const key = `${spaceId}/${revisionId}`;
  const cached = treesCache.get(key);
  if (cached) return cached;
  const row = await storeRepository.findRevision(db, spaceId, revisionId);
  if (!row) throw new ContentNotFound('Revision');
  const revision = revisionRecord(row);
  const first = await storeRepository.getObjects(db, spaceId, [revision.treeHash, revision.filesHash, revision.reusablesHash]);
  const read = <T>(hash: string, bodies: Map<string, string>): T => {
    const body = bodies.get(hash);
    if (body === undefined) throw new Error(`Revision ${revisionId} misses object ${hash}`);
    return JSON.parse(body) as T;
  };
  const trees = new LayeredMap<{ hash: string; entries: PageEntry[] }>();
  const parentOf = new LayeredMap<string>();
  let level = [{ parent: '', hash: revision.treeHash, entries: read<PageEntry[]>(revision.treeHash, first) }];
  while (level.length > 0) {
    const next: { parent: string; hash: string }[] = [];
    for (const { parent, hash, entries } of level) {
      trees.set(parent, { hash, entries });
      for (const entry of entries) {
        parentOf.set(entry.id, parent);
        if (entry.children) next.push({ parent: entry.id, hash: entry.children });
      }
    }
    if (next.length === 0) break;
    // Every tree of one depth in one query.
    const bodies = await storeRepository.getObjects(db, spaceId, next.map((n) => n.hash));
    level = next.map(({ parent, hash }) => ({ parent, hash, entries: read<PageEntry[]>(hash, bodies) }));
  }
  const result: RevisionTrees = {
    revision,
    trees,
    parentOf,
    files: read<FileEntry[]>(revision.filesHash, first),
    reusables: read<ReusableEntry[]>(revision.reusablesHash, first),
  };
  treesCache.set(key, result);
  return result;
}

/** A revision as reads need it: the page tree with paths, pages by id and by path. Kept by revision id. */
export async function loadSnapshot(db: Db, spaceId: string, revisionId: string): Promise<RevisionSnapshot> {
  const key = `${spaceId}/${revisionId}`;
  const cached = snapshots.get(key);
  if (cached) return cached;
  const trees = await loadTrees(db, spaceId, revisionId);
  const byId = new Map<string, PageNode>();
  const byPath = new Map<string, PageNode>();
  const build = (parent: PageNode | null, entries: PageEntry[]): PageNode[] =>
    entries.map((entry) => {
      const node: PageNode = {
        entry,
        parentId: parent ? parent.entry.id : null,
        path: childPath(parent ? parent.path : '', entry.slug),
        depth: parent ? parent.depth + 1 : 0,
        children: [],
      };
      byId.set(entry.id, node);
      if (!byPath.has(node.path)) byPath.set(node.path, node);
      node.children = build(node, trees.trees.get(entry.id)?.entries ?? []);
      return node;
    });
  const pages = build(null, trees.trees.get('')?.entries ?? []);
  const snapshot: RevisionSnapshot = { ...trees, pages, byId, byPath, filesById: new Map(trees.files.map((f) => [f.id, f])) };
  snapshots.set(key, snapshot);
  return snapshot;
}

/** A page's document by hash (content-addressed, so cached forever); undefined for none. */
export async function loadDocument<T = unknown>(db: Db, spaceId: string, hash: string | undefined): Promise<T | undefined> {
  if (!hash) return undefined;
  return (await loadDocuments<T>(db, spaceId, [hash])).get(hash);
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
