// One generated request per run: a method (mostly the endpoint's own), a query, a body of the
// kind the method may carry, and credentials; built into bytes against a running server.
import fc from "fast-check";
import type { Endpoint } from "../../src/http-kit/route.js";
import type { TestUser } from "../support/factories.js";
import { formEncode, oauth1a, oauthParams } from "../support/oauth.js";
import type { TestServer } from "../support/server.js";
import { type AuthMaterial, type FuzzAuth, fuzzAuth, headerSafe } from "./inputs/auth.js";
import { multipartBody } from "./inputs/multipart.js";
import { percentEncode, queryString } from "./inputs/query.js";
import { absurdValue, fieldValue } from "./inputs/values.js";
import { xmlBody } from "./inputs/xml.js";
import type { FuzzRequest } from "./send.js";

/** What a run generates, before it is turned into bytes. */
export interface FuzzSpec {
  readonly method: string;
  /** Damage to the endpoint's path (mostly none). */
  readonly path: (url: string) => string;
  readonly query: string;
  readonly body: { readonly contentType: string | undefined; readonly bytes: Buffer } | undefined;
  readonly chunked: boolean;
  readonly auth: FuzzAuth;
  /** Validators a polling client sends: what the feed cache's fast path answers (or not). */
  readonly conditional: Readonly<Record<string, string>>;
}

/**
 * If-None-Match and If-Modified-Since: absent mostly; "*" (which matches whatever the cache keeps
 * for the caller, so a repeated URL is answered 304 by the fast path), well-formed tags that match
 * nothing, dates, and garbage.
 */
function conditionalHeaders(): fc.Arbitrary<Readonly<Record<string, string>>> {
  const tag = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom("*", '"x"', 'W/"x"', '"x", *', '"x.gzip"', "") },
    { weight: 1, arbitrary: absurdValue() },
  );
  const date = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom("Thu, 01 Jan 2026 00:00:00 GMT", "Sun, 06 Nov 1994 08:49:37 GMT", "0") },
    { weight: 1, arbitrary: absurdValue() },
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant({}) },
    { weight: 3, arbitrary: tag.map((value) => ({ "if-none-match": headerSafe(value) })) },
    // Conditional writes (docs/api.md "Conditional writes"): a tag that matches nothing, `*`, garbage.
    { weight: 1, arbitrary: tag.map((value) => ({ "if-match": headerSafe(value) })) },
    { weight: 1, arbitrary: date.map((value) => ({ "if-modified-since": headerSafe(value) })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(tag, date)
        .map(([t, d]) => ({ "if-none-match": headerSafe(t), "if-modified-since": headerSafe(d) })),
    },
  );
}

const XML_TYPES = [
  "application/atom+xml; charset=utf-8",
  "application/atom+xml",
  "application/xml",
  "text/xml",
  "application/atom+xml; charset=Shift_JIS",
  "APPLICATION/ATOM+XML",
];
const OTHER_TYPES = [
  "text/plain",
  "application/json",
  "application/octet-stream",
  "application/x-www-form-urlencoded",
  "x",
  ";",
  "application/atom+xml; charset",
  "multipart/form-data",
];
const FORM_NAMES = [
  "oauth_token",
  "csrf_token",
  "decision",
  "email",
  "password",
  "x_auth_mode",
  "x_auth_username",
  "x_auth_password",
  "oauth_verifier",
];

function body(ids: readonly string[]): fc.Arbitrary<FuzzSpec["body"]> {
  const xml = xmlBody(ids);
  const form = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...FORM_NAMES), absurdValue()), fieldValue(ids)), {
    maxLength: 6,
  });
  return fc.oneof(
    {
      weight: 14,
      arbitrary: fc
        .tuple(fc.option(fc.constantFrom(...XML_TYPES), { nil: undefined, freq: 8 }), xml)
        .map(([contentType, bytes]) => ({ contentType, bytes })),
    },
    { weight: 3, arbitrary: multipartBody(xml).map(({ contentType, body: bytes }) => ({ contentType, bytes })) },
    {
      weight: 1,
      arbitrary: form.map((pairs) => ({
        contentType: "application/x-www-form-urlencoded",
        bytes: Buffer.from(pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join("&")),
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...OTHER_TYPES),
          fc.oneof(
            xml,
            fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
          ),
        )
        .map(([contentType, bytes]) => ({ contentType, bytes })),
    },
    {
      // What incoming webhooks read (/hooks/:secret): Slack-shaped objects and any JSON at all.
      weight: 2,
      arbitrary: fc
        .oneof(slackLike(), fc.jsonValue({ maxDepth: 24 }))
        .map((value) => ({ contentType: "application/json", bytes: Buffer.from(JSON.stringify(value) ?? "null") })),
    },
    { weight: 1, arbitrary: fc.constant({ contentType: "application/atom+xml", bytes: Buffer.alloc(0) }) },
    {
      weight: 1,
      arbitrary: fc.constant({ contentType: "application/atom+xml", bytes: Buffer.alloc(1024 * 1024 + 1, 0x20) }),
    },
  );
}

/** A payload of Slack's shape with random contents: text, blocks, attachments, of any types. */
function slackLike(): fc.Arbitrary<unknown> {
  const text = fc.oneof(fc.string({ maxLength: 300 }), fc.jsonValue({ maxDepth: 2 }));
  const textObject = fc.record({ type: fc.constantFrom("mrkdwn", "plain_text", "x"), text }, { requiredKeys: [] });
  const block = fc.record(
    {
      type: fc.constantFrom("section", "header", "context", "divider", "image", "rich_text", "actions"),
      text: fc.oneof(textObject, fc.jsonValue({ maxDepth: 2 })),
      fields: fc.array(textObject, { maxLength: 25 }),
      elements: fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 5 }),
      image_url: text,
      alt_text: text,
    },
    { requiredKeys: ["type"] },
  );
  const attachment = fc.record(
    { fallback: text, pretext: text, title: text, title_link: text, text, fields: fc.jsonValue({ maxDepth: 3 }) },
    { requiredKeys: [] },
  );
  return fc.record(
    {
      title: text,
      text,
      blocks: fc.oneof(fc.array(block, { maxLength: 55 }), fc.jsonValue({ maxDepth: 2 })),
      attachments: fc.array(attachment, { maxLength: 22 }),
    },
    { requiredKeys: [] },
  );
}

