import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import { SearchQueryParams, SpaceParams, SpaceSearchList } from './search.schemas.ts';
import * as search from './search.service.ts';

/*
 * GET {S}/search (GitBook's searchSpaceContent). The organization search ({O}/search,
 * searchOrganizationContent) is served by the organizations module and runs
 * search.service.ts's searchOrganization.
 */
export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/spaces/:spaceId/search', {
    schema: {
      operationId: 'searchSpaceContent',
      tags: ['space-content'],
      summary: 'Full-text search of the pages of a space (current revision), best first',
      params: SpaceParams,
      querystring: SearchQueryParams,
      response: { 200: SpaceSearchList, ...errorResponses(400, 401, 404) },
    },
    handler: (request) => {
      const { query, page, limit } = request.query;
      return search.searchSpace(contextOf(request), request.params.spaceId, query, pageRequest(request, { page, limit }));
    },
  });
};
