import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { presentReused } from '../../lib/reusable.ts';
import type { Page } from '../../lib/pagination/index.ts';
import { operations } from '../../plugins/operations.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { ref } from '../../schemas/registry.ts';
import { OrganizationParams } from '../organizations/organizations.schemas.ts';
import {
  ListMembersQuery,
  Member,
  MemberList,
  MemberParams,
  PingResponse,
  UpdateMemberBody,
} from './members.schemas.ts';
import { presentMember, presentMembersPage } from './members.presenter.ts';
import type { MemberView } from './members.repository.ts';
import * as members from './members.service.ts';

export const membersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const route = operations(app, ['organization-members']);
  const { config } = app.deps;
  // One function for the app's life, so a reused page of members is presented once (presentReused).
  const presentMembers = (page: Page<MemberView>) => presentMembersPage(config, page);

  route.get('/v1/orgs/:organizationId/members', {
    operationId: 'listMembersInOrganizationById', summary: 'List the members of an organization (members with a role)', params: OrganizationParams, querystring: ListMembersQuery, ok: MemberList,
    handler: (request) => presentReused(members.listMembers(contextOf(request), request.params.organizationId, request.query, pageRequest(request, request.query)), presentMembers),
  });

  route.get('/v1/orgs/:organizationId/members/:userId', {
    operationId: 'getMemberInOrganizationById', summary: 'Get a member of an organization', params: MemberParams, ok: ref(Member),
    handler: async (request) => presentMember(config, await members.getMember(contextOf(request), request.params.organizationId, request.params.userId)),
  });

  route.patch('/v1/orgs/:organizationId/members/:userId', {
    operationId: 'updateMemberInOrganizationById', summary: "Change a member's role (admins); null makes them a guest", params: MemberParams, body: UpdateMemberBody, ok: ref(Member),
    handler: async (request) => presentMember(config, await members.updateMember(contextOf(request), request.params.organizationId, request.params.userId, request.body)),
  });

  route.delete('/v1/orgs/:organizationId/members/:userId', {
    operationId: 'removeMemberFromOrganizationById', summary: 'Remove a member (admins), or leave the organization (yourself)', params: MemberParams, noContent: 'Removed, or was not a member',
    handler: (request) => members.removeMember(contextOf(request), request.params.organizationId, request.params.userId),
  });

  route.post('/v1/orgs/:organizationId/members/:userId/sso', {
    operationId: 'setUserAsSSOMemberForOrganization', summary: 'Mark a member as signing in through SSO (admins)', params: MemberParams, ok: ref(Member),
    handler: async (request) => presentMember(config, await members.setMemberSSO(contextOf(request), request.params.organizationId, request.params.userId)),
  });

  route.post('/v1/orgs/:organizationId/ping', {
    operationId: 'updateOrganizationMemberLastSeenAt', summary: "Record the caller's activity; answers signed claims about them",
    params: OrganizationParams, ok: ref(PingResponse), errors: [400, 401, 404],
    handler: (request) => members.ping(contextOf(request), request.params.organizationId),
  });

  route.post('/v1/orgs/:organizationId/join', {
    operationId: 'joinOrganization', tags: ['organizations'], summary: "Join an organization that allows the caller's verified email domain",
    params: OrganizationParams, noContent: 'Joined, or already a member', errors: [400, 401, 404],
    handler: (request) => members.joinOrganization(contextOf(request), request.params.organizationId),
  });
};
