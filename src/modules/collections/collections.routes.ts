import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
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
import * as collections from './collections.service.ts';

const tags = ['collections'];

export const collectionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/orgs/:organizationId/collections', {
    schema: {
      operationId: 'listCollectionsInOrganizationById',
      tags,
      summary: 'List the collections of an organization the caller can see',
      params: OrganizationParams,
      querystring: ListCollectionsQuery,
      response: { 200: CollectionList, ...errorResponses(400, 401, 404) },
    },
    handler: (request) => {
      const { nested, ...page } = request.query;
      return collections.listCollections(contextOf(request), request.params.organizationId, nested !== false, pageRequest(request, page));
    },
  });

  app.post('/v1/orgs/:organizationId/collections', {
    schema: {
      operationId: 'createCollection',
      tags,
      summary: 'Create a collection (create role at the root, or create on the parent collection)',
      params: OrganizationParams,
      body: CreateCollectionBody,
      response: { 201: ref(Collection), ...errorResponses(400, 401, 403, 404) },
    },
    // GitBook's body is optional (the title defaults): no body reads as `{}`.
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request, reply) => {
      const collection = await collections.createCollection(contextOf(request), request.params.organizationId, request.body);
      return reply.code(201).header('location', collection.urls.location).send(collection);
    },
  });

  app.get('/v1/collections/:collectionId', {
    schema: {
      operationId: 'getCollectionById',
      tags,
      summary: 'Get a collection (anyone with a role on it)',
      params: CollectionParams,
      response: { 200: ref(Collection), ...errorResponses(400, 401, 404) },
    },
    handler: (request) => collections.getCollection(contextOf(request), request.params.collectionId),
  });

  app.patch('/v1/collections/:collectionId', {
    schema: {
      operationId: 'updateCollectionById',
      tags,
      summary: 'Change the title, description or defaultLevel of a collection (collection admins)',
      params: CollectionParams,
      body: UpdateCollectionBody,
      response: { 200: ref(Collection), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => collections.updateCollection(contextOf(request), request.params.collectionId, request.body),
  });

  app.delete('/v1/collections/:collectionId', {
    schema: {
      operationId: 'deleteCollectionById',
      tags,
      summary: 'Delete a collection and its sub-collections; their spaces are soft-deleted (collection admins); 204 also when absent',
      params: CollectionParams,
      response: { 204: Type.Null({ description: 'The collection is gone' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await collections.deleteCollection(contextOf(request), request.params.collectionId);
      return reply.code(204).send(null);
    },
  });

  app.post('/v1/collections/:collectionId/move', {
    schema: {
      operationId: 'moveCollection',
      tags,
      summary: 'Move a collection to another parent and/or position (collection admins)',
      params: CollectionParams,
      body: MoveCollectionBody,
      response: { 200: ref(Collection), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => collections.moveCollection(contextOf(request), request.params.collectionId, request.body),
  });

  app.post('/v1/collections/:collectionId/transfer', {
    schema: {
      operationId: 'transferCollection',
      tags,
      summary: 'Transfer a collection with its content to another organization (admins of both)',
      params: CollectionParams,
      body: TransferCollectionBody,
      response: { 200: ref(Collection), ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: (request) => collections.transferCollection(contextOf(request), request.params.collectionId, request.body.organization),
  });
};
