import { Type, type Static } from 'typebox';
import { ListOf, PageQuery, Timestamp, Id } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';
import { User } from '../users/users.schemas.ts';

const Json = (description: string) => Type.Unsafe<unknown>({ description });

export const ChangeRequestStatusSchema = Type.Union(
  [Type.Literal('draft'), Type.Literal('open'), Type.Literal('archived'), Type.Literal('merged')],
  { description: 'draft, open, archived or merged' },
);

/** A rich-text document (spec 2.1): `{ object: document, data, nodes }`. */
export const RichText = Type.Object(
  {
    object: Type.Literal('document'),
    data: Type.Optional(Type.Record(Type.String(), Json('Document data'))),
    nodes: Type.Array(Json('A block'), { maxItems: 1000 }),
  },
  { description: 'A rich-text document' },
);

export const ChangeRequest = component(
  'ChangeRequest',
  Type.Object(
    {
      object: Type.Literal('change-request'),
      id: Type.String(),
      number: Type.Integer({ description: 'Number of the change request in its space: 1, 2, 3, never reused' }),
      status: ChangeRequestStatusSchema,
      subject: Type.String(),
      description: Type.Optional(Json('Description as a rich-text document')),
      createdBy: ref(User),
      createdAt: Timestamp,
      updatedAt: Timestamp,
      mergedBy: Type.Optional(ref(User)),
      mergedAt: Type.Optional(Timestamp),
      space: Type.String(),
      revision: Type.String({ description: 'The change request’s current revision' }),
      revisionInitial: Type.String({ description: 'The space revision it started from' }),
      revisionMergedAncestor: Type.String({ description: 'The space revision it last took main’s changes from' }),
      revisionMerged: Type.Optional(Type.String({ description: 'The space revision its merge made' })),
      comments: Type.Number({ description: 'Open comments' }),
      outdated: Type.Boolean({ description: 'True when the space moved past revisionMergedAncestor' }),
      conversationsIssuesCluster: Type.Optional(Type.String({ description: 'The conversations issues cluster it was opened against' })),
      urls: Type.Object({ app: Type.String({ format: 'uri' }), location: Type.String({ format: 'uri' }) }),
    },
    { description: 'A change request: proposed edits to a space' },
  ),
);
export type ChangeRequestWire = Static<typeof ChangeRequest>;
export const ChangeRequestList = ListOf(ref(ChangeRequest), 'Change requests');

