import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { presentReused } from '../../lib/reusable.ts';
import { operations } from '../../plugins/operations.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import {
  ClusterList,
  ConversationList,
  ConversationParams,
  ConversationWithParts,
  IngestConversationBody,
  IssueList,
  IssueParams,
  IssueWithConversation,
  ListClustersQuery,
  ListConversationsQuery,
  ListIssuesQuery,
  OrganizationParams,
} from './conversations.schemas.ts';
import {
  presentClustersPage,
  presentConversationsPage,
  presentConversationWithParts,
  presentIssuesPage,
  presentIssueWithConversation,
} from './conversations.presenter.ts';
import type { ClustersPage } from './conversations.repository.ts';
import * as conversations from './conversations.service.ts';

const tags = ['conversations'];
const O = '/v1/orgs/:organizationId';

export const conversationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const route = operations(app, tags);
  const { config } = app.deps;
  // One function for the app's life, so a reused page of clusters is presented once (presentReused).
  const presentClusters = (page: ClustersPage) => presentClustersPage(config, page);

  app.post(`${O}/conversations`, {
    // The request's share of the ingest budget, refused (413) while the body streams in,
    // before it is parsed (docs/operations.md "Limits").
    bodyLimit: app.deps.config.conversationsIngestMaxBytes,
    schema: {
      operationId: 'ingestConversation',
      tags,
      summary: 'Ingest a support conversation (ingestConversations permission); the same id again updates it',
      params: OrganizationParams,
      body: IngestConversationBody,
      response: { 204: Type.Null({ description: 'Ingested; processing follows' }), ...errorResponses(400, 401, 403, 404, 413) },
    },
    handler: async (request, reply) => {
      await conversations.ingestConversation(contextOf(request), request.params.organizationId, request.body);
      return reply.code(204).send(null);
    },
  });

  route.get(`${O}/conversations`, {
    operationId: 'listConversations', summary: 'List the ingested conversations, newest first', params: OrganizationParams, querystring: ListConversationsQuery, ok: ConversationList,
    handler: async (request) => {
      const { page, limit, source } = request.query;
      return presentConversationsPage(config, await conversations.listConversations(contextOf(request), request.params.organizationId, { source }, pageRequest(request, { page, limit })));
    },
  });

  route.get(`${O}/conversations/:conversationId`, {
    operationId: 'getConversation', summary: 'Get a conversation with its messages and metadata', params: ConversationParams, ok: ConversationWithParts,
    handler: async (request) =>
      presentConversationWithParts(config, await conversations.getConversation(contextOf(request), request.params.organizationId, request.params.conversationId)),
  });

  route.get(`${O}/conversations-issues`, {
    operationId: 'listConversationsIssues', summary: 'List the documentation issues found in conversations, newest first', params: OrganizationParams, querystring: ListIssuesQuery, ok: IssueList,
    handler: async (request) => {
      const { page, limit, cluster, conversation } = request.query;
      return presentIssuesPage(config, await conversations.listIssues(contextOf(request), request.params.organizationId, { cluster, conversation }, pageRequest(request, { page, limit })));
    },
  });

  route.get(`${O}/conversations-issues/:issueId`, {
    operationId: 'getConversationsIssue', summary: 'Get a documentation issue with its conversation', params: IssueParams, ok: IssueWithConversation,
    handler: async (request) => presentIssueWithConversation(config, await conversations.getIssue(contextOf(request), request.params.organizationId, request.params.issueId)),
  });

  route.get(`${O}/conversations-clusters`, {
    operationId: 'listConversationsIssuesClusters', summary: 'List the clusters of issues: the documentation problems conversations reveal',
    params: OrganizationParams, querystring: ListClustersQuery, ok: ClusterList,
    handler: (request) => {
      const { page, limit, order, sort } = request.query;
      return presentReused(
        conversations.listClusters(contextOf(request), request.params.organizationId, { order: order ?? 'desc', sort: sort ?? 'updatedAt' }, pageRequest(request, { page, limit })),
        presentClusters,
      );
    },
  });
};

