import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
import {
  CreateSpecBody,
  ListQuery,
  OpenAPISpec,
  OpenAPISpecContent,
  OpenAPISpecRawContent,
  OpenAPISpecVersion,
  OrganizationParams,
  PatchSpecBody,
  PublicSpecParams,
  PutSpecBody,
  SpecList,
  SpecParams,
  VersionList,
  VersionParams,
} from './openapi-specs.schemas.ts';
import * as specs from './openapi-specs.service.ts';

const tags = ['openapi'];
const O = '/v1/orgs/:organizationId';
const S = `${O}/openapi/:specSlug`;

export const openapiSpecsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(`${O}/openapi`, {
    schema: { operationId: 'listOpenAPISpecs', tags, summary: 'List the organization’s OpenAPI specs', params: OrganizationParams, querystring: ListQuery, response: { 200: SpecList, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => specs.listSpecs(contextOf(request), request.params.organizationId, pageRequest(request, request.query)),
  });

  app.post(`${O}/openapi`, {
    schema: {
      operationId: 'createOpenAPISpec',
      tags,
      summary: 'Create a spec from a URL or a text; it is processed in the background',
      params: OrganizationParams,
      body: CreateSpecBody,
      response: { 201: ref(OpenAPISpec), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => reply.code(201).send(await specs.createSpec(contextOf(request), request.params.organizationId, request.body)),
  });

  app.get(S, {
    schema: { operationId: 'getOpenAPISpecBySlug', tags, summary: 'Get a spec', params: SpecParams, response: { 200: ref(OpenAPISpec), ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => specs.getSpec(contextOf(request), request.params.organizationId, request.params.specSlug),
  });

  app.put(S, {
    schema: {
      operationId: 'createOrUpdateOpenAPISpecBySlug',
      tags,
      summary: 'Create (201) or replace the source of (200) a spec, and process it again',
      params: SpecParams,
      body: PutSpecBody,
      response: { 200: ref(OpenAPISpec), 201: ref(OpenAPISpec), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const { created, spec } = await specs.putSpec(contextOf(request), request.params.organizationId, request.params.specSlug, request.body);
      return reply.code(created ? 201 : 200).send(spec);
    },
  });

  app.patch(S, {
    schema: {
      operationId: 'updateOpenAPISpecBySlug',
      tags,
      summary: 'Change a spec’s visibility',
      params: SpecParams,
      body: PatchSpecBody,
      response: { 200: ref(OpenAPISpec), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => specs.updateVisibility(contextOf(request), request.params.organizationId, request.params.specSlug, request.body.visibility),
  });

  app.delete(S, {
    schema: { operationId: 'deleteOpenAPISpecBySlug', tags, summary: 'Delete a spec and its versions (204, also when absent)', params: SpecParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) } },
    handler: async (request, reply) => {
      await specs.deleteSpec(contextOf(request), request.params.organizationId, request.params.specSlug);
      return reply.code(204).send(null);
    },
  });

  app.get(`${S}/versions`, {
    schema: { operationId: 'listOpenAPISpecVersions', tags, summary: 'List a spec’s versions, newest first', params: SpecParams, querystring: ListQuery, response: { 200: VersionList, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => specs.listVersions(contextOf(request), request.params.organizationId, request.params.specSlug, pageRequest(request, request.query)),
  });

  app.get(`${S}/versions/latest`, {
    schema: { operationId: 'getLatestOpenAPISpecVersion', tags, summary: 'Get the latest version', params: SpecParams, response: { 200: ref(OpenAPISpecVersion), ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => specs.getVersion(contextOf(request), request.params.organizationId, request.params.specSlug, 'latest'),
  });

  app.get(`${S}/versions/latest/content`, {
    schema: {
      operationId: 'getLatestOpenAPISpecVersionContent',
      tags,
      summary: 'The latest version’s files',
      params: SpecParams,
      response: { 200: OpenAPISpecContent, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => specs.getVersionContent(contextOf(request), request.params.organizationId, request.params.specSlug, 'latest'),
  });

  app.get(`${S}/versions/latest/content/raw`, {
    schema: {
      operationId: 'getLatestOpenAPISpecVersionContentRaw',
      tags,
      summary: 'The latest version’s entrypoint, exactly as fetched or uploaded',
      params: SpecParams,
      response: { 200: OpenAPISpecRawContent, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => specs.getRawContent(contextOf(request), request.params.organizationId, request.params.specSlug, 'latest'),
  });

  app.get(`${S}/versions/:versionId`, {
    schema: { operationId: 'getOpenAPISpecVersionById', tags, summary: 'Get a version', params: VersionParams, response: { 200: ref(OpenAPISpecVersion), ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => specs.getVersion(contextOf(request), request.params.organizationId, request.params.specSlug, request.params.versionId),
  });

  app.get(`${S}/versions/:versionId/content`, {
    schema: {
      operationId: 'getOpenAPISpecVersionContentById',
      tags,
      summary: 'A version’s files',
      params: VersionParams,
      response: { 200: OpenAPISpecContent, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => specs.getVersionContent(contextOf(request), request.params.organizationId, request.params.specSlug, request.params.versionId),
  });

  // A public spec's latest document, for anyone (no token): JSON or YAML, with an ETag.
  app.get('/openapi/:organizationId/:file', {
    config: { public: true },
    schema: { hide: true, params: PublicSpecParams },
    handler: async (request, reply) => {
      const { organizationId, file } = request.params;
      const format = file.endsWith('.yaml') ? 'yaml' : 'json';
      const slug = file.slice(0, file.lastIndexOf('.'));
      const { body, etag } = await specs.publicDocument(request.server.deps, organizationId, slug, format);
      reply.header('etag', etag).header('cache-control', 'public, max-age=60, must-revalidate').header('access-control-allow-origin', '*');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.header('content-type', format === 'json' ? 'application/json; charset=utf-8' : 'application/yaml; charset=utf-8').send(body);
    },
  });
};
