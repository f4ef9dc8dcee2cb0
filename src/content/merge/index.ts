/*
 * Three-way merge of revisions by page id (DESIGN.md, docs/decisions/merge.md): `base` is
 * the revision both sides started from, `ours` the revision merged into, `theirs` the one
 * merged in. The result is an editor opened on `ours` with every change `theirs` made since
 * `base` applied; nothing is written until the caller commits it. What cannot be merged is
 * reported as conflicts (every one of them), and then the editor is dropped.
 */
import type { FileStore } from '../../files/types.ts';
import type { Db } from '../../db/database.ts';
import { ContentNotFound, InvalidContentEdit } from '../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { documentToMarkdown, markdownToDocument, type Document } from '../markdown/index.ts';
import { RevisionEditor, type PagePatch } from '../store/editor.ts';
import { loadDocuments, loadTrees } from '../store/snapshot.ts';
import type { FileEntry, PageEntry, RevisionTrees, Variables } from '../store/types.ts';
import { mergeText, reorderedItems } from './text.ts';
import { highestKey, stableKeys } from '../markdown/keys.ts';

export interface MergeConflict {
  /** The page in conflict; '' for a conflict on a file or a revision variable. */
  pageId: string;
  /** The page's title (ours, else theirs), or the file or variable name. */
  title: string;
  reason: 'content' | 'metadata' | 'deleted-and-modified' | 'structure';
  detail: string;
}

export type MergeOutcome =
  | { ok: true; editor: RevisionEditor; changed: boolean }
  | { ok: false; conflicts: MergeConflict[] };

/**
 * Applies to `ours` what `theirs` changed since `base`. The editor returned is opened on
 * `ours` and not committed (the caller commits it with parents [ours, theirs]).
 */
export async function threeWayMerge(
  db: Db,
  spaceId: string,
  revisions: { base: string; ours: string; theirs: string },
  clock: Clock,
  files: FileStore,
): Promise<MergeOutcome> {
  const editor = await RevisionEditor.open(db, spaceId, revisions.ours, clock, files);
  if (revisions.theirs === revisions.base || revisions.theirs === revisions.ours) return { ok: true, editor, changed: false };
  const base = await loadTrees(db, spaceId, revisions.base);
  const ours = await loadTrees(db, spaceId, revisions.ours);
  const theirs = await loadTrees(db, spaceId, revisions.theirs);
  const merge = new Merge(db, spaceId, base, ours, theirs, editor);
  await merge.run();
  if (merge.conflicts.size > 0) return { ok: false, conflicts: [...merge.conflicts.values()] };
  return { ok: true, editor, changed: !editor.unchanged };
}

const ROOT = '';