const PATH_DAMAGE: ReadonlyArray<(url: string) => string> = [
  (url) => `${url}/`,
  (url) => `${url}%`,
  (url) => `${url}%zz`,
  (url) => `${url}%FF`,
  (url) => url.replace("/", "//"),
  (url) => url.toLowerCase(),
  (url) => url.replace(/\/([^/]*)$/, "/%2E%2E/$1"),
  (url) => `${url}/..`,
  (url) => url.replace("/", "/%2F"),
  (url) => `${url};x=1`,
  (url) => `${url}${"/x".repeat(2000)}`,
];

/** Requests aimed at one endpoint: its own methods mostly, every other method now and then. */
export function fuzzSpec(
  endpoint: Endpoint,
  ids: readonly string[],
  valid: Readonly<Record<string, readonly string[]>>,
  material: AuthMaterial,
): fc.Arbitrary<FuzzSpec> {
  const method = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...endpoint.methods) },
    { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD") },
  );
  return fc
    .record({
      method,
      path: fc.oneof(
        { weight: 20, arbitrary: fc.constant((url: string) => url) },
        { weight: 1, arbitrary: fc.constantFrom(...PATH_DAMAGE) },
      ),
      query: queryString(ids, valid),
      body: body(ids),
      withBody: fc.nat({ max: 9 }),
      chunked: fc.boolean(),
      auth: fuzzAuth(material),
      conditional: conditionalHeaders(),
    })
    .map(({ method, path, query, body: b, withBody, chunked, auth, conditional }) => ({
      method,
      path,
      query,
      // GET and HEAD carry a body only now and then; the others nearly always.
      body: (method === "GET" || method === "HEAD" ? withBody === 0 : withBody !== 0) ? b : undefined,
      chunked,
      auth,
      conditional,
    }));
}

/**
 * Characters node's client refuses in a request line are percent-encoded; the rest go as they are.
 * For HEAD, bytes above 0x7e too: the server must refuse such a request line before it knows the
 * method, so its answer has a body, which a HEAD client cannot read.
 */
function pathSafe(value: string, method: string): string {
  return value.replace(method === "HEAD" ? /[^\x21-\x7e]|#/g : /[^\x21-\xff]|#/g, (c) => percentEncode(c));
}

/** Turns a spec into the request sent to `server` as `owner` (whose token the valid credentials use). */
export function buildRequest(spec: FuzzSpec, endpoint: Endpoint, server: TestServer, owner: TestUser): FuzzRequest {
  const headers: Record<string, string> = { ...spec.conditional };
  if (spec.body?.contentType !== undefined) headers["content-type"] = headerSafe(spec.body.contentType);
  let query = spec.query;
  switch (spec.auth.kind) {
    case "bearer":
      headers.authorization = `Bearer ${owner.token}`;
      break;
    case "header":
      headers.authorization = spec.auth.value;
      break;
    case "query":
      query = query === "" ? spec.auth.value : `${query}&${spec.auth.value}`;
      break;
    case "signed": {
      const { where, withToken, nonce, extra } = spec.auth;
      const client = oauth1a(owner.consumer, server.clock);
      const token = withToken ? { key: owner.token, secret: owner.tokenSecret } : undefined;
      query = [query, extra].filter((part) => part !== "").join("&");
      const url = `${server.url}${spec.path(endpoint.url)}${query === "" ? "" : `?${query}`}`;
      // The client library cannot encode a mis-encoded query or a lone surrogate; the signature
      // then covers less (and the server says so), or uses the library's own nonce.
      const attempts = [
        () => client.authorize({ url, method: spec.method }, token),
        () => client.authorize({ url: `${server.url}${endpoint.url}`, method: spec.method }, token),
      ];
      let signed: ReturnType<typeof client.authorize> | undefined;
      for (const useNonce of [true, false]) {
        client.getNonce =
          useNonce && nonce !== undefined ? () => nonce : () => `n${Math.random().toString(36).slice(2)}`;
        for (const attempt of attempts) signed ??= tryOrUndefined(attempt);
      }
      if (signed === undefined) break;
      if (where === "header") headers.authorization = headerSafe(client.toHeader(signed).Authorization);
      else query = `${query === "" ? "" : `${query}&`}${formEncode(oauthParams(signed))}`;
      break;
    }
    case "none":
      break;
  }
  const target = pathSafe(`${spec.path(endpoint.url)}${query === "" ? "" : `?${query}`}`, spec.method);
  return { method: spec.method, target, headers, body: spec.body?.bytes, chunked: spec.chunked };
}

function tryOrUndefined<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch {
    return undefined;
  }
}

/** A short, printable account of a request (bodies can be megabytes). */
export function describeRequest(request: FuzzRequest): string {
  const body =
    request.body === undefined
      ? "(no body)"
      : `${request.body.length} bytes: ${JSON.stringify(request.body.subarray(0, 400).toString("latin1"))}`;
  return `${request.method} ${request.target.slice(0, 400)}\n  headers: ${JSON.stringify(request.headers).slice(0, 400)}\n  body ${body}${request.chunked ? " (chunked)" : ""}`;
}
