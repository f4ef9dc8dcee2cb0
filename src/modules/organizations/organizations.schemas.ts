import { Type, type Static } from 'typebox';
import { ListOf, PageQuery, RoleOrGuest, Timestamp } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';

const PricePair = Type.Object({ monthly: Type.Number({ minimum: 0 }), yearly: Type.Number({ minimum: 0 }) });

// Union branches stay open (no additionalProperties: false): Fastify's Ajv strips unknown
// properties while trying each branch, which would corrupt the branch that matches.
export const MergeRule = Type.Object({
  rule: Type.Literal('require_specific_reviewers'),
  users: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100, description: 'User ids whose approval is required' }),
});

export const MergeRules = component(
  'MergeRules',
  Type.Union(
    [
      Type.Object({ type: Type.Literal('none') }),
      Type.Object({ type: Type.Literal('rules'), rules: Type.Array(MergeRule, { maxItems: 20 }) }),
    ],
    { description: 'Rules a change request must pass before it is merged' },
  ),
);

export const DefaultContent = component(
  'OrganizationDefaultContent',
  Type.Union(
    [
      Type.Object({ type: Type.Literal('site'), site: Type.String({ minLength: 1, maxLength: 64 }) }),
      Type.Object({ type: Type.Literal('space'), space: Type.String({ minLength: 1, maxLength: 64 }) }),
      Type.Object({ type: Type.Literal('collection'), collection: Type.String({ minLength: 1, maxLength: 64 }) }),
    ],
    { description: 'Content visitors of the organization land on: a site, a space or a collection' },
  ),
);

/** Rich-text document (spec 2.1), validated in its outer shape; blocks keep their own data. */
export const RichTextDocument = component(
  'RichTextDocument',
  Type.Object(
    {
      object: Type.Literal('document'),
      data: Type.Object({ schemaVersion: Type.Optional(Type.Integer()) }, { additionalProperties: true }),
      nodes: Type.Array(
        Type.Object(
          {
            object: Type.Literal('block'),
            type: Type.String({ minLength: 1, maxLength: 64 }),
            key: Type.Optional(Type.String({ maxLength: 64 })),
            isVoid: Type.Optional(Type.Boolean()),
            data: Type.Optional(Type.Object({}, { additionalProperties: true })),
            nodes: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
          },
          { additionalProperties: true },
        ),
        { maxItems: 1000 },
      ),
    },
    { description: 'A rich-text document: { object: document, data, nodes: [block] }' },
  ),
);

export const OrganizationPermissions = Type.Object({
  view: Type.Boolean({ description: 'Can view the organization' }),
  access: Type.Boolean({ description: 'Can open the organization in the app' }),
  admin: Type.Boolean({ description: 'Can manage the title, members, teams, settings' }),
  ownTeam: Type.Boolean({ description: 'Is owner of at least one team' }),
  createContent: Type.Boolean({ description: 'Can create spaces and collections' }),
  createOpenAPISpec: Type.Boolean({ description: 'Can create OpenAPI specifications' }),
  ingestConversations: Type.Boolean({ description: 'Can ingest support conversations' }),
  viewBilling: Type.Boolean({ description: 'Can view billing details' }),
  listMembers: Type.Boolean({ description: 'Can list members' }),
  listTeams: Type.Boolean({ description: 'Can list teams' }),
  listIntegrations: Type.Boolean({ description: 'Can list integrations' }),
  listInstallations: Type.Boolean({ description: 'Can list integration installations' }),
  installIntegration: Type.Boolean({ description: 'Can install integrations' }),
});

