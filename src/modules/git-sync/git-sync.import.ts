import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { bindDocument, gitbookConfigPath, readGitLayout, type LayoutAsset, type LayoutPage } from '../../content/git-layout/read.ts';
import { pageSignature, planPaths, summaryOf } from '../../content/git-layout/write.ts';
import { RevisionEditor, type NewPage } from '../../content/store/editor.ts';
import { loadSnapshot } from '../../content/store/snapshot.ts';
import { objectHash, storeRepository } from '../../content/store/store.repository.ts';
import { BLOB_AREA } from '../../content/store/blobs.ts';
import type { FileEntry, PageNode, RevisionSnapshot } from '../../content/store/types.ts';
import { HeadMoved, retryingTransaction } from '../../db/retry.ts';
import type { JobContext } from '../../jobs/queue.ts';
import { isoNow } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import { detectRenames, listTree, objectSizes, readBlobs, runGit, streamBlob } from '../../lib/git/git.ts';
import { newId } from '../../lib/ids.ts';
import { changeRequestsRepository } from '../change-requests/change-requests.repository.ts';
import { spacesRepository } from '../spaces/spaces.repository.ts';
import type { GitOperation } from './git-sync.job-kinds.ts';
import { gitSyncRepository } from './git-sync.repository.ts';
import { fetchBranch, storedUrl, unsealRemote } from './git-sync.remote.ts';

/*
 * An import (POST {S}/git/import, run as a job): fetch the branch into the local cache,
 * read GitBook's layout (src/content/git-layout), and make it one new revision of the
 * space. Page ids are kept across imports: by file path, by git's rename detection
 * between the last imported commit and this one, groups by title, links by target.
 * When the space changed since the last sync and the repository changed too, the
 * revision goes to a new change request built on the last synced revision instead, so the
 * change-request merge reconciles both sides. Any failure leaves the space as it was and
 * is recorded in the run log.
 */

export interface RunOutcome {
  status: 'success' | 'failure' | 'skipped' | 'change-request' | 'unchanged';
  commit?: string;
  revisionId?: string;
  changeRequestId?: string;
  pagesChanged?: number;
  error?: string;
}

/** Records a run in the log; used by both directions. */
export async function recordRun(ctx: JobContext, op: GitOperation, startedAt: string, started: number, outcome: RunOutcome): Promise<void> {
  await gitSyncRepository.insertRun(ctx.db, {
    // Time-ordered ids: runs started in the same millisecond list in the order they ran.
    id: Date.now().toString(36).padStart(9, '0') + newId(11),
    space_id: op.spaceId,
    direction: op.direction,
    status: outcome.status,
    commit: outcome.commit ?? null,
    revision_id: outcome.revisionId ?? null,
    change_request_id: outcome.changeRequestId ?? null,
    pages_changed: outcome.pagesChanged ?? 0,
    duration_ms: Math.max(0, Date.now() - started),
    error: outcome.error ?? null,
    timestamp: op.timestamp ?? null,
    started_at: startedAt,
  });
}

/** Whether an operation is older than the last one applied (and not forced). */
export function isStale(op: GitOperation, lastTimestamp: string | null | undefined): boolean {
  return !op.force && !!op.timestamp && !!lastTimestamp && op.timestamp < lastTimestamp;
}

/** Runs one import; never throws for a failure of the import itself (it is recorded). */
export async function runImport(ctx: JobContext, op: GitOperation): Promise<RunOutcome> {
  const started = Date.now();
  const startedAt = isoNow(ctx.clock);
  let outcome: RunOutcome;
  try {
    outcome = await importOnce(ctx, op);
  } catch (error) {
    outcome = { status: 'failure', error: error instanceof Error ? error.message : String(error) };
    ctx.log.warn({ spaceId: op.spaceId, error: outcome.error }, 'git import failed');
  }
  await recordRun(ctx, op, startedAt, started, outcome);
  return outcome;
}

