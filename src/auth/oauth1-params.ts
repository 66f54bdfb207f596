// Reading the OAuth 1.0a protocol parameters of a request (RFC 5849 §3.4.1.3.1 and §3.5): pure,
// no I/O. Verification (base string, HMAC, constant-time compare) lives in oauth1.ts.
import { hasControlCharacter } from "../domain/text.js";

/** The `oauth_problem` values we answer with (OAuth Problem Reporting extension). */
export type OAuthProblemName =
  | "parameter_absent"
  | "parameter_rejected"
  | "signature_method_rejected"
  | "signature_invalid"
  | "timestamp_refused"
  | "nonce_used"
  | "consumer_key_unknown"
  | "token_rejected"
  | "version_rejected"
  | "permission_unknown"
  | "permission_denied"
  | "user_refused"
  // OAuth Problem Reporting's name for "this needs more than these credentials": xAuth for an
  // account that signs in with a second factor.
  | "additional_authorization_required";

/** The signature methods we accept; PLAINTEXT and RSA-SHA1 are refused. */
export type SignatureMethod = "HMAC-SHA1" | "HMAC-SHA256";

/** An OAuth failure: the HTTP edge turns it into 401 + `oauth_problem=<problem>`. */
export class OAuthProblem extends Error {
  constructor(
    readonly problem: OAuthProblemName,
    message: string,
  ) {
    super(message);
    this.name = "OAuthProblem";
  }
}

/** The raw pieces of a request that a signature covers, as the HTTP layer received them. */
export interface SignedRequestParts {
  readonly method: string;
  /** scheme://host[:port]/path as the server sees it, no query. */
  readonly baseUri: string;
  /** Raw query string after '?', '' if none, exactly as received (percent-encoded or raw , and :). */
  readonly rawQuery: string;
  /** The Authorization header value. */
  readonly authorization?: string;
  /** Raw body, ONLY when content-type is application/x-www-form-urlencoded. */
  readonly formBody?: string;
}

/** The protocol parameters of a request, checked for shape but not yet verified. */
export interface OAuthRequest {
  readonly consumerKey: string;
  readonly token?: string;
  readonly signatureMethod: SignatureMethod;
  readonly signature: string;
  readonly timestamp: number;
  readonly nonce: string;
  readonly callback?: string;
  readonly verifier?: string;
  /** Every decoded parameter from all sources, oauth_signature and the header's realm excluded. */
  readonly params: ReadonlyArray<readonly [string, string]>;
}

type Pair = [string, string];