export const Organization = component(
  'Organization',
  Type.Object(
    {
      object: Type.Literal('organization'),
      id: Type.String({ description: 'Unique identifier for the organization' }),
      title: Type.String({ description: 'Name of the organization' }),
      createdAt: Timestamp,
      emailDomains: Type.Array(Type.String(), { description: 'Email domains whose verified users may join' }),
      hostname: Type.Optional(Type.String({ description: 'Default hostname of the public content' })),
      type: Type.String({ description: 'business or community' }),
      useCase: Type.Optional(Type.String()),
      communityType: Type.Optional(Type.String()),
      defaultRole: RoleOrGuest,
      defaultContent: Type.Optional(ref(DefaultContent)),
      sso: Type.Boolean({ description: 'SSO enforced organization-wide' }),
      ai: Type.Boolean({ description: 'All AI features on' }),
      inviteLinks: Type.Boolean({ description: 'Invite links enabled' }),
      auditLogs: Type.Boolean(),
      plan: Type.String({ description: 'Always enterprise_2024 on a self-hosted server: every feature, no billing' }),
      billing: Type.Optional(
        Type.Object({
          interval: Type.String(),
          endDate: Type.Union([Timestamp, Type.Null()]),
          hasPaymentFailed: Type.Boolean(),
          canCheckout: Type.Boolean(),
          isScheduledToCancel: Type.Boolean(),
          pricing: Type.Object({
            members: Type.Object({ plus_2024: PricePair, pro_2024: PricePair }),
            sites: Type.Object({ premium: PricePair, ultimate: PricePair }),
          }),
          usageAddons: Type.Record(Type.String(), Type.Object({ enabled: Type.Boolean() })),
          canChangeInterval: Type.Boolean(),
          canUseSAML: Type.Boolean(),
          creditsBundle: Type.Null(),
          aiCreditAlertThreshold: Type.Null(),
        }),
      ),
      mergeRules: ref(MergeRules),
      urls: Type.Object({
        location: Type.String({ format: 'uri' }),
        app: Type.String({ format: 'uri' }),
        logo: Type.Optional(Type.String({ format: 'uri' })),
      }),
      trial: Type.Object({
        status: Type.String(),
        count: Type.Integer(),
        endDate: Type.Optional(Timestamp),
        decision: Type.Optional(Type.String()),
      }),
      customHostname: Type.Optional(Type.String()),
      blocked: Type.Optional(Type.Object({ source: Type.Optional(Type.String()), reason: Type.String() })),
      internal_billingMigration: Type.Optional(
        Type.Object({
          deadline: Type.Optional(Timestamp),
          discountPercent: Type.Optional(Type.Number()),
          discountEndDate: Type.Optional(Timestamp),
        }),
      ),
      permissions: OrganizationPermissions,
    },
    { description: 'An organization: members, teams and the content they own' },
  ),
);
export type OrganizationWire = Static<typeof Organization>;

export const OrganizationList = ListOf(ref(Organization), 'Organizations');

export const OrganizationParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 64, description: 'The unique id of the organization' }),
});

const Title = Type.String({ minLength: 2, maxLength: 255, pattern: '\\S.*\\S', description: 'Name of the organization' });
const EmailDomains = Type.Array(
  Type.String({ minLength: 3, maxLength: 253, pattern: '^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+$' }),
  { maxItems: 50, description: 'Email domains whose verified users may join' },
);

export const CreateOrganizationBody = Type.Object({
  title: Title,
  emailDomains: Type.Optional(EmailDomains),
});

export const UpdateOrganizationBody = Type.Object({
  title: Type.Optional(Title),
  emailDomains: Type.Optional(EmailDomains),
  hostname: Type.Optional(
    Type.String({ minLength: 3, maxLength: 32, pattern: '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$', description: 'Default public hostname (subdomain)' }),
  ),
  defaultRole: Type.Optional(RoleOrGuest),
  defaultContent: Type.Optional(Type.Union([ref(DefaultContent), Type.Null()])),
  logo: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: 2048 }), Type.Null()])),
  sso: Type.Optional(Type.Boolean()),
  ai: Type.Optional(Type.Boolean()),
  inviteLinks: Type.Optional(Type.Boolean()),
  mergeRules: Type.Optional(ref(MergeRules)),
});
export type UpdateOrganizationInput = Static<typeof UpdateOrganizationBody>;

export const EmailDomainParams = Type.Object({ emailDomain: Type.String({ minLength: 1, maxLength: 253 }) });
export const OrganizationsForEmailDomain = Type.Object({ organizations: Type.Array(ref(Organization)) });

export const ListOrganizationsQuery = Type.Object({ ...PageQuery });

export const AgentInstructions = component(
  'AgentInstructions',
  Type.Object(
    {
      object: Type.Literal('agent-instructions'),
      instructions: ref(RichTextDocument),
      updatedAt: Timestamp,
      updatedBy: Type.String({ description: 'Id of the member who last updated the instructions' }),
      urls: Type.Object({ location: Type.String() }),
    },
    { description: 'Instructions given to the docs agent of the organization' },
  ),
);
export const UpdateAgentInstructionsBody = Type.Object({ instructions: ref(RichTextDocument) });
