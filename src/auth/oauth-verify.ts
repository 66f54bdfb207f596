// The stateful half of OAuth 1.0a verification: secrets from the store, the timestamp window and
// nonces shared through the database. The pure half (parameters, base string, HMAC) is oauth1.ts.
import type { Clock } from "../clock.js";
import type { Application } from "../domain/access.js";
import type { Store } from "../store/store.js";
import type { Credentials } from "./credentials.js";
import {
  OAuthProblem,
  type OAuthRequest,
  TIMESTAMP_WINDOW_SECONDS,
  bodyHashMatches,
  isTimestampFresh,
  readOAuthRequest,
  signatureMatches,
} from "./oauth1.js";
import { hashToken } from "./token.js";

/** The token secret that keys a request's signature, and whatever the caller looked up with it. */
export interface ResolvedToken<T> {
  readonly secret: string;
  readonly grant: T;
  /**
   * Also accept a signature keyed with an empty token secret (`consumer_secret&`): only the
   * access-token step of an application the operator marked for legacy signing sets it.
   */
  readonly acceptEmptySecret?: boolean;
}

/** The consumer as a token resolver sees it: public fields and the operator's legacy-signing mark. */
export type Consumer = Application & { readonly legacySigning: boolean };

/** Finds the token a request names (or none) for the consumer's application. @throws OAuthProblem */
export type TokenResolver<T> = (request: OAuthRequest, app: Consumer) => Promise<ResolvedToken<T>>;

/** A verified request: the consumer's application, the parameters and the resolved token. */
export interface VerifiedRequest<T> {
  readonly app: Application;
  readonly request: OAuthRequest;
  readonly grant: T;
  /** True when only the empty-token-secret signature matched (see {@link ResolvedToken}). */
  readonly legacySigned: boolean;
}

/** Checks signed requests against the store. */
export interface OAuthVerifier {
  /**
   * Verifies the signature, timestamp, body hash and nonce of a request.
   * @throws OAuthProblem signature_invalid, timestamp_refused, nonce_used, consumer_key_unknown, token_rejected, ...
   */
  verify<T>(credentials: Credentials, resolveToken: TokenResolver<T>): Promise<VerifiedRequest<T>>;
}

/** How often, at most, one process deletes expired nonces (lazily, on a verification). */
const PURGE_INTERVAL_MS = 60_000;

/** Builds a verifier over the store; the clock decides "now" for timestamps and expiry. */
export function createOAuthVerifier(store: Store, clock: Clock): OAuthVerifier {
  let nextPurge = 0;
  return {
    async verify(credentials, resolveToken) {
      const request = readOAuthRequest(credentials);
      const now = clock.now();
      if (!isTimestampFresh(request.timestamp, now)) {
        throw new OAuthProblem(
          "timestamp_refused",
          `oauth_timestamp must be within ${TIMESTAMP_WINDOW_SECONDS} seconds of the server's clock`,
        );
      }
      const app = await store.read((tx) => tx.apps.findByConsumerKey(request.consumerKey));
      if (!app) throw new OAuthProblem("consumer_key_unknown", "oauth_consumer_key names no registered application");
      const { consumerSecret, legacySigning, ...publicApp } = app;
      const token = await resolveToken(request, { ...publicApp, legacySigning });
      const legacySigned = checkSignature(credentials, request, consumerSecret, token);
      if (now >= nextPurge) {
        nextPurge = now + PURGE_INTERVAL_MS;
        await store.transaction((tx) => tx.nonces.removeExpired(now));
      }
      await claimNonce(store, request);
      return { app: publicApp, request, grant: token.grant, legacySigned };
    },
  };
}

/**
 * The signature over either base URI (as received, or the configured public one), then the body
 * hash. Returns true when only the empty-token-secret signature the resolver allowed matched.
 */
function checkSignature<T>(
  credentials: Credentials,
  request: OAuthRequest,
  consumerSecret: string,
  token: ResolvedToken<T>,
): boolean {
  const bases = [credentials.baseUri, credentials.publicBaseUri].filter((base): base is string => base !== undefined);
  const signedWith = (tokenSecret: string) =>
    bases.some((baseUri) =>
      signatureMatches(request, { baseUri, method: credentials.method }, consumerSecret, tokenSecret),
    );
  const signed = signedWith(token.secret);
  const legacySigned = !signed && token.acceptEmptySecret === true && signedWith("");
  if (!signed && !legacySigned)
    throw new OAuthProblem("signature_invalid", "oauth_signature does not match the request");
  const bodyHash = request.params.find(([name]) => name === "oauth_body_hash")?.[1];
  // Form bodies are signed parameter by parameter; multipart bodies are not covered (rawBody undefined).
  if (bodyHash === undefined || credentials.formBody !== undefined || credentials.rawBody === undefined)
    return legacySigned;
  if (!bodyHashMatches(bodyHash, Buffer.from(credentials.rawBody, "utf8"), request.signatureMethod)) {
    throw new OAuthProblem("signature_invalid", "oauth_body_hash does not match the request body");
  }
  return legacySigned;
}

/** Records the nonce; a replay within the timestamp window finds it taken. @throws OAuthProblem nonce_used */
async function claimNonce(store: Store, request: OAuthRequest): Promise<void> {
  const claimed = await store.transaction((tx) =>
    tx.nonces.claim({
      consumerKey: request.consumerKey,
      // The token's hash, never the token: this table must not hold working credentials.
      tokenHash: request.token === undefined ? "" : hashToken(request.token),
      nonce: request.nonce,
      timestamp: request.timestamp,
      // After this, isTimestampFresh refuses the request by itself, so the row is no longer needed.
      expiresAt: (request.timestamp + TIMESTAMP_WINDOW_SECONDS + 1) * 1000,
    }),
  );
  if (!claimed) throw new OAuthProblem("nonce_used", "this oauth_nonce was already used with this timestamp");
}
