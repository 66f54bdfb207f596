// OAuth 1.0a clients for HTTP tests: oauth-1.0a and node-oauth, both signing with the test
// server's fake clock (their own clocks would be far outside the ±10 minute window).
import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { OAuth as NodeOAuth } from "oauth";
import OAuth1a from "oauth-1.0a";
import { TestClock } from "./clock.js";
import type { Answer } from "./http.js";

/** A consumer or token: key and secret. */
export interface KeyPair {
  readonly key: string;
  readonly secret: string;
}

/** Signature methods both libraries speak. */
export type Method = "HMAC-SHA1" | "HMAC-SHA256";

const DIGEST = { "HMAC-SHA1": "sha1", "HMAC-SHA256": "sha256" } as const;

/** An oauth-1.0a client whose timestamps come from `clock`. */
export function oauth1a(consumer: KeyPair, clock: TestClock, method: Method = "HMAC-SHA1"): OAuth1a {
  const client = new OAuth1a({
    consumer,
    signature_method: method,
    hash_function: (base, key) => createHmac(DIGEST[method], key).update(base).digest("base64"),
    body_hash_function: (body) => createHash(DIGEST[method]).update(body).digest("base64"),
  });
  client.getTimeStamp = () => Math.floor(clock.now() / 1000);
  return client;
}

/** node-oauth with its clock replaced; its header builder and signer are protected, so a subclass opens them. */
export class NodeOAuthClient extends NodeOAuth {
  constructor(
    consumer: KeyPair,
    private readonly clock: TestClock,
    method: Method = "HMAC-SHA1",
  ) {
    super("", "", consumer.key, consumer.secret, "1.0", null, method);
  }

  protected override _getTimestamp(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  /** The ordered, signed parameters for a request with extra (form) parameters. */
  sign(method: string, url: string, extra: Record<string, string>, token?: KeyPair): string[][] {
    return this._prepareParameters(token?.key ?? "", token?.secret ?? "", method, url, extra);
  }

  /** The Authorization header for signed parameters. */
  header(ordered: string[][]): string {
    return this._buildAuthorizationHeaders(ordered);
  }
}

/** RFC 3986 encoding, as both libraries write form bodies and queries. */
export function encode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `a=1&b=2` from pairs or an object, RFC 3986 encoded. */
export function formEncode(data: Readonly<Record<string, string | number>>): string {
  return Object.entries(data)
    .map(([name, value]) => `${encode(name)}=${encode(String(value))}`)
    .join("&");
}

/** The oauth_* parameters of an oauth-1.0a authorize() result. */
export function oauthParams(data: OAuth1a.Authorization): Record<string, string> {
  return Object.fromEntries(
    Object.entries(data)
      .filter(([name]) => name.startsWith("oauth_"))
      .map(([name, value]) => [name, String(value)]),
  );
}

/** Reads a form-encoded response body. */
export function parseForm(text: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(text));
}

/** Asserts a 401 form body naming `problem`, with the WWW-Authenticate challenge. */
export function assertProblem(answer: Answer, problem: string): void {
  assert.equal(answer.status, 401, answer.text);
  assert.match(answer.headers.get("www-authenticate") ?? "", /^OAuth realm="[^"]*"$/);
  assert.equal(answer.headers.get("content-type"), "application/x-www-form-urlencoded");
  assert.equal(parseForm(answer.text).oauth_problem, problem, answer.text);
}

/**
 * A temporary credential of `consumer` from the server at `base` (a signed `/oauth/initiate`), as a
 * client gets one before sending a person to the approval page. `clock` signs: a server process
 * runs on the real clock, the test server on its fake one.
 */
export async function temporaryToken(
  base: string,
  consumer: KeyPair,
  clock: TestClock = new TestClock(Date.now()),
): Promise<string> {
  const url = `${base}/oauth/initiate`;
  const client = oauth1a(consumer, clock);
  const answer = await fetch(url, {
    method: "POST",
    headers: { authorization: client.toHeader(client.authorize({ url, method: "POST" })).Authorization },
  });
  const text = await answer.text();
  assert.equal(answer.status, 200, text);
  return parseForm(text).oauth_token ?? "";
}
