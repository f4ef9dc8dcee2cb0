import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import { OrganizationParams } from '../organizations/organizations.schemas.ts';
import { OrganizationSearchList, SearchQuery, SearchQueryParams, SpaceParams, SpaceSearchList } from './search.schemas.ts';
import { presentOrganizationSearch, presentSpaceSearch } from './search.presenter.ts';
import * as search from './search.service.ts';

/*
 * GET {S}/search (GitBook's searchSpaceContent) and GET {O}/search (searchOrganizationContent,
 * under GitBook's organizations tag, with the organizations module's wire shapes).
 */
export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app.deps;

  app.get('/v1/spaces/:spaceId/search', {
    schema: {
      operationId: 'searchSpaceContent',
      tags: ['space-content'],
      summary: 'Full-text search of the pages of a space (current revision), best first',
      params: SpaceParams,
      querystring: SearchQueryParams,
      response: { 200: SpaceSearchList, ...errorResponses(400, 401, 404) },
    },
    handler: async (request) => {
      const { query, page, limit } = request.query;
      return presentSpaceSearch(config, await search.searchSpace(contextOf(request), request.params.spaceId, query, pageRequest(request, { page, limit })));
    },
  });

  app.get('/v1/orgs/:organizationId/search', {
    schema: {
      operationId: 'searchOrganizationContent',
      tags: ['organizations'],
      summary: 'Search the content of every space the caller may read',
      params: OrganizationParams,
      querystring: SearchQuery,
      response: { 200: OrganizationSearchList, ...errorResponses(400, 401, 404) },
    },
    handler: async (request) => {
      const { query, page, limit } = request.query;
      return presentOrganizationSearch(config, await search.searchOrganization(contextOf(request), request.params.organizationId, query, pageRequest(request, { page, limit })));
    },
  });
};
