import slugify from '@sindresorhus/slugify';
import { imageSize } from 'image-size';
import type { Db } from '../../db/database.ts';
import { ContentNotFound, InvalidContentEdit } from '../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { markdownToDocument, type Document } from '../markdown/index.ts';
import type { PathNode, SpacePaths } from '../markdown/paths.ts';
import { entriesLayout, pathNode } from './layout.ts';
import { createHash } from 'node:crypto';
import type { FileStore } from '../../files/types.ts';
import { BLOB_AREA } from './blobs.ts';
import { LayeredMap } from './layered-map.ts';
import { loadDocuments, loadTrees, rememberTrees, revisionRecord } from './snapshot.ts';
import { objectHash, storeRepository, type ObjectKind } from './store.repository.ts';
import type { FileEntry, PageEntry, PageMeta, RevisionTrees, Variables } from './types.ts';

/** A page to insert, with its subpages. */
export interface NewPage extends Partial<PageMeta> {
  id?: string;
  title: string;
  type?: PageEntry['type'];
  markdown?: string;
  document?: Document;
  pages?: NewPage[];
  /** Kept when a page is re-created as it was (git import); default: now. */
  createdAt?: string;
  updatedAt?: string;
}

/** Changes to a page; unset fields stay as they are, `null` clears optional ones. */
export interface PagePatch {
  title?: string;
  slug?: string;
  emoji?: string | null;
  icon?: string | null;
  description?: string | null;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: PageMeta['layout'] | null;
  cover?: PageMeta['cover'] | null;
  variables?: Variables | null;
  markdown?: string;
  document?: Document | null;
  /** Where the page's file is in git (git sync). */
  git?: PageMeta['git'] | null;
  computed?: PageMeta['computed'] | null;
}

export interface NewFile {
  id?: string;
  name: string;
  contentType: string;
  bytes: Buffer;
  /** Where the file is in git (git sync). */
  git?: { oid: string; path: string };
  /** The bytes as already put in the file store (before the transaction); else they are stored at commit. */
  stored?: { hash: string; size: number };
}

/** Where a page goes: under `parent` (null: top level) at `index` (default: last). */
export interface Placement {
  parent?: string | null;
  index?: number;
}

const ROOT = '';
const key = (parent: string | null | undefined) => parent ?? ROOT;

/** A slug from a title: lower-case words joined by dashes (`page` when nothing is left). */
export function slugFromTitle(title: string): string {
  // GitBook's page slugs keep camel case whole ("GitBook Agent" -> gitbook-agent).
  return slugify(title, { decamelize: false }).slice(0, 100).replace(/-+$/, '') || 'page';
}

/**
 * Builds the next revision of a space from a base revision. Edits copy only the child
 * lists they touch (copy on write); commit writes the new documents and the tree nodes
 * from each changed list up to the root, so an edit costs O(depth × siblings), never
 * O(pages). Everything else is shared with the base by hash.
 */
export class RevisionEditor {
  private readonly lists = new Map<string, PageEntry[]>();
  private readonly parents = new Map<string, string>();
  private readonly dirty = new Set<string>();
  private readonly removed = new Set<string>();
  private readonly objects: { hash: string; kind: ObjectKind; body: string }[] = [];
  private readonly blobs: { hash: string; size: number }[] = [];
  /** Bytes of added files to put in the file store at commit (not stored by the caller beforehand). */
  private readonly unstored = new Map<string, Buffer>();
  private files: FileEntry[] | undefined;
  private variables: Variables | undefined;
  private readonly now: string;

  private constructor(
    private readonly spaceId: string,
    private readonly base: RevisionTrees | null,
    clock: Clock,
    private readonly fileStore: FileStore,
  ) {
    this.now = clock.now().toISOString();
  }

  /** An editor on `baseRevisionId` (null: an empty space). */
  static async open(db: Db, spaceId: string, baseRevisionId: string | null, clock: Clock, files: FileStore): Promise<RevisionEditor> {
    const base = baseRevisionId ? await loadTrees(db, spaceId, baseRevisionId) : null;
    return new RevisionEditor(spaceId, base, clock, files);
  }

  get baseRevisionId(): string | null {
    return this.base?.revision.id ?? null;
  }

