import { Type, type Static, type TSchema } from 'typebox';
import { ListOf, PageQuery, Timestamp, Id } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';
import { SiteStructure } from './site-sections.schemas.ts';

/*
 * Docs sites (spec 2.9, 4.5; GitBook Site, SiteCustomizationSettings, SiteAdaptiveSchema,
 * ShareLink, PublishedContentSite). docs/decisions/sites.md.
 */

const Enum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];

export const SiteTitle = Type.String({ minLength: 2, maxLength: 128, description: 'Title of the site (2 to 128 characters)' });
export const SiteType = Enum(SITE_TYPES, 'Type of the site (default basic)');
export const SiteVisibilitySchema = Enum(SITE_VISIBILITIES, 'Audience of the published site');
/** Spec 2.9. */
export const HOSTNAME_PATTERN = '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$';
/** Spec 4.5. */
export const PROXY_PATTERN = '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$';

// ---- Customization (spec 2.9; GitBook SiteCustomizationSettingsBase) ----

const Color = Type.String({ pattern: '^#(?:[0-9a-fA-F]{3}){1,2}$', description: 'Hex color' });
const ThemedColor = Type.Object({ light: Color, dark: Color });
const Url = Type.String({ format: 'uri', maxLength: 2048 });
const ThemedUrl = Type.Object({ light: Url, dark: Url });
/** A content reference (spec 2.1): kept open, as objects inside unions must stay. */
const ContentRef = Type.Union([
  Type.Object({ kind: Type.Literal('url'), url: Type.String({ maxLength: 2048 }) }),
  Type.Object({ kind: Type.Literal('page'), page: Type.String({ maxLength: 64 }), space: Type.Optional(Type.String({ maxLength: 64 })) }),
  Type.Object({ kind: Type.Literal('space'), space: Type.String({ maxLength: 64 }) }),
  Type.Object({ kind: Type.Literal('file'), file: Type.String({ maxLength: 64 }), space: Type.Optional(Type.String({ maxLength: 64 })) }),
  Type.Object({ kind: Type.Literal('openapi'), spec: Type.String({ maxLength: 100 }) }),
]);
const ContentLink = Type.Object({ title: Type.String({ maxLength: 64 }), to: ContentRef });
const FontDefinition = Type.Object({
  id: Type.String({ maxLength: 100 }),
  custom: Type.Boolean(),
  fontFamily: Type.String({ minLength: 1, maxLength: 50 }),
  fontFaces: Type.Array(
    Type.Object({
      weight: Type.Integer({ minimum: 1, maximum: 1000 }),
      sources: Type.Array(Type.Object({ url: Url, format: Type.Optional(Enum(['woff2', 'woff'])) }), { minItems: 1, maxItems: 10 }),
    }),
    { minItems: 1, maxItems: 20 },
  ),
});
const FONTS = ['ABCFavorit', 'Inter', 'Roboto', 'RobotoSlab', 'OpenSans', 'SourceSansPro', 'Lato', 'Ubuntu', 'Raleway', 'Merriweather', 'Overpass', 'NotoSans', 'IBMPlexSerif', 'Poppins', 'FiraSans'] as const;
const MONO_FONTS = ['FiraCode', 'IBMPlexMono', 'JetBrainsMono', 'SourceCodePro', 'RobotoMono', 'SpaceMono', 'DMMono', 'Inconsolata'] as const;
const CodeTheme = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9-]+$', description: 'A code theme name (e.g. default-light, github-dark)' });
const ThemedCodeTheme = Type.Object({ light: CodeTheme, dark: CodeTheme });

