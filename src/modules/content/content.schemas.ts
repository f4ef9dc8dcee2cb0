import { Type, type Static } from 'typebox';
import { ListOf, PageQuery, Timestamp, Id } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';


/** Any JSON value (document JSON, content references): serialized as it is. */
const Json = (description: string) => Type.Unsafe<unknown>({ description });

export const RevisionFile = component(
  'RevisionFile',
  Type.Object(
    {
      id: Type.String(),
      name: Type.String(),
      contentType: Type.String(),
      downloadURL: Type.String({ format: 'uri', description: 'Signed URL serving the file’s bytes' }),
      size: Type.Number(),
      dimensions: Type.Optional(Type.Object({ width: Type.Number(), height: Type.Number() })),
      git: Type.Optional(Type.Object({ oid: Type.String(), path: Type.String() }, { description: 'Where the file is in git (git sync)' })),
    },
    { description: 'A file of a revision' },
  ),
);

// Pages nest pages: the schema refers to itself by its component id.
const PageRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'RevisionPage#' });

const Layout = Type.Object({
  width: Type.String(),
  cover: Type.Boolean(),
  coverSize: Type.String(),
  coverMask: Type.String(),
  title: Type.Boolean(),
  description: Type.Boolean(),
  tableOfContents: Type.Boolean(),
  outline: Type.Boolean(),
  pagination: Type.Boolean(),
  metadata: Type.Boolean(),
  tags: Type.Boolean(),
  actions: Type.Boolean(),
  anchors: Type.Boolean(),
});

/*
 * One object schema for the three page types (document, group, link): the serializer
 * writes only the fields a page has, and each type's fields are those of GitBook's
 * RevisionPageDocument / RevisionPageGroup / RevisionPageLink.
 */
export const RevisionPage = component(
  'RevisionPage',
  Type.Object(
    {
      id: Type.String(),
      title: Type.String(),
      emoji: Type.Optional(Type.String()),
      icon: Type.Optional(Type.String()),
      createdAt: Type.Optional(Timestamp),
      updatedAt: Type.Optional(Timestamp),
      kind: Type.String({ description: 'sheet, group or link (deprecated: see type)' }),
      type: Type.String({ description: 'document, group or link' }),
      urls: Type.Optional(Type.Object({ app: Type.String({ format: 'uri' }) })),
      slug: Type.Optional(Type.String()),
      path: Type.Optional(Type.String({ description: 'Slugs from the top of the revision joined by /' })),
      description: Type.Optional(Type.String()),
      pages: Type.Optional(Type.Array(PageRef)),
      layout: Type.Optional(Layout),
      cover: Type.Optional(Json('Cover image of the page')),
      variables: Type.Optional(Type.Record(Type.String(), Json('Variable value'))),
      hidden: Type.Optional(Type.Boolean()),
      noIndex: Type.Optional(Type.Boolean()),
      noRobotsIndex: Type.Optional(Type.Boolean()),
      tags: Type.Optional(Type.Array(Json('Tag'))),
      documentId: Type.Optional(Type.String({ description: 'Id of the document holding the page body' })),
      document: Type.Optional(Json('The page body as GitBook document JSON (format=document)')),
      markdown: Type.Optional(Type.String({ description: 'The page body as markdown (format=markdown)' })),
      target: Type.Optional(Json('Target of a link page')),
      href: Type.Optional(Type.String()),
      git: Type.Optional(Type.Object({ oid: Type.String(), path: Type.String() }, { description: 'Where the page file is in git (git sync)' })),
      computed: Type.Optional(Json('What the page is computed from (type builtin:openapi), as stored; `evaluated=true` expands it')),
      computedSeed: Type.Optional(Type.String({ description: 'Seed of the ids of the computed content' })),
    },
    { description: 'A page of a revision (GitBook RevisionPage)' },
  ),
);

