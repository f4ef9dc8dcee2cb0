import { Type } from 'typebox';

const id = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$', description });

export const ToQuery = Type.Object({ to: Type.Optional(Type.String({ maxLength: 2000 })) });
export const SignInQuery = Type.Object({ to: Type.Optional(Type.String({ maxLength: 2000 })), org: Type.Optional(Type.String({ maxLength: 255 })) });
/** An organization's ID or hostname. */
export const SignInParams = Type.Object({ organization: Type.String({ minLength: 1, maxLength: 255, pattern: '^[a-zA-Z0-9_.-]+$' }) });
export const LinkQuery = Type.Object({ link: Type.String({ minLength: 1, maxLength: 200 }) });
export const OrganizationParams = Type.Object({ organizationId: id('The organization') });
export const SpaceParams = Type.Object({ spaceId: id('The space') });
export const PageParams = Type.Object({ spaceId: id('The space'), pageId: id('The page') });
export const TokenParams = Type.Object({ tokenId: id('The API token') });
/** Every app form carries the session's anti-CSRF token. */
export const FormBody = Type.Object({ csrf: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: true });
export const CreateTokenForm = Type.Object(
  { csrf: Type.Optional(Type.String({ maxLength: 200 })), label: Type.Optional(Type.String({ maxLength: 100 })) },
  { additionalProperties: true },
);
export const ChangeRequestParams = Type.Object({ spaceId: id('The space'), number: Type.String({ pattern: '^[0-9]{1,9}$', description: 'The change request number' }) });
export const RevisionParams = Type.Object({ spaceId: id('The space'), revisionId: id('The revision') });
export const RevisionPageParams = Type.Object({ spaceId: id('The space'), revisionId: id('The revision'), pageId: id('The page') });
export const CollectionParams = Type.Object({ organizationId: id('The organization'), collectionId: id('The collection') });
export const SiteParams = Type.Object({ organizationId: id('The organization'), siteId: id('The site') });
export const SearchQuery = Type.Object({ q: Type.Optional(Type.String({ maxLength: 512 })) });

// Change requests in the app (app-area.change-requests.routes.ts). Forms carry `csrf` and
// may carry `back` (a page of the same change request to return to).
const form = <T extends Record<string, import('typebox').TSchema>>(fields: T) =>
  Type.Object({ csrf: Type.Optional(Type.String({ maxLength: 200 })), back: Type.Optional(Type.String({ maxLength: 2000 })), ...fields }, { additionalProperties: true });
const crStatus = Type.Union([Type.Literal('open'), Type.Literal('draft'), Type.Literal('merged'), Type.Literal('archived')]);
export const ChangeRequestListQuery = Type.Object({
  status: Type.Optional(crStatus),
  who: Type.Optional(Type.Union([Type.Literal('mine'), Type.Literal('review')])),
});
export const NewChangeRequestForm = form({ subject: Type.String({ maxLength: 100 }) });
export const CrPageParams = Type.Object({ spaceId: id('The space'), number: Type.String({ pattern: '^[0-9]{1,9}$' }), pageId: id('The page') });
export const CrPageQuery = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 64 })) });
export const CommentParams = Type.Object({ spaceId: id('The space'), number: Type.String({ pattern: '^[0-9]{1,9}$' }), commentId: id('The comment') });
export const DetailsForm = form({
  subject: Type.Optional(Type.String({ maxLength: 100 })),
  description: Type.Optional(Type.String({ maxLength: 100_000 })),
  /** The rich-text editor's GitBook document as JSON (change-request.ts); without script, `description` is markdown. */
  descriptionDocument: Type.Optional(Type.String({ maxLength: 1_000_000 })),
});
export const StatusForm = form({ status: Type.Union([Type.Literal('open'), Type.Literal('draft'), Type.Literal('archived')]) });
export const ReviewersForm = form({ users: Type.Optional(Type.Union([id('A member'), Type.Array(id('A member'), { maxItems: 100 })])) });
export const ReviewForm = form({ status: Type.Union([Type.Literal('approved'), Type.Literal('changes-requested')]), comment: Type.Optional(Type.String({ maxLength: 100_000 })) });
export const CommentForm = form({ text: Type.String({ minLength: 1, maxLength: 50_000 }), page: Type.Optional(Type.String({ maxLength: 64 })), node: Type.Optional(Type.String({ maxLength: 64 })) });
export const ReplyForm = form({ text: Type.String({ minLength: 1, maxLength: 50_000 }) });
export const CommentUpdateForm = form({
  resolved: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
  react: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
  unreact: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
});
export const AddPageForm = form({
  title: Type.String({ maxLength: 255 }),
  type: Type.Optional(Type.Union([Type.Literal('document'), Type.Literal('group')])),
  parent: Type.Optional(Type.String({ maxLength: 64 })),
  at: Type.Optional(Type.String({ maxLength: 6, pattern: '^[0-9]*$' })),
});
export const EditPageForm = form({
  title: Type.Optional(Type.String({ maxLength: 255 })),
  emoji: Type.Optional(Type.String({ maxLength: 50 })),
  icon: Type.Optional(Type.String({ maxLength: 100 })),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
});
/** A drop of the tree's drag and drop: before, after or inside another page. */
export const PlaceForm = form({ target: Type.String({ minLength: 1, maxLength: 64 }), position: Type.Union([Type.Literal('before'), Type.Literal('after'), Type.Literal('inside')]) });
export const MoveForm = form({ direction: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('indent'), Type.Literal('outdent')]) });