async function importOnce(ctx: JobContext, op: GitOperation): Promise<RunOutcome> {
  const sync = await gitSyncRepository.find(ctx.db, op.spaceId);
  if (isStale(op, sync?.last_timestamp)) return { status: 'skipped', error: `older than the last operation applied (${sync?.last_timestamp})` };
  const url = await unsealRemote(ctx.db, op.remote, op.sealed);
  const fetched = await fetchBranch(ctx.config, ctx.db, { spaceId: op.spaceId, url, ref: op.ref, repoCacheID: op.repoCacheID, localRef: `refs/quire/${op.spaceId}/import`, signal: ctx.signal });
  if (!fetched.commit) throw new Error(`the branch ${op.ref} does not exist in the repository`);
  const { dir, commit } = fetched;
  const now = isoNow(ctx.clock);
  const syncRow = {
    space_id: op.spaceId,
    remote: storedUrl(op.remote),
    ref: op.ref,
    repo_cache_id: op.repoCacheID ?? null,
    project_directory: op.projectDirectory,
    created_at: sync?.created_at ?? now,
    updated_at: now,
  };
  if (sync?.last_commit === commit && !op.force && !op.standalone) {
    await gitSyncRepository.upsert(ctx.db, { ...sync, ...syncRow, last_timestamp: maxTimestamp(sync.last_timestamp, op.timestamp) });
    return { status: 'unchanged', commit };
  }

  const message = (await runGit(['log', '-1', '--format=%B', commit], { cwd: dir })).toString('utf8').trim();
  const files = (await listTree(dir, commit)).filter((e) => e.type === 'blob').map((e) => ({ path: e.path, oid: e.oid }));
  const oidOf = new Map(files.map((f) => [f.path, f.oid]));
  const budget = new ReadBudget(dir, ctx.config);
  // The bytes of every text file the layout reads (pages, SUMMARY.md), kept with the revision below.
  const read = new Map<string, Buffer>();
  // Its readings count against the space's organization (page-reader.ts, one reading a thread per tenant).
  const tenant = (await spacesRepository.findActive(ctx.db, op.spaceId))?.organization_id;
  const layout = await readGitLayout({
    files,
    projectDirectory: op.projectDirectory,
    read: async (paths) => {
      const present = paths.filter((p) => oidOf.has(p));
      await budget.take(present.map((p) => ({ path: p, oid: oidOf.get(p)! })));
      const blobs = await readBlobs(dir, present.map((p) => oidOf.get(p)!));
      const found = new Map(present.filter((p) => blobs.has(oidOf.get(p)!)).map((p) => [p, blobs.get(oidOf.get(p)!)!]));
      for (const [p, bytes] of found) read.set(p, bytes);
      return found;
    },
    // Off the event loop, each page under the reader's budget (page-reader.ts).
    readPage: (body, path) => ctx.markdown.begin({ inline: false, tenant }).page(body, path),
  });
  const assetBlobs = await storeAssets(ctx, dir, layout.assets, budget, await knownFiles(ctx, op.spaceId, sync?.last_revision_id));
  const sources = new Map<string, SourceObject>();
  for (const [p, bytes] of read) {
    if (p === gitbookConfigPath(op.projectDirectory)) continue;
    const source = sourceObject(bytes);
    if (source) sources.set(p, source);
  }
  let renames = new Map<string, string>();
  if (sync?.last_commit && sync.last_commit !== commit) renames = await detectRenames(dir, sync.last_commit, commit).catch(() => new Map());

  const revisionGit = {
    oid: commit,
    message,
    ref: op.ref,
    createdByGitBook: false,
    ...(op.repoCommitURL ? { url: storedUrl(op.repoCommitURL) + commit } : {}),
  };

  return retryingTransaction(ctx.db, async (trx) => {
    const space = await spacesRepository.findActive(trx, op.spaceId);
    if (!space) throw new Error('the space no longer exists');
    const divergent = !op.force && !op.standalone && !!sync?.last_revision_id && !!sync.last_commit && space.revision_id !== sync.last_revision_id;
    const baseId = divergent ? (sync!.last_revision_id as string) : space.revision_id;
    const previous = baseId ? await loadSnapshot(trx, op.spaceId, baseId) : null;
    const editor = await RevisionEditor.open(trx, op.spaceId, baseId, ctx.clock, ctx.files);

    const { ids, byPath: pageByPath } = matchIds(layout.pages, previous, renames);
    const fileIds = new Map<string, string>();
    const previousFiles = previous?.files ?? [];
    const filesByPath = new Map(previousFiles.filter((f) => f.git?.path).map((f) => [f.git!.path, f]));
    const filesByHash = new Map(previousFiles.map((f) => [f.hash, f]));
    for (const file of editor.fileEntries().slice()) editor.removeFile(file.id);
    const usedFileIds = new Set<string>();
    for (const asset of layout.assets) {
      const blob = assetBlobs.get(asset.oid)!;
      const before = filesByPath.get(asset.path) ?? filesByHash.get(blob.hash);
      const git = { oid: asset.oid, path: asset.path };
      if (before && !usedFileIds.has(before.id) && before.hash === blob.hash) {
        editor.putFileEntry({ ...before, git });
        fileIds.set(asset.path, before.id);
        usedFileIds.add(before.id);
      } else {
        const id = before && !usedFileIds.has(before.id) ? before.id : newId();
        const stored = { hash: blob.hash, size: blob.size };
        if (blob.head) editor.addFile({ id, name: asset.name, contentType: asset.contentType, bytes: blob.head, stored, git });
        else editor.putFileEntry({ id, name: asset.name, contentType: asset.contentType, ...stored, ...(blob.dimensions ? { dimensions: blob.dimensions } : {}), git });
        fileIds.set(asset.path, id);
        usedFileIds.add(id);
      }
    }

    for (const entry of editor.childrenOf(null).slice()) editor.deletePage(entry.id);
    const pageIdOf = (path: string) => pageByPath.get(path);
    const previousSig = new Map<string, string | undefined>();
    const previousPath = new Map<string, string | undefined>();
    for (const node of previous?.byId.values() ?? []) {
      previousSig.set(node.entry.id, node.entry.git?.sig ?? pageSignature(node.entry));
      previousPath.set(node.entry.id, node.entry.git?.path);
    }
    let pagesChanged = 0;
    const toNewPage = (page: LayoutPage): NewPage => {
      const id = ids.get(page) as string;
      const document = page.document ? bindDocument(page.document, pageIdOf, (p) => fileIds.get(p)) : undefined;
      const meta = { ...page.meta };
      if (meta.cover?.ref?.kind === 'file' && meta.cover.ref.file.startsWith('git:')) {
        const fileId = fileIds.get(meta.cover.ref.file.slice(4));
        if (fileId) meta.cover = { ...meta.cover, ref: { kind: 'file', file: fileId } };
        else delete meta.cover;
      }
      const docHash = document && document.nodes.length > 0 ? objectHash('document', JSON.stringify(document)) : undefined;
      const sig = pageSignature({ type: page.type, title: page.title, document: docHash, ...meta });
      const source = page.git ? sources.get(page.git.path)?.hash : undefined;
      const changed = previousSig.get(id) !== sig || previousPath.get(id) !== page.git?.path;
      if (changed) pagesChanged++;
      const before = previous?.byId.get(id)?.entry;
      return {
        id,
        type: page.type,
        title: page.title,
        slug: page.slug,
        ...meta,
        ...(document ? { document } : {}),
        ...(page.target ? { target: page.target } : {}),
        // The content root is kept with the file: links kept as written (`/x.md`, `../`) are read from it again.
        ...(page.git ? { git: { ...page.git, sig, ...(source ? { source } : {}), ...(layout.root ? { root: layout.root } : {}) } } : {}),
        pages: page.children.map(toNewPage),
        // A page read again as it was keeps its dates; a changed one was updated now.
        ...(before ? { createdAt: before.createdAt, ...(changed ? {} : { updatedAt: before.updatedAt }) } : {}),
      };
    };
    for (const page of layout.pages) editor.insertPage(toNewPage(page));
    await storeRepository.putObjects(trx, op.spaceId, [...sources.values()]);
    for (const id of previous?.byId.keys() ?? []) if (!editor.hasPage(id)) pagesChanged++;

    const next = await editor.commit(trx, { createdBy: op.userId, git: revisionGit });
    const snapshot = await loadSnapshot(trx, op.spaceId, next);
    const { pageFiles } = planPaths(snapshot.pages, snapshot.files, layout.root);
    const summarySig = hashText(summaryOf(snapshot.pages, pageFiles, layout.summaryPath));
    const at = isoNow(ctx.clock);
    let changeRequestId: string | undefined;
    if (divergent) {
      changeRequestId = newId();
      await changeRequestsRepository.insert(trx, {
        id: changeRequestId,
        space_id: op.spaceId,
        number: await changeRequestsRepository.nextNumber(trx, op.spaceId),
        status: 'open',
        // The space and the repository both changed since the last sync: this change request holds the repository's side.
        subject: `Git import of ${commit.slice(0, 7)} (${op.ref.replace(/^refs\/heads\//, '')})`,
        description: null,
        created_by: op.userId,
        created_at: at,
        updated_at: at,
        revision_id: next,
        revision_initial: baseId as string,
        revision_merged_ancestor: baseId as string,
        revision_merged: null,
        merged_by: null,
        merged_at: null,
        conversations_issues_cluster: null,
      });
    } else if (!op.standalone) {
      if (!(await spacesRepository.advanceRevision(trx, op.spaceId, space.revision_id, next, at))) throw new HeadMoved();
    }
    await gitSyncRepository.upsert(trx, {
      ...syncRow,
      last_timestamp: maxTimestamp(sync?.last_timestamp, op.timestamp),
      // A standalone revision is not the space's content: the sync stays where it was.
      last_commit: op.standalone ? (sync?.last_commit ?? null) : commit,
      last_revision_id: op.standalone ? (sync?.last_revision_id ?? null) : divergent ? (sync?.last_revision_id ?? null) : next,
      summary_sig: op.standalone || divergent ? (sync?.summary_sig ?? null) : summarySig,
      summary_source: op.standalone || divergent ? (sync?.summary_source ?? null) : (sources.get(layout.summaryPath)?.hash ?? null),
      ...(op.standalone || divergent ? {} : { redirects: JSON.stringify(resolveRedirects(layout.redirects, layout.root, pageIdOf)) }),
    });
    await touchGitSync(trx, op.spaceId, at);
    return divergent
      ? { status: 'change-request' as const, commit, revisionId: next, changeRequestId, pagesChanged }
      : { status: 'success' as const, commit, revisionId: next, pagesChanged };
  });
}

