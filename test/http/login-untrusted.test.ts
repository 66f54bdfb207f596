// Guessing one account from many addresses (docs/operations.md "Sign-in throttling"): every client
// without the account's device cookie spends one budget per account, over real loopback
// connections from different client addresses (Linux routes all of 127.0.0.0/8 to the server on
// 127.0.0.1); a browser that signed in to the account before keeps its own allowance.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { issueTemporaryCredentials } from "../../src/services/oauth/oauth.js";
import { DEVICE_COOKIE, SIGNIN_COOKIE } from "../../src/web/session.js";
import { describeEachBackend } from "../support/backends.js";
import { PASSWORD, type TestConsumer, type TestUser } from "../support/factories.js";
import { formEncode, oauth1a } from "../support/oauth.js";
import { type Reply, sendFrom } from "../support/from-address.js";
import { type TestServer, startTestServer } from "../support/server.js";

/** A cookie's value among a reply's `Set-Cookie` headers. */
function cookieOf(reply: Reply, name: string): string | undefined {
  for (const cookie of [reply.headers["set-cookie"] ?? []].flat()) {
    const [pair] = cookie.split(";");
    if (pair?.startsWith(`${name}=`)) return decodeURIComponent(pair.slice(name.length + 1));
  }
  return undefined;
}

const FORM = "application/x-www-form-urlencoded";
const UNTRUSTED_LIMIT = 4;

