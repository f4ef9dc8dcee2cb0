import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import {
  BacklinkList,
  BacklinksQuery,
  ChangeRequestFileParams,
  ChangeRequestPageParams,
  FileParams,
  LinkListing,
  LinksQuery,
  PageParams,
  SpaceParams,
} from './links.schemas.ts';
import * as links from './links.service.ts';
import { presentBacklinks, presentLinkListing } from './links.presenter.ts';
import { presentReused } from '../../lib/reusable.ts';

/*
 * Link listings and backlinks of a space's current revision and of change requests
 * (spec 4.1 to 4.3). GitBook's OpenAPI document has none of these operations: the
 * operation ids are ours.
 */
const errors = errorResponses(400, 401, 404);
const CR = '/v1/spaces/:spaceId/change-requests/:changeRequestId';

export const linksRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/spaces/:spaceId/links', {
    schema: {
      operationId: 'listSpaceLinks',
      tags: ['spaces'],
      summary: 'Every link target of the space’s current revision, with its status (ok, broken, in-app)',
      params: SpaceParams,
      querystring: LinksQuery,
      response: { 200: LinkListing, ...errors },
    },
    handler: (request) => {
      const { status, page, limit } = request.query;
      return presentReused(links.listSpaceLinks(contextOf(request), request.params.spaceId, status, pageRequest(request, { page, limit })), presentLinkListing);
    },
  });

  app.get('/v1/spaces/:spaceId/content/page/:pageId/links', {
    schema: {
      operationId: 'listSpacePageLinks',
      tags: ['space-content'],
      summary: 'The link targets of one page of the current revision',
      params: PageParams,
      querystring: LinksQuery,
      response: { 200: LinkListing, ...errors },
    },
    handler: (request) => {
      const { status, page, limit } = request.query;
      return presentReused(links.listPageLinks(contextOf(request), request.params.spaceId, request.params.pageId, status, pageRequest(request, { page, limit })), presentLinkListing);
    },
  });

  app.get('/v1/spaces/:spaceId/content/files/:fileId/backlinks', {
    schema: {
      operationId: 'listSpaceFileBacklinks',
      tags: ['space-content'],
      summary: 'The pages of the current revision linking to a file',
      params: FileParams,
      querystring: BacklinksQuery,
      response: { 200: BacklinkList, ...errors },
    },
    handler: async (request) =>
      presentBacklinks(await links.listFileBacklinks(contextOf(request), request.params.spaceId, request.params.fileId, pageRequest(request, request.query))),
  });

  app.get(`${CR}/content/page/:pageId/links`, {
    schema: {
      operationId: 'listChangeRequestPageLinks',
      tags: ['change-requests'],
      summary: 'The link targets of one page of a change request, with the broken links it introduced',
      params: ChangeRequestPageParams,
      querystring: LinksQuery,
      response: { 200: LinkListing, ...errors },
    },
    handler: (request) => {
      const { status, page, limit } = request.query;
      const { spaceId, changeRequestId, pageId } = request.params;
      return presentReused(links.listChangeRequestPageLinks(contextOf(request), spaceId, changeRequestId, pageId, status, pageRequest(request, { page, limit })), presentLinkListing);
    },
  });

  app.get(`${CR}/content/page/:pageId/backlinks`, {
    schema: {
      operationId: 'listChangeRequestPageBacklinks',
      tags: ['change-requests'],
      summary: 'The pages of a change request linking to a page',
      params: ChangeRequestPageParams,
      querystring: BacklinksQuery,
      response: { 200: BacklinkList, ...errors },
    },
    handler: async (request) => {
      const { spaceId, changeRequestId, pageId } = request.params;
      return presentBacklinks(await links.listChangeRequestPageBacklinks(contextOf(request), spaceId, changeRequestId, pageId, pageRequest(request, request.query)));
    },
  });

  app.get(`${CR}/content/files/:fileId/backlinks`, {
    schema: {
      operationId: 'listChangeRequestFileBacklinks',
      tags: ['change-requests'],
      summary: 'The pages of a change request linking to a file',
      params: ChangeRequestFileParams,
      querystring: BacklinksQuery,
      response: { 200: BacklinkList, ...errors },
    },
    handler: async (request) => {
      const { spaceId, changeRequestId, fileId } = request.params;
      return presentBacklinks(await links.listChangeRequestFileBacklinks(contextOf(request), spaceId, changeRequestId, fileId, pageRequest(request, request.query)));
    },
  });
};
