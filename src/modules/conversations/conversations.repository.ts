import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { keysetOf, paginate, type Page, type PageRequest } from '../../lib/pagination/index.ts';
import type { ConversationClustersTable, ConversationIssuesTable, ConversationsTable } from '../../db/types.ts';
import type { ListClustersOptions } from './conversations.schemas.ts';

export type ConversationRow = ConversationsTable;
export type IssueRow = ConversationIssuesTable;
export type ClusterRow = ConversationClustersTable;
/** What a cluster listing shows (no centroids). */
export type ClusterView = Omit<ClusterRow, 'centroid_terms' | 'centroid_embedding' | 'words'>;
/** An issue with what its listing shows of its conversation. */
export type IssueView = Omit<IssueRow, 'terms' | 'words' | 'embedding'> & { conversation: ConversationRow };
/** A page of clusters and the time their weekly pulse is counted up to (the listing's read). */
export type ClustersPage = Page<ClusterView> & { now: Date };

const CONVERSATION_COLUMNS = [
  'c.organization_id',
  'c.id',
  'c.subject',
  'c.source',
  'c.metadata',
  'c.parts',
  'c.digest',
  'c.created_at',
  'c.ingested_at',
  'c.processed_at',
  'c.processed_digest',
] as const;
const CLUSTER_VIEW_COLUMNS = ['id', 'organization_id', 'label', 'summary', 'icon', 'created_at', 'updated_at', 'issues', 'conversations', 'sources', 'weeks', 'labeled_issues'] as const;

/** Queries on conversations, their issues and issue clusters. */
/** An organization's issues, each with the fields of its conversation that an issue view shows. */
function issuesWithConversation(db: Db, organizationId: string) {
  return db
      .selectFrom('conversation_issues as i')
      .innerJoin('conversations as c', (join) => join.onRef('c.organization_id', '=', 'i.organization_id').onRef('c.id', '=', 'i.conversation_id'))
      .select(['i.id', 'i.organization_id', 'i.conversation_id', 'i.position', 'i.title', 'i.summary', 'i.created_at', 'i.ingested_at', 'i.cluster_id'])
      .select([
        'c.subject as c_subject',
        'c.source as c_source',
        'c.metadata as c_metadata',
        'c.created_at as c_created_at',
        'c.ingested_at as c_ingested_at',
        'c.processed_at as c_processed_at',
      ])
      .where('i.organization_id', '=', organizationId);
}