/**
 * `.gitbook.yaml` redirects as the layout read them (paths.ts redirectKey -> file, relative to
 * the content root) as key -> page id: resolved now, so a page keeps its redirects when it
 * moves or is renamed later. A redirect to a file that is no page is dropped.
 */
export function resolveRedirects(redirects: Record<string, string>, root: string, pageIdOf: (path: string) => string | undefined): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [key, to] of Object.entries(redirects)) {
    const id = pageIdOf(posix.normalize(posix.join(root, to.replace(/^\/+/, ''))));
    if (id) resolved[key] = id;
  }
  return resolved;
}

/** Moves the gitSync object's `updatedAt`. */
export async function touchGitSync(db: Parameters<typeof gitSyncRepository.spaceGitSync>[0], spaceId: string, at: string): Promise<void> {
  const stored = await gitSyncRepository.spaceGitSync(db, spaceId);
  if (!stored) return;
  await gitSyncRepository.setSpaceGitSync(db, spaceId, JSON.stringify({ ...JSON.parse(stored), updatedAt: at }));
}

/**
 * What one import may read from the repository: no file over GIT_SYNC_MAX_FILE_BYTES and
 * no more than GIT_SYNC_MAX_IMPORT_BYTES in all, checked by size (`cat-file --batch-check`)
 * before anything is read, so a small repository holding a huge compressible file is
 * refused without its bytes ever being inflated here.
 */
