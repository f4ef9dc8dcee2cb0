import { Type, type Static } from 'typebox';

/*
 * Request shapes of the published-site routes. They answer HTML, not JSON, and are not
 * part of the API (hidden from the OpenAPI document). The routes do not run these through
 * the validator: on the hottest public path validation cost more than the rest of
 * Fastify's work; the shapes type the handlers, and credentialParam checks the only two
 * query parameters read.
 */

/** `/sites/:site` and `/sites/:site/*`: a site's id or basename, then the path on the site. */
export const SiteParams = Type.Object({
  site: Type.String({ minLength: 1, maxLength: 100 }),
  '*': Type.Optional(Type.String({ maxLength: 2048 })),
});
export type SiteParams = Static<typeof SiteParams>;

/** `/*` on a site's custom hostname. */
export const HostParams = Type.Object({
  '*': Type.Optional(Type.String({ maxLength: 2048 })),
});
export type HostParams = Static<typeof HostParams>;

/**
 * Credentials arrive once in the query, then live in cookies: `share` (share-link sites)
 * and `jwt_token` (visitor-auth sites, GitBook's parameter name). Other parameters are
 * ignored.
 */
export const PublishedQuery = Type.Object({
  share: Type.Optional(Type.String({ maxLength: 256 })),
  jwt_token: Type.Optional(Type.String({ maxLength: 8192 })),
});
export type PublishedQuery = Static<typeof PublishedQuery>;

/**
 * A credential query parameter as the service takes it: a string of at most `max`
 * characters; a repeated parameter counts by its first value; anything else is an empty
 * (thus invalid) credential, so a malformed one is refused rather than ignored.
 */
export function credentialParam(value: unknown, max: number): string | undefined {
  if (value === undefined) return undefined;
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.length <= max ? first : '';
}