export const conversationsRepository = {
  /** Inserts or, for an id the organization already has, replaces the conversation's content. */
  async upsert(db: Db, row: ConversationRow): Promise<void> {
    await db
      .insertInto('conversations')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['organization_id', 'id']).doUpdateSet({
          subject: row.subject,
          source: row.source,
          metadata: row.metadata,
          parts: row.parts,
          digest: row.digest,
          created_at: row.created_at,
        }),
      )
      .execute();
  },

  find(db: Db, organizationId: string, id: string): Promise<ConversationRow | undefined> {
    return db.selectFrom('conversations').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  },

  markProcessed(db: Db, organizationId: string, id: string, digest: string, at: string): Promise<unknown> {
    return db.updateTable('conversations').set({ processed_at: at, processed_digest: digest }).where('organization_id', '=', organizationId).where('id', '=', id).execute();
  },

  listConversations(db: Db, organizationId: string, filter: { source?: string }, page: PageRequest): Promise<Page<ConversationRow>> {
    let query = db.selectFrom('conversations as c').select(CONVERSATION_COLUMNS).where('c.organization_id', '=', organizationId);
    if (filter.source) query = query.where('c.source', '=', filter.source);
    return paginate(
      query,
      keysetOf('desc', 'c.created_at', 'c.id'),
      page,
    ) as Promise<Page<ConversationRow>>;
  },

  issuesOfConversation(db: Db, organizationId: string, conversationId: string): Promise<IssueRow[]> {
    return db
      .selectFrom('conversation_issues')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('conversation_id', '=', conversationId)
      .orderBy('position')
      .execute();
  },

  async insertIssue(db: Db, row: IssueRow): Promise<void> {
    await db.insertInto('conversation_issues').values(row).execute();
  },

  async updateIssue(db: Db, id: string, changes: Partial<IssueRow>): Promise<void> {
    await db.updateTable('conversation_issues').set(changes).where('id', '=', id).execute();
  },

  async deleteIssues(db: Db, ids: string[]): Promise<void> {
    if (ids.length > 0) await db.deleteFrom('conversation_issues').where('id', 'in', ids).execute();
  },

  /** Issues not yet in a cluster, oldest ingested first (the order they are placed in). */
  pendingIssues(db: Db, organizationId: string): Promise<Pick<IssueRow, 'id' | 'terms' | 'embedding'>[]> {
    return db
      .selectFrom('conversation_issues')
      .select(['id', 'terms', 'embedding'])
      .where('organization_id', '=', organizationId)
      .where('cluster_id', 'is', null)
      .orderBy('ingested_at')
      .orderBy('id')
      .execute();
  },

  /** Term vectors of every issue of the organization (for document frequencies). */
  allTerms(db: Db, organizationId: string): Promise<{ terms: string }[]> {
    return db.selectFrom('conversation_issues').select('terms').where('organization_id', '=', organizationId).execute();
  },

  centroids(db: Db, organizationId: string): Promise<Pick<ClusterRow, 'id' | 'centroid_terms' | 'centroid_embedding'>[]> {
    return db
      .selectFrom('conversation_clusters')
      .select(['id', 'centroid_terms', 'centroid_embedding'])
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },

  /** Places issues in a cluster, unless something placed them meanwhile. */
  async assign(db: Db, clusterId: string, issueIds: string[]): Promise<void> {
    for (let i = 0; i < issueIds.length; i += 500) {
      await db
        .updateTable('conversation_issues')
        .set({ cluster_id: clusterId })
        .where('id', 'in', issueIds.slice(i, i + 500))
        .where('cluster_id', 'is', null)
        .execute();
    }
  },

  async insertCluster(db: Db, row: ClusterRow): Promise<void> {
    await db.insertInto('conversation_clusters').values(row).execute();
  },

  async updateCluster(db: Db, id: string, changes: Partial<ClusterRow>): Promise<void> {
    await db.updateTable('conversation_clusters').set(changes).where('id', '=', id).execute();
  },

  async deleteCluster(db: Db, id: string): Promise<void> {
    await db.deleteFrom('conversation_clusters').where('id', '=', id).execute();
  },

  findCluster(db: Db, organizationId: string, id: string): Promise<ClusterRow | undefined> {
    return db.selectFrom('conversation_clusters').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  },

  /** Members of a cluster with their conversation's source, for its centroid and stats. */
  members(db: Db, clusterId: string) {
    return db
      .selectFrom('conversation_issues as i')
      .innerJoin('conversations as c', (join) => join.onRef('c.organization_id', '=', 'i.organization_id').onRef('c.id', '=', 'i.conversation_id'))
      .select(['i.id', 'i.title', 'i.summary', 'i.terms', 'i.words', 'i.embedding', 'i.created_at', 'i.conversation_id', 'c.source'])
      .where('i.cluster_id', '=', clusterId)
      .orderBy('i.created_at')
      .orderBy('i.id')
      .execute();
  },

  listClusters(db: Db, organizationId: string, options: ListClustersOptions, page: PageRequest): Promise<Page<ClusterView>> {
    const query = db.selectFrom('conversation_clusters').select(CLUSTER_VIEW_COLUMNS).where('organization_id', '=', organizationId);
    const column = options.sort === 'createdAt' ? 'created_at' : 'updated_at';
    return paginate(
      query,
      [
        { ref: column, field: column, dir: options.order },
        { ref: 'id', field: 'id', dir: options.order },
      ],
      page,
    ) as Promise<Page<ClusterView>>;
  },

  async listIssues(db: Db, organizationId: string, filter: { cluster?: string; conversation?: string }, page: PageRequest): Promise<Page<IssueView>> {
    let query = issuesWithConversation(db, organizationId);
    if (filter.cluster) query = query.where('i.cluster_id', '=', filter.cluster);
    if (filter.conversation) query = query.where('i.conversation_id', '=', filter.conversation);
    const page_ = await paginate(
      query,
      keysetOf('desc', 'i.created_at', 'i.id'),
      page,
    );
    return { ...page_, items: page_.items.map(issueView) };
  },

  async findIssue(db: Db, organizationId: string, issueId: string): Promise<IssueView | undefined> {
    const row = await issuesWithConversation(db, organizationId)
      .where('i.id', '=', issueId)
      .executeTakeFirst();
    return row ? issueView(row) : undefined;
  },

  /** Whether the organization has this cluster (change requests name one). */
  async clusterExists(db: Db, organizationId: string, id: string): Promise<boolean> {
    const row = await db.selectFrom('conversation_clusters').select(sql<number>`1`.as('one')).where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  },

  /** Change requests opened against `from` now name `to` (a cluster absorbed into another). */
  async repointChangeRequests(db: Db, from: string, to: string | null): Promise<void> {
    await db.updateTable('change_requests').set({ conversations_issues_cluster: to }).where('conversations_issues_cluster', '=', from).execute();
  },
};

function issueView(row: any): IssueView {
  return {
    id: row.id,
    organization_id: row.organization_id,
    conversation_id: row.conversation_id,
    position: row.position,
    title: row.title,
    summary: row.summary,
    created_at: row.created_at,
    ingested_at: row.ingested_at,
    cluster_id: row.cluster_id,
    conversation: {
      organization_id: row.organization_id,
      id: row.conversation_id,
      subject: row.c_subject,
      source: row.c_source,
      metadata: row.c_metadata,
      parts: '[]',
      digest: '',
      created_at: row.c_created_at,
      ingested_at: row.c_ingested_at,
      processed_at: row.c_processed_at,
      processed_digest: null,
    },
  };
}
