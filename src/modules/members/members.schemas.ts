import { Type, type Static } from 'typebox';
import { ListOf, OrderQuery, PageQuery, RoleOrGuest, RoleSchema } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';
import { User } from '../users/users.schemas.ts';

export const Member = component(
  'Member',
  Type.Object(
    {
      object: Type.Literal('member', { description: 'Always "member"' }),
      id: Type.String({ description: 'Unique identifier of the member: the id of the user' }),
      role: RoleOrGuest,
      user: ref(User),
      disabled: Type.Boolean({ description: 'Whether the membership is suspended: the user cannot access the organization' }),
      joinedAt: Type.String({ format: 'date-time', description: 'When the user joined the organization' }),
      lastSeenAt: Type.Optional(
        Type.String({ format: 'date-time', description: 'When the user was last seen active in the organization' }),
      ),
      sso: Type.Boolean({ description: 'Whether the user signs in to the organization through SSO' }),
      spaces: Type.Integer({ description: 'Count of spaces the member was given access to directly' }),
      teams: Type.Integer({ description: 'Count of teams of the organization the member belongs to' }),
      sites: Type.Integer({ description: 'Count of sites the member was given access to directly' }),
    },
    { description: 'A member of an organization: a user with a role in it' },
  ),
);
export type MemberWire = Static<typeof Member>;

export const MemberList = ListOf(ref(Member), 'Members of the organization');

export const MemberParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 64, description: 'The unique id of the organization' }),
  userId: Type.String({ minLength: 1, maxLength: 64, description: 'The unique id of the user' }),
});

export const MemberRoleFilter = Type.Union([ref(RoleSchema), Type.Literal('guest')], {
  description: 'Only members with this role; `guest` for members without an organization role',
});
export type MemberRoleFilterValue = Static<typeof MemberRoleFilter>;

export const MemberSort = Type.Union([Type.Literal('joinedAt'), Type.Literal('lastSeenAt'), Type.Literal('name')], {
  description:
    'Property to sort by, default joinedAt; lastSeenAt lists only members seen at least once; name sorts by display name',
});
export type MemberSortValue = Static<typeof MemberSort>;

export const ListMembersQuery = Type.Object({
  ...PageQuery,
  order: Type.Optional(OrderQuery),
  role: Type.Optional(MemberRoleFilter),
  search: Type.Optional(
    Type.String({ maxLength: 255, description: 'Only members whose display name or email contains this text (case-insensitive)' }),
  ),
  sort: Type.Optional(MemberSort),
});
export type ListMembersFilters = Static<typeof ListMembersQuery>;

export const UpdateMemberBody = Type.Object({
  role: Type.Optional(RoleOrGuest),
});
export type UpdateMemberInput = Static<typeof UpdateMemberBody>;

export const PingResponse = component(
  'OrganizationPing',
  Type.Object(
    {
      serviceVisitorClaims: Type.String({ description: 'A signed JWT (HS256, 1 hour) with claims about the member' }),
      gitbookVisitorClaims: Type.String({ description: 'The same JWT, under the name GitBook clients read' }),
    },
    { description: 'Answer to a ping: claims to attach to the user' },
  ),
);
