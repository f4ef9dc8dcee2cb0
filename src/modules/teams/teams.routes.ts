import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
import {
  AddTeamMemberBody,
  CreateTeamBody,
  ListTeamMembersQuery,
  ListTeamsQuery,
  OrganizationParams,
  Team,
  TeamList,
  TeamMemberList,
  TeamMemberParams,
  TeamParams,
  UpdateTeamBody,
  UpdateTeamMembersBody,
} from './teams.schemas.ts';
import * as teams from './teams.service.ts';

const tags = ['teams'];
const memberTags = ['team-members'];

export const teamsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/orgs/:organizationId/teams', {
    schema: {
      operationId: 'listTeamsInOrganizationById',
      tags,
      summary: 'List the teams of an organization (members but guests)',
      params: OrganizationParams,
      querystring: ListTeamsQuery,
      response: { 200: TeamList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => {
      const { page, limit, ...filter } = request.query;
      return teams.listTeams(contextOf(request), request.params.organizationId, filter, pageRequest(request, { page, limit }));
    },
  });

  app.put('/v1/orgs/:organizationId/teams', {
    schema: {
      operationId: 'createOrganizationTeam',
      tags,
      summary: 'Create a team (admins)',
      params: OrganizationParams,
      body: CreateTeamBody,
      response: { 201: ref(Team), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const team = await teams.createTeam(contextOf(request), request.params.organizationId, request.body);
      return reply.code(201).send(team);
    },
  });

  app.get('/v1/orgs/:organizationId/teams/:teamId', {
    schema: {
      operationId: 'getTeamInOrganizationById',
      tags,
      summary: 'Get a team',
      params: TeamParams,
      response: { 200: ref(Team), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => teams.getTeam(contextOf(request), request.params.organizationId, request.params.teamId),
  });

  app.patch('/v1/orgs/:organizationId/teams/:teamId', {
    schema: {
      operationId: 'updateTeamInOrganizationById',
      tags,
      summary: 'Rename a team (admins and team owners)',
      params: TeamParams,
      body: UpdateTeamBody,
      response: { 200: ref(Team), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      teams.updateTeam(contextOf(request), request.params.organizationId, request.params.teamId, request.body.title),
  });

  app.delete('/v1/orgs/:organizationId/teams/:teamId', {
    schema: {
      operationId: 'removeTeamFromOrganizationById',
      tags,
      summary: 'Delete a team (admins); 204 also when absent',
      params: TeamParams,
      response: { 204: Type.Null({ description: 'The team is gone' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await teams.deleteTeam(contextOf(request), request.params.organizationId, request.params.teamId);
      return reply.code(204).send(null);
    },
  });

  app.get('/v1/orgs/:organizationId/teams/:teamId/members', {
    schema: {
      operationId: 'listTeamMembersInOrganizationById',
      tags: memberTags,
      summary: 'List the members of a team, with their roles in it',
      params: TeamParams,
      querystring: ListTeamMembersQuery,
      response: { 200: TeamMemberList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      teams.listTeamMembers(
        contextOf(request),
        request.params.organizationId,
        request.params.teamId,
        pageRequest(request, request.query),
      ),
  });

  app.put('/v1/orgs/:organizationId/teams/:teamId/members', {
    schema: {
      operationId: 'updateMembersInOrganizationTeam',
      tags: memberTags,
      summary: 'Add, remove and set roles of team members (admins and team owners)',
      params: TeamParams,
      body: UpdateTeamMembersBody,
      response: { 204: Type.Null({ description: 'Members have been updated' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await teams.updateTeamMembers(contextOf(request), request.params.organizationId, request.params.teamId, request.body);
      return reply.code(204).send(null);
    },
  });

  app.put('/v1/orgs/:organizationId/teams/:teamId/members/:userId', {
    schema: {
      operationId: 'addMemberToOrganizationTeamById',
      tags: memberTags,
      summary: 'Add a member to a team or change their role (admins and team owners)',
      params: TeamMemberParams,
      body: AddTeamMemberBody,
      response: { 204: Type.Null({ description: 'The member is in the team with the role' }), ...errorResponses(400, 401, 403, 404) },
    },
    // GitBook's body is optional here (role defaults to member): no body reads as `{}`.
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      await teams.addTeamMember(contextOf(request), organizationId, teamId, userId, request.body.role ?? 'member');
      return reply.code(204).send(null);
    },
  });

  app.delete('/v1/orgs/:organizationId/teams/:teamId/members/:userId', {
    schema: {
      operationId: 'deleteMemberFromOrganizationTeamById',
      tags: memberTags,
      summary: 'Remove a member from a team (admins, team owners, or the member); 204 also when not in it',
      params: TeamMemberParams,
      response: { 204: Type.Null({ description: 'The user is not in the team' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      await teams.removeTeamMember(contextOf(request), organizationId, teamId, userId);
      return reply.code(204).send(null);
    },
  });
};
