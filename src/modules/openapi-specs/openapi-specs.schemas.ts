import { Type, type Static } from 'typebox';
import { ListOf, PageQuery, Timestamp, Id } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';

const Url = (description: string) => Type.String({ format: 'uri', maxLength: 2048, description });

export const SLUG_PATTERN = '^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$';
/** An uploaded document's limit (the fetched ones are bounded by the processing). */
export const MAX_SOURCE_TEXT = 10 * 1024 * 1024;

export const Slug = Type.String({ minLength: 1, maxLength: 100, pattern: SLUG_PATTERN, description: 'Slug used as reference' });
export const OrganizationParams = Type.Object({ organizationId: Id('The unique id of the organization') });
export const SpecParams = Type.Object({ organizationId: Id('The unique id of the organization'), specSlug: Slug });
export const VersionParams = Type.Object({
  organizationId: Id('The unique id of the organization'),
  specSlug: Slug,
  versionId: Id('The unique id of the version'),
});

export const Visibility = Type.Union([Type.Literal('private'), Type.Literal('public')], {
  description: 'private: not publicly available; public: anyone with its published URL may download it',
});

/** `{ url }` or `{ text }`; an open union (anyOf objects stay open), checked by the service. */
export const SpecSource = Type.Union(
  [
    Type.Object({ url: Url('Where the document is fetched from (again every OPENAPI_REFRESH_INTERVAL_MS)') }),
    Type.Object({ text: Type.String({ minLength: 1, maxLength: MAX_SOURCE_TEXT, description: 'The document itself, YAML or JSON' }) }),
  ],
  { description: 'Where the spec comes from' },
);
export type SpecSourceInput = Static<typeof SpecSource>;

export const CreateSpecBody = Type.Object({ slug: Slug, source: SpecSource }, { additionalProperties: false });
export const PutSpecBody = Type.Object({ source: SpecSource }, { additionalProperties: false });
export const PatchSpecBody = Type.Object({ visibility: Visibility }, { additionalProperties: false });

export const OpenAPISpec = component(
  'OpenAPISpec',
  Type.Object(
    {
      object: Type.Literal('openapi-spec'),
      id: Type.String(),
      createdAt: Timestamp,
      updatedAt: Timestamp,
      slug: Type.String(),
      sourceURL: Type.Optional(Type.String({ description: 'The URL it is fetched from (absent for an uploaded document)' })),
      processingState: Type.Union([Type.Literal('pending'), Type.Literal('progress'), Type.Literal('complete')]),
      visibility: Visibility,
      lastVersion: Type.Optional(Type.String({ description: 'Id of the latest version' })),
      lastProcessedAt: Type.Optional(Timestamp),
      lastProcessErrorCode: Type.Optional(Type.Union([Type.Literal('FETCH_TIMEOUT'), Type.Literal('FETCH_ERROR'), Type.Literal('PARSE_ERROR')])),
      lastProcessedErrors: Type.Optional(Type.Array(Type.Object({ message: Type.String(), code: Type.Optional(Type.String()) }))),
      lastProcessedErrorCount: Type.Integer({ minimum: 0 }),
      permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
      urls: Type.Object({
        location: Type.String({ format: 'uri' }),
        app: Type.String({ format: 'uri' }),
        published: Type.Optional(Type.String({ format: 'uri', description: 'Public download of the latest version (public specs)' })),
      }),
    },
    { description: 'An OpenAPI specification of the organization' },
  ),
);
export const SpecList = ListOf(ref(OpenAPISpec), 'OpenAPI specs, by slug');

export const OpenAPISpecVersion = component(
  'OpenAPISpecVersion',
  Type.Object(
    {
      object: Type.Literal('openapi-spec-version'),
      id: Type.String(),
      createdAt: Timestamp,
      url: Type.String({ format: 'uri', maxLength: 2048, description: 'Where this version was fetched from' }),
      urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
    },
    { description: 'One immutable version of a spec' },
  ),
);
export const VersionList = ListOf(ref(OpenAPISpecVersion), 'Versions, newest first');

export const OpenAPISpecContent = Type.Object({
  filesystem: Type.Record(Type.String(), Type.Unknown(), { description: 'Every file of the version by name, the entrypoint first, parsed' }),
  url: Type.String({ format: 'uri' }),
  urls: Type.Object({ source: Type.String({ format: 'uri' }), public: Type.Union([Type.Null(), Type.String({ format: 'uri' })]) }),
});
export const OpenAPISpecRawContent = Type.Object({ text: Type.String(), format: Type.Union([Type.Literal('json'), Type.Literal('yaml')]) });

export const PublicSpecParams = Type.Object({
  organizationId: Id('The unique id of the organization'),
  file: Type.String({ pattern: `^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*\\.(json|yaml)$`, maxLength: 110, description: '<slug>.json or <slug>.yaml' }),
});

export const ListQuery = Type.Object({ ...PageQuery });
