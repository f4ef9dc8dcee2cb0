import fs from 'node:fs/promises';
import path from 'node:path';
import { gitbookConfigPath, layoutConfig } from '../../content/git-layout/read.ts';
import { pageFileText, pageSignature, planPaths, summaryOf } from '../../content/git-layout/write.ts';
import { BLOB_AREA } from '../../content/store/blobs.ts';
import { RevisionEditor } from '../../content/store/editor.ts';
import { storeRepository } from '../../content/store/store.repository.ts';
import { loadDocuments, loadSnapshot } from '../../content/store/snapshot.ts';
import type { Document } from '../../content/markdown/types.ts';
import type { PageNode } from '../../content/store/types.ts';
import type { JobContext } from '../../jobs/queue.ts';
import { isoNow } from '../../lib/clock.ts';
import { listTree, objectSizes, readBlobs, runGit, writeBlobs } from '../../lib/git/git.ts';
import { newId } from '../../lib/ids.ts';
import { spacesRepository } from '../spaces/spaces.repository.ts';
import type { GitOperation } from './git-sync.job-kinds.ts';
import { hashText, isStale, ReadBudget, recordRun, touchGitSync, type RunOutcome } from './git-sync.import.ts';
import { gitSyncRepository } from './git-sync.repository.ts';
import { fetchBranch, storedUrl, unsealRemote } from './git-sync.remote.ts';

/*
 * An export (POST {S}/git/export, run as a job): the space's current revision written in
 * GitBook's layout on top of the branch's commit, as one commit pushed to `ref`. Pages whose
 * signature matches the one recorded with their blob keep that blob (byte for byte, no
 * markdown written), or, when the cache lacks it, the text the import kept; SUMMARY.md is
 * written when the tree's summary changed or the branch lacks it; nothing to change makes
 * no commit. The rewritten pages' new blobs are then recorded on them (a
 * revision whose `git` says GitBook-side made it), so the next export keeps them too.
 */

export async function runExport(ctx: JobContext, op: GitOperation): Promise<RunOutcome> {
  const started = Date.now();
  const startedAt = isoNow(ctx.clock);
  let outcome: RunOutcome;
  try {
    outcome = await exportOnce(ctx, op);
  } catch (error) {
    outcome = { status: 'failure', error: error instanceof Error ? error.message : String(error) };
    ctx.log.warn({ spaceId: op.spaceId, error: outcome.error }, 'git export failed');
  }
  await recordRun(ctx, op, startedAt, started, outcome);
  return outcome;
}

