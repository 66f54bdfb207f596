// The three-legged OAuth 1.0a flow as a client and a browser drive it, and xAuth, over real HTTP.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import type { TestConsumer, TestUser } from "../support/factories.js";
import { PASSWORD } from "../support/factories.js";
import { request } from "../support/http.js";
import {
  type KeyPair,
  NodeOAuthClient,
  assertProblem,
  formEncode,
  oauth1a,
  oauthParams,
  parseForm,
} from "../support/oauth.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

const CALLBACK = "https://client.example/done?state=a%20b";

describeEachBackend("OAuth 1.0a three-legged flow and xAuth", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let group: Group;
  let app: TestConsumer;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    group = await server.factories.group([alice]);
    app = await server.factories.app("write", 'Calendar <"sync">');
  });
  after(() => server.close());

  /** A signed POST with an oauth-1.0a Authorization header (and form fields in the body). */
  async function signedPost(path: string, consumer: KeyPair, token?: KeyPair, form: Record<string, string> = {}) {
    const url = `${server.url}${path}`;
    const client = oauth1a(consumer, server.clock);
    const headers = {
      authorization: client.toHeader(client.authorize({ url, method: "POST", data: { ...form } }, token)).Authorization,
    };
    // oauth-1.0a moves oauth_* fields (callback, verifier) into the header; the rest stay in the body.
    const body = formEncode(Object.fromEntries(Object.entries(form).filter(([name]) => !name.startsWith("oauth_"))));
    return request(url, { method: "POST", body, contentType: "application/x-www-form-urlencoded", headers });
  }

  async function initiate(callback?: string): Promise<KeyPair> {
    const answer = await signedPost("/oauth/initiate", app, undefined, callback ? { oauth_callback: callback } : {});
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers.get("content-type"), "application/x-www-form-urlencoded");
    const form = parseForm(answer.text);
    assert.equal(form.oauth_callback_confirmed, "true");
    assert.ok(form.oauth_token && form.oauth_token_secret);
    return { key: form.oauth_token, secret: form.oauth_token_secret };
  }

  /** GETs the authorize page and posts its form as a browser would; returns the answer (redirects not followed). */
  async function decide(temporary: KeyPair, fields: Record<string, string>) {
    const page = await request(`${server.url}/oauth/authorize?oauth_token=${encodeURIComponent(temporary.key)}`);
    assert.equal(page.status, 200, page.text);
    const csrf = /name="csrf_token" value="([^"]*)"/.exec(page.text)?.[1];
    assert.ok(csrf, "the form carries a CSRF token");
    const body = new URLSearchParams({ oauth_token: temporary.key, csrf_token: csrf, ...fields }).toString();
    const response = await fetch(`${server.url}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    return {
      status: response.status,
      location: response.headers.get("location"),
      text: await response.text(),
      headers: response.headers,
    };
  }

  async function exchange(temporary: KeyPair, verifier: string) {
    return signedPost("/oauth/token", app, temporary, { oauth_verifier: verifier });
  }

  async function boardAs(consumer: KeyPair, token: KeyPair) {
    const url = `${server.url}/api/board/V2?group=1:${group.id}`;
    const client = new NodeOAuthClient(consumer, server.clock);
    return request(url, { headers: { authorization: client.authHeader(url, token.key, token.secret, "GET") } });
  }

  it("shows the application's name and level on a valid, safe HTML page", async () => {
    const temporary = await initiate(CALLBACK);
    const page = await request(`${server.url}/oauth/authorize?oauth_token=${encodeURIComponent(temporary.key)}`);
    assert.match(page.text, /^<!DOCTYPE html>\n<html lang="en">/);
    assert.match(page.text, /Calendar &lt;&quot;sync&quot;&gt;/, "the name is escaped");
    assert.match(page.text, /<label for="email">[\s\S]*<input id="email"/);
    assert.match(page.text, /<label for="password">[\s\S]*<input id="password"/);
    assert.match(page.text, /id="access-level">write</);
    assert.equal(page.headers.get("content-security-policy"), "default-src 'self'; frame-ancestors 'none'");
    assert.equal(page.headers.get("x-content-type-options"), "nosniff");
    assert.equal(page.headers.get("referrer-policy"), "no-referrer");
    assert.equal(page.headers.get("cache-control"), "no-store");
    assert.equal((await request(`${server.url}/oauth/authorize?oauth_token=nope`)).status, 404);
  });

  it("callback: initiate, sign in and approve, exchange the verifier once, then call the API as the user", async () => {
    const temporary = await initiate(CALLBACK);
    const wrong = await decide(temporary, { email: alice.email, password: "wrong", decision: "approve" });
    assert.equal(wrong.status, 200);
    assert.equal(wrong.location, null, "no redirect, no verifier");
    assert.match(wrong.text, /role="alert"/);
    const approved = await decide(temporary, { email: alice.email, password: PASSWORD, decision: "approve" });
    assert.equal(approved.status, 303);
    const location = new URL(approved.location ?? "");
    assert.equal(`${location.origin}${location.pathname}`, "https://client.example/done");
    assert.equal(location.searchParams.get("state"), "a b", "the callback's own query is kept");
    assert.equal(location.searchParams.get("oauth_token"), temporary.key);
    const verifier = location.searchParams.get("oauth_verifier") ?? "";
    assertProblem(await exchange(temporary, `${verifier}x`), "parameter_rejected");
    const answer = await exchange(temporary, verifier);
    assert.equal(answer.status, 200, answer.text);
    const form = parseForm(answer.text);
    const token = { key: form.oauth_token ?? "", secret: form.oauth_token_secret ?? "" };
    const board = await boardAs(app, token);
    assert.equal(board.status, 200, board.text);
    assert.match(board.text, /<name>Alice<\/name>/, "the caller is the user who approved");
    assertProblem(await exchange(temporary, verifier), "token_rejected");
  });

  it("oob: initiate without oauth_callback, read the verifier from /oauth/verify", async () => {
    const temporary = await initiate();
    const approved = await decide(temporary, { email: alice.email, password: PASSWORD, decision: "approve" });
    assert.equal(approved.status, 303);
    assert.match(approved.location ?? "", /^\/oauth\/verify\?oauth_token=/);
    const page = await request(`${server.url}${approved.location}`);
    assert.equal(page.status, 200);
    const verifier = /id="oauth_verifier">([^<]*)</.exec(page.text)?.[1] ?? "";
    assert.ok(verifier);
    const answer = await exchange(temporary, verifier);
    assert.equal(answer.status, 200, answer.text);
  });

  it("deny: back to the callback with denied=, and the exchange is refused", async () => {
    const temporary = await initiate(CALLBACK);
    const denied = await decide(temporary, { decision: "deny" });
    assert.equal(denied.status, 303);
    assert.equal(new URL(denied.location ?? "").searchParams.get("denied"), temporary.key);
    assertProblem(await exchange(temporary, "anything"), "user_refused");
    const oob = await initiate();
    const page = await decide(oob, { decision: "deny" });
    assert.equal(page.status, 200);
    assert.match(page.text, /Access denied/);
  });

  it("approves only when Approve was pressed: a form without a decision, or with another one, is refused", async () => {
    const temporary = await initiate(CALLBACK);
    const forms: Record<string, string>[] = [
      { email: alice.email, password: PASSWORD },
      { email: alice.email, password: PASSWORD, decision: "" },
      { email: alice.email, password: PASSWORD, decision: "yes" },
      { email: alice.email, password: PASSWORD, decision: "APPROVE" },
    ];
    for (const fields of forms) {
      const refused = await decide(temporary, fields);
      assert.equal(refused.status, 400, JSON.stringify(fields));
      assert.equal(refused.location, null, "no redirect, no verifier");
      assert.match(refused.text, /role="alert" id="error">Choose Approve or Deny: nothing was authorized\./);
    }
    assertProblem(await exchange(temporary, "anything"), "permission_unknown");
    const approved = await decide(temporary, { email: alice.email, password: PASSWORD, decision: "approve" });
    assert.equal(approved.status, 303, "the request still awaits a real decision");
    assert.ok(new URL(approved.location ?? "").searchParams.get("oauth_verifier"));
  });

  it("a forged form (wrong CSRF token) and an expired temporary credential are refused", async () => {
    const temporary = await initiate(CALLBACK);
    const body = new URLSearchParams({
      oauth_token: temporary.key,
      csrf_token: "forged",
      email: alice.email,
      password: PASSWORD,
      decision: "approve",
    });
    const forged = await request(`${server.url}/oauth/authorize`, {
      body: body.toString(),
      contentType: "application/x-www-form-urlencoded",
    });
    assert.equal(forged.status, 403);
    server.clock.advance(10 * 60 * 1000 + 1000);
    assert.equal(
      (await request(`${server.url}/oauth/authorize?oauth_token=${encodeURIComponent(temporary.key)}`)).status,
      404,
    );
  });

  it("xAuth: a level Z application gets a working token for the right password, 401 for a wrong one", async () => {
    const z = await server.factories.app("Z");
    const fields = { x_auth_mode: "client_auth", x_auth_username: alice.email, x_auth_password: PASSWORD };
    const answer = await signedPost("/oauth/token", z, undefined, fields);
    assert.equal(answer.status, 200, answer.text);
    const form = parseForm(answer.text);
    assert.equal(
      (await boardAs(z, { key: form.oauth_token ?? "", secret: form.oauth_token_secret ?? "" })).status,
      200,
    );
    assertProblem(
      await signedPost("/oauth/token", z, undefined, { ...fields, x_auth_password: "wrong" }),
      "permission_denied",
    );
    assertProblem(await signedPost("/oauth/token", app, undefined, fields), "permission_denied");
  });

  it("xAuth with every parameter in the form body (node-oauth signing, the Python client's shape)", async () => {
    const z = await server.factories.app("Z");
    const url = `${server.url}/oauth/token`;
    const client = new NodeOAuthClient(z, server.clock);
    const signed = client.sign("POST", url, {
      x_auth_mode: "client_auth",
      x_auth_username: alice.email,
      x_auth_password: PASSWORD,
    });
    const body = signed
      .map(([name, value]) => `${encodeURIComponent(name ?? "")}=${encodeURIComponent(value ?? "")}`)
      .join("&");
    const answer = await request(url, { body, contentType: "application/x-www-form-urlencoded" });
    assert.equal(answer.status, 200, answer.text);
    const a = oauth1a(z, server.clock);
    const data = { x_auth_mode: "client_auth", x_auth_username: alice.email, x_auth_password: PASSWORD };
    const inBody = formEncode({ ...data, ...oauthParams(a.authorize({ url, method: "POST", data: { ...data } })) });
    assert.equal((await request(url, { body: inBody, contentType: "application/x-www-form-urlencoded" })).status, 200);
  });

  // Found by test/fuzz on PostgreSQL, which cannot compare or store a NUL: each was a 500.
  it("control characters in OAuth parameters, an xAuth user name or a sign-in address are refused, not a fault", async () => {
    const url = `${server.url}/api/board/V2?group=1:${group.id}`;
    const client = oauth1a(alice.consumer, server.clock);
    client.getNonce = () => "nonce\u0000";
    assertProblem(
      await request(url, {
        headers: {
          authorization: client.toHeader(
            client.authorize({ url, method: "GET" }, { key: alice.token, secret: alice.tokenSecret }),
          ).Authorization,
        },
      }),
      "parameter_rejected",
    );
    assertProblem(
      await signedPost("/oauth/initiate", app, undefined, { oauth_callback: "https://client.example/\u0000" }),
      "parameter_rejected",
    );
    const z = await server.factories.app("Z");
    assertProblem(
      await signedPost("/oauth/token", z, undefined, {
        x_auth_mode: "client_auth",
        x_auth_username: `\u0000${alice.email}`,
        x_auth_password: PASSWORD,
      }),
      "permission_denied",
    );
    const signIn = await decide(await initiate(), {
      email: `${alice.email}\u0000`,
      password: PASSWORD,
      decision: "approve",
    });
    assert.equal(signIn.status, 200, signIn.text);
    assert.match(signIn.text, /The e-mail address or the password is wrong/);
  });

  it("initiate and token answer GET too, and refuse an unsigned or badly signed request", async () => {
    const url = `${server.url}/oauth/initiate`;
    const client = oauth1a(app, server.clock);
    const viaGet = await request(url, {
      headers: { authorization: client.toHeader(client.authorize({ url, method: "GET" })).Authorization },
    });
    assert.equal(viaGet.status, 200, viaGet.text);
    assertProblem(await signedPost("/oauth/initiate", { key: app.key, secret: "wrong" }), "signature_invalid");
    assertProblem(
      await signedPost("/oauth/initiate", app, undefined, { oauth_callback: "javascript:alert(1)" }),
      "parameter_rejected",
    );
  });
});
