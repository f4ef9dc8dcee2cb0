import { DomainError, type DomainErrorKind } from './lib/domain-errors.ts';

/**
 * The error vocabulary of services. Each becomes GitBook's error body
 * `{ "error": { "code": <status>, "message": "..." } }` in plugins/errors.ts.
 */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string> | undefined;

  constructor(statusCode: number, message: string, headers?: Record<string, string>) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.headers = headers;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Authentication required: send "Authorization: Bearer <token>"') =>
  new HttpError(401, message, { 'www-authenticate': 'Bearer' });
export const forbidden = (message = 'You do not have permission to do this') => new HttpError(403, message);
export const notFound = (what = 'Resource') => new HttpError(404, `${what} not found`);
export const conflict = (message: string) => new HttpError(409, message);
export const payloadTooLarge = (message: string) => new HttpError(413, message);

/** The status of each kind of domain error: the one place a lower layer's refusal becomes HTTP. */
const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  'invalid-input': 400,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  unavailable: 503,
};

/**
 * The HTTP form of an error a service let through: its own HttpError, or the status a
 * domain error of a lower layer stands for (src/lib/domain-errors.ts, the content
 * engine's src/content/errors.ts). Undefined for anything else (a bug, a database
 * failure: a 500).
 */
export function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof DomainError) return new HttpError(STATUS_OF_KIND[error.kind], error.message);
  return undefined;
}
