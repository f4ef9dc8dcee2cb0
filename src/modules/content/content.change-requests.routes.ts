import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { operations } from '../../plugins/operations.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses, Id } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
import { ChangeRequestParams, ContentUpdateResult, UpdateContentBody, UpdateContentQuery } from '../change-requests/change-requests.schemas.ts';
import { applyContentChanges } from './content.batch.ts';
import { pageReadOptions } from './content.routes.ts';
import { FileList, FilesQuery, PagesResponse, PageQueryParams, Revision, RevisionFile, RevisionPage, RevisionQuery } from './content.schemas.ts';
import * as content from './content.service.ts';
import { contentPresenters, presentContentUpdate, presentFileResult, presentFilesPage, presentRevisionRead } from './content.presenter.ts';
import { presentReused } from '../../lib/reusable.ts';

const CR = '/v1/spaces/:spaceId/change-requests/:changeRequestId';

/*
 * The content of a change request (GitBook's change-requests-content): its batch of changes
 * and the reads of its head revision. Content's, as the space's content reads and
 * editSpaceContent are: the change-requests module keeps the request's life cycle
 * (open, review, merge), and imports nothing of content.
 */
export const changeRequestContentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const route = operations(app, ['change-requests-content']);
  const { config } = app.deps;
  // One set of functions for the app's life, so a cached read is presented once (presentReused).
  const present = contentPresenters(config);

  route.post(`${CR}/content`, {
    operationId: 'updateChangeRequestContent', summary: 'Apply up to 50 content changes as one revision, all or nothing (edit role)',
    params: ChangeRequestParams, querystring: UpdateContentQuery, body: UpdateContentBody, ok: ContentUpdateResult,
    handler: async (request) =>
      presentContentUpdate(config, await applyContentChanges(contextOf(request), request.params.spaceId, request.params.changeRequestId, request.body.changes, request.query.compat !== false)),
  });

  // Content reads of the change request's head revision, with the space reads' parameters.
  const read = <T>(request: { params: { spaceId: string; changeRequestId: string } } & Parameters<typeof contextOf>[0], fn: (revisionId: string) => T | Promise<T>) =>
    content.readChangeRequest(contextOf(request), request.params.spaceId, request.params.changeRequestId, fn);

  route.get(`${CR}/content`, {
    operationId: 'getRevisionOfChangeRequestById', summary: 'The change request’s current revision',
    params: ChangeRequestParams, querystring: RevisionQuery, ok: ref(Revision), errors: [400, 401, 404],
    handler: async (request) => presentRevisionRead(config, present, await read(request, (revisionId) => content.getRevision(contextOf(request), request.params.spaceId, { ...request.query, revisionId }))),
  });

  route.get(`${CR}/content/pages`, {
    operationId: 'listPagesInChangeRequest', summary: 'The page tree of the change request', params: ChangeRequestParams, querystring: RevisionQuery, ok: PagesResponse, errors: [400, 401, 404],
    handler: (request) => presentReused(read(request, (revisionId) => content.listPages(contextOf(request), request.params.spaceId, { ...request.query, revisionId })), present.pages),
  });

  route.get(`${CR}/content/files`, {
    operationId: 'listFilesInChangeRequestById', summary: 'The files of the change request', params: ChangeRequestParams, querystring: FilesQuery, ok: FileList, errors: [400, 401, 404],
    handler: async (request) => {
      const { page, limit, ...options } = request.query;
      return presentFilesPage(
        await read(request, (revisionId) => content.listFiles(contextOf(request), request.params.spaceId, { ...options, revisionId }, pageRequest(request, { page, limit }))),
      );
    },
  });

  route.get(`${CR}/content/files/:fileId`, {
    operationId: 'getFileInChangeRequestById', summary: 'A file of the change request',
    params: Type.Object({ ...ChangeRequestParams.properties, fileId: Id('The unique id of the file') }), querystring: RevisionQuery, ok: ref(RevisionFile), errors: [400, 401, 404],
    handler: async (request) => presentFileResult(await read(request, (revisionId) => content.getFile(contextOf(request), request.params.spaceId, request.params.fileId, { ...request.query, revisionId }))),
  });

  route.get(`${CR}/content/page/:pageId`, {
    operationId: 'getPageInChangeRequestById', summary: 'A page of the change request with its body',
    params: Type.Object({ ...ChangeRequestParams.properties, pageId: Id('The unique id of the page') }), querystring: PageQueryParams, ok: ref(RevisionPage), errors: [400, 401, 404],
    handler: (request) => presentReused(read(request, (revisionId) => content.getPage(contextOf(request), request.params.spaceId, request.params.pageId, pageReadOptions(request.query, revisionId))), present.page),
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
        return presentReused(
          read(request, (revisionId) => content.getPageByPath(contextOf(request), params.spaceId, params.pagePath ?? params['*'] ?? '', pageReadOptions(request.query, revisionId))),
          present.page,
        );
      },
    });
  }
};
