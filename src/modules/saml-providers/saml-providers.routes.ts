import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
import {
  CreateProviderBody,
  ListProvidersQuery,
  OrganizationParams,
  ProviderParams,
  SamlProvider,
  SamlProviderList,
  SsoProviderLoginList,
  UpdateProviderBody,
} from './saml-providers.schemas.ts';
import * as providers from './saml-providers.service.ts';

const tags = ['sso'];

export const samlProvidersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/orgs/:organizationId/saml', {
    schema: {
      operationId: 'listSAMLProvidersInOrganizationById',
      tags,
      summary: 'List the SAML providers of an organization (admins)',
      params: OrganizationParams,
      querystring: ListProvidersQuery,
      response: { 200: SamlProviderList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      providers.listProviders(contextOf(request), request.params.organizationId, pageRequest(request, request.query)),
  });

  app.post('/v1/orgs/:organizationId/saml', {
    schema: {
      operationId: 'createOrganizationSAMLProvider',
      tags,
      summary: 'Create a SAML provider (admins)',
      params: OrganizationParams,
      body: CreateProviderBody,
      response: { 201: ref(SamlProvider), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const provider = await providers.createProvider(contextOf(request), request.params.organizationId, request.body);
      return reply.code(201).header('location', provider.urls.location).send(provider);
    },
  });

  app.get('/v1/orgs/:organizationId/saml/:samlProviderId', {
    schema: {
      operationId: 'getOrganizationSAMLProviderById',
      tags,
      summary: 'Get a SAML provider (admins)',
      params: ProviderParams,
      response: { 200: ref(SamlProvider), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      providers.getProvider(contextOf(request), request.params.organizationId, request.params.samlProviderId),
  });

  app.patch('/v1/orgs/:organizationId/saml/:samlProviderId', {
    schema: {
      operationId: 'updateOrganizationSAMLProvider',
      tags,
      summary: 'Change a SAML provider (admins)',
      params: ProviderParams,
      body: UpdateProviderBody,
      response: { 200: ref(SamlProvider), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      providers.updateProvider(contextOf(request), request.params.organizationId, request.params.samlProviderId, request.body),
  });

  app.delete('/v1/orgs/:organizationId/saml/:samlProviderId', {
    schema: {
      operationId: 'deleteOrganizationSAMLProvider',
      tags,
      summary: 'Delete a SAML provider (admins); 204 also when absent',
      params: ProviderParams,
      response: { 204: Type.Null({ description: 'The provider is gone' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await providers.deleteProvider(contextOf(request), request.params.organizationId, request.params.samlProviderId);
      return reply.code(204).send(null);
    },
  });

  app.get('/v1/orgs/:organizationId/sso', {
    // Public: the sign-in page lists the providers before anyone is signed in.
    config: { public: true },
    schema: {
      operationId: 'listSSOProviderLoginsInOrganization',
      tags,
      summary: "List how to sign in to an organization: its SAML providers' start URLs",
      // No token needed: the OpenAPI document says so, as it does for the other public operations.
      security: [],
      params: OrganizationParams,
      response: { 200: SsoProviderLoginList, ...errorResponses(400, 404) },
    },
    handler: (request) => providers.listSsoLogins(request.server.deps, request.params.organizationId),
  });
};
