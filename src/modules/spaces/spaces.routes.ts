import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
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

const tags = ['spaces'];

export const spacesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/orgs/:organizationId/spaces', {
    schema: {
      operationId: 'listSpacesInOrganizationById',
      tags,
      summary: 'List the spaces of an organization the caller may see',
      params: OrganizationParams,
      querystring: ListSpacesQuery,
      response: { 200: SpaceList, ...errorResponses(400, 401, 404) },
    },
    handler: (request) => spaces.listSpaces(contextOf(request), request.params.organizationId, pageRequest(request, request.query)),
  });

  app.post('/v1/orgs/:organizationId/spaces', {
    schema: {
      operationId: 'createSpace',
      tags,
      summary: 'Create a space (create role in the organization or in the parent collection)',
      params: OrganizationParams,
      body: CreateSpaceBody,
      response: { 201: ref(Space), ...errorResponses(400, 401, 403, 404) },
    },
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request, reply) => {
      const space = await spaces.createSpace(contextOf(request), request.params.organizationId, request.body);
      return reply.code(201).header('location', space.urls.location).send(space);
    },
  });

  app.get('/v1/collections/:collectionId/spaces', {
    schema: {
      operationId: 'listSpacesInCollectionById',
      tags: ['collections'],
      summary: 'List the spaces of a collection the caller may see',
      params: CollectionParams,
      querystring: ListSpacesQuery,
      response: { 200: SpaceList, ...errorResponses(400, 401, 404) },
    },
    handler: (request) => spaces.listCollectionSpaces(contextOf(request), request.params.collectionId, pageRequest(request, request.query)),
  });

  app.get('/v1/spaces/:spaceId', {
    schema: {
      operationId: 'getSpaceById',
      tags,
      summary: 'Get a space (a share key opens share-link spaces)',
      params: SpaceParams,
      querystring: GetSpaceQuery,
      response: { 200: ref(Space), ...errorResponses(400, 401, 404) },
    },
    handler: (request) => spaces.getSpace(contextOf(request), request.params.spaceId, request.query.shareKey),
  });

  app.patch('/v1/spaces/:spaceId', {
    schema: {
      operationId: 'updateSpaceById',
      tags,
      summary: 'Update a space: title, emoji, language (edit role); editMode, defaultLevel, mergeRules, visibility (admin)',
      params: SpaceParams,
      body: UpdateSpaceBody,
      response: { 200: ref(Space), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => spaces.updateSpace(contextOf(request), request.params.spaceId, request.body),
  });

  app.delete('/v1/spaces/:spaceId', {
    schema: {
      operationId: 'deleteSpaceById',
      tags,
      summary: 'Delete a space (admin): restorable for 7 days, then removed for good; 204 also when absent',
      params: SpaceParams,
      response: { 204: Type.Null({ description: 'The space is deleted' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await spaces.deleteSpace(contextOf(request), request.params.spaceId);
      return reply.code(204).send(null);
    },
  });

  app.post('/v1/spaces/:spaceId/restore', {
    schema: {
      operationId: 'restoreSpace',
      tags,
      summary: 'Restore a space deleted less than 7 days ago (admin)',
      params: SpaceParams,
      response: { 200: ref(Space), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => spaces.restoreSpace(contextOf(request), request.params.spaceId),
  });

  app.post('/v1/spaces/:spaceId/duplicate', {
    schema: {
      operationId: 'duplicateSpace',
      tags,
      summary: 'Duplicate a space: same settings and content, a history of its own',
      params: SpaceParams,
      response: { 201: ref(Space), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const space = await spaces.duplicateSpace(contextOf(request), request.params.spaceId);
      return reply.code(201).header('location', space.urls.location).send(space);
    },
  });

  app.post('/v1/spaces/:spaceId/move', {
    schema: {
      operationId: 'moveSpace',
      tags,
      summary: 'Move a space to another collection (or the root) and/or position (admin)',
      params: SpaceParams,
      body: MoveSpaceBody,
      response: { 200: ref(Space), ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: (request) => spaces.moveSpace(contextOf(request), request.params.spaceId, request.body),
  });

  app.post('/v1/spaces/:spaceId/transfer', {
    schema: {
      operationId: 'transferSpace',
      tags,
      summary: 'Transfer a space to another organization (admin of both)',
      params: SpaceParams,
      body: TransferSpaceBody,
      response: { 200: ref(Space), ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: (request) => spaces.transferSpace(contextOf(request), request.params.spaceId, request.body.organization),
  });
};
