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
