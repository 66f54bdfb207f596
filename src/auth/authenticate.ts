import type { Actor } from "../domain/access.js";
import { AuthenticationError } from "../domain/errors.js";
import type { Store } from "../store/store.js";
import { hashToken } from "./token.js";

/** The parts of an HTTP request that carry credentials (and that OAuth signs). */
export interface Credentials {
  readonly method: string;
  /** scheme://host[:port]/path as received, without the query. */
  readonly baseUri: string;
  readonly rawQuery: string;
  readonly authorization: string | undefined;
  /** Raw body, only for application/x-www-form-urlencoded requests. */
  readonly formBody: string | undefined;
}

/** One way of proving who is calling (Bearer token, OAuth 1.0a signature). */
export interface CredentialScheme {
  /** True when the request carries credentials of this scheme. */
  matches(credentials: Credentials): boolean;
  /** The caller, or a thrown AuthenticationError (or OAuth problem). */
  authenticate(credentials: Credentials): Promise<Actor>;
}

/** Turns a request's credentials into an Actor by the first scheme that recognises them. */
export type Authenticate = (credentials: Credentials) => Promise<Actor>;

/**
 * Builds the authenticator from the schemes the server accepts.
 * @throws AuthenticationError AUTHENTICATION_REQUIRED when no scheme recognises the request
 */
export function createAuthenticator(schemes: readonly CredentialScheme[]): Authenticate {
  return async (credentials) => {
    const scheme = schemes.find((candidate) => candidate.matches(credentials));
    if (!scheme) {
      throw new AuthenticationError(
        "AUTHENTICATION_REQUIRED",
        "This request needs credentials: an OAuth 1.0a signature or an Authorization: Bearer token.",
      );
    }
    return scheme.authenticate(credentials);
  };
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Personal tokens: `Authorization: Bearer <token>`, carrying the issuing application's level.
 * @throws AuthenticationError TOKEN_REJECTED for an unknown or revoked token
 */
export function bearerScheme(store: Store): CredentialScheme {
  return {
    matches: (credentials) => BEARER.test(credentials.authorization ?? ""),
    async authenticate(credentials) {
      const token = BEARER.exec(credentials.authorization ?? "")?.[1] ?? "";
      const grant = await store.read((tx) => tx.tokens.findLive(hashToken(token)));
      if (!grant) throw new AuthenticationError("TOKEN_REJECTED", "The Bearer token is unknown or has been revoked.");
      return { user: grant.user, app: grant.app };
    },
  };
}
