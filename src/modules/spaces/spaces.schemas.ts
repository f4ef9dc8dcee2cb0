import { Type, type Static } from 'typebox';
import { ListOf, OrderQuery, PageQuery, RoleSchema, Timestamp, Id } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';
import { MergeRule } from '../organizations/organizations.schemas.ts';

const LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl'] as const;

export const Visibility = component(
  'ContentVisibility',
  Type.Union(
    [
      Type.Literal('public'),
      Type.Literal('unlisted'),
      Type.Literal('share-link'),
      Type.Literal('visitor-auth'),
      Type.Literal('in-collection'),
      Type.Literal('private'),
    ],
    {
      description:
        'public: anyone, indexed; unlisted: anyone, not indexed; share-link: anyone with the share key; ' +
        'visitor-auth: visitors authenticated by JWT (published sites); in-collection: whoever can access the parent collection; private: authorized members',
    },
  ),
);

export type LanguageName = (typeof LANGUAGES)[number];
export const Language = Type.Unsafe<LanguageName>({ type: 'string', enum: [...LANGUAGES], description: 'Language of the content' });

export const DefaultLevelSchema = component(
  'DefaultLevel',
  Type.Union([ref(RoleSchema), Type.Null(), Type.Literal('inherit')], {
    description: 'Role every member with an organization role gets on the content; null: none; inherit: the parent collection’s',
  }),
);

export const SpaceMergeRules = component(
  'SpaceMergeRules',
  Type.Union(
    [
      Type.Object({ type: Type.Literal('inherit') }),
      Type.Object({ type: Type.Literal('none') }),
      Type.Object({ type: Type.Literal('rules'), rules: Type.Array(MergeRule, { maxItems: 20 }) }),
    ],
    { description: 'Merge rules of the space: the organization’s (inherit), none, or its own rules' },
  ),
);

const SpaceTitle = Type.String({ maxLength: 50, description: 'Title of the space (at most 50 characters)' });
const Emoji = Type.String({ maxLength: 50, description: 'Emoji of the space (at most 50 characters)' });

export const SpacePermissions = Type.Object(
  {
    view: Type.Boolean({ description: 'Can the caller view the space content' }),
    access: Type.Boolean({ description: 'Can the caller access the space in the application' }),
    admin: Type.Boolean({ description: 'Can the caller administrate the space' }),
    viewInviteLinks: Type.Boolean({ description: 'Can the caller view the invite links of the space' }),
    edit: Type.Boolean({ description: 'Can the caller edit the space content (live or through change requests)' }),
    triggerGitSync: Type.Boolean({ description: 'Can the caller trigger a git sync' }),
    comment: Type.Boolean({ description: 'Can the caller comment on the space' }),
    merge: Type.Boolean({ description: 'Can the caller merge change requests' }),
    review: Type.Boolean({ description: 'Can the caller review change requests' }),
    installIntegration: Type.Boolean({ description: 'Can the caller install integrations on the space' }),
  },
  { description: 'What the caller may do with the space' },
);

export const Space = component(
  'Space',
  Type.Object(
    {
      object: Type.Literal('space'),
      id: Type.String({ description: 'Unique identifier of the space' }),
      title: Type.String({ description: 'Title of the space' }),
      emoji: Type.String({ description: 'Emoji of the space ("" when none)' }),
      visibility: ref(Visibility),
      createdAt: Timestamp,
      updatedAt: Timestamp,
      deletedAt: Type.Optional(Timestamp),
      editMode: Type.Union([Type.Literal('live'), Type.Literal('locked')]),
      mergeRules: ref(SpaceMergeRules),
      urls: Type.Object({
        location: Type.String({ format: 'uri', description: 'URL of the space in the API' }),
        app: Type.String({ format: 'uri', description: 'URL of the space in the application' }),
        published: Type.Optional(Type.String({ format: 'uri' })),
        public: Type.Optional(Type.String({ format: 'uri' })),
      }),
      organization: Type.String({ description: 'Id of the organization owning the space' }),
      parent: Type.Optional(Type.String({ description: 'Id of the parent collection' })),
      language: Type.Optional(Language),
      revision: Type.String({ description: 'Id of the current revision' }),
      defaultLevel: ref(DefaultLevelSchema),
      comments: Type.Number({ description: 'Count of open comments' }),
      changeRequests: Type.Number({ description: 'Count of change requests' }),
      changeRequestsOpen: Type.Number({ description: 'Count of open change requests' }),
      changeRequestsDraft: Type.Number({ description: 'Count of draft change requests' }),
      permissions: SpacePermissions,
      gitSync: Type.Optional(
        Type.Object(
          {
            repoName: Type.Optional(Type.String()),
            installationId: Type.String(),
            installationProvider: Type.String(),
            installationStatus: Type.String(),
            integration: Type.Optional(Type.String()),
            url: Type.Optional(Type.String()),
            updatedAt: Type.Optional(Timestamp),
          },
          { description: 'Git sync of the space (GitBook GitSyncState); absent until a sync was set up' },
        ),
      ),
    },
    { description: 'A space: a tree of pages with its history of revisions' },
  ),
);
export type SpaceWire = Static<typeof Space>;

