import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses, PageQuery } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
import {
  ChangeRequest,
  ChangeRequestList,
  ChangeRequestParams,
  ChangeRequestReview,
  ChangeRequestReviewList,
  ContributorList,
  CreateChangeRequestBody,
  ListOrganizationChangeRequestsQuery,
  ListSpaceChangeRequestsQuery,
  MergeResult,
  OrganizationParams,
  RequestedReviewerList,
  RequestReviewersBody,
  RequestReviewersResult,
  ReviewerParams,
  ReviewParams,
  SpaceParams,
  SubmitReviewBody,
  UpdateChangeRequestBody,
  UpdateResult,
} from './change-requests.schemas.ts';
import * as changeRequests from './change-requests.service.ts';

const tags = ['change-requests'];
const CR = '/v1/spaces/:spaceId/change-requests/:changeRequestId';
const ListQuery = Type.Object({ ...PageQuery });

export const changeRequestsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/v1/spaces/:spaceId/change-requests', {
    schema: {
      operationId: 'createChangeRequest',
      tags,
      summary: 'Open a change request (edit role)',
      params: SpaceParams,
      body: CreateChangeRequestBody,
      response: { 201: ref(ChangeRequest), ...errorResponses(400, 401, 403, 404) },
    },
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request, reply) => {
      const created = await changeRequests.createChangeRequest(contextOf(request), request.params.spaceId, request.body);
      return reply.code(201).header('location', created.urls.location).send(created);
    },
  });

  app.get('/v1/spaces/:spaceId/change-requests', {
    schema: {
      operationId: 'listChangeRequestsForSpace',
      tags,
      summary: 'List the change requests of a space (status defaults to open), newest first',
      params: SpaceParams,
      querystring: ListSpaceChangeRequestsQuery,
      response: { 200: ChangeRequestList, ...errorResponses(400, 401, 404) },
    },
    handler: (request) => {
      const { page, limit, ...filters } = request.query;
      return changeRequests.listSpaceChangeRequests(contextOf(request), request.params.spaceId, filters, pageRequest(request, { page, limit }));
    },
  });

  app.get('/v1/orgs/:organizationId/change-requests', {
    schema: {
      operationId: 'listChangeRequestsForOrganization',
      tags,
      summary: 'List the change requests of the spaces the caller can access',
      params: OrganizationParams,
      querystring: ListOrganizationChangeRequestsQuery,
      response: { 200: ChangeRequestList, ...errorResponses(400, 401, 404) },
    },
    handler: (request) => {
      const { page, limit, ...filters } = request.query;
      return changeRequests.listOrganizationChangeRequests(contextOf(request), request.params.organizationId, filters, pageRequest(request, { page, limit }));
    },
  });

  app.get(CR, {
    schema: {
      operationId: 'getChangeRequestById',
      tags,
      summary: 'Get a change request by id or number',
      params: ChangeRequestParams,
      response: { 200: ref(ChangeRequest), ...errorResponses(400, 401, 404) },
    },
    handler: (request) => changeRequests.getChangeRequest(contextOf(request), request.params.spaceId, request.params.changeRequestId),
  });

  app.patch(CR, {
    schema: {
      operationId: 'updateChangeRequestById',
      tags,
      summary: 'Change the subject, description or status (its creator, or the edit role)',
      params: ChangeRequestParams,
      body: UpdateChangeRequestBody,
      response: { 200: ref(ChangeRequest), ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: (request) =>
      changeRequests.updateChangeRequest(contextOf(request), request.params.spaceId, request.params.changeRequestId, request.body),
  });

  app.post(`${CR}/merge`, {
    schema: {
      operationId: 'mergeChangeRequest',
      tags,
      summary: 'Merge into the space (review role; merge rules; 409 on conflicts, nothing changed)',
      params: ChangeRequestParams,
      response: { 200: MergeResult, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: (request) => changeRequests.mergeChangeRequest(contextOf(request), request.params.spaceId, request.params.changeRequestId),
  });

  app.post(`${CR}/update`, {
    schema: {
      operationId: 'updateChangeRequest',
      tags,
      summary: 'Bring the space’s changes into the change request (edit role; 409 on conflicts)',
      params: ChangeRequestParams,
      response: { 200: UpdateResult, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: (request) => changeRequests.updateFromMain(contextOf(request), request.params.spaceId, request.params.changeRequestId),
  });

  app.get(`${CR}/reviews`, {
    schema: {
      operationId: 'getReviewsByChangeRequestId',
      tags,
      summary: 'List the reviews, oldest first',
      params: ChangeRequestParams,
      querystring: ListQuery,
      response: { 200: ChangeRequestReviewList, ...errorResponses(400, 401, 404) },
    },
    handler: (request) =>
      changeRequests.listReviews(contextOf(request), request.params.spaceId, request.params.changeRequestId, pageRequest(request, request.query)),
  });

  app.post(`${CR}/reviews`, {
    schema: {
      operationId: 'submitChangeRequestReview',
      tags,
      summary: 'Approve or request changes on the current revision (review role)',
      params: ChangeRequestParams,
      body: SubmitReviewBody,
      response: { 201: ref(ChangeRequestReview), ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request, reply) => {
      const review = await changeRequests.submitReview(contextOf(request), request.params.spaceId, request.params.changeRequestId, request.body);
      return reply.code(201).header('location', review.urls.location).send(review);
    },
  });

  app.get(`${CR}/reviews/:reviewId`, {
    schema: {
      operationId: 'getChangeRequestReviewById',
      tags,
      summary: 'Get a review',
      params: ReviewParams,
      response: { 200: ref(ChangeRequestReview), ...errorResponses(400, 401, 404) },
    },
    handler: (request) =>
      changeRequests.getReview(contextOf(request), request.params.spaceId, request.params.changeRequestId, request.params.reviewId),
  });

  app.get(`${CR}/requested-reviewers`, {
    schema: {
      operationId: 'getRequestedReviewersByChangeRequestId',
      tags,
      summary: 'List the requested reviewers',
      params: ChangeRequestParams,
      querystring: ListQuery,
      response: { 200: RequestedReviewerList, ...errorResponses(400, 401, 404) },
    },
    handler: (request) =>
      changeRequests.listRequestedReviewers(contextOf(request), request.params.spaceId, request.params.changeRequestId, pageRequest(request, request.query)),
  });

  app.post(`${CR}/requested-reviewers`, {
    schema: {
      operationId: 'requestReviewersForChangeRequest',
      tags,
      summary: 'Request reviews from members (its creator, or the edit role)',
      params: ChangeRequestParams,
      body: RequestReviewersBody,
      response: { 200: RequestReviewersResult, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: (request) =>
      changeRequests.requestReviewers(contextOf(request), request.params.spaceId, request.params.changeRequestId, request.body),
  });

  app.delete(`${CR}/requested-reviewers/:userId`, {
    schema: {
      operationId: 'removeRequestedReviewerFromChangeRequest',
      tags,
      summary: 'Withdraw a review request (its creator, the edit role, or the reviewer); 204 also when absent',
      params: ReviewerParams,
      response: { 204: Type.Null({ description: 'The user is not a requested reviewer' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const { spaceId, changeRequestId, userId } = request.params;
      await changeRequests.removeRequestedReviewer(contextOf(request), spaceId, changeRequestId, userId);
      return reply.code(204).send(null);
    },
  });

  app.get(`${CR}/contributors`, {
    schema: {
      operationId: 'getContributorsByChangeRequestId',
      tags,
      summary: 'List the users who edited the change request',
      params: ChangeRequestParams,
      querystring: ListQuery,
      response: { 200: ContributorList, ...errorResponses(400, 401, 404) },
    },
    handler: (request) =>
      changeRequests.listContributors(contextOf(request), request.params.spaceId, request.params.changeRequestId, pageRequest(request, request.query)),
  });
};
