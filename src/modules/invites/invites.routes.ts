import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { operations } from '../../plugins/operations.ts';
import { pageRequest } from '../../plugins/pagination.ts';
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
import { presentInviteLinkResult, presentInviteLinksPage } from './invites.presenter.ts';
import * as invites from './invites.service.ts';

export const invitesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const route = operations(app, ['organization-invites']);
  const { config } = app.deps;

  route.post('/v1/orgs/:organizationId/invites', {
    operationId: 'inviteUsersToOrganization', summary: 'Invite users by email: they become members at once (admins)',
    params: OrganizationParams, body: InviteUsersBody, ok: ref(InvitedUsers), errors: [400, 401, 403, 404, 409],
    handler: (request) => invites.inviteUsers(contextOf(request), request.params.organizationId, request.body),
  });

  route.get('/v1/orgs/:organizationId/link-invites', {
    operationId: 'listOrganizationInviteLinks', summary: 'List the invite links of an organization (admins)', params: OrganizationParams, querystring: ListInviteLinksQuery, ok: InviteLinkList,
    handler: async (request) => presentInviteLinksPage(config, await invites.listInviteLinks(contextOf(request), request.params.organizationId, pageRequest(request, request.query))),
  });

  route.post('/v1/orgs/:organizationId/link-invites', {
    operationId: 'createOrganizationInvite', summary: 'Create an invite link (admins; refused while invite links are turned off)',
    params: OrganizationParams, body: InviteLinkBody, created: ref(InviteLink), location: true,
    handler: async (request) => presentInviteLinkResult(config, await invites.createInviteLink(contextOf(request), request.params.organizationId, request.body)),
  });

  route.get('/v1/orgs/:organizationId/link-invites/:inviteId', {
    operationId: 'getOrganizationInviteLink', summary: 'Get an invite link (admins)', params: InviteParams, ok: ref(InviteLink), errors: [401, 403, 404],
    handler: async (request) => presentInviteLinkResult(config, await invites.getInviteLink(contextOf(request), request.params.organizationId, request.params.inviteId)),
  });

  route.patch('/v1/orgs/:organizationId/link-invites/:inviteId', {
    operationId: 'updateOrganizationInviteById', summary: 'Change the role an invite link gives (admins)', params: InviteParams, body: InviteLinkBody, ok: ref(InviteLink),
    handler: async (request) => presentInviteLinkResult(config, await invites.updateInviteLink(contextOf(request), request.params.organizationId, request.params.inviteId, request.body)),
  });

  route.delete('/v1/orgs/:organizationId/link-invites/:inviteId', {
    operationId: 'deleteOrganizationInviteById', summary: 'Delete an invite link (admins); 204 also when it does not exist',
    params: InviteParams, noContent: 'Deleted, or did not exist', errors: [401, 403, 404],
    handler: (request) => invites.deleteInviteLink(contextOf(request), request.params.organizationId, request.params.inviteId),
  });

  route.post('/v1/orgs/:organizationId/invites/:inviteId', {
    operationId: 'joinOrganizationWithInvite', summary: "Join an organization with an invite link, taking the link's role", params: InviteParams, ok: ref(JoinedOrganization), errors: [401, 404],
    handler: (request) => invites.joinWithInvite(contextOf(request), request.params.organizationId, request.params.inviteId),
  });
};
