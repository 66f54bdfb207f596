// The OAuth 1.0a sign-in flows as a client and a browser drive them (three-legged, xAuth), for tests
// that need real OAuth-issued tokens from a test server or a server process.
import assert from "node:assert/strict";
import type { TestClock } from "./clock.js";
import { type Answer, request } from "./http.js";
import { type KeyPair, formEncode, oauth1a, parseForm } from "./oauth.js";

/** A signed POST with an oauth-1.0a Authorization header (oauth_* fields in it, the rest in the body). */
export async function signedPost(
  url: string,
  clock: TestClock,
  consumer: KeyPair,
  token?: KeyPair,
  form: Record<string, string> = {},
): Promise<Answer> {
  const client = oauth1a(consumer, clock);
  const authorization = client.toHeader(
    client.authorize({ url, method: "POST", data: { ...form } }, token),
  ).Authorization;
  const body = formEncode(Object.fromEntries(Object.entries(form).filter(([name]) => !name.startsWith("oauth_"))));
  return request(url, {
    method: "POST",
    body,
    contentType: "application/x-www-form-urlencoded",
    headers: { authorization },
  });
}

/** A signed GET with an oauth-1.0a Authorization header. */
export async function signedGet(url: string, clock: TestClock, consumer: KeyPair, token: KeyPair): Promise<Answer> {
  const client = oauth1a(consumer, clock);
  return request(url, {
    headers: { authorization: client.toHeader(client.authorize({ url, method: "GET" }, token)).Authorization },
  });
}

/** Temporary credentials from `/oauth/initiate`. */
export async function initiate(base: string, clock: TestClock, consumer: KeyPair, callback: string): Promise<KeyPair> {
  const answer = await signedPost(`${base}/oauth/initiate`, clock, consumer, undefined, { oauth_callback: callback });
  assert.equal(answer.status, 200, answer.text);
  const form = parseForm(answer.text);
  return { key: form.oauth_token ?? "", secret: form.oauth_token_secret ?? "" };
}

/** Signs in and approves on `/oauth/authorize` as a browser does; returns the verifier from the callback. */
export async function approve(base: string, temporary: KeyPair, email: string, password: string): Promise<string> {
  const page = await request(`${base}/oauth/authorize?oauth_token=${encodeURIComponent(temporary.key)}`);
  assert.equal(page.status, 200, page.text);
  const csrf = /name="csrf_token" value="([^"]*)"/.exec(page.text)?.[1] ?? "";
  const body = new URLSearchParams({
    oauth_token: temporary.key,
    csrf_token: csrf,
    email,
    password,
    decision: "approve",
  });
  const response = await fetch(`${base}/oauth/authorize`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: body.toString(),
  });
  await response.text();
  assert.equal(response.status, 303);
  const location = response.headers.get("location") ?? "";
  // A callback carries the verifier; "oob" shows it on /oauth/verify.
  if (!location.startsWith("/")) return new URL(location).searchParams.get("oauth_verifier") ?? "";
  const shown = await request(`${base}${location}`);
  return /id="oauth_verifier">([^<]*)</.exec(shown.text)?.[1] ?? "";
}

/** The token credentials of a form answer. */
export function issuedPair(answer: Answer): KeyPair {
  assert.equal(answer.status, 200, answer.text);
  const form = parseForm(answer.text);
  return { key: form.oauth_token ?? "", secret: form.oauth_token_secret ?? "" };
}

/** The whole three-legged flow for `consumer` and a person who approves; returns the access token. */
export async function threeLegged(
  base: string,
  clock: TestClock,
  consumer: KeyPair,
  person: { email: string; password: string },
  callback = "https://client.example/done",
): Promise<KeyPair> {
  const temporary = await initiate(base, clock, consumer, callback);
  const verifier = await approve(base, temporary, person.email, person.password);
  return issuedPair(await signedPost(`${base}/oauth/token`, clock, consumer, temporary, { oauth_verifier: verifier }));
}

/** xAuth (level Z applications): token credentials for an e-mail and password. */
export async function xAuth(
  base: string,
  clock: TestClock,
  consumer: KeyPair,
  person: { email: string; password: string },
): Promise<KeyPair> {
  const fields = { x_auth_mode: "client_auth", x_auth_username: person.email, x_auth_password: person.password };
  return issuedPair(await signedPost(`${base}/oauth/token`, clock, consumer, undefined, fields));
}
