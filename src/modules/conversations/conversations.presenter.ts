import type { Config } from '../../config.ts';
import type { Page } from '../../lib/pagination/index.ts';
import { apiUrl } from '../../lib/urls.ts';
import { weeklyPulse } from './conversations.analysis.ts';
import type { ClustersPage, ClusterView, ConversationRow, IssueView } from './conversations.repository.ts';

type Urls = Pick<Config, 'publicUrl'>;
const org = (organizationId: string) => `/orgs/${encodeURIComponent(organizationId)}`;

type ConversationFields = Pick<ConversationRow, 'organization_id' | 'id' | 'subject' | 'source' | 'metadata' | 'created_at' | 'processed_at'>;

/** conversations row -> Conversation wire object. */
export function presentConversation(config: Urls, row: ConversationFields) {
  const metadata = JSON.parse(row.metadata) as { url?: string };
  return {
    object: 'conversation' as const,
    id: row.id,
    subject: row.subject,
    createdAt: row.created_at,
    ...(row.processed_at ? { processedAt: row.processed_at } : {}),
    source: row.source,
    urls: {
      location: apiUrl(config, `${org(row.organization_id)}/conversations/${encodeURIComponent(row.id)}`),
      ...(metadata.url ? { source: metadata.url } : {}),
    },
  };
}

/** GET {O}/conversations/{id}: the conversation, its messages and its metadata as ingested. */
export function presentConversationWithParts(config: Urls, row: ConversationRow) {
  return { conversation: presentConversation(config, row), parts: JSON.parse(row.parts), metadata: JSON.parse(row.metadata) };
}

export function presentIssue(config: Urls, row: IssueView) {
  return {
    object: 'conversation-issue' as const,
    id: row.id,
    title: row.title,
    summary: row.summary,
    createdAt: row.created_at,
    ingestedAt: row.ingested_at,
    conversation: row.conversation_id,
    ...(row.cluster_id ? { cluster: row.cluster_id } : {}),
    urls: { location: apiUrl(config, `${org(row.organization_id)}/conversations-issues/${row.id}`) },
  };
}

/** `{ issue, conversation }`, as the issue endpoints answer. */
export function presentIssueWithConversation(config: Urls, row: IssueView) {
  return { issue: presentIssue(config, row), conversation: presentConversation(config, row.conversation) };
}

/** conversation_clusters row -> issues cluster; the pulse is counted up to `now`'s week. */
export function presentCluster(config: Urls, row: ClusterView, now: Date) {
  return {
    object: 'issues-cluster' as const,
    id: row.id,
    label: row.label,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    icon: row.icon,
    summary: row.summary,
    weeklyPulse: weeklyPulse(JSON.parse(row.weeks), now),
    sources: JSON.parse(row.sources) as Record<string, number>,
    stats: { issues: Number(row.issues), conversations: Number(row.conversations) },
    urls: { location: apiUrl(config, `${org(row.organization_id)}/conversations-issues?cluster=${row.id}`) },
  };
}

export function presentConversationsPage(config: Urls, page: Page<ConversationFields>) {
  return { ...page, items: page.items.map((row) => presentConversation(config, row)) };
}

export function presentIssuesPage(config: Urls, page: Page<IssueView>) {
  return { ...page, items: page.items.map((row) => presentIssueWithConversation(config, row)) };
}

/** A page of clusters, each pulse counted up to the week of the listing's read. */
export function presentClustersPage(config: Urls, page: ClustersPage) {
  const { now, ...rest } = page;
  return { ...rest, items: page.items.map((row) => presentCluster(config, row, now)) };
}