export const ChangeRequestReview = component(
  'ChangeRequestReview',
  Type.Object({
    object: Type.Literal('change-request-review'),
    id: Type.String(),
    revision: Type.String({ description: 'The revision reviewed' }),
    reviewer: ref(User),
    requestedBy: Type.Optional(ref(User)),
    status: Type.Union([Type.Literal('approved'), Type.Literal('changes-requested')]),
    outdated: Type.Boolean({ description: 'Superseded by a newer review of the same reviewer, or made on an older revision' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  }),
);
export const ChangeRequestReviewList = ListOf(ref(ChangeRequestReview), 'Reviews, oldest first');

export const RequestedReviewer = component(
  'ChangeRequestRequestedReviewer',
  Type.Object({
    object: Type.Literal('change-request-requested-reviewer'),
    revision: Type.String(),
    requestedBy: ref(User),
    createdAt: Timestamp,
    kind: Type.Literal('user'),
    user: ref(User),
  }),
);
export const RequestedReviewerList = ListOf(ref(RequestedReviewer), 'Requested reviewers');

export const Contributor = component(
  'ChangeRequestUserContributor',
  Type.Object({ updatedAt: Timestamp, count: Type.Integer(), user: ref(User), actionType: Type.Literal('edit') }),
);
export const ContributorList = ListOf(ref(Contributor), 'Users who edited the change request');

export const SpaceParams = Type.Object({ spaceId: Id('The unique id of the space') });
export const OrganizationParams = Type.Object({ organizationId: Id('The unique id of the organization') });
export const ChangeRequestParams = Type.Object({
  spaceId: Id('The unique id of the space'),
  changeRequestId: Id('The id of the change request, or its number in the space'),
});
export const ReviewParams = Type.Object({ ...ChangeRequestParams.properties, reviewId: Id('The unique id of the review') });
export const ReviewerParams = Type.Object({ ...ChangeRequestParams.properties, userId: Id('The unique id of the user') });

const Filters = {
  creator: Type.Optional(Type.String({ maxLength: 64, description: 'Only change requests created by this user' })),
  contributor: Type.Optional(Type.String({ maxLength: 64, description: 'Only change requests this user edited' })),
  requestedReviewer: Type.Optional(Type.String({ maxLength: 64, description: 'Only change requests this user was asked to review' })),
  conversationsIssuesCluster: Type.Optional(Type.String({ maxLength: 64, description: 'Only change requests opened from this conversations issues cluster' })),
  orderBy: Type.Optional(Type.Union([Type.Literal('updatedAt'), Type.Literal('createdAt')], { description: 'Sort field, newest first (default updatedAt)' })),
};
export const ListSpaceChangeRequestsQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(ChangeRequestStatusSchema),
  ...Filters,
});
export const ListOrganizationChangeRequestsQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(Type.Array(ChangeRequestStatusSchema, { maxItems: 4, description: 'Statuses to include (default open)' })),
  space: Type.Optional(Type.String({ maxLength: 64, description: 'Only change requests of this space' })),
  ...Filters,
});
export type ChangeRequestFilters = {
  status: Static<typeof ChangeRequestStatusSchema>[];
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
  conversationsIssuesCluster?: string;
  space?: string;
  orderBy: 'updatedAt' | 'createdAt';
};

export const CreateChangeRequestBody = Type.Object({
  conversationsIssuesCluster: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Id of the conversations issues cluster it addresses' })),
  subject: Type.Optional(Type.String({ maxLength: 100, description: 'Subject (at most 100 characters)' })),
  template: Type.Optional(
    Type.Object({ id: Id('Id of a built-in template'), params: Type.Optional(Type.Object({ contentRefs: Type.Optional(Type.Record(Type.String(), Json('Content reference'))) })) }),
  ),
});
export type CreateChangeRequestInput = Static<typeof CreateChangeRequestBody>;

export const UpdateChangeRequestBody = Type.Object({
  conversationsIssuesCluster: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()], { description: 'Id of the conversations issues cluster it addresses; null for none' }),
  ),
  subject: Type.Optional(Type.String({ maxLength: 100 })),
  description: Type.Optional(RichText),
  status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('open'), Type.Literal('archived')])),
});
export type UpdateChangeRequestInput = Static<typeof UpdateChangeRequestBody>;

export const MergeResult = Type.Object({ revision: Type.String(), result: Type.Literal('merge') });
export const UpdateResult = Type.Object({ revision: Type.String(), result: Type.Literal('update') });

export const SubmitReviewBody = Type.Object({
  status: Type.Union([Type.Literal('approved'), Type.Literal('changes-requested')]),
  comment: Type.Optional(Type.Object({ markdown: Type.String({ maxLength: 100_000 }) })),
});

export const RequestReviewersBody = Type.Object({
  users: Type.Array(Id('A user id'), { minItems: 1, maxItems: 100 }),
  subject: Type.Optional(Type.String({ maxLength: 100 })),
  description: Type.Optional(RichText),
});
export const RequestReviewersResult = Type.Object({ users: Type.Array(ref(RequestedReviewer)) });

