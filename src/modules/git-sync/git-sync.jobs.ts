import { defineJob, enqueueJob, type Executor } from '../../jobs/queue.ts';
import { runExport } from './git-sync.export.ts';
import { runImport } from './git-sync.import.ts';

/*
 * Git sync operations run on the job queue, in one lane per space (`git-sync:<space>`), so
 * a space's imports and exports run one at a time in the order they were asked for. A run
 * records its own failure (git-sync.import.ts / .export.ts) and leaves the space as it
 * was, so a job is never retried: the next request is the retry.
 */

export const GIT_IMPORT_JOB = 'git-sync.import';
export const GIT_EXPORT_JOB = 'git-sync.export';

/** The job payload: the request without credentials (they travel sealed). */
export interface GitOperation {
  direction: 'import' | 'export';
  spaceId: string;
  userId: string;
  /** The URL without credentials. */
  remote: string;
  /** Credentials of the URL, sealed with a server key (git-sync.remote.ts). */
  sealed?: string;
  ref: string;
  repoCacheID?: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
  projectDirectory: string;
  timestamp?: string;
  force: boolean;
  standalone: boolean;
  commitMessage?: string;
}

/** In the request's transaction: the operation runs if and only if the request committed. */
export async function requestGitOperation(trx: Executor, operation: GitOperation): Promise<void> {
  await enqueueJob<GitOperation>(trx, {
    kind: operation.direction === 'import' ? GIT_IMPORT_JOB : GIT_EXPORT_JOB,
    payload: operation,
    key: `git-sync:${operation.spaceId}`,
    maxAttempts: 1,
  });
}

defineJob<GitOperation>(GIT_IMPORT_JOB, { run: (payload, ctx) => runImport(ctx, payload), maxAttempts: 1 });
defineJob<GitOperation>(GIT_EXPORT_JOB, { run: (payload, ctx) => runExport(ctx, payload), maxAttempts: 1 });
