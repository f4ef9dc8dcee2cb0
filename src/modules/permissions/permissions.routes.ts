import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import {
  AccessList,
  CollectionParams,
  CollectionTeamParams,
  CollectionUserParams,
  InviteUsersAndTeamsBody,
  ListAggregateQuery,
  ListPermissionsQuery,
  SpaceParams,
  SpaceTeamParams,
  SpaceUserParams,
  TeamPermissionList,
  UpdatePermissionBody,
  UserPermissionList,
} from './permissions.schemas.ts';
import * as permissions from './permissions.service.ts';

/*
 * GitBook's space-permissions and collection-permissions: the same eight operations on
 * each kind of content, declared once per kind from this table.
 */
const KINDS = [
  {
    kind: 'space' as const,
    base: '/v1/spaces/:spaceId/permissions',
    tags: ['space-permissions'],
    idOf: (params: Record<string, string>) => params.spaceId,
    params: SpaceParams,
    userParams: SpaceUserParams,
    teamParams: SpaceTeamParams,
    ops: {
      invite: 'inviteToSpace',
      listUsers: 'listUserPermissionsInSpace',
      listTeams: 'listTeamPermissionsInSpace',
      updateUser: 'updateUserPermissionInSpace',
      updateTeam: 'updateTeamPermissionInSpace',
      removeUser: 'removeUserFromSpace',
      removeTeam: 'removeTeamFromSpace',
      aggregate: 'listPermissionsAggregateInSpace',
    },
  },
  {
    kind: 'collection' as const,
    base: '/v1/collections/:collectionId/permissions',
    tags: ['collection-permissions'],
    idOf: (params: Record<string, string>) => params.collectionId,
    params: CollectionParams,
    userParams: CollectionUserParams,
    teamParams: CollectionTeamParams,
    ops: {
      invite: 'inviteToCollection',
      listUsers: 'listUserPermissionsInCollection',
      listTeams: 'listTeamPermissionsInCollection',
      updateUser: 'updateUserPermissionInCollection',
      updateTeam: 'updateTeamPermissionInCollection',
      removeUser: 'removeUserFromCollection',
      removeTeam: 'removeTeamFromCollection',
      aggregate: 'listPermissionsAggregateInCollection',
    },
  },
];

export const permissionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const k of KINDS) {
    const { kind, base, tags, idOf, ops } = k;

    app.post(base, {
      schema: {
        operationId: ops.invite,
        tags,
        summary: `Give users and teams a role on a ${kind} (${kind} admins)`,
        params: k.params,
        body: InviteUsersAndTeamsBody,
        response: { 204: Type.Null({ description: 'The users and teams have the role' }), ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request, reply) => {
        await permissions.inviteToTarget(contextOf(request), kind, idOf(request.params), request.body);
        return reply.code(204).send(null);
      },
    });

    app.get(`${base}/users`, {
      schema: {
        operationId: ops.listUsers,
        tags,
        summary: `List the users granted a role on a ${kind} (${kind} admins)`,
        params: k.params,
        querystring: ListPermissionsQuery,
        response: { 200: UserPermissionList, ...errorResponses(400, 401, 403, 404) },
      },
      handler: (request) =>
        permissions.listUserPermissions(contextOf(request), kind, idOf(request.params), pageRequest(request, request.query)),
    });

    app.get(`${base}/teams`, {
      schema: {
        operationId: ops.listTeams,
        tags,
        summary: `List the teams granted a role on a ${kind} (${kind} admins)`,
        params: k.params,
        querystring: ListPermissionsQuery,
        response: { 200: TeamPermissionList, ...errorResponses(400, 401, 403, 404) },
      },
      handler: (request) =>
        permissions.listTeamPermissions(contextOf(request), kind, idOf(request.params), pageRequest(request, request.query)),
    });

    app.get(`${base}/aggregate`, {
      schema: {
        operationId: ops.aggregate,
        tags,
        summary: `List every member who can access a ${kind}, with their effective role (${kind} admins)`,
        params: k.params,
        querystring: ListAggregateQuery,
        response: { 200: AccessList, ...errorResponses(400, 401, 403, 404) },
      },
      handler: (request) => {
        const { role, ...page } = request.query;
        return permissions.listAccessAggregate(contextOf(request), kind, idOf(request.params), role, pageRequest(request, page));
      },
    });

    app.patch(`${base}/users/:userId`, {
      schema: {
        operationId: ops.updateUser,
        tags,
        summary: `Change a user's role on a ${kind}; null removes it (${kind} admins)`,
        params: k.userParams,
        body: UpdatePermissionBody,
        response: { 204: Type.Null({ description: 'User permission was updated' }), ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request, reply) => {
        const params = request.params as Record<string, string>;
        await permissions.updateTargetPermission(contextOf(request), kind, idOf(params), 'user', params.userId, request.body.role);
        return reply.code(204).send(null);
      },
    });

    app.patch(`${base}/teams/:teamId`, {
      schema: {
        operationId: ops.updateTeam,
        tags,
        summary: `Change a team's role on a ${kind}; null removes it (${kind} admins)`,
        params: k.teamParams,
        body: UpdatePermissionBody,
        response: { 204: Type.Null({ description: 'Team permission was updated' }), ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request, reply) => {
        const params = request.params as Record<string, string>;
        await permissions.updateTargetPermission(contextOf(request), kind, idOf(params), 'team', params.teamId, request.body.role);
        return reply.code(204).send(null);
      },
    });

    app.delete(`${base}/users/:userId`, {
      schema: {
        operationId: ops.removeUser,
        tags,
        summary: `Remove a user's grant on a ${kind} (${kind} admins); 204 also when absent`,
        params: k.userParams,
        response: { 204: Type.Null({ description: 'The user holds no grant on it' }), ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request, reply) => {
        const params = request.params as Record<string, string>;
        await permissions.removeTargetPermission(contextOf(request), kind, idOf(params), 'user', params.userId);
        return reply.code(204).send(null);
      },
    });

    app.delete(`${base}/teams/:teamId`, {
      schema: {
        operationId: ops.removeTeam,
        tags,
        summary: `Remove a team's grant on a ${kind} (${kind} admins); 204 also when absent`,
        params: k.teamParams,
        response: { 204: Type.Null({ description: 'The team holds no grant on it' }), ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request, reply) => {
        const params = request.params as Record<string, string>;
        await permissions.removeTargetPermission(contextOf(request), kind, idOf(params), 'team', params.teamId);
        return reply.code(204).send(null);
      },
    });
  }
};
