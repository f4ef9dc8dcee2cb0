import type { JobHandler } from '../../jobs/queue.ts';
import { clusterIssuesJob, processConversationJob, requestClustering } from './conversations.job-kinds.ts';
import { clusterPendingIssues, processConversation } from './conversations.service.ts';

/** What runs the conversations' jobs (kinds in conversations.job-kinds.ts), given to the app at composition (src/composition.ts). */
export const conversationsJobs: JobHandler[] = [
  processConversationJob.handledBy(async (payload, ctx) => {
    await processConversation(ctx, payload.organizationId, payload.conversationId, ctx.log);
    await requestClustering(ctx.db, payload.organizationId, ctx.config.conversationsClusterDelayMs);
  }),
  clusterIssuesJob.handledBy((payload, ctx) => clusterPendingIssues(ctx, payload.organizationId, ctx.log)),
];
