import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { operations } from '../../plugins/operations.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { PageQuery } from '../../schemas/common.ts';
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
import {
  presentChangeRequestResult,
  presentChangeRequestsPage,
  presentContributorsPage,
  presentRequestedReviewers,
  presentRequestedReviewersPage,
  presentReviewResult,
  presentReviewsPage,
} from './change-requests.presenter.ts';
import * as changeRequests from './change-requests.service.ts';

const CR = '/v1/spaces/:spaceId/change-requests/:changeRequestId';
const ListQuery = Type.Object({ ...PageQuery });

export const changeRequestsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const route = operations(app, ['change-requests']);

  route.post('/v1/spaces/:spaceId/change-requests', {
    operationId: 'createChangeRequest', summary: 'Open a change request (edit role)',
    params: SpaceParams, body: CreateChangeRequestBody, optionalBody: true, created: ref(ChangeRequest), location: true,
    handler: async (request) => {
      const ctx = contextOf(request);
      return presentChangeRequestResult(ctx.config, await changeRequests.createChangeRequest(ctx, request.params.spaceId, request.body));
    },
  });

  route.get('/v1/spaces/:spaceId/change-requests', {
    operationId: 'listChangeRequestsForSpace', summary: 'List the change requests of a space (status defaults to open), newest first',
    params: SpaceParams, querystring: ListSpaceChangeRequestsQuery, ok: ChangeRequestList, errors: [400, 401, 404],
    handler: async (request) => {
      const { page, limit, ...filters } = request.query;
      const ctx = contextOf(request);
      return presentChangeRequestsPage(ctx.config, await changeRequests.listSpaceChangeRequests(ctx, request.params.spaceId, filters, pageRequest(request, { page, limit })));
    },
  });

  route.get('/v1/orgs/:organizationId/change-requests', {
    operationId: 'listChangeRequestsForOrganization', summary: 'List the change requests of the spaces the caller can access',
    params: OrganizationParams, querystring: ListOrganizationChangeRequestsQuery, ok: ChangeRequestList, errors: [400, 401, 404],
    handler: async (request) => {
      const { page, limit, ...filters } = request.query;
      const ctx = contextOf(request);
      const result = await changeRequests.listOrganizationChangeRequests(ctx, request.params.organizationId, filters, pageRequest(request, { page, limit }));
      return presentChangeRequestsPage(ctx.config, result);
    },
  });

  route.get(CR, {
    operationId: 'getChangeRequestById', summary: 'Get a change request by id or number', params: ChangeRequestParams, ok: ref(ChangeRequest), errors: [400, 401, 404],
    handler: async (request) => {
      const ctx = contextOf(request);
      return presentChangeRequestResult(ctx.config, await changeRequests.getChangeRequest(ctx, request.params.spaceId, request.params.changeRequestId));
    },
  });

  route.patch(CR, {
    operationId: 'updateChangeRequestById', summary: 'Change the subject, description or status (its creator, or the edit role)',
    params: ChangeRequestParams, body: UpdateChangeRequestBody, ok: ref(ChangeRequest), errors: [400, 401, 403, 404, 409],
    handler: async (request) => {
      const ctx = contextOf(request);
      return presentChangeRequestResult(ctx.config, await changeRequests.updateChangeRequest(ctx, request.params.spaceId, request.params.changeRequestId, request.body));
    },
  });

  route.post(`${CR}/merge`, {
    operationId: 'mergeChangeRequest', summary: 'Merge into the space (review role; merge rules; 409 on conflicts, nothing changed)',
    params: ChangeRequestParams, ok: MergeResult, errors: [400, 401, 403, 404, 409],
    handler: (request) => changeRequests.mergeChangeRequest(contextOf(request), request.params.spaceId, request.params.changeRequestId),
  });

  route.post(`${CR}/update`, {
    operationId: 'updateChangeRequest', summary: 'Bring the space’s changes into the change request (edit role; 409 on conflicts)',
    params: ChangeRequestParams, ok: UpdateResult, errors: [400, 401, 403, 404, 409],
    handler: (request) => changeRequests.updateFromMain(contextOf(request), request.params.spaceId, request.params.changeRequestId),
  });

  route.get(`${CR}/reviews`, {
    operationId: 'getReviewsByChangeRequestId', summary: 'List the reviews, oldest first', params: ChangeRequestParams, querystring: ListQuery, ok: ChangeRequestReviewList, errors: [400, 401, 404],
    handler: async (request) => {
      const ctx = contextOf(request);
      return presentReviewsPage(ctx.config, await changeRequests.listReviews(ctx, request.params.spaceId, request.params.changeRequestId, pageRequest(request, request.query)));
    },
  });

  route.post(`${CR}/reviews`, {
    operationId: 'submitChangeRequestReview', summary: 'Approve or request changes on the current revision (review role)',
    params: ChangeRequestParams, body: SubmitReviewBody, created: ref(ChangeRequestReview), location: true, errors: [400, 401, 403, 404, 409],
    handler: async (request) => {
      const ctx = contextOf(request);
      return presentReviewResult(ctx.config, await changeRequests.submitReview(ctx, request.params.spaceId, request.params.changeRequestId, request.body));
    },
  });

  route.get(`${CR}/reviews/:reviewId`, {
    operationId: 'getChangeRequestReviewById', summary: 'Get a review', params: ReviewParams, ok: ref(ChangeRequestReview), errors: [400, 401, 404],
    handler: async (request) => {
      const ctx = contextOf(request);
      return presentReviewResult(ctx.config, await changeRequests.getReview(ctx, request.params.spaceId, request.params.changeRequestId, request.params.reviewId));
    },
  });

  route.get(`${CR}/requested-reviewers`, {
    operationId: 'getRequestedReviewersByChangeRequestId', summary: 'List the requested reviewers',
    params: ChangeRequestParams, querystring: ListQuery, ok: RequestedReviewerList, errors: [400, 401, 404],
    handler: async (request) => {
      const ctx = contextOf(request);
      const result = await changeRequests.listRequestedReviewers(ctx, request.params.spaceId, request.params.changeRequestId, pageRequest(request, request.query));
      return presentRequestedReviewersPage(ctx.config, result);
    },
  });

  route.post(`${CR}/requested-reviewers`, {
    operationId: 'requestReviewersForChangeRequest', summary: 'Request reviews from members (its creator, or the edit role)',
    params: ChangeRequestParams, body: RequestReviewersBody, ok: RequestReviewersResult, errors: [400, 401, 403, 404, 409],
    handler: async (request) => {
      const ctx = contextOf(request);
      return presentRequestedReviewers(ctx.config, await changeRequests.requestReviewers(ctx, request.params.spaceId, request.params.changeRequestId, request.body));
    },
  });

  route.delete(`${CR}/requested-reviewers/:userId`, {
    operationId: 'removeRequestedReviewerFromChangeRequest', summary: 'Withdraw a review request (its creator, the edit role, or the reviewer); 204 also when absent',
    params: ReviewerParams, noContent: 'The user is not a requested reviewer',
    handler: async (request) => {
      const { spaceId, changeRequestId, userId } = request.params;
      await changeRequests.removeRequestedReviewer(contextOf(request), spaceId, changeRequestId, userId);
    },
  });

  route.get(`${CR}/contributors`, {
    operationId: 'getContributorsByChangeRequestId', summary: 'List the users who edited the change request',
    params: ChangeRequestParams, querystring: ListQuery, ok: ContributorList, errors: [400, 401, 404],
    handler: async (request) => {
      const ctx = contextOf(request);
      return presentContributorsPage(ctx.config, await changeRequests.listContributors(ctx, request.params.spaceId, request.params.changeRequestId, pageRequest(request, request.query)));
    },
  });
};