export class ReadBudget {
  private readonly counted = new Set<string>();
  private total = 0;

  constructor(
    private readonly dir: string,
    private readonly limits: Pick<Config, 'gitSyncMaxFileBytes' | 'gitSyncMaxImportBytes'>,
  ) {}

  async take(files: { path: string; oid: string }[]): Promise<void> {
    const sizes = await objectSizes(this.dir, files.map((f) => f.oid));
    for (const file of files) {
      const size = sizes.get(file.oid);
      if (size === undefined) continue; // reading it reports the missing object
      if (size > this.limits.gitSyncMaxFileBytes) {
        throw new Error(`the file "${file.path}" is ${size} bytes, over the limit of ${this.limits.gitSyncMaxFileBytes} bytes per file (GIT_SYNC_MAX_FILE_BYTES)`);
      }
      if (!this.counted.has(file.oid)) {
        this.counted.add(file.oid);
        this.total += size;
      }
    }
    if (this.total > this.limits.gitSyncMaxImportBytes) {
      throw new Error(`the import reads ${this.total} bytes, over the limit of ${this.limits.gitSyncMaxImportBytes} bytes per import (GIT_SYNC_MAX_IMPORT_BYTES)`);
    }
  }
}

interface AssetBlob {
  hash: string;
  size: number;
  /** The first bytes of an image streamed now (its dimensions are read from them). */
  head?: Buffer;
  dimensions?: FileEntry['dimensions'];
}