/** Metadata fields merged one by one (`type` and `target` cannot be patched: see replacePage). */
const FIELDS = ['title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'layout', 'cover', 'variables', 'target', 'type', 'computed'] as const;
type Field = (typeof FIELDS)[number];
const OPTIONAL = ['emoji', 'icon', 'description', 'layout', 'cover', 'variables', 'computed'] as const;
const FLAGS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;

/** A page where a revision has it. */
interface Located {
  entry: PageEntry;
  parent: string;
  list: PageEntry[];
}

/** A page in the three revisions (absent where it does not exist). */
interface Versions {
  id: string;
  b?: Located;
  o?: Located;
  t?: Located;
}

class Merge {
  readonly conflicts = new Map<string, MergeConflict>();
  private readonly reordered = new Map<string, Set<string>>();
  private documents = new Map<string, Document>();
  /** Pages theirs added and that were inserted. */
  private readonly inserted = new Set<string>();
  /** Pages theirs deleted that ours still has. */
  private readonly removedByTheirs = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly spaceId: string,
    private readonly base: RevisionTrees,
    private readonly ours: RevisionTrees,
    private readonly theirs: RevisionTrees,
    private readonly editor: RevisionEditor,
  ) {}

  async run(): Promise<void> {
    const pages = [...changedPages(this.base, this.theirs)].map((id) => ({
      id,
      b: locate(this.base, id),
      o: locate(this.ours, id),
      t: locate(this.theirs, id),
    }));
    await this.loadDocuments(pages);
    // Theirs' pages in theirs' tree order (parents before children, previous siblings
    // before next ones), so each is placed after what precedes it there.
    const present = pages.filter((p) => p.t).sort((x, y) => compareOrder(this.treeOrder(x.id), this.treeOrder(y.id)));
    const removed = pages.filter((p) => p.b && !p.t && p.o);
    for (const page of removed) this.removedByTheirs.add(page.id);
    for (const page of present) this.place(page);
    this.deleteRemoved(removed);
    for (const page of pages) {
      if (page.b && page.t && !page.o && modified(page.b, page.t)) {
        this.conflict(page, 'deleted-and-modified', 'deleted in ours, modified in theirs');
      }
    }
    for (const page of present) if (page.o || this.inserted.has(page.id)) await this.mergeFields(page);
    this.mergeFiles();
    this.mergeVariables();
  }

  /** Loads the documents the merge may need, in a few queries. */
  private async loadDocuments(pages: Versions[]): Promise<void> {
    const hashes: (string | undefined)[] = [];
    for (const { b, o, t } of pages) {
      const [db, dO, dt] = [b?.entry.document, o?.entry.document, t?.entry.document];
      if (!t || dt === db) continue;
      hashes.push(dt);
      if (o && dO !== db && dO !== dt) hashes.push(db, dO);
    }
    this.documents = await loadDocuments<Document>(this.db, this.spaceId, hashes.filter((h): h is string => h !== undefined));
  }

  private async documentOf(hash: string | undefined): Promise<Document | undefined> {
    if (!hash) return undefined;
    const known = this.documents.get(hash);
    if (known) return known;
    const found = (await loadDocuments<Document>(this.db, this.spaceId, [hash])).get(hash);
    if (found) this.documents.set(hash, found);
    return found;
  }

  private conflict(page: Versions | { id: string; title: string }, reason: MergeConflict['reason'], detail: string): void {
    const title = 'title' in page ? page.title : (page.o ?? page.t ?? page.b)!.entry.title;
    const key = `${page.id}\n${reason}\n${title}`;
    const known = this.conflicts.get(key);
    if (known) known.detail = `${known.detail}; ${detail}`;
    else this.conflicts.set(key, { pageId: page.id, title, reason, detail });
  }

  /** Runs an editor operation; what the editor refuses is a structure conflict. */
  private attempt(page: Versions, what: string, operation: () => void): boolean {
    try {
      operation();
      return true;
    } catch (error) {
      // What the editor refuses (a missing parent, a slug clash, a cycle); anything else is a bug.
      if (!(error instanceof InvalidContentEdit || error instanceof ContentNotFound)) throw error;
      this.conflict(page, 'structure', `${what}: ${error.message}`);
      return false;
    }
  }

  /** The indexes of the page and its ancestors in theirs, from the top. */
  private treeOrder(id: string): number[] {
    const path: number[] = [];
    for (let up: string | undefined = id; up !== undefined && up !== ROOT; ) {
      const parent: string = this.theirs.parentOf.get(up) ?? ROOT;
      path.unshift((this.theirs.trees.get(parent)?.entries ?? []).findIndex((e) => e.id === up));
      up = parent;
    }
    return path;
  }

  /** The pages of a list of `side` that left their place among the siblings they had in base. */
  private reorderedIn(side: 'o' | 't', parent: string): Set<string> {
    const key = `${side}\n${parent}`;
    let set = this.reordered.get(key);
    if (!set) {
      const trees = side === 'o' ? this.ours : this.theirs;
      const ids = (t: RevisionTrees) => (t.trees.get(parent)?.entries ?? []).map((e) => e.id);
      set = reorderedItems(ids(this.base), ids(trees));
      this.reordered.set(key, set);
    }
    return set;
  }

  /** How `side` moved a page it shares with base: to another parent, among its siblings, or not. */
  private moved(page: Versions, side: 'o' | 't'): 'parent' | 'order' | null {
    const here = page[side];
    if (!page.b || !here) return null;
    if (here.parent !== page.b.parent) return 'parent';
    return this.reorderedIn(side, here.parent).has(page.id) ? 'order' : null;
  }

  /** The index in the merged list of `parent` right after the nearest previous sibling the page has in theirs. */
  private indexAfterPrevious(id: string, parent: string): number {
    const wanted = this.theirs.trees.get(parent)?.entries ?? [];
    const list = this.editor.childrenOf(parent).filter((e) => e.id !== id);
    for (let i = wanted.findIndex((e) => e.id === id) - 1; i >= 0; i--) {
      const at = list.findIndex((e) => e.id === wanted[i].id);
      if (at >= 0) return at + 1;
    }
    return 0;
  }

  /** Says why a parent theirs has is not in the merge result. */
  private missingParent(id: string): string {
    const title = locate(this.theirs, id)?.entry.title ?? id;
    const why = locate(this.base, id) && !locate(this.ours, id) ? 'which ours deleted' : 'which the merge could not place';
    return `"${title}", ${why}`;
  }

  /** Inserts a page theirs added, or moves one theirs moved, to where theirs has it. */
  private place(page: Versions): void {
    const t = page.t!;
    if (!page.b && !page.o) {
      if (t.parent !== ROOT && !this.editor.hasPage(t.parent)) {
        this.conflict(page, 'structure', `added in theirs under ${this.missingParent(t.parent)}`);
        return;
      }
      const { id, type, title, slug, createdAt: _c, updatedAt: _u, document: _d, children: _ch, ...meta } = t.entry;
      // A provisional slug: a page theirs deleted may still hold the wanted one (set in mergeFields).
      const document = type === 'document' ? this.documents.get(t.entry.document ?? '') : undefined;
      const index = this.indexAfterPrevious(id, t.parent);
      const ok = this.attempt(page, 'adding it', () =>
        this.editor.insertPage({ id, type, title, slug: `${slug}-${id.toLowerCase()}`, ...meta, ...(document ? { document } : {}) }, { parent: t.parent, index }),
      );
      if (ok) this.inserted.add(id);
      return;
    }
    if (!page.o) return; // Deleted in ours: a conflict if theirs modified it (run()).
    if (!page.b) {
      // Added on both sides with the same id (an earlier merge): kept where ours has it.
      if (page.o.parent !== t.parent) this.conflict(page, 'structure', 'added on both sides under different parents');
      return;
    }
    const theirsMove = this.moved(page, 't');
    if (!theirsMove) return;
    const oursMove = this.moved(page, 'o');
    if (oursMove === 'parent') {
      // A move to another parent wins over a change of order; two moves must agree.
      if (theirsMove === 'parent' && page.o.parent !== t.parent) {
        this.conflict(page, 'structure', 'moved under different parents on both sides');
      }
      return;
    }
    if (oursMove === 'order' && theirsMove === 'order') return; // Both reordered: ours' order stays.
    if (t.parent !== ROOT && !this.editor.hasPage(t.parent)) {
      this.conflict(page, 'structure', `moved in theirs under ${this.missingParent(t.parent)}`);
      return;
    }
    const index = this.indexAfterPrevious(page.id, t.parent);
    this.attempt(page, 'moving it', () => this.editor.movePage(page.id, { parent: t.parent, index }));
  }

  /** Deletes what theirs deleted, unless ours modified it or put something under it that would go too. */
  private deleteRemoved(pages: Versions[]): void {
    const doomed: Versions[] = [];
    for (const page of pages) {
      if (modified(page.b!, page.o!)) this.conflict(page, 'deleted-and-modified', 'deleted in theirs, modified in ours');
      else doomed.push(page);
    }
    // Each page is checked for what sits under it down to the next page theirs deleted
    // (checked on its own); a page goes before its subpages (which go with it).
    const depth = (id: string) => {
      let n = 0;
      for (let up = this.base.parentOf.get(id); up !== undefined && up !== ROOT; up = this.base.parentOf.get(up)) n++;
      return n;
    };
    const unsafe = new Set<string>();
    for (const page of doomed) {
      const stack = [...this.editor.childrenOf(page.id)];
      while (stack.length > 0) {
        const child = stack.pop()!;
        if (this.removedByTheirs.has(child.id)) continue;
        if (!locate(this.base, child.id)) {
          this.conflict(page, 'deleted-and-modified', `deleted in theirs, but ours added the subpage "${child.title}"`);
          unsafe.add(page.id);
        } else if (locate(this.theirs, child.id)) {
          this.conflict(page, 'structure', `deleted in theirs, but its subpage "${child.title}" is kept by theirs elsewhere`);
          unsafe.add(page.id);
        }
        stack.push(...this.editor.childrenOf(child.id));
      }
    }
    doomed.sort((x, y) => depth(x.id) - depth(y.id));
    for (const page of doomed) {
      if (!unsafe.has(page.id) && this.editor.hasPage(page.id)) this.editor.deletePage(page.id);
    }
  }

  /** Merges a page's metadata and document, field by field, and applies what changes the result. */
  private async mergeFields(page: Versions): Promise<void> {
    if (!this.editor.hasPage(page.id)) return;
    const { b, o, t } = page;
    const current = this.editor.page(page.id);
    // Fields changed differently on both sides stay out of `merged` (and as ours has them).
    const merged = new Map<Field, unknown>();
    const clashes: string[] = [];
    for (const field of FIELDS) {
      const vb = b?.entry[field];
      const vo = o?.entry[field];
      const vt = t!.entry[field];
      const side = o ? threeWay(vb, vo, vt) : 'theirs';
      if (side === 'conflict') clashes.push(`${field} (ours ${show(vo)}, theirs ${show(vt)})`);
      else merged.set(field, side === 'ours' ? vo : vt);
    }
    if (clashes.length > 0) this.conflict(page, 'metadata', `changed differently on both sides: ${clashes.join(', ')}`);

    // The document: one side's change, or both merged line by line.
    let document: Document | null | undefined;
    const [db, dO, dt] = [b?.entry.document, o?.entry.document, t!.entry.document];
    let wanted: string | undefined = dO;
    if (!o || dO === db) wanted = dt;
    else if (dt !== db && dt !== dO) {
      const [mb, mo, mt] = await Promise.all([db, dO, dt].map(async (h) => markdownOf(await this.documentOf(h))));
      const text = mergeText(mb, mo, mt);
      if (!text.ok) {
        const where = text.hunks.map((h) => (h.baseLength > 1 ? `lines ${h.baseLine}-${h.baseLine + h.baseLength - 1}` : `line ${h.baseLine}`));
        this.conflict(page, 'content', `the same lines were changed differently on both sides (base markdown ${where.join(', ')})`);
      } else if (text.text !== mo) {
        // Blocks both sides kept keep the keys ours gave them; the others get new ones.
        const ours = await this.documentOf(dO);
        const theirs = await this.documentOf(dt);
        document = stableKeys(markdownToDocument(text.text), ours, highestKey(theirs));
      }
    }
    if (document === undefined && current.document !== wanted) document = (await this.documentOf(wanted)) ?? null;

    const patch: PagePatch = {};
    let replace = false;
    for (const [field, value] of merged) {
      if (same(current[field], value)) continue;
      if (field === 'type' || field === 'target') replace = true;
      else if (field === 'title' || field === 'slug') patch[field] = value as string;
      else if ((FLAGS as readonly string[]).includes(field)) (patch as Record<string, unknown>)[field] = value ?? false;
      else if ((OPTIONAL as readonly string[]).includes(field)) (patch as Record<string, unknown>)[field] = value ?? null;
    }
    // A title change moves a slug that follows the title: the merged slug is set explicitly.
    if (patch.title !== undefined && patch.slug === undefined) patch.slug = (merged.get('slug') as string | undefined) ?? current.slug;
    if (document !== undefined) patch.document = document;
    if (replace) await this.replacePage(page, merged, patch);
    else if (Object.keys(patch).length > 0) this.attempt(page, 'updating it', () => this.editor.updatePage(page.id, patch));
  }

  /**
   * Applies a change of `type` or `target` (which no patch carries) by putting the page
   * back, with the same id, where it is; only for a page without subpages.
   */
  private async replacePage(page: Versions, merged: Map<Field, unknown>, patch: PagePatch): Promise<void> {
    if (this.editor.childrenOf(page.id).length > 0) {
      this.conflict(page, 'metadata', 'its type or link target changed, which cannot be applied to a page with subpages');
      return;
    }
    const current = this.editor.page(page.id);
    const parent = [page.t!.parent, page.o?.parent ?? ROOT].find((p) => this.editor.childrenOf(p).some((e) => e.id === page.id));
    if (parent === undefined) {
      this.conflict(page, 'structure', 'its type or link target changed, but the page is not where either side has it');
      return;
    }
    const index = this.editor.childrenOf(parent).findIndex((e) => e.id === page.id);
    const { createdAt: _c, updatedAt: _u, children: _ch, document: hash, ...entry } = { ...current, ...(Object.fromEntries(merged) as Partial<PageEntry>) };
    const document = patch.document !== undefined ? patch.document : await this.documentOf(hash);
    this.editor.deletePage(page.id);
    const meta = Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined)) as typeof entry;
    this.attempt(page, 'replacing it', () => this.editor.insertPage({ ...meta, ...(document ? { document } : {}) }, { parent, index }));
  }

  /** The files list, three-way by file id. */
  private mergeFiles(): void {
    if (this.theirs.revision.filesHash === this.base.revision.filesHash) return;
    const byId = (files: FileEntry[]) => new Map(files.map((f) => [f.id, f]));
    const [fb, fo, ft] = [byId(this.base.files), byId(this.ours.files), byId(this.theirs.files)];
    const ids = new Set([...ft.keys(), ...fb.keys()]);
    for (const id of ids) {
      const [b, o, t] = [fb.get(id), fo.get(id), ft.get(id)];
      const side = threeWay(b, o, t);
      if (side === 'ours') continue;
      if (side === 'theirs') {
        if (t) this.editor.putFileEntry(t);
        else this.editor.removeFile(id);
        continue;
      }
      const name = (o ?? t ?? b)!.name;
      const reason = !o || !t ? 'deleted-and-modified' : 'metadata';
      const detail = !o ? 'deleted in ours, modified in theirs' : !t ? 'deleted in theirs, modified in ours' : 'changed differently on both sides';
      this.conflict({ id: '', title: name }, reason, `file "${name}" (${id}): ${detail}`);
    }
  }

  /** The revision's variables, three-way by name. */
  private mergeVariables(): void {
    const [vb, vo, vt] = [this.base.revision.variables, this.ours.revision.variables, this.theirs.revision.variables];
    if (same(vt, vb)) return;
    const result: Variables = { ...vo };
    let changed = false;
    for (const name of new Set([...Object.keys(vb), ...Object.keys(vt)])) {
      const [b, o, t] = [vb[name], vo[name], vt[name]];
      const side = threeWay(b, o, t);
      if (side === 'ours') continue;
      if (side === 'theirs') {
        if (t === undefined) delete result[name];
        else result[name] = t;
        changed = true;
        continue;
      }
      this.conflict({ id: '', title: name }, 'metadata', `variable "${name}": changed differently on both sides (ours ${show(o)}, theirs ${show(t)})`);
    }
    if (changed) this.editor.setVariables(result);
  }
}

