import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
import { OrganizationParams } from '../organizations/organizations.schemas.ts';
import {
  InvitedUsers,
  InviteLink,
  InviteLinkBody,
  InviteLinkList,
  InviteParams,
  InviteUsersBody,
  JoinedOrganization,
  ListInviteLinksQuery,
} from './invites.schemas.ts';
import * as invites from './invites.service.ts';

const tags = ['organization-invites'];

export const invitesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/v1/orgs/:organizationId/invites', {
    schema: {
      operationId: 'inviteUsersToOrganization',
      tags,
      summary: 'Invite users by email: they become members at once (admins)',
      params: OrganizationParams,
      body: InviteUsersBody,
      response: { 200: ref(InvitedUsers), ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: (request) => invites.inviteUsers(contextOf(request), request.params.organizationId, request.body),
  });

  app.get('/v1/orgs/:organizationId/link-invites', {
    schema: {
      operationId: 'listOrganizationInviteLinks',
      tags,
      summary: 'List the invite links of an organization (admins)',
      params: OrganizationParams,
      querystring: ListInviteLinksQuery,
      response: { 200: InviteLinkList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      invites.listInviteLinks(contextOf(request), request.params.organizationId, pageRequest(request, request.query)),
  });

  app.post('/v1/orgs/:organizationId/link-invites', {
    schema: {
      operationId: 'createOrganizationInvite',
      tags,
      summary: 'Create an invite link (admins; refused while invite links are turned off)',
      params: OrganizationParams,
      body: InviteLinkBody,
      response: { 201: ref(InviteLink), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const link = await invites.createInviteLink(contextOf(request), request.params.organizationId, request.body);
      return reply.code(201).header('location', link.urls.location).send(link);
    },
  });

  app.get('/v1/orgs/:organizationId/link-invites/:inviteId', {
    schema: {
      operationId: 'getOrganizationInviteLink',
      tags,
      summary: 'Get an invite link (admins)',
      params: InviteParams,
      response: { 200: ref(InviteLink), ...errorResponses(401, 403, 404) },
    },
    handler: (request) =>
      invites.getInviteLink(contextOf(request), request.params.organizationId, request.params.inviteId),
  });

  app.patch('/v1/orgs/:organizationId/link-invites/:inviteId', {
    schema: {
      operationId: 'updateOrganizationInviteById',
      tags,
      summary: 'Change the role an invite link gives (admins)',
      params: InviteParams,
      body: InviteLinkBody,
      response: { 200: ref(InviteLink), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      invites.updateInviteLink(contextOf(request), request.params.organizationId, request.params.inviteId, request.body),
  });

  app.delete('/v1/orgs/:organizationId/link-invites/:inviteId', {
    schema: {
      operationId: 'deleteOrganizationInviteById',
      tags,
      summary: 'Delete an invite link (admins); 204 also when it does not exist',
      params: InviteParams,
      response: { 204: Type.Null({ description: 'Deleted, or did not exist' }), ...errorResponses(401, 403, 404) },
    },
    handler: async (request, reply) => {
      await invites.deleteInviteLink(contextOf(request), request.params.organizationId, request.params.inviteId);
      return reply.code(204).send(null);
    },
  });

  app.post('/v1/orgs/:organizationId/invites/:inviteId', {
    schema: {
      operationId: 'joinOrganizationWithInvite',
      tags,
      summary: "Join an organization with an invite link, taking the link's role",
      params: InviteParams,
      response: { 200: ref(JoinedOrganization), ...errorResponses(401, 404) },
    },
    handler: (request) =>
      invites.joinWithInvite(contextOf(request), request.params.organizationId, request.params.inviteId),
  });
};
