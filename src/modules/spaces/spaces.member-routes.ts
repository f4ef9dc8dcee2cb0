import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import { MemberParams } from '../members/members.schemas.ts';
import { ListMemberSpacesQuery, MemberSpaceList } from './spaces.schemas.ts';
import { presentMemberSpaces } from './spaces.presenter.ts';
import * as spaces from './spaces.service.ts';

// Under the member's path and the members' tag, as GitBook files it; the list is of spaces.
const tags = ['organization-members'];

export const memberSpacesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/orgs/:organizationId/members/:userId/spaces', {
    schema: {
      operationId: 'listSpacesForOrganizationMember',
      tags,
      summary: 'List the spaces a member can access, with their role on each',
      params: MemberParams,
      querystring: ListMemberSpacesQuery,
      response: { 200: MemberSpaceList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const { page, limit, order } = request.query;
      const ctx = contextOf(request);
      const result = await spaces.listMemberSpaces(ctx, request.params.organizationId, request.params.userId, pageRequest(request, { page, limit }), order ?? 'desc');
      return presentMemberSpaces(ctx.config, result);
    },
  });
};