async function exportOnce(ctx: JobContext, op: GitOperation): Promise<RunOutcome> {
  const sync = await gitSyncRepository.find(ctx.db, op.spaceId);
  if (isStale(op, sync?.last_timestamp)) return { status: 'skipped', error: `older than the last operation applied (${sync?.last_timestamp})` };
  const space = await spacesRepository.findActive(ctx.db, op.spaceId);
  if (!space?.revision_id) throw new Error('the space has no content');
  const url = await unsealRemote(ctx.db, op.remote, op.sealed);
  const fetched = await fetchBranch(ctx.config, ctx.db, { spaceId: op.spaceId, url, ref: op.ref, repoCacheID: op.repoCacheID, localRef: `refs/quire/${op.spaceId}/export`, signal: ctx.signal });
  const { dir, remote } = fetched;
  // A missing branch is created from the last synced commit when the cache has it (files the space does not own, like .gitbook.yaml, come along).
  const branchMissing = !fetched.commit;
  const parent = fetched.commit ?? (sync?.last_commit && (await presentObjects(dir, [sync.last_commit])).has(sync.last_commit) ? sync.last_commit : undefined);

  const parentFiles = parent ? await listTree(dir, parent) : [];
  const parentOids = new Map(parentFiles.map((f) => [f.path, f.oid]));
  const configPath = gitbookConfigPath(op.projectDirectory);
  let configText: string | undefined;
  if (parentOids.has(configPath)) {
    // The branch's .gitbook.yaml is the remote's text: read within the import's caps.
    await new ReadBudget(dir, ctx.config).take([{ path: configPath, oid: parentOids.get(configPath)! }]);
    configText = (await readBlobs(dir, [parentOids.get(configPath)!])).get(parentOids.get(configPath)!)?.toString('utf8');
  }
  const { root, summaryPath } = layoutConfig(configText, op.projectDirectory);

  const snapshot = await loadSnapshot(ctx.db, op.spaceId, space.revision_id);
  const { pageFiles, filePaths } = planPaths(snapshot.pages, snapshot.files, root);

  // Blobs the cache has (an emptied cache makes every page be written again).
  const recorded: string[] = [];
  for (const node of snapshot.byId.values()) if (node.entry.git?.oid) recorded.push(node.entry.git.oid);
  for (const file of snapshot.files) if (file.git?.oid) recorded.push(file.git.oid);
  const present = await presentObjects(dir, recorded);

  const wanted = new Map<string, string>(); // path -> blob oid
  const rewrite: PageNode[] = [];
  for (const node of snapshot.byId.values()) {
    if (node.entry.type !== 'document') continue;
    const file = pageFiles.get(node.entry.id) as string;
    const git = node.entry.git;
    if (git && git.path === file && git.sig === pageSignature(node.entry) && present.has(git.oid)) wanted.set(file, git.oid);
    else rewrite.push(node);
  }
  // A page unchanged since it was read (same signature, same file) is written as it was read, when its text was kept.
  const keptSource = (node: PageNode) => {
    const git = node.entry.git;
    return git?.source && git.path === pageFiles.get(node.entry.id) && git.sig === pageSignature(node.entry) ? git.source : undefined;
  };
  const summaryText = summaryOf(snapshot.pages, pageFiles, summaryPath);
  const summarySig = hashText(summaryText);
  const summarySource = summarySig === sync?.summary_sig ? (sync?.summary_source ?? undefined) : undefined;
  const sources = await storeRepository.getObjects(ctx.db, op.spaceId, [...rewrite.map(keptSource), summarySource].filter((h): h is string => !!h));
  const sourceText = (hash: string | undefined) => (hash && sources.has(hash) ? (JSON.parse(sources.get(hash) as string) as string) : undefined);
  const fromSource = new Set(rewrite.filter((node) => sourceText(keptSource(node)) !== undefined));
  const documents = await loadDocuments<Document>(
    ctx.db,
    op.spaceId,
    rewrite.filter((n) => !fromSource.has(n)).map((n) => n.entry.document).filter((h): h is string => !!h),
  );
  const texts = rewrite.map((node) =>
    Buffer.from(
      sourceText(keptSource(node)) ?? pageFileText(node, node.entry.document ? documents.get(node.entry.document) : undefined, pageFiles, filePaths, (id) => snapshot.byId.get(id)?.entry.title),
      'utf8',
    ),
  );
  const fileBytes: Buffer[] = [];
  const newFiles: string[] = [];
  for (const file of snapshot.files) {
    const target = filePaths.get(file.id) as string;
    if (file.git?.oid && present.has(file.git.oid)) {
      wanted.set(target, file.git.oid);
      continue;
    }
    const bytes = await ctx.files.read(BLOB_AREA, file.hash, Number.MAX_SAFE_INTEGER);
    if (!bytes) throw new Error(`the bytes of file "${file.name}" are missing from the file store`);
    fileBytes.push(bytes);
    newFiles.push(target);
  }
  // SUMMARY.md is written when the table of contents changed, or when the branch lacks it (a new repository or branch):
  // as it was read while unchanged, else as the tree says.
  const writeSummary = summarySig !== sync?.summary_sig || !parentOids.has(summaryPath);
  const oids = await writeBlobs(dir, [...texts, ...fileBytes, ...(writeSummary ? [Buffer.from(sourceText(summarySource) ?? summaryText, 'utf8')] : [])]);
  rewrite.forEach((node, i) => wanted.set(pageFiles.get(node.entry.id) as string, oids[i]));
  newFiles.forEach((p, i) => wanted.set(p, oids[texts.length + i]));
  if (writeSummary) wanted.set(summaryPath, oids[oids.length - 1]);

  // What this space wrote or read before and no longer has: removed from the branch.
  const owned = new Set<string>();
  if (sync?.last_revision_id) {
    const before = await loadSnapshot(ctx.db, op.spaceId, sync.last_revision_id).catch(() => null);
    for (const node of before?.byId.values() ?? []) if (node.entry.git?.path) owned.add(node.entry.git.path);
    for (const file of before?.files ?? []) if (file.git?.path) owned.add(file.git.path);
  }
  const lines: string[] = [];
  for (const p of owned) if (!wanted.has(p) && parentOids.has(p)) lines.push(`0 ${'0'.repeat(40)}\t${p}`);
  for (const [p, oid] of wanted) if (parentOids.get(p) !== oid) lines.push(`100644 ${oid}\t${p}`);

  const indexFile = path.join(dir, `quire-index-${newId()}`);
  const env = { GIT_INDEX_FILE: indexFile };
  let commit: string | undefined;
  try {
    if (parent) await runGit(['read-tree', parent], { cwd: dir, env });
    else await runGit(['read-tree', '--empty'], { cwd: dir, env });
    if (lines.length > 0) await runGit(['update-index', '-z', '--index-info'], { cwd: dir, env, input: lines.join('\0') + '\0' });
    const tree = (await runGit(['write-tree'], { cwd: dir, env })).toString('utf8').trim();
    const parentTree = parent ? (await runGit(['rev-parse', `${parent}^{tree}`], { cwd: dir })).toString('utf8').trim() : undefined;
    if (tree !== parentTree) {
      commit = (await runGit(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'], { cwd: dir, input: op.commitMessage ?? 'Update from Quire' }))
        .toString('utf8')
        .trim();
    }
  } finally {
    await fs.rm(indexFile, { force: true });
  }
  const now = isoNow(ctx.clock);
  const pagesChanged = rewrite.length;
  if (!commit && branchMissing && parent) commit = parent;
  if (!commit) {
    if (!op.standalone) {
      await gitSyncRepository.upsert(ctx.db, syncRow(op, sync, now, { last_commit: parent ?? null, last_revision_id: space.revision_id, summary_sig: summarySig }));
    }
    return { status: 'unchanged', ...(parent ? { commit: parent } : {}) };
  }
  await runGit(['push', '--quiet', '--', remote.url, `${op.force ? '+' : ''}${commit}:${op.ref}`], { cwd: dir, remote, timeoutMs: 600_000, signal: ctx.signal });
  await runGit(['update-ref', `refs/quire/${op.spaceId}/export`, commit], { cwd: dir });
  if (op.standalone) return { status: 'success', commit, pagesChanged };

  // Record the new blobs on the rewritten pages and files (skipped if the space moved on meanwhile: the next export rewrites them to the same bytes).
  const recordedRevision = await ctx.db.transaction().execute(async (trx) => {
    const current = await spacesRepository.findActive(trx, op.spaceId);
    if (current?.revision_id !== space.revision_id) return undefined;
    const editor = await RevisionEditor.open(trx, op.spaceId, space.revision_id, ctx.clock, ctx.files);
    for (const node of rewrite) {
      const p = pageFiles.get(node.entry.id) as string;
      const source = fromSource.has(node) ? { source: node.entry.git?.source } : {};
      editor.updatePage(node.entry.id, { git: { oid: wanted.get(p) as string, path: p, sig: pageSignature(node.entry), ...source } });
    }
    for (const file of snapshot.files) {
      const p = filePaths.get(file.id) as string;
      if (file.git?.oid === wanted.get(p) && file.git?.path === p) continue;
      editor.putFileEntry({ ...file, git: { oid: wanted.get(p) as string, path: p } });
    }
    let revisionId = space.revision_id as string;
    if (!editor.unchanged) {
      const git = { oid: commit, message: op.commitMessage ?? '', ref: op.ref, createdByGitBook: true, ...(op.repoCommitURL ? { url: storedUrl(op.repoCommitURL) + commit } : {}) };
      revisionId = await editor.commit(trx, { createdBy: op.userId, git });
      if (!(await spacesRepository.advanceRevision(trx, op.spaceId, space.revision_id, revisionId, now))) return undefined;
    }
    await gitSyncRepository.upsert(trx, syncRow(op, sync, now, { last_commit: commit, last_revision_id: revisionId, summary_sig: summarySig }));
    await touchGitSync(trx, op.spaceId, now);
    return revisionId;
  });
  if (!recordedRevision) await gitSyncRepository.upsert(ctx.db, syncRow(op, sync, now, { last_commit: commit, last_revision_id: space.revision_id, summary_sig: summarySig }));
  return { status: 'success', commit, pagesChanged, ...(recordedRevision ? { revisionId: recordedRevision } : {}) };
}

function syncRow(
  op: GitOperation,
  sync: Awaited<ReturnType<typeof gitSyncRepository.find>>,
  now: string,
  state: { last_commit: string | null; last_revision_id: string | null; summary_sig: string },
) {
  // SUMMARY.md's text as last imported stays the file's text while the summary it makes is unchanged.
  const summarySource = state.summary_sig === sync?.summary_sig ? (sync?.summary_source ?? null) : null;
  const last = sync?.last_timestamp ?? null;
  return {
    space_id: op.spaceId,
    remote: storedUrl(op.remote),
    ref: op.ref,
    repo_cache_id: op.repoCacheID ?? null,
    project_directory: op.projectDirectory,
    last_timestamp: op.timestamp && (!last || op.timestamp > last) ? op.timestamp : last,
    created_at: sync?.created_at ?? now,
    updated_at: now,
    summary_source: summarySource,
    ...state,
  };
}

/** Which of these objects the repository has. */
async function presentObjects(dir: string, oids: string[]): Promise<Set<string>> {
  return new Set((await objectSizes(dir, oids)).keys());
}
