import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { operations } from '../../plugins/operations.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { ref } from '../../schemas/registry.ts';
import {
  AddSiteSpaceBody,
  ListSiteSpacesQuery,
  MoveSiteSpaceBody,
  SiteParams,
  SiteSpace,
  SiteSpaceList,
  SiteSpaceParams,
  UpdateSiteSpaceBody,
} from './site-spaces.schemas.ts';
import { presentPlaced, presentSiteSpaces } from './site-sections.presenter.ts';
import * as siteSpaces from './site-spaces.service.ts';

export const siteSpacesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const route = operations(app, ['site-spaces']);
  const { config } = app.deps;

  route.get('/v1/orgs/:organizationId/sites/:siteId/site-spaces', {
    operationId: 'listSiteSpaces', summary: 'List the site spaces of a site, in structure order', params: SiteParams, querystring: ListSiteSpacesQuery, ok: SiteSpaceList,
    handler: async (request) => {
      const { page, limit, shareKey, default: onlyDefault } = request.query;
      const result = await siteSpaces.listSiteSpaces(
        contextOf(request),
        request.params.organizationId,
        request.params.siteId,
        { shareKey, default: onlyDefault },
        pageRequest(request, { page, limit }),
      );
      return presentSiteSpaces(config, result);
    },
  });

  route.post('/v1/orgs/:organizationId/sites/:siteId/site-spaces', {
    operationId: 'addSpaceToSite', summary: 'Attach a space to a site: into a section, the default section, or the root', params: SiteParams, body: AddSiteSpaceBody, created: ref(SiteSpace),
    handler: async (request) => presentPlaced(config, await siteSpaces.addSiteSpace(contextOf(request), request.params.organizationId, request.params.siteId, request.body)),
  });

  route.patch('/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId', {
    operationId: 'updateSiteSpaceById', summary: 'Update a site space: path, condition, space',
    params: SiteSpaceParams, body: UpdateSiteSpaceBody, ok: ref(SiteSpace), errors: [400, 401, 403, 404, 409],
    handler: async (request) => presentPlaced(config, await siteSpaces.updateSiteSpace(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSpaceId, request.body)),
  });

  route.delete('/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId', {
    operationId: 'deleteSiteSpaceById', summary: 'Detach a space from a site; 204 also when absent', params: SiteSpaceParams, noContent: 'The site space is gone',
    handler: (request) => siteSpaces.deleteSiteSpace(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSpaceId),
  });

  route.post('/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/move', {
    operationId: 'moveSiteSpace', summary: 'Move a site space (deprecated: use sortSiteStructure)',
    params: SiteSpaceParams, body: MoveSiteSpaceBody, deprecated: true, optionalBody: true, ok: ref(SiteSpace),
    handler: async (request) => presentPlaced(config, await siteSpaces.moveSiteSpace(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSpaceId, request.body)),
  });
};
