import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { operations } from '../../plugins/operations.ts';
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
import { presentSamlProviderResult, presentSamlProviders, presentSsoLogins } from './saml-providers.presenter.ts';
import * as providers from './saml-providers.service.ts';

const tags = ['sso'];

export const samlProvidersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const route = operations(app, tags);
  const { config } = app.deps;

  route.get('/v1/orgs/:organizationId/saml', {
    operationId: 'listSAMLProvidersInOrganizationById', summary: 'List the SAML providers of an organization (admins)',
    params: OrganizationParams, querystring: ListProvidersQuery, ok: SamlProviderList,
    handler: async (request) => presentSamlProviders(config, await providers.listProviders(contextOf(request), request.params.organizationId, pageRequest(request, request.query))),
  });

  route.post('/v1/orgs/:organizationId/saml', {
    operationId: 'createOrganizationSAMLProvider', summary: 'Create a SAML provider (admins)', params: OrganizationParams, body: CreateProviderBody, created: ref(SamlProvider), location: true,
    handler: async (request) => presentSamlProviderResult(config, await providers.createProvider(contextOf(request), request.params.organizationId, request.body)),
  });

  route.get('/v1/orgs/:organizationId/saml/:samlProviderId', {
    operationId: 'getOrganizationSAMLProviderById', summary: 'Get a SAML provider (admins)', params: ProviderParams, ok: ref(SamlProvider),
    handler: async (request) => presentSamlProviderResult(config, await providers.getProvider(contextOf(request), request.params.organizationId, request.params.samlProviderId)),
  });

  route.patch('/v1/orgs/:organizationId/saml/:samlProviderId', {
    operationId: 'updateOrganizationSAMLProvider', summary: 'Change a SAML provider (admins)', params: ProviderParams, body: UpdateProviderBody, ok: ref(SamlProvider),
    handler: async (request) =>
      presentSamlProviderResult(config, await providers.updateProvider(contextOf(request), request.params.organizationId, request.params.samlProviderId, request.body)),
  });

  route.delete('/v1/orgs/:organizationId/saml/:samlProviderId', {
    operationId: 'deleteOrganizationSAMLProvider', summary: 'Delete a SAML provider (admins); 204 also when absent', params: ProviderParams, noContent: 'The provider is gone',
    handler: (request) => providers.deleteProvider(contextOf(request), request.params.organizationId, request.params.samlProviderId),
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
    handler: async (request) => presentSsoLogins(config, await providers.listSsoLogins(request.server.deps, request.params.organizationId)),
  });
};
