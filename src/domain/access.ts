import { ForbiddenError } from "./errors.js";

/**
 * Access levels of a registered application (docs/api.md "Access levels"), lowest first:
 * `read` all GETs but comment contents; `comments` adds reading comments; `write` adds changing
 * topics, comments and attachments; `Z` everything, and xAuth.
 */
export const ACCESS_LEVELS = ["read", "comments", "write", "Z"] as const;

/** One of {@link ACCESS_LEVELS}. */
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** True when `text` names an access level. */
export function isAccessLevel(text: string): text is AccessLevel {
  return (ACCESS_LEVELS as readonly string[]).includes(text);
}

/** True when `held` is at least `needed`. */
export function levelAllows(held: AccessLevel, needed: AccessLevel): boolean {
  return ACCESS_LEVELS.indexOf(held) >= ACCESS_LEVELS.indexOf(needed);
}

/** A registered client application. */
export interface Application {
  readonly id: number;
  readonly name: string;
  readonly consumerKey: string;
  readonly accessLevel: AccessLevel;
}

/** Who is calling: a user, through an application that grants a level. */
export interface Actor {
  readonly user: { readonly id: number; readonly name: string; readonly email: string };
  readonly app: Application;
  /** The token the request was authenticated with; rate limits count per token. */
  readonly tokenId?: number;
  /** The client's address (after trusted proxies), which the audit log names; set by the HTTP edges. */
  readonly address?: string;
}

/**
 * Asserts the caller's application holds at least `needed`.
 * @throws ForbiddenError ACCESS_LEVEL_INSUFFICIENT
 */
export function requireAccess(actor: Actor, needed: AccessLevel): void {
  if (!levelAllows(actor.app.accessLevel, needed)) {
    throw new ForbiddenError(
      "ACCESS_LEVEL_INSUFFICIENT",
      `The application "${actor.app.name}" has access level ${actor.app.accessLevel}; this operation needs ${needed}.`,
    );
  }
}
