/*
 * The content engine's error vocabulary (store, merge, markdown). The engine knows nothing
 * of HTTP: the API's error handler (plugins/errors.ts, through toHttpError in src/errors.ts)
 * maps each kind to a status, and callers inside the engine (the merge) tell them apart by
 * class, never by status code.
 */

/** Anything the engine refuses; the message says what, for the caller. */
export class ContentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Something named does not exist in the revision (a page, a parent, a file, the revision). */
export class ContentNotFound extends ContentError {
  constructor(what: string) {
    super(`${what} not found`);
  }
}

/** An edit the content model forbids (a slug clash, a position out of range, a cycle). */
export class InvalidContentEdit extends ContentError {}

/** A document that is not one the engine can read. */
export class InvalidContentDocument extends ContentError {}
