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
