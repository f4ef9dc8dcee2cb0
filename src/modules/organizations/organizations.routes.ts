import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { presentReused } from '../../lib/reusable.ts';
import { errorResponses } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import {
  AgentInstructions,
  CreateOrganizationBody,
  EmailDomainParams,
  ListOrganizationsQuery,
  Organization,
  OrganizationList,
  OrganizationParams,
  OrganizationsForEmailDomain,
  UpdateAgentInstructionsBody,
  UpdateOrganizationBody,
} from './organizations.schemas.ts';
import type { OrganizationResult } from './organizations.model.ts';
import { presentAgentInstructions, presentOrganizationResult, presentOrganizationsPage } from './organizations.presenter.ts';
import * as organizations from './organizations.service.ts';

const tags = ['organizations'];

export const organizationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app.deps;
  // One function for the app's life, so a reused organization is presented once (presentReused).
  const presentGot = (result: OrganizationResult) => presentOrganizationResult(config, result);

  app.get('/v1/orgs', {
    schema: {
      operationId: 'listOrganizationsForAuthenticatedUser',
      tags,
      summary: 'List the organizations the caller belongs to',
      querystring: ListOrganizationsQuery,
      response: { 200: OrganizationList, ...errorResponses(400, 401) },
    },
    handler: async (request) => presentOrganizationsPage(config, await organizations.listOrganizations(contextOf(request), pageRequest(request, request.query))),
  });

  app.post('/v1/orgs', {
    schema: {
      operationId: 'createOrganization',
      tags,
      summary: 'Create an organization; the caller becomes its admin',
      body: CreateOrganizationBody,
      response: { 201: ref(Organization), ...errorResponses(400, 401, 403) },
    },
    handler: async (request, reply) => {
      const organization = presentOrganizationResult(config, await organizations.createOrganization(contextOf(request), request.body));
      return reply.code(201).header('location', organization.urls.location).send(organization);
    },
  });

  app.get('/v1/orgs/:organizationId', {
    schema: {
      operationId: 'getOrganizationById',
      tags,
      summary: 'Get an organization',
      params: OrganizationParams,
      response: { 200: ref(Organization), ...errorResponses(401, 404) },
    },
    handler: (request) => presentReused(organizations.getOrganization(contextOf(request), request.params.organizationId), presentGot),
  });

  app.patch('/v1/orgs/:organizationId', {
    schema: {
      operationId: 'updateOrganizationById',
      tags,
      summary: 'Update an organization (admins)',
      params: OrganizationParams,
      body: UpdateOrganizationBody,
      response: { 200: ref(Organization), ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request) =>
      presentOrganizationResult(config, await organizations.updateOrganization(contextOf(request), request.params.organizationId, request.body)),
  });

  app.get('/v1/email-domains/:emailDomain/orgs', {
    schema: {
      operationId: 'getOrganizationsForEmailDomain',
      tags,
      summary: 'List the organizations that users of an email domain may join',
      params: EmailDomainParams,
      response: { 200: OrganizationsForEmailDomain, ...errorResponses(401) },
    },
    handler: async (request) => {
      const results = await organizations.listOrganizationsForEmailDomain(contextOf(request), request.params.emailDomain);
      return { organizations: results.map((result) => presentOrganizationResult(config, result)) };
    },
  });

  app.get('/v1/orgs/:organizationId/agent-instructions', {
    schema: {
      operationId: 'getOrganizationAgentInstructions',
      tags,
      summary: "Get the organization's docs agent instructions",
      params: OrganizationParams,
      response: { 200: ref(AgentInstructions), ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => presentAgentInstructions(config, await organizations.getAgentInstructions(contextOf(request), request.params.organizationId)),
  });

  app.put('/v1/orgs/:organizationId/agent-instructions', {
    schema: {
      operationId: 'updateOrganizationAgentInstructions',
      tags,
      summary: "Replace the organization's docs agent instructions (admins)",
      params: OrganizationParams,
      body: UpdateAgentInstructionsBody,
      response: { 200: ref(AgentInstructions), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) =>
      presentAgentInstructions(config, await organizations.updateAgentInstructions(contextOf(request), request.params.organizationId, request.body.instructions)),
  });
};