/**
 * The pages whose entry, place or subpages differ between two revisions: child lists are
 * compared by hash from the top, and only lists that differ are read, so the cost follows
 * the size of the change, not of the space.
 */
export function changedPages(a: RevisionTrees, b: RevisionTrees): Set<string> {
  const pages = new Set<string>();
  const seen = new Set<string>();
  const stack = [ROOT];
  while (stack.length > 0) {
    const parent = stack.pop()!;
    if (seen.has(parent)) continue;
    seen.add(parent);
    const la = a.trees.get(parent);
    const lb = b.trees.get(parent);
    if (la?.hash === lb?.hash) continue;
    const inA = new Map((la?.entries ?? []).map((e) => [e.id, e]));
    const inB = new Set((lb?.entries ?? []).map((e) => e.id));
    // Only what differs: unchanged siblings of a changed page stay out, so a merge costs
    // what changed, not the size of the lists it passes through.
    const reordered = reorderedItems((la?.entries ?? []).map((e) => e.id), (lb?.entries ?? []).map((e) => e.id));
    for (const entry of lb?.entries ?? []) {
      const before = inA.get(entry.id);
      if (!before || reordered.has(entry.id) || entryChanged(before, entry)) pages.add(entry.id);
      if (!before || before.children !== entry.children) stack.push(entry.id);
    }
    for (const entry of la?.entries ?? []) {
      if (inB.has(entry.id)) continue;
      pages.add(entry.id);
      stack.push(entry.id);
    }
  }
  return pages;
}

