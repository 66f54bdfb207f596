import type { Clock } from "../clock.js";
import type { Actor } from "../domain/access.js";
import { AuthenticationError } from "../domain/errors.js";
import type { TokenGrant } from "../store/queries/tokens.js";
import type { Store } from "../store/store.js";
import type { Credentials } from "./credentials.js";
import { OAuthProblem } from "./oauth1.js";
import { createOAuthVerifier } from "./oauth-verify.js";
import { hashToken } from "./token.js";

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

/** The token of an `Authorization: Bearer <token>` header; undefined for any other header (or none). */
export function bearerTokenOf(authorization: string | undefined): string | undefined {
  return BEARER.exec(authorization ?? "")?.[1];
}

/** The caller a live Bearer token stands for. */
export function bearerActor(grant: TokenGrant): Actor {
  const { consumerSecret: _secret, ...app } = grant.app;
  return { user: grant.user, app, tokenId: grant.tokenId };
}

/**
 * Personal tokens: `Authorization: Bearer <token>`, carrying the issuing application's level.
 * A token issued through OAuth (three-legged or xAuth) is refused: it travels in every signed
 * request and is public by design, so alone it proves nothing (docs/api.md "Authentication").
 * @throws AuthenticationError TOKEN_REJECTED for an unknown, revoked or OAuth-issued token
 */
export function bearerScheme(store: Store): CredentialScheme {
  return {
    matches: (credentials) => BEARER.test(credentials.authorization ?? ""),
    async authenticate(credentials) {
      const token = bearerTokenOf(credentials.authorization) ?? "";
      const grant = await store.read((tx) => tx.tokens.findLive(hashToken(token)));
      // One answer for every refusal: it must not tell whether the token exists.
      if (grant?.origin !== "personal") throw new AuthenticationError("TOKEN_REJECTED", BEARER_REFUSED);
      return bearerActor(grant);
    },
  };
}

const BEARER_REFUSED =
  "The Bearer token is not accepted: Bearer takes a live personal token only (an OAuth token needs its signature).";

/** True when the request carries OAuth 1.0a parameters in the header, the query or a form body. */
function carriesOAuth(credentials: Credentials): boolean {
  const hasKey = (form: string | undefined) => form !== undefined && /(?:^|&)oauth_consumer_key=/.test(form);
  return (
    /^\s*OAuth(?:\s|$)/i.test(credentials.authorization ?? "") ||
    hasKey(credentials.rawQuery) ||
    hasKey(credentials.formBody)
  );
}

/**
 * OAuth 1.0a signed requests with token credentials (docs/api.md "Authentication"); the token must have been
 * issued to the signing application.
 * @throws OAuthProblem parameter_absent, signature_invalid, timestamp_refused, nonce_used, consumer_key_unknown, token_rejected
 */
export function oauthScheme(store: Store, clock: Clock): CredentialScheme {
  const verifier = createOAuthVerifier(store, clock);
  return {
    // A Bearer header wins even when the query happens to hold oauth_ parameters.
    matches: (credentials) => !BEARER.test(credentials.authorization ?? "") && carriesOAuth(credentials),
    async authenticate(credentials) {
      const { grant } = await verifier.verify(credentials, async (request, app) => {
        if (request.token === undefined) throw new OAuthProblem("parameter_absent", "oauth_token is missing");
        const found = await store.read((tx) => tx.tokens.findLive(hashToken(request.token ?? "")));
        // Another application's token is as unknown to this consumer as a revoked one.
        if (!found || found.app.id !== app.id)
          throw new OAuthProblem("token_rejected", "oauth_token is unknown, revoked or not issued to this application");
        return { secret: found.secret, grant: found };
      });
      const { consumerSecret: _secret, ...app } = grant.app;
      return { user: grant.user, app, tokenId: grant.tokenId };
    },
  };
}
