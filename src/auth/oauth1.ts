// OAuth 1.0a signature verification (RFC 5849 §3.4): base string, HMAC, constant-time compare,
// timestamp window and oauth_body_hash. Pure: the nonce store and the secret lookups belong to
// the caller (auth/authenticate.ts). Parameter reading lives in oauth1-params.ts.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { OAuthRequest, SignatureMethod } from "./oauth1-params.js";

/** Reading the protocol parameters of a request: see oauth1-params.ts. */
export { OAuthProblem, parseAuthorizationHeader, readOAuthRequest } from "./oauth1-params.js";
/** Types of the parameter reader: see oauth1-params.ts. */
export type { OAuthProblemName, OAuthRequest, SignatureMethod, SignedRequestParts } from "./oauth1-params.js";

/**
 * oauth_body_hash of an empty body (base64 SHA-1 of zero bytes, da39a3ee...), as some clients send on GET.
 * Not "2jmj7l5rSfwl3ZvHCBSdRvB7z9E=" as a sample of client requests once showed it: that is a corrupted copy (only its
 * first six bytes agree), and comparing against it would refuse every client that sends the real hash.
 */
export const EMPTY_BODY_HASH = "2jmj7l5rSw0yVb/vlWAYkK/YBwk=";

/** The timestamp window of docs/api.md "Authentication": ±10 minutes. */
export const TIMESTAMP_WINDOW_SECONDS = 600;

const DIGEST: Readonly<Record<SignatureMethod, "sha1" | "sha256">> = { "HMAC-SHA1": "sha1", "HMAC-SHA256": "sha256" };

const UNRESERVED_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
const ALL_UNRESERVED = /^[A-Za-z0-9\-._~]*$/;
const BYTE_ENCODING: readonly string[] = Array.from({ length: 256 }, (_, byte) =>
  UNRESERVED_CHARS.includes(String.fromCharCode(byte))
    ? String.fromCharCode(byte)
    : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
);

/** RFC 5849 §3.6 / RFC 3986 percent-encoding: UTF-8 bytes, everything but the unreserved set, uppercase hex. */
export function percentEncode(value: string): string {
  if (ALL_UNRESERVED.test(value)) return value;
  // Encoding bytes (not encodeURIComponent) so that `!'()*` are escaped too and a lone surrogate
  // becomes U+FFFD instead of throwing.
  let encoded = "";
  for (const byte of Buffer.from(value, "utf8")) encoded += BYTE_ENCODING[byte];
  return encoded;
}

const ABSOLUTE_URI = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)/;
const DEFAULT_PORT: Readonly<Record<string, string>> = { http: "80", https: "443" };

/** Drops userinfo and the scheme's default port (or an empty port) from a lower-cased authority. */
function normalizeAuthority(scheme: string, authority: string): string {
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1).toLowerCase();
  const port = /^(.*):([0-9]*)$/.exec(hostPort);
  if (port === null) return hostPort;
  const [, host = "", digits = ""] = port;
  return digits === "" || digits === DEFAULT_PORT[scheme] ? host : hostPort;
}

/**
 * RFC 5849 §3.4.1.2 base string URI: lower-case scheme and host, no default port, path as is ("/" if empty).
 * @throws TypeError when `uri` is not absolute (a server configuration error, not a client's).
 */
export function normalizeBaseUri(uri: string): string {
  const match = ABSOLUTE_URI.exec(uri);
  if (match === null) throw new TypeError(`not an absolute URI: ${uri}`);
  const [, rawScheme = "", authority = "", path = ""] = match;
  const scheme = rawScheme.toLowerCase();
  return `${scheme}://${normalizeAuthority(scheme, authority)}${path === "" ? "/" : path}`;
}

/** Orders encoded pairs by name, then value; encoded strings are ASCII, so code-unit order is byte order. */
function compareEncoded(a: readonly [string, string], b: readonly [string, string]): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return 0;
}

/** RFC 5849 §3.4.1: METHOD & encoded base URI & encoded normalized parameters (§3.4.1.3.2). */
export function signatureBaseString(
  method: string,
  baseUri: string,
  params: ReadonlyArray<readonly [string, string]>,
): string {
  const normalized = params
    .map(([name, value]): [string, string] => [percentEncode(name), percentEncode(value)])
    .sort(compareEncoded)
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  return `${method.toUpperCase()}&${percentEncode(normalizeBaseUri(baseUri))}&${percentEncode(normalized)}`;
}

/** RFC 5849 §3.4.2 HMAC over the base string, keyed with the encoded secrets joined by `&`; base64. */
export function computeSignature(
  method: SignatureMethod,
  baseString: string,
  consumerSecret: string,
  tokenSecret: string,
): string {
  const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
  return createHmac(DIGEST[method], key).update(baseString, "utf8").digest("base64");
}

/**
 * Compares two secrets (a signature, a verifier, a CSRF token) in time independent of where they differ. timingSafeEqual needs equal
 * lengths, and returning early on a length mismatch would be a second, observable path. Hashing
 * both sides to 32 bytes first gives equal-length buffers whatever the client sent, so one code
 * path runs; equal digests mean equal strings (SHA-256 collision resistance). Only the length of
 * the received value influences the hashing time, and the client already knows it.
 */
export function constantTimeEqual(received: string, expected: string): boolean {
  const a = createHash("sha256").update(received, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

/** Recomputes the signature of a read request and compares it in constant time. */
export function signatureMatches(
  request: OAuthRequest,
  parts: { readonly baseUri: string; readonly method: string },
  consumerSecret: string,
  tokenSecret: string,
): boolean {
  const baseString = signatureBaseString(parts.method, parts.baseUri, request.params);
  const expected = computeSignature(request.signatureMethod, baseString, consumerSecret, tokenSecret);
  return constantTimeEqual(request.signature, expected);
}

/** True when the client's clock is within ±windowSeconds of ours (whole seconds, as clients send them). */
export function isTimestampFresh(
  timestampSeconds: number,
  nowMs: number,
  windowSeconds = TIMESTAMP_WINDOW_SECONDS,
): boolean {
  if (!Number.isFinite(timestampSeconds) || !Number.isFinite(nowMs)) return false;
  return Math.abs(timestampSeconds - Math.floor(nowMs / 1000)) <= windowSeconds;
}

/** oauth_body_hash check for a non-form body: base64 SHA-1 (or SHA-256 with HMAC-SHA256) of the raw bytes. */
export function bodyHashMatches(bodyHash: string, body: Buffer | string, method: SignatureMethod): boolean {
  const expected = createHash(DIGEST[method]).update(body).digest("base64");
  return constantTimeEqual(bodyHash, expected);
}