export const Revision = component(
  'Revision',
  Type.Object(
    {
      object: Type.Literal('revision'),
      id: Type.String(),
      parents: Type.Array(Type.String()),
      pages: Type.Array(ref(RevisionPage)),
      files: Type.Array(ref(RevisionFile)),
      reusableContents: Type.Array(Json('Reusable content')),
      tags: Type.Array(Json('Tag')),
      variables: Type.Record(Type.String(), Json('Variable value')),
      createdAt: Timestamp,
      git: Type.Optional(Json('Git commit of the revision')),
      urls: Type.Object({ app: Type.String({ format: 'uri' }) }),
      type: Type.String({ description: 'How the revision was made: edits, merge, update, rollback' }),
      // The ChangeRequest component is the change-requests module's, referred to by its id.
      mergedFrom: Type.Optional(Type.Unsafe<Record<string, unknown>>({ $ref: 'ChangeRequest#', description: 'Merge revisions: the change request merged' })),
    },
    { description: 'An immutable state of a space’s content' },
  ),
);

export type RevisionFileWire = Static<typeof RevisionFile>;
export type RevisionPageWire = Static<typeof RevisionPage>;
export type RevisionWire = Static<typeof Revision>;

export const PagesResponse = Type.Object({ pages: Type.Array(ref(RevisionPage)) }, { description: 'The page tree of a revision' });
export const FileList = ListOf(ref(RevisionFile), 'Files of a revision, by id');

export const SpaceParams = Type.Object({ spaceId: Id('The unique id of the space') });
export const RevisionParams = Type.Object({ spaceId: Id('The unique id of the space'), revisionId: Id('The unique id of the revision') });
export const FileParams = Type.Object({ spaceId: Id('The unique id of the space'), fileId: Id('The unique id of the file') });
export const RevisionFileParams = Type.Object({ ...RevisionParams.properties, fileId: Id('The unique id of the file') });
export const PageParams = Type.Object({ spaceId: Id('The unique id of the space'), pageId: Id('The unique id of the page') });
export const RevisionPageParams = Type.Object({ ...RevisionParams.properties, pageId: Id('The unique id of the page') });
export const PathParams = Type.Object({ spaceId: Id('The unique id of the space'), pagePath: Type.String({ minLength: 1, maxLength: 2048, description: 'Path of the page (slugs joined by /, URL-encoded)' }) });
export const RevisionPathParams = Type.Object({ ...RevisionParams.properties, pagePath: PathParams.properties.pagePath });
export const DownloadParams = Type.Object({
  scope: Id('The unique id of the space holding the file'),
  hash: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Content hash of the file' }),
  name: Type.String({ minLength: 1, maxLength: 512, description: 'File name' }),
});

const ContentQuery = {
  metadata: Type.Optional(Type.Boolean({ description: 'When false, mutable git metadata is omitted (default true)' })),
  computed: Type.Optional(Type.Boolean({ description: 'When false, computed content is not computed (default true)' })),
  shareKey: Type.Optional(Type.String({ maxLength: 128, description: 'Share key of a share-link space' })),
};
export const RevisionQuery = Type.Object(ContentQuery);
export const FilesQuery = Type.Object({ ...PageQuery, ...ContentQuery });
export const PageQueryParams = Type.Object({
  ...ContentQuery,
  format: Type.Optional(Type.Union([Type.Literal('document'), Type.Literal('markdown')], { description: 'Body as document JSON (default) or markdown' })),
  evaluated: Type.Optional(
    Type.Union([Type.Boolean(), Type.Literal('deterministic-only')], {
      description: 'Resolve variable expressions: true, false (default) or deterministic-only',
    }),
  ),
  dereferenced: Type.Optional(Type.Boolean({ description: 'Accepted for compatibility; reusable content is not inlined' })),
});
export type PageQueryInput = Static<typeof PageQueryParams>;

export const ApplyTemplateBody = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'Id of a built-in template: blank, product-docs, api-docs, knowledge-base' }),
  params: Type.Optional(
    Type.Object({ contentRefs: Type.Optional(Type.Record(Type.String(), Json('Content reference'))) }, { description: 'Template parameters (the built-in templates take none)' }),
  ),
  changeRequestId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Apply to this change request instead of the main content' })),
});