export const SpaceList = ListOf(ref(Space), 'Spaces, oldest first');


export const OrganizationParams = Type.Object({ organizationId: Id('The unique id of the organization') });
export const SpaceParams = Type.Object({ spaceId: Id('The unique id of the space') });
export const CollectionParams = Type.Object({ collectionId: Id('The unique id of the collection') });

export const GetSpaceQuery = Type.Object({
  shareKey: Type.Optional(Type.String({ maxLength: 128, description: 'Share key of a share-link space' })),
});

export const ListSpacesQuery = Type.Object({ ...PageQuery });

export const CreateSpaceBody = Type.Object({
  title: Type.Optional(SpaceTitle),
  emoji: Type.Optional(Emoji),
  parent: Type.Optional(Id('Id of the parent collection')),
  language: Type.Optional(Language),
  editMode: Type.Optional(Type.Union([Type.Literal('live'), Type.Literal('locked')])),
  visibility: Type.Optional(ref(Visibility)),
});
export type CreateSpaceInput = Static<typeof CreateSpaceBody>;

export const UpdateSpaceBody = Type.Object({
  title: Type.Optional(SpaceTitle),
  emoji: Type.Optional(Type.Union([Emoji, Type.Null()])),
  editMode: Type.Optional(Type.Union([Type.Literal('live'), Type.Literal('locked')])),
  defaultLevel: Type.Optional(ref(DefaultLevelSchema)),
  language: Type.Optional(Language),
  mergeRules: Type.Optional(ref(SpaceMergeRules)),
  visibility: Type.Optional(ref(Visibility)),
});
export type UpdateSpaceInput = Static<typeof UpdateSpaceBody>;

const Pointer = Type.Union([
  Type.Object({ type: Type.Literal('space'), space: Id('Id of a sibling space') }),
  Type.Object({ type: Type.Literal('collection'), collection: Id('Id of a sibling collection') }),
]);

export const ContentPosition = Type.Object(
  { before: Type.Optional(Pointer), after: Type.Optional(Pointer) },
  { description: 'Where to put the item among its siblings: before or after one of them (default: last)' },
);
export type ContentPositionInput = Static<typeof ContentPosition>;

export const MoveSpaceBody = Type.Object(
  {
    parent: Type.Optional(Type.Union([Id('Id of the parent collection'), Type.Null()])),
    position: Type.Optional(ContentPosition),
  },
  { minProperties: 1 },
);
export type MoveSpaceInput = Static<typeof MoveSpaceBody>;

export const TransferSpaceBody = Type.Object({
  organization: Id('Id of the organization to transfer the space to'),
});

// A member's spaces (GET /orgs/{id}/members/{userId}/spaces): spaces, so the spaces module's.
export const MemberContentPermission = component(
  'MemberContentPermission',
  Type.Object(
    {
      permission: ref(RoleSchema),
      space: Type.Unsafe<SpaceWire>({ $ref: 'Space#', description: 'The space the member may access' }),
    },
    { description: 'The role a member holds in one space' },
  ),
);
export const MemberSpaceList = ListOf(ref(MemberContentPermission), 'Spaces the member can access, with their role on each');

export const ListMemberSpacesQuery = Type.Object({ ...PageQuery, order: Type.Optional(OrderQuery) });