/** Every property of the customization object, each as it is stored and served. */
const customizationProperties = {
  title: Type.Optional(SiteTitle),
  styling: Type.Object({
    theme: Enum(['clean', 'muted', 'bold', 'gradient']),
    primaryColor: ThemedColor,
    tint: Type.Optional(Type.Object({ color: ThemedColor })),
    infoColor: ThemedColor,
    successColor: ThemedColor,
    warningColor: ThemedColor,
    dangerColor: ThemedColor,
    corners: Enum(['straight', 'rounded', 'circular']),
    depth: Enum(['subtle', 'flat']),
    links: Enum(['default', 'accent']),
    font: Type.Union([Enum(FONTS), FontDefinition]),
    monospaceFont: Type.Union([Enum(MONO_FONTS), FontDefinition]),
    background: Enum(['plain', 'match']),
    icons: Enum(['regular', 'solid', 'duotone', 'light', 'thin']),
    codeTheme: Type.Object({ default: ThemedCodeTheme, openapi: ThemedCodeTheme }),
    sidebar: Type.Object({ background: Enum(['default', 'filled']), list: Enum(['default', 'pill', 'line']) }),
    search: Enum(['prominent', 'subtle']),
  }),
  internationalization: Type.Object({ locale: Enum(['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru']) }),
  favicon: Type.Union([
    Type.Object({ icon: ThemedUrl }),
    Type.Object({ emoji: Type.String({ minLength: 1, maxLength: 50 }) }),
    Type.Object({}),
  ]),
  header: Type.Object({
    preset: Enum(['default', 'bold', 'contrast', 'custom', 'none']),
    logo: Type.Optional(ThemedUrl),
    primaryLink: Type.Optional(ContentRef),
    links: Type.Array(
      Type.Object({
        title: Type.String({ maxLength: 128 }),
        style: Type.Optional(Enum(['link', 'button-primary', 'button-secondary'])),
        to: Type.Union([ContentRef, Type.Null()]),
        links: Type.Array(ContentLink, { maxItems: 50 }),
        condition: Type.Optional(Type.String({ maxLength: 1024 })),
      }),
      { maxItems: 50 },
    ),
  }),
  footer: Type.Object({
    logo: Type.Optional(ThemedUrl),
    groups: Type.Array(Type.Object({ title: Type.String({ maxLength: 128 }), links: Type.Array(ContentLink, { maxItems: 50 }) }), { maxItems: 20 }),
    copyright: Type.Optional(Type.String({ maxLength: 512 })),
  }),
  announcement: Type.Optional(
    Type.Object({
      enabled: Type.Boolean(),
      message: Type.String({ minLength: 2, maxLength: 128 }),
      link: Type.Optional(ContentLink),
      style: Enum(['info', 'warning', 'danger', 'success']),
    }),
  ),
  themes: Type.Object({ default: Enum(['light', 'dark', 'system']), toggeable: Type.Boolean() }),
  pdf: Type.Object({ enabled: Type.Boolean() }),
  feedback: Type.Object({ enabled: Type.Boolean() }),
  ai: Type.Object({ mode: Enum(['none', 'search', 'assistant']) }),
  advancedCustomization: Type.Object({ enabled: Type.Boolean() }),
  git: Type.Object({ showEditLink: Type.Boolean() }),
  pagination: Type.Object({ enabled: Type.Boolean() }),
  trademark: Type.Object({ enabled: Type.Boolean() }),
  pageActions: Type.Object({
    items: Type.Array(Enum(['assistant', 'external-ai', 'markdown', 'mcp', 'git', 'pdf']), { maxItems: 6 }),
    externalAI: Type.Boolean(),
    markdown: Type.Boolean(),
    mcp: Type.Boolean(),
  }),
  externalLinks: Type.Object({ target: Enum(['self', 'blank']) }),
  privacyPolicy: Type.Object({ url: Type.Optional(Url) }),
  socialPreview: Type.Object({ url: Type.Optional(Url) }),
  socialAccounts: Type.Array(
    Type.Object({
      platform: Enum(['twitter', 'instagram', 'facebook', 'linkedin', 'github', 'discord', 'slack', 'youtube', 'tiktok', 'reddit', 'bluesky', 'mastodon', 'threads', 'medium']),
      handle: Type.String({ minLength: 1, maxLength: 128 }),
      display: Type.Object({ footer: Type.Boolean(), header: Type.Boolean() }),
    }),
    { maxItems: 10 },
  ),
  insights: Type.Object({ trackingCookie: Type.Boolean() }),
};

export const Customization = component(
  'SiteCustomizationSettings',
  Type.Object(
    { ...customizationProperties, updatedAt: Type.Optional(Timestamp) },
    { description: 'Customization of a published site (every field, defaults filled in)' },
  ),
);
export type CustomizationWire = Static<typeof Customization>;

export const SiteSpaceCustomization = component(
  'SiteSpaceCustomizationSettings',
  Type.Object(
    { ...customizationProperties, updatedAt: Type.Optional(Timestamp), hasOverrides: Type.Boolean({ description: 'Whether the site space overrides any setting of the site' }) },
    { description: 'Customization of one site space: the site’s, with the site space’s overrides applied' },
  ),
);

