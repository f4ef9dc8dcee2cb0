import { Type } from 'typebox';
import { defineJob, findJob, type Executor } from '../../jobs/queue.ts';

/*
 * Conversation processing runs on the job queue (src/jobs): ingest enqueues a
 * `conversations.process` job in its own transaction; that job extracts the issue(s) and
 * asks for a `conversations.cluster` run of the organization, which places every issue not
 * yet in a cluster. Both steps are idempotent, so a retry or a second run changes nothing.
 * The handlers are in conversations.jobs.ts.
 */

export const processConversationJob = defineJob('conversations.process', {
  payload: Type.Object({ organizationId: Type.String(), conversationId: Type.String() }),
  concurrency: 2,
});

export const clusterIssuesJob = defineJob('conversations.cluster', {
  payload: Type.Object({ organizationId: Type.String() }),
  concurrency: 1,
});

/** In the ingest transaction: the conversation is processed if and only if it was stored. */
export async function requestConversationProcessing(trx: Executor, organizationId: string, conversationId: string): Promise<void> {
  // One lane per conversation: a conversation ingested twice is processed twice, in order,
  // never by two workers at once (both would find no issue yet and each add one).
  const key = `conversations.process:${organizationId}:${conversationId}`;
  await processConversationJob.enqueue(trx, { organizationId, conversationId }, { key });
}

/**
 * Asks for a clustering run of the organization after issues were written. One lane per
 * organization, so two runs never place the same new problem in two new clusters. A run
 * reads every issue's terms (document frequencies), so requests are batched: at most one
 * run waits, and every request made meanwhile joins it. When the run found is no longer
 * queued (running, or already finished: it may have read the issues before ours were
 * written), a follow-up run is queued behind it in the same lane.
 */
export async function requestClustering(db: Executor, organizationId: string, delayMs: number): Promise<void> {
  const lane = `conversations.cluster:${organizationId}`;
  // The run waits `delayMs`, so the conversations processed meanwhile join it.
  const runAt = new Date(Date.now() + delayMs);
  const first = await clusterIssuesJob.enqueue(db, { organizationId }, { key: lane, dedupeKey: lane, runAt });
  if (first.created) return;
  // Joining the run found is safe only while it has not started: a run still queued now
  // reads the issues after ours were written. One running, or one that finished between
  // the enqueue and this read (its state is then done), may have read them before.
  const found = await findJob(db, first.id);
  if (found?.state === 'queued') return;
  await clusterIssuesJob.enqueue(db, { organizationId }, { key: lane, dedupeKey: `${lane}:after:${first.id}`, runAt });
}