  /** True when the edits so far change nothing. */
  get unchanged(): boolean {
    return this.dirty.size === 0 && this.files === undefined && this.variables === undefined;
  }

  private list(parentKey: string): PageEntry[] {
    let list = this.lists.get(parentKey);
    if (!list) {
      list = [...(this.base?.trees.get(parentKey)?.entries ?? [])];
      this.lists.set(parentKey, list);
    }
    return list;
  }

  /**
   * The parent key ('' for the top level) of a page that exists in the edited revision,
   * undefined when it does not (never existed, removed, or under a removed page).
   */
  private parentKey(pageId: string): string | undefined {
    if (this.removed.has(pageId)) return undefined;
    const parent = this.parents.get(pageId) ?? this.base?.parentOf.get(pageId);
    if (parent === undefined) return undefined;
    if (parent !== ROOT && this.parentKey(parent) === undefined) return undefined;
    return parent;
  }

  /** The page's current entry, or 404. */
  page(pageId: string): PageEntry {
    const parent = this.parentKey(pageId);
    const entry = parent === undefined ? undefined : this.list(parent).find((e) => e.id === pageId);
    if (!entry) throw new ContentNotFound(`Page "${pageId}"`);
    return entry;
  }

  hasPage(pageId: string): boolean {
    const parent = this.parentKey(pageId);
    return parent !== undefined && this.list(parent).some((e) => e.id === pageId);
  }

  /** The parent of a page in the edited revision (null: top level); 404 when it is not there. */
  parentOf(pageId: string): string | null {
    const parent = this.parentKey(pageId);
    if (parent === undefined) throw new ContentNotFound(`Page "${pageId}"`);
    return parent === ROOT ? null : parent;
  }

  /**
   * The current documents of these pages (pages without one are left out), including
   * documents written by this editor and not yet committed.
   */
  async documents(db: Db, pageIds: string[]): Promise<Map<string, Document>> {
    const hashes = new Map<string, string>();
    for (const id of pageIds) {
      if (!this.hasPage(id)) continue;
      const hash = this.page(id).document;
      if (hash) hashes.set(id, hash);
    }
    const pending = new Map(this.objects.filter((o) => o.kind === 'document').map((o) => [o.hash, o.body]));
    const stored = await loadDocuments<Document>(db, this.spaceId, [...hashes.values()].filter((h) => !pending.has(h)));
    const result = new Map<string, Document>();
    for (const [id, hash] of hashes) {
      const body = pending.get(hash);
      result.set(id, body !== undefined ? (JSON.parse(body) as Document) : (stored.get(hash) as Document));
    }
    return result;
  }

  /** The children of a page (or the top level), in order. */
  childrenOf(parent: string | null): readonly PageEntry[] {
    return this.list(key(parent));
  }

  private replace(pageId: string, update: (entry: PageEntry) => PageEntry): void {
    const parent = this.parentKey(pageId);
    if (parent === undefined) throw new ContentNotFound(`Page "${pageId}"`);
    const list = this.list(parent);
    const index = list.findIndex((e) => e.id === pageId);
    if (index < 0) throw new ContentNotFound(`Page "${pageId}"`);
    list[index] = update(list[index]);
    this.dirty.add(parent);
  }

  private storeDocument(document: Document): string {
    const body = JSON.stringify(document);
    const hash = objectHash('document', body);
    this.objects.push({ hash, kind: 'document', body });
    return hash;
  }

  private uniqueSlug(list: PageEntry[], wanted: string, exceptId: string | null, explicit: boolean): string {
    const taken = new Set(list.filter((e) => e.id !== exceptId).map((e) => e.slug));
    if (!taken.has(wanted)) return wanted;
    if (explicit) throw new InvalidContentEdit(`slug "${wanted}" is already used by a sibling page`);
    for (let n = 2; ; n++) {
      const candidate = `${wanted}-${n}`;
      if (!taken.has(candidate)) return candidate;
    }
  }

  private checkIndex(list: PageEntry[], index: number | undefined): number {
    if (index === undefined) return list.length;
    if (!Number.isInteger(index) || index < 0 || index > list.length) {
      throw new InvalidContentEdit(`position ${index} is outside 0..${list.length}`);
    }
    return index;
  }

