/**
 * Named domain errors. Services and rules throw these; `http/errors.ts` is the one table that maps
 * each kind to an HTTP status. `code` is the stable machine name clients see in `<error code=...>`.
 */

/** The categories the HTTP edge knows how to answer (docs/api.md "Errors"). */
export type ErrorKind =
  | "invalid"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "too_large"
  | "unsupported_media_type"
  | "too_many_requests"
  | "uri_too_long"
  | "gone"
  | "unavailable"
  | "storage_full";

/** Base of every error a client may see; the message is for a person and names the field. */
export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input that breaks a rule of the specification: a missing or too long field, a bad parameter. */
export class ValidationError extends DomainError {
  readonly kind = "invalid";
}

/** No credentials, or credentials that do not identify a user. */
export class AuthenticationError extends DomainError {
  readonly kind = "unauthenticated";
}

/** Authenticated, but the application's level or the user's membership does not allow this. */
export class ForbiddenError extends DomainError {
  readonly kind = "forbidden";
}

/** The target group, item or comment does not exist. */
export class NotFoundError extends DomainError {
  readonly kind = "not_found";
}

/** The item is held by someone else (a topic's edit lease). */
export class ConflictError extends DomainError {
  readonly kind = "conflict";
}

/** A body or file beyond its size limit. */
export class TooLargeError extends DomainError {
  readonly kind = "too_large";
}

/** A POST body whose type this endpoint does not read. */
export class UnsupportedMediaTypeError extends DomainError {
  readonly kind = "unsupported_media_type";
}

/** A method the endpoint does not have. */
export class MethodNotAllowedError extends DomainError {
  readonly kind = "method_not_allowed";
}

/** A client over a rate limit, or too many failed sign-ins: try again after `retryAfterSeconds`. */
export class TooManyRequestsError extends DomainError {
  readonly kind = "too_many_requests";
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, message);
  }
}

/** What the request names is no longer kept (a delta sync cursor older than the tombstones). */
export class GoneError extends DomainError {
  readonly kind = "gone";
}

/** A request line longer than the server reads. */
export class UriTooLongError extends DomainError {
  readonly kind = "uri_too_long";
}

/** The server cannot take this request now (shutting down, every upload slot taken); try again later. */
export class UnavailableError extends DomainError {
  readonly kind = "unavailable";
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, message);
  }
}

/**
 * The disk holding the database or the stored files is full: nothing was written, and nothing
 * will be until the operator frees space. Reads still work. `cause` keeps the engine's own error.
 */
export class StorageFullError extends DomainError {
  readonly kind = "storage_full";
  constructor(
    /** What the engine said: `SQLITE_FULL`, PostgreSQL's `53100`, `ENOSPC`, `EDQUOT`. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super("STORAGE_FULL", "The server's storage is full: nothing was written. Try again once space has been freed.");
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}