/** Each object property optional (one level deep), for inputs that merge over defaults. */
function partial(properties: Record<string, TSchema>, nullable: boolean, depth: number): Record<string, TSchema> {
  const out: Record<string, TSchema> = {};
  for (const [key, raw] of Object.entries(properties)) {
    const schema = raw as TSchema & { type?: string; properties?: Record<string, TSchema>; '~optional'?: boolean };
    let inner: TSchema = schema;
    if (depth > 0 && schema.type === 'object' && schema.properties && key !== 'favicon') {
      inner = Type.Object(partial(schema.properties, nullable, depth - 1));
    } else {
      const copy = { ...schema } as Record<string, unknown>;
      delete copy['~optional'];
      inner = copy as unknown as TSchema;
    }
    out[key] = Type.Optional(nullable ? Type.Union([inner, Type.Null()]) : inner);
  }
  return out;
}

/** PUT body: the customization object; absent fields take their defaults (PUT replaces). */
export const CustomizationInput = Type.Object(partial(customizationProperties, false, 1), {
  description: 'The customization of the site; absent fields are reset to their defaults',
});
/** PATCH body of a site space: overrides of the site customization; null removes an override. */
export const CustomizationOverrideInput = Type.Object(partial(customizationProperties, true, 2), {
  description: 'Overrides of the site customization for this site space; null resets an override',
});
export type CustomizationInputValue = Record<string, unknown>;

// ---- Site ----

export const SitePermissions = Type.Object(
  {
    view: Type.Boolean({ description: 'Can the caller view the site' }),
    access: Type.Boolean({ description: 'Can the caller access the site in the application' }),
    edit: Type.Boolean({ description: 'Can the caller edit the site' }),
    create: Type.Boolean({ description: 'Can the caller manage the site content structure' }),
    admin: Type.Boolean({ description: 'Can the caller manage the site settings and publish it' }),
    installIntegration: Type.Boolean({ description: 'Can the caller install integrations on the site' }),
    viewAdaptiveSchema: Type.Boolean({ description: 'Can the caller read the adaptive schema' }),
    editAdaptiveSchema: Type.Boolean({ description: 'Can the caller replace the adaptive schema' }),
  },
  { description: 'What the caller may do with the site' },
);
export type SitePermissionsWire = Static<typeof SitePermissions>;

export const Site = component(
  'Site',
  Type.Object(
    {
      object: Type.Literal('site'),
      id: Type.String({ description: 'Unique identifier of the site' }),
      type: SiteType,
      appliedType: SiteType,
      title: Type.String({ description: 'Title of the site' }),
      icon: Type.Optional(Type.Union([Type.Object({ icon: ThemedUrl }), Type.Object({ emoji: Type.String() })])),
      hostname: Type.Optional(Type.String({ description: 'Custom hostname' })),
      basename: Type.Optional(Type.String({ description: 'Basename of the site: its path under PUBLIC_URL/sites/' })),
      proxy: Type.Optional(Type.Object({ origin: Type.String(), target: Type.String() })),
      visibility: SiteVisibilitySchema,
      defaultLevel: Type.Literal('inherit', { description: 'Members see sites by their organization role' }),
      permissions: SitePermissions,
      published: Type.Boolean({ description: 'Whether the site is reachable by the audience of its visibility' }),
      siteSpaces: Type.Integer({ minimum: 0, description: 'Count of site spaces' }),
      createdAt: Timestamp,
      adaptiveContent: Type.Object({ enabled: Type.Boolean() }),
      ads: Type.Object({ status: Type.Literal('pending'), submittable: Type.Boolean() }),
      agentsContext: Enum(['included', 'excluded'], 'Whether AI agents may read the site'),
      features: Type.Array(
        Type.Object({ id: Type.String(), plan: SiteType, frozen: Type.Boolean(), customizations: Type.Optional(Type.Array(Type.String())) }),
      ),
      urls: Type.Object({
        location: Type.String({ format: 'uri' }),
        app: Type.String({ format: 'uri' }),
        preview: Type.String({ format: 'uri' }),
        published: Type.Optional(Type.String({ format: 'uri', description: 'Only while the site is published' })),
      }),
    },
    { description: 'A docs site' },
  ),
);
export type SiteWire = Static<typeof Site>;
export const SiteList = ListOf(ref(Site), 'Sites, oldest first');

