import { Type, type Static } from 'typebox';
import { ListOf, PageQuery, RoleOrGuest, RoleSchema } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';
import { Team } from '../teams/teams.schemas.ts';
import { User } from '../users/users.schemas.ts';

const entityId = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$', description });

export const UserContentPermission = component(
  'UserContentPermission',
  Type.Object(
    { permission: ref(RoleSchema), user: ref(User) },
    { description: 'Role of a user on a space or collection' },
  ),
);
export type UserContentPermissionWire = Static<typeof UserContentPermission>;

export const TeamContentPermission = component(
  'TeamContentPermission',
  Type.Object(
    { permission: ref(RoleSchema), team: ref(Team) },
    { description: 'Role of a team on a space or collection' },
  ),
);

export const UserPermissionList = ListOf(ref(UserContentPermission), 'Users granted a role, oldest grant first');
export const TeamPermissionList = ListOf(ref(TeamContentPermission), 'Teams granted a role, oldest grant first');
export const AccessList = ListOf(ref(UserContentPermission), 'Members who can access the content, with their effective role, oldest member first');

export const SpaceParams = Type.Object({ spaceId: entityId('The unique id of the space') });
export const CollectionParams = Type.Object({ collectionId: entityId('The unique id of the collection') });
export const SpaceUserParams = Type.Object({ spaceId: entityId('The unique id of the space'), userId: entityId('The unique id of the user') });
export const SpaceTeamParams = Type.Object({ spaceId: entityId('The unique id of the space'), teamId: entityId('The unique id of the team') });
export const CollectionUserParams = Type.Object({
  collectionId: entityId('The unique id of the collection'),
  userId: entityId('The unique id of the user'),
});
export const CollectionTeamParams = Type.Object({
  collectionId: entityId('The unique id of the collection'),
  teamId: entityId('The unique id of the team'),
});

/**
 * GitBook's InviteUsersAndTeams. GitBook requires `users` or `teams` (anyOf); the service
 * checks that, so the 400 names both fields instead of an anyOf failure.
 */
export const InviteUsersAndTeamsBody = Type.Object({
  role: RoleOrGuest,
  users: Type.Optional(
    Type.Array(entityId('The ID of the user to be invited'), { minItems: 1, maxItems: 1000, description: 'Members of the organization to give the role' }),
  ),
  teams: Type.Optional(
    Type.Array(entityId('The ID of the team to be invited'), { minItems: 1, maxItems: 1000, description: 'Teams of the organization to give the role' }),
  ),
});
export type InviteUsersAndTeamsInput = Static<typeof InviteUsersAndTeamsBody>;

export const UpdatePermissionBody = Type.Object({ role: RoleOrGuest });

export const ListPermissionsQuery = Type.Object({ ...PageQuery });
export const ListAggregateQuery = Type.Object({
  ...PageQuery,
  role: Type.Optional(ref(RoleSchema)),
});
