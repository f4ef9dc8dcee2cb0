import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { operations } from '../../plugins/operations.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { presentReused } from '../../lib/reusable.ts';
import { ref } from '../../schemas/registry.ts';
import { presentTeamMembers, presentTeamResult, presentTeams } from './teams.presenter.ts';
import type { TeamResult } from './teams.model.ts';
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

const O = '/v1/orgs/:organizationId';

export const teamsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const team = operations(app, ['teams']);
  const member = operations(app, ['team-members']);
  const { config } = app.deps;
  // One function for the app's life, so a reused team is presented once (presentReused).
  const presentGot = (result: TeamResult) => presentTeamResult(config, result);

  team.get(`${O}/teams`, {
    operationId: 'listTeamsInOrganizationById', summary: 'List the teams of an organization (members but guests)', params: OrganizationParams, querystring: ListTeamsQuery, ok: TeamList,
    handler: async (request) => {
      const { page, limit, ...filter } = request.query;
      const result = await teams.listTeams(contextOf(request), request.params.organizationId, filter, pageRequest(request, { page, limit }));
      return presentTeams(config, result);
    },
  });

  team.put(`${O}/teams`, {
    operationId: 'createOrganizationTeam', summary: 'Create a team (admins)', params: OrganizationParams, body: CreateTeamBody, created: ref(Team),
    handler: async (request) => presentGot(await teams.createTeam(contextOf(request), request.params.organizationId, request.body)),
  });

  team.get(`${O}/teams/:teamId`, {
    operationId: 'getTeamInOrganizationById', summary: 'Get a team', params: TeamParams, ok: ref(Team),
    handler: (request) => presentReused(teams.getTeam(contextOf(request), request.params.organizationId, request.params.teamId), presentGot),
  });

  team.patch(`${O}/teams/:teamId`, {
    operationId: 'updateTeamInOrganizationById', summary: 'Rename a team (admins and team owners)', params: TeamParams, body: UpdateTeamBody, ok: ref(Team),
    handler: async (request) => presentGot(await teams.updateTeam(contextOf(request), request.params.organizationId, request.params.teamId, request.body.title)),
  });

  team.delete(`${O}/teams/:teamId`, {
    operationId: 'removeTeamFromOrganizationById', summary: 'Delete a team (admins); 204 also when absent', params: TeamParams, noContent: 'The team is gone',
    handler: (request) => teams.deleteTeam(contextOf(request), request.params.organizationId, request.params.teamId),
  });

  member.get(`${O}/teams/:teamId/members`, {
    operationId: 'listTeamMembersInOrganizationById', summary: 'List the members of a team, with their roles in it', params: TeamParams, querystring: ListTeamMembersQuery, ok: TeamMemberList,
    handler: async (request) =>
      presentTeamMembers(config, await teams.listTeamMembers(contextOf(request), request.params.organizationId, request.params.teamId, pageRequest(request, request.query))),
  });

  member.put(`${O}/teams/:teamId/members`, {
    operationId: 'updateMembersInOrganizationTeam', summary: 'Add, remove and set roles of team members (admins and team owners)',
    params: TeamParams, body: UpdateTeamMembersBody, noContent: 'Members have been updated',
    handler: (request) => teams.updateTeamMembers(contextOf(request), request.params.organizationId, request.params.teamId, request.body),
  });

  // GitBook's body is optional here (role defaults to member).
  member.put(`${O}/teams/:teamId/members/:userId`, {
    operationId: 'addMemberToOrganizationTeamById', summary: 'Add a member to a team or change their role (admins and team owners)',
    params: TeamMemberParams, body: AddTeamMemberBody, optionalBody: true, noContent: 'The member is in the team with the role',
    handler: (request) => teams.addTeamMember(contextOf(request), request.params.organizationId, request.params.teamId, request.params.userId, request.body.role ?? 'member'),
  });

  member.delete(`${O}/teams/:teamId/members/:userId`, {
    operationId: 'deleteMemberFromOrganizationTeamById', summary: 'Remove a member from a team (admins, team owners, or the member); 204 also when not in it',
    params: TeamMemberParams, noContent: 'The user is not in the team',
    handler: (request) => teams.removeTeamMember(contextOf(request), request.params.organizationId, request.params.teamId, request.params.userId),
  });
};
