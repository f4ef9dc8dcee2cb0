import { Type, type Static } from 'typebox';
import { defineJob, type Executor } from '../../jobs/queue.ts';

/*
 * Git sync operations run on the job queue, in one lane per space (`git-sync:<space>`), so
 * a space's imports and exports run one at a time in the order they were asked for. A run
 * records its own failure (git-sync.import.ts / .export.ts) and leaves the space as it
 * was, so a job is never retried: the next request is the retry. The handlers are in
 * git-sync.jobs.ts; this file is what the service and the runs both import.
 */

/** The job payload: the request without credentials (they travel sealed). */
export const GitOperationPayload = Type.Object({
  direction: Type.Union([Type.Literal('import'), Type.Literal('export')]),
  spaceId: Type.String(),
  userId: Type.String(),
  /** The URL without credentials. */
  remote: Type.String(),
  /** Credentials of the URL, sealed with a server key (git-sync.remote.ts). */
  sealed: Type.Optional(Type.String()),
  ref: Type.String(),
  repoCacheID: Type.Optional(Type.String()),
  repoTreeURL: Type.Optional(Type.String()),
  repoCommitURL: Type.Optional(Type.String()),
  projectDirectory: Type.String(),
  timestamp: Type.Optional(Type.String()),
  force: Type.Boolean(),
  standalone: Type.Boolean(),
  commitMessage: Type.Optional(Type.String()),
});
export type GitOperation = Static<typeof GitOperationPayload>;

export const gitImportJob = defineJob('git-sync.import', { payload: GitOperationPayload, maxAttempts: 1 });
export const gitExportJob = defineJob('git-sync.export', { payload: GitOperationPayload, maxAttempts: 1 });

/** In the request's transaction: the operation runs if and only if the request committed. */
export async function requestGitOperation(trx: Executor, operation: GitOperation): Promise<void> {
  const job = operation.direction === 'import' ? gitImportJob : gitExportJob;
  await job.enqueue(trx, operation, { key: `git-sync:${operation.spaceId}`, maxAttempts: 1 });
}
