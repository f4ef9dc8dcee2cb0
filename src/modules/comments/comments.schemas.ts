import { Type, type Static } from 'typebox';
import { ListOf, OrderQuery, PageQuery, Timestamp, Id } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';
import { User } from '../users/users.schemas.ts';

const Json = (description: string) => Type.Unsafe<unknown>({ description });

/** Longest comment or reply body accepted, in characters of markdown. */
export const MAX_BODY_LENGTH = 65_536;
/** Most reactions added or removed by one update. */
export const MAX_REACTIONS_PER_UPDATE = 20;

/**
 * A comment or reply body: `{ markdown }` (the default) or `{ document }` (format=document),
 * as GitBook's `Document`. On input either form is accepted; a document is stored as the
 * markdown it writes as.
 */
export const CommentBody = Type.Object(
  {
    markdown: Type.Optional(Type.String({ maxLength: MAX_BODY_LENGTH, description: 'The body as markdown' })),
    document: Type.Optional(Json('The body as GitBook document JSON')),
  },
  { description: 'The body: { markdown } or { document }' },
);
export type CommentBodyInput = Static<typeof CommentBody>;

const Reaction = component(
  'EmojiReaction',
  Type.Object(
    {
      emoji: Type.String({ description: 'The emoji' }),
      count: Type.Number({ description: 'How many users reacted with it' }),
      users: Type.Array(Type.Object({ user: ref(User), reactedAt: Timestamp }), { description: 'Who reacted, first first' }),
    },
    { description: 'An emoji reaction by one or many users' },
  ),
);

const Permissions = Type.Object({
  view: Type.Boolean({ description: 'The caller may see it' }),
  edit: Type.Boolean({ description: 'The caller may change its body (its author)' }),
  reply: Type.Boolean({ description: 'The caller may reply and react (comment role)' }),
  delete: Type.Boolean({ description: 'The caller may delete it (its author, or an admin of the space)' }),
});

const Mentions = Type.Array(ref(User), { description: 'The members the body mentions (`[@Name](/users/<id>)` or `@[Name](user:<id>)`)' });

export const Comment = component(
  'Comment',
  Type.Object(
    {
      object: Type.Literal('comment'),
      id: Type.String(),
      postedBy: ref(User),
      postedAt: Timestamp,
      editedAt: Type.Optional(Timestamp),
      reactions: Type.Array(ref(Reaction)),
      replies: Type.Number({ description: 'How many replies the comment has' }),
      repliers: Type.Array(
        Type.Object({ updatedAt: Timestamp, count: Type.Integer(), user: ref(User) }),
        { description: 'Who replied, with how many replies and when last' },
      ),
      body: CommentBody,
      mentions: Mentions,
      target: Type.Object({
        node: Type.Optional(Type.Object({ id: Type.String() })),
        tableCell: Type.Optional(Type.Object({ record: Type.String(), definition: Type.String() })),
        changeRequest: Type.Optional(Type.String()),
        review: Type.Optional(Type.String()),
        page: Type.Optional(Type.Object({ id: Type.String() })),
        space: Type.String(),
        revision: Type.String({ description: 'The revision the target was found in' }),
      }),
      urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
      permissions: Permissions,
      status: Type.Union([Type.Literal('open'), Type.Literal('resolved')]),
      resolvedAt: Type.Optional(Timestamp),
      resolvedBy: Type.Optional(ref(User)),
    },
    { description: 'A comment on a space or a change request' },
  ),
);
export type CommentWire = Static<typeof Comment>;
export const CommentList = ListOf(ref(Comment), 'Comments');

export const CommentReply = component(
  'CommentReply',
  Type.Object(
    {
      object: Type.Literal('comment-reply'),
      id: Type.String(),
      postedBy: ref(User),
      postedAt: Timestamp,
      editedAt: Type.Optional(Timestamp),
      reactions: Type.Array(ref(Reaction)),
      body: CommentBody,
      mentions: Mentions,
      urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
      permissions: Permissions,
    },
    { description: 'A reply to a comment' },
  ),
);
export type CommentReplyWire = Static<typeof CommentReply>;
export const CommentReplyList = ListOf(ref(CommentReply), 'Replies, oldest first');

export const FormatQuery = {
  format: Type.Optional(Type.Union([Type.Literal('markdown'), Type.Literal('document')], { description: 'Body as markdown (default) or document JSON' })),
};
export type BodyFormat = 'markdown' | 'document';

export const ListCommentsQuery = Type.Object({
  ...PageQuery,
  order: Type.Optional(OrderQuery),
  ...FormatQuery,
  status: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('open'), Type.Literal('resolved')], { description: 'Which comments (default all)' })),
  targetPage: Type.Optional(Type.String({ maxLength: 64, description: 'Only comments on this page' })),
  authors: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100, description: 'Only comments posted by these users' })),
});
export interface CommentFilters {
  order: 'asc' | 'desc';
  status: 'all' | 'open' | 'resolved';
  targetPage?: string;
  authors?: string[];
}

export const ListRepliesQuery = Type.Object({ ...PageQuery, ...FormatQuery });
export const FormatOnlyQuery = Type.Object({ ...FormatQuery });
export const PageOnlyQuery = Type.Object({ ...PageQuery });

const Emoji = Type.String({ minLength: 1, maxLength: 50, description: 'A Unicode emoji' });

export const PostCommentBody = Type.Object({
  node: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'A node (block or inline key) of the page' })),
  page: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The page the comment is about' })),
  body: CommentBody,
  tableCell: Type.Optional(
    Type.Object({ record: Type.String({ minLength: 1, maxLength: 64 }), definition: Type.String({ minLength: 1, maxLength: 64 }) }, { description: 'A cell of a table of the page' }),
  ),
});
export type PostCommentInput = Static<typeof PostCommentBody>;

const ReactionChanges = {
  addedReactions: Type.Optional(Type.Array(Emoji, { maxItems: MAX_REACTIONS_PER_UPDATE, description: 'Emojis the caller reacts with' })),
  removedReactions: Type.Optional(Type.Array(Emoji, { maxItems: MAX_REACTIONS_PER_UPDATE, description: 'Emojis the caller takes back' })),
};

export const UpdateCommentBody = Type.Object({
  resolved: Type.Optional(Type.Boolean({ description: 'Resolve (true) or reopen (false)' })),
  body: Type.Optional(CommentBody),
  ...ReactionChanges,
});
export type UpdateCommentInput = Static<typeof UpdateCommentBody>;

export const PostReplyBody = Type.Object({ body: CommentBody });
export const UpdateReplyBody = Type.Object({ body: Type.Optional(CommentBody), ...ReactionChanges });
export type UpdateReplyInput = Static<typeof UpdateReplyBody>;

export const SpaceParams = Type.Object({ spaceId: Id('The unique id of the space') });
export const ChangeRequestParams = Type.Object({
  ...SpaceParams.properties,
  changeRequestId: Id('The id of the change request, or its number in the space'),
});
export const CommentParams = Type.Object({ ...SpaceParams.properties, commentId: Id('The unique id of the comment') });
export const CrCommentParams = Type.Object({ ...ChangeRequestParams.properties, commentId: Id('The unique id of the comment') });
export const ReplyParams = Type.Object({ ...CommentParams.properties, commentReplyId: Id('The unique id of the comment reply') });
export const CrReplyParams = Type.Object({ ...CrCommentParams.properties, commentReplyId: Id('The unique id of the comment reply') });