  /** Inserts a page (and its subpages); returns its id. */
  insertPage(page: NewPage, at: Placement = {}): string {
    const parent = key(at.parent);
    if (parent !== ROOT && !this.hasPage(parent)) throw new ContentNotFound(`Parent page "${parent}"`);
    const id = page.id ?? newId();
    if (this.hasPage(id)) throw new InvalidContentEdit(`page id "${id}" is already used`);
    const list = this.list(parent);
    const index = this.checkIndex(list, at.index);
    const type = page.type ?? 'document';
    const document = page.document ?? (page.markdown !== undefined ? markdownToDocument(page.markdown) : undefined);
    const entry: PageEntry = {
      id,
      type,
      title: page.title,
      slug: this.uniqueSlug(list, page.slug ?? slugFromTitle(page.title), null, page.slug !== undefined),
      ...pick(page),
      ...(page.computed && !page.computedSeed ? { computedSeed: id } : {}),
      ...(type === 'document' && document && document.nodes.length > 0 ? { document: this.storeDocument(document) } : {}),
      createdAt: page.createdAt ?? this.now,
      updatedAt: page.updatedAt ?? this.now,
    };
    list.splice(index, 0, entry);
    this.parents.set(id, parent);
    this.removed.delete(id);
    // Subpages given with the page are all it has: a page inserted again under a removed id
    // does not bring its old children back (without `pages`, they stay, as a replace needs).
    if (page.pages !== undefined) this.lists.set(id, []);
    this.dirty.add(parent);
    for (const child of page.pages ?? []) this.insertPage(child, { parent: id });
    return id;
  }

  /** Changes a page's metadata or content. */
  updatePage(pageId: string, patch: PagePatch): void {
    const current = this.page(pageId);
    const parent = this.parentKey(pageId)!;
    let document: string | undefined | null;
    if (patch.document !== undefined || patch.markdown !== undefined) {
      const doc = patch.document !== undefined ? patch.document : markdownToDocument(patch.markdown ?? '');
      document = doc && doc.nodes.length > 0 ? this.storeDocument(doc) : null;
    }
    let slug = current.slug;
    if (patch.slug !== undefined) slug = this.uniqueSlug(this.list(parent), patch.slug, pageId, true);
    else if (patch.title !== undefined && current.slug === slugFromTitle(current.title)) {
      // A slug that followed the title keeps following it.
      slug = this.uniqueSlug(this.list(parent), slugFromTitle(patch.title), pageId, false);
    }
    this.replace(pageId, (entry) => {
      const next: PageEntry = { ...entry, slug, updatedAt: this.now };
      if (patch.title !== undefined) next.title = patch.title;
      for (const field of ['emoji', 'icon', 'description', 'layout', 'cover', 'variables', 'git', 'computed'] as const) {
        const value = patch[field];
        if (value === null) delete next[field];
        else if (value !== undefined) (next as unknown as Record<string, unknown>)[field] = value;
      }
      for (const field of ['hidden', 'noIndex', 'noRobotsIndex'] as const) {
        if (patch[field] !== undefined) next[field] = patch[field];
      }
      if (document === null) delete next.document;
      else if (document !== undefined) next.document = document;
      if (patch.computed === null) delete next.computedSeed;
      else if (patch.computed !== undefined && !next.computedSeed) next.computedSeed = pageId;
      return next;
    });
  }

  /** Moves a page (with its subpages) under another parent and/or to another index. */
  movePage(pageId: string, to: Placement): void {
    const entry = this.page(pageId);
    const from = this.parentKey(pageId)!;
    const target = to.parent === undefined ? from : key(to.parent);
    if (target !== ROOT) {
      if (!this.hasPage(target)) throw new ContentNotFound(`Parent page "${target}"`);
      for (let up: string | undefined = target; up !== undefined && up !== ROOT; up = this.parentKey(up)) {
        if (up === pageId) throw new InvalidContentEdit('a page cannot be moved inside itself');
      }
    }
    // Everything is checked before the lists change: a refused move leaves the editor as it was.
    const source = this.list(from);
    const list = this.list(target);
    const index = this.checkIndex(target === from ? list.filter((e) => e.id !== pageId) : list, to.index);
    const moved = target === from ? entry : { ...entry, slug: this.uniqueSlug(list, entry.slug, pageId, false) };
    source.splice(source.indexOf(entry), 1);
    list.splice(index, 0, moved);
    this.parents.set(pageId, target);
    this.dirty.add(from);
    this.dirty.add(target);
  }