/** Image dimensions are read from this many first bytes (headers and EXIF come first). */
const IMAGE_HEAD_BYTES = 512 * 1024;

/**
 * The stored bytes of every asset: a blob a file of the space already came from (same git
 * object) is not read again; the others are checked against the budget all together,
 * then streamed from git to the file store one at a time, never held whole. Runs before
 * the revision's transaction (the file store is not part of it); a refusal stores nothing.
 */
async function storeAssets(ctx: JobContext, dir: string, assets: LayoutAsset[], budget: ReadBudget, known: Map<string, FileEntry>): Promise<Map<string, AssetBlob>> {
  const blobs = new Map<string, AssetBlob>();
  for (const asset of assets) {
    const file = known.get(asset.oid);
    if (file) blobs.set(asset.oid, { hash: file.hash, size: file.size, ...(file.dimensions ? { dimensions: file.dimensions } : {}) });
  }
  const unread = assets.filter((a) => !blobs.has(a.oid));
  await budget.take(unread.map((a) => ({ path: a.path, oid: a.oid })));
  for (const asset of unread) {
    if (blobs.has(asset.oid)) continue;
    const head: Buffer[] = [];
    let headBytes = 0;
    const wantHead = asset.contentType.startsWith('image/');
    const chunks = async function* () {
      for await (const chunk of streamBlob(dir, asset.oid, ctx.signal)) {
        if (wantHead && headBytes < IMAGE_HEAD_BYTES) {
          const part = Buffer.from(chunk.subarray(0, IMAGE_HEAD_BYTES - headBytes));
          head.push(part);
          headBytes += part.length;
        }
        yield chunk;
      }
    };
    const stored = await ctx.files.put(BLOB_AREA, chunks());
    blobs.set(asset.oid, { ...stored, head: Buffer.concat(head) });
  }
  return blobs;
}

