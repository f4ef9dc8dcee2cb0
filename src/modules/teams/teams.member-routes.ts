import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import { MemberParams } from '../members/members.schemas.ts';
import { presentMemberTeams } from './teams.presenter.ts';
import { ListMemberTeamsQuery, MemberTeamList } from './teams.schemas.ts';
import * as teams from './teams.service.ts';

// Under the member's path and the members' tag, as GitBook files it; the list is of teams.
const tags = ['organization-members'];

export const memberTeamsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/orgs/:organizationId/members/:userId/teams', {
    schema: {
      operationId: 'listTeamsForOrganizationMember',
      tags,
      summary: 'List the teams a member belongs to, by title',
      params: MemberParams,
      querystring: ListMemberTeamsQuery,
      response: { 200: MemberTeamList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const ctx = contextOf(request);
      const result = await teams.listMemberTeams(ctx, request.params.organizationId, request.params.userId, request.query.title, pageRequest(request, request.query));
      return presentMemberTeams(ctx.config, result);
    },
  });
};
