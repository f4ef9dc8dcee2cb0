import type { FastifyRequest } from 'fastify';

/*
 * Request URLs in logs without the capabilities they carry. A share key, a file signature,
 * a visitor JWT or a PDF export id grants access by itself, without a token, to whoever
 * reads it: the logger's request serializer writes `[redacted]` in their place.
 */

/** Query parameters that are credentials: by name, and by anything credential-like in a name. */
const secretParams = new Set(['sharekey', 'share', 'sig', 'signature', 'jwt_token', 'jwt', 'token', 'access_token', 'key', 'code', 'link', 'secret', 'password', 'expires']);
const secretParamPattern = /token|secret|sig|key|share|jwt|pass|auth|cred/i;

/** Path segments that are credentials: the segment after these prefixes. */
const secretSegments: RegExp[] = [
  // PDF export downloads: the export id is the only credential.
  /^(\/v1\/exports\/pdf\/)[^/?#]+/,
  // Signed file and blob downloads: the signature may ride in the path too.
  /^(\/v1\/spaces\/[^/]+\/blobs\/[^/]+\/)[^/?#]+/,
  /^(\/(?:v1\/)?(?:files|downloads)\/)[^?#]+/,
  // Share links of published sites and spaces.
  /^(\/(?:v1\/)?(?:share|s)\/)[^/?#]+/,
];

const REDACTED = '[redacted]';

/** The URL with every capability parameter value and path segment replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  let path = queryAt < 0 ? url : url.slice(0, queryAt);
  for (const pattern of secretSegments) path = path.replace(pattern, `$1${REDACTED}`);
  if (queryAt < 0) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name: string;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        name = rawName;
      }
      if (eq >= 0 && (secretParams.has(name.toLowerCase()) || secretParamPattern.test(name))) return `${rawName}=${REDACTED}`;
      return pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Pino's request serializer: Fastify's default fields, with the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort ?? undefined,
  };
}