describeEachBackend("sign-in throttling per account for untrusted clients (device cookies)", (backend) => {
  let server: TestServer;
  let app: TestConsumer;
  let owner: TestUser;
  let guesser: TestUser;

  before(async () => {
    server = await startTestServer(backend, { limits: { loginLimitUntrusted: String(UNTRUSTED_LIMIT) } });
    app = await server.factories.app("Z", "Guessing client");
    owner = await server.factories.user({ email: "owner@example.com" });
    guesser = await server.factories.user({ email: "guesser@example.com" });
  });
  after(() => server.close());

  /** The web sign-in form from `address`, presenting `device` as the device cookie. */
  async function webSignIn(address: string, email: string, password: string, device?: string): Promise<Reply> {
    const page = await sendFrom(`${server.url}/signin`, address);
    const csrf = /name="_csrf" value="([^"]*)"/.exec(page.text)?.[1] ?? "";
    const cookies = [`${SIGNIN_COOKIE}=${encodeURIComponent(cookieOf(page, SIGNIN_COOKIE) ?? "")}`];
    if (device !== undefined) cookies.push(`${DEVICE_COOKIE}=${encodeURIComponent(device)}`);
    return sendFrom(`${server.url}/signin`, address, {
      method: "POST",
      headers: { "content-type": FORM, cookie: cookies.join("; ") },
      body: formEncode({ _csrf: csrf, email, password, next: "/" }),
    });
  }

  /** The OAuth authorize page's form, approved with these credentials, from `address`. */
  async function authorize(address: string, email: string, password: string): Promise<Reply> {
    const registered = { id: app.id, name: "Guessing client", consumerKey: app.key, accessLevel: "Z" as const };
    const temporary = await issueTemporaryCredentials(server, { app: registered, callback: "oob" });
    const page = await sendFrom(
      `${server.url}/oauth/authorize?oauth_token=${encodeURIComponent(temporary.token)}`,
      address,
    );
    const csrf = /name="csrf_token" value="([^"]*)"/.exec(page.text)?.[1] ?? "";
    const fields = { oauth_token: temporary.token, csrf_token: csrf, email, password, decision: "approve" };
    return sendFrom(`${server.url}/oauth/authorize`, address, {
      method: "POST",
      headers: { "content-type": FORM },
      body: formEncode(fields),
    });
  }

  /** xAuth (a signed `POST /oauth/token`) from `address`: never a cookie. */
  async function xAuth(address: string, email: string, password: string): Promise<Reply> {
    const url = `${server.url}/oauth/token`;
    const form = { x_auth_mode: "client_auth", x_auth_username: email, x_auth_password: password };
    const client = oauth1a(app, server.clock);
    const authorization = client.toHeader(client.authorize({ url, method: "POST", data: form })).Authorization;
    return sendFrom(url, address, {
      method: "POST",
      headers: { "content-type": FORM, authorization },
      body: formEncode(form),
    });
  }

  it("guesses from many addresses, each below its own limits, lock out untrusted clients; the owner's browser still signs in", async () => {
    const home = await webSignIn("127.0.0.1", owner.email, PASSWORD);
    assert.equal(home.status, 303);
    const theirs = cookieOf(await webSignIn("127.0.0.9", guesser.email, PASSWORD), DEVICE_COOKIE);

    // One guess from each of UNTRUSTED_LIMIT addresses: each is far below its per-address limits.
    for (let n = 0; n < UNTRUSTED_LIMIT; n++) {
      const address = `127.0.0.${n + 2}`;
      const answer =
        n % 2 === 0
          ? await xAuth(address, owner.email, `guess ${n}`)
          : await webSignIn(address, owner.email, `guess ${n}`);
      assert.equal(answer.status, n % 2 === 0 ? 401 : 200, `guess ${n} from ${address} is checked`);
    }
    const locked = await webSignIn("127.0.0.7", owner.email, PASSWORD);
    assert.equal(locked.status, 429, "a new address, the right password: refused");
    assert.ok(Number(locked.headers["retry-after"]) > 60);
    const xAuthLocked = await xAuth("127.0.0.8", owner.email, PASSWORD);
    assert.equal(xAuthLocked.status, 429, "xAuth has no cookie: untrusted");
    assert.match(xAuthLocked.text, /applications that have not signed in to it before/);
    const device = cookieOf(home, DEVICE_COOKIE);
    assert.ok(device, "a browser that signs in gets a device cookie");
    assert.match(String(home.headers["set-cookie"]), new RegExp(`${DEVICE_COOKIE}=[^;]+;.*HttpOnly`, "i"));
    assert.ok(theirs, "the guesser's own browser is trusted for the guesser's own account");
    assert.equal((await webSignIn("127.0.0.8", owner.email, PASSWORD, "forged-device")).status, 429, "a forged cookie");
    assert.equal((await webSignIn("127.0.0.9", owner.email, PASSWORD, theirs)).status, 429, "another account's cookie");
    assert.equal((await xAuth("127.0.0.9", guesser.email, PASSWORD)).status, 200, "other accounts are not locked");

    const again = await webSignIn("127.0.0.1", owner.email, PASSWORD, device);
    assert.equal(again.status, 303, "the owner's browser, with its device cookie, signs in");
    const renewed = cookieOf(again, DEVICE_COOKIE);
    assert.ok(renewed !== undefined && renewed !== device, "a new device token at each sign-in");
    assert.equal((await webSignIn("127.0.0.1", owner.email, PASSWORD, device)).status, 429, "the old token is spent");
    assert.equal((await webSignIn("127.0.0.10", owner.email, PASSWORD, renewed)).status, 303, "from any address");

    server.clock.advance(15 * 60 * 1000);
    assert.equal((await xAuth("127.0.0.8", owner.email, PASSWORD)).status, 200, "the window over, untrusted again");
  });

  it("a trusted browser's guesses spend its own allowance, not the untrusted budget", async () => {
    server.clock.advance(15 * 60 * 1000);
    const approved = await authorize("127.0.0.1", owner.email, PASSWORD);
    assert.equal(approved.status, 303);
    const device = cookieOf(approved, DEVICE_COOKIE);
    assert.ok(device, "the authorize page trusts its browser too");
    let current = device;
    for (let n = 0; n < UNTRUSTED_LIMIT + 2; n++) {
      const answer = await webSignIn(`127.0.0.${n + 20}`, owner.email, `typo ${n}`, current);
      assert.equal(answer.status, 200, `typo ${n} is checked`);
      current = cookieOf(answer, DEVICE_COOKIE) ?? current;
    }
    assert.equal((await xAuth("127.0.0.2", owner.email, PASSWORD)).status, 200, "the untrusted budget is whole");
    for (let n = 0; n < UNTRUSTED_LIMIT; n++) await xAuth(`127.0.0.${n + 40}`, owner.email, `guess ${n}`);
    assert.equal((await xAuth("127.0.0.2", owner.email, PASSWORD)).status, 429, "now spent by strangers");
    assert.equal((await webSignIn("127.0.0.3", owner.email, PASSWORD, current)).status, 303, "the trusted browser");
  });
});
