import { Type, type Static } from 'typebox';
import { ListOf, PageQuery, RoleSchema } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';

/** Most addresses one invitation request may name. */
const MAX_INVITED_EMAILS = 100;

/** An organization role, or null for guests, described for the place it is used in. */
const roleOrGuest = (description: string) => Type.Union([ref(RoleSchema), Type.Null()], { description });

// 254 characters is the longest address SMTP can carry (RFC 5321), which also keeps the
// part before @ (a new user's display name) within the 255 characters of a name. The
// format is checked by the service, whose 400 names the bad address itself.
const Email = Type.String({ minLength: 3, maxLength: 254, description: 'Email address of the user to invite' });

export const InviteLink = component(
  'InviteLink',
  Type.Object(
    {
      object: Type.Literal('invite', { description: 'Always "invite"' }),
      id: Type.String({ description: 'Unique identifier of the invite link to the organization' }),
      role: roleOrGuest('Role in the organization the invite link gives, null for guests'),
      redundant: Type.Boolean({
        description: 'True when the caller already has at least the role the invite link gives in the organization',
      }),
      urls: Type.Object({
        location: Type.String({ format: 'uri', description: 'URL of the invite link in the API' }),
      }),
    },
    { description: 'An invite link to an organization: whoever uses it joins the organization with its role' },
  ),
);
export type InviteLinkWire = Static<typeof InviteLink>;

export const InviteLinkList = ListOf(ref(InviteLink), 'Invite links of the organization, oldest first');

export const InvitedUsers = component(
  'InvitedUsers',
  Type.Object(
    {
      users: Type.Array(Type.String(), {
        description: 'Ids of the users who became members of the organization, in the order their emails were given',
      }),
      invited: Type.Integer({ description: 'The number of users who became members of the organization' }),
      failedSSOEmails: Type.Optional(
        Type.Array(Type.String(), {
          description: 'Emails that could not be made SSO members; always empty on a self-hosted server (sent when sso is true)',
        }),
      ),
    },
    { description: 'Result of inviting users to an organization' },
  ),
);
export type InvitedUsersWire = Static<typeof InvitedUsers>;

export const JoinedOrganization = component(
  'JoinedOrganization',
  Type.Object({}, { description: 'Empty result of joining an organization with an invite link' }),
);

export const InviteParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 64, description: 'The unique id of the organization' }),
  inviteId: Type.String({ minLength: 1, maxLength: 64, description: 'The unique id of the invite' }),
});

export const InviteUsersBody = Type.Object({
  emails: Type.Array(
    Type.Union([
      Email,
      Type.Object(
        { email: Email, role: Type.Optional(roleOrGuest('Role this user gets, null for guests')) },
        { description: 'An email with the role this user gets (null: guest); without role, the default role' },
      ),
    ]),
    {
      minItems: 1,
      maxItems: MAX_INVITED_EMAILS,
      description: `Users to invite (1 to ${MAX_INVITED_EMAILS}): email addresses, or { email, role } to give one of them its own role`,
    },
  ),
  role: Type.Optional(
    roleOrGuest("Role of the invited users given without a role of their own, null for guests; default: the organization's defaultRole"),
  ),
  sso: Type.Optional(Type.Boolean({ description: 'Mark the users who become members as SSO members; default false' })),
});
export type InviteUsersInput = Static<typeof InviteUsersBody>;

export const InviteLinkBody = Type.Object({
  role: roleOrGuest('Role in the organization the invite link gives, null for guests'),
});
export type InviteLinkInput = Static<typeof InviteLinkBody>;

export const ListInviteLinksQuery = Type.Object({ ...PageQuery });