  /** Removes a page and its subpages. */
  deletePage(pageId: string): void {
    const from = this.parentKey(pageId);
    if (from === undefined) throw new ContentNotFound(`Page "${pageId}"`);
    const list = this.list(from);
    const index = list.findIndex((e) => e.id === pageId);
    if (index < 0) throw new ContentNotFound(`Page "${pageId}"`);
    list.splice(index, 1);
    this.removed.add(pageId);
    this.parents.delete(pageId);
    this.dirty.add(from);
  }

  /** Adds a file to the revision; its bytes go to the file store at commit unless `stored` says they are there. */
  addFile(file: NewFile): FileEntry {
    const { hash, size } = file.stored ?? { hash: createHash('sha256').update(file.bytes).digest('hex'), size: file.bytes.length };
    if (!file.stored) this.unstored.set(hash, file.bytes);
    const entry: FileEntry = { id: file.id ?? newId(), name: file.name, contentType: file.contentType, size, hash, ...(file.git ? { git: file.git } : {}) };
    if (file.contentType.startsWith('image/')) {
      try {
        const { width, height } = imageSize(file.bytes);
        if (width && height) entry.dimensions = { width, height };
      } catch {
        // Not an image it can read: no dimensions.
      }
    }
    this.files = [...(this.files ?? this.base?.files ?? []).filter((f) => f.id !== entry.id), entry];
    this.blobs.push({ hash, size });
    return entry;
  }

  /**
   * Adds (or replaces, by id) a file whose blob is already stored, e.g. one taken from
   * another revision by a merge; the space's reference to the blob is recorded at commit.
   */
  putFileEntry(entry: FileEntry): void {
    this.files = [...(this.files ?? this.base?.files ?? []).filter((f) => f.id !== entry.id), entry];
    this.blobs.push({ hash: entry.hash, size: entry.size });
  }

  /** The revision's files as edited so far. */
  fileEntries(): readonly FileEntry[] {
    return this.files ?? this.base?.files ?? [];
  }

  /**
   * Where each page and file sits in GitBook's layout (layout.ts), as edited so far: a walk of
   * every page. `redirects`: the space's stored `.gitbook.yaml` redirects (store.repository gitRedirects).
   */
  spacePaths(redirects?: Readonly<Record<string, string>>): SpacePaths {
    const tree = (parent: string | null): PathNode[] => this.childrenOf(parent).map((entry) => pathNode(entry, tree(entry.id)));
    return entriesLayout(tree(null), this.fileEntries(), redirects);
  }

  removeFile(fileId: string): void {
    const files = this.files ?? this.base?.files ?? [];
    if (!files.some((f) => f.id === fileId)) throw new ContentNotFound(`File "${fileId}"`);
    this.files = files.filter((f) => f.id !== fileId);
  }

  setVariables(variables: Variables): void {
    this.variables = variables;
  }

  private depthOf(parentKey: string): number {
    let depth = 0;
    for (let up: string | undefined = parentKey; up !== undefined && up !== ROOT; up = this.parentKey(up)) depth++;
    return depth;
  }

