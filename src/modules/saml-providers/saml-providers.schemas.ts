import { Type, type Static } from 'typebox';
import { ListOf, PageQuery, RoleOrGuest, RoleSchema } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';
import { Team } from '../teams/teams.schemas.ts';

const Label = Type.String({ minLength: 1, maxLength: 30, pattern: '\\S', description: 'Name shown on the sign-in page (1 to 30 characters)' });
const EntityId = Type.String({ minLength: 1, maxLength: 1024, description: "The identity provider's entity ID (the Issuer of its responses)" });
const Certificate = Type.String({
  minLength: 1,
  maxLength: 10000,
  description: "The identity provider's signing certificate, PEM (or its base64 body)",
});
const SsoUrl = Type.String({
  format: 'uri',
  maxLength: 2048,
  pattern: '^https?://',
  description: "The identity provider's single sign-on URL (HTTP-Redirect binding)",
});
const DefaultRole = Type.Union([ref(RoleSchema), Type.Null()], {
  description: 'Role given to users who join the organization through this provider; null for guests',
});

export const SamlProviderService = Type.Object(
  {
    acsURL: Type.String({ format: 'uri', description: 'Assertion Consumer Service URL (HTTP-POST binding)' }),
    startURL: Type.String({ format: 'uri', description: 'Where a sign-in through this provider starts' }),
    entityID: Type.String({ maxLength: 1024, description: "Quire's entity ID for this provider; its metadata XML is served there" }),
  },
  { description: "Quire's own service-provider endpoints for this provider" },
);

export const SamlProvider = component(
  'SAMLProvider',
  Type.Object(
    {
      object: Type.Literal('saml-provider', { description: 'Always "saml-provider"' }),
      id: Type.String({ description: 'Unique identifier for the provider' }),
      label: Type.String({ description: 'Name shown on the sign-in page' }),
      ssoURL: Type.String({ format: 'uri', description: "The identity provider's single sign-on URL" }),
      entityID: Type.String({ description: "The identity provider's entity ID" }),
      certificate: Type.String({ description: "The identity provider's signing certificate (PEM)" }),
      defaultTeam: Type.Optional(ref(Team)),
      defaultRole: RoleOrGuest,
      createdAt: Type.String({ format: 'date-time', description: 'When the provider was created' }),
      status: Type.Union([Type.Literal('active'), Type.Literal('pending')], {
        description: 'active: usable to sign in (Quire stores only complete providers, so always active)',
      }),
      service: SamlProviderService,
      urls: Type.Object({ location: Type.String({ format: 'uri', description: 'URL of the provider in the API' }) }),
    },
    { description: 'A SAML identity provider of an organization (GitBook OrganizationSAMLProvider)' },
  ),
);
export type SamlProviderWire = Static<typeof SamlProvider>;

export const SamlProviderList = ListOf(ref(SamlProvider), 'SAML providers of an organization, oldest first');

export const SsoProviderLogin = Type.Object(
  {
    id: Type.String({ description: 'Unique identifier for the provider' }),
    label: Type.String({ description: 'Name of the provider' }),
    startURL: Type.String({ format: 'uri', description: 'Where a sign-in through this provider starts' }),
  },
  { description: 'How to sign in through one provider' },
);
export const SsoProviderLoginList = Type.Object({ items: Type.Array(SsoProviderLogin) }, { description: 'Sign-in providers of an organization' });

export const OrganizationParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 64, description: 'The unique id of the organization' }),
});
export const ProviderParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 64, description: 'The unique id of the organization' }),
  samlProviderId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$', description: 'The unique id of the SAML provider' }),
});
export const ListProvidersQuery = Type.Object({ ...PageQuery });

export const CreateProviderBody = Type.Object({
  label: Label,
  entityID: EntityId,
  certificate: Certificate,
  ssoURL: SsoUrl,
  defaultTeam: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()], { description: 'Team id new members join' })),
  defaultRole: Type.Optional(DefaultRole),
});
export type CreateProviderInput = Static<typeof CreateProviderBody>;

export const UpdateProviderBody = Type.Object(
  {
    label: Type.Optional(Label),
    entityID: Type.Optional(EntityId),
    certificate: Type.Optional(Certificate),
    ssoURL: Type.Optional(SsoUrl),
    defaultTeam: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()], { description: 'Team id new members join; null: none' }),
    ),
    defaultRole: Type.Optional(DefaultRole),
  },
  { minProperties: 1 },
);
export type UpdateProviderInput = Static<typeof UpdateProviderBody>;