// Content batch (GitBook's ChangeRequestContentChange): one schema object per operation.
const DocumentInput = Type.Union([
  Type.Object({ markdown: Type.String({ maxLength: 1_000_000 }) }),
  Type.Object({ document: Type.Object({ object: Type.Literal('document'), nodes: Type.Array(Json('A block')) }, { additionalProperties: true }) }),
]);
/** GitBook's ComputedContentSourceDocument (builtin:openapi): the page is made from a spec. */
const ComputedSourceInput = Type.Object({
  type: Type.Literal('builtin:openapi'),
  dependencies: Type.Object({
    spec: Type.Object({ ref: Type.Object({ kind: Type.Literal('openapi'), spec: Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$' }) }) }),
  }),
  props: Type.Record(Type.String({ maxLength: 50 }), Json('A prop: doc (models, operations, operation, tag, info), page, method')),
});
const PageFields = {
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  slug: Type.Optional(Type.String({ maxLength: 100, pattern: '^[a-z0-9-_]*$' })),
  emoji: Type.Optional(Type.String({ maxLength: 50 })),
  icon: Type.Optional(Type.String({ maxLength: 100 })),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  hidden: Type.Optional(Type.Boolean()),
  noIndex: Type.Optional(Type.Boolean()),
  noRobotsIndex: Type.Optional(Type.Boolean()),
};
export const InsertPageChange = Type.Object({
  operation: Type.Literal('insert_page'),
  /** GitBook's page types a batch may insert: a document page (default) or a group, which has no content. */
  type: Type.Optional(Type.Union([Type.Literal('document'), Type.Literal('group')], { description: 'document (default) or group' })),
  ...PageFields,
  computed: Type.Optional(ComputedSourceInput),
  into: Type.Optional(Id('Parent page')),
  at: Type.Optional(Type.Integer({ minimum: 0 })),
  ref: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  document: Type.Optional(DocumentInput),
});
export const UpdatePageChange = Type.Object({
  operation: Type.Literal('update_page'),
  page: Id('Page to update'),
  ...PageFields,
  computed: Type.Optional(Type.Union([ComputedSourceInput, Type.Null()])),
  document: Type.Optional(DocumentInput),
  into: Type.Optional(Type.Union([Id('New parent page'), Type.Null()])),
  at: Type.Optional(Type.Integer({ minimum: 0 })),
});
export const DeletePageChange = Type.Object({ operation: Type.Literal('delete_page'), page: Id('Page to delete') });
export const RevertPageChange = Type.Object({
  operation: Type.Literal('revert_page'),
  page: Id('Page to revert'),
  revision: Type.Optional(Id('Revision to revert to (default: the change request’s base)')),
  block: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 1000 })),
});
export const InsertFilesChange = Type.Object({
  operation: Type.Literal('insert_files'),
  files: Type.Array(
    Type.Object({
      ref: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      name: Type.String({ minLength: 1, maxLength: 256 }),
      contentType: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
      url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 })),
      // 1 MB of bytes is at most 1,398,104 base64 characters.
      base64: Type.Optional(Type.String({ maxLength: 1_398_104 })),
    }),
    { minItems: 1, maxItems: 20 },
  ),
});
export const ContentChange = Type.Union([InsertPageChange, UpdatePageChange, DeletePageChange, RevertPageChange, InsertFilesChange]);
export type ContentChangeInput = Static<typeof ContentChange>;

export const UpdateContentBody = Type.Object({ changes: Type.Array(ContentChange, { minItems: 1, maxItems: 50 }) });
export const UpdateContentQuery = Type.Object({
  compat: Type.Optional(Type.Boolean({ description: 'true (default): answer the change request; false: also the affected pages' })),
});

const PageRef = Type.Object({ object: Type.Literal('page'), id: Type.String(), urls: Type.Object({ location: Type.String({ format: 'uri' }) }) });
export const ContentUpdateChange = Type.Union([
  Type.Object({ object: Type.Literal('created_page'), ref: Type.Optional(Type.String()), page: PageRef }),
  Type.Object({ object: Type.Literal('updated_page'), page: PageRef }),
  Type.Object({ object: Type.Literal('deleted_page'), page: Type.String() }),
]);
export const ContentUpdateResult = Type.Union([
  ref(ChangeRequest),
  Type.Object({
    changeRequest: ref(ChangeRequest),
    changes: Type.Array(ContentUpdateChange),
    insertedFiles: Type.Array(Json('A RevisionFile')),
  }),
]);
