import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
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
import * as conversations from './conversations.service.ts';

const tags = ['conversations'];
const O = '/v1/orgs/:organizationId';

export const conversationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
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

  app.get(`${O}/conversations`, {
    schema: {
      operationId: 'listConversations',
      tags,
      summary: 'List the ingested conversations, newest first',
      params: OrganizationParams,
      querystring: ListConversationsQuery,
      response: { 200: ConversationList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => {
      const { page, limit, source } = request.query;
      return conversations.listConversations(contextOf(request), request.params.organizationId, { source }, pageRequest(request, { page, limit }));
    },
  });

  app.get(`${O}/conversations/:conversationId`, {
    schema: {
      operationId: 'getConversation',
      tags,
      summary: 'Get a conversation with its messages and metadata',
      params: ConversationParams,
      response: { 200: ConversationWithParts, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => conversations.getConversation(contextOf(request), request.params.organizationId, request.params.conversationId),
  });

  app.get(`${O}/conversations-issues`, {
    schema: {
      operationId: 'listConversationsIssues',
      tags,
      summary: 'List the documentation issues found in conversations, newest first',
      params: OrganizationParams,
      querystring: ListIssuesQuery,
      response: { 200: IssueList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => {
      const { page, limit, cluster, conversation } = request.query;
      return conversations.listIssues(contextOf(request), request.params.organizationId, { cluster, conversation }, pageRequest(request, { page, limit }));
    },
  });

  app.get(`${O}/conversations-issues/:issueId`, {
    schema: {
      operationId: 'getConversationsIssue',
      tags,
      summary: 'Get a documentation issue with its conversation',
      params: IssueParams,
      response: { 200: IssueWithConversation, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => conversations.getIssue(contextOf(request), request.params.organizationId, request.params.issueId),
  });

  app.get(`${O}/conversations-clusters`, {
    schema: {
      operationId: 'listConversationsIssuesClusters',
      tags,
      summary: 'List the clusters of issues: the documentation problems conversations reveal',
      params: OrganizationParams,
      querystring: ListClustersQuery,
      response: { 200: ClusterList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => {
      const { page, limit, order, sort } = request.query;
      return conversations.listClusters(
        contextOf(request),
        request.params.organizationId,
        { order: order ?? 'desc', sort: sort ?? 'updatedAt' },
        pageRequest(request, { page, limit }),
      );
    },
  });
};

