import { DomainError, type DomainErrorKind } from '../lib/domain-errors.ts';

/*
 * The content engine's error vocabulary (store, merge, markdown): domain errors
 * (src/lib/domain-errors.ts), so the engine knows nothing of HTTP. toHttpError in
 * src/errors.ts maps each kind to a status, and callers inside the engine (the merge)
 * tell them apart by class, never by status code.
 */

/** Anything the engine refuses; the message says what, for the caller. */
export abstract class ContentError extends DomainError {}

/** Something named does not exist in the revision (a page, a parent, a file, the revision). */
export class ContentNotFound extends ContentError {
  readonly kind: DomainErrorKind = 'not-found';

  constructor(what: string) {
    super(`${what} not found`);
  }
}

/** An edit the content model forbids (a slug clash, a position out of range, a cycle). */
export class InvalidContentEdit extends ContentError {
  readonly kind: DomainErrorKind = 'invalid-input';
}

/** A document that is not one the engine can read. */
export class InvalidContentDocument extends ContentError {
  readonly kind: DomainErrorKind = 'invalid-input';
}