/** Files of the space's current and last synced revisions, by the git object they were read from. */
async function knownFiles(ctx: JobContext, spaceId: string, lastRevisionId: string | null | undefined): Promise<Map<string, FileEntry>> {
  const known = new Map<string, FileEntry>();
  const space = await spacesRepository.findActive(ctx.db, spaceId);
  for (const revisionId of new Set([space?.revision_id, lastRevisionId])) {
    if (!revisionId) continue;
    const snapshot = await loadSnapshot(ctx.db, spaceId, revisionId).catch(() => null);
    for (const file of snapshot?.files ?? []) if (file.git?.oid && !known.has(file.git.oid)) known.set(file.git.oid, file);
  }
  return known;
}

export interface SourceObject {
  hash: string;
  kind: 'source';
  body: string;
}

/**
 * A file's text as read, as a content object: an untouched page (or SUMMARY.md) is
 * exported as these bytes, not as markdown written again. Only bytes that are exactly their
 * UTF-8 text can be kept as text; other files are written again when exported.
 */
export function sourceObject(bytes: Buffer): SourceObject | undefined {
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) return undefined;
  const body = JSON.stringify(text);
  return { hash: objectHash('source', body), kind: 'source', body };
}

export function hashText(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function maxTimestamp(a: string | null | undefined, b: string | undefined): string | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return a > b ? a : b;
}

/**
 * The id of every page of the layout: the previous page with the same file (or whose file
 * git saw renamed to it), the same group title, the same link target; else a new id.
 */
function matchIds(pages: LayoutPage[], previous: RevisionSnapshot | null, renames: Map<string, string>): { ids: Map<LayoutPage, string>; byPath: Map<string, string> } {
  const byKey = new Map<string, string>();
  const keyOf = (node: PageNode): string => {
    const e = node.entry;
    if (e.type === 'group') return `group:${e.title}`;
    if (e.type === 'link') return `link:${e.target?.kind === 'url' ? e.target.url : ''}`;
    return e.git?.path ?? `empty:${e.title}`;
  };
  for (const node of previous?.byId.values() ?? []) {
    const key = keyOf(node);
    if (!byKey.has(key)) byKey.set(key, node.entry.id);
  }
  for (const [from, to] of renames) {
    const id = byKey.get(from);
    if (id && !byKey.has(to)) byKey.set(to, id);
  }
  const ids = new Map<LayoutPage, string>();
  const used = new Set<string>();
  // First by file (or rename), group title, link target.
  const byIdentity = (list: LayoutPage[]) => {
    for (const page of list) {
      const id = byKey.get(page.key);
      if (id && !used.has(id)) {
        used.add(id);
        ids.set(page, id);
      }
      byIdentity(page.children);
    }
  };
  byIdentity(pages);
  // Then a document page whose file is new takes the id of the page that was at the same
  // place in the tree (same parent, same position) if that page's file is gone: a file
  // renamed and edited beyond git's rename detection keeps its page.
  const newKeys = new Set<string>();
  const collect = (list: LayoutPage[]) => list.forEach((p) => (newKeys.add(p.key), collect(p.children)));
  collect(pages);
  const byPlace = (list: LayoutPage[], before: readonly PageNode[] | undefined) => {
    list.forEach((page, index) => {
      if (!ids.has(page)) {
        const old = before?.[index];
        const oldKey = old ? keyOf(old) : undefined;
        if (old && page.type === 'document' && old.entry.type === 'document' && !used.has(old.entry.id) && oldKey && !newKeys.has(oldKey)) {
          used.add(old.entry.id);
          ids.set(page, old.entry.id);
        } else {
          ids.set(page, newId());
        }
      }
      byPlace(page.children, previous?.byId.get(ids.get(page) as string)?.children);
    });
  };
  byPlace(pages, previous?.pages);
  const byPath = new Map<string, string>();
  for (const [page, id] of ids) if (page.git && !byPath.has(page.git.path)) byPath.set(page.git.path, id);
  return { ids, byPath };
}

export const dirOf = (p: string) => (posix.dirname(p) === '.' ? '' : posix.dirname(p));
