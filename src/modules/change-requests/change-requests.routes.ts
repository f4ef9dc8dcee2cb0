import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses, PageQuery } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
import * as content from '../content/content.service.ts';
import { pageReadOptions } from '../content/content.routes.ts';
import {
  FileList,
  FilesQuery,
  PagesResponse,
  PageQueryParams,
  Revision,
  RevisionFile,
  RevisionPage,
  RevisionQuery,
} from '../content/content.schemas.ts';
import { applyContentChanges } from './change-requests.batch.ts';
import {
  ChangeRequest,
  ChangeRequestList,
  ChangeRequestParams,
  ChangeRequestReview,
  ChangeRequestReviewList,
  ContentUpdateResult,
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
  UpdateContentBody,
  UpdateContentQuery,
  UpdateResult,
} from './change-requests.schemas.ts';
import * as changeRequests from './change-requests.service.ts';

const tags = ['change-requests'];
const CR = '/v1/spaces/:spaceId/change-requests/:changeRequestId';
const Id = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });
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

  app.post(`${CR}/content`, {
    schema: {
      operationId: 'updateChangeRequestContent',
      tags: ['change-requests-content'],
      summary: 'Apply up to 50 content changes as one revision, all or nothing (edit role)',
      params: ChangeRequestParams,
      querystring: UpdateContentQuery,
      body: UpdateContentBody,
      response: { 200: ContentUpdateResult, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      applyContentChanges(contextOf(request), request.params.spaceId, request.params.changeRequestId, request.body.changes, request.query.compat !== false),
  });

  // Content reads of the change request's head revision, with the space reads' parameters.
  const read = <T>(request: { params: { spaceId: string; changeRequestId: string } } & Parameters<typeof contextOf>[0], fn: (revisionId: string) => T | Promise<T>) =>
    changeRequests.readContent(contextOf(request), request.params.spaceId, request.params.changeRequestId, fn);

  app.get(`${CR}/content`, {
    schema: {
      operationId: 'getRevisionOfChangeRequestById',
      tags: ['change-requests-content'],
      summary: 'The change request’s current revision',
      params: ChangeRequestParams,
      querystring: RevisionQuery,
      response: { 200: ref(Revision), ...errorResponses(400, 401, 404) },
    },
    handler: (request) => read(request, (revisionId) => content.getRevision(contextOf(request), request.params.spaceId, { ...request.query, revisionId })),
  });

  app.get(`${CR}/content/pages`, {
    schema: {
      operationId: 'listPagesInChangeRequest',
      tags: ['change-requests-content'],
      summary: 'The page tree of the change request',
      params: ChangeRequestParams,
      querystring: RevisionQuery,
      response: { 200: PagesResponse, ...errorResponses(400, 401, 404) },
    },
    handler: (request) => read(request, (revisionId) => content.listPages(contextOf(request), request.params.spaceId, { ...request.query, revisionId })),
  });

  app.get(`${CR}/content/files`, {
    schema: {
      operationId: 'listFilesInChangeRequestById',
      tags: ['change-requests-content'],
      summary: 'The files of the change request',
      params: ChangeRequestParams,
      querystring: FilesQuery,
      response: { 200: FileList, ...errorResponses(400, 401, 404) },
    },
    handler: (request) => {
      const { page, limit, ...options } = request.query;
      return read(request, (revisionId) =>
        content.listFiles(contextOf(request), request.params.spaceId, { ...options, revisionId }, pageRequest(request, { page, limit })),
      );
    },
  });

  app.get(`${CR}/content/files/:fileId`, {
    schema: {
      operationId: 'getFileInChangeRequestById',
      tags: ['change-requests-content'],
      summary: 'A file of the change request',
      params: Type.Object({ ...ChangeRequestParams.properties, fileId: Id('The unique id of the file') }),
      querystring: RevisionQuery,
      response: { 200: ref(RevisionFile), ...errorResponses(400, 401, 404) },
    },
    handler: (request) =>
      read(request, (revisionId) => content.getFile(contextOf(request), request.params.spaceId, request.params.fileId, { ...request.query, revisionId })),
  });

  app.get(`${CR}/content/page/:pageId`, {
    schema: {
      operationId: 'getPageInChangeRequestById',
      tags: ['change-requests-content'],
      summary: 'A page of the change request with its body',
      params: Type.Object({ ...ChangeRequestParams.properties, pageId: Id('The unique id of the page') }),
      querystring: PageQueryParams,
      response: { 200: ref(RevisionPage), ...errorResponses(400, 401, 404) },
    },
    handler: (request) =>
      read(request, (revisionId) => content.getPage(contextOf(request), request.params.spaceId, request.params.pageId, pageReadOptions(request.query, revisionId))),
  });

  for (const wildcard of [false, true]) {
    app.get(wildcard ? `${CR}/content/path/*` : `${CR}/content/path/:pagePath`, {
      schema: {
        ...(wildcard ? { hide: true } : { operationId: 'getPageInChangeRequestByPath' }),
        tags: ['change-requests-content'],
        summary: 'A page of the change request by its path',
        params: wildcard
          ? ChangeRequestParams
          : Type.Object({ ...ChangeRequestParams.properties, pagePath: Type.String({ minLength: 1, maxLength: 2048 }) }),
        querystring: PageQueryParams,
        response: { 200: ref(RevisionPage), ...errorResponses(400, 401, 404) },
      },
      handler: (request) => {
        const params = request.params as { spaceId: string; changeRequestId: string; pagePath?: string; '*'?: string };
        return read(request, (revisionId) =>
          content.getPageByPath(contextOf(request), params.spaceId, params.pagePath ?? params['*'] ?? '', pageReadOptions(request.query, revisionId)),
        );
      },
    });
  }
};
