import type { Context } from '../../context.ts';
import { badRequest, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { sealRemote, storedUrl } from './git-sync.remote.ts';
import { urlWithoutSecrets } from '../../lib/outbound/redact.ts';
import { loadSpace } from '../../access/index.ts';
import { gitSyncPolicy } from './git-sync.policy.ts';
import { gitSyncState } from './git-sync.state.ts';
import { gitSyncRepository, type GitSyncRunRow } from './git-sync.repository.ts';
import type { ExportInput, GitSyncStateWire, ImportInput } from './git-sync.schemas.ts';
import { requestGitOperation, type GitOperation } from './git-sync.job-kinds.ts';
import type { Db } from '../../db/database.ts';

/*
 * Git sync (spec 4.8; docs/decisions/git-sync.md). Requests only check and enqueue: the
 * work runs as a job in the space's lane (git-sync.job-kinds.ts), one operation at a time in
 * enqueue order, by git-sync.import.ts and git-sync.export.ts.
 */

function checkInput(input: ImportInput | ExportInput): void {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw badRequest('body/url must be a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('body/url must be an http or https URL');
  if (!isBranchRef(input.ref)) throw badRequest('body/ref must be a branch name git accepts (refs/heads/<name>: no "..", "//", "@{", part starting with "." or ending with ".lock", no "/" or "." at the end)');
  const dir = input.repoProjectDirectory ?? '';
  if (dir.split('/').some((part) => part === '..') || dir.startsWith('/')) throw badRequest('body/repoProjectDirectory must be a folder inside the repository');
  for (const field of ['repoTreeURL', 'repoCommitURL'] as const) {
    const value = input[field];
    if (value !== undefined && value !== '' && !isHttpUrl(value)) throw badRequest(`body/${field} must be an http or https URL`);
  }
  if (input.gitInfo?.url !== undefined && !isHttpUrl(input.gitInfo.url)) throw badRequest('body/gitInfo/url must be an http or https URL');
}

/** git check-ref-format's rules beyond the schema's pattern (which refuses spaces, ~ ^ : ? * [ \\). */
function isBranchRef(ref: string): boolean {
  if (/\.\.|\/\/|@\{|[\x00-\x1f\x7f]/.test(ref) || ref.endsWith('/') || ref.endsWith('.')) return false;
  return ref.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

function isHttpUrl(text: string): boolean {
  return /^https?:\/\//i.test(text) && urlWithoutSecrets(text) !== undefined;
}

async function requestOperation(ctx: Context, spaceId: string, direction: 'import' | 'export', input: ImportInput | ExportInput): Promise<void> {
  checkInput(input);
  await ctx.transaction(async (tctx) => {
    const { access } = await loadSpace(tctx, spaceId);
    gitSyncPolicy.authorizeTrigger(access);
    const { remote, sealed } = await sealRemote(tctx.db, input.url);
    const now = isoNow(ctx.clock);
    const operation: GitOperation = {
      direction,
      spaceId,
      userId: ctx.actor.userId,
      remote,
      ...(sealed ? { sealed } : {}),
      ref: input.ref,
      ...(input.repoCacheID ? { repoCacheID: input.repoCacheID } : {}),
      ...(input.repoTreeURL ? { repoTreeURL: storedUrl(input.repoTreeURL) } : {}),
      ...(input.repoCommitURL ? { repoCommitURL: storedUrl(input.repoCommitURL) } : {}),
      projectDirectory: input.repoProjectDirectory ?? '',
      ...(input.timestamp ? { timestamp: new Date(input.timestamp).toISOString() } : {}),
      force: input.force ?? false,
      standalone: input.standalone ?? false,
      ...('commitMessage' in input ? { commitMessage: input.commitMessage } : {}),
    };
    // The sync is set up from the first request on: GET git info and the space's gitSync answer.
    // What a request does not say (gitInfo is optional) stays as the last one said.
    const before = await gitSyncRepository.spaceGitSync(tctx.db, spaceId);
    const previous = before ? (JSON.parse(before) as GitSyncStateWire) : undefined;
    const gitSync = gitSyncState({
      spaceId,
      remote,
      provider: input.gitInfo?.provider ?? (previous?.integration !== 'git' ? previous?.installationProvider : undefined),
      browseUrl: (input.gitInfo?.url ?? input.repoTreeURL ? storedUrl(input.gitInfo?.url ?? input.repoTreeURL!) : undefined) ?? previous?.url,
      updatedAt: now,
    });
    await gitSyncRepository.setSpaceGitSync(tctx.db, spaceId, JSON.stringify(gitSync));
    await requestGitOperation(tctx.db, operation);
  });
}

/** POST {S}/git/import: 204 at once; the import runs as a job in the space's lane. */
export function requestImport(ctx: Context, spaceId: string, input: ImportInput): Promise<void> {
  return requestOperation(ctx, spaceId, 'import', input);
}

/** POST {S}/git/export: 204 at once; the export runs as a job in the space's lane. */
export function requestExport(ctx: Context, spaceId: string, input: ExportInput): Promise<void> {
  return requestOperation(ctx, spaceId, 'export', input);
}

/** GET {S}/git/info: the space's gitSync object; 404 before a sync was set up. */
export async function getGitInfo(ctx: Context, spaceId: string): Promise<GitSyncStateWire> {
  const { space } = await loadSpace(ctx, spaceId);
  const stored = space.git_sync ?? (await gitSyncRepository.spaceGitSync(ctx.db, spaceId));
  if (!stored) throw notFound('Git sync of the space');
  return JSON.parse(stored) as GitSyncStateWire;
}

/**
 * DELETE {S}/git/legacy-installation: Quire has no legacy (GitHub app) installation to
 * remove; 204 for whoever may trigger a sync, as when it was already removed.
 */
export async function deleteLegacyInstallation(ctx: Context, spaceId: string): Promise<void> {
  const { access } = await loadSpace(ctx, spaceId);
  gitSyncPolicy.authorizeTrigger(access);
}

/** The sync runs of a space, newest first (cli -- git-sync log SPACE shows each as a line, presentRunLine). */
export function listRuns(db: Db, spaceId: string, limit = 50): Promise<GitSyncRunRow[]> {
  return gitSyncRepository.listRuns(db, spaceId, limit);
}
