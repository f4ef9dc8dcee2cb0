import { Type, type Static } from 'typebox';
import { ListOf, PageQuery, RoleSchema } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';

const entityId = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$', description });

// A title must hold a visible character: "   " is no name (docs/decisions/collections.md).
const CollectionTitle = Type.String({ minLength: 1, maxLength: 50, pattern: '\\S', description: 'Title of the collection (1 to 50 characters)' });
const CollectionDescription = Type.String({ maxLength: 100, description: 'Description of the collection (up to 100 characters; empty clears it)' });

/** GitBook's DefaultLevel: a role, null (no access by default) or `inherit` (the parent's level). */
export const DefaultLevelSchema = Type.Union([ref(RoleSchema), Type.Null(), Type.Literal('inherit')], {
  description: 'What members with an organization role get on the content: a role, null (their role only) or inherit (the parent collection\'s level)',
});

export const Collection = component(
  'Collection',
  Type.Object(
    {
      object: Type.Literal('collection', { description: 'Always "collection"' }),
      id: Type.String({ description: 'Unique identifier for the collection' }),
      title: Type.String({ description: 'Title of the collection' }),
      description: Type.Optional(Type.String({ description: 'Description of the collection' })),
      organization: Type.String({ description: 'ID of the organization owning this collection' }),
      parent: Type.Optional(Type.String({ description: 'ID of the parent collection, if any' })),
      defaultLevel: DefaultLevelSchema,
      urls: Type.Object({
        location: Type.String({ format: 'uri', description: 'URL of the collection in the API' }),
        app: Type.String({ format: 'uri', description: 'URL of the collection in the application' }),
      }),
      permissions: Type.Object(
        {
          view: Type.Boolean({ description: 'Can the caller view the collection' }),
          admin: Type.Boolean({ description: 'Can the caller manage the collection: edit, move, delete, permissions' }),
          viewInviteLinks: Type.Boolean({ description: 'Can the caller view the invite links of the collection' }),
          create: Type.Boolean({ description: 'Can the caller create spaces and collections in this collection' }),
        },
        { description: 'What the caller may do with the collection' },
      ),
    },
    { description: 'A collection of spaces and collections' },
  ),
);
export type CollectionWire = Static<typeof Collection>;

export const CollectionList = ListOf(ref(Collection), 'Collections of an organization, oldest first');

export const OrganizationParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 64, description: 'The unique id of the organization' }),
});
export const CollectionParams = Type.Object({ collectionId: entityId('The unique id of the collection') });

export const ListCollectionsQuery = Type.Object({
  ...PageQuery,
  nested: Type.Optional(Type.Boolean({ default: true, description: 'If true (default), nested collections are listed too; else only top-level ones' })),
});

export const CreateCollectionBody = Type.Object({
  title: Type.Optional(CollectionTitle),
  description: Type.Optional(CollectionDescription),
  parent: Type.Optional(entityId('ID of a parent collection')),
});
export type CreateCollectionInput = Static<typeof CreateCollectionBody>;

export const UpdateCollectionBody = Type.Object({
  title: Type.Optional(CollectionTitle),
  description: Type.Optional(CollectionDescription),
  defaultLevel: Type.Optional(DefaultLevelSchema),
});
export type UpdateCollectionInput = Static<typeof UpdateCollectionBody>;

const SpacePointer = Type.Object({ type: Type.Literal('space'), space: entityId('Unique identifier for the space') });
const CollectionPointer = Type.Object({ type: Type.Literal('collection'), collection: entityId('Unique identifier for the collection') });
const ContentPointer = Type.Union([SpacePointer, CollectionPointer]);

/**
 * GitBook's ContentPosition: before or after a sibling space or collection. Not a named
 * component (the spaces module may declare its own); exactly one of the two is expected.
 */
export const ContentPosition = Type.Object(
  { before: Type.Optional(ContentPointer), after: Type.Optional(ContentPointer) },
  { description: 'Position at which to insert an item' },
);
export type ContentPositionInput = Static<typeof ContentPosition>;

export const MoveCollectionBody = Type.Object(
  {
    parent: Type.Optional(Type.Union([entityId('The unique id of the parent collection'), Type.Null()], { description: 'The new parent collection; null for the organization root' })),
    position: Type.Optional(ContentPosition),
  },
  { minProperties: 1 },
);
export type MoveCollectionInput = Static<typeof MoveCollectionBody>;

export const TransferCollectionBody = Type.Object({
  organization: Type.String({ minLength: 1, maxLength: 64, description: 'The unique id of the target organization' }),
});
