import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { errorResponses } from '../../schemas/common.ts';
import { contentDisposition, presentPdfExport } from './pdf.presenter.ts';
import { ChangeRequestParams, ExportParams, PdfQuery, PdfUrl, SpaceParams } from './pdf.schemas.ts';
import * as pdf from './pdf.service.ts';

/*
 * PDF exports at GitBook's paths (getSpacePDF, getChangeRequestPDF) answer `{ url }`;
 * the URL is Quire's public download route, which serves the file until it expires.
 */
export const pdfRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app.deps;

  app.get('/v1/spaces/:spaceId/pdf', {
    schema: {
      operationId: 'getSpacePDF',
      tags: ['space-content'],
      summary: 'A temporary URL (1 hour) of the space, or of a page, as PDF',
      params: SpaceParams,
      querystring: PdfQuery,
      response: { 200: PdfUrl, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => presentPdfExport(config, await pdf.getSpacePdf(contextOf(request), request.params.spaceId, request.query)),
  });

  app.get('/v1/spaces/:spaceId/change-requests/:changeRequestId/pdf', {
    schema: {
      operationId: 'getChangeRequestPDF',
      tags: ['change-requests'],
      summary: 'A temporary URL (1 hour) of the change request’s draft content, or of a page of it, as PDF',
      params: ChangeRequestParams,
      querystring: PdfQuery,
      response: { 200: PdfUrl, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => presentPdfExport(config, await pdf.getChangeRequestPdf(contextOf(request), request.params.spaceId, request.params.changeRequestId, request.query)),
  });

  // The download: public (the unguessable id is the credential), like signed file URLs.
  app.get('/v1/exports/pdf/:exportId', {
    config: { public: true },
    schema: { hide: true, params: ExportParams },
    handler: async (request, reply) => {
      const { file, row, maxAgeSeconds } = await pdf.readExport(request.server.deps, request.params.exportId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition(row.file_name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', `private, max-age=${maxAgeSeconds}`)
        .header('referrer-policy', 'no-referrer')
        .header('content-length', String(file.size))
        .send(file.stream);
    },
  });
};