  /**
   * Writes the new revision: new documents, the changed lists and every list above them
   * up to the root, deepest first so each parent entry gets its child's new hash.
   */
  async commit(db: Db, options: { createdBy: string | null; parents?: string[]; type?: string; mergedFrom?: string; git?: Record<string, unknown> }): Promise<string> {
    const touched = new Set<string>();
    for (const parent of this.dirty) {
      // A list that changed and whose page was then removed is gone with it.
      if (parent !== ROOT && this.parentKey(parent) === undefined) continue;
      for (let up: string | undefined = parent; up !== undefined; up = up === ROOT ? undefined : this.parentKey(up)) {
        if (touched.has(up)) break;
        touched.add(up);
      }
    }
    const order = [...touched].sort((a, b) => this.depthOf(b) - this.depthOf(a));
    let treeHash = this.base?.revision.treeHash;
    for (const parent of order) {
      const list = this.list(parent);
      const body = JSON.stringify(list);
      const hash = objectHash('tree', body);
      this.objects.push({ hash, kind: 'tree', body });
      if (parent === ROOT) {
        treeHash = hash;
        continue;
      }
      const above = this.list(this.parentKey(parent)!);
      const index = above.findIndex((e) => e.id === parent);
      const { children: _old, ...rest } = above[index];
      above[index] = list.length > 0 ? { ...rest, children: hash } : rest;
    }
    if (treeHash === undefined) treeHash = this.put('tree', []);
    const filesHash = this.files || !this.base ? this.put('files', this.files ?? []) : this.base.revision.filesHash;
    const reusablesHash = this.base ? this.base.revision.reusablesHash : this.put('reusables', []);

    // The file store is not part of the transaction: bytes are durable before the rows naming them.
    for (const bytes of this.unstored.values()) await this.fileStore.put(BLOB_AREA, bytes);
    await storeRepository.putObjects(db, this.spaceId, this.objects);
    for (const blob of this.blobs) await storeRepository.addBlobReference(db, this.spaceId, blob.hash, blob.size);
    const row = {
      id: newId(),
      space_id: this.spaceId,
      parents: JSON.stringify(options.parents ?? (this.base ? [this.base.revision.id] : [])),
      type: options.type ?? 'edits',
      tree_hash: treeHash,
      files_hash: filesHash,
      reusables_hash: reusablesHash,
      variables: JSON.stringify(this.variables ?? this.base?.revision.variables ?? {}),
      git: options.git ? JSON.stringify(options.git) : null,
      merged_from: options.mergedFrom ?? null,
      created_by: options.createdBy,
      created_at: this.now,
    };
    await storeRepository.insertRevision(db, row);
    rememberTrees(this.nextTrees(revisionRecord(row), treeHash));
    return row.id;
  }

  /**
   * The new revision's trees, derived from the base's by patching copies of its maps: the
   * next edit of the space starts from them without reading the revision back. (Should
   * the transaction roll back, the entry is only an unused cache entry.)
   */
  private nextTrees(revision: ReturnType<typeof revisionRecord>, treeHash: string): RevisionTrees {
    const trees = this.base ? this.base.trees.derive() : new LayeredMap<{ hash: string; entries: PageEntry[] }>();
    const parentOf = this.base ? this.base.parentOf.derive() : new LayeredMap<string>();
    const drop = (pageId: string) => {
      const stack = [pageId];
      while (stack.length > 0) {
        const id = stack.pop() as string;
        parentOf.delete(id);
        const children = this.lists.get(id) ?? trees.get(id)?.entries ?? [];
        trees.delete(id);
        stack.push(...children.map((e) => e.id));
      }
    };
    for (const id of this.removed) drop(id);
    for (const [parent, list] of this.lists) {
      if (parent !== ROOT && this.parentKey(parent) === undefined) continue;
      const hash = parent === ROOT ? treeHash : this.list(this.parentKey(parent)!).find((e) => e.id === parent)?.children;
      if (list.length === 0 || hash === undefined) trees.delete(parent);
      else trees.set(parent, { hash, entries: list });
      for (const entry of list) parentOf.set(entry.id, parent);
    }
    if (!trees.has(ROOT)) trees.set(ROOT, { hash: treeHash, entries: [] });
    return {
      revision,
      trees,
      parentOf,
      files: this.files ?? this.base?.files ?? [],
      reusables: this.base?.reusables ?? [],
    };
  }

  private put(kind: ObjectKind, value: unknown): string {
    const body = JSON.stringify(value);
    const hash = objectHash(kind, body);
    this.objects.push({ hash, kind, body });
    return hash;
  }
}

/** The optional metadata of a new page, without undefined values. */
function pick(page: NewPage): Partial<PageMeta> {
  const meta: Partial<PageMeta> = {};
  for (const field of ['emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'layout', 'cover', 'variables', 'target', 'git', 'computed', 'computedSeed'] as const) {
    if (page[field] !== undefined) (meta as Record<string, unknown>)[field] = page[field];
  }
  return meta;
}
