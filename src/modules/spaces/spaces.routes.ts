import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { operations } from '../../plugins/operations.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { presentReused } from '../../lib/reusable.ts';
import { ref } from '../../schemas/registry.ts';
import type { SpaceResult } from './spaces.model.ts';
import { presentSpaceResult, presentSpaces } from './spaces.presenter.ts';
import {
  CollectionParams,
  CreateSpaceBody,
  GetSpaceQuery,
  ListSpacesQuery,
  MoveSpaceBody,
  OrganizationParams,
  Space,
  SpaceList,
  SpaceParams,
  TransferSpaceBody,
  UpdateSpaceBody,
} from './spaces.schemas.ts';
import * as spaces from './spaces.service.ts';

export const spacesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const route = operations(app, ['spaces']);
  const { config } = app.deps;
  // One function for the app's life, so a reused space is presented once (presentReused).
  const present = (result: SpaceResult) => presentSpaceResult(config, result);

  route.get('/v1/orgs/:organizationId/spaces', {
    operationId: 'listSpacesInOrganizationById', summary: 'List the spaces of an organization the caller may see',
    params: OrganizationParams, querystring: ListSpacesQuery, ok: SpaceList, errors: [400, 401, 404],
    handler: async (request) => presentSpaces(config, await spaces.listSpaces(contextOf(request), request.params.organizationId, pageRequest(request, request.query))),
  });

  route.post('/v1/orgs/:organizationId/spaces', {
    operationId: 'createSpace', summary: 'Create a space (create role in the organization or in the parent collection)',
    params: OrganizationParams, body: CreateSpaceBody, optionalBody: true, created: ref(Space), location: true,
    handler: async (request) => present(await spaces.createSpace(contextOf(request), request.params.organizationId, request.body)),
  });

  route.get('/v1/collections/:collectionId/spaces', {
    operationId: 'listSpacesInCollectionById', tags: ['collections'], summary: 'List the spaces of a collection the caller may see',
    params: CollectionParams, querystring: ListSpacesQuery, ok: SpaceList, errors: [400, 401, 404],
    handler: async (request) => presentSpaces(config, await spaces.listCollectionSpaces(contextOf(request), request.params.collectionId, pageRequest(request, request.query))),
  });

  route.get('/v1/spaces/:spaceId', {
    operationId: 'getSpaceById', summary: 'Get a space (a share key opens share-link spaces)', params: SpaceParams, querystring: GetSpaceQuery, ok: ref(Space), errors: [400, 401, 404],
    handler: (request) => presentReused(spaces.getSpace(contextOf(request), request.params.spaceId, request.query.shareKey), present),
  });

  route.patch('/v1/spaces/:spaceId', {
    operationId: 'updateSpaceById', summary: 'Update a space: title, emoji, language (edit role); editMode, defaultLevel, mergeRules, visibility (admin)',
    params: SpaceParams, body: UpdateSpaceBody, ok: ref(Space),
    handler: async (request) => present(await spaces.updateSpace(contextOf(request), request.params.spaceId, request.body)),
  });

  route.delete('/v1/spaces/:spaceId', {
    operationId: 'deleteSpaceById', summary: 'Delete a space (admin): restorable for 7 days, then removed for good; 204 also when absent', params: SpaceParams, noContent: 'The space is deleted',
    handler: (request) => spaces.deleteSpace(contextOf(request), request.params.spaceId),
  });

  route.post('/v1/spaces/:spaceId/restore', {
    operationId: 'restoreSpace', summary: 'Restore a space deleted less than 7 days ago (admin)', params: SpaceParams, ok: ref(Space),
    handler: async (request) => present(await spaces.restoreSpace(contextOf(request), request.params.spaceId)),
  });

  route.post('/v1/spaces/:spaceId/duplicate', {
    operationId: 'duplicateSpace', summary: 'Duplicate a space: same settings and content, a history of its own', params: SpaceParams, created: ref(Space), location: true,
    handler: async (request) => present(await spaces.duplicateSpace(contextOf(request), request.params.spaceId)),
  });

  route.post('/v1/spaces/:spaceId/move', {
    operationId: 'moveSpace', summary: 'Move a space to another collection (or the root) and/or position (admin)',
    params: SpaceParams, body: MoveSpaceBody, ok: ref(Space), errors: [400, 401, 403, 404, 409],
    handler: async (request) => present(await spaces.moveSpace(contextOf(request), request.params.spaceId, request.body)),
  });

  route.post('/v1/spaces/:spaceId/transfer', {
    operationId: 'transferSpace', summary: 'Transfer a space to another organization (admin of both)', params: SpaceParams, body: TransferSpaceBody, ok: ref(Space), errors: [400, 401, 403, 404, 409],
    handler: async (request) => present(await spaces.transferSpace(contextOf(request), request.params.spaceId, request.body.organization)),
  });
};
