import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
import { Type } from 'typebox';
import {
  ApplyTemplateBody,
  DownloadParams,
  FileList,
  FileParams,
  FilesQuery,
  PageParams,
  PageQueryParams,
  type PageQueryInput,
  PagesResponse,
  PathParams,
  Revision,
  RevisionFile,
  RevisionFileParams,
  RevisionPage,
  RevisionPageParams,
  RevisionParams,
  RevisionPathParams,
  RevisionQuery,
  SpaceParams,
} from './content.schemas.ts';
import * as content from './content.service.ts';
import { contentPresenters, presentFileResult, presentFilesPage, presentRevisionRead } from './content.presenter.ts';
import { presentReused } from '../../lib/reusable.ts';
import { downloadHeaders } from '../../files/serving.ts';

/**
 * A page read's options from its query and the revision named by the path. Written out
 * field by field: `{ ...request.query, revisionId }` (a spread plus a field) took about
 * 0.3 µs per request in V8, a tenth of a cached page read.
 */
export function pageReadOptions(query: PageQueryInput, revisionId: string | undefined): content.PageReadOptions {
  return { revisionId, shareKey: query.shareKey, metadata: query.metadata, computed: query.computed, format: query.format, evaluated: query.evaluated };
}

const tags = ['space-content'];
const errors = errorResponses(400, 401, 404);

/*
 * Reads of a space's content: the current revision under {S}/content, any revision under
 * {S}/revisions/{revisionId}. Paths may hold slashes: GitBook's client URL-encodes them
 * into one segment; a raw `/` is served by a hidden wildcard twin of the path routes.
 */
export const contentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app.deps;
  // One set of functions for the app's life, so a cached read is presented once (presentReused).
  const present = contentPresenters(config);
  for (const scope of ['current', 'revision'] as const) {
    const base = scope === 'current' ? '/v1/spaces/:spaceId/content' : '/v1/spaces/:spaceId/revisions/:revisionId';
    const names =
      scope === 'current'
        ? { revision: 'getCurrentRevision', pages: 'listPages', files: 'listFiles', file: 'getFileById', page: 'getPageById', path: 'getPageByPath' }
        : {
            revision: 'getRevisionById',
            pages: 'listPagesInRevisionById',
            files: 'listFilesInRevisionById',
            file: 'getFileInRevisionById',
            page: 'getPageInRevisionById',
            path: 'getPageInRevisionByPath',
          };
    const revisionOf = (params: { revisionId?: string }) => (scope === 'revision' ? params.revisionId : undefined);

    app.get(scope === 'current' ? base : base, {
      schema: {
        operationId: names.revision,
        tags,
        summary: scope === 'current' ? 'The current revision of a space' : 'A revision of a space',
        params: scope === 'current' ? SpaceParams : RevisionParams,
        querystring: RevisionQuery,
        response: { 200: ref(Revision), ...errors },
      },
      handler: async (request) =>
        presentRevisionRead(
          config,
          present,
          await content.getRevision(contextOf(request), request.params.spaceId, { ...request.query, revisionId: revisionOf(request.params as { revisionId?: string }) }),
        ),
    });

    app.get(`${base}/pages`, {
      schema: {
        operationId: names.pages,
        tags,
        summary: 'The page tree of the revision',
        params: scope === 'current' ? SpaceParams : RevisionParams,
        querystring: RevisionQuery,
        response: { 200: PagesResponse, ...errors },
      },
      handler: (request) =>
        presentReused(content.listPages(contextOf(request), request.params.spaceId, { ...request.query, revisionId: revisionOf(request.params as { revisionId?: string }) }), present.pages),
    });

    app.get(`${base}/files`, {
      schema: {
        operationId: names.files,
        tags,
        summary: 'The files of the revision, by id',
        params: scope === 'current' ? SpaceParams : RevisionParams,
        querystring: FilesQuery,
        response: { 200: FileList, ...errors },
      },
      handler: async (request) => {
        const { page, limit, ...options } = request.query;
        return presentFilesPage(
          await content.listFiles(
            contextOf(request),
            request.params.spaceId,
            { ...options, revisionId: revisionOf(request.params as { revisionId?: string }) },
            pageRequest(request, { page, limit }),
          ),
        );
      },
    });

    app.get(`${base}/files/:fileId`, {
      schema: {
        operationId: names.file,
        tags,
        summary: 'A file of the revision',
        params: scope === 'current' ? FileParams : RevisionFileParams,
        querystring: RevisionQuery,
        response: { 200: ref(RevisionFile), ...errors },
      },
      handler: async (request) =>
        presentFileResult(
          await content.getFile(contextOf(request), request.params.spaceId, request.params.fileId, {
            ...request.query,
            revisionId: revisionOf(request.params as { revisionId?: string }),
          }),
        ),
    });

    app.get(`${base}/page/:pageId`, {
      schema: {
        operationId: names.page,
        tags,
        summary: 'A page of the revision with its body (format document or markdown)',
        params: scope === 'current' ? PageParams : RevisionPageParams,
        querystring: PageQueryParams,
        response: { 200: ref(RevisionPage), ...errors },
      },
      handler: (request) =>
        presentReused(
          content.getPage(contextOf(request), request.params.spaceId, request.params.pageId, pageReadOptions(request.query, revisionOf(request.params as { revisionId?: string }))),
          present.page,
        ),
    });

    for (const wildcard of [false, true]) {
      app.get(wildcard ? `${base}/path/*` : `${base}/path/:pagePath`, {
        schema: {
          ...(wildcard ? { hide: true } : { operationId: names.path }),
          tags,
          summary: 'A page of the revision by its path',
          params: wildcard ? (scope === 'current' ? SpaceParams : RevisionParams) : scope === 'current' ? PathParams : RevisionPathParams,
          querystring: PageQueryParams,
          response: { 200: ref(RevisionPage), ...errors },
        },
        handler: (request) => {
          const params = request.params as { spaceId: string; revisionId?: string; pagePath?: string; '*'?: string };
          return presentReused(content.getPageByPath(contextOf(request), params.spaceId, params.pagePath ?? params['*'] ?? '', pageReadOptions(request.query, revisionOf(params))), present.page);
        },
      });
    }
  }

  app.post('/v1/spaces/:spaceId/content/template', {
    schema: {
      operationId: 'applyTemplateToSpace',
      tags,
      summary: 'Add a built-in template’s pages to the space (edit role)',
      params: SpaceParams,
      body: ApplyTemplateBody,
      response: { 201: Type.Unsafe<undefined>({ description: 'Template applied (no body)' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await content.applyTemplate(contextOf(request), request.params.spaceId, request.body);
      // GitBook answers 201 without a body.
      return reply.code(201).send(undefined);
    },
  });

  // Outside /v1: uploaded files are served on their own path (optionally their own origin,
  // DOWNLOAD_URL), as attachments unless inert, sandboxed, never sniffed (src/files/serving.ts).
  // The query (type, sig) is checked whole by the file store: anything unsigned is a 404.
  app.get('/downloads/blobs/:scope/:hash/:name', {
    config: { public: true },
    schema: { hide: true, params: DownloadParams },
    handler: async (request, reply) => {
      const { target, file } = await content.openFileDownload(request.server.deps, { area: 'blobs', ...request.params }, request.query as Record<string, unknown>);
      return reply
        .headers(downloadHeaders({ name: target.name, contentType: target.contentType, size: file.size }))
        .header('cache-control', 'private, max-age=31536000, immutable')
        .send(file.stream);
    },
  });
};
