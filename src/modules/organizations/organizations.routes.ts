import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
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
import * as organizations from './organizations.service.ts';

const tags = ['organizations'];

export const organizationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/orgs', {
    schema: {
      operationId: 'listOrganizationsForAuthenticatedUser',
      tags,
      summary: 'List the organizations the caller belongs to',
      querystring: ListOrganizationsQuery,
      response: { 200: OrganizationList, ...errorResponses(400, 401) },
    },
    handler: (request) => organizations.listOrganizations(contextOf(request), pageRequest(request, request.query)),
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
      const organization = await organizations.createOrganization(contextOf(request), request.body);
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
    handler: (request) => organizations.getOrganization(contextOf(request), request.params.organizationId),
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
    handler: (request) =>
      organizations.updateOrganization(contextOf(request), request.params.organizationId, request.body),
  });

  app.get('/v1/email-domains/:emailDomain/orgs', {
    schema: {
      operationId: 'getOrganizationsForEmailDomain',
      tags,
      summary: 'List the organizations that users of an email domain may join',
      params: EmailDomainParams,
      response: { 200: OrganizationsForEmailDomain, ...errorResponses(401) },
    },
    handler: (request) =>
      organizations.listOrganizationsForEmailDomain(contextOf(request), request.params.emailDomain),
  });

  app.get('/v1/orgs/:organizationId/agent-instructions', {
    schema: {
      operationId: 'getOrganizationAgentInstructions',
      tags,
      summary: "Get the organization's docs agent instructions",
      params: OrganizationParams,
      response: { 200: ref(AgentInstructions), ...errorResponses(401, 403, 404) },
    },
    handler: (request) => organizations.getAgentInstructions(contextOf(request), request.params.organizationId),
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
    handler: (request) =>
      organizations.updateAgentInstructions(contextOf(request), request.params.organizationId, request.body.instructions),
  });
};
