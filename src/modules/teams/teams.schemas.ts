import { Type, type Static } from 'typebox';
import { ListOf, PageQuery, TeamRoleSchema } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';
import type { MemberWire } from '../members/members.schemas.ts';

// A title must hold a visible character: "   " is no name (docs/decisions/teams.md).
const TeamTitle = Type.String({ minLength: 1, maxLength: 64, pattern: '\\S', description: 'Title of the team (1 to 64 characters)' });

export const TeamPermissions = Type.Object(
  {
    admin: Type.Boolean({ description: 'Can the caller manage the team: rename it and manage its members' }),
    view: Type.Boolean({ description: 'Can the caller view the team and list its members' }),
  },
  { description: 'What the caller may do with the team' },
);

export const Team = component(
  'Team',
  Type.Object(
    {
      object: Type.Literal('team', { description: 'Always "team"' }),
      id: Type.String({ description: 'Unique identifier for the team' }),
      title: Type.String({ description: 'Title of the team' }),
      members: Type.Integer({ minimum: 0, description: 'Count of members in this team' }),
      spaces: Type.Number({ minimum: 0, description: 'Count of spaces this team has access to' }),
      createdAt: Type.String({ format: 'date-time', description: 'Date at which the team was created' }),
      permissions: TeamPermissions,
    },
    { description: 'A team of organization members (GitBook OrganizationTeam)' },
  ),
);
export type TeamWire = Static<typeof Team>;

export const TeamList = ListOf(ref(Team), 'Teams of an organization, oldest first');

/** `{ role }` of a user in a team (GitBook TeamMember). */
export const TeamMembership = component(
  'TeamMembership',
  Type.Object({ role: ref(TeamRoleSchema) }, { description: 'Role of a user in a team' }),
);

const teamId = () => Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$', description: 'The unique id of the team' });

export const OrganizationParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 64, description: 'The unique id of the organization' }),
});
export const TeamParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 64, description: 'The unique id of the organization' }),
  teamId: teamId(),
});
export const TeamMemberParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 64, description: 'The unique id of the organization' }),
  teamId: teamId(),
  userId: Type.String({ minLength: 1, maxLength: 64, description: 'The unique id of the user' }),
});

export const ListTeamsQuery = Type.Object({
  ...PageQuery,
  owner: Type.Optional(
    Type.String({ maxLength: 64, description: 'A member id: only the teams that member can manage (empty: no filter)' }),
  ),
  title: Type.Optional(
    Type.String({ maxLength: 255, description: 'Only teams whose title contains this text, case-insensitive (empty: no filter)' }),
  ),
});
export type ListTeamsFilter = Omit<Static<typeof ListTeamsQuery>, 'page' | 'limit'>;

export const ListTeamMembersQuery = Type.Object({ ...PageQuery });

export const CreateTeamBody = Type.Object({
  title: TeamTitle,
  members: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: 1000,
      description: 'User ids of organization members to put in the team (role member)',
    }),
  ),
});
export type CreateTeamInput = Static<typeof CreateTeamBody>;

export const UpdateTeamBody = Type.Object({ title: TeamTitle });

const UserReference = Type.String({ minLength: 1, maxLength: 320, description: 'A user id or an email address' });

export const UpdateTeamMembersBody = Type.Object({
  add: Type.Optional(Type.Array(UserReference, { maxItems: 1000, description: 'Users to add (role member unless `memberships` says otherwise)' })),
  remove: Type.Optional(Type.Array(UserReference, { maxItems: 1000, description: 'Users to remove; wins over `add` and `memberships`' })),
  memberships: Type.Optional(
    Type.Record(Type.String({ minLength: 1, maxLength: 320 }), ref(TeamMembership), {
      maxProperties: 1000,
      description: 'Role to give each user (by user id or email); adds the user when not yet in the team',
    }),
  ),
});
export type UpdateTeamMembersInput = Static<typeof UpdateTeamMembersBody>;

export const AddTeamMemberBody = Type.Object({
  role: Type.Optional(ref(TeamRoleSchema)),
});

/*
 * The Member component belongs to the members module, whose schemas import Team from this
 * file; importing Member back at run time would be an import cycle, so it is referenced by
 * its component id (registered by members.schemas.ts) and typed through a type-only import.
 */
const MemberRef = Type.Unsafe<MemberWire>({ $ref: 'Member#' });

export const OrganizationTeamMember = component(
  'OrganizationTeamMember',
  Type.Object(
    {
      organization: MemberRef,
      team: ref(TeamMembership),
      permissions: Type.Object(
        { view: Type.Boolean({ description: 'Can the caller view this team member' }) },
        { description: 'What the caller may do with this team member' },
      ),
    },
    { description: 'A member of a team: their organization membership and their role in the team' },
  ),
);
export type OrganizationTeamMemberWire = Static<typeof OrganizationTeamMember>;

export const TeamMemberList = ListOf(ref(OrganizationTeamMember), 'Members of a team');

// A member's teams (GET /orgs/{id}/members/{userId}/teams): teams, so the teams module's.
export const MemberTeam = component(
  'MemberTeam',
  Type.Object(
    {
      team: ref(Team),
      member: ref(TeamMembership),
    },
    { description: 'A team a member belongs to, with their role in it' },
  ),
);
export const MemberTeamList = ListOf(ref(MemberTeam), 'Teams the member belongs to');

export const ListMemberTeamsQuery = Type.Object({
  ...PageQuery,
  title: Type.Optional(
    Type.String({ maxLength: 255, description: 'Only teams whose title contains this text (case-insensitive)' }),
  ),
});
