import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { errorResponses } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
import { User, UserIdParams } from './users.schemas.ts';
import { presentUser } from './users.presenter.ts';
import * as users from './users.service.ts';

export const usersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app.deps;

  app.get('/v1/user', {
    schema: {
      operationId: 'getAuthenticatedUser',
      tags: ['users'],
      summary: 'Get the user owning the token',
      response: { 200: ref(User), ...errorResponses(401, 404) },
    },
    handler: async (request) => presentUser(config, await users.getAuthenticatedUser(contextOf(request))),
  });

  app.get('/v1/users/:userId', {
    schema: {
      operationId: 'getUserById',
      tags: ['users'],
      summary: 'Get a user by id (yourself, or someone in one of your organizations)',
      params: UserIdParams,
      response: { 200: ref(User), ...errorResponses(401, 404) },
    },
    handler: async (request) => presentUser(config, await users.getUserById(contextOf(request), request.params.userId)),
  });
};
