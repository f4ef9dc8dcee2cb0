import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
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
import * as siteSpaces from './site-spaces.service.ts';

const tags = ['site-spaces'];

export const siteSpacesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/orgs/:organizationId/sites/:siteId/site-spaces', {
    schema: {
      operationId: 'listSiteSpaces',
      tags,
      summary: 'List the site spaces of a site, in structure order',
      params: SiteParams,
      querystring: ListSiteSpacesQuery,
      response: { 200: SiteSpaceList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => {
      const { page, limit, shareKey, default: onlyDefault } = request.query;
      return siteSpaces.listSiteSpaces(
        contextOf(request),
        request.params.organizationId,
        request.params.siteId,
        { shareKey, default: onlyDefault },
        pageRequest(request, { page, limit }),
      );
    },
  });

  app.post('/v1/orgs/:organizationId/sites/:siteId/site-spaces', {
    schema: {
      operationId: 'addSpaceToSite',
      tags,
      summary: 'Attach a space to a site: into a section, the default section, or the root',
      params: SiteParams,
      body: AddSiteSpaceBody,
      response: { 201: ref(SiteSpace), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const created = await siteSpaces.addSiteSpace(contextOf(request), request.params.organizationId, request.params.siteId, request.body);
      return reply.code(201).send(created);
    },
  });

  app.patch('/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId', {
    schema: {
      operationId: 'updateSiteSpaceById',
      tags,
      summary: 'Update a site space: path, condition, space',
      params: SiteSpaceParams,
      body: UpdateSiteSpaceBody,
      response: { 200: ref(SiteSpace), ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: (request) =>
      siteSpaces.updateSiteSpace(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSpaceId, request.body),
  });

  app.delete('/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId', {
    schema: {
      operationId: 'deleteSiteSpaceById',
      tags,
      summary: 'Detach a space from a site; 204 also when absent',
      params: SiteSpaceParams,
      response: { 204: Type.Null({ description: 'The site space is gone' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await siteSpaces.deleteSiteSpace(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSpaceId);
      return reply.code(204).send(null);
    },
  });

  app.post('/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/move', {
    schema: {
      operationId: 'moveSiteSpace',
      tags,
      summary: 'Move a site space (deprecated: use sortSiteStructure)',
      deprecated: true,
      params: SiteSpaceParams,
      body: MoveSiteSpaceBody,
      response: { 200: ref(SiteSpace), ...errorResponses(400, 401, 403, 404) },
    },
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: (request) =>
      siteSpaces.moveSiteSpace(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSpaceId, request.body),
  });
};