/** True when a page's own entry differs (type, document or metadata; not its subpages). */
function entryChanged(a: PageEntry, b: PageEntry): boolean {
  // Revisions derived from one another share unchanged entries: the same object is unchanged.
  if (a === b) return false;
  return a.type !== b.type || a.document !== b.document || FIELDS.some((f) => !same(a[f], b[f]));
}

function locate(trees: RevisionTrees, id: string): Located | undefined {
  const parent = trees.parentOf.get(id);
  if (parent === undefined) return undefined;
  const list = trees.trees.get(parent)?.entries ?? [];
  const entry = list.find((e) => e.id === id);
  return entry ? { entry, parent, list } : undefined;
}

/** True when a page differs between two revisions in its metadata, document or parent (not its order). */
function modified(a: Located, b: Located): boolean {
  return a.parent !== b.parent || a.entry.document !== b.entry.document || FIELDS.some((f) => !same(a.entry[f], b.entry[f]));
}

function compareOrder(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function markdownOf(document: Document | undefined): string {
  return document ? documentToMarkdown(document) : '';
}

/**
 * The rule every merged value follows (a page's field, a file, a variable; live editing's
 * blocks, src/modules/collab/collab.merge.ts): what only one side changed since `base` is
 * that side's; the same change on both sides is no conflict; different changes on both sides
 * are a conflict. `undefined` is absence (added, or deleted), compared like any value.
 */
export function threeWay(base: unknown, ours: unknown, theirs: unknown): 'ours' | 'theirs' | 'conflict' {
  if (same(ours, theirs) || same(theirs, base)) return 'ours';
  if (same(ours, base)) return 'theirs';
  return 'conflict';
}

/** Deep equality of JSON values (object keys in any order; undefined equals only undefined). */
export function same(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

function show(value: unknown): string {
  return value === undefined ? 'unset' : JSON.stringify(value);
}
