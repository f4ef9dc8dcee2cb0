/*
 * The error vocabulary of the layers below the API (db/, lib/, files/, the content engine).
 * They know nothing of HTTP: each error says what kind of refusal it is, and toHttpError
 * (src/errors.ts) turns the kind into a status, once, for the API's error handler and the CLI.
 */

/** What kind of refusal an error is; src/errors.ts holds the status of each. */
export type DomainErrorKind = 'invalid-input' | 'not-found' | 'conflict' | 'too-large' | 'unavailable';

/** Anything a lower layer refuses; the message says what, for the caller. */
export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input the caller sent that cannot be used (a 400). */
export class InvalidInput extends DomainError {
  readonly kind = 'invalid-input';
}

/** The state changed under the request, or clashes with it (a 409). */
export class Conflict extends DomainError {
  readonly kind = 'conflict';
}

/** A list's `page` parameter that is not a cursor this list wrote. */
export class InvalidCursor extends InvalidInput {
  constructor() {
    super('querystring/page is not a page identifier of this list');
  }
}

/** A compare-and-set write of a head revision lost every retry to other writers. */
export class ContentKeptChanging extends Conflict {
  constructor() {
    super('The content kept changing while this was applied; try again');
  }
}
