import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { operations } from '../../plugins/operations.ts';
import { pageRequest } from '../../plugins/pagination.ts';
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
import { presentTeamPermissions, presentUserPermissions } from './permissions.presenter.ts';
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
    const route = operations(app, tags);

    route.post(base, {
      operationId: ops.invite, summary: `Give users and teams a role on a ${kind} (${kind} admins)`, params: k.params, body: InviteUsersAndTeamsBody, noContent: 'The users and teams have the role',
      handler: (request) => permissions.inviteToTarget(contextOf(request), kind, idOf(request.params), request.body),
    });

    route.get(`${base}/users`, {
      operationId: ops.listUsers, summary: `List the users granted a role on a ${kind} (${kind} admins)`, params: k.params, querystring: ListPermissionsQuery, ok: UserPermissionList,
      handler: async (request) => {
        const ctx = contextOf(request);
        return presentUserPermissions(ctx.config, await permissions.listUserPermissions(ctx, kind, idOf(request.params), pageRequest(request, request.query)));
      },
    });

    route.get(`${base}/teams`, {
      operationId: ops.listTeams, summary: `List the teams granted a role on a ${kind} (${kind} admins)`, params: k.params, querystring: ListPermissionsQuery, ok: TeamPermissionList,
      handler: async (request) => {
        const ctx = contextOf(request);
        return presentTeamPermissions(ctx.config, await permissions.listTeamPermissions(ctx, kind, idOf(request.params), pageRequest(request, request.query)));
      },
    });

    route.get(`${base}/aggregate`, {
      operationId: ops.aggregate, summary: `List every member who can access a ${kind}, with their effective role (${kind} admins)`, params: k.params, querystring: ListAggregateQuery, ok: AccessList,
      handler: async (request) => {
        const { role, ...page } = request.query;
        const ctx = contextOf(request);
        return presentUserPermissions(ctx.config, await permissions.listAccessAggregate(ctx, kind, idOf(request.params), role, pageRequest(request, page)));
      },
    });

    // A user's grant and a team's are changed and removed alike.
    for (const [target, Target, targetParams, targetId] of [
      ['user', 'User', k.userParams, (params: Record<string, string>) => params.userId],
      ['team', 'Team', k.teamParams, (params: Record<string, string>) => params.teamId],
    ] as const) {
      route.patch(`${base}/${target}s/:${target}Id`, {
        operationId: ops[`update${Target}`], summary: `Change a ${target}'s role on a ${kind}; null removes it (${kind} admins)`,
        params: targetParams, body: UpdatePermissionBody, noContent: `${Target} permission was updated`,
        handler: (request) => permissions.updateTargetPermission(contextOf(request), kind, idOf(request.params), target, targetId(request.params), request.body.role),
      });

      route.delete(`${base}/${target}s/:${target}Id`, {
        operationId: ops[`remove${Target}`], summary: `Remove a ${target}'s grant on a ${kind} (${kind} admins); 204 also when absent`,
        params: targetParams, noContent: `The ${target} holds no grant on it`,
        handler: (request) => permissions.removeTargetPermission(contextOf(request), kind, idOf(request.params), target, targetId(request.params)),
      });
    }
  }
};
