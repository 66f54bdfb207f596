// Credentials: mostly a valid Bearer token (so that bodies and queries reach the parsers), some
// correctly signed OAuth, and garbage: OAuth headers with wrong, missing, doubled or mis-encoded
// parameters, broken Bearer headers, OAuth parameters in the query, nothing at all.
import fc from "fast-check";
import { absurdValue, nastyCharacter } from "./values.js";
import { percentEncode } from "./query.js";

/** How a fuzz request authenticates; `signed` is signed when the request is built (it needs the URL). */
export type FuzzAuth =
  | { readonly kind: "bearer" }
  | {
      readonly kind: "signed";
      readonly where: "header" | "query";
      /** Without a token: what /oauth/initiate and xAuth sign. */
      readonly withToken: boolean;
      /** A nonce of our choosing (hostile ones included); undefined: the library's own. */
      readonly nonce: string | undefined;
      /** Signed query parameters added: callbacks, verifiers, xAuth fields with hostile values. */
      readonly extra: string;
    }
  | { readonly kind: "header"; readonly value: string }
  | { readonly kind: "query"; readonly value: string }
  | { readonly kind: "none" };

/** What the garbage may borrow to get past the first checks (a real consumer key and token). */
export interface AuthMaterial {
  readonly consumerKey: string;
  readonly token: string;
  /** Seconds, as the server's clock has them. */
  readonly now: number;
}

/** Header values node lets through: no CR, LF or NUL, nothing above U+00FF. */
export function headerSafe(value: string): string {
  return value.replace(/[^\t\x20-\x7e\x80-\xff]/g, (c) => percentEncode(c));
}

function oauthParameter(material: AuthMaterial): fc.Arbitrary<string> {
  const value = (good: readonly string[]) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...good) },
      { weight: 2, arbitrary: absurdValue() },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...good), nastyCharacter()).map(([g, c]) => `${g}${c}`) },
    );
  const named = fc.oneof(
    fc.tuple(fc.constant("oauth_consumer_key"), value([material.consumerKey, "unknown-key"])),
    fc.tuple(fc.constant("oauth_token"), value([material.token, "unknown-token"])),
    fc.tuple(
      fc.constant("oauth_signature_method"),
      value(["HMAC-SHA1", "HMAC-SHA256", "PLAINTEXT", "RSA-SHA1", "hmac-sha1"]),
    ),
    fc.tuple(
      fc.constant("oauth_timestamp"),
      value([String(material.now), String(material.now - 3600), "0", "-1", "1e10"]),
    ),
    fc.tuple(fc.constant("oauth_nonce"), value(["n1", "n2", ""])),
    fc.tuple(fc.constant("oauth_version"), value(["1.0", "2.0", "1"])),
    fc.tuple(fc.constant("oauth_signature"), value(["tR3+Ty81lMeYAr/Fid0kMTYa/WM=", "=", "%3D", "AAAA"])),
    fc.tuple(fc.constant("oauth_body_hash"), value(["2jmj7l5rSw0yVb/vlWAYkK/YBwk="])),
    fc.tuple(fc.constantFrom("realm", "oauth_callback", "oauth_verifier", "x", ""), absurdValue()),
  );
  return fc
    .tuple(named, fc.nat({ max: 4 }))
    .map(([[name, v], style]) =>
      style === 0
        ? `${name}=${v}`
        : style === 1
          ? `${name}="${percentEncode(v)}"`
          : style === 2
            ? `${name}="${v}`
            : `${name}="${percentEncode(v)}"`,
    );
}

/** Signed extras: what /oauth/initiate and /oauth/token read besides the signature, often hostile. */
function signedExtra(): fc.Arbitrary<string> {
  const hostile = fc.oneof(
    absurdValue(),
    nastyCharacter().map((c) => `http://client.example/${c}`),
    nastyCharacter().map((c) => `user1${c}@example.com`),
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant("") },
    { weight: 1, arbitrary: hostile.map((v) => `oauth_callback=${percentEncode(v)}`) },
    { weight: 1, arbitrary: hostile.map((v) => `oauth_verifier=${percentEncode(v)}`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(hostile, hostile)
        .map(
          ([u, pw]) =>
            `x_auth_mode=client_auth&x_auth_username=${percentEncode(u)}&x_auth_password=${percentEncode(pw)}`,
        ),
    },
  );
}

/** Credentials for one request. */
export function fuzzAuth(material: AuthMaterial): fc.Arbitrary<FuzzAuth> {
  const oauthHeader = fc
    .tuple(
      fc.constantFrom("OAuth ", "oauth ", "OAuth", "OAuth\t", 'OAuth  realm="x", '),
      fc.array(oauthParameter(material), { maxLength: 9 }),
      fc.constantFrom(", ", ",", " ", ";", ",,"),
    )
    .map(([scheme, params, sep]) => headerSafe(`${scheme}${params.join(sep)}`));
  const otherHeader = fc.oneof(
    fc.constantFrom(
      "Bearer",
      "Bearer ",
      "Bearer  x y",
      "bearer unknown-token",
      "Basic YTpi",
      "Digest x",
      "",
      " ",
      "OAuth",
      `Bearer ${material.token}x`,
    ),
    absurdValue().map((v) => headerSafe(`Bearer ${v}`)),
    absurdValue().map(headerSafe),
  );
  return fc.oneof(
    { weight: 20, arbitrary: fc.constant<FuzzAuth>({ kind: "bearer" }) },
    {
      weight: 4,
      arbitrary: fc
        .record({
          where: fc.constantFrom<"header" | "query">("header", "query"),
          withToken: fc.boolean(),
          nonce: fc.option(
            fc.oneof(
              absurdValue(),
              nastyCharacter().map((c) => `n${c}`),
            ),
            { nil: undefined, freq: 3 },
          ),
          extra: signedExtra(),
        })
        .map((signed): FuzzAuth => ({ kind: "signed", ...signed })),
    },
    { weight: 3, arbitrary: oauthHeader.map((value): FuzzAuth => ({ kind: "header", value })) },
    { weight: 1, arbitrary: otherHeader.map((value): FuzzAuth => ({ kind: "header", value })) },
    {
      weight: 1,
      arbitrary: fc
        .array(oauthParameter(material), { minLength: 1, maxLength: 8 })
        .map((p): FuzzAuth => ({ kind: "query", value: p.map((kv) => kv.replace(/"/g, "")).join("&") })),
    },
    { weight: 1, arbitrary: fc.constant<FuzzAuth>({ kind: "none" }) },
  );
}
