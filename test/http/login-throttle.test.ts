// Sign-in throttling on the OAuth authorize page and xAuth, counted in the database: per account
// from one address and per address, at the boundary, across two server instances over one
// database, and the HTML pages' security headers.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { issueTemporaryCredentials } from "../../src/services/oauth/oauth.js";
import { describeEachBackend } from "../support/backends.js";
import { PASSWORD, type TestConsumer, type TestUser } from "../support/factories.js";
import { request } from "../support/http.js";
import { assertProblem, formEncode, oauth1a } from "../support/oauth.js";
import { type SiblingServer, type TestServer, startSiblingServer, startTestServer } from "../support/server.js";

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** Every HTML page's security headers (http-kit/send.ts PAGE_HEADERS). */
function assertPageHeaders(headers: Headers): void {
  assert.equal(headers.get("content-type"), "text/html; charset=utf-8");
  assert.match(headers.get("content-security-policy") ?? "", /default-src 'self'.*frame-ancestors 'none'/);
  assert.equal(headers.get("x-frame-options"), "DENY");
  assert.equal(headers.get("x-content-type-options"), "nosniff");
  assert.equal(headers.get("referrer-policy"), "no-referrer");
  assert.equal(headers.get("cache-control"), "no-store");
}

describeEachBackend("sign-in throttling", (backend) => {
  let server: TestServer;
  let app: TestConsumer;
  let alice: TestUser;
  let bob: TestUser;
  let second: SiblingServer;

  before(async () => {
    server = await startTestServer(backend, {
      limits: { loginLimitAccount: "3", loginLimitAddress: "8", trustProxy: "127.0.0.1" },
    });
    app = await server.factories.app("Z", "Throttled client");
    alice = await server.factories.user({ email: "alice@example.com" });
    bob = await server.factories.user({ email: "bob@example.com" });
    second = await startSiblingServer(server, {
      limits: { loginLimitAccount: "3", loginLimitAddress: "8", trustProxy: "127.0.0.1" },
    });
  });
  after(async () => {
    await second.close();
    await server.close();
  });

  /** Opens the authorize page of a fresh temporary credential on `base` and posts the sign-in form. */
  async function signIn(base: string, email: string, password: string, address: string) {
    const temporary = await issueTemporaryCredentials(server, {
      app: { id: app.id, name: "Throttled client", consumerKey: app.key, accessLevel: "Z" },
      callback: "oob",
    });
    const page = await request(`${base}/oauth/authorize?oauth_token=${encodeURIComponent(temporary.token)}`);
    assert.equal(page.status, 200);
    assertPageHeaders(page.headers);
    const csrf = /name="csrf_token" value="([^"]*)"/.exec(page.text)?.[1] ?? "";
    const response = await fetch(`${base}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": address },
      body: new URLSearchParams({
        oauth_token: temporary.token,
        csrf_token: csrf,
        email,
        password,
        decision: "approve",
      }).toString(),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  it("refuses an account from an address after 3 failed sign-ins from it, even with the right password, across both servers; others are unaffected", async () => {
    const address = "192.0.2.10";
    for (const base of [server.url, second.url, server.url]) {
      const wrong = await signIn(base, "Alice@Example.com ", "wrong", address);
      assert.equal(wrong.status, 200);
      assert.match(wrong.text, /The e-mail address or the password is wrong/);
    }
    const refused = await signIn(second.url, "alice@example.com", PASSWORD, address);
    assert.equal(refused.status, 429);
    assertPageHeaders(refused.headers);
    assert.match(refused.text, /role="alert" id="error">Too many failed sign-ins/);
    const retryAfter = Number(refused.headers.get("retry-after"));
    assert.ok(retryAfter > 0 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
    assert.equal(
      (await signIn(server.url, "bob@example.com", PASSWORD, address)).status,
      303,
      "Bob signs in from the same address",
    );

    server.clock.advance(FIFTEEN_MINUTES);
    assert.equal((await signIn(server.url, "alice@example.com", PASSWORD, address)).status, 303, "the window is over");
  });

  it("forgets an account's failures once it signs in", async () => {
    const address = "192.0.2.20";
    await signIn(server.url, bob.email, "wrong", address);
    await signIn(server.url, bob.email, "wrong", address);
    assert.equal((await signIn(server.url, bob.email, PASSWORD, address)).status, 303);
    await signIn(server.url, bob.email, "wrong", address);
    await signIn(server.url, bob.email, "wrong", address);
    assert.equal(
      (await signIn(second.url, bob.email, PASSWORD, address)).status,
      303,
      "two failures since the success: under the limit",
    );
  });

  it("refuses an address after 8 failed sign-ins on any accounts, and answers xAuth from it 429 too", async () => {
    server.clock.advance(FIFTEEN_MINUTES);
    const address = "198.51.100.7";
    for (let n = 0; n < 8; n++) {
      assert.equal(
        (await signIn(n % 2 ? second.url : server.url, `nobody${n}@example.com`, "guess", address)).status,
        200,
      );
      server.clock.advance(60 * 1000); // past the address's back-off (login-lockout.test.ts)
    }
    const refused = await signIn(server.url, alice.email, PASSWORD, address);
    assert.equal(refused.status, 429);
    assert.match(refused.text, /Too many failed sign-ins/);
    assert.equal((await signIn(server.url, alice.email, PASSWORD, "198.51.100.8")).status, 303, "another address");

    const xauth = await xAuth(
      server,
      app,
      { x_auth_mode: "client_auth", x_auth_username: alice.email, x_auth_password: PASSWORD },
      address,
    );
    assert.equal(xauth.status, 429, xauth.text);
    assert.match(xauth.text, /<error code="SIGN_IN_THROTTLED">/);
    assert.ok(Number(xauth.headers.get("retry-after")) > 0);
  });

  it("counts xAuth failures like the page's", async () => {
    server.clock.advance(FIFTEEN_MINUTES);
    const address = "203.0.113.5";
    const form = (password: string) => ({
      x_auth_mode: "client_auth",
      x_auth_username: bob.email,
      x_auth_password: password,
    });
    for (let n = 0; n < 3; n++) assertProblem(await xAuth(server, app, form("wrong"), address), "permission_denied");
    assert.equal((await xAuth(server, app, form(PASSWORD), address)).status, 429);
  });
});

/** A signed xAuth POST from `address` (through the trusted proxy). */
async function xAuth(server: TestServer, app: TestConsumer, form: Record<string, string>, address: string) {
  const url = `${server.url}/oauth/token`;
  const client = oauth1a(app, server.clock);
  const authorization = client.toHeader(client.authorize({ url, method: "POST", data: form })).Authorization;
  return request(url, {
    method: "POST",
    body: formEncode(form),
    contentType: "application/x-www-form-urlencoded",
    headers: { authorization, "x-forwarded-for": address },
  });
}

/** A second server instance (its own app, store connection and memory) over the first one's database. */
