import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { operations } from '../../plugins/operations.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { ref } from '../../schemas/registry.ts';
import {
  Collection,
  CollectionList,
  CollectionParams,
  CreateCollectionBody,
  ListCollectionsQuery,
  MoveCollectionBody,
  OrganizationParams,
  TransferCollectionBody,
  UpdateCollectionBody,
} from './collections.schemas.ts';
import { presentCollectionResult, presentCollectionsPage } from './collections.presenter.ts';
import * as collections from './collections.service.ts';

export const collectionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const route = operations(app, ['collections']);

  route.get('/v1/orgs/:organizationId/collections', {
    operationId: 'listCollectionsInOrganizationById', summary: 'List the collections of an organization the caller can see',
    params: OrganizationParams, querystring: ListCollectionsQuery, ok: CollectionList, errors: [400, 401, 404],
    handler: async (request) => {
      const { nested, ...page } = request.query;
      const ctx = contextOf(request);
      return presentCollectionsPage(ctx.config, await collections.listCollections(ctx, request.params.organizationId, nested !== false, pageRequest(request, page)));
    },
  });

  // GitBook's body is optional (the title defaults).
  route.post('/v1/orgs/:organizationId/collections', {
    operationId: 'createCollection', summary: 'Create a collection (create role at the root, or create on the parent collection)',
    params: OrganizationParams, body: CreateCollectionBody, optionalBody: true, created: ref(Collection), location: true,
    handler: async (request) => {
      const ctx = contextOf(request);
      return presentCollectionResult(ctx.config, await collections.createCollection(ctx, request.params.organizationId, request.body));
    },
  });

  route.get('/v1/collections/:collectionId', {
    operationId: 'getCollectionById', summary: 'Get a collection (anyone with a role on it)', params: CollectionParams, ok: ref(Collection), errors: [400, 401, 404],
    handler: async (request) => {
      const ctx = contextOf(request);
      return presentCollectionResult(ctx.config, await collections.getCollection(ctx, request.params.collectionId));
    },
  });

  route.patch('/v1/collections/:collectionId', {
    operationId: 'updateCollectionById', summary: 'Change the title, description or defaultLevel of a collection (collection admins)',
    params: CollectionParams, body: UpdateCollectionBody, ok: ref(Collection),
    handler: async (request) => {
      const ctx = contextOf(request);
      return presentCollectionResult(ctx.config, await collections.updateCollection(ctx, request.params.collectionId, request.body));
    },
  });

  route.delete('/v1/collections/:collectionId', {
    operationId: 'deleteCollectionById', summary: 'Delete a collection and its sub-collections; their spaces are soft-deleted (collection admins); 204 also when absent',
    params: CollectionParams, noContent: 'The collection is gone',
    handler: (request) => collections.deleteCollection(contextOf(request), request.params.collectionId),
  });

  route.post('/v1/collections/:collectionId/move', {
    operationId: 'moveCollection', summary: 'Move a collection to another parent and/or position (collection admins)', params: CollectionParams, body: MoveCollectionBody, ok: ref(Collection),
    handler: async (request) => {
      const ctx = contextOf(request);
      return presentCollectionResult(ctx.config, await collections.moveCollection(ctx, request.params.collectionId, request.body));
    },
  });

  route.post('/v1/collections/:collectionId/transfer', {
    operationId: 'transferCollection', summary: 'Transfer a collection with its content to another organization (admins of both)',
    params: CollectionParams, body: TransferCollectionBody, ok: ref(Collection), errors: [400, 401, 403, 404, 409],
    handler: async (request) => {
      const ctx = contextOf(request);
      return presentCollectionResult(ctx.config, await collections.transferCollection(ctx, request.params.collectionId, request.body.organization));
    },
  });
};