export const OrganizationParams = Type.Object({ organizationId: Id('The unique id of the organization') });
export const SiteParams = Type.Object({ organizationId: Id('The unique id of the organization'), siteId: Id('The unique id of the site') });
export const SiteSpaceParams = Type.Object({
  organizationId: Id('The unique id of the organization'),
  siteId: Id('The unique id of the site'),
  siteSpaceId: Id('The unique id of the site space'),
});
export const ShareLinkParams = Type.Object({
  organizationId: Id('The unique id of the organization'),
  siteId: Id('The unique id of the site'),
  shareLinkId: Id('The unique id of the share link'),
});

export const ListSitesQuery = Type.Object({
  ...PageQuery,
  space: Type.Optional(Type.String({ maxLength: 64, description: 'Only sites holding this space (empty: no filter)' })),
  title: Type.Optional(Type.String({ maxLength: 255, description: 'Only sites whose title contains this text, case-insensitive' })),
  published: Type.Optional(Type.Boolean({ description: 'Only published (true) or unpublished (false) sites' })),
  type: Type.Optional(Type.Array(SiteType, { maxItems: 6, description: 'Only sites of these types' })),
});
export type ListSitesFilter = Omit<Static<typeof ListSitesQuery>, 'page' | 'limit'>;

export const CreateSiteBody = Type.Object({
  type: Type.Optional(SiteType),
  title: Type.Optional(SiteTitle),
  visibility: Type.Optional(SiteVisibilitySchema),
  spaces: Type.Optional(Type.Array(Id('Id of a space'), { maxItems: 100, description: 'Spaces to attach as site spaces, in order' })),
});
export type CreateSiteInput = Static<typeof CreateSiteBody>;

export const UpdateSiteBody = Type.Object({
  title: Type.Optional(SiteTitle),
  visibility: Type.Optional(SiteVisibilitySchema),
  basename: Type.Optional(
    Type.Union([
      Type.String({ minLength: 1, maxLength: 100, pattern: '^(?!\\.\\.?$)[A-Za-z0-9._~-]+$', description: 'Unique across the server (409)' }),
      Type.Null(),
    ]),
  ),
  hostname: Type.Optional(Type.Union([Type.String({ maxLength: 255, pattern: HOSTNAME_PATTERN, description: 'Custom hostname (spec 2.9)' }), Type.Null()])),
  proxy: Type.Optional(Type.Union([Type.String({ maxLength: 512, pattern: PROXY_PATTERN, description: 'Proxy origin (spec 4.5)' }), Type.Null()])),
  adaptiveContent: Type.Optional(Type.Object({ enabled: Type.Boolean() })),
  agentsContext: Type.Optional(Enum(['included', 'excluded'])),
  defaultSiteSpace: Type.Optional(Id('Site space to make the default (root, or the default section)')),
  defaultSiteSection: Type.Optional(Id('Section to make the default')),
});
export type UpdateSiteInput = Static<typeof UpdateSiteBody>;

// ---- Adaptive content ----

export const AdaptiveSchema = component(
  'SiteAdaptiveSchema',
  Type.Object(
    {
      object: Type.Literal('site-adaptive-schema'),
      jsonSchema: Type.Object({}, { additionalProperties: true, description: 'JSON Schema draft-07 of the visitor claims' }),
      updatedAt: Timestamp,
    },
    { description: 'The adaptive-content schema of a site' },
  ),
);
export const UpdateAdaptiveSchemaBody = Type.Object({
  jsonSchema: Type.Object({}, { additionalProperties: true, description: 'JSON Schema draft-07 (shape of spec 2.9)' }),
});

