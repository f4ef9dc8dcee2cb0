import { defineJob, enqueueJob, findJob, type Executor } from '../../jobs/queue.ts';
import { clusterPendingIssues, processConversation } from './conversations.service.ts';

/*
 * Conversation processing runs on the job queue (src/jobs): ingest enqueues a
 * `conversations.process` job in its own transaction; that job extracts the issue(s) and
 * asks for a `conversations.cluster` run of the organization, which places every issue not
 * yet in a cluster. Both steps are idempotent, so a retry or a second run changes nothing.
 */

export const PROCESS_CONVERSATION_JOB = 'conversations.process';
export const CLUSTER_ISSUES_JOB = 'conversations.cluster';

interface ProcessConversationJob {
  organizationId: string;
  conversationId: string;
}

interface ClusterIssuesJob {
  organizationId: string;
}

/** In the ingest transaction: the conversation is processed if and only if it was stored. */
export async function requestConversationProcessing(trx: Executor, organizationId: string, conversationId: string): Promise<void> {
  // One lane per conversation: a conversation ingested twice is processed twice, in order,
  // never by two workers at once (both would find no issue yet and each add one).
  const key = `conversations.process:${organizationId}:${conversationId}`;
  await enqueueJob<ProcessConversationJob>(trx, { kind: PROCESS_CONVERSATION_JOB, payload: { organizationId, conversationId }, key });
}

/**
 * Asks for a clustering run of the organization after issues were written. One lane per
 * organization, so two runs never place the same new problem in two new clusters. A run
 * reads every issue's terms (document frequencies), so requests are batched: at most one
 * run waits, and every request made meanwhile joins it. When the run found is no longer
 * queued (running, or already finished: it may have read the issues before ours were
 * written), a follow-up run is queued behind it in the same lane.
 */
async function requestClustering(db: Executor, organizationId: string, delayMs: number): Promise<void> {
  const lane = `conversations.cluster:${organizationId}`;
  // The run waits `delayMs`, so the conversations processed meanwhile join it.
  const runAt = new Date(Date.now() + delayMs);
  const first = await enqueueJob<ClusterIssuesJob>(db, { kind: CLUSTER_ISSUES_JOB, payload: { organizationId }, key: lane, dedupeKey: lane, runAt });
  if (first.created) return;
  // Joining the run found is safe only while it has not started: a run still queued now
  // reads the issues after ours were written. One running, or one that finished between
  // the enqueue and this read (its state is then done), may have read them before.
  const found = await findJob(db, first.id);
  if (found?.state === 'queued') return;
  await enqueueJob<ClusterIssuesJob>(db, { kind: CLUSTER_ISSUES_JOB, payload: { organizationId }, key: lane, dedupeKey: `${lane}:after:${first.id}`, runAt });
}

defineJob<ProcessConversationJob>(PROCESS_CONVERSATION_JOB, {
  run: async (payload, ctx) => {
    await processConversation(ctx, payload.organizationId, payload.conversationId, ctx.log);
    await requestClustering(ctx.db, payload.organizationId, ctx.config.conversationsClusterDelayMs);
  },
  concurrency: 2,
});

defineJob<ClusterIssuesJob>(CLUSTER_ISSUES_JOB, {
  run: (payload, ctx) => clusterPendingIssues(ctx, payload.organizationId, ctx.log),
  concurrency: 1,
});
