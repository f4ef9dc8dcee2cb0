import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { operations } from '../../plugins/operations.ts';
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
import {
  presentContentResult,
  presentSpecResult,
  presentSpecsPage,
  presentVersionResult,
  presentVersionsPage,
} from './openapi-specs.presenter.ts';
import * as specs from './openapi-specs.service.ts';

const tags = ['openapi'];
const O = '/v1/orgs/:organizationId';
const S = `${O}/openapi/:specSlug`;

export const openapiSpecsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const route = operations(app, tags);
  const { config } = app.deps;

  route.get(`${O}/openapi`, {
    operationId: 'listOpenAPISpecs', summary: 'List the organization’s OpenAPI specs', params: OrganizationParams, querystring: ListQuery, ok: SpecList,
    handler: async (request) => presentSpecsPage(config, await specs.listSpecs(contextOf(request), request.params.organizationId, pageRequest(request, request.query))),
  });

  route.post(`${O}/openapi`, {
    operationId: 'createOpenAPISpec', summary: 'Create a spec from a URL or a text; it is processed in the background', params: OrganizationParams, body: CreateSpecBody, created: ref(OpenAPISpec),
    handler: async (request) => presentSpecResult(config, await specs.createSpec(contextOf(request), request.params.organizationId, request.body)),
  });

  route.get(S, {
    operationId: 'getOpenAPISpecBySlug', summary: 'Get a spec', params: SpecParams, ok: ref(OpenAPISpec),
    handler: async (request) => presentSpecResult(config, await specs.getSpec(contextOf(request), request.params.organizationId, request.params.specSlug)),
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
      const result = await specs.putSpec(contextOf(request), request.params.organizationId, request.params.specSlug, request.body);
      return reply.code(result.created ? 201 : 200).send(presentSpecResult(config, result));
    },
  });

  route.patch(S, {
    operationId: 'updateOpenAPISpecBySlug', summary: 'Change a spec’s visibility', params: SpecParams, body: PatchSpecBody, ok: ref(OpenAPISpec),
    handler: async (request) =>
      presentSpecResult(config, await specs.updateVisibility(contextOf(request), request.params.organizationId, request.params.specSlug, request.body.visibility)),
  });

  route.delete(S, {
    operationId: 'deleteOpenAPISpecBySlug', summary: 'Delete a spec and its versions (204, also when absent)', params: SpecParams, noContent: null,
    handler: (request) => specs.deleteSpec(contextOf(request), request.params.organizationId, request.params.specSlug),
  });

  route.get(`${S}/versions`, {
    operationId: 'listOpenAPISpecVersions', summary: 'List a spec’s versions, newest first', params: SpecParams, querystring: ListQuery, ok: VersionList,
    handler: async (request) =>
      presentVersionsPage(config, await specs.listVersions(contextOf(request), request.params.organizationId, request.params.specSlug, pageRequest(request, request.query))),
  });

  route.get(`${S}/versions/latest`, {
    operationId: 'getLatestOpenAPISpecVersion', summary: 'Get the latest version', params: SpecParams, ok: ref(OpenAPISpecVersion),
    handler: async (request) => presentVersionResult(config, await specs.getVersion(contextOf(request), request.params.organizationId, request.params.specSlug, 'latest')),
  });

  route.get(`${S}/versions/latest/content`, {
    operationId: 'getLatestOpenAPISpecVersionContent', summary: 'The latest version’s files', params: SpecParams, ok: OpenAPISpecContent,
    handler: async (request) => presentContentResult(config, await specs.getVersionContent(contextOf(request), request.params.organizationId, request.params.specSlug, 'latest')),
  });

  route.get(`${S}/versions/latest/content/raw`, {
    operationId: 'getLatestOpenAPISpecVersionContentRaw', summary: 'The latest version’s entrypoint, exactly as fetched or uploaded', params: SpecParams, ok: OpenAPISpecRawContent,
    handler: (request) => specs.getRawContent(contextOf(request), request.params.organizationId, request.params.specSlug, 'latest'),
  });

  route.get(`${S}/versions/:versionId`, {
    operationId: 'getOpenAPISpecVersionById', summary: 'Get a version', params: VersionParams, ok: ref(OpenAPISpecVersion),
    handler: async (request) =>
      presentVersionResult(config, await specs.getVersion(contextOf(request), request.params.organizationId, request.params.specSlug, request.params.versionId)),
  });

  route.get(`${S}/versions/:versionId/content`, {
    operationId: 'getOpenAPISpecVersionContentById', summary: 'A version’s files', params: VersionParams, ok: OpenAPISpecContent,
    handler: async (request) =>
      presentContentResult(config, await specs.getVersionContent(contextOf(request), request.params.organizationId, request.params.specSlug, request.params.versionId)),
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