const SCHEME = /^\s*OAuth(?:\s+|$)/i;
// One `name="value"` and the separator after it: `,` or `, ` (or any folding whitespace) or the end.
const HEADER_PARAM = /\s*([^\s=,"]+)\s*=\s*"([^"]*)"\s*(,|$)/y;
const TIMESTAMP = /^[0-9]{1,12}$/;
const REQUIRED = ["oauth_consumer_key", "oauth_signature_method", "oauth_signature", "oauth_timestamp", "oauth_nonce"];

/** Strictly percent-decodes; `+` means a space only in form encoding (query and body), never in the header. */
function decode(raw: string, plusIsSpace: boolean, what: () => string): string {
  try {
    return decodeURIComponent(plusIsSpace ? raw.replaceAll("+", " ") : raw);
  } catch {
    // A bad escape or invalid UTF-8 cannot be re-encoded into the base string the client signed.
    throw new OAuthProblem("parameter_rejected", `${what()} has malformed percent-encoding`);
  }
}

/** Names a parameter in a message without echoing an unbounded client string. */
function label(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}...` : name;
}

/**
 * Parses `Authorization: OAuth ...` into decoded pairs (realm included); undefined when the scheme is not OAuth.
 * @throws OAuthProblem parameter_rejected when the header is OAuth but malformed.
 */
export function parseAuthorizationHeader(value: string): Array<[string, string]> | undefined {
  const scheme = SCHEME.exec(value);
  if (scheme === null) return undefined;
  const rest = value.slice(scheme[0].length).trimEnd();
  const pairs: Pair[] = [];
  let position = 0;
  while (position < rest.length) {
    HEADER_PARAM.lastIndex = position;
    const match = HEADER_PARAM.exec(rest);
    if (match === null) throw new OAuthProblem("parameter_rejected", "the OAuth Authorization header is malformed");
    const rawName = match[1] ?? "";
    const name = decode(rawName, false, () => `header parameter ${label(rawName)}`);
    pairs.push([name, decode(match[2] ?? "", false, () => label(name))]);
    position = HEADER_PARAM.lastIndex;
  }
  return pairs;
}

/** Splits form-encoded text (a query or a form body) into decoded pairs, keeping order and repeats. */
function parseFormEncoded(raw: string, where: string): Pair[] {
  const pairs: Pair[] = [];
  for (const segment of raw.split("&")) {
    if (segment === "") continue; // "a=1&&b=2" and a trailing "&" carry no parameter
    const equals = segment.indexOf("=");
    const rawName = equals < 0 ? segment : segment.slice(0, equals);
    const rawValue = equals < 0 ? "" : segment.slice(equals + 1);
    const name = decode(rawName, true, () => `a parameter name in the ${where}`);
    pairs.push([name, decode(rawValue, true, () => `${label(name)} in the ${where}`)]);
  }
  return pairs;
}

/** All parameters of RFC 5849 §3.4.1.3.1, in source order: header (without realm), query, form body. */
function collectParams(parts: SignedRequestParts): Pair[] {
  const header = parts.authorization === undefined ? undefined : parseAuthorizationHeader(parts.authorization);
  return [
    ...(header ?? []).filter(([name]) => name !== "realm"),
    ...parseFormEncoded(parts.rawQuery, "query"),
    ...(parts.formBody === undefined ? [] : parseFormEncoded(parts.formBody, "form body")),
  ];
}

/**
 * Indexes the oauth_* parameters; two of the same name (in one source or across sources) are
 * ambiguous, and a value with a control character is refused.
 */
function indexProtocolParams(params: readonly Pair[]): Map<string, string> {
  const protocol = new Map<string, string>();
  for (const [name, value] of params) {
    if (!name.startsWith("oauth_")) continue;
    if (protocol.has(name)) throw new OAuthProblem("parameter_rejected", `${label(name)} is present more than once`);
    if (hasControlCharacter(value))
      throw new OAuthProblem("parameter_rejected", `${label(name)} holds a control character`);
    protocol.set(name, value);
  }
  return protocol;
}

/** Narrows the signature method; the RFC method names are case-sensitive. */
function isSignatureMethod(value: string): value is SignatureMethod {
  return value === "HMAC-SHA1" || value === "HMAC-SHA256";
}

/**
 * Collects and checks the OAuth parameters from the header, the query and a form body.
 * @throws OAuthProblem parameter_absent, parameter_rejected, signature_method_rejected or version_rejected.
 */
export function readOAuthRequest(parts: SignedRequestParts): OAuthRequest {
  const params = collectParams(parts);
  const protocol = indexProtocolParams(params);
  for (const name of REQUIRED) {
    // An empty value is as good as none: an empty nonce or key identifies nothing.
    if (!protocol.get(name)) throw new OAuthProblem("parameter_absent", `${name} is missing`);
  }
  const version = protocol.get("oauth_version");
  if (version !== undefined && version !== "1.0") {
    throw new OAuthProblem("version_rejected", `oauth_version must be "1.0"`);
  }
  const signatureMethod = protocol.get("oauth_signature_method") ?? "";
  if (!isSignatureMethod(signatureMethod)) {
    throw new OAuthProblem("signature_method_rejected", "oauth_signature_method must be HMAC-SHA1 or HMAC-SHA256");
  }
  const timestamp = protocol.get("oauth_timestamp") ?? "";
  if (!TIMESTAMP.test(timestamp)) {
    throw new OAuthProblem("parameter_rejected", "oauth_timestamp must be a whole number of seconds");
  }
  return {
    consumerKey: protocol.get("oauth_consumer_key") ?? "",
    // Some clients send oauth_token="" on /oauth/initiate and xAuth: that means no token.
    token: protocol.get("oauth_token") || undefined,
    signatureMethod,
    signature: protocol.get("oauth_signature") ?? "",
    timestamp: Number(timestamp),
    nonce: protocol.get("oauth_nonce") ?? "",
    callback: protocol.get("oauth_callback"),
    verifier: protocol.get("oauth_verifier"),
    params: params.filter(([name]) => name !== "oauth_signature"),
  };
}
