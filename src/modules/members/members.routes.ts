import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
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
import * as members from './members.service.ts';

const tags = ['organization-members'];

export const membersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/orgs/:organizationId/members', {
    schema: {
      operationId: 'listMembersInOrganizationById',
      tags,
      summary: 'List the members of an organization (members with a role)',
      params: OrganizationParams,
      querystring: ListMembersQuery,
      response: { 200: MemberList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      members.listMembers(contextOf(request), request.params.organizationId, request.query, pageRequest(request, request.query)),
  });

  app.get('/v1/orgs/:organizationId/members/:userId', {
    schema: {
      operationId: 'getMemberInOrganizationById',
      tags,
      summary: 'Get a member of an organization',
      params: MemberParams,
      response: { 200: ref(Member), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => members.getMember(contextOf(request), request.params.organizationId, request.params.userId),
  });

  app.patch('/v1/orgs/:organizationId/members/:userId', {
    schema: {
      operationId: 'updateMemberInOrganizationById',
      tags,
      summary: "Change a member's role (admins); null makes them a guest",
      params: MemberParams,
      body: UpdateMemberBody,
      response: { 200: ref(Member), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      members.updateMember(contextOf(request), request.params.organizationId, request.params.userId, request.body),
  });

  app.delete('/v1/orgs/:organizationId/members/:userId', {
    schema: {
      operationId: 'removeMemberFromOrganizationById',
      tags,
      summary: 'Remove a member (admins), or leave the organization (yourself)',
      params: MemberParams,
      response: { 204: Type.Null({ description: 'Removed, or was not a member' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await members.removeMember(contextOf(request), request.params.organizationId, request.params.userId);
      return reply.code(204).send(null);
    },
  });

  app.post('/v1/orgs/:organizationId/members/:userId/sso', {
    schema: {
      operationId: 'setUserAsSSOMemberForOrganization',
      tags,
      summary: 'Mark a member as signing in through SSO (admins)',
      params: MemberParams,
      response: { 200: ref(Member), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => members.setMemberSSO(contextOf(request), request.params.organizationId, request.params.userId),
  });

  app.post('/v1/orgs/:organizationId/ping', {
    schema: {
      operationId: 'updateOrganizationMemberLastSeenAt',
      tags,
      summary: "Record the caller's activity; answers signed claims about them",
      params: OrganizationParams,
      response: { 200: ref(PingResponse), ...errorResponses(400, 401, 404) },
    },
    handler: (request) => members.ping(contextOf(request), request.params.organizationId),
  });

  app.post('/v1/orgs/:organizationId/join', {
    schema: {
      operationId: 'joinOrganization',
      tags: ['organizations'],
      summary: "Join an organization that allows the caller's verified email domain",
      params: OrganizationParams,
      response: { 204: Type.Null({ description: 'Joined, or already a member' }), ...errorResponses(400, 401, 404) },
    },
    handler: async (request, reply) => {
      await members.joinOrganization(contextOf(request), request.params.organizationId);
      return reply.code(204).send(null);
    },
  });
};