/** The shape a site's adaptive schema must have (spec 2.9, GitBook SiteAdaptiveJSONSchema). */
const primitive = {
  type: 'object',
  properties: { type: { enum: ['boolean', 'string', 'number'] }, description: { type: 'string', maxLength: 1024 } },
  required: ['type', 'description'],
  additionalProperties: false,
};
export const ADAPTIVE_SCHEMA_SHAPE = {
  $id: 'quire-adaptive-schema-shape',
  definitions: {
    claim: {
      oneOf: [
        primitive,
        {
          type: 'object',
          properties: { type: { const: 'array' }, description: { type: 'string' }, items: primitive },
          required: ['type', 'description', 'items'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: {
            type: { const: 'object' },
            description: { type: 'string' },
            properties: { type: 'object', additionalProperties: { $ref: '#/definitions/claim' } },
            additionalProperties: { const: false },
          },
          required: ['type', 'description', 'properties', 'additionalProperties'],
          additionalProperties: false,
        },
      ],
    },
  },
  type: 'object',
  properties: {
    $schema: { const: 'http://json-schema.org/draft-07/schema#' },
    type: { const: 'object' },
    properties: {
      type: 'object',
      properties: {
        unsigned: {
          type: 'object',
          properties: {
            type: { const: 'object' },
            description: { type: 'string' },
            properties: {
              type: 'object',
              maxProperties: 200,
              propertyNames: { pattern: '^[A-Za-z_$][A-Za-z0-9_$-]*$', maxLength: 100 },
              additionalProperties: {
                type: 'object',
                properties: { type: { const: 'boolean' }, description: { type: 'string', maxLength: 1024 } },
                required: ['type', 'description'],
                additionalProperties: false,
              },
            },
            additionalProperties: { const: false },
          },
          required: ['type', 'properties', 'additionalProperties'],
          additionalProperties: false,
        },
      },
      additionalProperties: { $ref: '#/definitions/claim' },
    },
    additionalProperties: { const: false },
  },
  required: ['type', 'properties', 'additionalProperties'],
  additionalProperties: false,
} as const;

export const TemplateConditions = Type.Object({
  items: Type.Array(
    Type.Object({ description: Type.String(), condition: Type.String() }, { description: 'A suggested condition' }),
  ),
});

// ---- Share links ----

export const ShareLink = component(
  'ShareLink',
  Type.Object(
    {
      object: Type.Literal('share-link'),
      id: Type.String(),
      createdAt: Timestamp,
      name: Type.Optional(Type.String()),
      active: Type.Boolean(),
      key: Type.String({ description: 'The secret a visitor presents as shareKey' }),
      urls: Type.Object({ published: Type.Optional(Type.String({ format: 'uri' })) }),
    },
    { description: 'A share link of a share-link site' },
  ),
);
export type ShareLinkWire = Static<typeof ShareLink>;
export const ShareLinkList = ListOf(ref(ShareLink), 'Share links, oldest first');
export const ListShareLinksQuery = Type.Object({
  ...PageQuery,
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Only links whose name contains this text, case-insensitive' })),
});
const ShareLinkName = Type.String({ maxLength: 50, description: 'Name of the share link (max 50 characters)' });
export const CreateShareLinkBody = Type.Object({ name: ShareLinkName });
export const UpdateShareLinkBody = Type.Object(
  { active: Type.Optional(Type.Boolean()), name: Type.Optional(ShareLinkName) },
  { minProperties: 1 },
);

// ---- Structure, published profile ----

export const ShareKeyQuery = Type.Object({
  shareKey: Type.Optional(Type.String({ maxLength: 128, description: 'Key of a share link, for share-link sites' })),
});

const Pointer = Type.Object({
  type: Enum(['site-space', 'site-section', 'site-section-group', 'site-external-link']),
  id: Id('Id of the site space, section, section group or external link'),
});
export const SortStructureBody = Type.Object({
  item: Pointer,
  position: Type.Optional(
    Type.Object({ before: Type.Optional(Pointer), after: Type.Optional(Pointer) }, { description: 'Absent: the end of its level' }),
  ),
});
export type SortStructureInput = Static<typeof SortStructureBody>;

export const PublishedSite = component(
  'PublishedContentSite',
  Type.Object(
    {
      object: Type.Literal('published-content-site'),
      site: ref(Site),
      structure: ref(SiteStructure),
      customizations: Type.Object({
        site: ref(Customization),
        siteSpaces: Type.Record(Type.String(), ref(Customization)),
      }),
      scripts: Type.Array(Type.Object({ script: Type.String(), contentSecurityPolicy: Type.Optional(Type.String()), cookies: Type.Boolean() })),
    },
    { description: 'What the published site renders: the site, its structure and customizations' },
  ),
);


// ---- Visitor authentication (GitBook's site-publishing-auth) ----

export const SitePublishingAuth = component(
  'SitePublishingAuth',
  Type.Object(
    {
      object: Type.Literal('publishing-auth'),
      backend: Type.Literal('custom', { description: 'Visitors are authenticated by a JWT the owner signs (HS256, `exp` required)' }),
      privateKey: Type.String({ description: "Private key used to sign visitor JWTs (the site's visitor-auth key)" }),
    },
    { description: "A site's visitor authentication: the key its owner signs visitor tokens with" },
  ),
);
